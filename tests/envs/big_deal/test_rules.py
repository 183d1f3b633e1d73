"""Big Deal beyond the scenarios: random-play invariants at every player count, no leaks at
every decision type, bad input, reproducibility, the Shark golden playthrough, the layouts."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest
from heistbench.agents.base import sample_legal
from heistbench.envs.big_deal import components as C
from heistbench.envs.big_deal import kernel as K
from heistbench.envs.big_deal_v0 import Game
from heistbench.envs.core import rng

from .helpers import CO, blank, branch, legal, play, raise_by, ready, takeover, u

GOLDEN = Path(__file__).parents[1] / "golden"


def random_games(n: int, games: int, seed: int, check=None, **options):
    """Uniform random legal play to the end; `check(game, state)` before every step."""
    game = Game(num_players=n, **options)
    s = game.init(np.arange(games) + seed)
    r = np.random.default_rng(seed)
    while not s.done.all():
        if check is not None:
            check(game, s)
        game.step(s, sample_legal(s.legal_action_mask, r.random(games)))
    return game, s


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_random_play_invariants(n):
    """BD-T28: conservation of shares, cash cards, resources and Game Over cards; cash never
    negative; branches of two shares or more; fresh shares in the owner's hand; the hand
    limit for everyone but the turn owner; a mask in every live game; the game ends by the
    7th Game Over card, zero-sum."""
    start = {}
    seen = set()

    def check(game, s):
        if not start:
            start.update(game.conserved(s))
        for k, v in game.conserved(s).items():
            assert (v == start[k]).all(), k
        assert (s.cash >= 0).all()
        assert (s.hand >= 0).all() and (s.res_free >= 0).all() and (s.pool >= 0).all()
        open_ = s.br_co >= 0
        assert (s.br_sh[open_] >= 2).all() and (s.br_sh[~open_] == 0).all()
        live = ~s.done
        b = np.flatnonzero(live)
        owner = s.turn_owner[b].astype(np.int64)
        assert (s.fresh[b] <= s.hand[b, owner]).all()
        sizes = s.hand.sum(axis=2) + s.hand_cash
        others = np.arange(n)[None] != s.turn_owner[:, None]
        assert (sizes[live][others[live]] <= C.HAND_LIMIT).all()
        assert s.legal_action_mask[live].any(axis=1).all()
        bidding = (s.dec == K.BID) | (s.dec == K.BID_ONES)
        y_cash = s.cash[np.arange(s.batch_size), np.maximum(s.to_def, 0)]
        n_att = np.maximum(s.to_sh + s.to_cc, 1)
        assert ((s.to_pd * n_att <= y_cash) | ~bidding | (s.to_bids < 2)).all()
        seen.update(np.unique(s.dec[live]).tolist())

    game, s = random_games(n, 60, 100 * n, check)
    assert s.terminated.all() and not s.truncated.any()
    assert (s.go_revealed == 7).all()
    np.testing.assert_allclose(s.rewards.sum(axis=1), 0, atol=1e-5)
    # with two players the second premium target has no choice (forced: none)
    assert {K.MAIN, K.COMMIT, K.BID, K.BID_ONES, K.PREMIUM_SECOND * (n > 2)} - {0} <= seen


def raise_funds_state():
    """BD-T20 at the point where the attacker must realise assets."""
    game, s = blank(auto_forced=False)
    s.cash[0, 0] = u(300)
    branch(s, 0, 0, "A", 2)
    s.hand[0, 0, CO["C"]] = 1
    s.hand[0, 0, CO["B"]] = 1
    branch(s, 1, 0, "C", 2)
    s.cash[0, 1] = 0
    s.hand[0, 1, CO["K"]] = 3
    s.hand[0, 2, CO["E"]] = 2
    ready(game, s)
    play(game, s, takeover(1, 0), K.A_COMMIT_SHARE, K.A_COMMIT_DONE, *raise_by(150), K.A_DROP)
    assert int(s.dec[0]) == K.RAISE_FUNDS
    return game, s


def commit_state():
    """BD-T18 while the attacker chooses the cards to commit."""
    game, s = blank(auto_forced=False)
    s.hand[0, 0, CO["E"]] = 2
    s.hand_cash[0, 0] = 1
    branch(s, 1, 0, "E", 3)
    s.hand[0, 1, CO["K"]] = 3
    s.hand[0, 2, CO["A"]] = 2
    ready(game, s)
    play(game, s, takeover(1, 0), K.A_COMMIT_SHARE)
    assert int(s.dec[0]) == K.COMMIT
    return game, s


@pytest.mark.parametrize("n", [2, 4, 6])
def test_no_leaks_at_every_decision_type(n):
    """Resampling the hidden state leaves the seat's own observation as it was, at every
    decision type, and does change the hidden parts (others' hands, the deck order)."""
    for shark in (False, True):
        game = Game(num_players=n, shark=shark)
        s = game.init(np.arange(16) + 5)
        r = np.random.default_rng(n)
        seen, changed, t = set(), 0, 0
        while not s.done.all() and t < 1500:
            pending = set(np.unique(s.dec[~s.done]).tolist())
            if t % 8 == 0 or not pending <= seen:  # now and then, and each new decision type
                for p in range(n):
                    alt = game.resample_hidden(s, p, 77 + t)
                    np.testing.assert_array_equal(game.observe(alt, p), game.observe(s, p))
                    live = ~alt.done
                    assert alt.legal_action_mask[live].any(axis=1).all()
                    for k, v in game.conserved(s).items():
                        assert (game.conserved(alt)[k] == v).all(), k
                    changed += int((alt.hand != s.hand).any() or (alt.deck != s.deck).any())
                seen.update(pending)
            game.step(s, sample_legal(s.legal_action_mask, r.random(s.batch_size)))
            t += 1
        assert {K.MAIN, K.BID, K.BID_ONES, K.PREMIUM_SECOND * (n > 2)} - {0} <= seen
        assert changed > 0
    # the rarer decisions, crafted: a choice of cards to commit, realising assets
    for game, s in (commit_state(), raise_funds_state()):
        for p in range(4):
            alt = game.resample_hidden(s, p, 3)
            np.testing.assert_array_equal(game.observe(alt, p), game.observe(s, p))
            assert alt.legal_action_mask[0].any()
            if p != int(s.current_player[0]):  # the hands of the others are redealt
                assert (alt.hand != s.hand).any()


def test_resample_keeps_game_over_cards_in_their_half_and_off_the_top():
    game = Game(num_players=4)
    s = game.init(np.arange(64))
    for t in range(30):
        game.step(s, sample_legal(s.legal_action_mask, np.full(64, (t * 0.37) % 1)))
    alt = game.resample_hidden(s, 0, 11)
    pos = np.arange(C.MAX_DECK)[None]
    for st in (s, alt):
        top = st.deck[np.arange(64), st.deck_len.astype(np.int64) - 1]
        assert (top[~st.done] != C.GO_CARD).all()
    in_deck = pos < s.deck_len[:, None]
    for half in (pos < s.bottom_size[:, None], pos >= s.bottom_size[:, None]):
        a = ((s.deck == C.GO_CARD) & in_deck & half).sum(axis=1)
        b = ((alt.deck == C.GO_CARD) & in_deck & half).sum(axis=1)
        np.testing.assert_array_equal(a, b)
    assert (alt.deck != s.deck).any()


def test_reproducible_in_a_batch_alone_and_with_threads():
    from heistbench.envs.core import jit

    runs = []
    for threads in (1, 2):
        jit.set_threads(threads)
        try:
            _, s = random_games(5, 6, 40)
            runs.append(s)
        finally:
            jit.set_threads(1)
    assert runs[0] == runs[1]
    game = Game(num_players=5)
    a, b = game.init(np.array([9, 10])), game.init(np.array([10]))
    assert a[1] == b


def test_bad_input_raises_and_changes_nothing():
    game = Game(num_players=3)
    s = game.init(np.arange(2))
    before = s.copy()
    with pytest.raises(ValueError, match="out of range"):
        game.step(s, np.array([K.NUM_ACTIONS, 0]))
    with pytest.raises(ValueError, match=r"illegal .* legal: 0 \(end turn\)"):
        game.step(s, np.array([K.A_COMMIT_DONE, 0]))
    assert s == before
    for bad in ({"shark": "yes"}, {"max_main_actions": 0}, {"bid_cap": 3001},
                {"bid_cap": 100}, {"num_players": 7}, {"premium": 2}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            Game(**bad)


def test_the_observation_is_sized_by_player_count_and_the_shark_option_keeps_it():
    sizes = {n: Game(num_players=n).obs_size for n in (2, 3, 4, 5, 6)}
    assert sizes[2] < sizes[3] < sizes[4] < sizes[5] < sizes[6]
    for n, size in sizes.items():
        assert Game(num_players=n, shark=True).obs_size == size
    assert Game().num_actions == K.NUM_ACTIONS == 153


def test_observation_fields_decode_to_the_state():
    game, s = blank(num_players=3)
    branch(s, 2, 3, "K", 4)
    s.hand[0, 0, CO["D"]] = 2
    s.hand_cash[0, 1] = 1
    s.pool[0, CO["A"]] = 2
    f = game.obs_fields(game.observe(s, 0))
    assert f["player.branches"][0, 2].reshape(8, 12)[3, CO["K"]] == 1
    assert f["player.branches"][0, 2].reshape(8, 12)[3, 11] == pytest.approx(4 / 7)
    assert f["player.income"][0, 2, 0] == pytest.approx(9 / 40)
    assert f["my_hand"][0, CO["D"]] == pytest.approx(2 / 7)
    assert f["player.hand_size"][0, 1, 0] == pytest.approx(0.1)
    assert f["pool"][0, CO["A"]] == pytest.approx(2 / 7)
    assert f["decision"][0].argmax() == K.MAIN
    assert f["num_players"][0].tolist() == [0, 1, 0, 0, 0]


def test_fresh_shares_are_used_last_and_expire_at_the_end_of_the_turn():
    game, s = blank()
    s.hand[0, 0, CO["E"]] = 2
    branch(s, 1, 0, "E", 2)
    s.cash[0, 1] = 0
    ready(game, s)
    play(game, s, takeover(1, 0), K.A_COMMIT_DONE, *raise_by(50))
    assert s.hand[0, 0, CO["E"]] == 4 and s.fresh[0, CO["E"]] == 3
    play(game, s, K.A_SELL_SHARE + CO["E"])  # the one share that is not fresh
    assert s.fresh[0, CO["E"]] == 3
    play(game, s, K.A_SELL_SHARE + CO["E"])
    assert s.fresh[0, CO["E"]] == 2
    play(game, s, K.A_END)
    assert (s.fresh == 0).all() and (s.tk_wins == 0).all()


def shark_playthrough(n: int, seed: int = 0) -> str:
    """The core's golden playthrough text (`core.playthrough`) for the Shark variant."""
    from heistbench.envs.core.playthrough import STREAM_POLICY

    game = Game(num_players=n, shark=True)
    state = game.init(np.array([seed]))
    key = rng.seed_keys(seed + 7919)
    lines = [f"# big_deal_v0 shark  players={n}  seed={seed}", ""]
    t = 0
    while not state.done[0]:
        p = int(state.current_player[0])
        legal = np.flatnonzero(state.legal_action_mask[0])
        digest = hashlib.sha1(np.round(game.observe(state, p)[0], 5).tobytes()).hexdigest()[:10]
        a = int(legal[int(rng.uniform(key, STREAM_POLICY, np.array([t]))[0] * legal.size)])
        lines.append(f"{t:4d} player_{p} obs={digest} legal={legal.size:3d} -> "
                     f"{a:3d} {game.action_name(a)}")
        game.step(state, np.array([a]))
        t += 1
    lines += ["", game.render(state, 0), "", f"scores: {game.scores(state)[0].tolist()}",
              f"rewards: {np.round(state.rewards[0], 4).tolist()}"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("n", [2, 6])
def test_golden_playthrough_shark(n):
    path = GOLDEN / f"big_deal_v0_shark_{n}p.txt"
    if not path.exists():
        path.write_text(shark_playthrough(n))
        pytest.fail(f"wrote the missing {path}")
    assert shark_playthrough(n) == path.read_text()


def attacker_cards(s, b: int = 0) -> tuple[int, ...]:
    """The turn owner's hand: shares per company, then cash cards."""
    x = int(s.turn_owner[b])
    return tuple(s.hand[b, x].tolist()) + (int(s.hand_cash[b, x]),)


def test_resample_redeals_the_attackers_hand_while_he_commits():
    """The attacker's uncommitted cards are as hidden as anyone's: resampling for another seat
    during a commit redeals them (the committed card stays, sizes are kept) across seeds, and
    leaves that seat's observation unchanged."""
    game, s = commit_state()
    true = attacker_cards(s)
    hands = set()
    for seed in range(30):
        for p in (1, 2, 3):
            alt = game.resample_hidden(s, p, seed)
            np.testing.assert_array_equal(game.observe(alt, p), game.observe(s, p))
            assert alt.to_sh[0] == 1 and int(alt.dec[0]) == K.COMMIT
            assert sum(attacker_cards(alt)) == sum(true)
            assert alt.legal_action_mask[0, K.A_COMMIT_DONE]
            hands.add(attacker_cards(alt))
    assert len(hands - {true}) >= 10
    alt = game.resample_hidden(s, 0, 1)  # the attacker knows his own hand
    assert attacker_cards(alt) == true


def test_resample_keeps_a_commit_that_asks_a_choice():
    """With nothing committed yet and auto_forced, the attacker is asked only because he holds
    both a share of the company and a cash card: every redeal still holds both."""
    game, s = blank()
    s.hand[0, 0, CO["E"]] = 1
    s.hand_cash[0, 0] = 1
    s.hand[0, 0, CO["A"]] = 2
    s.hand[0, 0, CO["B"]] = 1
    branch(s, 1, 0, "E", 3)
    s.hand[0, 1, CO["K"]] = 3
    ready(game, s)
    play(game, s, takeover(1, 0))
    assert int(s.dec[0]) == K.COMMIT and s.to_sh[0] + s.to_cc[0] == 0
    hands = set()
    for seed in range(40):
        alt = game.resample_hidden(s, 2, seed)
        np.testing.assert_array_equal(game.observe(alt, 2), game.observe(s, 2))
        assert alt.hand[0, 0, CO["E"]] >= 1 and alt.hand_cash[0, 0] >= 1
        assert sum(attacker_cards(alt)) == 5
        hands.add(attacker_cards(alt))
    assert len(hands) >= 5


def attacker_realising_assets(**options):
    """Player 0 ($300M, a share of C and one of K in hand) attacks player 1's C branch, commits
    the share, is raised by $150M and drops: he owes $500M and must realise assets."""
    game, s = blank(auto_forced=False, **options)
    s.cash[0, 0] = u(300)
    s.hand[0, 0, CO["C"]] = 1
    s.hand[0, 0, CO["K"]] = 1
    branch(s, 1, 0, "C", 2)
    s.cash[0, 1] = 0
    ready(game, s)
    play(game, s, takeover(1, 0), K.A_COMMIT_SHARE, K.A_COMMIT_DONE, *raise_by(150), K.A_DROP)
    return game, s


def test_resample_while_realising_assets_keeps_the_debt_payable():
    """An attacker realising assets holds less than he owes but enough to raise it: his
    redealt hand (one share, the only asset besides his cash) is always worth the gap."""
    game, s = attacker_realising_assets()
    assert int(s.dec[0]) == K.RAISE_FUNDS and s.to_owed[0] == u(500)
    hands = set()
    for seed in range(30):
        for p in (1, 2, 3):
            alt = game.resample_hidden(s, p, seed)
            np.testing.assert_array_equal(game.observe(alt, p), game.observe(s, p))
            cards = attacker_cards(alt)
            assert sum(cards) == 1 and int(alt.dec[0]) == K.RAISE_FUNDS
            assert u(300) + (alt.hand[0, 0] * C.WHITE).sum() >= u(500)
            hands.add(cards)
    assert len(hands) >= 3


def test_shark_resample_redraws_the_others_cash_within_what_is_proven():
    """Rule decision (Shark cash): the observation shows no history, so the others' cash is
    hidden from it and redrawn; the observer's own stays, and so does everyone's without the
    Shark variant. A defender asked to counter can still pay a raise."""
    for shark in (False, True):
        game, s = blank(shark=shark)
        s.hand[0, 0, CO["E"]] = 1
        branch(s, 1, 0, "E", 3)
        s.cash[0, 1] = u(1000)
        ready(game, s)
        play(game, s, takeover(1, 0), *raise_by(100))  # $250M a share; the defender answers
        assert int(s.current_player[0]) == 1 and int(s.dec[0]) == K.BID
        drawn = set()
        for seed in range(30):
            for p in (0, 2):
                alt = game.resample_hidden(s, p, seed)
                np.testing.assert_array_equal(game.observe(alt, p), game.observe(s, p))
                assert alt.cash[0, p] == s.cash[0, p]
                # the defender can raise by $50M over W - $50M for the one card
                assert alt.cash[0, 1] >= C.WHITE[CO["E"]]
                assert legal(alt) >= {K.A_TENS, K.A_DROP}
                drawn.add(tuple(alt.cash[0].tolist()))
        if shark:
            assert len(drawn) > 20
        else:
            assert drawn == {tuple(s.cash[0].tolist())}


def test_shark_resample_of_an_attacker_realising_assets():
    """In the Shark variant the attacker's secret cash is redrawn below his debt, with his
    hand able to cover the gap, and his cash before the attempt moves with it."""
    game, s = attacker_realising_assets(shark=True)
    seen = set()
    for seed in range(40):
        alt = game.resample_hidden(s, 1, seed)
        np.testing.assert_array_equal(game.observe(alt, 1), game.observe(s, 1))
        x_cash = int(alt.cash[0, 0])
        assert x_cash < u(500) <= x_cash + (alt.hand[0, 0] * C.WHITE).sum()
        assert alt.to_cash0[0] == x_cash  # nothing sold yet in this attempt
        seen.add(x_cash)
    assert len(seen) > 3
