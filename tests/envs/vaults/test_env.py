"""The env module, options, rewards and the observation's public/private split."""

import numpy as np
import pytest
from heistbench.envs import make, vaults_v0
from heistbench.envs.vaults import components as C

from .helpers import random_play


def test_registry_and_defaults():
    env = make("vaults_v0")
    env.reset(seed=3)
    game = env.unwrapped.game
    assert game.num_players == 2 and game.num_actions == 94 and game.obs_size == 1419
    assert vaults_v0.obs_fields(np.zeros(1419))["my_hand"].shape == (54,)


@pytest.mark.parametrize("opt", [{"goal": 99}, {"goal": 2000}, {"max_crews": 9},
                                 {"response_windows": "always"}, {"first_player": 3},
                                 {"max_turns": 10}, {"colour": 1}])
def test_bad_options_raise_value_error_naming_them(opt):
    with pytest.raises(ValueError, match=next(iter(opt))):
        vaults_v0.Game(**opt)


def test_max_crews_changes_the_sizes():
    g = vaults_v0.Game(max_crews=3)
    # spec §4.2 plus 12 (boss offers), 8 (Fail parts in the effect one-hot), 2 (window kind)
    assert g.num_actions == 76 + 9 and g.obs_size == 597 + 6 + 2 * (87 + 53 * 3)


def test_score_rewards_are_zero_sum_margins():
    g = vaults_v0.Game(num_players=3, reward="score", validate=False)
    st = random_play(g, np.arange(6))
    # rewards were handed out at each game's last step; recompute them from the scores
    r = g.terminal_rewards(g.rank_keys(st), g.scores(st))
    assert np.allclose(r.sum(1), 0, atol=1e-5)


def test_opponent_hands_are_counts_only():
    g = vaults_v0.Game(num_players=2)
    st = g.init(np.arange(4))
    while (st.dec == C.D["BOSS_CHOICE"]).any():
        g.step(st, np.where(st.legal_action_mask[:, 91], 91, 0))
    obs = g.obs_fields(g.observe(st, 0))
    assert np.allclose(obs["player.known_hand"][:, 1], 0)  # nothing of P1's hand is known
    assert np.allclose(obs["player.hand_size"][:, 1, 0], 0.4)  # four cards
    assert np.allclose(obs["my_hand"] * 2, st.hand[:, 0])


def test_render_hides_opponent_hands():
    env = vaults_v0.raw_env(num_players=2, render_mode="ansi")
    env.reset(seed=1)
    g, st = env.game, env.state
    text = g.render(st, 0, player=0)
    assert "known:" in text and "Public pile 1" in text
    assert "£" not in text.split("Public pile 1")[1].split("\n")[0]
