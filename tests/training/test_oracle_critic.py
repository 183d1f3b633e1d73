"""The critic that sees the hidden state: the vec env and the warm start hand it every seat's
view, it reads them, and the actor that plays still reads its own view alone."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from heistbench.agents import make_policy
from heistbench.agents.base import sample_legal
from heistbench.agents.model import ModelPolicy
from heistbench.envs import game as make_game
from heistbench.training.config import TrainConfig, config_from_dict
from heistbench.training.imitation import bot_rounds
from heistbench.training.vec_env import OpponentPool, SelfPlayVecEnv

torch = pytest.importorskip("torch")


def oracle_env(name="bad_company", players=3, n=8, seed=0):
    game = make_game(name, num_players=players, validate=False)
    return SelfPlayVecEnv(game, n, OpponentPool(game, {"random": 1.0}, seed=seed), seed=seed,
                          oracle=True)


def test_the_oracle_observation_is_the_own_view_then_every_other_seats():
    env = oracle_env()
    game, n, width = env.game, env.num_envs, env.game.obs_size
    assert env.observation_space.shape == (3 * width,)
    obs, rng, ended = env.reset(), np.random.default_rng(0), 0
    for _ in range(300):
        assert obs.shape == (n, 3 * width)
        for q in range(3):  # block q: the view of the seat q places after the learner
            np.testing.assert_array_equal(obs[:, q * width:(q + 1) * width],
                                          game.observe(env.state, (env.seat + q) % 3))
        env.step_async(sample_legal(env.action_masks(), rng.random(n)))
        obs, _, done, infos = env.step_wait()
        for b in np.flatnonzero(done):
            assert infos[b]["terminal_observation"].shape == (3 * width,)
            ended += 1
    assert ended > 0


def test_a_game_that_names_its_private_fields_gives_the_critic_those_of_the_others():
    game = make_game("vaults", num_players=3, validate=False)
    D, P = game.obs_size, game.private_columns.size
    assert game.critic_size == D + 2 * P < 3 * D
    env = SelfPlayVecEnv(game, 8, oracle=True)
    assert env.observation_space.shape == (game.critic_size,)
    obs, rng = env.reset(), np.random.default_rng(0)
    for _ in range(40):
        np.testing.assert_array_equal(obs, game.oracle_view(env.state, env.seat)[
            :, game.critic_columns])
        np.testing.assert_array_equal(obs[:, :D], game.observe(env.state, env.seat))
        for q in (1, 2):  # then each other seat's hand, peeks and boss offer
            np.testing.assert_array_equal(obs[:, D + (q - 1) * P:D + q * P], game.observe(
                env.state, (env.seat + q) % 3)[:, game.private_columns])
        env.step_async(sample_legal(env.action_masks(), rng.random(8)))
        obs = env.step_wait()[0]


def test_private_fields_must_be_observation_fields():
    from heistbench.envs.vaults.kernel import Vaults

    class Misnamed(Vaults):
        private_fields = ("my_hand", "player.known_hand")

    with pytest.raises(ValueError, match=r"\['player.known_hand'\] are not observation fields"):
        Misnamed(num_players=2)


def oracle_model(game, **cfg):
    from heistbench.training.train import policy_class, policy_kwargs
    from sb3_contrib import MaskablePPO

    cfg = TrainConfig(game=game.name, num_players=game.num_players, oracle_critic=True,
                      trunk=32, net_arch=[32], **cfg)
    env = SelfPlayVecEnv(game, 4, oracle=True)
    return MaskablePPO(policy_class(cfg), env, policy_kwargs=policy_kwargs(cfg, game),
                       n_steps=8, batch_size=32, device="cpu", seed=0)


def test_the_actor_reads_its_own_view_alone_and_the_critic_the_others_too():
    game = make_game("bad_company", num_players=2, validate=False)
    policy = oracle_model(game).policy
    env = SelfPlayVecEnv(game, 16, oracle=True)
    full = torch.as_tensor(env.reset())
    other = full.clone()
    other[:, game.obs_size:] = torch.rand(16, game.obs_size)  # other hidden cards
    with torch.no_grad():
        logits = [policy.get_distribution(x).distribution.logits for x in (full, other)]
        values = [policy.predict_values(x) for x in (full, other)]
    torch.testing.assert_close(logits[0], logits[1])
    assert not torch.allclose(values[0], values[1])
    # what plays (a snapshot in the pool, a loaded checkpoint) gets the own view only
    own = full[:, :game.obs_size].numpy()
    played = torch.log_softmax(torch.as_tensor(ModelPolicy.from_sb3(policy).logits(own)), 1)
    torch.testing.assert_close(played, logits[0])


def test_warm_start_rounds_keep_the_movers_oracle_view():
    game = make_game("bad_company", num_players=3, validate=False)
    own = next(bot_rounds(game, make_policy("heuristic", game), seed=4, games=8))
    full = next(bot_rounds(game, make_policy("heuristic", game), seed=4, games=8,
                           oracle=True))
    assert full.obs.shape == (len(own.action), 3 * game.obs_size)
    np.testing.assert_array_equal(full.obs[:, :game.obs_size], own.obs)  # the same decisions
    np.testing.assert_array_equal(full.action, own.action)
    assert not np.array_equal(full.obs[:, game.obs_size:2 * game.obs_size], own.obs)


def test_an_oracle_critic_needs_a_trunk():
    with pytest.raises(ValueError, match="'oracle_critic' needs a trunk"):
        config_from_dict({"oracle_critic": True, "trunk": 0})


def test_a_run_with_an_oracle_critic_gives_a_checkpoint_that_plays_and_exports(tmp_path):
    sets = ["total_timesteps=256", "num_envs=8", "n_steps=16", "batch_size=64", "eval_every=0",
            "final_eval_games=8", "trunk=16", "net_arch=[16]", "oracle_critic=true",
            "imitate=heuristic", "imitate_decisions=2000", "imitate_dagger=0.5"]
    run = tmp_path / "run"
    out = subprocess.run([sys.executable, "-m", "heistbench.cli", "train", "bad_company",
                          *[a for s in sets for a in ("--set", s)], "--players", "3",
                          "--run-dir", str(run), "--no-progress"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    meta = json.loads((run / "meta.json").read_text())
    assert meta["config"]["oracle_critic"] and meta["obs_size"] == make_game(
        "bad_company", num_players=3).obs_size
    game = make_game("bad_company", num_players=3)
    model = ModelPolicy.load(run, game)  # plays from the seat's own observation
    state = game.init(np.arange(4))
    obs = game.observe(state, state.current_player.astype(np.int64))
    action = model.act(obs, state.legal_action_mask)
    assert state.legal_action_mask[np.arange(4), action].all()
    from heistbench.agents.export import export
    from heistbench.agents.runtime import NumpyPolicy

    npz = export(run, tmp_path / "actor.npz", dtype="float32")
    np.testing.assert_allclose(NumpyPolicy.load(npz, game).logits(obs), model.logits(obs),
                               rtol=1e-4, atol=1e-4)
