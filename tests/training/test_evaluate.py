"""Seat rotation, the Wilson interval and the statistics of the evaluation table."""

from __future__ import annotations

import numpy as np
import pytest
from heistbench.agents import RandomPolicy, make_policy
from heistbench.envs import game as make_game
from heistbench.training.evaluate import (
    MatchResult,
    eval_seeds,
    evaluate,
    format_rows,
    play_matches,
    rotated_schedule,
    rotations,
    summarize,
    wilson_interval,
)


@pytest.mark.parametrize("k,n,lo,hi", [(50, 100, 0.4038, 0.5962), (0, 10, 0.0, 0.2775),
                                       (10, 10, 0.7225, 1.0), (81, 100, 0.7222, 0.8749)])
def test_wilson_known_values(k, n, lo, hi):
    a, b = wilson_interval(k, n)
    assert a == pytest.approx(lo, abs=1e-4) and b == pytest.approx(hi, abs=1e-4)


def test_wilson_empty_is_uninformative():
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_rotations_put_each_policy_in_each_seat_equally():
    np.testing.assert_array_equal(rotations([0, 1, 1]), [[0, 1, 1], [1, 0, 1], [1, 1, 0]])
    seeds, seating = rotated_schedule([0, 1, 2, 1], games=10)
    assert len(seeds) == 12  # rounded up to whole rotations
    assert (np.bincount(seeds - seeds.min()) == 4).all()  # each seed once per rotation
    for seat in range(4):
        assert (seating[:, seat] == 0).sum() == 3  # policy 0 sits in every seat 3 times
        assert (seating[:, seat] == 2).sum() == 3


def test_eval_seeds_are_fixed_and_versioned():
    np.testing.assert_array_equal(eval_seeds(3), (1 << 36) + np.arange(3))
    with pytest.raises(ValueError, match="unknown evaluation seed version"):
        eval_seeds(3, version=99)


def test_summarize_on_known_inputs():
    # 4 games, policy 0 in seat 0, 1, 0, 1: a win, a loss, a tie, a win
    res = MatchResult(
        seating=np.array([[0, 1], [1, 0], [0, 1], [1, 0]]),
        scores=np.array([[10, 4], [9, 3], [5, 5], [0, 2]]),
        winners=np.array([[True, False], [True, False], [True, True], [False, True]]),
        rank_keys=np.zeros((4, 2), dtype=np.int64),
        rewards=np.array([[1, -1], [1, -1], [0, 0], [-1, 1]], dtype=float),
        truncated=np.zeros(4, bool))
    row = summarize(res, 0, "p", "q")
    assert row.games == 4 and row.wins == 2 and row.ties == 1
    assert row.win_rate == pytest.approx(2.5 / 4)
    assert row.mean_margin == pytest.approx((6 - 6 + 0 + 2) / 4)
    assert row.mean_reward == pytest.approx(0.25)
    assert (row.ci_low, row.ci_high) == pytest.approx(wilson_interval(2.5, 4))


def test_random_vs_random_is_fair_and_seats_rotate():
    game = make_game("big_score", num_players=2, validate=False)
    row = evaluate(game, RandomPolicy(seed=1), RandomPolicy(seed=2), 200)
    assert row.games == 200
    assert row.ci_low < 0.5 < row.ci_high
    assert "win rate" in format_rows([row])


def test_play_matches_is_reproducible():
    game = make_game("big_score", num_players=3, validate=False)
    seeds, seating = rotated_schedule([0, 1, 1], 12)

    def pols():
        return [make_policy("heuristic", game, seed=1), make_policy("random", game, seed=2)]
    whole = play_matches(game, pols(), seating, seeds, batch_size=5)
    again = play_matches(game, pols(), seating, seeds, batch_size=5)
    np.testing.assert_array_equal(whole.scores, again.scores)
    assert not whole.truncated.any()
    np.testing.assert_allclose(whole.rewards.sum(axis=1), 0, atol=1e-5)  # zero-sum


def test_heuristic_beats_random():
    game = make_game("big_score", num_players=2, validate=False)
    row = evaluate(game, make_policy("heuristic", game), make_policy("random", game), 100)
    assert row.ci_low > 0.6


def test_a_solo_game_is_scored_per_scenario():
    """A solo game has no opponents: a row per scenario, the win rate its objective's rate and
    the margin the take itself; an unknown scenario is refused with the allowed ones."""
    import pytest
    from heistbench.training.report import evaluation_rows, solo_scenarios

    from heistbench import envs

    game = envs.game("big_score", num_players=1)
    assert len(solo_scenarios(game)) == 10 and "random" not in solo_scenarios(game)
    rows = evaluation_rows("heuristic", game, None, ["random"], 40,
                           scenarios=["biggest_score", "diamond_thief"])
    assert [(r.name, r.opponent) for r in rows] == [
        ("heuristic", "biggest_score"), ("random (sanity)", "biggest_score"),
        ("heuristic", "diamond_thief"), ("random (sanity)", "diamond_thief")]
    heuristic, rand = rows[0], rows[1]
    assert heuristic.mean_margin > rand.mean_margin > 0 and rand.win_rate == 0
    with pytest.raises(ValueError, match="unknown scenario.*biggest_score"):
        evaluation_rows("heuristic", game, None, [], 10, scenarios=["bank_job"])


def test_a_stochastic_policys_row_does_not_depend_on_the_rows_before_it():
    """Each row gets a fresh policy from the same seed: the random policy's row against the
    heuristic is the same alone as after a row against random play."""
    from heistbench.training.report import evaluation_rows

    from heistbench import envs

    game = envs.game("grifters", num_players=2)
    after = evaluation_rows("random", game, None, ["random", "heuristic"], 40, sanity=False)[1]
    alone = evaluation_rows("random", game, None, ["heuristic"], 40, sanity=False)[0]
    assert after.as_dict() == alone.as_dict()
