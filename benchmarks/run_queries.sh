#!/usr/bin/env bash
# Run the six-query benchmark; arguments pass to `python -m benchmarks.bench_queries` (try --help),
# except --startup, which prints the start-up table (`benchmarks.bench_startup`) after it.
# First run creates ./.venv and installs slablab into it.
source "$(dirname "${BASH_SOURCE[0]}")/../.ci/venv.sh"
cd "$ROOT"   # `benchmarks` is not an installed package: import it from the checkout
startup=0
args=()
for arg in "$@"; do
    if [ "$arg" = --startup ]; then startup=1; else args+=("$arg"); fi
done
"$PY" -m benchmarks.bench_queries ${args[@]+"${args[@]}"}
if [ "$startup" = 1 ]; then
    echo
    exec "$PY" -m benchmarks.bench_startup
fi
