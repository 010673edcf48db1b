#!/usr/bin/env bash
# Start the slablab demo; arguments pass through to `python -m app` (try --help).
# First run creates ./.venv and installs slablab with its [app] extras into it.
SLABLAB_EXTRAS=app
source "$(dirname "${BASH_SOURCE[0]}")/../.ci/venv.sh"
exec "$PY" -m app "$@"
