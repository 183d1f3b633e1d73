"""scripts/decision_study.py, whose tables the Bad Company README quotes, on a tiny budget."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "decision_study.py"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=600)


def test_copy_study_reports_each_kind_of_decision_beside_its_ceiling():
    out = _run("copy", "bad_company", "--decisions", "3000", "--epochs", "1")
    assert out.returncode == 0, out.stderr
    rows = {r.split("|")[1].strip(): r for r in out.stdout.splitlines() if r.startswith("| ")}
    assert {"chief pairing", "place token", "all"} <= set(rows)
    for row in rows.values():  # percentages, the heuristic's ceiling included
        cells = [c.strip() for c in row.split("|")[2:5]]
        assert all(c.endswith("%") for c in cells) or cells[0] == "share"


def test_hybrid_study_has_a_row_per_kind_asked_and_needs_a_policy():
    out = _run("hybrid", "bad_company", "heuristic", "--games", "4")
    assert out.returncode == 0, out.stderr
    names = [r.split("|")[1].strip() for r in out.stdout.splitlines() if r.startswith("| ")]
    assert names[1:3] == ["none (the heuristic)", "all (the policy, greedy)"]
    assert "chief pairing" in names and "take heist" in names and "game over" not in names
    assert _run("hybrid", "bad_company").returncode != 0  # no policy: a clear error
