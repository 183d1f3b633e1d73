"""The bench of the bridges runs as a script, with a tiny budget."""

from __future__ import annotations

import json
import subprocess
import sys


def test_bench_script_prints_and_writes_every_row(tmp_path):
    out = tmp_path / "bench.json"
    run = subprocess.run(
        [sys.executable, "-m", "heistbench.integrations.bench", "grifters", "--batch", "16",
         "--seconds", "0.05", "--train-steps", "512", "--recipe-steps", "128", "--clock", "cpu",
         "--json", str(out)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "learner steps per cpu-clock second" in run.stdout
    rows = json.loads(out.read_text())["rows"]
    assert [r["client"] for r in rows] == [
        "Gymnasium single-seat env", "Gymnasium single-seat env", "Gymnasium vector env",
        "SB3 VecEnv (sb3_vec_env)", "heistbench train's VecEnv",
        "MaskablePPO on the single-seat env (self-play recipe)",
        "MaskablePPO on sb3_vec_env (training config)", "heistbench train (the project's loop)"]
    assert all(r["steps_per_s"] > 0 for r in rows)
