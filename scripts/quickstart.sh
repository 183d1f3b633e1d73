#!/usr/bin/env bash
# Installs the project, trains the quick preset on The Big Score (a few minutes on a laptop
# CPU) and prints its evaluation table against the heuristic and random bots.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
heistbench train big_score --config quick --eval "$@"
