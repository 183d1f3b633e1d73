"""Fixtures of the agents' tests."""

from __future__ import annotations

import pytest
from heistbench.agents.model import write_meta


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    """An untrained (but complete) checkpoint for 2-player Big Score."""
    from heistbench.training.config import config_from_dict
    from heistbench.training.train import build_game, policy_kwargs, run_meta
    from heistbench.training.vec_env import SelfPlayVecEnv
    from sb3_contrib import MaskablePPO

    cfg = config_from_dict({"game": "big_score_v1", "num_envs": 4, "trunk": 16,
                            "net_arch": [16]})
    game = build_game(cfg)
    model = MaskablePPO("MlpPolicy", SelfPlayVecEnv(game, 4), n_steps=8, batch_size=16,
                        policy_kwargs=policy_kwargs(cfg), device="cpu")
    run = tmp_path_factory.mktemp("run")
    model.save(run / "model.zip")
    write_meta(run / "model.zip", run_meta(cfg, game, 0))
    return run
