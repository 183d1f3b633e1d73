"""Determinization: `resample_hidden(state, p, seeds)` redraws everything p cannot know, and
nothing p can. For every decision type: p's observation is unchanged, the hidden parts do
change (the opponents' true face-down assignments are not always kept), and the resampled
games are valid games that play on to the end."""

from __future__ import annotations

import numpy as np
import pytest
from big_score_helpers import FLEE, ROB, T20, T30, TRASH, Table, job, take
from heistbench.envs.big_score import components as C
from heistbench.envs.big_score import kernel as K
from heistbench.envs.big_score_v1 import Game

RANDOM_PLAY = [K.BOSS_OPTION, K.DRAFT, K.ASSIGN, K.JOAT, K.ROB_FLEE, K.TRADE]
FLOOR = [T20, T30, C.SILVER, C.GOLD, C.V_ARTIFACT]


def states_by_decision(n: int, games: int = 64, per_type: int = 24) -> dict[int, K.BigScoreState]:
    """States of random games (forced decisions included) at each decision type."""
    game = Game(num_players=n, auto_forced=False)
    s = game.init(np.arange(games) + 100 * n)
    rng = np.random.default_rng(n)
    found: dict[int, list] = {d: [] for d in RANDOM_PLAY}
    while not s.done.all():
        for d in RANDOM_PLAY:
            rows = np.flatnonzero((s.phase == d) & ~s.done)
            if len(found[d]) < per_type and rows.size:
                found[d].append(s[rows[:4]])
        mask = s.legal_action_mask
        a = np.argmax(np.where(mask, rng.random(mask.shape), -1), axis=1)
        game.step(s, a)
    return {d: K.BigScoreState.concat(v) for d, v in found.items() if v}


def assert_resample_hides_nothing_more(game: Game, s: K.BigScoreState, seed: int) -> int:
    """For every seat p: p's observation and (if p acts) mask are the same after resampling;
    conserved totals too; returns how many resampled games differ in some hidden field."""
    changed = 0
    for p in range(game.num_players):
        alt = game.resample_hidden(s, p, np.arange(len(s)) + seed)
        np.testing.assert_array_equal(game.observe(alt, p), game.observe(s, p),
                                      err_msg=f"seat {p} sees what was resampled")
        acting = s.current_player == p
        np.testing.assert_array_equal(alt.legal_action_mask[acting], s.legal_action_mask[acting])
        assert (alt.current_player == s.current_player).all()
        for key, value in game.conserved(s).items():
            assert (game.conserved(alt)[key] == value).all(), key
        hidden = ("crew_deck", "hands", "picks", "ahand", "assign", "trash", "job_deck")
        diff = np.zeros(len(s), bool)
        for name in hidden:
            a, b = getattr(alt, name), getattr(s, name)
            diff |= (a != b).reshape(len(s), -1).any(axis=1)
        changed += int(diff.sum())
    return changed


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_every_decision_type_of_random_play(n):
    game = Game(num_players=n, auto_forced=False)
    states = states_by_decision(n)
    assert set(states) >= {K.BOSS_OPTION, K.DRAFT, K.ASSIGN, K.JOAT, K.ROB_FLEE}
    for d, s in states.items():
        changed = assert_resample_hides_nothing_more(game, s, 10 * d)
        assert changed > 0, f"decision {K.DECISION_NAMES[d]}: nothing hidden was redrawn"


@pytest.mark.parametrize("n", [2, 4, 6])
def test_the_true_assignments_are_not_always_kept(n):
    """Opponents' face-down piles of this round (while assigning, and in a JoAT window) are
    redealt: the cards, and where they lie, as the rules allow."""
    game = Game(num_players=n, auto_forced=False)
    states = states_by_decision(n)
    for d in (K.ASSIGN, K.JOAT):
        s = states[d]
        p = 0
        opp = np.arange(n) != p
        kept = moved = 0
        for seed in range(4):
            alt = game.resample_hidden(s, p, np.arange(len(s)) + 1000 * seed)
            face_down = s.assign[:, opp].reshape(len(s), -1).any(axis=1)
            same = (alt.assign[:, opp] == s.assign[:, opp]).reshape(len(s), -1).all(axis=1)
            kept += int((same & face_down).sum())
            moved += int((~same & face_down).sum())
            # every card still lies where the rules let it go
            for b in np.flatnonzero(face_down):
                for q in np.flatnonzero(opp):
                    for pos in range(6):
                        kinds = np.flatnonzero(alt.assign[b, q, pos])
                        req = game.jobs.req[alt.jobs[b, pos]]
                        assert all(req[C.KIND_TYPE[k]] > 0 for k in kinds)
                    train = alt.assign[b, q, K.TRAINING]
                    assert train.sum() <= 3 and train[0::2].sum() == 0
                    assert len({C.KIND_TYPE[k] for k in np.flatnonzero(train)}) <= 1
        assert moved > 0, f"{K.DECISION_NAMES[d]}: the true assignment was always kept"


@pytest.mark.parametrize("n", [2, 5])
def test_resampled_games_play_on_to_the_end(n):
    game = Game(num_players=n)
    s = game.init(np.arange(32))
    rng = np.random.default_rng(0)
    for _ in range(60):
        mask = s.legal_action_mask
        game.step(s, np.argmax(np.where(mask, rng.random(mask.shape), -1), axis=1))
    alt = game.resample_hidden(s, 1, 7)
    start = game.conserved(alt)
    while not alt.done.all():
        mask = alt.legal_action_mask
        game.step(alt, np.argmax(np.where(mask, rng.random(mask.shape), -1), axis=1))
        for key, value in game.conserved(alt).items():
            assert (value == start[key]).all(), key
    assert not alt.truncated.any()


def ability_states() -> dict[int, tuple[Table, K.BigScoreState]]:
    """Act II states at the Muscle's, the Gun Man's and the Grease Man's decisions."""
    out = {}
    t = Table(3)
    s = t.act2(ability={2: C.MUSCLE}, floor=FLOOR, fp=0, draws=[T20, T20, T20])
    t.play(s, (0, ROB), (1, ROB), (2, ROB))
    assert s.phase[0] == K.MUSCLE
    out[K.MUSCLE] = (t, s)
    t = Table(3)
    s = t.act2(ability={1: C.GUN_MAN}, floor=FLOOR, fp=1, draws=[T20, T20, T20])
    t.play(s, (1, ROB), (2, ROB), (0, ROB), (1, take(C.SILVER)))
    assert s.phase[0] == K.GUN_STEAL
    out[K.GUN_STEAL] = (t, s)
    t = Table(3)
    s = t.act2(ability={0: C.GREASE_MAN}, floor=FLOOR, fp=0, draws=[T20, T20])
    t.play(s, (0, FLEE), (1, ROB), (2, ROB))
    assert s.phase[0] == K.GREASE_STEAL
    out[K.GREASE_STEAL] = (t, s)
    return out


def test_the_ability_decisions():
    for d, (t, s) in ability_states().items():
        changed = assert_resample_hides_nothing_more(t.game, s, d)
        assert changed > 0, K.DECISION_NAMES[d]
        alt = t.game.resample_hidden(s, 1, 3)
        assert alt.stacked_len[0] == 0  # the stacked bag was the scenario's, not knowledge
        t.play(alt, (int(alt.current_player[0]), int(np.flatnonzero(alt.legal_action_mask[0])[0])))


# -- what the player saw of this round's draft ----------------------------------------------------
def draft_states(n: int, games: int = 24, every: int = 3, phases=(K.DRAFT, K.ASSIGN)):
    """Random games with, at every pick step, each seat's true hand, and states taken in
    `phases` (the draft and the assignment): the game, [(rows, states)] and the hands seen
    {(game, stage, step): [N, 12]}."""
    game = Game(num_players=n, auto_forced=False)
    s = game.init(np.arange(games) + 7 * n)
    rng = np.random.default_rng(n)
    seen: dict[tuple[int, int, int], np.ndarray] = {}
    taken, t = [], 0
    while not s.done.all():
        for b in np.flatnonzero(s.phase == K.DRAFT):
            seen[(b, int(s.stage[b]), int(s.draft_step[b]))] = s.hands[b].astype(int).copy()
        rows = np.flatnonzero(np.isin(s.phase, phases) & ~s.done)
        if t % every == 0 and rows.size:
            taken.append((rows, s[rows]))
        t += 1
        mask = s.legal_action_mask
        game.step(s, np.argmax(np.where(mask, rng.random(mask.shape), -1), axis=1))
    return game, taken, seen


def replay_draft(s: K.BigScoreState, b: int, h: int) -> tuple[list[np.ndarray], np.ndarray]:
    """The draft of game b's round as its state records it (the deal, then the picks): the
    hands [N, 12] at each pick step so far, and what each seat has drafted."""
    n = s.num_players
    d = C.PASS_DIR[int(s.stage[b]) - K.ROUND1]
    start = int(s.deal_ptr[b])
    hands = np.stack([np.bincount(s.crew_deck[b, start + q * h:start + (q + 1) * h],
                                  minlength=12) for q in range(n)])
    steps = int(s.draft_step[b]) if s.phase[b] == K.DRAFT else h - 1
    out, took = [hands], np.zeros((n, 12), int)
    for t in range(steps):
        held = hands.copy()
        for q in range(n):
            k = int(s.pick_log[b, q, t])
            assert k >= 0 and held[q, k] > 0, "a pick the hand did not hold"
            held[q, k] -= 1
            took[q, k] += 1
        hands = np.stack([held[(q - d) % n] for q in range(n)])
        out.append(hands)
    if s.phase[b] != K.DRAFT:
        took += hands  # the last card
    return out, took


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_the_draft_the_player_saw_is_never_contradicted(n):
    """A resampled world is a draft that really happened as far as p saw it: every hand p held
    is the one he held, the cards he passed on lie with the seats that hand went to (their
    picks and the hand they hold now, or their cards to assign), each opponent's cards are
    what that draft gave him; and p's observation is unchanged. Yet the opponents' cards
    are redrawn where p has not seen them."""
    game, taken, seen = draft_states(n)
    h = game.hand_size
    checked = changed = 0
    for rows, s in taken:
        for p in range(n):
            alt = game.resample_hidden(s, p, rows * 31 + p)
            np.testing.assert_array_equal(game.observe(alt, p), game.observe(s, p))
            for i, b in enumerate(rows):
                stage = int(s.stage[i])
                d = C.PASS_DIR[stage - K.ROUND1]
                hands, took = replay_draft(alt, i, h)
                for t, held in enumerate(hands):
                    if (b, stage, t) in seen:  # every hand p held, as he held it
                        np.testing.assert_array_equal(held[p], seen[(b, stage, t)][p])
                drafting = s.phase[i] == K.DRAFT
                if drafting:
                    np.testing.assert_array_equal(hands[-1], alt.hands[i])
                    np.testing.assert_array_equal(took, alt.picks[i])
                    now, have = len(hands) - 1, alt.picks[i].astype(int)
                else:
                    now = h - 1
                    have = alt.ahand[i] + alt.assign[i].sum(axis=1) - alt.returned[i]
                    np.testing.assert_array_equal(took, have)
                for t in range(now):
                    if (b, stage, t + 1) not in seen:
                        continue
                    passed = seen[(b, stage, t + 1)][(p + d) % n]  # what p passed at step t
                    path = [(p + d * j) % n for j in range(1, now - t + 1)]
                    where = have[path].sum(axis=0) - (have[path[-1]] if drafting else 0)
                    if drafting:
                        where = where + alt.hands[i, path[-1]]
                    assert (passed <= where).all(), "a card p passed is where it cannot be"
                opp = np.arange(n) != p
                now_cards = (alt.hands[i] + alt.picks[i] + alt.ahand[i]
                             + alt.assign[i].sum(axis=1))[opp]
                true_cards = (s.hands[i] + s.picks[i] + s.ahand[i] + s.assign[i].sum(axis=1))[opp]
                changed += int((now_cards != true_cards).any() or
                               (alt.assign[i][opp] != s.assign[i][opp]).any())
                checked += 1
    assert checked > 100
    assert changed > checked // 4, f"only {changed} of {checked} resamples moved a hidden card"


def test_a_returned_training_card_is_kept_by_public_facts_only():
    """Two JoAT windows that seat 0 cannot tell apart: seat 1 sent the Expert Driver he took
    back from Training to job 1 and a Driver to job 2, or the other way round (seat 2 the
    opposite, so the same kinds are revealed). Seat 0's resamples of the two are the same;
    they used to keep the returned card face down with seat 1 exactly when it truly was."""
    DR, DRx, CM = 2, 3, 0
    states = []
    for first in (DRx, DR):  # the card seat 1 sends to job 1 (Pawn Shop: DR, GR, MU)
        t = Table(3)
        s = t.act1([1, 2, 0, 3, 5, 7], {0: [CM], 1: [DR, DRx], 2: [DR, DRx]},
                   returned={1: [DRx]})
        to = {DR: job(2) if first == DRx else job(1), DRx: job(1) if first == DRx else job(2)}
        other = {DR: to[DRx], DRx: to[DR]}
        t.assign_all(s, {0: [TRASH], 1: [to[DR], to[DRx]], 2: [other[DR], other[DRx]]})
        assert s.phase[0] == K.JOAT and s.cur_job[0] == 0
        states.append((t.game, s))
    (game, a), (_, b) = states
    np.testing.assert_array_equal(game.observe(a, 0), game.observe(b, 0))
    assert (a.assign[0, 1, 1] == [0, 0, 1, 0] + [0] * 8).all()  # truly face down: a Driver
    assert (b.assign[0, 1, 1] == [0, 0, 0, 1] + [0] * 8).all()  # truly face down: the Expert
    kept = 0
    for seed in range(40):
        alt_a, alt_b = game.resample_hidden(a, 0, seed), game.resample_hidden(b, 0, seed)
        for name in ("ahand", "assign", "hands", "picks", "trash", "crew_deck"):
            np.testing.assert_array_equal(getattr(alt_a, name), getattr(alt_b, name), name)
        kept += int(alt_a.assign[0, 1, 1, DRx])
    assert 0 < kept < 40  # the returned Expert Driver is sometimes face down with seat 1


# -- a JoAT window: what the player saw of the draft and of the reveals ---------------------------
def revealed_this_round(s: K.BigScoreState, i: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    """Each seat's cards of game i's round [N, 12] (what the recorded draft gave him, plus
    his Training cards taken back) and those of them already revealed (the rest are still
    face down: in no other place)."""
    _, took = replay_draft(s, i, h)
    cards = took + s.returned[i]
    return cards, cards - s.ahand[i] - s.assign[i].sum(axis=1)


def piles_can_be_split(piles: np.ndarray, sent: np.ndarray, types: np.ndarray) -> bool:
    """Whether seats that revealed `types` [N, 6] in all can have sent `sent[q, j]` cards to
    job j so that each job shows `piles[j]` [6] (exhaustive search)."""
    jobs, n = piles.shape[0], sent.shape[0]

    def fill(j: int, q: int, left: np.ndarray, rest: np.ndarray) -> bool:
        if q == n:
            return j + 1 == jobs or fill(j + 1, 0, piles[j + 1].copy(), rest)
        want = int(sent[q, j])

        def pick(t: int, want: int) -> bool:  # seat q's cards on job j, type t onwards
            if want == 0:
                return fill(j, q + 1, left, rest)
            for u in range(t, 6):
                if left[u] and rest[q, u]:
                    left[u] -= 1
                    rest[q, u] -= 1
                    ok = pick(u, want - 1)
                    left[u] += 1
                    rest[q, u] += 1
                    if ok:
                        return True
            return False

        return pick(0, want)

    return jobs == 0 or fill(0, 0, piles[0].copy(), types.copy())


def kinds_in_play(s: K.BigScoreState, i: int) -> np.ndarray:
    """[12]: the crew cards of game i by kind, wherever they are (the whole deck: 8 plain and
    7 Expert cards of each type)."""
    return (np.bincount(s.crew_deck[i, s.crew_ptr[i]:], minlength=12)
            + (s.hands[i] + s.picks[i] + s.ahand[i] + s.train[i] + s.trash[i]).sum(axis=0)
            + s.assign[i].sum(axis=(0, 1)) + s.crew_revealed[i])


def check_joat_samples(game: Game, taken, seen, seats: int = 2) -> tuple[int, int]:
    """Resample JoAT windows for `seats` seats each and check each sample against what the
    seat saw: every hand he held as he held it, each seat's revealed cards of the round
    consistent with the jobs' piles (types per job, cards per seat, the kinds revealed in
    all; his own unchanged), each opponent's round cards those of a draft that could give
    them; the observation and the deck by kind unchanged. Returns (samples, samples whose
    opponents' face-down cards differ from the true ones)."""
    n, h = game.num_players, game.hand_size
    checked = moved = 0
    for rows, s in taken:
        for j in range(seats):
            p = (int(rows[0]) + j) % n
            alt = game.resample_hidden(s, p, rows * 13 + p)
            np.testing.assert_array_equal(game.observe(alt, p), game.observe(s, p))
            for i, b in enumerate(rows):
                stage = int(s.stage[i])
                hands, _ = replay_draft(alt, i, h)  # a draft that can happen
                for t, held in enumerate(hands):
                    if (b, stage, t) in seen:
                        np.testing.assert_array_equal(held[p], seen[(b, stage, t)][p])
                cards, shown = revealed_this_round(alt, i, h)
                true_cards, true_shown = revealed_this_round(s, i, h)
                assert (shown >= 0).all(), "a face-down card the draft did not give"
                np.testing.assert_array_equal(shown.sum(axis=1), s.contrib[i].sum(axis=1))
                np.testing.assert_array_equal(shown[p], true_shown[p])
                np.testing.assert_array_equal(shown.sum(axis=0), true_shown.sum(axis=0))
                jobs = np.flatnonzero(s.contrib[i].sum(axis=0))
                piles = s.pile[i, jobs].astype(int)
                for x, pos in enumerate(jobs):
                    if s.inside[i, pos] >= 0:
                        piles[x, s.inside[i, pos]] -= 1
                assert piles_can_be_split(piles, s.contrib[i][:, jobs],
                                          shown[:, 0::2] + shown[:, 1::2]), "piles contradicted"
                np.testing.assert_array_equal(kinds_in_play(alt, i), C.KIND_COUNTS)
                opp = np.arange(n) != p
                moved += int((alt.assign[i][opp] != s.assign[i][opp]).any())
                checked += 1
    return checked, moved


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_a_joat_window_agrees_with_the_draft_and_the_reveals(n):
    game, taken, seen = draft_states(n, games=8, every=2, phases=(K.JOAT,))
    checked, moved = check_joat_samples(game, taken, seen)
    assert checked > 40
    assert moved > checked // 4, f"only {moved} of {checked} samples moved a face-down card"


@pytest.mark.parametrize("n", [3, 6])
def test_a_joat_window_replay_built_to_agree(n):
    """With no plain replay tried, every sample is a draft built around the revealed cards:
    it agrees just as well."""
    game, taken, seen = draft_states(n, games=6, every=3, phases=(K.JOAT,))
    game.REVEAL_TRIES = 0
    checked, moved = check_joat_samples(game, taken, seen, seats=1)
    assert checked > 15 and moved > 0


def test_two_players_the_opponent_holds_every_card_the_player_can_deduce():
    """At 2 players, p sees every hand but the opponent's first: the opponent's cards of the
    round in every sample are all his true ones but that first pick, plus one card."""
    game, taken, seen = draft_states(2, games=16, every=1, phases=(K.JOAT,))
    h = game.hand_size
    checked = 0
    for rows, s in taken:
        for p in (0, 1):
            q = 1 - p
            alt = game.resample_hidden(s, p, rows * 5 + p)
            for i in range(len(rows)):
                true_cards, _ = revealed_this_round(s, i, h)
                cards, _ = revealed_this_round(alt, i, h)
                known = true_cards[q].copy()
                known[s.pick_log[i, q, 0]] -= 1
                assert (cards[q] >= known).all()
                assert cards[q].sum() == true_cards[q].sum()
                checked += 1
    assert checked > 50


def test_a_joat_window_resample_is_reproducible():
    game, taken, _ = draft_states(4, games=8, every=4, phases=(K.JOAT,))
    rows, s = max(taken, key=lambda x: len(x[0]))
    a, b = (game.resample_hidden(s, 1, np.arange(len(rows))) for _ in range(2))
    c = game.resample_hidden(s, 1, np.arange(len(rows)) + 50)
    for name in ("crew_deck", "pick_log", "ahand", "assign", "trash", "job_deck", "joat_pending"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), name)
    assert any((getattr(a, name) != getattr(c, name)).any()
               for name in ("crew_deck", "pick_log", "assign"))
