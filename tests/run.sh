#!/usr/bin/env bash
# Run the whole slablab test suite, on every CPU; extra arguments go to pytest (and make the run
# serial: add -n auto for workers).
# First run creates ./.venv, installs slablab with its test extras and, as root on Debian,
# the system packages the rendering tests need (Mesa's EGL/llvmpipe, Xvfb for the real-window test).
source "$(dirname "${BASH_SOURCE[0]}")/../.ci/venv.sh"

need=()
for pkg in libegl1 libgl1-mesa-dri xvfb xauth; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ] && command -v apt-get >/dev/null; then
    if [ "$(id -u)" = 0 ]; then
        echo "slablab: installing ${need[*]} (rendering tests need them)" >&2
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
    else
        echo "slablab: missing ${need[*]}; tests that need them will be skipped (sudo apt-get install ${need[*]})" >&2
    fi
fi

cd "$ROOT"
args=()
if [ $# -eq 0 ]; then
    # The whole suite: one worker per CPU (pytest-xdist). Each worker takes a contiguous run of
    # tests and takes over the tail of another's when it is done early ("worksteal"), so the
    # tests that need the same compiled loops mostly run in one process, and numba's cache next
    # to the package (written once) serves the rest. Pass any argument for a serial run.
    args+=(-n auto --dist worksteal)
fi
if [ -n "${CI:-}" ]; then
    args+=(--durations=20)  # CI's log names the 20 slowest tests
fi
exec "$PY" -m pytest ${args[@]+"${args[@]}"} "$@"
