"""The self-play run's pieces that a tiny CLI run cannot show (tests/test_cli.py runs one)."""

from __future__ import annotations

import json

import pytest


def test_the_annealed_learning_rate_never_turns_negative():
    pytest.importorskip("torch")
    from heistbench.training.config import TrainConfig
    from heistbench.training.train import learning_rate

    schedule = learning_rate(TrainConfig(learning_rate=3e-4))
    assert schedule(1.0) == 3e-4 and schedule(0.5) == 1.5e-4
    assert schedule(-0.5) == 0.0  # the update after an overshooting last rollout
    assert learning_rate(TrainConfig(learning_rate=3e-4, anneal_lr=False)) == 3e-4


def _tiny(**keys):
    from heistbench.training.config import config_from_dict

    return config_from_dict({"game": "big_deal", "total_timesteps": 256, "num_envs": 8,
                             "n_steps": 16, "batch_size": 64, "eval_every": 0,
                             "final_eval_games": 0, "trunk": 16, "net_arch": [16], **keys})


@pytest.fixture(scope="module")
def first_run(tmp_path_factory):
    pytest.importorskip("torch")
    from heistbench.training.train import train

    path = tmp_path_factory.mktemp("runs") / "first"
    train(_tiny(), path, progress=False, log=lambda _: None)
    return path


def test_a_continued_run_starts_from_the_checkpoints_weights_and_records_it(first_run, tmp_path):
    import torch
    from heistbench.agents.model import ModelPolicy
    from heistbench.training.train import build_game, train
    from sb3_contrib import MaskablePPO

    cfg = _tiny(init_from=str(first_run), imitate="heuristic", learning_rate=1e-12,
                anneal_lr=False)
    lines: list[str] = []
    train(cfg, tmp_path / "second", progress=False, log=lines.append)
    assert any("starts from" in line and "no copy of the teacher" in line for line in lines)
    meta = json.loads((tmp_path / "second" / "meta.json").read_text())
    first = json.loads((first_run / "meta.json").read_text())
    assert "imitation" not in meta
    assert meta["init_from"] == {"checkpoint": str(first_run),
                                 "timesteps_before": first["timesteps"]}
    # a learning rate of ~0: the continued run's weights are the first run's
    game = build_game(cfg)
    a = ModelPolicy.load(first_run, game).net.state_dict()
    b = MaskablePPO.load(tmp_path / "second" / "model.zip", device="cpu").policy.state_dict()
    assert a.keys() == b.keys()
    assert all(torch.allclose(a[k], b[k], atol=1e-6) for k in a)
    # a chain of continuations counts every step behind it
    train(_tiny(init_from=str(tmp_path / "second")), tmp_path / "third", progress=False,
          log=lambda _: None)
    third = json.loads((tmp_path / "third" / "meta.json").read_text())
    assert third["init_from"]["timesteps_before"] == first["timesteps"] + meta["timesteps"]


@pytest.mark.parametrize("keys,match", [({"trunk": 32}, "trunk=16, net_arch=\\[16\\]"),
                                        ({"num_players": 3}, "num_players: checkpoint 2"),
                                        ({"oracle_critic": True}, "oracle_critic=False")])
def test_a_checkpoint_that_does_not_fit_the_run_is_refused(first_run, tmp_path, keys, match):
    from heistbench.training.train import train

    with pytest.raises(ValueError, match=match):
        train(_tiny(init_from=str(first_run), **keys), tmp_path / "run", progress=False,
              log=lambda _: None)
    assert not (tmp_path / "run" / "model.zip").exists()


def test_init_from_names_a_checkpoint_or_is_left_out(tmp_path):
    from heistbench.training.config import config_from_dict
    from heistbench.training.train import train

    with pytest.raises(ValueError, match="'init_from'.*run directory"):
        config_from_dict({"init_from": " "})
    with pytest.raises(FileNotFoundError, match="no checkpoint"):
        train(_tiny(init_from=str(tmp_path / "nothing")), tmp_path / "run", progress=False,
              log=lambda _: None)


def test_an_oracle_critic_that_read_every_whole_view_keeps_its_critic_view_columns(
        tmp_path, monkeypatch):
    """A run from before the critic view (its critic read every seat's whole view) continues
    with the weights of the columns the critic view keeps."""
    pytest.importorskip("torch")
    import torch
    from heistbench.agents.model import ModelPolicy
    from heistbench.envs.vaults.kernel import Vaults
    from heistbench.training.train import ORACLE_CRITIC_INPUT, build_game, train
    from sb3_contrib import MaskablePPO

    keys = {"game": "vaults", "oracle_critic": True}
    with monkeypatch.context() as m:  # the oracle view, whole
        m.setattr(Vaults, "private_fields", None)
        train(_tiny(**keys), tmp_path / "old", progress=False, log=lambda _: None)
    cfg = _tiny(**keys, init_from=str(tmp_path / "old"), learning_rate=1e-12, anneal_lr=False)
    train(cfg, tmp_path / "new", progress=False, log=lambda _: None)
    game = build_game(cfg)
    old = ModelPolicy.load(tmp_path / "old", game).net.state_dict()
    new = MaskablePPO.load(tmp_path / "new" / "model.zip", device="cpu").policy.state_dict()
    assert old[ORACLE_CRITIC_INPUT].shape[1] == 2 * game.obs_size
    assert new[ORACLE_CRITIC_INPUT].shape[1] == game.critic_size < 2 * game.obs_size
    torch.testing.assert_close(new[ORACLE_CRITIC_INPUT],
                               old[ORACLE_CRITIC_INPUT][:, game.critic_columns])
    assert all(torch.allclose(old[k], new[k], atol=1e-6) for k in old
               if k != ORACLE_CRITIC_INPUT)
