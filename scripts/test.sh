#!/usr/bin/env bash
# Installs the project, then runs the whole test suite (the README's test command).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
python -m pytest -n 2 -q
