#!/usr/bin/env bash
# The web app's browser tests (the last step of the README's test command; the API tests run
# in the main suite): installs Debian's chromium and chromium-driver if missing (as root) and
# the web-test extra, then runs tests/web/test_browser.py with HEISTBENCH_BROWSER=required, so
# a browser test that skips fails the run. Screenshots go to $HEISTBENCH_SCREENSHOTS (default
# build/web-screenshots). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    if [ "$(id -u)" != 0 ]; then
        echo "test_web.sh: needs Debian's chromium and chromium-driver; install them as root" \
             "(apt-get install chromium chromium-driver), or run this as root" >&2
        exit 1
    fi
    apt-get update -qq && apt-get install -y -qq chromium chromium-driver
fi
python -m pip install -q -e ".[web-test]"
export HEISTBENCH_BROWSER=required
export HEISTBENCH_SCREENSHOTS="${HEISTBENCH_SCREENSHOTS:-build/web-screenshots}"
python -m pytest -q -p no:logging tests/web/test_browser.py "$@"
