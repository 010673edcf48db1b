# Sourced by the project's entry scripts (app/run.sh, tests/run.sh, benchmarks/*.sh): makes sure
# ./.venv exists and holds this checkout installed (editable) with the extras the caller names in
# SLABLAB_EXTRAS before sourcing: "app" for the demo, "test" (the default, a superset) for the
# suite and the benchmarks. The install is redone only when pyproject.toml changes or more extras
# are wanted (the hash and extras are stamped in the venv).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"
STAMP="$VENV/.slablab-installed"
EXTRAS="${SLABLAB_EXTRAS:-test}"
hash="$(sha256sum "$ROOT/pyproject.toml" | cut -d' ' -f1)"

if [ ! -x "$PY" ]; then
    if ! python3 -c "import venv, ensurepip" >/dev/null 2>&1; then
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
            echo "slablab: installing python3-venv (Debian's python3 ships without it)" >&2
            apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
        else
            echo "slablab: python3's venv module is missing; install it with: sudo apt-get install python3-venv" >&2
            exit 2
        fi
    fi
    echo "slablab: creating $VENV (first run only)" >&2
    python3 -m venv "$VENV"
fi
have="$(cat "$STAMP" 2>/dev/null || true)"
# the test extras include the app's: a venv installed for the tests serves the demo too
if [ "$have" != "$hash test" ] && [ "$have" != "$hash $EXTRAS" ]; then
    echo "slablab: installing slablab[$EXTRAS] and its dependencies into .venv (first run only)" >&2
    "$PY" -m pip install --quiet --disable-pip-version-check -e "$ROOT[$EXTRAS]"
    echo "$hash $EXTRAS" > "$STAMP"
fi
