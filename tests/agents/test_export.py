"""Export: a checkpoint's actor as ONNX and as the zoo format, played by the NumPy runtime with
the torch policy's actions."""

from __future__ import annotations

import numpy as np
import pytest
from heistbench.agents import make_policy
from heistbench.agents.export import export
from heistbench.agents.model import ModelPolicy
from heistbench.agents.runtime import NumpyPolicy, load_npz
from heistbench.envs import game as make_game

from heistbench.cli import main

onnx = pytest.importorskip("onnx")


@pytest.fixture(scope="module")
def game():
    return make_game("big_score", num_players=2)


@pytest.fixture(scope="module")
def observations(game):
    """A fixed set of observations and masks: every seat to move over 40 random moves of 64
    games."""
    state, obs, masks = game.init(np.arange(64)), [], []
    policy = make_policy("random", game)
    for _ in range(40):
        live = ~state.done
        cp = state.current_player[live].astype(np.int64)
        obs.append(game.observe(state[live], cp))
        masks.append(state.legal_action_mask[live])
        game.step(state, policy.act(np.zeros((64, 1)), state.legal_action_mask))
    return np.concatenate(obs), np.concatenate(masks)


@pytest.fixture(scope="module")
def exported(checkpoint, tmp_path_factory):
    out = tmp_path_factory.mktemp("export")
    return {"onnx": export(checkpoint, out / "actor.onnx"),
            "npz32": export(checkpoint, out / "actor32.npz", dtype="float32"),
            "npz16": export(checkpoint, out / "actor16.npz")}


def test_onnx_is_a_valid_model_with_the_checkpoints_metadata(exported):
    model = onnx.load(str(exported["onnx"]))
    onnx.checker.check_model(model)
    assert [i.name for i in model.graph.input] == ["obs"]
    assert [o.name for o in model.graph.output] == ["logits"]
    meta = NumpyPolicy.load(exported["onnx"]).meta
    assert meta["game"] == "big_score_v1" and meta["num_players"] == 2


@pytest.mark.parametrize("fmt", ["onnx", "npz32"])
def test_numpy_runtime_gives_the_torch_policys_logits_and_actions(exported, checkpoint, game,
                                                                  observations, fmt):
    obs, mask = observations
    torch_policy = ModelPolicy.load(checkpoint, game, seed=3)
    runtime = NumpyPolicy.load(exported[fmt], game, seed=3)
    np.testing.assert_allclose(runtime.logits(obs), torch_policy.logits(obs), atol=1e-5)
    for deterministic in (True, False):
        torch_policy.deterministic = runtime.deterministic = deterministic
        torch_policy.seed(7)
        runtime.seed(7)
        np.testing.assert_array_equal(runtime.act(obs, mask), torch_policy.act(obs, mask))
        assert mask[np.arange(len(obs)), runtime.act(obs, mask)].all()


def test_float16_weights_keep_the_greedy_actions(exported, game, observations):
    obs, mask = observations
    full = NumpyPolicy.load(exported["npz32"], game, deterministic=True)
    half = NumpyPolicy.load(exported["npz16"], game, deterministic=True)
    assert exported["npz16"].stat().st_size < exported["npz32"].stat().st_size
    agree = (half.act(obs, mask) == full.act(obs, mask)).mean()
    assert agree >= 0.99


def test_runtime_refuses_other_games_and_bad_files(exported, tmp_path):
    with pytest.raises(ValueError, match="num_players"):
        NumpyPolicy.load(exported["npz16"], make_game("big_score", num_players=3))
    with pytest.raises(ValueError, match="game"):
        NumpyPolicy.load(exported["onnx"], make_game("grifters", num_players=2))
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="not a heistbench policy file"):
        load_npz(bad)
    bad_onnx = tmp_path / "bad.onnx"
    bad_onnx.write_bytes(b"\x00garbage")
    with pytest.raises(ValueError, match="ONNX"):
        NumpyPolicy.load(bad_onnx)
    with pytest.raises(FileNotFoundError):
        NumpyPolicy.load(tmp_path / "absent.npz")


def test_runtime_refuses_operators_it_does_not_play(tmp_path):
    from onnx import TensorProto, helper

    graph = helper.make_graph([helper.make_node("Softmax", ["obs"], ["logits"])], "g",
                              [helper.make_tensor_value_info("obs", TensorProto.FLOAT, [1, 2])],
                              [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 2])])
    path = tmp_path / "softmax.onnx"
    onnx.save(helper.make_model(graph), str(path))
    with pytest.raises(ValueError, match="Softmax is not supported"):
        NumpyPolicy.load(path)


def test_make_policy_plays_exported_files(exported, game, observations):
    obs, mask = observations
    for path in exported.values():
        policy = make_policy(str(path), game)
        assert mask[np.arange(len(obs)), policy.act(obs, mask)].all()


def test_cli_export_writes_both_formats(checkpoint, tmp_path, capsys):
    assert main(["export", str(checkpoint), "--onnx", str(tmp_path / "m.onnx"),
                 "--npz", str(tmp_path / "m.npz")]) == 0
    assert (tmp_path / "m.onnx").is_file() and (tmp_path / "m.npz").is_file()
    assert "wrote" in capsys.readouterr().out
    assert main(["export", str(checkpoint)]) == 2  # nothing asked for: a clear error
    assert "--onnx" in capsys.readouterr().err


def test_the_play_mode_travels_with_the_file(checkpoint, game, observations, tmp_path,
                                             capsys):
    """An exported policy samples unless its file says greedy; an explicit choice wins."""
    obs, mask = observations
    assert main(["export", str(checkpoint), "--npz", str(tmp_path / "g.npz"),
                 "--play", "greedy"]) == 0
    greedy = NumpyPolicy.load(tmp_path / "g.npz", game)
    assert greedy.meta["play"] == "greedy" and greedy.deterministic
    best = np.where(mask, greedy.logits(obs), -np.inf).argmax(axis=1)
    np.testing.assert_array_equal(make_policy(str(tmp_path / "g.npz"), game).act(obs, mask),
                                  best)
    assert not NumpyPolicy.load(tmp_path / "g.npz", game, deterministic=False).deterministic
    sampled = NumpyPolicy.load(export(checkpoint, tmp_path / "s.onnx"), game)
    assert sampled.meta["play"] == "sample" and not sampled.deterministic
    with pytest.raises(ValueError, match="play must be one of sample, greedy, got 'best'"):
        export(checkpoint, tmp_path / "x.npz", play="best")
