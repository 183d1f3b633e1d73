"""Fixtures shared by the test packages."""

from __future__ import annotations

import numpy as np
import pytest
from heistbench.agents.base import sample_legal


@pytest.fixture
def partly_finished():
    """`make(game, batch=8, seed=0)`: a batch of random games played until some, not all, are
    over: what a user's batch loop holds near its end."""

    def make(game, batch: int = 8, seed: int = 0):
        state = game.init(np.arange(seed, seed + batch))
        rng = np.random.default_rng(seed)
        while not state.done.any():
            game.step(state, sample_legal(state.legal_action_mask, rng.random(batch)))
        assert not state.done.all()
        return state

    return make
