"""Helpers for the Grifters tests: crafted states and action scripts."""

from __future__ import annotations

import numpy as np
from heistbench.envs.grifters import components as C
from heistbench.envs.grifters import kernel as K
from heistbench.envs.grifters_v1 import Game, GriftersState


def cards(*types: int) -> np.ndarray:
    """Counts per card type, int8 [19], from a list of types (repeats allowed)."""
    return np.bincount(np.array(types, np.int64), minlength=C.NUM_TYPES).astype(np.int8)


def blank(num_players: int = 2, seed: int = 0, **options) -> tuple[Game, GriftersState]:
    """One game (auto_forced off) at P0's turn, before Advance Time: P0's hand is empty, the
    opponents hold their Ringleaders, every player has taken a turn already (so Advance Time
    runs), Hideouts and Refresh Areas are empty. Tests fill in what they need, then `begin`."""
    game = Game(num_players=num_players, auto_forced=False, first_player=0, **options)
    s = game.init(np.array([seed]))
    s.hand[:] = 0
    s.hand[0, 1:, :3] = 1
    s.known[:] = s.hand
    s.turns_taken[:] = 1
    return game, s


def begin(game: Game, s: GriftersState, player: int = 0) -> GriftersState:
    """Start `player`'s turn (Advance Time, then the first decision)."""
    s.current_player[0] = player
    s.dec[0] = K.TURN_START
    s.legal_action_mask[0] = False
    return game.resume(s)


def legal(s: GriftersState) -> set[int]:
    return set(np.flatnonzero(s.legal_action_mask[0]).tolist())


def play(game: Game, s: GriftersState, *actions: int) -> GriftersState:
    """Apply an action script; each action must be legal at its point."""
    for a in actions:
        assert a in legal(s), f"{a} ({game.action_name(a)}) not in {sorted(legal(s))}"
        game.step(s, np.array([a]))
    return s


def decision(s: GriftersState) -> int:
    return int(s.dec[0])
