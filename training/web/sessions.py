"""The games a web server holds: one `Match` per session, behind a random unguessable token.

A session's reply to the person (`Session.reply`) is built from their seat's observation, their
legal actions and the move log alone (`training.human.Match`): never the state, another seat's
observation or a render of the state, so no request can read a hidden card, however it is
made. The store keeps at most `capacity` sessions, forgetting the least recently used, and
forgets a session left idle for `idle_s` seconds.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from ...agents import make_policy, policy_choices
from ...envs import GAMES, _resolve
from ...envs import game as make_game
from ...envs import module as game_module
from ...envs.core.options import Option
from ..human import IllegalMove, Match
from ..report import policy_label
from ..views import action_targets


class BadRequest(ValueError):
    """Input the server refuses (HTTP 400): what was wrong and what is allowed."""


class Stale(ValueError):
    """A move made for an earlier position (HTTP 409): a double click, an old page."""


def _choices(opt: Option) -> list[Any] | None:
    """The values a menu may offer for a rule option: its closed set, or both of a bool's."""
    if opt.choices is not None:
        return list(opt.choices)
    return [False, True] if opt.allowed == "a bool" else None


def rule_options(name: str, players: int) -> dict[str, Option]:
    """The rule options a person may set for `players` players of game `name` (those with a
    closed set of values; an oracle or engine option never, so no seat may see hidden cards)."""
    cls = game_module(name).Game.class_for(players)
    return {k: o for k, o in cls.GAME_OPTIONS.items() if _choices(o) is not None}


def catalogue() -> list[dict[str, Any]]:
    """Every game with its player counts (The Big Score's 1: the solo game), the bots on offer,
    and its rule options (`players`: the counts an option applies to)."""
    out = []
    for name in GAMES:
        cls = game_module(name).Game
        spec = cls.option_spec()["num_players"]
        counts = list(spec.choices)
        options: dict[str, dict[str, Any]] = {}
        for n in counts:
            for k, o in rule_options(name, n).items():
                entry = options.setdefault(k, {"name": k, "doc": o.doc, "default": o.default,
                                               "choices": _choices(o), "players": []})
                entry["players"].append(n)
        out.append({"name": name, "title": cls.title, "player_counts": counts,
                    "default_players": spec.default,
                    "bots": [{"spec": s, "label": d} for s, d in policy_choices(name)],
                    "options": list(options.values())})
    return out


def _int(body: dict[str, Any], key: str, default: int | None = None) -> int:
    v = body.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int):
        raise BadRequest(f"'{key}' must be an integer, got {v!r}")
    return v


class Session:
    """One person's game: a `Match` and a lock (one request at a time changes it)."""

    def __init__(self, token: str, match: Match, bots: list[str]):
        self.token, self.match, self.bots = token, match, bots
        self.lock = threading.Lock()
        self.targets = action_targets(match.game, match.view)

    def reply(self) -> dict[str, Any]:
        """What the person may see now: the table from their observation, their legal moves
        (with the table element each stands for), the log and, at the end, the result."""
        m, game = self.match, self.match.game
        legal = []
        for a in m.legal():
            target, index = self.targets.get(a, (None, None))
            legal.append({"action": a, "name": game.action_name(a),
                          "group": _range_of(game, a), "target": target, "index": index})
        result = m.result()
        if result is not None:
            result["names"] = m.names
        return {"session": self.token, "game": game.name, "title": game.title,
                "seat": m.seat, "players": m.names, "turn": m.moves, "to_move": m.to_move,
                "over": m.over, "table": m.table(), "legal": legal,
                "log": [{"kind": k, "text": t} for k, t in m.log], "result": result}

    def move(self, body: dict[str, Any]) -> dict[str, Any]:
        """Play the person's move {"action": a, "turn": t}: `t` is the reply's turn the move
        was chosen at, so a repeated or old move is refused (Stale) and changes nothing."""
        action, turn = _int(body, "action"), _int(body, "turn")
        with self.lock:
            if turn != self.match.moves:
                raise Stale(f"this move was chosen at turn {turn}, but the game is at turn "
                            f"{self.match.moves}: reload the table and choose again")
            try:
                self.match.play(action)
            except IllegalMove as e:
                raise BadRequest(str(e)) from None
            return self.reply()


def _range_of(game, action: int) -> str:
    layout = game.action_layout
    for r in layout.ranges:
        if layout.start[r.name] <= action < layout.start[r.name] + r.count:
            return r.name
    return ""


class Sessions:
    """The server's sessions by token: at most `capacity` (the least recently used dropped
    beyond), each forgotten once unused for `idle_s` seconds (None: never). `clock` is
    injectable for tests."""

    def __init__(self, capacity: int = 64, idle_s: float | None = 6 * 3600,
                 clock: Callable[[], float] = time.monotonic):
        self.capacity, self.idle_s, self.clock = capacity, idle_s, clock
        self._by_token: OrderedDict[str, Session] = OrderedDict()
        self._used: dict[str, float] = {}  # token -> when last asked for
        self._lock = threading.Lock()  # the dict, and building games (compiles run once)

    def __len__(self) -> int:
        with self._lock:
            self._expire()
            return len(self._by_token)

    def get(self, token: str) -> Session:
        with self._lock:
            self._expire()
            s = self._by_token.get(token)
            if s is None:
                raise KeyError(token)
            self._by_token.move_to_end(token)
            self._used[token] = self.clock()
            return s

    def _expire(self) -> None:
        """Drop the sessions idle for longer than `idle_s` (the oldest come first)."""
        if self.idle_s is None:
            return
        limit = self.clock() - self.idle_s
        while self._by_token:
            token = next(iter(self._by_token))
            if self._used[token] >= limit:
                break
            del self._by_token[token], self._used[token]

    def create(self, body: dict[str, Any]) -> Session:
        """A new game from {"game", "players", "seat", "bots": [spec per other seat, or one
        for all], "options": {rule option: value}, "seed"}; BadRequest says what is wrong with
        the request."""
        name = body.get("game")
        if not isinstance(name, str):
            raise BadRequest(f"'game' must be one of {', '.join(GAMES)}, got {name!r}")
        try:
            name = _resolve(name)
        except ValueError as e:
            raise BadRequest(str(e)) from None
        cls = game_module(name).Game
        spec = cls.option_spec()["num_players"]
        counts = spec.choices
        players = _int(body, "players", spec.default)
        if players not in counts:
            raise BadRequest(f"{cls.title} takes {', '.join(map(str, counts))} players, got "
                             f"{players}")
        options = body.get("options", {})
        if not isinstance(options, dict):
            raise BadRequest(f"'options' must be an object of rule options, got {options!r}")
        offered = rule_options(name, players)
        unknown = sorted(set(options) - set(offered))
        if unknown:
            raise BadRequest(f"'options': {', '.join(map(repr, unknown))} cannot be set here; "
                             f"{cls.class_for(players).title} at {players} player(s) takes "
                             + (", ".join(offered) or "none"))
        seat = _int(body, "seat", 0)
        if not 0 <= seat < players:
            raise BadRequest(f"'seat' must be in 0..{players - 1} for {players} players, "
                             f"got {seat}")
        specs = body.get("bots", ["heuristic"])
        if isinstance(specs, str):
            specs = [specs]
        if (not isinstance(specs, list) or (not specs and players > 1)
                or not all(isinstance(s, str) and s for s in specs)):
            raise BadRequest(f"'bots' must be a list of bot names or checkpoint paths, got "
                             f"{specs!r}")
        if len(specs) == 1:
            specs = specs * (players - 1)
        if len(specs) != players - 1:
            raise BadRequest(f"'bots': {players - 1} bot(s) needed for the other seats (or "
                             f"one for all), got {len(specs)}")
        seed = _int(body, "seed", secrets.randbelow(1 << 31))
        if not 0 <= seed < 1 << 62:
            raise BadRequest(f"'seed' must be in 0..2**62 - 1, got {seed}")
        with self._lock:
            try:
                game = make_game(name, num_players=players, **options)
            except ValueError as e:
                raise BadRequest(f"'options': {e}") from None
            try:
                bots = [make_policy(s, game, seed=seed + i + 1) for i, s in enumerate(specs)]
            except (ValueError, FileNotFoundError) as e:
                allowed = ", ".join(s for s, _ in policy_choices(game))
                raise BadRequest(f"'bots': {e} (bots: {allowed}, or a checkpoint path)") \
                    from None
            labels = [policy_label(s) for s in specs]
            match = Match(game, seat, bots, labels, seed=seed)
            token = secrets.token_urlsafe(24)
            session = Session(token, match, specs)
            self._expire()
            self._by_token[token] = session
            self._used[token] = self.clock()
            while len(self._by_token) > self.capacity:
                del self._used[self._by_token.popitem(last=False)[0]]
            return session
