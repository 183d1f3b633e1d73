#!/usr/bin/env bash
# The web app's tests with a real browser: installs Debian's chromium and chromium-driver if
# missing (as root) and the web extra, then runs tests/web with HEISTBENCH_BROWSER=required,
# so a browser test that skips fails the run. Screenshots go to $HEISTBENCH_SCREENSHOTS
# (default build/web-screenshots).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    apt-get update -qq && apt-get install -y -qq chromium chromium-driver
fi
python -m pip install -q -e ".[web-test]"
export HEISTBENCH_BROWSER=required
export HEISTBENCH_SCREENSHOTS="${HEISTBENCH_SCREENSHOTS:-build/web-screenshots}"
python -m pytest -q -p no:logging tests/web "$@"
