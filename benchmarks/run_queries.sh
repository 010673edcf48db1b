#!/usr/bin/env bash
# Run the six-query benchmark; arguments pass to `python -m benchmarks.bench_queries` (try --help).
# First run creates ./.venv and installs slablab into it.
source "$(dirname "${BASH_SOURCE[0]}")/../.ci/venv.sh"
cd "$ROOT"   # `benchmarks` is not an installed package: import it from the checkout
exec "$PY" -m benchmarks.bench_queries "$@"
