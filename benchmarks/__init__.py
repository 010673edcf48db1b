"""slablab benchmarks: run with ``./benchmarks/run.sh`` (not part of the test suite).

The benchmarks time compiled loops, so here every first batch compiles its loop before it runs,
as a large one does. Elsewhere a first batch of up to ``INTERPRETED_FIRST`` items runs
interpreted while its loop compiles in a background thread (``geometry._background``): a
warm-up call on a small scene would then leave timed calls to the interpreter, and the
compilation running beside them. ``bench_startup`` measures that start-up in fresh interpreters,
which do not import this package.
"""

from geometry import _background

_background.INTERPRETED_FIRST = 0
