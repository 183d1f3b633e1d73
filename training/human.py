"""A person plays a game in the terminal against bots, seeing only what their seat may see.

A bot's move is shown by name only when it is not a secret choice by the rules and the person's
view tells it apart from the bot's other legal moves (found by trying them all on copies of the
game); a secret choice is announced as such, so the terminal never shows more than the board
would.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..agents.base import Policy
from ..envs.core import Game

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


def play_human(game: Game, seat: int, bots: Sequence[Policy], bot_names: Sequence[str],
               seed: int = 0, read: Callable[[str], str] = input,
               write: Callable[[str], None] = print) -> np.ndarray | None:
    """Play one game with the person at `seat`; bots[i] plays the i-th other seat.

    Returns the final scores, or None when the person quits.
    """
    n = game.num_players
    if not 0 <= seat < n:
        raise ValueError(f"--seat must be in 0..{n - 1} for {n} players, got {seat}")
    others = [s for s in range(n) if s != seat]
    if len(bots) != len(others):
        raise ValueError(f"{len(others)} bot(s) needed for the other seats, got {len(bots)}")
    bot_of = dict(zip(others, bots))
    label = {s: f"player_{s} ({nm})" for s, nm in zip(others, bot_names)}
    label[seat] = f"player_{seat} (you)"
    state = game.init(np.array([seed]))
    write(f"{game.title}: you are player_{seat}; seed {seed}")
    while not (state.terminated[0] or state.truncated[0]):
        cp = int(state.current_player[0])
        if cp == seat:
            write("")
            write(game.render(state, 0, player=seat))
            legal = np.flatnonzero(state.legal_action_mask[0])
            write("your legal actions:")
            for i, a in enumerate(legal):
                write(f"  {i + 1:>3}) {game.action_name(int(a))}")
            action = _ask(legal, game, read, write)
            if action is None:
                write("game abandoned")
                return None
        else:
            obs = game.observe(state, cp)
            action = int(bot_of[cp].act(obs, state.legal_action_mask)[0])
            if _visible(game, state, seat, action):
                write(f"{label[cp]}: {game.action_name(action)}")
            else:
                write(f"{label[cp]} made a secret choice")
        game.step(state, np.array([action]))
    write("")
    write(game.render(state, 0))
    scores = game.scores(state)[0]
    winners = np.flatnonzero(game.winners(state)[0])
    write("final scores: " + ", ".join(f"{label[s]} {int(scores[s])}" for s in range(n)))
    write("winner(s): " + ", ".join(label[int(s)] for s in winners))
    return scores
