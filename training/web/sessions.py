"""The games a web server holds: one `Match` per session, behind a random unguessable token.

A session's reply to the person (`Session.reply`) is built from their seat's observation, their
legal actions and the move log alone (`training.human.Match`): never the state, another seat's
observation or a render of the state, so no request can read a hidden card, however it is
made. The store keeps at most `capacity` sessions, forgetting the least recently used.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from typing import Any

from ...agents import make_policy, policy_choices
from ...envs import GAMES, _resolve
from ...envs import game as make_game
from ...envs import module as game_module
from ..human import IllegalMove, Match
from ..report import policy_label
from ..views import action_targets


class BadRequest(ValueError):
    """Input the server refuses (HTTP 400): what was wrong and what is allowed."""


class Stale(ValueError):
    """A move made for an earlier position (HTTP 409): a double click, an old page."""


def catalogue() -> list[dict[str, Any]]:
    """Every game with its player counts and the bots on offer."""
    out = []
    for name in GAMES:
        cls = game_module(name).Game
        spec = cls.option_spec()["num_players"]
        out.append({"name": name, "title": cls.title, "player_counts": list(cls.player_counts),
                    "default_players": spec.default,
                    "bots": [{"spec": s, "label": d} for s, d in policy_choices(name)]})
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
    """The server's sessions by token (at most `capacity`, least recently used dropped)."""

    def __init__(self, capacity: int = 64):
        self.capacity = capacity
        self._by_token: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()  # the dict, and building games (compiles run once)

    def __len__(self) -> int:
        return len(self._by_token)

    def get(self, token: str) -> Session:
        with self._lock:
            s = self._by_token.get(token)
            if s is None:
                raise KeyError(token)
            self._by_token.move_to_end(token)
            return s

    def create(self, body: dict[str, Any]) -> Session:
        """A new game from {"game", "players", "seat", "bots": [spec per other seat, or one
        for all], "seed"}; BadRequest says what is wrong with the request."""
        name = body.get("game")
        if not isinstance(name, str):
            raise BadRequest(f"'game' must be one of {', '.join(GAMES)}, got {name!r}")
        try:
            name = _resolve(name)
        except ValueError as e:
            raise BadRequest(str(e)) from None
        cls = game_module(name).Game
        players = _int(body, "players", cls.option_spec()["num_players"].default)
        if players not in cls.player_counts:
            raise BadRequest(f"{cls.title} takes {', '.join(map(str, cls.player_counts))} "
                             f"players, got {players}")
        seat = _int(body, "seat", 0)
        if not 0 <= seat < players:
            raise BadRequest(f"'seat' must be in 0..{players - 1} for {players} players, "
                             f"got {seat}")
        specs = body.get("bots", ["heuristic"])
        if isinstance(specs, str):
            specs = [specs]
        if (not isinstance(specs, list) or not specs
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
            game = make_game(name, num_players=players)
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
            self._by_token[token] = session
            while len(self._by_token) > self.capacity:
                self._by_token.popitem(last=False)
            return session
