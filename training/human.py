"""A person plays a game against bots, seeing only what their seat may see.

`Match` runs one game for one person: the bots' moves and every decision with a single legal
action are played for them (the game runs with `auto_forced=False`, so that forced moves are
logged too), and each move goes into a log in words (`narrate`). A bot's move is named only
when it is not a secret choice by the rules and the person's view tells it apart from the
bot's other legal moves (found by trying them all on copies of the game); what changed on the
table is read off the person's own observation. The terminal play here and the web page
(`training.web`) drive the same `Match`, so they show the same log.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..agents.base import Policy
from ..envs.core import Game
from . import narrate
from .views import table_view, view_of

QUIT = ("q", "quit", "exit")


def _visible(game: Game, state, seat: int, action: int) -> bool:
    """Whether `seat` may see `action`: it is no secret choice by the rules, and `seat`'s
    observation after it differs from that after every other move."""
    if game.secret_decision(state)[0] and int(state.current_player[0]) != seat:
        return False
    legal = np.flatnonzero(state.legal_action_mask[0])
    if legal.size <= 1:
        return True
    trial = state[np.zeros(legal.size, dtype=np.int64)]
    game.step(trial, legal)
    obs = game.observe(trial, seat)
    mine = obs[np.flatnonzero(legal == action)[0]]
    return int((obs == mine).all(axis=1).sum()) == 1


def _ask(legal: np.ndarray, game: Game, read: Callable[[str], str],
         write: Callable[[str], None]) -> int | None:
    """The person's choice among `legal` (None to quit); bad input is asked again."""
    names = [game.action_name(int(a)).lower() for a in legal]
    while True:
        try:
            text = read(f"your move [1-{legal.size}, or q to quit]: ").strip()
        except EOFError:
            return None
        if text.lower() in QUIT:
            return None
        if text.isdigit() and 1 <= int(text) <= legal.size:
            return int(legal[int(text) - 1])
        if text.lower() in names:
            return int(legal[names.index(text.lower())])
        write(f"  '{text}' is not one of the choices: type a number from 1 to {legal.size} "
              "(or the action's name)")


class IllegalMove(ValueError):
    """A move the person may not make now: not their turn, not legal, or the game is over."""


class Match:
    """One game of a person at `seat` against `bots` (bots[i] plays the i-th other seat)."""

    def __init__(self, game: Game, seat: int, bots: Sequence[Policy],
                 bot_names: Sequence[str], seed: int = 0):
        n = game.num_players
        if not 0 <= seat < n:
            raise ValueError(f"seat must be in 0..{n - 1} for {n} players, got {seat}")
        others = [s for s in range(n) if s != seat]
        if len(bots) != len(others) or len(bot_names) != len(others):
            raise ValueError(f"{len(others)} bot(s) needed for the other seats, got "
                             f"{len(bots)}")
        if game.auto_forced:  # forced moves are played (and logged) here instead
            game = type(game)(**{**game.options, "auto_forced": False})
        self.game, self.seat, self.seed = game, seat, seed
        self.bot_of = dict(zip(others, bots))
        self.names = [f"player_{s} (you)" if s == seat else "" for s in range(n)]
        for s, nm in zip(others, bot_names):
            self.names[s] = f"player_{s} ({nm})"
        self.view = view_of(game)
        self._logged = narrate.logged_keys(self.view)
        self.state = game.init(np.array([seed]))
        self._game0 = np.zeros(1, np.int64)  # the rows a bot's act_in reads: game 0
        self.moves = 0  # decisions played so far: a move names the count it was made at
        self.log: list[tuple[str, str]] = []  # (kind, words): "move", "change" or "result"
        self._seen = self.table()  # the person's view after the last step, for the log
        self.advance()

    # -- what the person sees -----------------------------------------------------------------
    @property
    def over(self) -> bool:
        return bool(self.state.terminated[0] or self.state.truncated[0])

    @property
    def to_move(self) -> bool:
        """The person is to choose now."""
        return not self.over and int(self.state.current_player[0]) == self.seat

    def legal(self) -> list[int]:
        """The person's legal actions (none unless it is their turn)."""
        return self.game.legal_actions(self.state) if self.to_move else []

    def table(self) -> dict:
        """The table as the person sees it now (`views.table_view` of their observation)."""
        obs = self.game.observe(self.state, self.seat)[0]
        return table_view(self.game, self.view, obs, self.seat, self.names)

    def result(self) -> dict | None:
        """Final scores and winners once the game is over."""
        if not self.over:
            return None
        scores = self.game.scores(self.state)[0]
        winners = np.flatnonzero(self.game.winners(self.state)[0])
        return {"scores": [int(x) for x in scores], "winners": [int(w) for w in winners],
                "truncated": bool(self.state.truncated[0])}

    # -- playing ------------------------------------------------------------------------------
    def play(self, action: int) -> None:
        """The person's move; IllegalMove (changing nothing) if it is not one of theirs now."""
        if self.over:
            raise IllegalMove("the game is over")
        if not self.to_move:
            raise IllegalMove(f"it is {self.names[int(self.state.current_player[0])]}'s turn")
        legal = self.legal()
        if action not in legal:
            what = (f"action {action} ({self.game.action_name(action)})"
                    if 0 <= action < self.game.num_actions else f"action {action}")
            raise IllegalMove(f"{what} is not legal now; legal: " + ", ".join(
                f"{a} ({self.game.action_name(a)})" for a in legal))
        self._apply(action, forced=False)
        self.advance()

    def advance(self) -> None:
        """Play the bots' moves and every forced decision until the person must choose."""
        while not self.over:
            legal = self.legal_now()
            cp = int(self.state.current_player[0])
            if legal.size == 1:
                self._apply(int(legal[0]), forced=True)
            elif cp == self.seat:
                return
            else:
                obs = self.game.observe(self.state, cp)
                move = self.bot_of[cp].act_in(self.state, self._game0, obs,
                                              self.state.legal_action_mask)
                self._apply(int(move[0]), forced=False)
        res = self.result()
        scores = ", ".join(f"{self.names[s]} {x}" for s, x in enumerate(res["scores"]))
        self.log.append(("result", "final scores: " + scores))
        winners = ", ".join(self.names[w] for w in res["winners"])
        self.log.append(("result", "winner(s): " + (winners or "none")))

    def legal_now(self) -> np.ndarray:
        return np.flatnonzero(self.state.legal_action_mask[0])

    def _apply(self, action: int, forced: bool) -> None:
        """Step one decision, logging the move as the person may know it and what changed."""
        game, state, cp = self.game, self.state, int(self.state.current_player[0])
        mine = cp == self.seat
        seen = mine or _visible(game, state, self.seat, action)
        # a bot's forced move is called so only where skipping it would tell nothing
        shown_forced = forced and (mine or not game.asked_always(state)[0])
        who = "you" if mine else self.names[cp]
        self.log.append(("move", narrate.move_line(
            who, game.action_name(action) if seen else None, shown_forced)))
        game.step(state, np.array([action]))
        self.moves += 1
        before, self._seen = self._seen, self.table()
        self.log.extend(("change", line)
                        for line in narrate.changes(before, self._seen, self._logged))


def play_human(game: Game, seat: int, bots: Sequence[Policy], bot_names: Sequence[str],
               seed: int = 0, read: Callable[[str], str] = input,
               write: Callable[[str], None] = print) -> np.ndarray | None:
    """Play one game in the terminal with the person at `seat`; bots[i] plays the i-th other
    seat. Returns the final scores, or None when the person quits."""
    if not 0 <= seat < game.num_players:
        raise ValueError(f"--seat must be in 0..{game.num_players - 1} for "
                         f"{game.num_players} players, got {seat}")
    match = Match(game, seat, bots, bot_names, seed)
    write(f"{game.title}: you are player_{seat}; seed {seed}")
    shown = 0
    while True:
        for kind, line in match.log[shown:]:
            write(("    " if kind == "change" else "") + line)
        shown = len(match.log)
        if match.over:
            break
        write("")
        write(match.game.render(match.state, 0, player=seat))
        legal = np.array(match.legal())
        write("your legal actions:")
        for i, a in enumerate(legal):
            write(f"  {i + 1:>3}) {match.game.action_name(int(a))}")
        action = _ask(legal, match.game, read, write)
        if action is None:
            write("game abandoned")
            return None
        match.play(action)
    write("")
    write(match.game.render(match.state, 0))
    return match.game.scores(match.state)[0]
