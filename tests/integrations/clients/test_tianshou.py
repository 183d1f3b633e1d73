"""Tianshou 2 through its own PettingZoo wrapper: masks respected on every game, bots in its
seats, a trained policy scored by heistbench's evaluation, and the documented example."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("tianshou")

from heistbench.envs import GAMES, module  # noqa: E402
from heistbench.integrations import tianshou as ts  # noqa: E402
from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm  # noqa: E402
from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm  # noqa: E402
from tianshou.data import Collector  # noqa: E402
from tianshou.env import DummyVectorEnv  # noqa: E402

from . import python_blocks  # noqa: E402


def players(game: str) -> list[int]:
    counts = module(game).Game.player_counts
    return sorted({min(counts), max(counts)})


def collect(game: str, n: int, algorithms, episodes: int):
    """`episodes` games on raw envs (an illegal action raises) through Tianshou's collector."""
    env = ts.pettingzoo_env(game, n, raw=True)
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=algorithms(env), env=env)
    envs = DummyVectorEnv([lambda: ts.pettingzoo_env(game, n, raw=True) for _ in range(2)])
    envs.seed([0, 1])
    return Collector(algorithm, envs).collect(n_episode=episodes, reset_before_collect=True)


@pytest.mark.parametrize("game", GAMES)
def test_tianshou_plays_every_game_legally_through_its_pettingzoo_wrapper(game):
    for n in players(game):
        stats = collect(game, n, lambda env, n=n: [
            MARLRandomDiscreteMaskedOffPolicyAlgorithm(env.action_space) for _ in range(n)], 2)
        assert stats.n_collected_episodes == 2
        returns = np.asarray(stats.returns)
        assert returns.shape == (2, n)
        np.testing.assert_allclose(returns.sum(axis=1), 0.0, atol=1e-5)  # win/loss: zero-sum
        assert (returns.max(axis=1) > 0).all()


def test_a_heistbench_bot_plays_a_tianshou_seat():
    game = module("grifters").Game(num_players=2)
    stats = collect("grifters", 2, lambda env: [
        ts.BotAlgorithm("heuristic", game, env.action_space),
        MARLRandomDiscreteMaskedOffPolicyAlgorithm(env.action_space)], 30)
    returns = np.asarray(stats.returns)
    assert (returns[:, 0] > 0).mean() >= 0.7  # the heuristic bot beats random (measured: 0.9+)


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="unknown game"):
        ts.pettingzoo_env("chess")
    with pytest.raises(ValueError, match="num_players"):
        ts.pettingzoo_env("grifters", 9)
    with pytest.raises(ValueError, match="unknown policy"):
        ts.BotAlgorithm("strong", module("grifters").Game(), None)
    with pytest.raises(ValueError, match="steps"):
        ts.train("grifters", steps=0)
    with pytest.raises(ValueError, match="pettingzoo, single-seat"):
        ts.train("grifters", env="gym")


def test_the_pettingzoo_env_gives_the_winners_as_a_flag_per_seat():
    """A shared win must fit the shape of a single one (Tianshou's buffer stores infos in
    fixed-shape arrays): a tie once crashed its collector on Big Deal at 6 players."""
    flags = ts.winner_flags({"winners": [3, 4], "score": 7}, 6)
    assert flags["winners"].tolist() == [False, False, False, True, True, False]
    assert flags["score"] == 7 and ts.winner_flags({"action_mask": 1}, 6) == {"action_mask": 1}
    env = ts.pettingzoo_env("grifters", 2, raw=True)
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    terminated = truncated = False
    while not (terminated or truncated):
        legal = np.flatnonzero(obs["mask"])
        obs, _, terminated, truncated, info = env.step(int(rng.choice(legal)))
    assert info["winners"].shape == (2,) and info["winners"].dtype == bool
    assert info["winners"].any()


def test_the_single_seat_env_gives_tianshou_its_mask():
    env = ts.single_seat_env("big_score", 3, opponents="heuristic")
    obs, _ = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    done = False
    while not done:
        legal = np.flatnonzero(obs["mask"])
        assert legal.size and (obs["mask"] == env.unwrapped.action_masks()).all()
        obs, _, terminated, truncated, info = env.step(int(legal[0]))
        done = terminated or truncated
    # fixed-shape info, as Tianshou's buffer stores it: the winners as one flag per seat
    assert info["winners"].shape == (3,) and info["winners"].any()
    assert info["final_scores"].shape == (3,)


def test_a_trained_policy_is_scored_by_heistbench_evaluation():
    learner, rows = ts.train("grifters", steps=1_500, envs=2, eval_games=40, progress=False)
    assert [r.games for r in rows] == [40, 40]
    assert rows[0].name == "DQN, untrained" and rows[1].name == "DQN (pettingzoo), 1,500 steps"
    policy = ts.TianshouPolicy(learner.policy)
    game = module("grifters").Game(num_players=2)
    state = game.init(np.arange(4))
    actions = policy.act(game.observe(state, state.current_player), state.legal_action_mask)
    assert state.legal_action_mask[np.arange(4), actions].all()


def test_the_command_line_example_runs(capsys):
    ts.main(["grifters", "--steps", "800", "--envs", "2", "--eval-games", "20",
             "--env", "single-seat"])
    out = capsys.readouterr().out
    assert "DQN, untrained" in out and "DQN (single-seat), 800 steps" in out
    assert "win rate" in out


DOC, BLOCKS = python_blocks("tianshou.md")


def test_the_doc_has_its_examples():
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_doc_block_runs(index):
    exec(compile(BLOCKS[index], f"{DOC}:block{index}", "exec"), {})
