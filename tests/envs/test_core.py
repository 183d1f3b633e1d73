"""The shared core: counter-based RNG, layouts, options, buffers."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from heistbench.envs.core import rng
from heistbench.envs.core.buffers import BufferPool
from heistbench.envs.core.layout import (
    ActionLayout,
    ActionRange,
    Block,
    Field,
    ObservationLayout,
)
from heistbench.envs.core.options import Option, resolve_options


def test_rng_depends_only_on_key_stream_and_counter():
    keys = rng.seed_keys([3, 4, 3])
    u = rng.uniform(keys, 1, np.array([0, 0, 0]))
    assert u[0] == u[2] != u[1]
    assert (rng.uniform(keys[:1], 1, 0) == u[0]).all()  # alone or in a batch
    assert rng.uniform(keys, 2, 0)[0] != u[0]  # streams are independent
    assert ((u >= 0) & (u < 1)).all()
    with pytest.raises(ValueError, match="seeds"):
        rng.seed_keys([1.5])


def test_rng_is_uniform_enough():
    u = rng.uniform(rng.seed_keys(np.arange(20000)), 0, 0)
    hist = np.histogram(u, bins=10, range=(0, 1))[0]
    assert hist.min() > 1800 and hist.max() < 2200


def test_permutations_and_bag_draws():
    perms = rng.permutations(rng.seed_keys(np.arange(500)), 3, 6)
    assert (np.sort(perms, axis=1) == np.arange(6)).all()
    assert len({tuple(p) for p in perms}) > 300  # 720 orders, far from degenerate
    counts = np.array([[0, 2, 0, 1], [0, 0, 0, 0]])
    got = rng.draw_from_counts(counts, np.array([0.0, 0.5]))
    assert got.tolist() == [1, -1]
    assert rng.draw_from_counts(counts[:1], np.array([0.99]))[0] == 3


LAYOUT = ObservationLayout([
    Field("a", 2, "count", scale=2),
    Field("b", 3, "one-hot", onehot=True),
    Block("p", 2, (Field("x", 1, scale=4), Field("y", 2, onehot=True))),
])


def test_layout_views_decode_and_tables():
    assert LAYOUT.size == 11
    buf = np.arange(2 * LAYOUT.size).reshape(2, LAYOUT.size)
    v = LAYOUT.decode(buf)
    assert v["a"].shape == (2, 2) and v["p.y"].shape == (2, 2, 2)
    assert v["p.y"][0].tolist() == [[6, 7], [9, 10]]  # a block may end the vector
    assert LAYOUT.slice_of("p.x", 1) == slice(8, 9)
    assert [n for n, _ in LAYOUT][:3] == ["a", "b", "p[0].x"]
    assert "| `p[i].y` |" in LAYOUT.markdown_table()
    with pytest.raises(ValueError, match="11"):
        LAYOUT.decode(np.zeros(5))


def test_layout_is_a_sequence_of_name_size_pairs():
    """len, indexing and slicing agree with iteration: block fields expanded as name[i].field."""
    pairs = list(LAYOUT)
    assert isinstance(LAYOUT, Sequence) and len(LAYOUT) == len(pairs) == 6
    assert LAYOUT[0] == ("a", 2) and LAYOUT[-1] == ("p[1].y", 2)
    assert list(LAYOUT[2:4]) == [("p[0].x", 1), ("p[0].y", 2)]
    assert [LAYOUT[i] for i in range(len(LAYOUT))] == pairs
    assert sum(size for _, size in LAYOUT) == LAYOUT.size and ("b", 3) in LAYOUT
    with pytest.raises(IndexError):
        LAYOUT[6]
    from heistbench import envs

    for name in envs.GAMES:
        layout = envs.game(name).observation_layout
        assert len(layout) == len(list(layout)) and layout[0] == next(iter(layout))
        assert sum(size for _, size in layout) == layout.size


def test_layout_encode_scales_counts_and_expands_onehots():
    raw = np.zeros((2, LAYOUT.size), np.int16)
    raw[0, :2] = [2, 4]
    raw[0, 2] = 2  # b: index 1 hot
    raw[0, 5], raw[0, 6] = 8, 2  # p[0]: x = 8, y index 1
    raw[1, 2] = 9  # out of range: nothing hot
    out = LAYOUT.encode(raw)
    assert out[0].tolist() == [1, 2, 0, 1, 0, 2, 0, 1, 0, 0, 0]
    assert out[1].tolist() == [0] * 11


def test_action_layout_names_and_errors():
    acts = ActionLayout([ActionRange("PICK", 3, lambda i: f"pick {i}"),
                         ActionRange("PASS", 1, lambda i: "pass")])
    assert acts.size == 4 and acts.name(3) == "pass" and list(acts.ids("PICK")) == [0, 1, 2]
    with pytest.raises(ValueError, match="out of range"):
        acts.name(4)


def test_options_name_the_culprit():
    spec = {"mode": Option("a", "mode", ("a", "b")),
            "n": Option(1, "count", check=lambda v: v > 0, allowed="a positive int")}
    assert resolve_options("g", spec, {"mode": "b"}) == {"mode": "b", "n": 1}
    with pytest.raises(ValueError, match="unknown option.*'nn'.*allowed options: mode, n"):
        resolve_options("g", spec, {"nn": 2})
    with pytest.raises(ValueError, match="'mode'.*one of 'a', 'b'"):
        resolve_options("g", spec, {"mode": "c"})
    with pytest.raises(ValueError, match="a positive int"):
        resolve_options("g", spec, {"n": "x"})


def test_buffer_pool_never_hands_out_a_held_buffer():
    pool = BufferPool()
    pool.SMALL = 0  # pool every size in this test

    def address(a: np.ndarray) -> int:
        return a.__array_interface__["data"][0]

    a = pool.zeros((2, 3))
    b = pool.zeros((2, 3))
    assert not np.shares_memory(a, b)
    a_at = address(a)
    a[:] = 7
    del a
    c = pool.zeros((2, 3))
    assert address(c) == a_at and not c.any()
    d = pool.empty((2, 3), np.int16)
    assert d.dtype == np.int16 and not np.shares_memory(d, c)
    del b, d
    e = pool.empty((1, 3))  # fewer rows: the first rows of a free buffer
    assert e.shape == (1, 3) and not np.shares_memory(e, c)


def test_buffer_pool_keeps_a_few_buffers_while_a_batch_shrinks():
    """An evaluation's batch shrinks as its games end: one buffer serves every smaller size
    (it used to keep one per size, tens of gigabytes over a long evaluation)."""
    pool = BufferPool(slots=3)
    pool.SMALL = 0
    for rows in range(200, 0, -1):
        out = pool.empty((rows, 1000))
        assert out.shape == (rows, 1000)
        del out
    held = [buf for bufs in pool._bufs.values() for buf in bufs]
    assert len(held) == 1 and held[0].shape == (200, 1000)
    del held
    big = pool.empty((300, 1000))  # a larger batch replaces the free smaller buffer
    assert big.shape == (300, 1000)
    assert [buf.shape for buf in pool._bufs[((1000,), np.dtype(np.float32).str)]] == [(300, 1000)]


