"""The bridges to the optional clients (RLlib, OpenSpiel, Tianshou).

Each test module skips itself where its client is not installed (the main environment), and
`scripts/test_clients.sh` runs them where all are, with HEISTBENCH_CLIENTS=required: there a
skipped test fails the run, so a client that stopped importing cannot pass unseen.
"""

from __future__ import annotations

import os

import pytest

REQUIRED = os.environ.get("HEISTBENCH_CLIENTS") == "required"
_skipped: list[str] = []


def pytest_collectreport(report: pytest.CollectReport) -> None:
    if report.skipped:
        _skipped.append(report.nodeid)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped:
        _skipped.append(report.nodeid)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if REQUIRED and _skipped and exitstatus == 0:
        print(f"\nHEISTBENCH_CLIENTS=required, but these were skipped: {', '.join(_skipped)}")
        session.exitstatus = 1
