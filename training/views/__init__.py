"""The table of a game as data, drawn from one seat's observation and nothing else.

A game's view (one small module per game here) lists what its table shows: items read from
named observation fields (`game.obs_fields`), grouped into the public table, one panel per seat
(the layout's per-seat block, relative to the viewer) and the viewer's own cards. `table_view`
turns an observation into plain JSON-ready data that the web page draws and the move log
diffs, so neither can show what the seat may not know: they never see the state.

Values are the observation's floats times the divisor the layout documents ("Stash / 75"),
rounded; a one-hot becomes the name of its hot entry.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...envs.core import Game

Source = dict[str, np.ndarray]  # field name -> this panel's (or row's) vector of that field


@dataclass(frozen=True)
class Context:
    """Who is looking: the viewer's seat, the player count and the seats' names."""

    seat: int
    num_players: int
    names: Sequence[str] = ()

    def seat_name(self, seat: int) -> str:
        return self.names[seat] if seat < len(self.names) else f"player_{seat}"


@dataclass(frozen=True)
class Item:
    """One thing on the table, read from observation field `field` (a slice `part` of it).

    kinds: "number" (value x div, shown with `fmt`), "percent" (a fraction, in %), "cards"
    (the nonzero entries of a count vector, named by `names`), "choice" (the name of a
    one-hot's hot entry), "flag" (shown when set), "track" (a number on a track of `max`
    spaces), "dice" (faces from per-die one-hots), "seat" (a one-hot over seats relative to
    the viewer, named by absolute seat). `log` marks items whose changes the move log
    describes; `skip_zero` hides a number that is 0."""

    key: str
    label: str
    field: str
    kind: str = "number"
    div: float = 1.0
    names: Sequence[str] = ()
    part: tuple[int, int] | None = None  # (offset, size) inside the field
    fmt: str | Callable[[int], str] = "{}"  # a format string, or a function of the value
    max: int = 0
    log: bool = False
    shift: int = 0  # added to a number's value
    skip_zero: bool = False

    def vector(self, src: Source) -> np.ndarray:
        v = np.asarray(src[self.field], dtype=np.float64).reshape(-1)
        if self.part is not None:
            v = v[self.part[0]:self.part[0] + self.part[1]]
        return v

    def draw(self, src: Source, ctx: Context) -> dict[str, Any] | None:
        """This item as JSON data (None when there is nothing to show: an unset flag or a
        one-hot with no hot entry)."""
        v = self.vector(src)
        out: dict[str, Any] = {"key": self.key, "label": self.label, "kind": self.kind}
        if self.kind == "percent":
            value = int(round(float(v.sum()) * 100))
            out.update(value=value, text=self.text(value))
        elif self.kind in ("number", "track"):
            value = int(round(float(v.sum()) * self.div)) + self.shift
            if self.skip_zero and value == 0:
                return None
            out.update(value=value, text=self.text(value))
            if self.kind == "track":
                out["max"] = self.max
        elif self.kind == "cards":
            counts = np.rint(v * self.div).astype(int)
            out["entries"] = [{"index": int(i), "name": self._name(i), "count": int(counts[i])}
                              for i in np.flatnonzero(counts > 0)]
        elif self.kind == "choice":
            if v.size == 0 or v.max() < 0.5:
                return None
            i = int(v.argmax())
            if not self._name(i):  # a named-empty entry ("none", "empty") shows nothing
                return None
            out.update(index=i, value=self._name(i), text=self._name(i))
        elif self.kind == "seat":
            if v.size == 0 or v.max() < 0.5 or int(v.argmax()) >= ctx.num_players:
                return None
            r = int(v.argmax())
            seat = (ctx.seat + r) % ctx.num_players
            out.update(index=r, seat=seat, value=ctx.seat_name(seat), text=ctx.seat_name(seat))
        elif self.kind == "flag":
            if v.size == 0 or v[0] < 0.5:
                return None
            out["text"] = self.label
        elif self.kind == "dice":
            faces = np.asarray(v).reshape(-1, 6)
            out["faces"] = [int(f.argmax()) + 1 for f in faces if f.max() > 0.5]
            if not out["faces"]:
                return None
            out["text"] = " ".join(map(str, out["faces"]))
        else:
            raise ValueError(f"unknown item kind {self.kind!r}")
        return out

    def text(self, value: int) -> str:
        return self.fmt(value) if callable(self.fmt) else self.fmt.format(value)

    def _name(self, i: int) -> str:
        return str(self.names[i]) if i < len(self.names) else str(i + self.shift)


@dataclass(frozen=True)
class Rows:
    """Repeated parts of a panel (the jobs in a row, a seat's crews): `rows(src)` splits the
    panel's source into one source per row; a row is shown when its field `present` is set,
    its item `show` is drawn, and it shows anything."""

    key: str
    label: str
    rows: Callable[[Source], list[Source]]
    items: Sequence[Item | Rows]
    show: str | None = None
    names: Sequence[str] = ()  # row titles; "<label> <i+1>" without
    present: tuple[str, int] | None = None  # (field, offset) set in the rows that exist

    def draw(self, src: Source, ctx: Context) -> dict[str, Any] | None:
        out = []
        for i, row in enumerate(self.rows(src)):
            if self.present is not None:
                f, off = self.present
                if float(np.asarray(row[f]).reshape(-1)[off]) < 0.5:
                    continue
            items = draw_items(self.items, row, ctx)
            if self.show is not None and not any(it["key"] == self.show for it in items):
                continue
            if not items:
                continue
            title = self.names[i] if i < len(self.names) else f"{self.label} {i + 1}"
            out.append({"index": i, "title": title, "items": items})
        if not out:
            return None
        return {"key": self.key, "label": self.label, "kind": "rows", "rows": out}


def thousands(tens: int) -> str:
    """A sum in $10K as money: 0 -> "$0", 25 -> "$250K", 150 -> "$1.5M"."""
    if tens == 0:
        return "$0"
    return f"${tens / 100:g}M" if abs(tens) >= 100 else f"${tens * 10}K"


def block_rows(block: str) -> Callable[[Source], list[Source]]:
    """Rows from a layout block (`job[i]`): row i holds each field's i-th repetition."""
    def split(src: Source) -> list[Source]:
        names = [k for k in src if k.startswith(block + ".")]
        count = len(src[names[0]])
        return [{k[len(block) + 1:]: src[k][i] for k in names} for i in range(count)]
    return split


def chunk_rows(name: str, count: int) -> Callable[[Source], list[Source]]:
    """Rows from one field made of `count` equal parts (e.g. five display heists); each row's
    vector is field "" of its source."""
    def split(src: Source) -> list[Source]:
        return [{"": part} for part in np.split(np.asarray(src[name]).reshape(-1), count)]
    return split


def field_rows(names: Sequence[str]) -> Callable[[Source], list[Source]]:
    """Rows from fields of the same shape (a seat's crew slots crew0, crew1, ...)."""
    def split(src: Source) -> list[Source]:
        return [{"": src[n]} for n in names]
    return split


def scale(game: Game, name: str) -> float:
    """The divisor of observation field `name` as its layout declares it (`Field.scale`)."""
    return game.observation_layout._field(name).scale


def draw_items(items: Sequence[Item | Rows], src: Source, ctx: Context) -> list[dict[str, Any]]:
    return [d for it in items if (d := it.draw(src, ctx)) is not None]


@dataclass(frozen=True)
class View:
    """A game's table: `table` (public, from the plain fields), `seat` (from the per-seat
    block `seat_block`, one panel per relative seat), `mine` (the viewer's own fields),
    `decision` (the item that names the viewer's pending decision) and `targets` (action range
    -> the key of the item whose i-th entry or row stands for the range's i-th action)."""

    table: Sequence[Item | Rows]
    seat: Sequence[Item | Rows]
    mine: Sequence[Item | Rows] = ()
    seat_block: str = "player"
    targets: dict[str, str] = field(default_factory=dict)
    seat_present: str | None = None  # a seat field that is set for the seats in play


# game label (the env name, with a variant that is a game of its own) -> its view's module
VIEWS: dict[str, str] = {
    "big_score_v1": "big_score",
    "big_score_v1 (solo)": "big_score_solo",
    "grifters_v1": "grifters",
    "vaults_v1": "vaults",
    "bad_company_v1": "bad_company",
    "big_deal_v0": "big_deal",
}


def view_of(game: Game) -> View:
    """The view of `game` (its module's `view(game)`)."""
    if game.label not in VIEWS:
        raise ValueError(f"no table view for {game.label!r}; available: {', '.join(VIEWS)}")
    return importlib.import_module(f"{__name__}.{VIEWS[game.label]}").view(game)


def table_view(game: Game, view: View, obs: np.ndarray, seat: int,
               names: Sequence[str] = ()) -> dict[str, Any]:
    """The table as seat `seat` sees it, from its observation `obs` [obs_size] alone: the
    public panel, one panel per seat (absolute seat numbers, the viewer's first) and the
    viewer's own cards; `names` names the seats."""
    ctx = Context(seat, game.num_players, tuple(names))
    fields = game.obs_fields(np.asarray(obs, np.float32).reshape(-1))
    prefix = view.seat_block + "."
    plain = {k: v for k, v in fields.items() if not k.startswith(prefix)}
    seats = []
    for r in range(game.num_players if view.seat else 0):  # the solo game has no seat panels
        src = {k[len(prefix):]: v[r] for k, v in fields.items() if k.startswith(prefix)}
        if view.seat_present and float(np.asarray(src[view.seat_present]).max()) < 0.5:
            continue
        absolute = (seat + r) % game.num_players
        seats.append({"seat": absolute, "relative": r, "name": ctx.seat_name(absolute),
                      "items": draw_items(view.seat, src, ctx)})
    return {"table": draw_items(view.table, plain, ctx), "seats": seats,
            "mine": draw_items(view.mine, plain, ctx)}


def action_targets(game: Game, view: View) -> dict[int, tuple[str, int]]:
    """action id -> (target, index) for the actions that the table draws: target "panel/key"
    is the item `key` of panel table, mine or seat (the viewer's own seat panel), index its
    entry or row; target "@seat" is the panel of the seat `index` places after the viewer.
    "<target>+k" shifts the index by k ("@seat+1": the range's first action names the next
    seat; "table/job+3": it names the fourth job)."""
    out: dict[int, tuple[str, int]] = {}
    layout = game.action_layout
    for r in layout.ranges:
        target = view.targets.get(r.name)
        if target is None:
            continue
        target, _, plus = target.partition("+")
        shift = int(plus or 0)
        start = layout.start[r.name]
        for i in range(r.count):
            out[start + i] = (target, i + shift)
    return out
