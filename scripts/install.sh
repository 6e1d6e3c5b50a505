#!/bin/sh
# The one install step of `make run` / `make test`, the Docker image and CI (.ci/run):
#
#     scripts/install.sh VENV [LOCK [EXTRAS]]
#
# Creates the virtualenv VENV if missing (with $PYTHON, else the first Python >= 3.11
# found), installs this checkout (editable) with exactly the dependencies pyproject.toml
# declares (plus EXTRAS, e.g. "test,bench"), each at the version LOCK pins
# (requirements.lock by default; refreshed by `make lock`), then fails if anything the
# project needs is not pinned by LOCK.  Nothing the lock lists but pyproject.toml no
# longer declares is installed, so a dependency missing from pyproject.toml fails the
# server here and in CI, not on a user's machine.
set -eu
venv=${1:?usage: scripts/install.sh VENV [LOCK [EXTRAS]]}
lock=${2:-requirements.lock}
extras=${3:-}
cd "$(dirname "$0")/.."

if [ ! -x "$venv/bin/python" ]; then
    py=${PYTHON:-}
    if [ -z "$py" ]; then
        for c in python3.11 python3.12 python3.13 python3.14 python3; do
            if command -v "$c" >/dev/null 2>&1 &&
               "$c" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
                py=$c; break
            fi
        done
    fi
    if [ -z "$py" ]; then echo "install: Python >= 3.11 not found (set PYTHON=...)" >&2; exit 1; fi
    "$py" -m venv "$venv"
fi

spec=.
if [ -n "$extras" ]; then spec=".[$extras]"; fi
"$venv/bin/python" -m pip install -q -c "$lock" -e "$spec"
"$venv/bin/python" scripts/check_installed.py "$lock" "$extras"
