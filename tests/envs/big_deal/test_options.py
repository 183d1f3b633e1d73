"""The spec's constructor options (§5, §6) as `Game` options: each validated, each changing
what it should; the defaults are the default game (the golden playthroughs pin that)."""

from __future__ import annotations

import numpy as np
import pytest
from heistbench.agents.base import sample_legal
from heistbench.envs.big_deal import kernel as K
from heistbench.envs.big_deal_v0 import Game

from .helpers import (
    CO,
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


@pytest.mark.parametrize("bad", [
    {"bid_increments": (2, 3)}, {"bid_increments": (1, 60)}, {"bid_increments": (1, 1)},
    {"bid_increments": 5}, {"bid_increments": (1, 2.0)}, {"takeover_income": "bank"},
    {"liberal_fresh_sale": 1}, {"liquidate_assigned": "no"},
    {"cash_card_only_takeover": None}, {"defender_shares_to": "pool"},
    {"component_set": "published"}, {"shark_public_income_log": 0},
    {"truncation_reward": "score"}, {"reward": "ranking"},
    {"max_main_actions_per_turn": 40},  # the spec's name: here `max_main_actions`
])
def test_bad_option_values_raise_naming_the_option_and_what_is_allowed(bad):
    name = next(iter(bad))
    with pytest.raises(ValueError, match=f"{name}.*allowed"):
        Game(**bad)


def test_spec_defaults_given_explicitly_are_the_default_game():
    spec = dict(bid_increments=None, takeover_income="translator", liberal_fresh_sale=True,
                liquidate_assigned=True, cash_card_only_takeover=True,
                defender_shares_to="choice", component_set="reconstructed_v1",
                shark_public_income_log=False, truncation_reward="zero", reward="win_loss",
                max_main_actions=40, bid_cap=3000)
    a, b = Game(num_players=5), Game(num_players=5, **spec)
    sa, sb = a.init(np.arange(8)), b.init(np.arange(8))
    r = np.random.default_rng(0)
    while not sa.done.all():
        assert sa == sb
        np.testing.assert_array_equal(a.observe(sa, 0), b.observe(sb, 0))
        acts = sample_legal(sa.legal_action_mask, r.random(8))
        a.step(sa, acts)
        b.step(sb, acts)
    assert sa == sb


# -- shark_public_income_log -------------------------------------------------------------------
def transfers(game, s, seat: int) -> np.ndarray:
    """The `last_transfers` slice seen by `seat`, back in units: [relative seat, (income,
    received, paid)]."""
    f = game.obs_fields(game.observe(s, seat))["last_transfers"][0]
    return np.round(f.reshape(-1, 3) * np.array([40, 400, 400])).astype(int)


def test_income_log_shows_the_previous_steps_public_transfers():
    game, s = blank(shark=True, shark_public_income_log=True)
    assert game.obs_size == Game(shark=True).obs_size + 3 * 4
    s.hand[0, 0, CO["C"]] = 1
    resources(s, 1, L=2, S=2)
    branch(s, 1, 0, "E", 2)
    branch(s, 1, 1, "C", 2)
    ready(game, s)
    play(game, s, K.A_SELL_SHARE + CO["C"], K.A_BUY_RES + 3)  # +$150M; pays $150M
    seen = transfers(game, s, 2)  # seat 0 is seat 2's relative seat 2
    assert seen[2].tolist() == [0, 0, u(150)] and not seen[[0, 1, 3]].any()
    play(game, s, K.A_SELL_RES + 3)  # sold back at the same price
    assert transfers(game, s, 0)[0].tolist() == [0, u(150), 0]
    play(game, s, K.A_END)  # and seat 1's turn begins: the income of two branches
    assert transfers(game, s, 1)[0].tolist() == [u(250), 0, 0]
    assert transfers(game, s, 0)[1].tolist() == [u(250), 0, 0]
    assert not transfers(game, s, 0)[[0, 2, 3]].any()


def test_income_log_shows_a_takeover_payment_to_both_sides():
    game, s = blank(shark_public_income_log=True)
    s.hand[0, 0, CO["E"]] = 1
    branch(s, 1, 0, "E", 3)
    s.cash[0, 1] = u(100)
    ready(game, s)
    play(game, s, takeover(1, 0), *raise_by(50))  # BD-T12: X pays $600M, Y cannot counter
    assert cash(s, 0) == 400
    seen = transfers(game, s, 3)
    assert seen[1].tolist() == [0, 0, u(600)] and seen[2].tolist() == [0, u(600), 0]


# -- truncation_reward and reward="rank" ------------------------------------------------------
def rewards_when_over(game, seeds, max_steps=None):
    s = game.init(seeds)
    r = np.random.default_rng(1)
    got = np.zeros(s.rewards.shape, np.float32)
    while not s.done.all():
        before = s.done.copy()
        game.step(s, sample_legal(s.legal_action_mask, r.random(s.batch_size)))
        new = s.done & ~before
        got[new] = s.rewards[new]
    return s, got


def test_truncation_reward_provisional_is_the_score_margin_of_the_game_now():
    for mode in ("zero", "provisional"):
        game = Game(num_players=3, max_steps=40, truncation_reward=mode, reward="score")
        s, got = rewards_when_over(game, np.arange(6))
        assert s.truncated.all()
        if mode == "zero":
            assert (got == 0).all()
        else:
            sc = game.scores(s).astype(np.float64)
            want = (sc - (sc.sum(axis=1, keepdims=True) - sc) / 2) / game.score_scale
            np.testing.assert_allclose(got, want, atol=1e-5)
            assert (got != 0).any()


def test_reward_rank_by_final_cash_averaged_over_ties():
    game = Game(num_players=4, reward="rank")
    s, got = rewards_when_over(game, np.arange(8))
    assert s.terminated.all()
    np.testing.assert_allclose(got, game.terminal_rewards(game.rank_keys(s), game.scores(s)))
    np.testing.assert_allclose(got.sum(axis=1), 0, atol=1e-5)
    order = np.argsort(-game.scores(s), axis=1, kind="stable")
    for b in range(8):
        if len(set(game.scores(s)[b])) == 4:
            np.testing.assert_allclose(got[b, order[b]], [1, 1 / 3, -1 / 3, -1], atol=1e-6)
    keys = np.array([[5, 5, 1, 0]])  # two share the top: (1 + 1/3) / 2 each
    np.testing.assert_allclose(game.terminal_rewards(keys, keys),
                               [[2 / 3, 2 / 3, -1 / 3, -1]], atol=1e-6)


# -- bid_increments ----------------------------------------------------------------------------
def test_bid_increments_limit_the_raises_to_a_ladder():
    ladder = (1, 2, 3, 4, 6, 8, 12, 20)
    for inc in (None, ladder):
        game, s = blank(bid_increments=inc)
        s.hand[0, 0, CO["E"]] = 1
        branch(s, 1, 0, "E", 3)
        ready(game, s)
        play(game, s, takeover(1, 0))
        tens = {a - K.A_TENS for a in legal(s) if K.A_TENS <= a < K.A_ONES}
        assert tens == ({0, 1, 2, 3, 4, 5} if inc is None else {0, 1, 2})
        play(game, s, K.A_TENS + 0)
        ones = {a - K.A_ONES for a in legal(s) if K.A_ONES <= a < K.A_DROP}
        assert ones == (set(range(1, 10)) if inc is None else {1, 2, 3, 4, 6, 8})
        if inc is not None:
            play(game, s, K.A_ONES + 8)  # the attacker opens at W - $50M + $400M
            assert s.to_pa[0] == 3 + 8


# -- takeover_income, liberal_fresh_sale, liquidate_assigned, cash_card_only_takeover ----------
def won_e(**options):
    """BD-T12 played: seat 0 won an E branch of 3 (4 fresh E shares, $400M left)."""
    game, s = blank(**options)
    s.hand[0, 0, CO["E"]] = 1
    branch(s, 1, 0, "E", 3)
    s.cash[0, 1] = u(100)
    ready(game, s)
    play(game, s, takeover(1, 0), *raise_by(50))
    assert s.fresh[0, CO["E"]] == 4 and cash(s, 0) == 400
    return game, s


@pytest.mark.parametrize("mode,income", [("translator", 150), ("none", 0)])
def test_takeover_income_option(mode, income):
    game, s = won_e(takeover_income=mode)  # BD-T13
    resources(s, 0, L=2, S=2)
    ready(game, s)
    play(game, s, K.A_FOUND + CO["E"], K.A_END)
    assert cash(s, 0) == 400 + income


def test_strict_fresh_sale_is_all_or_none_without_a_resource_set():
    game, s = won_e(liberal_fresh_sale=False)
    play(game, s, K.A_SELL_FRESH + CO["E"])  # no resources: all four go at once (BD-T14)
    assert cash(s, 0) == 400 + 1000 and s.hand[0, 0, CO["E"]] == 0 and s.waste[0, CO["E"]] == 4
    game, s = won_e(liberal_fresh_sale=False)
    resources(s, 0, L=2, S=2)
    ready(game, s)
    play(game, s, K.A_SELL_FRESH + CO["E"])  # with a set he may keep some
    assert cash(s, 0) == 400 + 250 and s.fresh[0, CO["E"]] == 3
    game, s = won_e()
    play(game, s, K.A_SELL_FRESH + CO["E"])  # liberal (default): one at a time
    assert cash(s, 0) == 400 + 250 and s.fresh[0, CO["E"]] == 3


@pytest.mark.parametrize("assigned,final", [(True, 2000), (False, 1400)])
def test_liquidate_assigned_option(assigned, final):
    game, s = blank(liquidate_assigned=assigned)  # BD-T24
    s.cash[0, 0] = u(500)
    s.hand[0, 0, CO["A"]] = 2
    s.hand_cash[0, 0] = 1
    branch(s, 0, 0, "E", 3)
    resources(s, 0, M=1)
    assert game.scores(s)[0, 0] == final


@pytest.mark.parametrize("allowed", [True, False])
def test_cash_card_only_takeover_option(allowed):
    game, s = blank(cash_card_only_takeover=allowed)  # BD-T27
    branch(s, 1, 0, "C", 2)
    s.hand_cash[0, 0] = 1
    ready(game, s)
    assert (takeover(1, 0) in legal(s)) == allowed
    s.hand[0, 0, CO["C"]] = 1
    ready(game, s)
    play(game, s, takeover(1, 0))
    assert {K.A_COMMIT_SHARE, K.A_COMMIT_CASH} <= legal(s)  # cash cards may still join


# -- defender_shares_to ------------------------------------------------------------------------
@pytest.mark.parametrize("mode,in_hand,held", [("company", 0, 0), ("hand", 1, 0),
                                                ("hand", 0, 5), ("choice", None, 0)])
def test_defender_shares_to_option(mode, in_hand, held):
    game, s = blank(defender_shares_to=mode)  # BD-T16: the defender wins one E share
    s.hand[0, 1, CO["A"]] = held
    s.hand[0, 0, CO["E"]] = 1
    branch(s, 1, 0, "E", 3)
    ready(game, s)
    play(game, s, takeover(1, 0), *raise_by(50), *raise_by(150), K.A_DROP)
    if in_hand is None:  # the defender's decision
        assert dec(s) == K.PLACE and legal(s) == {K.A_PLACE_COMPANY, K.A_PLACE_HAND}
        return
    assert dec(s) == K.MAIN  # placed without asking
    assert s.hand[0, 1, CO["E"]] == in_hand and s.br_sh[0, 1, 0] == 4 - in_hand


def test_defender_shares_to_without_auto_forced_asks_the_one_place():
    game, s = blank(defender_shares_to="company", auto_forced=False)
    s.hand[0, 0, CO["E"]] = 1
    branch(s, 1, 0, "E", 3)
    ready(game, s)
    play(game, s, takeover(1, 0), K.A_COMMIT_SHARE, K.A_COMMIT_DONE, *raise_by(50),
         *raise_by(150), K.A_DROP)
    assert dec(s) == K.PLACE and legal(s) == {K.A_PLACE_COMPANY}


def test_component_set_names_the_tables():
    assert Game(component_set="reconstructed_v1").options["component_set"] == "reconstructed_v1"
    assert Game.option_spec()["component_set"].choices == ("reconstructed_v1",)


def test_start_turn_income_reaches_the_log_of_a_crafted_state():
    game, s = blank(shark_public_income_log=True)
    branch(s, 2, 0, "K", 2)
    start_turn(game, s, 2)
    assert transfers(game, s, 2)[0].tolist() == [u(450), 0, 0]


def test_the_env_hands_out_provisional_rewards_at_truncation():
    from heistbench.envs import big_deal_v0

    env = big_deal_v0.raw_env(num_players=2, max_steps=25, truncation_reward="provisional")
    env.reset(seed=3)
    r = np.random.default_rng(0)
    total = dict.fromkeys(env.agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            assert trunc and not term
            env.step(None)
        else:
            env.step(int(r.choice(np.flatnonzero(obs["action_mask"]))))
    assert any(v != 0 for v in total.values()) and abs(sum(total.values())) < 1e-5
