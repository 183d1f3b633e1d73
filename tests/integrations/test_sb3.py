"""Stable-baselines3: the snapshot callback and the SB3 VecEnv with a fixed table."""

from __future__ import annotations

import numpy as np
import pytest
from heistbench.agents.base import RandomPolicy, sample_legal
from heistbench.agents.model import ModelPolicy
from heistbench.integrations import SnapshotCallback, make_single_agent, sb3_vec_env
from heistbench.training.opponents import LatestSnapshot, OpponentPool
from heistbench.training.vec_env import SelfPlayVecEnv
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_util import make_vec_env

from heistbench import envs

TINY = dict(n_steps=32, batch_size=64, n_epochs=1, seed=0, device="cpu",
            policy_kwargs={"net_arch": [16]})


def test_snapshot_callback_seats_the_learner_in_every_env():
    """Through SB3's DummyVecEnv and Monitor: a snapshot at the start, then every `every`."""
    vec = make_vec_env(lambda: make_single_agent("grifters", opponents="self"), n_envs=2)
    model = MaskablePPO("MlpPolicy", vec, **TINY)
    callback = SnapshotCallback(every=64)
    model.learn(256, callback=callback)
    assert callback.snapshots == 1 + model.num_timesteps // 64
    for env in vec.envs:
        snapshot = env.unwrapped.opponents.slots[0]
        assert isinstance(snapshot, LatestSnapshot) and snapshot.snapshots == callback.snapshots
        assert isinstance(snapshot.policy, ModelPolicy)
    with pytest.raises(ValueError, match="positive"):
        SnapshotCallback(every=0)


def test_snapshot_callback_needs_a_self_seat():
    model = MaskablePPO("MlpPolicy", make_single_agent("grifters"), **TINY)
    with pytest.raises(ValueError, match="give 'self'"):
        model.learn(32, callback=SnapshotCallback(every=32))


def test_snapshot_callback_feeds_the_training_pool():
    game = envs.game("grifters", num_players=2, validate=False)
    pool = OpponentPool(game, {"self": 1.0}, pool_size=2)
    model = MaskablePPO("MlpPolicy", SelfPlayVecEnv(game, 8, pool), **TINY)
    model.learn(512, callback=SnapshotCallback(every=128))
    assert pool.num_snapshots == 2 and pool.snapshots_added >= 4


def test_sb3_vec_env_seats_the_table_it_is_given():
    first, second = RandomPolicy(seed=1), RandomPolicy(seed=2)
    vec = sb3_vec_env("grifters", 16, seat=2, opponents=[first, second], num_players=3)
    vec.reset()
    assert (vec.seat == 2).all()
    assert all(vec.pool.slots[s] is first for s in vec.opp[:, 0])
    assert all(vec.pool.slots[s] is second for s in vec.opp[:, 1])
    rng = np.random.default_rng(0)
    for _ in range(100):
        vec.step_async(sample_legal(vec.action_masks(), rng.random(16)))
        vec.step_wait()
        assert (vec.seat == 2).all() and (vec.state.current_player == 2).all()
    with pytest.raises(ValueError, match="seat must be"):
        sb3_vec_env("grifters", 4, seat=3)


def test_sb3_vec_env_self_play_trains():
    vec = sb3_vec_env("grifters", 32, opponents="self")
    model = MaskablePPO("MlpPolicy", vec, **TINY)
    model.learn(2048, callback=SnapshotCallback(every=1024))
    snapshot = vec.pool.slots[0]
    assert isinstance(snapshot, LatestSnapshot) and snapshot.snapshots == 3
    assert vec.games_finished > 0
