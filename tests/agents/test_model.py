"""ModelPolicy: loads checkpoints as batched policies, refuses ones made for something else."""

from __future__ import annotations

import json
import shutil
import zipfile

import numpy as np
import pytest
from heistbench.agents import make_policy
from heistbench.agents.model import META_NAME, ModelPolicy, read_meta
from heistbench.envs import game as make_game


def test_loads_from_run_dir_or_zip_and_plays_legal_moves(checkpoint):
    game = make_game("big_score", num_players=2)
    for spec in (str(checkpoint), str(checkpoint / "model.zip")):
        policy = make_policy(spec, game)
        assert isinstance(policy, ModelPolicy)
        state = game.init(np.arange(32))
        for _ in range(30):
            obs = game.observe(state, np.maximum(state.current_player, 0))
            live = ~state.done
            actions = np.zeros(32, dtype=np.int64)
            actions[live] = policy.act(obs[live], state.legal_action_mask[live])
            assert state.legal_action_mask[live, actions[live]].all()
            game.step(state, actions)  # validating kernel: raises on an illegal action
    greedy = ModelPolicy.load(checkpoint, game, deterministic=True)
    obs, mask = game.observe(state, 0), game.init(np.arange(32)).legal_action_mask
    np.testing.assert_array_equal(greedy.act(obs, mask), greedy.act(obs, mask))


def test_takes_rows_of_finished_games(checkpoint, partly_finished):
    game = make_game("big_score", num_players=2)
    policy = make_policy(str(checkpoint), game)
    state = partly_finished(game)
    obs, mask, over = game.observe(state, state.current_player), state.legal_action_mask, state.done
    a = policy.act(obs, mask)
    assert (a[over] == 0).all() and mask[~over, a[~over]].all()
    with pytest.raises(ValueError, match="action mask must be"):
        policy.act(obs, mask[:, :-1])


@pytest.mark.parametrize("options,what", [
    ({"num_players": 3}, "num_players: checkpoint 2, requested 3"),
    ({"num_players": 2, "reveal_hidden": True}, r"obs_size: checkpoint \d+"),
])
def test_refuses_other_player_count_or_observation(checkpoint, options, what):
    with pytest.raises(ValueError, match=what):
        ModelPolicy.load(checkpoint, make_game("big_score", **options))


def test_refuses_other_game(checkpoint):
    with pytest.raises(ValueError, match="game: checkpoint 'big_score_v1', requested 'vaults_v1'"):
        ModelPolicy.load(checkpoint, make_game("vaults", num_players=2))


def test_refuses_other_env_version(checkpoint, tmp_path):
    path = tmp_path / "old.zip"
    with zipfile.ZipFile(checkpoint / "model.zip") as src, zipfile.ZipFile(path, "w") as dst:
        for item in src.namelist():
            data = src.read(item)
            if item == META_NAME:
                meta = json.loads(data)
                meta["env_version"] = 99
                data = json.dumps(meta).encode()
            dst.writestr(item, data)
    assert read_meta(path)["env_version"] == 99
    want = make_game("big_score").version
    with pytest.raises(ValueError, match=f"env_version: checkpoint 99, requested {want}"):
        ModelPolicy.load(path, make_game("big_score", num_players=2))


def test_refuses_corrupt_missing_and_bare_files(checkpoint, tmp_path):
    game = make_game("big_score", num_players=2)
    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"not a zip at all")
    with pytest.raises(ValueError, match="corrupt"):
        ModelPolicy.load(bad, game)
    truncated = tmp_path / "truncated.zip"
    truncated.write_bytes((checkpoint / "model.zip").read_bytes()[:2000])
    with pytest.raises(ValueError, match="corrupt|could not be loaded"):
        ModelPolicy.load(truncated, game)
    with pytest.raises(FileNotFoundError, match="no checkpoint"):
        ModelPolicy.load(tmp_path / "missing.zip", game)
    with pytest.raises(FileNotFoundError, match="no checkpoint"):
        ModelPolicy.load(tmp_path, game)  # a directory without model.zip
    bare = tmp_path / "bare" / "model.zip"
    bare.parent.mkdir()
    with zipfile.ZipFile(checkpoint / "model.zip") as src, zipfile.ZipFile(bare, "w") as dst:
        for item in src.namelist():
            if item != META_NAME:
                dst.writestr(item, src.read(item))
    with pytest.raises(ValueError, match="no heistbench metadata"):
        ModelPolicy.load(bare, game)
    # ... unless the run directory's meta.json sits beside it
    shutil.copy(checkpoint / "model.zip", tmp_path / "x.zip")
    (bare.parent / "meta.json").write_text(json.dumps(read_meta(tmp_path / "x.zip")))
    assert isinstance(ModelPolicy.load(bare, game), ModelPolicy)
