"""The batched state container shared by every game.

A state is a dataclass of NumPy arrays that all share a leading batch dimension. The public
fields every game has come first; each game subclasses it and adds its own arrays.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

import numpy as np

S = TypeVar("S", bound="BatchState")


class BatchBasics:
    """What every batch state derives from its public fields (both containers share it)."""

    current_player: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray

    @property
    def batch_size(self) -> int:
        return int(self.current_player.shape[0])

    def __len__(self) -> int:
        return self.batch_size

    @property
    def done(self) -> np.ndarray:
        return self.terminated | self.truncated


@dataclasses.dataclass
class BatchState(BatchBasics):
    """Fixed-shape arrays with a leading batch dimension B (picklable, copyable, sliceable)."""

    current_player: np.ndarray  # int8 [B]  seat that must act now (-1 once the game is over)
    legal_action_mask: np.ndarray  # bool [B, A]  legal actions of current_player
    terminated: np.ndarray  # bool [B]  game over by the rules
    truncated: np.ndarray  # bool [B]  step bound reached (safety net)
    rewards: np.ndarray  # float32 [B, N]  rewards produced by the last step
    steps: np.ndarray  # int32 [B]  agent decisions taken so far
    key: np.ndarray  # uint64 [B]  per-game RNG key (see core.rng)

    def arrays(self) -> dict[str, np.ndarray]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def copy(self: S) -> S:
        """An independent deep copy."""
        return type(self)(**{k: v.copy() for k, v in self.arrays().items()})

    def __getitem__(self: S, idx: Any) -> S:
        """Sub-batch: an int, slice, index array or bool mask over games (always a copy)."""
        if isinstance(idx, (int, np.integer)):
            idx = [int(idx)]
        return type(self)(**{k: np.array(v[idx]) for k, v in self.arrays().items()})

    def __setitem__(self: S, idx: Any, other: S) -> None:
        """Write a sub-batch back into this batch."""
        for k, v in other.arrays().items():
            getattr(self, k)[idx] = v

    @classmethod
    def concat(cls: type[S], states: list[S]) -> S:
        """Join batches of the same game into one."""
        names = [f.name for f in dataclasses.fields(cls)]
        return cls(**{n: np.concatenate([getattr(s, n) for s in states]) for n in names})

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(np.array_equal(a, b) for a, b in zip(self.arrays().values(),
                                                          other.arrays().values()))
