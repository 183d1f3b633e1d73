"""Helpers for the Big Deal tests: crafted states and action scripts. Money in the tests is
in $M, as in the spec; the state holds units of $50M."""

from __future__ import annotations

import numpy as np
from heistbench.envs.big_deal import components as C
from heistbench.envs.big_deal import kernel as K
from heistbench.envs.big_deal_v0 import BigDealState, Game

CO = {letter: i for i, letter in enumerate(C.CO_LETTER)}
RES = {letter: i for i, letter in enumerate(C.RESOURCE_SHORT)}


def u(m: int) -> int:
    """$M -> units."""
    assert m % C.UNIT == 0
    return m // C.UNIT


def blank(num_players: int = 4, seed: int = 0, auto_forced: bool = True,
          **options) -> tuple[Game, BigDealState]:
    """One game at seat 0's MAIN decision (after its draw), with every hand, branch and
    resource cleared, full wheels, an empty pool and $1000M each. Tests fill in what they
    need, then call `ready`."""
    game = Game(num_players=num_players, auto_forced=auto_forced, **options)
    s = game.init(np.array([seed]))
    s.hand[:] = 0
    s.hand_cash[:] = 0
    s.res_free[:] = 0
    s.br_co[:] = -1
    s.br_sh[:] = 0
    s.out[:] = 0
    s.cash[:] = u(1000)
    return game, s


def branch(s: BigDealState, p: int, slot: int, co: str, shares: int,
           on_wheels: bool = True) -> None:
    """An open branch of p; its resource set is taken from the wheels (`out` grows)."""
    c = CO[co]
    s.br_co[0, p, slot] = c
    s.br_sh[0, p, slot] = shares
    if on_wheels:
        s.out[0] += C.REQ[c].astype(np.int8)


def resources(s: BigDealState, p: int, **counts: int) -> None:
    """Unassigned resources of p, taken from the wheels."""
    for r, n in counts.items():
        s.res_free[0, p, RES[r]] += n
        s.out[0, RES[r]] += n


def ready(game: Game, s: BigDealState) -> BigDealState:
    """Recompute the mask after crafting (the pending decision stays)."""
    game.refresh_masks(s)
    return s


def start_turn(game: Game, s: BigDealState, player: int) -> BigDealState:
    """Begin `player`'s turn: the draw, the income, then MAIN."""
    s.turn_owner[0] = player
    s.current_player[0] = player
    s.dec[0] = K.TURN_START
    s.legal_action_mask[0] = False
    return game.resume(s)


def legal(s: BigDealState) -> set[int]:
    return set(np.flatnonzero(s.legal_action_mask[0]).tolist())


def play(game: Game, s: BigDealState, *actions: int) -> BigDealState:
    """Apply an action script; each action must be legal at its point."""
    for a in actions:
        assert a in legal(s), f"{a} ({game.action_name(a)}) not in " + ", ".join(
            game.action_name(x) for x in sorted(legal(s)))
        game.step(s, np.array([a]))
    return s


def raise_by(m: int) -> tuple[int, int]:
    """The two bid actions of a raise of m $M (a multiple of $50M)."""
    k = u(m)
    return int(K.A_TENS + k // 10), int(K.A_ONES + k % 10)


def takeover(k: int, slot: int) -> int:
    return int(K.A_TAKEOVER + 8 * (k - 1) + slot)


def cash(s: BigDealState, p: int) -> int:
    """p's cash in $M."""
    return int(s.cash[0, p]) * C.UNIT


def dec(s: BigDealState) -> int:
    return int(s.dec[0])
