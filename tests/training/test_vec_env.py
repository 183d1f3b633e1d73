"""The self-play VecEnv against SB3's expectations and the kernel it runs on."""

from __future__ import annotations

import numpy as np
import pytest
from heistbench.agents.base import sample_legal
from heistbench.envs import game as make_game
from heistbench.training.vec_env import OpponentPool, SelfPlayVecEnv

from heistbench import envs


def make_env(name="big_score", n=16, players=2, mix=None, seed=0):
    game = make_game(name, num_players=players, validate=False)
    pool = OpponentPool(game, mix or {"random": 1.0}, seed=seed)
    return SelfPlayVecEnv(game, n, pool, seed=seed)


def run_random(env, steps, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        masks = env.action_masks()
        env.step_async(sample_legal(masks, rng.random(env.num_envs)))
        out.append(env.step_wait())
    return out


def test_spaces_shapes_dtypes_and_learner_turns():
    env = make_env()
    obs = env.reset()
    n, game = env.num_envs, env.game
    assert obs.shape == (n, game.obs_size) and obs.dtype == np.float32
    assert env.observation_space.contains(obs[0])
    assert env.action_space.n == game.num_actions
    rng = np.random.default_rng(0)
    for _ in range(40):
        env.step_async(sample_legal(env.action_masks(), rng.random(n)))
        obs, rew, done, infos = env.step_wait()
        assert obs.shape == (n, game.obs_size) and obs.dtype == np.float32
        assert rew.shape == (n,) and rew.dtype == np.float32
        assert done.shape == (n,) and done.dtype == bool
        assert isinstance(infos, list) and len(infos) == n
        # the learner is to move in every game, and its observation is what the kernel gives
        assert (env.state.current_player == env.seat).all()
        np.testing.assert_array_equal(obs, game.observe(env.state, env.seat))
        masks = np.stack(env.env_method("action_masks"))
        np.testing.assert_array_equal(masks, env.state.legal_action_mask)
        assert masks.any(axis=1).all()


def test_action_masks_before_reset_raise_and_spaces_match_the_aec_env():
    env = make_env()
    with pytest.raises(RuntimeError, match="reset"):
        env.action_masks()
    aec = envs.make("big_score", num_players=2)
    assert env.observation_space == aec.observation_space("player_0")["observation"]


def test_terminal_rewards_reach_the_learner_and_games_reset():
    env = make_env(n=32)
    env.reset()
    seeds_before = env.next_seed
    finished = 0
    for _, rew, done, infos in run_random(env, 150):
        assert (rew[~done] == 0).all()  # win/loss rewards come only at the end
        for b in np.flatnonzero(done):
            finished += 1
            assert rew[b] in (-1.0, 0.0, 1.0)
            assert infos[b]["episode"]["r"] == pytest.approx(rew[b])
            assert infos[b]["terminal_observation"].shape == (env.game.obs_size,)
            assert infos[b]["TimeLimit.truncated"] is False
    assert finished > 20
    assert env.next_seed >= seeds_before + finished  # every new game had a fresh seed
    assert env.games_finished >= finished


def test_learner_seat_is_drawn_and_rewards_are_balanced():
    env = make_env(n=64, players=3, name="grifters")
    env.reset()
    seats = [env.seat.copy()]
    rewards = []
    for _, rew, done, _ in run_random(env, 120):
        seats.append(env.seat.copy())
        rewards += rew[done].tolist()
    counts = np.bincount(np.concatenate(seats), minlength=3)
    assert (counts > 0).all()
    assert len(rewards) > 10


def test_same_seed_same_trajectory():
    a, b = make_env(seed=3), make_env(seed=3)
    np.testing.assert_array_equal(a.reset(), b.reset())
    for (oa, ra, da, _), (ob, rb, db, _) in zip(run_random(a, 30), run_random(b, 30)):
        np.testing.assert_array_equal(oa, ob)
        np.testing.assert_array_equal(ra, rb)
        np.testing.assert_array_equal(da, db)


def test_pool_mix_and_snapshots():
    from heistbench.agents.model import ModelPolicy

    game = make_game("big_score", num_players=2, validate=False)
    pool = OpponentPool(game, {"self": 1.0}, pool_size=2, seed=0)
    assert (pool.draw(10) == 0).all()  # random stands in before the first snapshot
    env = SelfPlayVecEnv(game, 8, pool)
    from sb3_contrib import MaskablePPO

    model = MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=16, device="cpu",
                        policy_kwargs={"net_arch": [16]})
    for _ in range(3):
        pool.add_snapshot(ModelPolicy.from_sb3(model.policy))
    assert pool.num_snapshots == 2
    assert set(pool.draw(200).tolist()) == {2, 3}
    env.reset()
    run_random(env, 20)
    with pytest.raises(ValueError, match="unknown opponent kind"):
        OpponentPool(game, {"bogus": 1.0})


def test_illegal_learner_action_is_refused():
    env = make_env(n=4)
    env.reset()
    illegal = (~env.action_masks()).argmax(axis=1)
    env.step_async(illegal)
    with pytest.raises(ValueError, match="illegal"):
        env.step_wait()


@pytest.mark.parametrize("name", __import__("heistbench.envs", fromlist=["GAMES"]).GAMES)
def test_every_registered_game_runs_in_the_vec_env(name):
    from heistbench.envs import module

    for players in sorted({module(name).Game.player_counts[0],
                           module(name).Game.player_counts[-1]}):
        env = make_env(name, n=8, players=players, mix={"random": 1.0, "heuristic": 1.0})
        obs = env.reset()
        assert obs.shape == (8, env.game.obs_size)
        results = run_random(env, 25)
        assert (env.state.current_player == env.seat).all()
        assert all(np.isfinite(rew).all() for _, rew, _, _ in results)
