"""The web app's tests: the API ones run everywhere Flask is installed (the dev extra); the
browser ones run only with HEISTBENCH_BROWSER set, and with HEISTBENCH_BROWSER=required (as
scripts/test_web.sh sets) a skipped browser test fails the run."""

from __future__ import annotations

import os

import pytest

REQUIRED = os.environ.get("HEISTBENCH_BROWSER") == "required"
_skipped: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped and "test_browser" in report.nodeid:
        _skipped.append(report.nodeid)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if REQUIRED and _skipped and exitstatus == 0:
        print(f"\nHEISTBENCH_BROWSER=required, but these were skipped: {', '.join(_skipped)}")
        session.exitstatus = 1
