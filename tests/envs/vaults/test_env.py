"""The env module, options, rewards and the observation's public/private split."""

import numpy as np
import pytest
from heistbench.envs import make, vaults_v1
from heistbench.envs.vaults import components as C

from .helpers import random_play


def test_registry_and_defaults():
    env = make("vaults_v1")
    env.reset(seed=3)
    game = env.unwrapped.game
    assert game.num_players == 2 and game.num_actions == 232 and game.obs_size == 6502
    assert vaults_v1.obs_fields(np.zeros(6502))["my_hand"].shape == (54,)


@pytest.mark.parametrize("opt", [{"goal": 99}, {"goal": 2000}, {"max_crews": 9},
                                 {"response_windows": "always"}, {"first_player": 3},
                                 {"max_turns": 10}, {"colour": 1}])
def test_bad_options_raise_value_error_naming_them(opt):
    with pytest.raises(ValueError, match=next(iter(opt))):
        vaults_v1.Game(**opt)


def test_the_crew_cap_is_gone():
    """RB "Forming Crews": "no restriction on the number of crews"; a slot per boss and
    member card, the most crews one seat could ever have, and no option to change it."""
    with pytest.raises(ValueError, match="max_crews.*no limit"):
        vaults_v1.Game(max_crews=6)
    for n in (2, 3, 4):
        g = vaults_v1.Game(num_players=n)
        assert g.K == C.MAX_CREWS == 52 == C.COPIES[:C.TOOL0].sum()
        # 22 + 3 slot ranges of K; the observation: 656 + 2 one-hots of K, N seat blocks
        assert g.num_actions == 22 + C.N_HAND_TYPES + 3 * g.K
        assert g.obs_size == 656 + 2 * g.K + n * (115 + 53 * g.K)


def test_score_rewards_are_zero_sum_margins():
    g = vaults_v1.Game(num_players=3, reward="score", validate=False)
    st = random_play(g, np.arange(6))
    # rewards were handed out at each game's last step; recompute them from the scores
    r = g.terminal_rewards(g.rank_keys(st), g.scores(st))
    assert np.allclose(r.sum(1), 0, atol=1e-5)


def test_opponent_hands_are_counts_only():
    g = vaults_v1.Game(num_players=2)
    st = g.init(np.arange(4))
    while (st.dec == C.D["BOSS_CHOICE"]).any():
        g.step(st, np.where(st.legal_action_mask[:, g.A_OPT], g.A_OPT, 0))
    obs = g.obs_fields(g.observe(st, 0))
    assert np.allclose(obs["player.known_hand"][:, 1], 0)  # nothing of P1's hand is known
    assert np.allclose(obs["player.hand_size"][:, 1, 0], 0.4)  # four cards
    assert np.allclose(obs["my_hand"] * 2, st.hand[:, 0])


def test_render_hides_opponent_hands():
    env = vaults_v1.raw_env(num_players=2, render_mode="ansi")
    env.reset(seed=1)
    g, st = env.game, env.kernel_state
    text = g.render(st, 0, player=0)
    assert "known:" in text and "Public pile 1" in text
    assert "£" not in text.split("Public pile 1")[1].split("\n")[0]


def test_obs_fields_takes_the_env_options():
    g3 = vaults_v1.Game(num_players=3)
    f = vaults_v1.obs_fields(np.zeros(g3.obs_size), num_players=3)
    assert f["player.hand_size"].shape == (3, 1) and f["target_crew"].shape == (52,)


def test_public_pile_order_turns_first_player_and_my_known_cards():
    from .helpers import scenario

    g = vaults_v1.Game(num_players=3, auto_forced=False, first_player=0,
                        response_windows="crack")
    st = scenario(g, hands={0: [13, 13, 32]}, private={2: [4, 9, 20]})
    st.known[0, 0, 13] = 1  # one Knuckles was drawn from the Police station
    st.first_player[0] = 1
    st.turns_taken[0] = [7, 6, 6]
    f = g.obs_fields(g.observe(st, 1))  # seen by P1: P2 is at +1, P0 at +2
    pile = np.round(f["player.vault_pile"][0] * 27)
    assert pile[1, 20] == 1 and pile[1, 9] == 2 and pile[1, 4] == 3  # top first
    assert pile[1].sum() == 6 and pile[0].sum() == 0 and pile[2].sum() == 0
    assert np.allclose(f["player.turns_taken"][0, :, 0] * 300, [6, 6, 7])
    assert f["first_player"][0].argmax() == 0  # P1 itself
    assert f["my_hand_known"][0].sum() == 0
    f0 = g.obs_fields(g.observe(st, 0))
    assert np.allclose(f0["my_hand_known"][0] * 2, np.eye(54)[13])
    assert np.allclose(f["player.known_hand"][0, 2] * 2, np.eye(54)[13])  # as P1 sees it
    assert f0["first_player"][0].argmax() == 1


def test_crack_target_is_relative_to_the_observer_and_targets_clear():
    from .helpers import play, scenario

    g = vaults_v1.Game(num_players=3, auto_forced=False, first_player=0,
                        response_windows="crack")
    st = scenario(g, hands={1: [46]}, crews={(0, 0): [15, 30]}, private={2: [9]})
    play(g, st, g.A_CRACK, g.A_PILE + 4)  # P0 cracks P2's pile (+2 from P0); P1 holds a disrupt
    assert st.dec[0] == C.D["RESPONSE"]
    for me, idx in ((0, 5), (1, 4), (2, 3)):
        f = g.obs_fields(g.observe(st, me))
        assert f["crack_target"][0].argmax() == idx and f["crack_target"][0].sum() == 1
        assert f["target_player"][0].sum() == 0 and f["target_crew"][0].sum() == 0
