"""The observation: exact float32 values, batch independence, reused buffers; and the former
NumPy encoder's kept parts (the reference of the port harness)."""

from __future__ import annotations

import numpy as np
import pytest
from heistbench.agents.base import sample_legal
from heistbench.envs.vaults import components as C
from heistbench.envs.vaults.kernel import Vaults

from . import numpy_kernel
from .numpy_encoder import SMALL_BATCH, Encoder, _mark_changed


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


@pytest.mark.parametrize("n", [2, 4])
def test_small_batches_reuse_only_unchanged_parts(n):
    """Along a game, and across games, an encoder that kept parts of its seat blocks from the
    previous call gives exactly what a fresh encoder gives."""
    game = numpy_kernel.Vaults(num_players=n, validate=False)
    kept = Encoder(game)
    st = game.init(np.arange(3) + 11)
    rng = np.random.default_rng(n)
    for t in range(300):
        game.step(st, sample_legal(st.legal_action_mask, rng.random(3)))
        one = st[np.array([t // 40 % 3])]  # runs of one game, then another
        seat = np.array([t % n])
        assert kept(one, seat).tobytes() == Encoder(game)(one, seat).tobytes()


def test_large_batches_rebuild_exactly_the_changed_rows():
    """Stepping a batch (larger than the small-batch limit) and switching to another batch of
    the same size: an encoder that rebuilds only the changed seat rows matches a fresh one."""
    game = numpy_kernel.Vaults(num_players=3, validate=False)
    B = SMALL_BATCH + 9
    kept = Encoder(game)
    batches = [game.init(np.arange(B)), game.init(np.arange(B) + B)]
    rng = np.random.default_rng(5)
    for t in range(120):
        st = batches[t // 30 % 2]
        game.step(st, sample_legal(st.legal_action_mask, rng.random(B)))
        seats = rng.integers(0, 3, B)
        assert kept(st, seats).tobytes() == Encoder(game)(st, seats).tobytes()


@pytest.mark.parametrize("n", [2, 4])
def test_large_batches_move_only_the_seat_blocks_not_in_place(n):
    """Observing the player to move at every step (few observers change), now and then
    another seat, and calls interrupted before and after the one-hots are set: the blocks left
    in place from the last call, and those scattered again, give exactly what a fresh encoder
    gives."""
    game = numpy_kernel.Vaults(num_players=n, validate=False)
    B = SMALL_BATCH + 40
    kept = Encoder(game)
    st = game.init(np.arange(B) + 3)
    rng = np.random.default_rng(n)
    for t in range(150):
        seats = np.maximum(st.current_player, 0).astype(np.int64)
        if t % 25 == 24:
            seats = (seats + 1) % n
        if t % 40 == 20:  # a call that fails while rebuilding the Police station part
            def boom(*args):
                raise KeyboardInterrupt

            kept.police = boom
            st.police_count[0, 0] += 1
            with pytest.raises(KeyboardInterrupt):
                kept(st, seats)
            del kept.police
            assert kept(st, seats).tobytes() == Encoder(game)(st, seats).tobytes(), t
            st.police_count[0, 0] -= 1
        if t % 40 == 30:  # a call that fails after setting its one-hots, before clearing them
            class Broken:
                def empty(self, *args):
                    raise KeyboardInterrupt

            kept.pool, pool = Broken(), kept.pool
            with pytest.raises(KeyboardInterrupt):
                kept(st, (seats + 1) % n)
            kept.pool = pool
        assert kept(st, seats).tobytes() == Encoder(game)(st, seats).tobytes(), t
        game.step(st, sample_legal(st.legal_action_mask, rng.random(B)))


@pytest.mark.parametrize("shape, dtype", [((64, 3, 27), np.int8), ((64, 3), np.int16),
                                          ((7, 3, 6), bool), ((9, 44), np.int8)])
def test_changed_rows_name_every_row_that_changed(shape, dtype):
    """Rows compared a word at a time: every changed row is named, and only neighbours of
    changed rows besides (a word may span two rows)."""
    rng = np.random.default_rng(len(shape))
    n = shape[0] * (shape[1] if len(shape) > 2 else 1)
    for _ in range(50):
        a = rng.integers(0, 2, shape).astype(dtype)
        b = a.copy()
        flip = rng.random(shape) < 0.01
        b[flip] = ~b[flip] if dtype is bool else b[flip] + 1
        changed = np.flatnonzero((a != b).reshape(n, -1).any(1))
        marked = np.zeros(n, bool)
        _mark_changed(marked, a, b)
        named = np.flatnonzero(marked)
        assert np.isin(changed, named).all()
        assert (np.abs(named[:, None] - changed).min(1, initial=n) <= 1).all()
