"""The benchmark times a batch of games of every age, as a long training run has."""

from __future__ import annotations

from itertools import count

import numpy as np
from heistbench.agents.base import sample_legal
from heistbench.envs import game as make_game
from heistbench.training.bench import BenchResult, replace_finished, spread_ages


def test_spread_ages_gives_games_of_every_age():
    game = make_game("big_score_v1", num_players=2, validate=False)
    seeds = count()

    def fresh(k):
        return game.init(np.array([next(seeds) for _ in range(k)]))

    state, span = fresh(256), 120
    spread_ages(game, state, span, np.random.default_rng(0), fresh)
    assert not (state.terminated | state.truncated).any()  # finished games were replaced
    ages = state.steps
    assert ages.max() <= span and np.unique(ages).size > 60
    assert np.count_nonzero(ages < span // 3) > 40 and np.count_nonzero(ages > 2 * span // 3) > 40
    # the same number of steps in step leaves the unfinished games all of one age
    synced = fresh(256)
    rng = np.random.default_rng(0)
    for _ in range(span // 2):
        game.step(synced, sample_legal(synced.legal_action_mask, rng.random(256)))
        replace_finished(synced, fresh)
    assert np.unique(synced.steps).size == 1


def test_median_of_repeats():
    runs = [BenchResult("g", 2, "batch", 8, rate, 0.0, 10.0, peak)
            for rate, peak in ((300.0, 1.0), (100.0, 3.0), (200.0, 2.0))]
    r = BenchResult.median_of(runs)
    assert (r.agent_steps_per_s, r.games_per_s, r.peak_mb, r.runs) == (200.0, 20.0, 3.0,
                                                                        [300.0, 100.0, 200.0])
