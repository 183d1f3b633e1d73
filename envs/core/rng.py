"""Counter-based randomness: every draw is a pure function of (game key, stream, counter).

A game's chance events therefore depend only on its own seed and its own history, never on
which other games share its batch: game b of a batch seeded [.., s, ..] plays exactly like a
batch of one seeded s. Streams separate independent uses (deck shuffles, bag draws, ...).
"""

from __future__ import annotations

import numpy as np

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_INV53 = 1.0 / float(1 << 53)


def _mix(z: np.ndarray) -> np.ndarray:
    """SplitMix64 finaliser: a bijective, well-scrambling hash of uint64 values."""
    with np.errstate(over="ignore"):
        z = (z ^ (z >> np.uint64(30))) * _M1
        z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


def seed_keys(seeds: int | np.ndarray) -> np.ndarray:
    """Turn user seeds (ints, any sign) into 1-D uint64 game keys."""
    arr = np.atleast_1d(np.asarray(seeds))
    if arr.ndim != 1 or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"seeds must be an int or a 1-D array of ints, got {seeds!r}")
    with np.errstate(over="ignore"):
        return _mix(arr.astype(np.int64).astype(np.uint64) + _GOLDEN)


def bits(key: np.ndarray, stream: int, counter: np.ndarray | int) -> np.ndarray:
    """64 random bits for each (key, counter); shapes broadcast."""
    c = np.asarray(counter).astype(np.uint64)
    with np.errstate(over="ignore"):
        inner = _mix(np.uint64(stream + 1) * _GOLDEN + c)
    return _mix(np.asarray(key, dtype=np.uint64) ^ inner)


def uniform(key: np.ndarray, stream: int, counter: np.ndarray | int) -> np.ndarray:
    """Uniform floats in [0, 1) with 53-bit resolution."""
    return (bits(key, stream, counter) >> np.uint64(11)).astype(np.float64) * _INV53


def permutations(keys: np.ndarray, stream: int, n: int) -> np.ndarray:
    """One uniform random permutation of range(n) per key: int16 [B, n]."""
    u = bits(keys[:, None], stream, np.arange(n, dtype=np.uint64)[None, :])
    return np.argsort(u, axis=1, kind="stable").astype(np.int16)


def draw_from_counts(counts: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Index drawn uniformly from a bag given as counts [B, K], using uniforms u [B].

    Returns -1 where the bag is empty. Integer arithmetic after one multiply, so the result
    is the same on any platform.
    """
    cum = np.cumsum(counts, axis=1)
    total = cum[:, -1]
    target = np.floor(u * total).astype(cum.dtype)
    idx = (cum <= target[:, None]).sum(axis=1)
    return np.where(total > 0, idx, -1)
