"""The spec's scenario tests BC-T01 to BC-T27 (§7), as action scripts on crafted states with
the expected results. Heists and upgrades are named by their card numbers (H01 = index 0)."""

from __future__ import annotations

import numpy as np
import pytest
from heistbench.envs.bad_company import components as C
from heistbench.envs.bad_company import rules as K
from heistbench.envs.bad_company_v1 import Game

from .helpers import (
    WILD,
    G,
    H,
    L,
    M,
    U,
    at,
    blank,
    decision,
    end_phase_all,
    force_upgrades,
    legal,
    play,
    upgrade,
)

PAIR0, PAIR1, PAIR2 = 32, 33, 34
LO, HI = 35, 36


def test_bc_t01_setup_four_players():
    game = Game(num_players=4, first_chief=0, auto_forced=False)
    s = game.init(np.array([11]))
    assert s.police[0] == -4 and (s.car[0] == 0).all() and (s.money[0] == 2).all()
    assert (s.recruit[0] == 0).all() and (s.display[0] >= 0).all()
    returned = []
    for p in range(4):
        assert decision(s) == K.SETUP_RETURN and s.current_player[0] == p
        drawn = s.setup_choice[0].tolist()
        play(game, s, K.A_SETUP + p % 3)
        returned.append(drawn[p % 3])
        kept = [d for i, d in enumerate(drawn) if i != p % 3]
        assert s.active[0, p].tolist() == kept  # kept in draw order
    assert s.hd_len[0] == 28
    ring = [int(s.hdeck[0, (s.hd_head[0] + i) % 40]) for i in range(int(s.hd_len[0]))]
    assert ring[-4:] == returned  # the last returned at the very bottom
    assert decision(s) == K.CHIEF_REROLL and s.chief[0] == 0 and s.current_player[0] == 0
    assert (s.active[0] >= 0).all()


def test_bc_t02_reroll_costs_one_dollar_any_subset():
    game, s = blank()
    s.money[0, 0] = 2
    s.dice[0] = 1
    s.black[0] = 0
    at(game, s, K.CHIEF_REROLL)
    play(game, s, K.A_REROLL + 2)  # id 3: bits y0 + y1
    assert s.money[0, 0] == 1 and s.dice[0, 2:].tolist() == [1, 1] and s.black[0] == 0
    dice = s.dice[0].tolist()
    play(game, s, K.A_REROLL + 15)  # id 16: the black die only
    assert s.money[0, 0] == 0 and s.dice[0].tolist() == dice
    assert legal(s) == {K.A_ACCEPT} and s.rerolls_done[0] == 2


def test_bc_t03_pairings():
    game, s = blank()
    s.dice[0] = (1, 2, 3, 4)
    at(game, s, K.CHIEF_PAIRING)
    assert legal(s) == {PAIR0, PAIR1, PAIR2}
    for a, sums in ((PAIR0, (3, 7)), (PAIR1, (4, 6)), (PAIR2, (5, 5))):
        t = s.copy()
        game.step(t, np.array([a]))
        assert tuple(t.sums[0]) == sums
    s.dice[0] = (2, 2, 5, 5)
    at(game, s, K.CHIEF_PAIRING)
    assert legal(s) == {PAIR0, PAIR1}  # 34 repeats (7, 7)
    game, s = blank(auto_forced=True)
    s.dice[0] = 3
    at(game, s, K.CHIEF_PAIRING)
    assert decision(s) != K.CHIEF_PAIRING and tuple(s.sums[0]) == (6, 6)  # auto-applied


def test_bc_t04_doubles_activate_the_same_member_twice():
    game, s = blank()  # Sneaky: member 7 pays $1
    s.dice[0] = (3, 4, 3, 4)
    at(game, s, K.CHIEF_PAIRING)
    play(game, s, PAIR0)
    assert s.money[0].tolist() == [2, 1]  # the other player activated 7 without a decision
    assert decision(s) == K.PHASE2B and s.current_player[0] == 0


def fixer_board(game, s, **kw):
    """BC-T05: locks on 5 and 8, U27 on 8 and U06 on 4: four visible locks."""
    upgrade(s, 0, U["U27"])
    upgrade(s, 0, U["U06"])
    s.active[0, 0] = (H["H02"], H["H05"])
    s.cov[0, 0] = 0
    s.task_tok[0, 0] = 0
    s.dice[0] = (1, 1, 6, 6)  # pairings (2, 12) and (7, 7)
    at(game, s, K.CHIEF_PAIRING)
    assert legal(s) == {PAIR0, PAIR1}
    play(game, s, PAIR0)
    assert decision(s) == K.FIXER_SYMBOL and legal(s) == {37, 38, 39}  # never the flashlight


def test_bc_t05_fixer_counts_visible_symbols():
    game, s = blank()
    fixer_board(game, s)
    play(game, s, K.A_FIXER + L)
    assert s.pending_tokens[0, L] == 4 and s.car[0, 0] == 2  # the Chauffeur's two steps first
    assert decision(s) == K.PLACE_TOKEN and legal(s) == {40, 44, 48}
    play(game, s, 40, 40, 44, 48)
    assert s.cov[0, 0, :, L].tolist() == [2, 1] and s.task_tok[0, 0, 0] == 1
    assert decision(s) == K.CHOOSE_SUM and s.current_player[0] == 1
    game, s = blank()
    s.abil[0, 0, C.A2_CONNECTED - 1] = True
    fixer_board(game, s)
    play(game, s, K.A_FIXER + L)
    assert s.pending_tokens[0, L] == 5


def test_bc_t06_unused_tokens_are_lost():
    game, s = blank(auto_forced=True)
    s.cov[0, 0, 0] = (2, 0, 0, 0)  # H02's locks covered (set below)
    s.task_tok[0, 0, 0] = 2
    upgrade(s, 0, U["U27"])
    upgrade(s, 0, U["U06"])
    s.active[0, 0] = (H["H02"], H["H05"])
    s.dice[0] = (1, 1, 6, 6)
    at(game, s, K.CHIEF_PAIRING)
    play(game, s, PAIR0, K.A_FIXER + L)
    assert s.cov[0, 0, 1, L] == 1 and (s.pending_tokens[0] == 0).all()
    assert decision(s) == K.CHOOSE_SUM and s.current_player[0] == 1


def chauffeur(abil: bool) -> tuple:
    game, s = blank()
    s.police[0] = -4
    s.abil[0, 1, C.A1_WHEELMAN - 1] = abil
    s.sums[0] = (5, 12)
    s.cursor[0] = 1
    at(game, s, K.NEXT_2A)
    assert decision(s) == K.CHOOSE_SUM and s.current_player[0] == 1
    play(game, s, HI)
    return game, s


def test_bc_t07_chauffeur():
    _, s = chauffeur(False)
    assert s.car[0, 1] == 2 and s.money[0, 1] == 0
    _, s = chauffeur(True)
    assert s.car[0, 1] == 3 and s.money[0, 1] == 2  # control point 3: $2


def steps(car: int, police: int, n: int, auto: bool = False) -> tuple:
    game, s = blank(auto_forced=auto)
    s.car[0, 0], s.police[0], s.pending_steps[0] = car, police, n
    s.ret[0] = K.PHASE2B
    at(game, s, K.PENDING)
    return game, s


def test_bc_t08_shortcut_skips_a_control_point():
    game, s = steps(4, 1, 2)
    assert s.car[0, 0] == 5 and decision(s) == K.SHORTCUT
    t = s.copy()
    play(game, t, K.A_SHORTCUT)
    assert t.car[0, 0] == 8 and t.loot[0, 0].sum() == 0 and decision(t) == K.PHASE2B
    play(game, s, K.A_STEP)
    assert s.car[0, 0] == 6 and s.loot[0, 0].sum() == 1  # police 1 < 6


def test_bc_t09_police_already_passed():
    game, s = steps(5, 6, 1)
    play(game, s, K.A_STEP)
    assert s.car[0, 0] == 6 and s.loot[0, 0].sum() == 0  # police on 6 has passed it (D-BC-08)
    _, s = steps(8, 7, 1)
    assert s.car[0, 0] == 9 and s.vp[0, 0] == 2


def test_bc_t10_shortcut_into_the_red_zone():
    game, s = steps(22, -6, 1)
    play(game, s, K.A_SHORTCUT)
    assert s.car[0, 0] == 25 and s.vp[0, 0] == 0 and not s.end_triggered[0]
    end_phase_all(game, s)
    assert s.end_triggered[0] and s.final_round[0] and decision(s) == K.FINAL_PAIRING


def token_state(kind: int) -> tuple:
    game, s = blank()
    s.active[0, 0] = (H["H03"], H["H01"])
    s.cov[0, 0] = 0
    s.cov[0, 0, 0, G] = 2
    s.task_sym[0, 0] = (G, C.FLASHLIGHT, M, G)
    s.task_tok[0, 0] = (1, 0, 0, 2)
    s.pending_tokens[0] = 0
    s.pending_tokens[0, kind] = 1
    s.ret[0] = K.PHASE2B
    at(game, s, K.PENDING)
    assert decision(s) == K.PLACE_TOKEN
    return game, s


def test_bc_t11_token_legality():
    _, s = token_state(G)
    assert legal(s) == {45, 48}  # heist 1's glove, task 0; not the full task 3
    _, s = token_state(WILD)
    assert legal(s) == {42, 44, 45, 46, 48, 49, 50}


@pytest.mark.parametrize("organizer", [False, True])
def test_bc_t12_tasks(organizer):
    game, s = blank()
    s.abil[0, 0, C.A6_ORGANIZER - 1] = organizer
    s.task_tok[0, 0, :2] = 2
    at(game, s, K.PHASE2B)
    assert {57, 58} <= legal(s) and not {59, 60} & legal(s)
    play(game, s, K.A_COMPLETE_TASK + 1)
    assert s.money[0, 0] == (3 if organizer else 2) and s.task_tok[0, 0, 1] == 0
    play(game, s, K.A_COMPLETE_TASK + 0)
    assert decision(s) == K.PLACE_TOKEN and s.pending_tokens[0, WILD] == 1 and 48 in legal(s)
    play(game, s, K.A_PLACE_TASK + 0)
    assert s.task_tok[0, 0, 0] == 1 and decision(s) == K.PHASE2B
    s.task_tok[0, 0, 0] = 2
    at(game, s, K.PHASE2B)
    assert K.A_COMPLETE_TASK in legal(s)  # the same task again, once refilled


def test_bc_t13_heist_completion():
    game, s = blank()
    s.active[0, 0, 0] = H["H01"]
    s.cov[0, 0, 0] = (1, 1, 1, 0)
    at(game, s, K.PHASE2B)
    play(game, s, K.A_COMPLETE_HEIST)
    assert s.money[0, 0] == 2 and s.heists_done[0, 0] == 1 and s.completed[0, 0, H["H01"]]
    assert s.active[0, 0, 0] == -1 and (s.cov[0, 0, 0] == 0).all()
    end_phase_all(game, s)
    assert decision(s) == K.COLLAR_PLACEMENT and s.collar_owner[0, 3] == 0 and s.vp[0, 0] == 1
    play(game, s, K.A_COLLAR + 5)  # member 7
    assert s.collar_member[0, 3] == 7
    assert decision(s) == K.TAKE_HEIST and s.current_player[0] == 0


@pytest.mark.parametrize("headhunter", [False, True])
def test_bc_t14_recruiting(headhunter):
    game, s = blank()
    s.abil[0, 0, C.A4_HEADHUNTER - 1] = headhunter
    s.money[0, 0] = 5
    force_upgrades(s, U["U06"], U["U21"], U["U41"])
    at(game, s, K.PHASE2B)
    play(game, s, K.A_RECRUIT)
    assert decision(s) == K.UPGRADE_CHOICE and s.upg_choice[0].tolist() == [5, 20, 40]
    assert s.money[0, 0] == (4 if headhunter else 3) and s.recruit[0, 0] == 1
    play(game, s, K.A_UPGRADE)
    assert s.crew[0, 0, 2, 2:4].tolist() == [1, 2]  # member 4: glove + U06's lock and glove
    assert s.n_upgrades[0, 0, 2] == 1 and s.udisc[0, [20, 40]].all()
    play(game, s, K.A_RECRUIT, K.A_UPGRADE)
    assert s.money[0, 0] == (3 if headhunter else 1)
    if headhunter:
        play(game, s, K.A_RECRUIT, K.A_UPGRADE)  # 3 - 1 = $2
        assert s.money[0, 0] == 1
    else:
        assert K.A_RECRUIT not in legal(s)  # costs 3


def test_bc_t15_end_of_track():
    game, s = blank()
    s.recruit[0, 0] = 8
    s.money[0, 0] = 11
    at(game, s, K.PHASE2B)
    assert K.A_RECRUIT not in legal(s)
    play(game, s, K.A_BUY_VP, K.A_BUY_VP)
    assert s.money[0, 0] == 1 and s.vp[0, 0] == 6 and K.A_BUY_VP not in legal(s)


def test_bc_t16_collar_tie_goes_to_the_highest_heist_number():
    game, s = blank()
    s.completed[0, 0, [H["H02"], H["H05"]]] = True
    s.completed[0, 1, [H["H09"], H["H13"]]] = True
    s.collar_owner[0, 0], s.collar_member[0, 0] = 0, 7
    s.collar_k[0] = 0
    at(game, s, K.COLLARS)
    assert decision(s) == K.COLLAR_PLACEMENT and s.current_player[0] == 1
    assert s.collar_owner[0, 0] == 1 and s.collar_member[0, 0] == -1
    assert s.vp[0].tolist() == [0, 1]
    play(game, s, K.A_COLLAR + 5)
    s.completed[0, 0, H["H18"]] = True
    s.collar_k[0] = 0
    at(game, s, K.COLLARS)
    assert s.collar_owner[0, 0] == 0 and s.vp[0].tolist() == [1, 1]
    assert legal(s) == set(range(K.A_COLLAR, K.A_COLLAR + 11))


def test_bc_t17_collar_activation():
    game, s = blank()
    s.collar_owner[0, 0], s.collar_member[0, 0] = 0, 7
    s.dice[0] = (3, 4, 3, 4)
    at(game, s, K.CHIEF_PAIRING)
    play(game, s, PAIR0)
    assert s.vp[0, 0] == 2 and s.money[0, 0] == 2
    game, s = blank()
    s.collar_owner[0, 0], s.collar_member[0, 0] = 1, 7
    s.sums[0] = (5, 7)
    s.cursor[0] = 1
    at(game, s, K.NEXT_2A)
    play(game, s, HI)
    assert s.vp[0, 1] == 1


@pytest.mark.parametrize("police,halt,after", [(3, 0, 5), (3, 1, 3), (27, 0, 28)])
def test_bc_t18_police(police, halt, after):
    game, s = blank()
    s.police[0], s.black[0], s.police_halt[0] = police, 2, halt
    at(game, s, K.END_TURN)
    assert s.police[0] == after and not s.police_halt[0]


def test_bc_t19_refill_and_display():
    game, s = blank()
    s.display[0] = (H["H10"], H["H11"], H["H12"], H["H14"])
    s.hd_head[0], s.hd_len[0] = 0, 3
    s.hdeck[0, :3] = (H["H15"], H["H16"], H["H17"])
    s.active[0, 0] = -1
    s.active[0, 1, 1] = -1
    s.done_this_turn[0] = (2, 1)
    s.black[0] = 0
    at(game, s, K.END_TURN)
    assert decision(s) == K.TAKE_HEIST and s.current_player[0] == 0
    play(game, s, K.A_TAKE + 4)
    assert s.active[0, 0, 0] == H["H15"] and s.hdeck[0, s.hd_head[0]] == H["H16"]
    play(game, s, K.A_TAKE + 0)
    assert s.active[0, 0, 1] == H["H10"] and s.display[0, 0] == H["H16"]
    assert s.current_player[0] == 1
    play(game, s, K.A_TAKE + 1)
    assert s.active[0, 1, 1] == H["H11"] and s.display[0, 1] == H["H17"] and s.hd_len[0] == 0


def test_bc_t20_shortage():
    game, s = blank(3)
    s.hd_len[0] = 0
    s.display[0] = (H["H10"], H["H11"], -1, -1)
    s.active[0, 0] = -1
    s.active[0, 1, 1] = -1
    s.active[0, 2, 1] = -1
    s.done_this_turn[0] = (2, 0, 1)
    s.black[0] = 0
    at(game, s, K.END_TURN)
    assert decision(s) == K.TAKE_HEIST and s.current_player[0] == 0
    play(game, s, K.A_TAKE + 0)
    assert decision(s) == K.TAKE_HEIST and s.current_player[0] == 2
    play(game, s, K.A_TAKE + 1)
    assert (s.active[0] >= 0).sum(axis=1).tolist() == [1, 1, 2]
    assert decision(s) == K.CHIEF_REROLL


def test_bc_t21_six_heists_then_the_final_round():
    game, s = blank(3)
    s.heists_done[0, 2] = 6
    s.black[0] = 1
    police = int(s.police[0]) + 1
    at(game, s, K.END_TURN)
    assert s.end_triggered[0] and s.final_round[0] and s.chief[0] == 1
    assert decision(s) == K.FINAL_PAIRING and s.current_player[0] == 1 and s.black[0] == -1
    obs = game.obs_fields(game.observe(s, 1))
    assert not obs["black_die"].any() and obs["final_round"][0, 0] == 1
    pairers, saw_2b = [], set()
    while not s.terminated[0]:
        d = decision(s)
        assert d not in (K.CHIEF_REROLL, K.TAKE_HEIST)
        if d == K.FINAL_PAIRING:
            pairers.append(int(s.current_player[0]))
        if d == K.PHASE2B:
            saw_2b.add(int(s.current_player[0]))
            assert K.A_HALT not in legal(s)
            play(game, s, K.A_END_PHASE)
            continue
        play(game, s, min(legal(s)))
    assert pairers == [1, 2, 0] and saw_2b == {0, 1, 2} and s.police[0] == police


def test_bc_t22_end_by_police():
    game, s = blank()
    s.police[0], s.black[0] = 24, 2
    at(game, s, K.END_TURN)
    assert s.police[0] == 26 and s.end_triggered[0] and decision(s) == K.FINAL_PAIRING


def test_bc_t23_red_zone_is_checked_at_the_end_of_the_turn():
    game, s = blank()
    s.car[0, 1], s.pending_steps[0], s.ret[0], s.cursor[0] = 24, 1, K.NEXT_2A, 2
    at(game, s, K.PENDING, player=1)
    assert s.car[0, 1] == 25 and decision(s) == K.PHASE2B and not s.end_triggered[0]
    end_phase_all(game, s)
    assert s.end_triggered[0] and decision(s) == K.FINAL_PAIRING


def scoring_state(car: int, police: int, **options):
    game, s = blank(**options)
    s.vp[0, 0] = 7
    s.completed[0, 0, [H["H05"], H["H18"], H["H23"]]] = True
    s.heists_done[0, 0] = 3
    s.loot[0, 0, [C.L_VP2, C.L_VP3, C.L_CASH3]] = 1
    for u in ("U06", "U21", "U27"):
        upgrade(s, 0, U[u])
    s.collar_owner[0, 0], s.collar_member[0, 0] = 0, 3
    s.task_tok[0, 0] = (1, 0, 0, 0)
    s.cov[0, 0] = 0
    s.cov[0, 0, 0, L] = 1
    s.cov[0, 0, 1, G] = 1
    s.car[0, 0], s.police[0] = car, police
    return game.scores(s)[0, 0]


def test_bc_t24_scoring_formula():
    # 7 + 12 (base) + 3 (Mastermind) + 5 (loot) + 2 (upgrades) + 2 (collar) + 1 + 3 (red zone)
    assert scoring_state(26, 20, leftover_tokens="tasks_and_heists") == 35
    assert scoring_state(26, 20) == 34  # tasks only (the default, D-BC-15)
    assert scoring_state(15, 17, leftover_tokens="tasks_and_heists") == 29  # -3 behind police
    assert scoring_state(17, 17, leftover_tokens="tasks_and_heists") == 32  # level: not behind


@pytest.mark.parametrize("coins,rewards", [((4, 2, 9), (1, -0.5, -0.5)),
                                           ((4, 4, 9), (0.5, 0.5, -1))])
def test_bc_t25_tie_break_by_coins_then_shared(coins, rewards):
    game, s = blank(3)
    s.vp[0] = (35, 35, 30)
    s.money[0] = coins
    at(game, s, K.GAME_OVER)
    assert s.terminated[0] and game.scores(s)[0].tolist() == [35, 35, 30]
    np.testing.assert_allclose(s.rewards[0], rewards)


def test_bc_t26_loot_windows():
    game, s = blank()
    s.loot[0, 0, C.L_FREE_REROLL] = 1
    at(game, s, K.CHIEF_REROLL)
    assert legal(s) == {K.A_ACCEPT, K.A_FREE_REROLL}  # no cash: no paid reroll
    play(game, s, K.A_FREE_REROLL)
    assert s.reroll_credits[0] == 1 and K.A_REROLL in legal(s)
    play(game, s, K.A_REROLL)
    assert s.money[0, 0] == 0 and s.reroll_credits[0] == 0 and legal(s) == {K.A_ACCEPT}
    assert s.ldisc[0, C.L_FREE_REROLL] == 1
    s.loot[0, 0, C.L_FREE_REROLL] = 1
    s.loot[0, 0, C.L_HALT] = 1
    at(game, s, K.PHASE2B)
    assert K.A_FREE_REROLL not in legal(s) and K.A_HALT in legal(s)
    s.final_round[0] = True
    at(game, s, K.PHASE2B)
    assert K.A_HALT not in legal(s)


def test_bc_t27_dice_cheat_first_reroll_free():
    game, s = blank()
    s.abil[0, 0, C.A5_DICE_CHEAT - 1] = True
    at(game, s, K.CHIEF_REROLL)
    assert K.A_REROLL + 4 in legal(s)
    play(game, s, K.A_REROLL + 4)
    assert legal(s) == {K.A_ACCEPT} and s.money[0, 0] == 0
