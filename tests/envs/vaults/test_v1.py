"""The rule changes of vaults_v1, each against the rulebook line it follows."""

import numpy as np
from heistbench.envs.vaults import components as C
from heistbench.envs.vaults.kernel import WIN_ACTION, Vaults

from .helpers import legal, play, scenario
from .test_scenarios import (
    BARON,
    CRACK0,
    CREW0,
    DRAW,
    END,
    HEAVY,
    MECHANIC,
    MOVE0,
    NEW,
    OPT1,
    PASS,
    PILE1,
    PILES_V1,
    SAL,
    SKELETON_KEY,
    TINKER,
)

D = C.D
OPT_B = OPT1


def test_windows_after_every_action_by_default():
    """RB "Disrupts": "played at any time ... even outside the players turn"."""
    g = Vaults(num_players=2, first_player=0)
    assert g.windows == "every_action"
    st = scenario(g, hands={0: [TINKER], 1: [SKELETON_KEY]}, piles=PILES_V1)
    play(g, st, DRAW)
    assert st.win_kind[0] == WIN_ACTION and st.current_player[0] == 1


def test_a_holder_is_asked_even_when_only_pass_is_legal():
    """Spec §2.9/§3.3: with auto_forced on, a holder whose disrupts are unusable (a Skeleton
    Key serves only the active player) is still asked, so the turn order tells nothing."""
    g = Vaults(num_players=2, first_player=0, auto_forced=True)
    st = scenario(g, hands={0: [TINKER], 1: [SKELETON_KEY]}, piles=PILES_V1)
    play(g, st, DRAW)
    assert st.dec[0] == D["RESPONSE"] and st.current_player[0] == 1
    assert legal(st) == {PASS}
    play(g, st, PASS)
    assert st.current_player[0] == 0 and st.win_kind[0] == 0


def test_no_decision_where_nobody_holds_a_disrupt():
    g = Vaults(num_players=3, first_player=0)
    st = scenario(g, hands={0: [TINKER]}, piles=PILES_V1)
    play(g, st, DRAW)
    assert st.current_player[0] == 0 and st.dec[0] == D["MAIN"] and st.win_kind[0] == 0


def test_at_most_three_draws_even_with_a_gained_action():
    """FAQ: "You may draw up to three cards in your Draw/bailout phase"."""
    g = Vaults(num_players=2, first_player=0, auto_forced=False, response_windows="none")
    st = scenario(g, hands={0: [SKELETON_KEY]}, piles=PILES_V1)
    play(g, st, SKELETON_KEY, OPT_B)  # effect B: gain one action
    assert st.actions[0] == 4
    play(g, st, DRAW, DRAW, DRAW)
    assert st.actions[0] == 1 and st.draws[0] == 3
    assert not legal(st) & {DRAW, DRAW + 1, DRAW + 2}


def test_the_declared_crews_slot_is_observed_from_the_declaration():
    g = Vaults(num_players=2, first_player=0, auto_forced=False, response_windows="crack")
    st = scenario(g, crews={(0, 1): [HEAVY, MECHANIC]}, piles=PILES_V1)
    play(g, st, CRACK0 + 1)
    assert st.dec[0] == D["CRACK_TARGET"]
    for seat in (0, 1):
        f = g.obs_fields(g.observe(st, seat))
        assert np.flatnonzero(f["crack_crew"][0]).tolist() == [1]
    play(g, st, PILE1)  # flipped at once (nobody holds a disrupt): the crack is over
    assert g.obs_fields(g.observe(st, 1))["crack_crew"][0].sum() == 0


def test_score_reward_is_the_margin_over_the_goal():
    """Spec §5: r_p = (loot_p - mean of the others' loot) / goal."""
    g = Vaults(num_players=2, first_player=0, auto_forced=False, reward="score", goal=450)
    assert g.score_scale == 450
    st = scenario(g, crews={(0, 0): [SAL, HEAVY, MECHANIC]}, piles=PILES_V1, loot=[400, 90])
    play(g, st, CRACK0, PILE1)  # V9: Success £50
    assert st.terminated[0]
    assert np.allclose(st.rewards[0], [(450 - 90) / 450, (90 - 450) / 450])


def test_a_seat_with_more_than_six_crews_plays_on():
    """RB "Forming Crews": "There is no restriction on the number of crews that one player
    can have in play"."""
    g = Vaults(num_players=2, first_player=0, auto_forced=False, response_windows="crack")
    crews = {(0, k): [C.MEMBER0 + k] for k in range(20)}  # 20 one-member crews
    crews[(0, 10)] = [HEAVY, MECHANIC]  # meets pile 1's 5/2/1
    st = scenario(g, hands={0: [TINKER, BARON]}, crews=crews, piles=PILES_V1)
    assert {CRACK0 + 10, MOVE0 + 10} <= legal(st) and CRACK0 + 9 not in legal(st)
    play(g, st, TINKER)
    assert legal(st) == {CREW0 + k for k in range(20)} | {NEW}
    play(g, st, NEW, CRACK0 + 10, PILE1)
    assert st.crew[0, 0, 20, TINKER] == 1 and st.loot[0, 0] == 50 and st.spent[0, 0, 10]
    f = g.obs_fields(g.observe(st, 1))  # seen by the opponent, at offset +1
    assert f["player.crew20"][0, 1, 0] == 1 and f["player.crew20"][0, 1, 1 + TINKER] == 0.5
    assert f["player.crew10"][0, 1, 48] == 1  # spent
    play(g, st, BARON, NEW)  # crew 21 with the last action: the turn passes
    assert st.crew[0, 0, 21, BARON] == 1 and st.active[0] == 1
    assert g.exists(st)[0, 0].sum() == 22 and not st.spent[0, 0].any()


def test_every_boss_and_member_can_be_a_crew_of_one_seat():
    """52 crews, one per boss and member card: the last card still finds a slot."""
    g = Vaults(num_players=2, first_player=0, auto_forced=False, response_windows="crack")
    chars = C.DECK_TYPES[:C.MAX_CREWS].tolist()  # the 52 bosses and members
    st = scenario(g, hands={0: [chars[-1]]}, crews={(0, k): [t] for k, t in
                                                   enumerate(chars[:-1])})
    play(g, st, chars[-1])
    assert NEW in legal(st)
    play(g, st, NEW)
    assert g.exists(st)[0, 0].all() and st.crew[0, 0, -1, chars[-1]] == 1
    assert legal(st) >= {MOVE0, MOVE0 + 51, END}
    play(g, st, MOVE0 + 51)  # a member alone in its crew moves into another one
    assert legal(st) == {C.MEMBER0 + 19}
    play(g, st, C.MEMBER0 + 19)
    assert NEW not in legal(st) and CREW0 + 50 in legal(st)


def test_crews_used_is_one_past_the_highest_crew():
    """The rules' loops over a seat's crews stop at `crews_used`: a crafted state gets it from
    its crews, a new crew fills the lowest free slot below it, a dissolved top crew lowers it
    past the empty slots beneath, and the slots past it are observed as empty."""
    g = Vaults(num_players=2, first_player=0, auto_forced=False, response_windows="none")
    st = scenario(g, hands={0: [TINKER]}, piles=PILES_V1,
                  crews={(0, 0): [SAL], (0, 3): [HEAVY], (0, 5): [MECHANIC]})
    assert st.crews_used[0].tolist() == [6, 0]
    play(g, st, TINKER, NEW)
    assert st.crew[0, 0, 1, TINKER] == 1 and st.crews_used[0].tolist() == [6, 0]
    play(g, st, MOVE0 + 5, MECHANIC, CREW0 + 3)  # crew 5 dissolves; slot 4 is empty too
    assert st.crews_used[0].tolist() == [4, 0]
    f = g.obs_fields(g.observe(st, 0))
    empty = np.r_[np.zeros(50), np.full(3, 0.5)].astype(np.float32)
    for k in (2, 4, 5, C.MAX_CREWS - 1):
        assert f[f"player.crew{k}"][0, 0].tobytes() == empty.tobytes(), k
    assert f["player.crew3"][0, 0, 1 + HEAVY] == 0.5 and f["player.crew3"][0, 0, 1 + MECHANIC]
