"""Uniform legal actions for a whole batch, compiled: the random policy's and the bench's
hot path (NumPy's flatnonzero, bincount and cumsum over a B = 4096 batch's mask cost a sixth
of a bench step)."""

from __future__ import annotations

import numpy as np

from .jit import cached


@cached
def legal_of_rank(mask: np.ndarray, u: np.ndarray, out: np.ndarray) -> None:
    """out[b] = the legal action of rank floor(u[b] * #legal) in row b, in action order; 0 for
    a row with no legal action. `mask` is a uint8 view of the bool mask."""
    B, A = mask.shape
    legal = np.empty(A, np.int64)
    for b in range(B):
        row = mask[b]
        n = 0
        for a in range(A):  # branch-free: every action is written, the legal ones kept
            legal[n] = a
            n += row[a] != 0
        out[b] = 0 if n == 0 else legal[min(max(int(u[b] * n), 0), n - 1)]


def sample_legal_batch(mask: np.ndarray, u: np.ndarray) -> np.ndarray:
    """int64 [B]: `legal_of_rank` of a bool mask [B, A] and uniforms u [B] in [0, 1)."""
    out = np.empty(mask.shape[0], np.int64)
    if mask.shape[0] == 0:
        return out
    legal_of_rank(mask.view(np.uint8), np.ascontiguousarray(u, np.float64), out)
    return out


def warm_up() -> None:
    """Compile (or load) both mask layouts: a state's (a strided view) and a plain array."""
    for mask in (np.ones((1, 2), bool), np.ones((1, 2, 2), bool)[:, 0]):
        sample_legal_batch(mask, np.zeros(1))
