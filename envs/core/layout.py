"""Observation and action layouts declared as data.

A layout is an ordered list of named pieces. Encoding (writable views into the observation
buffer), decoding (`obs_fields`), the documentation tables and the tests all derive from it,
so no game needs a magic index anywhere else.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import overload

import numpy as np
from gymnasium import spaces

# every encoded value lies in [0, 1]: counts divided by their field's scale (its most), one-hots
OBS_BOUNDS = (0.0, 1.0)


def observation_box(size: int) -> spaces.Box:
    """The Box of a `size`-float observation (one definition for the AEC and vector envs)."""
    return spaces.Box(*OBS_BOUNDS, (size,), np.float32)


@dataclass(frozen=True)
class Field:
    """A named run of `size` floats: counts divided by `scale`, or a one-hot.

    For `encode`, a count field holds its raw integers, a one-hot field holds 1 + the index of
    its hot entry in its first slot (0, the default, for none).
    """

    name: str
    size: int
    doc: str = ""
    scale: float = 1.0
    onehot: bool = False


@dataclass(frozen=True)
class Block:
    """A group of fields repeated `count` times (per job, per relative seat, ...)."""

    name: str
    count: int
    fields: tuple[Field, ...]
    doc: str = ""

    @property
    def block_size(self) -> int:
        return sum(f.size for f in self.fields)


@dataclass(frozen=True)
class _Span:
    start: int  # offset of the field (first repetition)
    size: int
    count: int  # 0 for a plain field, else repetitions
    stride: int  # distance between repetitions (the block size)
    inner: int = 0  # offset of the field inside its block


class ObservationLayout(Sequence[tuple[str, int]]):
    """Ordered named slices of a flat float32 observation vector: a sequence of (name, size)
    pairs in vector order, repeated blocks expanded as name[i].field."""

    def __init__(self, entries: Sequence[Field | Block]):
        self.entries = tuple(entries)
        self._spans: dict[str, _Span] = {}
        off = 0
        for e in self.entries:
            if isinstance(e, Field):
                self._add(e.name, _Span(off, e.size, 0, 0))
                off += e.size
            else:
                inner = 0
                for f in e.fields:
                    self._add(f"{e.name}.{f.name}", _Span(off + inner, f.size, e.count,
                                                          e.block_size, inner))
                    inner += f.size
                off += e.count * e.block_size
        self.size = off
        self._pairs = tuple(self._expand())
        self._build_encoder()

    def _build_encoder(self) -> None:
        """Per-column scale (0 on one-hot columns) and the one-hot fields' first columns."""
        scale = np.zeros(self.size, np.float32)
        hot_cols, hot_sizes = [], []
        for name, sp in self._spans.items():
            f = self._field(name)
            for r in range(max(sp.count, 1)):
                start = sp.start + r * sp.stride
                if f.onehot:
                    hot_cols.append(start)
                    hot_sizes.append(f.size)
                else:
                    scale[start:start + f.size] = 1.0 / f.scale
        self.scale = scale
        self.hot_cols = np.array(hot_cols, np.int64)
        self.hot_sizes = np.array(hot_sizes, np.uint64)

    def _field(self, name: str) -> Field:
        for e in self.entries:
            if isinstance(e, Field) and e.name == name:
                return e
            if isinstance(e, Block) and name.startswith(e.name + "."):
                for f in e.fields:
                    if f"{e.name}.{f.name}" == name:
                        return f
        raise KeyError(name)

    def encode(self, raw: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """float32 observations from raw integers laid out as this layout ([B, size]):
        counts are scaled, one-hot indices expanded."""
        B = raw.shape[0]
        if out is None:
            out = np.empty((B, self.size), np.float32)
        np.copyto(out, raw, casting="unsafe")  # a plain cast, then a same-type multiply:
        out *= self.scale  # much faster than one mixed-type multiply
        if self.hot_cols.size:
            pos = raw.take(self.hot_cols, axis=1).astype(np.int64) - 1  # -1: no hot entry
            hot = pos.view(np.uint64) < self.hot_sizes  # also drops an index past the field
            out.reshape(-1)[(self._hot_base(B) + pos)[hot]] = 1.0
        return out

    def _hot_base(self, B: int) -> np.ndarray:
        """Flat offsets of every one-hot field's first column, per batch size (cached)."""
        cache = self.__dict__.setdefault("_hot_cache", {})
        if B not in cache:
            if len(cache) > 8:
                cache.clear()
            cache[B] = np.arange(B)[:, None] * self.size + self.hot_cols
        return cache[B]

    def _add(self, name: str, span: _Span) -> None:
        if name in self._spans:
            raise ValueError(f"duplicate observation field {name!r}")
        self._spans[name] = span

    @property
    def names(self) -> list[str]:
        return list(self._spans)

    def _expand(self) -> Iterator[tuple[str, int]]:
        """(name, size) pairs in vector order, repeated blocks expanded as name[i].field."""
        for e in self.entries:
            if isinstance(e, Field):
                yield e.name, e.size
            else:
                for i in range(e.count):
                    for f in e.fields:
                        yield f"{e.name}[{i}].{f.name}", f.size

    def __iter__(self) -> Iterator[tuple[str, int]]:
        return iter(self._pairs)

    def __len__(self) -> int:
        return len(self._pairs)

    @overload
    def __getitem__(self, i: int) -> tuple[str, int]: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[tuple[str, int], ...]: ...
    def __getitem__(self, i: int | slice) -> tuple[str, int] | tuple[tuple[str, int], ...]:
        return self._pairs[i]

    def views(self, buf: np.ndarray) -> dict[str, np.ndarray]:
        """Writable views into `buf` [..., size]: plain fields [..., size], block fields
        [..., count, size]."""
        out = {}
        lead = buf.shape[:-1]
        for name, sp in self._spans.items():
            if sp.count == 0:
                out[name] = buf[..., sp.start:sp.start + sp.size]
            else:
                first = sp.start - sp.inner  # the block's own start
                region = buf[..., first:first + sp.count * sp.stride]
                region = region.reshape(*lead, sp.count, sp.stride)
                out[name] = region[..., sp.inner:sp.inner + sp.size]
        return out

    def decode(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        """Split an observation (one vector or a batch) into its named parts."""
        obs = np.asarray(obs)
        if obs.shape[-1] != self.size:
            raise ValueError(f"observation has {obs.shape[-1]} values, layout expects {self.size}")
        return self.views(obs)

    def slice_of(self, name: str, index: int = 0) -> slice:
        """The slice of field `name` (repetition `index` for block fields)."""
        sp = self._spans[name]
        start = sp.start + index * sp.stride
        return slice(start, start + sp.size)

    def markdown_table(self) -> str:
        """The observation index table for the docs."""
        rows = ["| offset | size | field | meaning |", "|---|---|---|---|"]
        off = 0
        for e in self.entries:
            if isinstance(e, Field):
                rows.append(f"| {off}–{off + e.size - 1} | {e.size} | `{e.name}` | "
                            f"{_describe(e)} |")
                off += e.size
            else:
                rows.append(f"| {off}–{off + e.count * e.block_size - 1} | {e.count}×"
                            f"{e.block_size} | `{e.name}[i]` | {e.doc} (block i starts at "
                            f"{off} + {e.block_size}·i) |")
                inner = 0
                for f in e.fields:
                    rows.append(f"| +{inner} | {f.size} | `{e.name}[i].{f.name}` | "
                                f"{_describe(f)} |")
                    inner += f.size
                off += e.count * e.block_size
        return "\n".join(rows)


def _describe(f: Field) -> str:
    if f.onehot:
        return f"{f.doc} (one-hot)"
    return f"{f.doc}" + (f" (÷ {f.scale:g})" if f.scale != 1 else "")


@dataclass(frozen=True)
class ActionRange:
    """`count` consecutive action ids sharing a meaning; `label(i)` names the i-th one."""

    name: str
    count: int
    label: Callable[[int], str]
    doc: str = ""


class ActionLayout:
    """Ordered named ranges of a flat Discrete action space."""

    def __init__(self, ranges: Sequence[ActionRange]):
        self.ranges = tuple(ranges)
        self.start: dict[str, int] = {}
        off = 0
        for r in self.ranges:
            self.start[r.name] = off
            off += r.count
        self.size = off
        self._names = [r.label(i) for r in self.ranges for i in range(r.count)]

    def ids(self, name: str) -> range:
        s = self.start[name]
        r = next(r for r in self.ranges if r.name == name)
        return range(s, s + r.count)

    def name(self, action: int) -> str:
        if not 0 <= int(action) < self.size:
            raise ValueError(f"action {action} out of range: actions are 0..{self.size - 1}")
        return self._names[int(action)]

    def markdown_table(self) -> str:
        rows = ["| ids | name | meaning |", "|---|---|---|"]
        for r in self.ranges:
            s = self.start[r.name]
            ids = f"{s}" if r.count == 1 else f"{s}–{s + r.count - 1}"
            example = r.label(0) if r.count == 1 else f"{r.label(0)} … {r.label(r.count - 1)}"
            rows.append(f"| {ids} | `{r.name}` | {r.doc} (e.g. “{example}”) |")
        return "\n".join(rows)
