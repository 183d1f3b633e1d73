"""Smoke tests of train, eval, tournament and play as subprocesses with tiny budgets."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

TINY = ["--set", "total_timesteps=256", "--set", "num_envs=8", "--set", "n_steps=16",
        "--set", "batch_size=64", "--set", "eval_every=128", "--set", "eval_games=4",
        "--set", "final_eval_games=8", "--set", "snapshot_every=128", "--set", "trunk=16",
        "--set", "net_arch=[16]"]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "heistbench.cli", *args], capture_output=True,
                          text=True, timeout=300, input=stdin)


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    path = tmp_path_factory.mktemp("runs") / "tiny"
    out = run("train", "big_score", "--config", "quick", *TINY, "--run-dir", str(path),
              "--eval", "--eval-games", "8", "--no-progress")
    assert out.returncode == 0, out.stderr
    assert "learner steps/s" in out.stdout and "win rate" in out.stdout
    assert "random (sanity)" in out.stdout and "heuristic (sanity)" in out.stdout
    return path


def test_train_writes_a_complete_run_directory(run_dir):
    for name in ("model.zip", "meta.json", "eval_history.json", "learning_curve.png",
                 "summary.json"):
        assert (run_dir / name).is_file(), name
    assert list((run_dir / "tb").rglob("events.out.tfevents*"))
    assert list((run_dir / "checkpoints").glob("step_*.zip"))
    meta = json.loads((run_dir / "meta.json").read_text())
    for key in ("game", "env_version", "options", "obs_size", "num_actions", "num_players",
                "config", "seed", "timesteps", "package_version"):
        assert key in meta, key
    assert meta["game"] == "big_score_v1" and meta["timesteps"] >= 256
    history = json.loads((run_dir / "eval_history.json").read_text())
    assert history[0]["timesteps"] == 0 and "random" in history[-1]


def test_eval_prints_table_and_json(run_dir, tmp_path):
    out = run("eval", str(run_dir), "--vs", "heuristic,random", "--games", "8")
    assert out.returncode == 0, out.stderr
    assert "95% CI (Wilson)" in out.stdout and "heuristic (sanity)" in out.stdout
    path = tmp_path / "eval.json"
    out = run("eval", str(run_dir / "model.zip"), "--game", "big_score", "--players", "2",
              "--vs", "random", "--games", "6", "--no-sanity", "--json", str(path))
    assert out.returncode == 0, out.stderr
    data = json.loads(path.read_text())
    assert data["seeds_version"] == 1 and data["rows"][0]["games"] == 6
    assert json.loads(run("eval", "heuristic", "--game", "grifters", "--vs", "random",
                          "--games", "4", "--json").stdout)["rows"][0]["opponent"] == "random"


def test_eval_refuses_a_checkpoint_for_another_setup(run_dir):
    out = run("eval", str(run_dir), "--players", "3", "--games", "3")
    assert out.returncode == 2
    assert "num_players: checkpoint 2, requested 3" in out.stderr


def test_tournament_of_three_policies(run_dir):
    out = run("tournament", str(run_dir), "heuristic", "random", "--games", "6",
              "--no-progress")
    assert out.returncode == 0, out.stderr
    for name in ("tiny", "heuristic", "random", "rating"):
        assert name in out.stdout
    data = json.loads(run("tournament", "heuristic", "random", "random", "--game", "vaults",
                          "--players", "3", "--games", "3", "--json", "--no-progress").stdout)
    assert len(data["standings"]) == 3


def test_play_through_stdin(run_dir):
    answers = "\n".join(["hello", "0", "42"] + ["1"] * 400) + "\n"
    out = run("play", "big_score", "--players", "2", "--seat", "1", "--bots", str(run_dir),
              "--seed", "7", stdin=answers)
    assert out.returncode == 0, out.stderr
    assert "your legal actions:" in out.stdout and "final scores" in out.stdout
    assert out.stdout.count("is not one of the choices") == 3
    three = run("play", "big_score", "--players", "3", "--seat", "2", "--bots",
                "heuristic,random", "--seed", "7", stdin=answers)
    assert three.returncode == 0 and "player_1 (random)" in three.stdout
    quit_early = run("play", "grifters", "--bots", "random", stdin="q\n")
    assert quit_early.returncode == 0 and "abandoned" in quit_early.stdout


def test_bad_config_key_is_named():
    out = run("train", "big_score", "--config", "quick", "--set", "ent_coeff=0.1")
    assert out.returncode == 2
    assert "unknown config key 'ent_coeff'" in out.stderr and "ent_coef" in out.stderr
