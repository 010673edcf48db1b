# Sourced by the project's entry scripts (app/run.sh, tests/run.sh, benchmarks/run.sh):
# makes sure ./.venv exists and holds this checkout installed with its test extras.
# The install is redone only when pyproject.toml changes (its hash is stamped in the venv).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"
STAMP="$VENV/.slablab-installed"
want="$(sha256sum "$ROOT/pyproject.toml" | cut -d' ' -f1)"

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
if [ "$(cat "$STAMP" 2>/dev/null)" != "$want" ]; then
    echo "slablab: installing slablab and its dependencies into .venv (first run only)" >&2
    "$PY" -m pip install --quiet --disable-pip-version-check -e "$ROOT[test]"
    echo "$want" > "$STAMP"
fi
