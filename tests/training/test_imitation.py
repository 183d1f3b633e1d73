"""The warm start: the bot's games give the right samples, and fitting them makes the learner
play the bot's moves."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from heistbench.agents import make_policy
from heistbench.agents.base import Policy
from heistbench.agents.model import ModelPolicy
from heistbench.training.config import config_from_dict
from heistbench.training.imitation import bot_rounds, fit_figures, imitate

from heistbench import envs


def test_a_round_keeps_the_bots_legal_choices_with_the_movers_return():
    game = envs.game("grifters", num_players=3, validate=False)
    rnd = next(bot_rounds(game, make_policy("heuristic", game), seed=3, games=16))
    k = len(rnd.action)
    assert k > 100 and rnd.obs.shape == (k, game.obs_size) and rnd.obs.dtype == np.float32
    assert rnd.mask[np.arange(k), rnd.action].all()  # the bot's move was legal
    assert (rnd.mask.sum(axis=1) > 1).all()  # forced moves are left out
    # Grifters rewards only at the end, so every return is a seat's total reward of a game
    # (the first round's games are those of the first 16 bot-game seeds, replayed here)
    from heistbench.agents.base import play_out
    from heistbench.training.imitation import SEED_BASE

    state = game.init(SEED_BASE + 3 * (1 << 32) + np.arange(16))
    totals = play_out(game, state, make_policy("heuristic", game))
    assert set(np.unique(rnd.ret)) <= set(np.unique(totals.astype(np.float32)))
    assert len(np.unique(rnd.ret)) >= 2
    again = next(bot_rounds(game, make_policy("heuristic", game), seed=3, games=16))
    np.testing.assert_array_equal(rnd.obs, again.obs)  # a seed gives the same games
    np.testing.assert_array_equal(rnd.action, again.action)


class HighestLegal(Policy):
    """A teacher whose move is a function of the position alone: the highest legal action."""

    name = "highest"

    def act(self, obs, mask):
        return mask.shape[1] - 1 - np.argmax(mask[:, ::-1], axis=1)


def test_with_a_driver_the_driver_plays_and_the_bot_names_its_moves():
    game = envs.game("grifters", num_players=2, validate=False)
    teacher = HighestLegal()
    own = next(bot_rounds(game, teacher, seed=5, games=8))
    driven = next(bot_rounds(game, teacher, seed=5, games=8,
                             driver=lambda: make_policy("random", game, seed=1)))
    for rnd in (own, driven):  # every label is the teacher's move in that position
        np.testing.assert_array_equal(rnd.action, teacher.act(rnd.obs, rnd.mask))
    # the driver's games go elsewhere: random play lasts longer than always the last move
    assert len(driven.action) != len(own.action)
    assert not np.array_equal(driven.obs[:50], own.obs[:50])


def test_fitting_the_bot_makes_the_learner_choose_its_moves():
    torch = pytest.importorskip("torch")
    from heistbench.training.config import TrainConfig
    from heistbench.training.train import build_game, policy_kwargs
    from heistbench.training.vec_env import SelfPlayVecEnv
    from sb3_contrib import MaskablePPO

    torch.manual_seed(0)
    cfg = TrainConfig(game="grifters", trunk=64, net_arch=[64])
    game = build_game(cfg)
    model = MaskablePPO("MlpPolicy", SelfPlayVecEnv(game, 4), policy_kwargs=policy_kwargs(cfg),
                        device="cpu", seed=0)
    bot = make_policy("heuristic", game)
    unseen = next(bot_rounds(game, bot, seed=99))  # other games than those fitted
    before = fit_figures(model.policy, unseen)
    fitted = imitate(model.policy, game, bot, decisions=30_000, epochs=2, dagger=0.5,
                     progress=False, log=lambda s: None)  # the second half: its own games
    after = fit_figures(model.policy, unseen)
    assert after[0] > before[0] + 0.4 and after[0] > 0.6, (before, after)
    assert after[1] < before[1]  # the critic learnt the results too
    assert fitted["decisions"] == 30_000 and 0.5 < fitted["agreement"] <= 1
    # the copy wins about as often as the bot against random play (the bot: about 95%)
    learner = ModelPolicy.from_sb3(model.policy, deterministic=True)
    from heistbench.training.evaluate import evaluate

    row = evaluate(game, learner, make_policy("random", game), 100)
    assert row.win_rate > 0.8, row


@pytest.mark.parametrize("key,value,match", [("imitate", " ", "name a bot"),
                                             ("imitate_decisions", 0, "must be positive"),
                                             ("imitate_epochs", -1, "must be positive"),
                                             ("imitate_dagger", 1.5, r"share in \[0, 1\]")])
def test_bad_warm_start_settings_are_named(key, value, match):
    with pytest.raises(ValueError, match=f"'{key}'.*{match}"):
        config_from_dict({key: value})


def _train(tmp_path, *sets, players: int = 2):
    tiny = ["total_timesteps=256", "num_envs=8", "n_steps=16", "batch_size=64",
            "eval_every=0", "final_eval_games=8", "trunk=16", "net_arch=[16]", *sets]
    args = [a for s in tiny for a in ("--set", s)]
    return subprocess.run([sys.executable, "-m", "heistbench.cli", "train", "big_deal", *args,
                           "--players", str(players),
                           "--run-dir", str(tmp_path / "run"), "--no-progress"],
                          capture_output=True, text=True, timeout=300)


def test_a_run_with_a_warm_start_records_it(tmp_path):
    out = _train(tmp_path, "imitate=heuristic", "imitate_decisions=3000", players=3)
    assert out.returncode == 0, out.stderr
    assert "imitated heuristic on 3,000 decisions" in out.stdout
    meta = json.loads((tmp_path / "run" / "meta.json").read_text())
    assert meta["config"]["imitate"] == "heuristic" and meta["num_players"] == 3
    assert meta["imitation"]["decisions"] == 3000 and 0 <= meta["imitation"]["agreement"] <= 1


def test_an_unknown_bot_to_copy_is_refused_before_training(tmp_path):
    out = _train(tmp_path, "imitate=no_such_bot")
    assert out.returncode != 0
    assert "no_such_bot" in out.stderr and not (tmp_path / "run" / "model.zip").exists()

