"""slablab benchmarks: run with ``./benchmarks/run.sh`` (not part of the test suite)."""
