"""Typed run configs: every packaged YAML loads; unknown or mistyped keys are named."""

from __future__ import annotations

import pytest
from heistbench.training.config import (
    TrainConfig,
    available_configs,
    config_from_dict,
    load_config,
    parse_overrides,
)


@pytest.mark.parametrize("name", available_configs())
def test_packaged_configs_load(name):
    cfg = load_config(name)
    assert isinstance(cfg, TrainConfig)
    assert cfg.total_timesteps > 0


def test_one_config_per_game_plus_quick():
    from heistbench.envs import GAMES

    names = set(available_configs())
    assert "quick" in names
    for game in GAMES:
        assert game.rsplit("_v", 1)[0] in names


def test_unknown_key_is_named_with_a_suggestion():
    with pytest.raises(ValueError, match=r"unknown config key 'learning_rat'.*'learning_rate'"):
        config_from_dict({"learning_rat": 0.1})


@pytest.mark.parametrize("key,value", [("num_envs", "many"), ("num_envs", 2.5),
                                       ("anneal_lr", 1), ("net_arch", [64, "x"]),
                                       ("learning_rate", True), ("opponents", [1, 2])])
def test_mistyped_key_is_named(key, value):
    with pytest.raises(ValueError, match=f"config key '{key}"):
        config_from_dict({key: value})


def test_ints_are_accepted_for_floats_and_bad_mixes_refused():
    assert config_from_dict({"gamma": 1}).gamma == 1.0
    with pytest.raises(ValueError, match="unknown opponent 'selfish'"):
        config_from_dict({"opponents": {"selfish": 1.0}})
    with pytest.raises(ValueError, match="'num_envs' must be positive"):
        config_from_dict({"num_envs": 0})


def test_yaml_file_errors(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("total_timesteps: 10\nbatchsize: 3\n")
    with pytest.raises(ValueError, match="'batchsize'"):
        load_config(str(bad))
    with pytest.raises(ValueError, match="unknown config 'nope'"):
        load_config("nope")
    cfg = load_config("quick", parse_overrides(["total_timesteps=123", "net_arch=[8, 8]"]))
    assert cfg.total_timesteps == 123 and cfg.net_arch == [8, 8]


def test_every_game_has_a_default_run_at_two_players_and_its_largest_count():
    from heistbench.envs import GAMES, player_counts
    from heistbench.training.config import default_config

    for game in GAMES:
        base = game.rsplit("_v", 1)[0]
        top = max(player_counts(game))
        assert default_config(game) == default_config(game, 2) == base
        assert load_config(base).num_players == 2
        name = default_config(game, top)
        assert name == f"{base}_{top}p", name
        cfg = load_config(name)
        assert cfg.game == base and cfg.num_players == top
    assert default_config("big_score", 1) == "big_score_solo"
    assert default_config("grifters", 3) == "grifters"  # no config of its own: 2p's, N set
