#!/usr/bin/env bash
# Installs heistbench and its test tools into the current Python environment.
# The CPU build of torch goes first so that the project's torch range needs nothing more;
# then the games' rules are compiled into the user's cache once (later runs load it).
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet --disable-pip-version-check "torch==2.13.0"
python -m pip install --quiet --disable-pip-version-check -e ".[dev]"
heistbench compile
