"""The batch state of a compiled game: one NumPy structured array of shape [B].

Each state array is a field of the record (`hand` of shape (N, T) per game), so a batch is
one block of memory: copying, sub-batching, writing back, joining and pickling are one NumPy
operation each, and the compiled rules work on one game's record at a time
(`g.stash[o] -= x`). Attribute access gives a field as a view with the batch axis first
(`state.hand` is [B, N, T]), so users slice and inspect it with NumPy as before.

numba has no bool sub-arrays: flags and masks are stored as uint8 and shown as bool views.
Per-player axes ("N" in a field's shape) are stored for the game's largest player count, so
that one compiled version of the rules serves every count; the views show the game's own
players only (`state.stash` is [B, num_players]).
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

import numpy as np

S = TypeVar("S", bound="RecordState")

# (name, dtype, shape per game, comment): the public fields every game has, first
PUBLIC_FIELDS: tuple[tuple[str, Any, tuple[int, ...], str], ...] = (
    ("current_player", np.int8, (), "seat that must act now (-1 once the game is over)"),
    ("legal_action_mask", np.bool_, ("A",), "legal actions of current_player"),
    ("terminated", np.bool_, (), "game over by the rules"),
    ("truncated", np.bool_, (), "step bound reached (safety net)"),
    ("rewards", np.float32, ("N",), "rewards produced by the last step"),
    ("steps", np.int32, (), "agent decisions taken so far"),
    ("key", np.uint64, (), "per-game RNG key (see core.rng)"),
)


def record_dtype(fields: tuple[tuple[str, Any, tuple[Any, ...], str], ...],
                 sizes: dict[str, int]) -> tuple[np.dtype, frozenset[str], dict[str, int]]:
    """The structured dtype of (public + game) fields, with symbolic sizes ("N", "A")
    filled in from `sizes`; bool fields are stored as uint8. Returns it, the bool fields and
    the per-player axis of each field that has one."""
    spec, bools, axes = [], set(), {}
    for name, dt, shape, _ in PUBLIC_FIELDS + fields:
        if "N" in shape:
            axes[name] = shape.index("N")
        shape = tuple(sizes[d] if isinstance(d, str) else d for d in shape)
        if np.dtype(dt) == np.bool_:
            bools.add(name)
            dt = np.uint8
        spec.append((name, dt, shape))
    return np.dtype(spec), frozenset(bools), axes


def raw(data: np.ndarray) -> np.ndarray:
    """The records as opaque bytes (one void item per game). NumPy copies a structured array
    with sub-array fields field by field, 20x slower than these bytes at B = 4096 and 3x at
    B = 1: every whole-record move (copy, gather, scatter, join) goes through this view."""
    void = _VOID.get(data.dtype)
    if void is None:
        void = _VOID[data.dtype] = np.dtype((np.void, data.dtype.itemsize))
    return data.view(void)


_VOID: dict[np.dtype, np.dtype] = {}


class RecordState:
    """A batch of games as one structured array (picklable, copyable, sliceable)."""

    current_player: np.ndarray  # fields, as views (see __getattr__)
    terminated: np.ndarray
    truncated: np.ndarray

    bool_fields: ClassVar[frozenset[str]] = frozenset()
    player_axes: ClassVar[dict[str, int]] = {}  # field -> its per-player axis (per game)

    def __init__(self, data: np.ndarray, num_players: int):
        if data.ndim != 1:
            raise ValueError(f"a state holds a 1-D structured array, got shape {data.shape}")
        self.__dict__.update(data=data, num_players=int(num_players))

    @property
    def batch_size(self) -> int:
        return int(self.data.shape[0])

    def __len__(self) -> int:
        return self.batch_size

    @property
    def done(self) -> np.ndarray:
        return self.terminated | self.truncated

    def __getattr__(self, name: str) -> np.ndarray:
        """A field's view, made on first use and then kept in the instance's __dict__, so
        that later reads are plain attribute lookups (the AEC env reads several per step)."""
        data = self.__dict__.get("data")
        if data is None or name not in data.dtype.names:
            raise AttributeError(f"{type(self).__name__} has no field {name!r}")
        v = data[name]
        if name in self.bool_fields:
            v = v.view(np.bool_)
        axis = self.player_axes.get(name)
        if axis is not None:
            v = v[(slice(None),) * (axis + 1) + (slice(0, self.num_players),)]
        self.__dict__[name] = v
        return v

    def __setattr__(self, name: str, value: Any) -> None:
        """`state.hand = x` writes x into the field (broadcast), keeping one block of memory."""
        getattr(self, name)[...] = value

    def __reduce__(self):
        return (type(self), (self.data, self.num_players))

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(self.data.dtype.names))

    def arrays(self) -> dict[str, np.ndarray]:
        """Every field by name, as views with the batch axis first."""
        return {n: getattr(self, n) for n in self.data.dtype.names}

    def copy(self: S) -> S:
        """An independent deep copy."""
        return type(self)(raw(self.data).copy().view(self.data.dtype), self.num_players)

    def __getitem__(self: S, idx: Any) -> S:
        """Sub-batch: an int, slice, index array or bool mask over games (always a copy)."""
        if isinstance(idx, (int, np.integer)):
            idx = [int(idx)]
        return type(self)(np.array(raw(self.data)[idx]).view(self.data.dtype), self.num_players)

    def __setitem__(self, idx: Any, other: RecordState) -> None:
        """Write a sub-batch back into this batch."""
        if other.num_players != self.num_players:
            raise ValueError(f"cannot write a {other.num_players}-player batch into a "
                             f"{self.num_players}-player one")
        if other.data.dtype != self.data.dtype:
            raise ValueError("cannot write a batch of another game or version into this one")
        raw(self.data)[idx] = raw(other.data)

    @classmethod
    def concat(cls: type[S], states: list[S]) -> S:
        """Join batches of the same game into one."""
        counts = {s.num_players for s in states}
        if len(counts) != 1:
            raise ValueError(f"cannot join batches of different player counts {sorted(counts)}")
        dtypes = {s.data.dtype for s in states}
        if len(dtypes) != 1:
            raise ValueError("cannot join batches of different games or versions")
        return cls(np.concatenate([raw(s.data) for s in states]).view(dtypes.pop()),
                   counts.pop())

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        if other.num_players != self.num_players or len(other) != len(self):
            return False
        return bool(np.array_equal(self.data.view(np.uint8).reshape(len(self), -1),
                                   other.data.view(np.uint8).reshape(len(other), -1)))

    __hash__ = None  # mutable
