"""RLlib 2 on the new API stack: the turn-based MultiAgentEnv passes RLlib's own check and plays
every game legally, PPO self-play trains with the masking module, the trained policy is scored by
heistbench's evaluation, and the command line and the documented examples run."""

from __future__ import annotations

import re

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

import ray  # noqa: E402
from heistbench.envs import GAMES, module  # noqa: E402
from heistbench.integrations import rllib as rl  # noqa: E402
from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

from . import python_blocks  # noqa: E402

DOC, BLOCKS = python_blocks("rllib.md")


@pytest.fixture(scope="module")
def local_ray():
    if not ray.is_initialized():
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def players(game: str) -> list[int]:
    counts = module(game).Game.player_counts
    return sorted({min(counts), max(counts)})


def play(env: rl.HeistMultiAgentEnv, seed: int) -> tuple[dict, dict, int]:
    """One game of random legal moves (the action space's sample); every seat's summed reward,
    the last infos and the number of moves."""
    obs, _ = env.reset(seed=seed)
    totals = {a: 0.0 for a in env.possible_agents}
    moves = 0
    while True:
        (agent,) = obs
        mask = obs[agent]["action_mask"]
        assert env.observation_spaces[agent].contains(obs[agent])
        action = env.action_spaces[agent].sample()
        assert mask[action] == 1.0
        obs, rewards, terminateds, truncateds, infos = env.step({agent: action})
        moves += 1
        for a, r in rewards.items():
            totals[a] += r
        if terminateds["__all__"] or truncateds["__all__"]:
            assert terminateds["__all__"] and not truncateds["__all__"]
            assert set(obs) == set(env.possible_agents)  # every seat's final observation
            assert all(not o["action_mask"].any() for o in obs.values())
            return totals, infos, moves


@pytest.mark.parametrize("game", GAMES)
def test_the_env_passes_rllibs_check_and_plays_every_game_legally(game):
    for n in players(game):
        env = rl.HeistMultiAgentEnv(game, num_players=n, illegal_action="raise")
        check_multiagent_environments(env)
        totals, infos, moves = play(env, seed=n)
        assert moves > n
        assert sum(totals.values()) == pytest.approx(0.0, abs=1e-5)  # win/loss: zero-sum
        winners = infos["player_0"]["winners"]
        for i, a in enumerate(env.possible_agents):
            assert (totals[a] > 0) == (i in winners)


def test_seeded_resets_replay_their_deals():
    env = rl.HeistMultiAgentEnv("big_score", num_players=3)
    first = env.reset(seed=7)[0]
    again = env.reset(seed=7)[0]
    (a,) = first
    np.testing.assert_array_equal(first[a]["observations"], again[a]["observations"])
    env.reset(seed=7)
    nxt = env.reset()[0]
    env.reset(seed=7)
    (b,) = nxt2 = env.reset()[0]
    np.testing.assert_array_equal(nxt[b]["observations"], nxt2[b]["observations"])


def test_an_illegal_action_loses_or_raises():
    env = rl.HeistMultiAgentEnv("grifters")
    obs, _ = env.reset(seed=0)
    (agent,) = obs
    bad = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
    obs, rewards, terminateds, _, infos = env.step({agent: bad})
    assert terminateds["__all__"] and rewards[agent] == -1.0
    assert infos[agent]["illegal_action"] == bad and infos[agent]["legal_actions"]
    strict = rl.HeistMultiAgentEnv("grifters", illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(ValueError, match="illegal action"):
        strict.step({agent: bad})
    with pytest.raises(ValueError, match="is to move"):
        strict.step({"player_9": 0})


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="unknown game"):
        rl.HeistMultiAgentEnv("chess")
    with pytest.raises(ValueError, match="num_players"):
        rl.HeistMultiAgentEnv("grifters", num_players=9)
    with pytest.raises(ValueError, match="colour"):
        rl.HeistMultiAgentEnv("grifters", colour="red")
    with pytest.raises(ValueError, match="illegal_action"):
        rl.HeistMultiAgentEnv("grifters", illegal_action="ignore")
    with pytest.raises(ValueError, match="needs a 'game'"):
        rl.make_env({"num_players": 2})
    with pytest.raises(ValueError, match="unknown game"):
        rl.register("chess")
    with pytest.raises(ValueError, match="iterations"):
        rl.train("grifters", iterations=0)


def test_the_registered_env_is_built_from_an_env_config():
    from ray.tune.registry import ENV_CREATOR, _global_registry

    name = rl.register("vaults")
    assert name == "heistbench/vaults"
    env = _global_registry.get(ENV_CREATOR, name)({"num_players": 3})
    assert isinstance(env, rl.HeistMultiAgentEnv) and env.game.num_players == 3


def test_two_training_iterations_and_heistbench_evaluation(local_ray):
    config = rl.ppo_config("grifters", 2, hidden=(32,), train_batch=400, minibatch=100,
                           epochs=1)
    algo, rows, speed = rl.train("grifters", 2, iterations=2, eval_games=20, progress=False,
                                 config=config)
    try:
        assert speed["env_steps"] >= 800 and speed["steps_per_s"] > 0
        assert [(r.opponent, r.games) for r in rows] == [("random", 20), ("heuristic", 20)]
        policy = rl.RLlibPolicy(algo.get_module(rl.POLICY))
        game = module("grifters").Game(num_players=2)
        state = game.init(np.arange(16))
        # greedy play stays legal to the end of every game; a policy of two iterations can
        # stall a game (Grifters' moves need not progress), which the step bound then ends
        for _ in range(game.max_steps):
            live = ~state.done
            if not live.any():
                break
            mask = state.legal_action_mask
            actions = policy.act(game.observe(state, state.current_player), mask)
            assert mask[live, actions[live]].all()
            game.step(state, actions)
        assert state.done.all()
    finally:
        algo.stop()


def test_the_command_line_runs(local_ray, capsys):
    rl.main(["vaults", "--iterations", "1", "--eval-games", "10"])
    out = capsys.readouterr().out
    assert "RLlib PPO, 1 iterations" in out and "heuristic" in out
    assert re.search(r"learner: [\d,]+ env steps sampled .* steps/s", out)


def test_the_doc_has_its_examples():
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_doc_block_runs(index, local_ray):
    exec(compile(BLOCKS[index], f"{DOC}:block{index}", "exec"), {})
