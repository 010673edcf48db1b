#!/usr/bin/env bash
# Run the whole slablab test suite; extra arguments go to pytest.
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
ci_args=()
if [ -n "${CI:-}" ]; then
    ci_args+=(--durations=20)  # CI's log names the 20 slowest tests
fi
exec "$PY" -m pytest ${ci_args[@]+"${ci_args[@]}"} "$@"
