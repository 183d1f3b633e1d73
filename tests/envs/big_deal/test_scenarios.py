"""The spec's scenario tests BD-T01 to BD-T27 (design/specs/big_deal.md §7) and the rulebook's
worked examples, on crafted states. Money is in $M; bids are raises of the bidder's own
per-share offer (see the README, "Rule decisions")."""

from __future__ import annotations

import numpy as np
import pytest
from heistbench.envs.big_deal import components as C
from heistbench.envs.big_deal import kernel as K
from heistbench.envs.big_deal_v0 import Game

from .helpers import (
    CO,
    RES,
    blank,
    branch,
    cash,
    dec,
    legal,
    play,
    raise_by,
    ready,
    resources,
    start_turn,
    takeover,
    u,
)


def test_bd_t01_starting_money():
    expect = {2: [1000, 1150], 3: [1000, 1150, 1300], 4: [1000, 1150, 1300, 1450],
              5: [1400, 1550, 1700, 1850, 2000], 6: [1400, 1550, 1700, 1850, 2000, 2150]}
    for n, money in expect.items():
        s = Game(num_players=n).init(np.array([3]))
        assert (s.cash[0].astype(int) * 50).tolist() == money


@pytest.mark.parametrize("n,total,non_go", [(2, 55, 48), (3, 60, 53), (4, 75, 68), (5, 83, 76),
                                            (6, 96, 89)])
def test_bd_t02_deck_structure(n, total, non_go):
    """Shares and cash cards by player count, split in two: the top half of N // 2 cards and
    3 Game Over cards, the bottom half of the rest and 4. The deal never reaches the bottom
    half, so it is whole at the start."""
    game = Game(num_players=n)
    s = game.init(np.arange(50))
    in_hands = s.hand.sum(axis=(1, 2)) + s.hand_cash.sum(axis=1)
    assert (s.deck_len + in_hands + s.go_revealed == total).all()
    assert (s.bottom_size == non_go - non_go // 2 + 4).all()
    bottom = s.deck[:, :int(s.bottom_size[0])]
    assert ((bottom == C.GO_CARD).sum(axis=1) == 4).all()
    top = np.where(np.arange(C.MAX_DECK)[None] < s.deck_len[:, None], s.deck, -1)
    top_go = (top[:, int(s.bottom_size[0]):] == C.GO_CARD).sum(axis=1)
    assert (top_go + s.go_revealed == 3).all()
    assert (s.pool == 0).all(), "the share pool starts empty"
    shares = C.DECK_BY_N[n][1]
    assert ((s.hand.sum(axis=1) + (top[:, :, None] == np.arange(11)).sum(axis=1))
            == shares * C.in_game(n)).all()


def test_bd_t03_a_dealt_game_over_card_is_placed_and_replaced():
    game = Game(num_players=4)
    s = game.init(np.arange(200))
    dealt_go = np.flatnonzero(s.go_revealed > 0)
    assert dealt_go.size > 0
    sizes = s.hand.sum(axis=2) + s.hand_cash
    assert (sizes[:, 0] == 6).all() and (sizes[:, 1:] == 5).all()  # seat 0 has drawn


def test_bd_t04_income_is_one_green_value_per_branch():
    game, s = blank()
    branch(s, 0, 0, "C", 2)
    branch(s, 0, 1, "E", 5)
    before = cash(s, 0)
    start_turn(game, s, 0)
    assert cash(s, 0) - before == 250


@pytest.mark.parametrize("shark,gain", [(False, 600), (True, 750)])
def test_bd_t05_company_sale_example(shark, gain):
    """RB: white $150M, 3 shares -> $600M (Shark: $100M bonus per share)."""
    game, s = blank(shark=shark)
    branch(s, 0, 0, "C", 3)
    ready(game, s)
    play(game, s, K.A_SELL_BRANCH + 0)
    assert cash(s, 0) == 1000 + gain
    assert s.waste[0, CO["C"]] == 3 and s.br_co[0, 0, 0] == -1
    assert s.res_free[0, 0].tolist() == [2, 1, 0, 0]


def test_bd_t06_buying_resources_three_at_the_next_price():
    game, s = blank()
    ready(game, s)
    L = RES["L"]
    play(game, s, K.A_BUY_RES + L, K.A_BUY_RES + L, K.A_BUY_RES + L)
    assert cash(s, 0) == 1000 - 100 - 100 - 150
    assert not legal(s) & set(range(K.A_BUY_RES, K.A_BUY_RES + 4))
    assert K.A_SELL_RES + L in legal(s)
    play(game, s, K.A_SELL_RES + L)
    assert cash(s, 0) == 650 + 150


def test_bd_t07_a_separate_sell_limit():
    game, s = blank()
    resources(s, 0, S=4)
    ready(game, s)
    S = RES["S"]
    play(game, s, *[K.A_SELL_RES + S] * 3)
    assert cash(s, 0) == 1000 + 200 + 150 + 150
    assert K.A_SELL_RES + S not in legal(s)
    assert K.A_BUY_RES + S in legal(s)


def test_bd_t08_found_needs_two_shares_and_a_resource_set():
    game, s = blank()
    s.hand[0, 0, CO["C"]] = 1
    resources(s, 0, L=2, S=1)
    ready(game, s)
    assert K.A_FOUND + CO["C"] not in legal(s)
    s.hand[0, 0, CO["C"]] = 2
    s.res_free[0, 0, RES["S"]] = 0
    ready(game, s)
    assert K.A_FOUND + CO["C"] not in legal(s)
    s.res_free[0, 0, RES["S"]] = 1
    ready(game, s)
    play(game, s, K.A_FOUND + CO["C"])
    assert s.br_co[0, 0, 0] == CO["C"] and s.br_sh[0, 0, 0] == 2
    assert s.res_free[0, 0].sum() == 0 and s.hand[0, 0].sum() == 0


def test_bd_t09_add_withdraw_close():
    game, s = blank()
    branch(s, 0, 0, "C", 2)
    s.hand[0, 0, CO["C"]] = 1
    ready(game, s)
    assert K.A_WITHDRAW not in legal(s)
    play(game, s, K.A_ADD + 0)
    assert s.br_sh[0, 0, 0] == 3
    play(game, s, K.A_WITHDRAW + 0)
    assert s.br_sh[0, 0, 0] == 2
    play(game, s, K.A_CLOSE + 0)
    assert s.hand[0, 0, CO["C"]] == 3 and s.br_co[0, 0, 0] == -1
    assert s.res_free[0, 0].tolist() == [2, 1, 0, 0]


def test_bd_t10_split_doubles_the_income():
    game, s = blank()
    branch(s, 0, 0, "E", 4)
    resources(s, 0, L=2, S=2)
    ready(game, s)
    play(game, s, K.A_WITHDRAW + 0, K.A_WITHDRAW + 0)
    assert K.A_WITHDRAW + 0 not in legal(s)
    play(game, s, K.A_FOUND + CO["E"])
    assert s.br_co[0, 0, :2].tolist() == [CO["E"]] * 2 and s.br_sh[0, 0, :2].tolist() == [2, 2]
    play(game, s, K.A_END)
    before = cash(s, 0)
    start_turn(game, s, 0)
    assert cash(s, 0) - before == 300


def test_bd_t11_share_trading_with_the_bank():
    game, s = blank()
    s.hand[0, 0, CO["C"]] = 1
    ready(game, s)
    assert not legal(s) & set(range(K.A_BUY_SHARE, K.A_BUY_SHARE + 11))  # the pool is empty
    play(game, s, K.A_SELL_SHARE + CO["C"])
    assert cash(s, 0) == 1150 and s.pool[0, CO["C"]] == 1
    play(game, s, K.A_END)
    assert int(s.turn_owner[0]) == 1
    before = cash(s, 1)
    play(game, s, K.A_BUY_SHARE + CO["C"])
    assert cash(s, 1) == before - 150 and s.pool[0, CO["C"]] == 0


def takeover_e(game, s, y_cash: int):
    """BD-T12's start: X (seat 0) with $1000M and one E share; Y (seat 1) with an E branch of
    3 shares and y_cash. X targets it and commits the share."""
    s.hand[0, 0, CO["E"]] = 1
    branch(s, 1, 0, "E", 3)
    s.cash[0, 1] = u(y_cash)
    ready(game, s)
    play(game, s, takeover(1, 0))  # the only card is committed, and the bidding opens (forced)
    assert dec(s) == K.BID and int(s.current_player[0]) == 0 and s.to_sh[0] == 1
    assert K.A_DROP not in legal(s)  # the attacker must open


def test_bd_t12_attacker_wins_when_the_defender_cannot_counter():
    game, s = blank()
    takeover_e(game, s, 100)
    assert K.A_TENS + 0 in legal(s)
    play(game, s, *raise_by(50))  # from W - $50M: opens at W = $200M
    # the defender's counter of $200M for one card exceeds his $100M: he must drop (forced)
    assert dec(s) == K.MAIN and int(s.current_player[0]) == 0
    assert cash(s, 0) == 400 and cash(s, 1) == 700
    assert s.hand[0, 0, CO["E"]] == 4 and s.fresh[0, CO["E"]] == 4
    assert s.res_free[0, 1].tolist() == [2, 2, 0, 0] and s.br_co[0, 1, 0] == -1
    assert s.tk_wins[0, CO["E"]] == 1


def test_bd_t13_translator_income_for_a_takeover():
    game, s = blank()
    takeover_e(game, s, 100)
    play(game, s, *raise_by(50))
    resources(s, 0, L=2, S=2)
    ready(game, s)
    play(game, s, K.A_FOUND + CO["E"])
    assert s.fresh[0, CO["E"]] == 2
    play(game, s, K.A_SELL_FRESH + CO["E"], K.A_SELL_FRESH + CO["E"])
    assert cash(s, 0) == 400 + 500
    play(game, s, K.A_END)
    assert cash(s, 0) == 900 + 150


def test_bd_t14_fresh_shares_sell_without_resources():
    game, s = blank()
    takeover_e(game, s, 100)
    play(game, s, *raise_by(50))
    play(game, s, *[K.A_SELL_FRESH + CO["E"]] * 4)
    assert cash(s, 0) == 400 + 1000
    play(game, s, K.A_END)
    assert cash(s, 0) == 1400  # no open E branch: no special income


def test_bd_t15_two_takeovers_of_one_company():
    game, s = blank()
    s.hand[0, 0, CO["E"]] = 2
    branch(s, 0 + 1, 0, "E", 2)
    branch(s, 2, 0, "E", 2)
    s.cash[0, 1:] = 0
    s.cash[0, 0] = u(3000)
    resources(s, 0, L=2, S=2)
    ready(game, s)
    play(game, s, takeover(1, 0), K.A_COMMIT_DONE, *raise_by(50))  # the first commit is forced
    play(game, s, takeover(2, 0), K.A_COMMIT_DONE, *raise_by(50))
    assert s.tk_wins[0, CO["E"]] == 2
    play(game, s, K.A_FOUND + CO["E"])
    before = cash(s, 0)
    play(game, s, K.A_END)
    assert cash(s, 0) - before == 300


def test_bd_t16_defender_wins_and_keeps_the_share_in_the_company():
    game, s = blank()
    takeover_e(game, s, 1000)
    play(game, s, *raise_by(50))  # X offers $200M per defender share
    assert int(s.current_player[0]) == 1 and K.A_DROP in legal(s)
    play(game, s, *raise_by(150))  # Y offers $150M over W - $50M: $300M per card
    assert int(s.current_player[0]) == 0
    play(game, s, K.A_DROP)
    assert dec(s) == K.PLACE and int(s.current_player[0]) == 1
    assert legal(s) == {K.A_PLACE_COMPANY, K.A_PLACE_HAND}
    play(game, s, K.A_PLACE_COMPANY)
    assert cash(s, 0) == 1300 and cash(s, 1) == 700
    assert s.br_sh[0, 1, 0] == 4 and s.hand[0, 0, CO["E"]] == 0
    assert dec(s) == K.MAIN and int(s.current_player[0]) == 0


def test_d_bd_15_the_defender_may_take_won_shares_into_his_hand():
    game, s = blank()
    takeover_e(game, s, 1000)
    play(game, s, *raise_by(50), *raise_by(100), K.A_DROP, K.A_PLACE_HAND)
    assert s.hand[0, 1, CO["E"]] == 1 and s.br_sh[0, 1, 0] == 3
    # with five cards in hand the company is the only place (a forced decision)
    game, s = blank()
    s.hand[0, 1, CO["A"]] = 5
    takeover_e(game, s, 1000)
    play(game, s, *raise_by(50), *raise_by(100), K.A_DROP)
    assert s.br_sh[0, 1, 0] == 4 and dec(s) == K.MAIN


def test_bd_t17_cash_card_and_the_defender_wins():
    game, s = blank()
    s.hand_cash[0, 0] = 1
    branch(s, 1, 0, "C", 2)
    s.cash[0, 1] = u(500)
    ready(game, s)
    play(game, s, takeover(1, 0), *raise_by(50))  # committing the one card is forced
    play(game, s, *raise_by(150))  # Y: $250M for the card
    play(game, s, K.A_DROP)
    assert cash(s, 0) == 1250
    assert cash(s, 1) == 500 - 250 + 150  # the bank pays the white value for the card
    assert s.cash_gone[0] == 1 and s.hand_cash[0, 0] == 0 and s.br_sh[0, 1, 0] == 2


def test_bd_t18_the_defender_counters_only_with_his_cash():
    game, s = blank(auto_forced=False)
    s.hand[0, 0, CO["E"]] = 1
    s.hand_cash[0, 0] = 1
    branch(s, 1, 0, "E", 3)
    s.cash[0, 1] = u(500)
    ready(game, s)
    play(game, s, takeover(1, 0), K.A_COMMIT_SHARE, K.A_COMMIT_CASH, K.A_COMMIT_DONE)
    play(game, s, *raise_by(50))
    # two cards: at most $250M each; from W - $50M = $150M a raise of $50M or $100M
    assert legal(s) == {K.A_TENS + 0, K.A_DROP}
    play(game, s, K.A_TENS + 0)
    assert legal(s) == {K.A_ONES + 1, K.A_ONES + 2}


def test_bd_t19_forfeit_when_the_attacker_cannot_pay():
    game, s = blank(auto_forced=False)  # (the attacker, left with nothing, would end his turn)
    s.cash[0, 0] = u(300)
    s.hand[0, 0, CO["C"]] = 1
    branch(s, 1, 0, "C", 2)
    s.cash[0, 1] = 0
    ready(game, s)
    play(game, s, takeover(1, 0), K.A_COMMIT_SHARE, K.A_COMMIT_DONE, *raise_by(400), K.A_DROP)
    # $500M x 2 shares owed, $300M at most: forfeit
    assert dec(s) == K.MAIN
    assert s.br_sh[0, 1, 0] == 3 and cash(s, 0) == 0 and cash(s, 1) == 0


def test_bd_t20_realising_assets_to_pay():
    game, s = blank(auto_forced=False)  # so that the only sale is not played for X
    s.cash[0, 0] = u(300)
    branch(s, 0, 0, "A", 2)  # L2 assigned, out_L = 2
    s.hand[0, 0, CO["C"]] = 1
    branch(s, 1, 0, "C", 2)
    s.cash[0, 1] = 0
    ready(game, s)
    play(game, s, takeover(1, 0), K.A_COMMIT_SHARE, K.A_COMMIT_DONE, *raise_by(150),
         K.A_DROP)
    assert dec(s) == K.RAISE_FUNDS and int(s.to_owed[0]) == u(500)
    assert legal(s) == {K.A_SELL_BRANCH + 0}
    play(game, s, K.A_SELL_BRANCH + 0)
    assert dec(s) == K.MAIN
    assert cash(s, 0) == 300 + 300 - 500 and cash(s, 1) == 500
    assert s.hand[0, 0, CO["C"]] == 3 and s.fresh[0, CO["C"]] == 3
    assert s.res_free[0, 1].tolist() == [2, 1, 0, 0]


def test_d_bd_14_a_failed_realisation_forfeits_the_cash_held_before():
    """The attacker sells the cheaper resource with his last allowed sale: he can no longer
    pay, forfeits, and the bank takes the $100M he had before the attempt; the $150M the
    sale raised stays his."""
    game, s = blank(auto_forced=False)
    s.cash[0, 0] = u(100)
    s.hand[0, 0, CO["C"]] = 1
    branch(s, 1, 0, "C", 2)  # L2 S1 off the wheels
    resources(s, 0, L=1, M=2)  # sell prices now: Labour $150M, Machinery $200M
    s.sells[0] = 2
    s.cash[0, 1] = 0
    ready(game, s)
    play(game, s, takeover(1, 0), K.A_COMMIT_SHARE, K.A_COMMIT_DONE, *raise_by(50), K.A_DROP)
    assert dec(s) == K.RAISE_FUNDS  # owes $300M: $100M + the Machinery sale would do
    play(game, s, K.A_SELL_RES + RES["L"])
    assert dec(s) == K.MAIN
    assert cash(s, 0) == 150 and s.br_sh[0, 1, 0] == 3 and cash(s, 1) == 0


def test_d_bd_10_raises_of_any_multiple_and_separate_offers():
    game, s = blank()
    s.hand[0, 0, CO["E"]] = 1
    branch(s, 1, 0, "E", 3)
    s.cash[0, 1] = u(5000)
    ready(game, s)
    play(game, s, takeover(1, 0), *raise_by(37 * 50))
    assert int(s.to_pa[0]) == u(150) + 37
    play(game, s, *raise_by(50))  # the defender opens at W for the attacker's one card
    assert int(s.to_pd[0]) == u(200) and int(s.to_pa[0]) == u(150) + 37
    play(game, s, *raise_by(50))
    assert int(s.to_pa[0]) == u(150) + 38
    play(game, s, *raise_by(50 * 50))  # the defender, with $5000M, to $2700M per card
    assert int(s.to_pd[0]) == u(200) + 50
    # the attacker's offers are capped at bid_cap ($3000M): $950M of room above $2050M
    assert legal(s) == {K.A_TENS + 0, K.A_TENS + 1, K.A_DROP}
    play(game, s, K.A_TENS + 1)
    assert legal(s) == {K.A_ONES + o for o in range(10)}


def test_bd_t21_premium_from_two_players():
    for shark, (y_pays, z_pays) in ((False, (200, 100)), (True, (200, 200))):
        game, s = blank(shark=shark)
        s.hand_cash[0, 0] = 1
        branch(s, 1, 0, "A", 2)
        branch(s, 1, 1, "B", 3)
        resources(s, 1, S=2)
        s.cash[0, 1] = u(200)
        branch(s, 2, 0, "A", 2)
        ready(game, s)
        play(game, s, K.A_PREMIUM + 0)
        assert dec(s) == K.PREMIUM_SECOND and K.A_PREMIUM + 0 not in legal(s)
        play(game, s, K.A_PREMIUM + 1)
        assert cash(s, 1) == 200 - y_pays and cash(s, 2) == 1000 - z_pays
        assert cash(s, 0) == 1000 + y_pays + z_pays
        assert s.cash_gone[0] == 1 and dec(s) == K.MAIN


def test_bd_t22_hand_limit_discards_at_random():
    game, s = blank()
    s.hand[0, 0, CO["A"]] = 4
    s.hand_cash[0, 0] = 3
    ready(game, s)
    play(game, s, K.A_END)
    assert s.hand[0, 0].sum() + s.hand_cash[0, 0] == 5
    assert s.waste[0, CO["A"]] + s.cash_gone[0] == 2


def test_bd_t23_the_last_game_over_card_ends_the_game_at_once():
    game, s = blank()
    s.go_revealed[0] = 6
    n = int(s.deck_len[0])
    s.deck[0, n - 1] = CO["C"]
    s.deck[0, n - 2] = C.GO_CARD
    branch(s, 1, 0, "C", 2)
    before = cash(s, 1)
    ready(game, s)
    play(game, s, K.A_END)
    assert s.terminated[0] and s.go_revealed[0] == 7
    assert s.hand[0, 1, CO["C"]] == 0 and cash(s, 1) == before  # card back, no income
    assert int(s.deck[0, int(s.deck_len[0]) - 1]) == CO["C"]


def test_bd_t24_liquidation():
    game, s = blank()
    s.cash[0, 0] = u(500)
    s.hand[0, 0, CO["A"]] = 2
    s.hand_cash[0, 0] = 1
    branch(s, 0, 0, "E", 3)  # L2 S2 assigned
    resources(s, 0, M=1)
    final = game.scores(s)[0]
    assert final[0] == 500 + 150 * (2 + 3 + 4 + 1)


def test_bd_t25_action_cap():
    game, s = blank()
    s.hand[0, 0, CO["A"]] = 2
    s.main_actions[0] = 40
    ready(game, s)
    assert legal(s) == {K.A_END}


def test_bd_t26_shark_observation_hides_the_others_cash():
    game, s = blank(shark=True)
    f = game.obs_fields(game.observe(s, 1))
    assert f["player.cash"][0, 0, 0] == pytest.approx(20 / 400)
    assert f["player.cash_hidden"][0, :, 0].tolist() == [0, 1, 1, 1]
    assert (f["player.cash"][0, 1:, 0] == 0).all()
    plain, s2 = blank()
    f2 = plain.obs_fields(plain.observe(s2, 1))
    assert (f2["player.cash_hidden"] == 0).all() and (f2["player.cash"] > 0).all()
    assert game.obs_size == plain.obs_size


def test_bd_t27_takeover_needs_a_share_or_a_cash_card():
    game, s = blank()
    branch(s, 1, 0, "C", 2)
    ready(game, s)
    assert takeover(1, 0) not in legal(s)
    s.hand[0, 0, CO["C"]] = 1
    ready(game, s)
    assert takeover(1, 0) in legal(s)
    s.hand[0, 0, CO["C"]] = 0
    s.hand_cash[0, 0] = 1
    ready(game, s)
    assert takeover(1, 0) in legal(s)
    branch(s, 0, 0, "C", 2)
    ready(game, s)
    assert not legal(s) & set(range(K.A_TAKEOVER + 8 * 3, K.A_TAKEOVER + 40))  # no seat +4, +5
