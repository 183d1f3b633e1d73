"""Splitting a batch by a per-game code (a decision type, a phase, an effect): every kernel
applies one handler per code to that code's games."""

from __future__ import annotations

import numpy as np


def kinds(keys: np.ndarray) -> list[int]:
    """The distinct keys present (small non-negative ints), ascending; a batch of one needs no
    bincount."""
    if keys.size == 1:
        return keys.tolist()
    return np.flatnonzero(np.bincount(keys)).tolist()


def groups(keys: np.ndarray) -> list[tuple[int, np.ndarray | slice]]:
    """(key, positions) for each distinct key present, keys ascending, positions ascending; one
    slice when all keys are equal (the common case of small batches, and always at B = 1)."""
    if keys.size == 0:
        return []
    first = int(keys[0])
    if keys.size == 1 or np.count_nonzero(keys == first) == keys.size:
        return [(first, slice(None))]
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    cuts = [0, *(np.flatnonzero(ordered[1:] != ordered[:-1]) + 1).tolist(), keys.size]
    return [(int(ordered[a]), order[a:b]) for a, b in zip(cuts[:-1], cuts[1:])]
