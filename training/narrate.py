"""The move log in words: what each move did, as far as one seat may know.

A move is named by `game.action_name` when the seat may see it (`human._visible`), and what
changed on the table is read off the seat's own view before and after the step (the items
that a game's view marks `log`: cash, a revealed card, a job paid). The log never reads the
state, so it tells the seat nothing its observation does not; the terminal play and the web
page print the same lines.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

View = dict[str, Any]  # a `views.table_view` result


def _flatten(items: list[dict[str, Any]], logged: set[str], where: str,
             out: dict[str, tuple[str, dict[str, Any]]]) -> None:
    """Every logged item of a panel by its path, with the words that place it."""
    for it in items:
        if it["kind"] == "rows":
            for row in it["rows"]:
                _flatten(row["items"], logged, f"{where}{row['title']} ", out)
            continue
        if it["key"] in logged:
            out[f"{where}{it['key']}"] = (f"{where}{it['label']}".strip(), it)


def logged_items(view: View, logged: dict[str, set[str]]) -> dict[str, tuple[str, dict]]:
    """path -> (label, item) of the items the log follows (`logged`: panel -> item keys)."""
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    _flatten(view["table"], logged["table"], "", out)
    _flatten(view["mine"], logged["mine"], "your ", out)
    for s in view["seats"]:
        who = "your" if s["relative"] == 0 else f"{s['name']}'s"
        _flatten(s["items"], logged["seat"], f"{who} ", out)
    return out


def _text(it: dict[str, Any] | None) -> str:
    if it is None:
        return "none"
    if it["kind"] == "flag":
        return "yes"
    return str(it.get("text", ""))


def _counts(it: dict[str, Any] | None) -> dict[str, int]:
    return {e["name"]: e["count"] for e in it["entries"]} if it else {}


def _change(label: str, old: dict[str, Any] | None, new: dict[str, Any] | None) -> str | None:
    """The words for one item's change (None when it did not change)."""
    kind = (new or old)["kind"]
    if kind == "cards":
        a, b = _counts(old), _counts(new)
        parts = [f"{'+' if b.get(n, 0) > a.get(n, 0) else '−'}"
                 f"{abs(b.get(n, 0) - a.get(n, 0))} {n}"
                 for n in dict.fromkeys([*a, *b]) if a.get(n, 0) != b.get(n, 0)]
        return f"{label}: {', '.join(parts)}" if parts else None
    if kind == "flag":
        if (old is None) == (new is None):
            return None
        return f"{label}" if new is not None else f"{label}: no longer"
    before, after = _text(old), _text(new)
    if before == after:
        return None
    return f"{label}: {before} → {after}"


def changes(before: View, after: View, logged: dict[str, set[str]]) -> Iterator[str]:
    """What changed between two views of one seat, one line per logged item."""
    a, b = logged_items(before, logged), logged_items(after, logged)
    for path in dict.fromkeys([*a, *b]):
        label = (b.get(path) or a.get(path))[0]
        line = _change(label, a.get(path, (None, None))[1], b.get(path, (None, None))[1])
        if line:
            yield line


def logged_keys(view: Any) -> dict[str, set[str]]:
    """panel -> keys of the items marked `log` in a game's `views.View` (rows included)."""
    from .views import Rows

    def keys(items) -> set[str]:
        out: set[str] = set()
        for it in items:
            if isinstance(it, Rows):
                out |= keys(it.items)
            elif it.log:
                out.add(it.key)
        return out

    return {"table": keys(view.table), "mine": keys(view.mine), "seat": keys(view.seat)}


def move_line(who: str, name: str | None, forced: bool) -> str:
    """'player_1 (heuristic): rob the vault', '... (forced)', or '... made a secret choice'
    when the seat may not see the move (`name` None)."""
    if name is None:
        return f"{who} made a secret choice"
    return f"{who}: {name}" + (" (forced)" if forced else "")
