"""The spec's scenario tests (§7), written as action scripts with expected results.

Action ids are named from the game's layout (every seat has `MAX_CREWS` crew slots): cards
0-53 by type, then move from crew k, crack with crew k, the three draws, end turn, crew k, new
crew, boss to police, player +r, piles (public 1-3, opponent +1..+3), skills, options, pass.
"""

import numpy as np
from heistbench.envs.vaults import components as C
from heistbench.envs.vaults.kernel import Vaults

from .helpers import legal, play, scenario, top_char, top_private, top_tool

D = C.D
CRACK0, MOVE0, CREW0 = Vaults.A_CRACK, Vaults.A_MOVE, Vaults.A_CREW
DRAW, END, NEW, POLICE = Vaults.A_DRAW, Vaults.A_END, Vaults.A_NEW, Vaults.A_POLICE
DRAW_PC, DRAW_PT = DRAW + 1, DRAW + 2
PLAYER0, PILE1, PILE2, PILE3, OPP1 = (Vaults.A_PLAYER, Vaults.A_PILE, Vaults.A_PILE + 1,
                                      Vaults.A_PILE + 2, Vaults.A_PILE + 3)
SKILL_P, OPT0, OPT1, PASS = Vaults.A_SKILL, Vaults.A_OPT, Vaults.A_OPT + 1, Vaults.A_PASS
# cards
PATRICIA, BARON, IRONLACE, OLD_TOM, SILAS = 0, 1, 2, 4, 6
BRUISER, KNUCKLES, HEAVY, LILY, TINKER, SAL, SPARKS = 12, 13, 15, 16, 17, 19, 20
POWDER, JOAT, MECHANIC, SAPPER = 21, 24, 30, 31
CROWBAR, HYD_JACK, LOCKPICK_SET, DYNAMITE = 32, 34, 35, 38
SKELETON_KEY, ALARM, BAD_INTEL, CASING = 44, 46, 48, 52
PILES_V1 = {0: [1, 2, 3, 4, 5, 6, 7, 8, 9], 1: [18], 2: [24]}


def game(n=2, **kw):
    """The scenarios' game: windows after crack declarations only unless a test says (the
    spec's scripts predate the every-action default of v1)."""
    kw.setdefault("response_windows", "crack")
    return Vaults(num_players=n, auto_forced=False, first_player=0, **kw)


def test_v1_the_521_vault():
    g = game()
    st = scenario(g, crews={(0, 0): [HEAVY, MECHANIC]}, piles=PILES_V1)
    assert CRACK0 in legal(st)
    play(g, st, CRACK0)
    assert legal(st) == {PILE1}
    play(g, st, PILE1)
    assert top_private(st, 0) == 9 and st.loot[0, 0] == 50 and st.revealed[0, 9]
    assert st.actions[0] == 2 and st.phase[0] == 3 and st.spent[0, 0, 0]
    assert st.vpub_len[0, 0] == 8
    assert not legal(st) & {CRACK0, DRAW, DRAW_PC, DRAW_PT} and END in legal(st)


def test_v1_negative():
    for third in (TINKER, JOAT):  # 4/3/1 short of P, 5/1/1 short of M
        st = scenario(game(), crews={(0, 0): [HEAVY, third]}, piles=PILES_V1)
        assert CRACK0 not in legal(st)


def test_v2_overload():
    g = game()
    st = scenario(g, crews={(0, 0): [JOAT, LILY, HYD_JACK]}, piles=PILES_V1)
    play(g, st, CRACK0)
    assert legal(st) == {PILE1}
    play(g, st, PILE1)
    assert legal(st) == {HYD_JACK}  # 3/5/1 does not meet 5/2/1 without the overload
    play(g, st, HYD_JACK)
    assert legal(st) == {PASS}
    play(g, st, PASS)
    assert st.loot[0, 0] == 50 and top_tool(st) == HYD_JACK
    assert st.crew[0, 0, 0, C.TOOL0:].sum() == 0


def test_v2_overload_fail_variant():
    g = game()
    piles = dict(PILES_V1)
    piles[0] = [1, 2, 3, 11]
    st = scenario(g, crews={(0, 0): [JOAT, LILY, HYD_JACK]}, piles=piles)
    play(g, st, CRACK0, PILE1, HYD_JACK, PASS)
    assert st.dec[0] == D["FAIL_CARD"] and legal(st) == {LILY, JOAT}
    play(g, st, LILY)
    assert int(st.pchar[0, st.pc_len[0] - 1]) == LILY
    assert st.actions[0] == 3  # 3 - 1 (flip) + 1 (the Fail front)
    assert top_tool(st) == HYD_JACK  # overloaded: jailed even on a Fail
    assert top_private(st, 0) == 11 and st.loot[0, 0] == 0


def test_v3_refreshed_crew():
    g = game()
    piles = {0: [1, 18, 9], 1: [3, 0], 2: [24]}
    st = scenario(g, crews={(0, 0): [HEAVY, MECHANIC, KNUCKLES], (0, 1): [TINKER]}, piles=piles)
    play(g, st, CRACK0, PILE1)
    assert st.actions[0] == 2
    assert CRACK0 not in legal(st) and CRACK0 + 1 not in legal(st)
    play(g, st, MOVE0)
    assert {KNUCKLES, HEAVY, MECHANIC} <= legal(st)
    play(g, st, KNUCKLES)
    assert {CREW0 + 1, NEW} <= legal(st)
    play(g, st, CREW0 + 1)
    assert st.actions[0] == 1 and not st.spent[0, 0, 1]
    assert st.crew[0, 0, 1, TINKER] == 1 and st.crew[0, 0, 1, KNUCKLES] == 1
    assert CRACK0 + 1 in legal(st)
    play(g, st, CRACK0 + 1)
    assert legal(st) == {PILE2}
    play(g, st, PILE2)
    assert st.loot[0, 0] == 70
    assert st.active[0] == 1 and st.actions[0] == 3  # the turn ended by itself


def test_v3_cannot_refresh_a_spent_crew():
    g = game()
    piles = {0: [1, 18, 9], 1: [3, 0], 2: [24]}
    st = scenario(g, crews={(0, 0): [HEAVY, MECHANIC, KNUCKLES], (0, 1): [TINKER]}, piles=piles)
    play(g, st, CRACK0, PILE1, MOVE0 + 1, TINKER, CREW0)
    assert not st.crew[0, 0, 1].any()  # crew 1 dissolved
    assert st.spent[0, 0, 0] and CRACK0 not in legal(st)


def test_v4_five_cards_at_the_start_no_draw():
    g = game()
    st = scenario(g, hands={0: [KNUCKLES, HEAVY, TINKER, SAL, SAPPER]}, police_char=[HEAVY])
    assert not legal(st) & {DRAW, DRAW_PC, DRAW_PT}
    play(g, st, HEAVY, NEW)
    assert not legal(st) & {DRAW, DRAW_PC, DRAW_PT}


def test_v4_draw_up_to_three_and_hand_limit():
    g = game()
    st = scenario(g, hands={0: [TINKER, SAL, SAPPER, MECHANIC]}, police_char=[SPARKS],
                  deck_top=[KNUCKLES, DYNAMITE, HEAVY])
    play(g, st, DRAW)
    assert not legal(st) & {DRAW_PC, DRAW_PT}  # one source per draw phase
    play(g, st, DRAW, DRAW)
    assert st.hand[0, 0].sum() == 7 and st.actions[0] == 0
    assert st.dec[0] == D["DISCARD"] and st.owner[0] == 0  # end of turn, automatically
    play(g, st, KNUCKLES)
    assert st.dec[0] == D["DISCARD"]
    play(g, st, DYNAMITE)
    assert top_char(st) == KNUCKLES and top_tool(st) == DYNAMITE
    assert st.hand[0, 0].sum() == 5 and st.active[0] == 1


def test_v4_playing_skips_the_draw_phase():
    g = game()
    st = scenario(g, hands={0: [HEAVY, TINKER, SAL, SAPPER]})
    assert DRAW in legal(st)
    play(g, st, HEAVY, NEW)
    assert DRAW not in legal(st)


def test_v5_discarding_bosses_gains_nothing():
    g = game()
    st = scenario(g, hands={0: [BARON, IRONLACE, HEAVY, TINKER, SAL, SAPPER, MECHANIC]})
    dlen = st.ddeck_len[0]
    play(g, st, END, BARON, IRONLACE)
    assert set(st.pchar[0, :st.pc_len[0]].tolist()) == {BARON, IRONLACE}
    assert st.hand[0, 0, C.DISRUPT0:].sum() == 0 and st.ddeck_len[0] == dlen
    st = scenario(g, hands={0: [BARON, IRONLACE, HEAVY, TINKER, SAL, SAPPER, MECHANIC]})
    play(g, st, BARON)
    assert POLICE in legal(st)
    play(g, st, POLICE)
    assert top_char(st) == BARON and st.hand[0, 0, C.DISRUPT0:].sum() == 1
    assert st.ddeck_len[0] == dlen - 1 and st.actions[0] == 2


def test_v6_a_fail_vault_is_kept():
    g = game()
    piles = {0: [1, 5], 1: [18], 2: [24]}
    st = scenario(g, crews={(0, 0): [BARON, JOAT, POWDER, LOCKPICK_SET]}, piles=piles)
    deck = st.deck_len[0]
    play(g, st, CRACK0, PILE1)
    assert {LOCKPICK_SET, PASS} <= legal(st)
    play(g, st, PASS)
    assert legal(st) == {LOCKPICK_SET}
    play(g, st, LOCKPICK_SET)
    assert top_private(st, 0) == 5 and st.revealed[0, 5] and st.loot[0, 0] == 0
    assert st.deck_len[0] == deck  # no boss ability on a Fail
    assert top_tool(st) == LOCKPICK_SET and st.spent[0, 0, 0] and st.actions[0] == 2


def test_v7_draw_ability_uses_the_main_deck_only():
    g = game()
    st = scenario(g, hands={0: [LILY]}, police_char=[HEAVY])
    deck, size = st.deck_len[0], st.hand[0, 0].sum()
    play(g, st, LILY)
    assert st.dec[0] == D["PLAY_DEST"]
    play(g, st, NEW)
    assert st.deck_len[0] == deck - 1 and st.pc_len[0] == 1 and st.pt_len[0] == 0
    assert st.hand[0, 0].sum() == size and st.known[0, 0].sum() == 0


def test_v8_offensive_ability_backfires():
    g = game()
    st = scenario(g, hands={0: [BRUISER]}, crews={(1, 0): [SILAS],
                                                  (0, 0): [HEAVY, MECHANIC, CROWBAR]})
    play(g, st, BRUISER)
    assert st.dec[0] == D["TARGET_PLAYER"] and legal(st) == {PLAYER0}
    play(g, st, PLAYER0)
    assert legal(st) == {CREW0}
    play(g, st, CREW0)
    assert legal(st) == {HEAVY, MECHANIC, CROWBAR}
    play(g, st, CROWBAR)
    assert st.dec[0] == D["PLAY_DEST"]
    play(g, st, CREW0)
    assert top_tool(st) == CROWBAR
    assert st.crew[0, 0, 0].nonzero()[0].tolist() == [BRUISER, HEAVY, MECHANIC]


def test_v8_any_player_when_opponents_have_targets():
    g = game()
    st = scenario(g, hands={0: [BRUISER]}, crews={(1, 0): [SILAS, KNUCKLES],
                                                  (0, 0): [HEAVY, MECHANIC, CROWBAR]})
    play(g, st, BRUISER)
    assert legal(st) == {PLAYER0, PLAYER0 + 1}


def test_v8_fizzles_without_targets():
    g = game()
    st = scenario(g, hands={0: [BRUISER]}, crews={(1, 0): [SILAS], (0, 0): [BARON]})
    play(g, st, BRUISER)
    assert st.dec[0] == D["PLAY_DEST"] and PASS not in legal(st)


def test_v9_patricia_copies_only_bosses_in_play():
    g = game()
    piles = {0: [0, 9], 1: [18], 2: [24]}
    st = scenario(g, hands={1: [BARON]}, police_char=[OLD_TOM], piles=piles,
                  crews={(0, 0): [PATRICIA, HEAVY, MECHANIC], (1, 0): [IRONLACE]})
    play(g, st, CRACK0, PILE1)
    assert st.dec[0] == D["COPY_BOSS"] and legal(st) == {IRONLACE}
    play(g, st, IRONLACE)
    assert st.actions[0] == 3


def test_v9_patricia_copies_old_tom():
    g = game()
    piles = {0: [0, 9], 1: [18], 2: [24]}
    st = scenario(g, piles=piles, crews={(0, 0): [PATRICIA, HEAVY, MECHANIC],
                                         (0, 1): [OLD_TOM, TINKER], (1, 0): [IRONLACE]})
    play(g, st, CRACK0, PILE1)
    assert legal(st) == {IRONLACE, OLD_TOM}
    play(g, st, OLD_TOM)
    assert not st.spent[0, 0, 0] and CRACK0 in legal(st)


def test_v10_a_disrupt_cancels_the_crack_without_spending_the_action():
    g = game()
    st = scenario(g, hands={0: [TINKER], 1: [ALARM]}, piles=PILES_V1,
                  crews={(0, 0): [HEAVY, MECHANIC]})
    play(g, st, CRACK0, PILE1)
    assert st.dec[0] == D["RESPONSE"] and st.current_player[0] == 1
    assert legal(st) == {ALARM, PASS}
    play(g, st, ALARM)
    assert legal(st) == {OPT0}  # no tool in play for effect B
    play(g, st, OPT0)
    assert st.vpub_len[0, 0] == 9 and int(st.vpub[0, 0, 8]) == 9
    assert st.actions[0] == 3 and st.phase[0] == 3 and st.blocked[0, 0, 0]
    assert st.current_player[0] == 0 and st.dec[0] == D["MAIN"]
    assert not legal(st) & {CRACK0, DRAW} and {TINKER, END} <= legal(st)
    assert st.dused[0, ALARM - C.DISRUPT0] == 1 and st.hand[0, 1, C.DISRUPT0:].sum() == 0


def test_v11_police_station_order_and_source():
    g = game()
    st = scenario(g, hands={0: [TINKER, SAL]}, police_char=[HEAVY, SPARKS],
                  police_tool=[CROWBAR])
    play(g, st, DRAW_PC)
    assert st.hand[0, 0, SPARKS] == 1 and st.known[0, 0, SPARKS] == 1
    assert DRAW not in legal(st) and {DRAW_PC, DRAW_PT} <= legal(st)
    play(g, st, DRAW_PT, DRAW_PC)
    assert st.hand[0, 0].sum() == 5
    assert st.known[0, 0, [SPARKS, CROWBAR, HEAVY]].tolist() == [1, 1, 1]


def test_v12_cracking_an_opponents_vault():
    g = game()
    st = scenario(g, private={1: [25, 12]}, piles=PILES_V1,
                  crews={(0, 0): [SAL, MECHANIC, SAPPER]})
    assert st.loot[0, 1] == 250
    play(g, st, CRACK0)
    assert OPP1 in legal(st)
    play(g, st, OPP1)
    assert top_private(st, 0) == 12 and st.loot[0].tolist() == [50, 200]
    assert top_private(st, 1) == 25


def test_v13_the_loot_goal_ends_the_game_at_once():
    g = game(goal=400)
    piles = {0: [1, 0], 1: [18], 2: [24]}
    st = scenario(g, crews={(0, 0): [BARON, HEAVY, MECHANIC]}, piles=piles, loot=[380, 0])
    deck = st.deck_len[0]
    play(g, st, CRACK0, PILE1)
    assert st.terminated[0] and st.rewards[0].tolist() == [1.0, -1.0]
    assert st.deck_len[0] == deck  # before the boss ability


def test_v14_main_deck_exhausted():
    g = game()
    st = scenario(g, hands={0: [TINKER]}, deck_len=1, loot=[100, 150])
    play(g, st, DRAW)
    assert st.terminated[0] and st.rewards[0].tolist() == [-1.0, 1.0]
    st = scenario(g, hands={0: [TINKER]}, deck_len=1, private={0: [0, 1], 1: [2, 3, 4]})
    st.loot[0] = [100, 100]
    play(g, st, DRAW)
    assert st.terminated[0] and st.rewards[0].tolist() == [-1.0, 1.0]


def test_v15_a_tool_needs_a_crew():
    g = game()
    st = scenario(g, hands={0: [CROWBAR, HEAVY]})
    assert CROWBAR not in legal(st) and HEAVY in legal(st)
    play(g, st, HEAVY, NEW)
    assert CROWBAR in legal(st)
    play(g, st, CROWBAR)
    assert legal(st) == {CREW0}


def test_v16_crew_capacity():
    g = game()
    full = [BARON, HEAVY, KNUCKLES, SAL, SAPPER, CROWBAR, DYNAMITE, HYD_JACK]
    st = scenario(g, hands={0: [TINKER, DYNAMITE, IRONLACE]}, crews={(0, 0): full})
    assert DYNAMITE not in legal(st)
    s2 = st.copy()
    play(g, s2, TINKER)
    assert legal(s2) == {NEW}
    play(g, st, IRONLACE)
    assert legal(st) == {NEW, POLICE}


def test_v17_master_key():
    g = game()
    st = scenario(g, hands={0: [SKELETON_KEY]}, piles=PILES_V1, crews={(0, 1): [LILY]})
    play(g, st, CRACK0 + 1)
    assert PILE3 in legal(st)
    play(g, st, PILE3)
    assert st.dec[0] == D["USE_KEY"] and legal(st) == {SKELETON_KEY}
    play(g, st, SKELETON_KEY)
    assert st.dused[0, 0] == 1 and st.hand[0, 0, C.DISRUPT0:].sum() == 0
    assert top_private(st, 0) == 24 and st.loot[0, 0] == 160


def test_v18_setup_three_players():
    g = Vaults(num_players=3, auto_forced=False, first_player=1, response_windows="crack")
    st = g.init(5)
    for i in range(3):
        assert st.dec[0] == D["BOSS_CHOICE"] and st.current_player[0] == (1 + i) % 3
        for q in range(3):
            f = g.obs_fields(g.observe(st, q))
            assert f["player.crew0"][0, :, 0].sum() == 0
            offered = f["my_boss_offer"][0].sum()
            assert offered == (2 if st.boss_pick[0, q] < 0 else 0)
        play(g, st, OPT1)
    assert st.crew[0, :, 0, :C.N_BOSS].sum(1).tolist() == [1, 1, 1]
    assert st.deck_len[0] == 61 and st.hand[0].sum(1).tolist() == [4, 4, 4]
    assert st.vpub_len[0].tolist() == [9, 9, 9] and st.ddeck_len[0] == 20
    deck_bosses = np.isin(st.deck[0, :61], np.arange(12)).sum()
    assert deck_bosses + st.hand[0, :, :12].sum() == 9
    assert st.active[0] == 1


def test_v19_invalid_moves():
    g = game()
    st = scenario(g, crews={(0, 0): [HEAVY, CROWBAR]})
    assert MOVE0 not in legal(st)
    st = scenario(g, crews={(0, 0): [HEAVY, CROWBAR], (0, 1): [TINKER]})
    play(g, st, MOVE0)
    assert legal(st) == {CROWBAR}
    st = scenario(g, crews={(0, 0): [HEAVY, CROWBAR], (0, 1): [TINKER, SAL, SAPPER, MECHANIC]})
    play(g, st, MOVE0)
    assert HEAVY in legal(st)
    play(g, st, HEAVY)
    assert CREW0 + 1 in legal(st)
    play(g, st, CREW0 + 1)
    assert st.dec[0] == D["SWAP_CARD"] and legal(st) == {TINKER, SAL, SAPPER, MECHANIC}
    play(g, st, SAL)
    assert st.crew[0, 0, 0, SAL] == 1 and st.crew[0, 0, 1, HEAVY] == 1


def test_v20_disrupt_deck_reshuffle():
    g = game()
    st = scenario(g, hands={0: [BARON]}, ddeck=[], dused={ALARM - 44: 1, BAD_INTEL - 44: 1})
    play(g, st, BARON, POLICE)
    assert st.ddeck_len[0] == 1 and st.dused[0].sum() == 0
    assert st.hand[0, 0, [ALARM, BAD_INTEL]].sum() == 1


def _v21(extra_p0=()):
    g = game(3)
    st = scenario(g, hands={1: [BAD_INTEL], 0: [CASING, *extra_p0]}, piles=PILES_V1,
                  crews={(0, 0): [HEAVY, MECHANIC]})
    play(g, st, CRACK0, PILE1)
    assert st.current_player[0] == 1 and legal(st) == {BAD_INTEL, PASS}
    play(g, st, BAD_INTEL, OPT0)  # Sabotage
    assert legal(st) == {PLAYER0 + 2}
    play(g, st, PLAYER0 + 2, CREW0, SKILL_P)
    assert st.mods[0, 0, 0].tolist() == [-2, 0, 0]
    assert st.current_player[0] == 0 and st.dec[0] == D["RESPONSE"]  # P2 holds none
    play(g, st, CASING, OPT1, PLAYER0, CREW0, SKILL_P)  # Reinforce
    assert st.mods[0, 0, 0].tolist() == [0, 0, 0]
    return g, st


def test_v21_window_ordering():
    g, st = _v21()
    assert st.loot[0, 0] == 50 and st.dec[0] == D["MAIN"]
    play(g, st, END)
    assert not st.mods[0].any()


def test_v21_window_closes_after_a_cycle_of_passes():
    g, st = _v21(extra_p0=(ALARM,))
    assert st.current_player[0] == 0 and legal(st) == {PASS}
    play(g, st, PASS)
    assert st.loot[0, 0] == 50


# -- bosses act only with a Success [RB "Bosses"; spec §1.3, §2.5 step 2] ----------------------
def _boss_setup(g, boss):
    other = IRONLACE if boss != IRONLACE else BARON  # a boss in play for Patricia to copy
    return scenario(g, hands={0: [boss, HEAVY]}, piles=PILES_V1,
                    crews={(0, 0): [KNUCKLES, CROWBAR], (1, 0): [other, SAL, HYD_JACK]})


def _public_parts(st):
    return {name: getattr(st, name).copy() for name in (
        "deck_len", "ddeck_len", "crew", "pc_len", "pt_len", "vpub", "known_face", "mods",
        "spent", "loot")}


def test_playing_a_boss_fires_no_ability():
    for boss in range(C.N_BOSS):
        g = game()
        st = _boss_setup(g, boss)
        before = _public_parts(st)
        play(g, st, boss)
        assert st.dec[0] == D["PLAY_DEST"] and st.slen[0] == 0, boss
        play(g, st, NEW)
        assert st.dec[0] == D["MAIN"] and st.actions[0] == 2, boss
        assert st.hand[0, 0].tolist() == np.eye(54, dtype=np.int8)[HEAVY].tolist(), boss
        after = _public_parts(st)
        assert after["crew"][0, 0, 1, boss] == 1
        after["crew"][0, 0, 1, boss] = 0
        for name, v in before.items():
            assert (after[name] == v).all(), (boss, name)


def test_jailing_a_boss_for_a_disrupt_fires_no_ability():
    for boss in range(C.N_BOSS):
        g = game()
        st = _boss_setup(g, boss)
        before = _public_parts(st)
        play(g, st, boss, POLICE)
        assert st.dec[0] == D["MAIN"] and st.actions[0] == 2, boss
        assert st.hand[0, 0, :C.DISRUPT0].tolist() == np.eye(44, dtype=np.int8)[HEAVY].tolist()
        assert st.hand[0, 0, C.DISRUPT0:].sum() == 1 and top_char(st) == boss
        after = _public_parts(st)
        assert after["ddeck_len"][0] == before["ddeck_len"][0] - 1
        assert after["pc_len"][0] == before["pc_len"][0] + 1
        for name, v in before.items():
            if name not in ("ddeck_len", "pc_len"):
                assert (after[name] == v).all(), (boss, name)


# -- overloaded tools reach the Police station even when the crew dissolves first -----------
def test_overloaded_tool_jailed_when_a_fail_dissolves_the_crew():
    g = game()
    st = scenario(g, crews={(0, 0): [MECHANIC, CROWBAR]}, piles={0: [9, 11]})
    play(g, st, CRACK0, PILE1, CROWBAR, PASS)
    assert st.dec[0] == D["FAIL_CARD"] and legal(st) == {MECHANIC}
    play(g, st, MECHANIC)  # the crew's last character: it dissolves
    assert st.hand[0, 0, CROWBAR] == 0 and st.known[0, 0, CROWBAR] == 0
    assert st.pt_len[0] == 1 and top_tool(st) == CROWBAR and top_char(st) == MECHANIC
    assert st.police_count[0, CROWBAR] == 1 and not st.over[0].any()
    assert st.dec[0] == D["MAIN"] and not g.exists(st)[0, 0].any()


def test_overloaded_tool_jailed_when_a_disrupt_dissolves_the_crew():
    g = game()
    tipoff = 50
    st = scenario(g, hands={1: [tipoff]}, crews={(0, 0): [MECHANIC, CROWBAR, HYD_JACK]},
                  piles={0: [11, 9]})
    play(g, st, CRACK0, PILE1, CROWBAR, PASS)
    assert st.dec[0] == D["RESPONSE"] and st.owner[0] == 1
    play(g, st, tipoff, OPT0, PLAYER0 + 1, CREW0, MECHANIC)
    assert st.pt_len[0] == 1 and top_tool(st) == CROWBAR  # overloaded: Police station
    assert st.hand[0, 0, HYD_JACK] == 1 and st.known[0, 0, HYD_JACK] == 1  # not overloaded
    assert st.hand[0, 0, CROWBAR] == 0
    while st.dec[0] == D["RESPONSE"]:
        play(g, st, PASS)
    # the crack is no longer possible: no flip, no action spent, nothing more burned
    assert st.dec[0] == D["MAIN"] and st.actions[0] == 3 and st.vpub_len[0, 0] == 2
    assert st.pt_len[0] == 1 and not st.over[0].any()


def test_two_copies_one_overloaded_only_that_one_is_jailed():
    g = game()
    st = scenario(g, crews={(0, 0): [MECHANIC, CROWBAR, CROWBAR]}, piles={0: [9, 11]})
    play(g, st, CRACK0, PILE1, CROWBAR, PASS, MECHANIC)
    assert st.police_count[0, CROWBAR] == 1 and st.hand[0, 0, CROWBAR] == 1
    assert st.known[0, 0, CROWBAR] == 1


# -- determinization during setup ---------------------------------------------------------------
def test_resample_during_setup_redraws_vaults_and_disrupts():
    g = Vaults(num_players=3)
    st = g.init(np.arange(4))
    assert (st.dec == D["BOSS_CHOICE"]).all()
    r = g.resample_hidden(st, 0, 7)
    for b in range(4):
        assert not (r.vpub[b] == st.vpub[b]).all() and not (r.ddeck[b] == st.ddeck[b]).all()
        tops_old, tops_new = st.vpub[b, :, 8], r.vpub[b, :, 8]
        assert (C.VAULT_GROUP[tops_old] == C.VAULT_GROUP[tops_new]).all()
        assert sorted(r.vpub[b].ravel()) == list(range(27))
        assert sorted(r.ddeck[b]) == sorted(st.ddeck[b])
        assert (r.boss_offer[b, 0] == st.boss_offer[b, 0]).all()
    assert (g.observe(r, 0) == g.observe(st, 0)).all()
