#!/usr/bin/env bash
# Tests the bridges to the optional clients (RLlib, OpenSpiel, Tianshou) in their own virtual
# environment, .venv-clients/: ray[rllib] pins an older gymnasium than the project's own install
# takes, so the clients never share the main environment. The first run creates and fills it
# (a few minutes); later runs reuse it. Every client test must run here: a skip fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${HEISTBENCH_CLIENTS_VENV:-.venv-clients}"
PIP=(-m pip install --quiet --disable-pip-version-check)
if [ ! -x "$VENV/bin/python" ]; then
    python -m venv "$VENV"
fi
"$VENV/bin/python" "${PIP[@]}" "torch==2.13.0"
"$VENV/bin/python" "${PIP[@]}" -e ".[dev,rllib,openspiel,tianshou]"
"$VENV/bin/heistbench" compile
HEISTBENCH_CLIENTS=required "$VENV/bin/python" -m pytest -q tests/integrations/clients "$@"
