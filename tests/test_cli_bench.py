"""Smoke tests of `heistbench list` and `heistbench bench` as subprocesses."""

from __future__ import annotations

import json
import subprocess
import sys

from heistbench import envs


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "heistbench.cli", *args], capture_output=True,
                          text=True, timeout=300)


def test_list_shows_every_game():
    out = run("list")
    assert out.returncode == 0, out.stderr
    for name in envs.GAMES:
        assert name in out.stdout
    data = json.loads(run("list", "--json").stdout)
    assert [d["game"] for d in data] == list(envs.GAMES)


def test_bench_prints_table_and_json(tmp_path):
    path = tmp_path / "bench.json"
    out = run("bench", "big_score", "--players", "2", "--batch", "1,16", "--seconds", "0.2",
              "--no-progress", "--json", str(path))
    assert out.returncode == 0, out.stderr
    assert "agent-steps/s" in out.stdout
    rows = json.loads(path.read_text())
    assert {(r["mode"], r["batch"]) for r in rows} == {("aec", 1), ("batch", 1), ("batch", 16)}
    assert all(r["agent_steps_per_s"] > 0 and r["mean_game_length"] > 0 for r in rows)
    out = run("bench", "grifters", "--players", "2", "--batch", "8", "--seconds", "0.2",
              "--clock", "cpu", "--no-progress")
    assert out.returncode == 0 and "grifters_v1" in out.stdout, out.stderr


def test_bench_repeat_reports_the_median_and_range(tmp_path):
    path = tmp_path / "bench.json"
    out = run("bench", "big_score", "--players", "2", "--batch", "8", "--seconds", "0.1",
              "--repeat", "3", "--clock", "cpu", "--no-progress", "--json", str(path))
    assert out.returncode == 0, out.stderr
    assert "(median)" in out.stdout and "range" in out.stdout
    rows = json.loads(path.read_text())
    assert [(r["mode"], r["batch"]) for r in rows] == [("aec", 1), ("batch", 8)]
    for r in rows:
        assert len(r["runs"]) == 3 and r["agent_steps_per_s"] == sorted(r["runs"])[1]
        assert abs(r["games_per_s"] * r["mean_game_length"] - r["agent_steps_per_s"]) < 1e-6 * (
            r["agent_steps_per_s"])


def test_bench_rejects_bad_input():
    out = run("bench", "no_such_game", "--seconds", "0.1")
    assert out.returncode == 2 and "unknown game" in out.stderr
    out = run("bench", "big_score", "--players", "9", "--seconds", "0.1", "--no-progress")
    assert out.returncode == 2 and "--players" in out.stderr
    out = run("bench", "--batch", "x")
    assert out.returncode == 2
    out = run("bench", "big_score", "--repeat", "0", "--no-progress")
    assert out.returncode == 2 and "--repeat must be at least 1" in out.stderr


def test_help_explains_commands():
    out = run("--help")
    assert out.returncode == 0 and "bench" in out.stdout and "list" in out.stdout
