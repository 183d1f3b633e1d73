"""Determinization: `resample_hidden(state, p, seeds)` redraws everything p cannot know, and
nothing p can. For every decision type: p's observation is unchanged, the hidden parts do
change (the opponents' true face-down assignments are not always kept), and the resampled
games are valid games that play on to the end."""

from __future__ import annotations

import numpy as np
import pytest
from big_score_helpers import FLEE, ROB, T20, T30, Table, take
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
