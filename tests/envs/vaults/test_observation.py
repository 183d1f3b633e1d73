"""The observation: exact float32 values, batch independence, reused buffers."""

from __future__ import annotations

import numpy as np
import pytest
from heistbench.agents.base import sample_legal
from heistbench.envs.vaults import components as C
from heistbench.envs.vaults.kernel import Vaults


def _played(game: Vaults, B: int, steps: int, seed: int = 0):
    st = game.init(np.arange(B) + seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        game.step(st, sample_legal(st.legal_action_mask, rng.random(B)))
    return st


def test_divisions_match_the_float64_formulas():
    """The encoder divides small integers in float32; every field of the form x / d or
    min(1, x / d) must equal the float32 of the float64 quotient over the values x takes."""
    for d, lo, hi in [(C.DECK_SIZE, 0, C.DECK_SIZE), (C.DISRUPT_DECK_SIZE, 0, 20), (300, 0, 300),
                      (6, 0, 6), (10, 0, 10), (5, 0, 5), (27, 0, 27), (8, 0, 27), (9, 0, 9),
                      (3, 0, 3), (30, 0, 30), (2, 0, 8), (4, 0, 8), (12, 0, 12)]:
        x = np.arange(lo, hi + 1)
        assert ((x / d).astype(np.float32) == x.astype(np.float32) / np.float32(d)).all(), d
    for goal in range(100, C.TOTAL_LOOT + 1):
        x = np.arange(-C.TOTAL_LOOT, goal + 1)
        ref = (x / goal).astype(np.float32)
        assert (ref == x.astype(np.float32) / np.float32(goal)).all(), goal


@pytest.mark.parametrize("n", [2, 3, 4])
def test_batch_rows_equal_single_game_observations(n):
    game = Vaults(num_players=n, validate=False)
    st = _played(game, 80, 40, seed=n)  # 80 > 64: the pooled-buffer path
    seats = np.maximum(st.current_player, 0)
    big = game.observe(st, seats)
    for b in range(0, 80, 7):
        one = game.observe(st[np.array([b])], seats[b:b + 1])
        assert one.tobytes() == big[b:b + 1].tobytes()


def test_pooled_buffers_are_not_shared_while_held():
    game = Vaults(num_players=2, validate=False)
    st = _played(game, 100, 10)
    first = game.observe(st, 0)
    kept = first.copy()
    second = game.observe(st, 1)
    third = game.observe(st, 0)
    assert first is not second and first is not third and second is not third
    assert first.tobytes() == kept.tobytes()
    assert third.tobytes() == kept.tobytes()
