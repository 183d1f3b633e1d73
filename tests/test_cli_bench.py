"""Smoke tests of `heistbench list` and `heistbench bench` as subprocesses, and of the bench's
start-up timing with stubbed probes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

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
    # every game, each followed by its variants (The Big Score's solo game)
    assert [d["game"] for d in data if "options" not in d] == list(envs.GAMES)
    assert [d["game"] for d in data if "options" in d] == ["big_score_v1 (solo)"]


def test_bench_prints_table_and_json(tmp_path):
    path = tmp_path / "bench.json"
    out = run("bench", "big_score", "--players", "2", "--batch", "1,16", "--seconds", "0.2",
              "--no-progress", "--json", str(path))
    assert out.returncode == 0, out.stderr
    assert "agent-steps/s" in out.stdout and "memory write bandwidth" in out.stdout
    rows = json.loads(path.read_text())
    bandwidth = [r for r in rows if r["mode"] == "bandwidth"]
    assert len(bandwidth) == 1 and bandwidth[0]["write_gb_per_s"] > 0
    rows = [r for r in rows if r["mode"] != "bandwidth"]
    assert {(r["mode"], r["batch"]) for r in rows} == {("floor", 1), ("aec", 1), ("batch", 1),
                                                       ("batch", 16)}
    assert all(r["agent_steps_per_s"] > 0 and r["mean_game_length"] > 0 for r in rows)
    # the observation bytes written per second, beside the bandwidth
    batch = next(r for r in rows if r["batch"] == 16)
    assert batch["obs_bytes"] == 4 * envs.game("big_score", num_players=2).obs_size
    assert batch["obs_gb_per_s"] == batch["agent_steps_per_s"] * batch["obs_bytes"] / 1e9
    out = run("bench", "grifters", "--players", "2", "--batch", "8", "--seconds", "0.2",
              "--clock", "cpu", "--no-progress")
    assert out.returncode == 0 and "grifters_v1" in out.stdout, out.stderr


def test_bench_repeat_reports_the_median_and_range(tmp_path):
    path = tmp_path / "bench.json"
    out = run("bench", "big_score", "--players", "2", "--batch", "8", "--seconds", "0.1",
              "--repeat", "3", "--clock", "cpu", "--no-progress", "--json", str(path))
    assert out.returncode == 0, out.stderr
    assert "(median)" in out.stdout and "range" in out.stdout
    rows = [r for r in json.loads(path.read_text()) if r["mode"] != "bandwidth"]
    assert [(r["mode"], r["batch"]) for r in rows] == [("floor", 1), ("aec", 1), ("batch", 8)]
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


def test_bench_reports_the_floor_and_threads(tmp_path):
    """The AEC figure as a fraction of a do-nothing env wrapped alike, measured in the same
    run; the compiled kernel once per thread count."""
    path = tmp_path / "bench.json"
    out = run("bench", "grifters", "--players", "2", "--batch", "8", "--threads", "1,2",
              "--seconds", "0.1", "--no-progress", "--json", str(path))
    assert out.returncode == 0, out.stderr
    assert "% of floor" in out.stdout
    rows = json.loads(path.read_text())
    floor = next(r for r in rows if r["mode"] == "floor")
    aec = next(r for r in rows if r["mode"] == "aec")
    assert floor["agent_steps_per_s"] > aec["agent_steps_per_s"] > 0
    # timed in alternating slices: the fraction is the median of the slices' ratios
    assert len(aec["floor_ratios"]) == 10
    assert aec["of_floor"] == float(np.median(aec["floor_ratios"])) and aec["of_floor"] > 0
    assert [r["threads"] for r in rows if r["mode"] == "batch"] == [1, 2]
    out = run("bench", "grifters", "--threads", "0", "--no-progress")
    assert out.returncode == 2 and "--threads must be in" in out.stderr


def test_bench_help_explains_the_new_options():
    out = run("bench", "--help")
    assert out.returncode == 0
    assert "--threads" in out.stdout and "--compile" in out.stdout and "floor" in out.stdout


def test_timed_process_runs_with_the_given_cache(tmp_path):
    from heistbench.training.bench import timed_process

    code = ("import json, os; print('noise')\n"
            "print(json.dumps({'cache': os.environ['HEISTBENCH_CACHE_DIR']}))")
    wall, out = timed_process(code, str(tmp_path))
    assert out == {"cache": str(tmp_path)} and wall > 0
    with pytest.raises(RuntimeError, match="probe failed"):
        timed_process("raise SystemExit(3)", str(tmp_path))


def test_compile_times_cold_then_warm_in_one_temporary_cache(monkeypatch):
    """With a stubbed probe: the cold and the warm run share one fresh cache, removed after."""
    from heistbench.training import bench

    caches = []

    def fake(code: str, cache: str) -> tuple[float, dict]:
        caches.append(cache)
        assert os.path.isdir(cache)
        return 10.0 - 9 * (len(caches) - 1), {"first_step_s": 5.0 / len(caches)}

    monkeypatch.setattr(bench, "timed_process", fake)
    times = bench.compile_times("grifters")
    assert times == {"cold_s": 10.0, "cold_start_s": 5.0, "warm_s": 1.0, "warm_start_s": 2.5}
    assert len(set(caches)) == 1 and not os.path.exists(caches[0])
    table = bench.format_compile_table({"grifters_v1": times})
    assert "cold compile s" in table and "10.00" in table


def test_start_probe_from_the_existing_cache():
    """The real probe, warm only (a cold compile takes too long for a test)."""
    from heistbench.envs.core import jit
    from heistbench.envs.grifters import rules
    from heistbench.training.bench import START_PROBE, timed_process

    if not jit.is_cached(jit.cache_dir("grifters", rules.HERE)):
        pytest.skip("the Grifters rules are not compiled into the cache yet")
    wall, out = timed_process(START_PROBE.format(name="grifters"), str(jit.cache_root()))
    assert 0 < out["first_step_s"] <= out["warm_up_s"] < wall
