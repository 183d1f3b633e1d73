"""Reusable output buffers for the observation hot path.

Observations at B = 4096 are megabytes; allocating them afresh every step costs more in page
faults than computing them. A pool hands back a buffer again only once nobody else holds a
reference to it, so callers always get an array they own.
"""

from __future__ import annotations

import math
import sys

import numpy as np


class BufferPool:
    """A few buffers per (row shape, dtype), reused when no one else references them.

    A request for fewer rows gets the first rows of a larger free buffer (a view), so a batch
    that shrinks as its games end (an evaluation, a tournament) reuses one buffer instead of
    keeping one per batch size: that kept one per size, tens of gigabytes over a 2,000-game
    evaluation of Vaults."""

    SMALL = 1 << 15  # elements below which pooling costs more than it saves

    def __init__(self, slots: int = 3):
        self.slots = slots
        self._bufs: dict[tuple, list[np.ndarray]] = {}

    def zeros(self, shape: tuple[int, ...], dtype: type = np.float32) -> np.ndarray:
        """A zero-filled buffer nobody else holds."""
        buf = self.empty(shape, dtype)
        buf.fill(0)
        return buf

    def empty(self, shape: tuple[int, ...], dtype: type = np.float32) -> np.ndarray:
        """A buffer nobody else holds, with arbitrary contents (for callers that overwrite
        every element)."""
        if math.prod(shape) < self.SMALL:  # small arrays come from malloc's free lists anyway
            return np.empty(shape, dtype)
        rows = shape[0]
        bufs = self._bufs.setdefault((tuple(shape[1:]), np.dtype(dtype).str), [])
        for buf in bufs:
            # references: the list, the loop variable and getrefcount's argument (a view
            # handed out earlier and still held adds its own)
            if sys.getrefcount(buf) <= 3 and buf.shape[0] >= rows:
                return buf[:rows]
        buf = np.empty(shape, dtype)
        for k in range(len(bufs)):  # in place of a free one too small
            if sys.getrefcount(bufs[k]) <= 2:  # the list and getrefcount's argument
                bufs[k] = buf
                return buf[:rows]
        if len(bufs) < self.slots:
            bufs.append(buf)
        return buf[:rows]

    def __getstate__(self) -> dict:
        return {"slots": self.slots, "_bufs": {}}
