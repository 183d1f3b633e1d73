"""Helpers for the Bad Company tests: crafted states and action scripts."""

from __future__ import annotations

import numpy as np
from heistbench.envs.bad_company import components as C
from heistbench.envs.bad_company import rules as K
from heistbench.envs.bad_company_v1 import BadCompanyState, Game

L, G, M, F, WILD = range(5)
# heist card numbers (H01..H40) as indices
H = {f"H{i + 1:02d}": i for i in range(C.NUM_HEISTS)}
U = {f"U{i + 1:02d}": i for i in range(C.NUM_UPGRADES)}


def blank(num_players: int = 2, seed: int = 0, auto_forced: bool = False,
          **options) -> tuple[Game, BadCompanyState]:
    """One game after its opening draft (every drafter returned their first card), at the
    chief's (seat 0's) reroll decision, with no money, the police far behind (-6) and every
    crew board Sneaky Ninjas (L1 + R1). Tests fill in what they need, then `at`."""
    game = Game(num_players=num_players, auto_forced=auto_forced, first_chief=0, **options)
    s = game.init(np.array([seed]))
    while s.dec[0] == K.SETUP_RETURN:
        game.step(s, np.array([K.A_SETUP]))
    assert s.dec[0] == K.CHIEF_REROLL
    s.money[:] = 0
    s.police[:] = -6
    for p in range(num_players):
        crew_board(s, p, 0, 0)
    return game, s


def crew_board(s: BadCompanyState, p: int, left: int, right: int) -> None:
    """Player p's crew board from a left and a right half (no upgrades)."""
    s.left[0, p], s.right[0, p] = left, right
    s.crew[0, p] = 0
    s.crew[0, p, 1:6] = C.LEFT_SYM[left]
    s.crew[0, p, 6:10] = C.RIGHT_SYM[right]
    s.task_sym[0, p] = (*C.LEFT_TASK[left], *C.RIGHT_TASK[right])


def upgrade(s: BadCompanyState, p: int, u: int) -> None:
    """Put upgrade card u on its member of p's crew (taken out of the deck)."""
    row = int(C.UPG_MEMBER[u]) - 2
    s.crew[0, p, row] += C.UPG_SYM[u]
    s.n_upgrades[0, p, row] += 1
    s.upgrade_vp[0, p, row] += C.UPG_VP[u]


def force_upgrades(s: BadCompanyState, *cards: int) -> None:
    """The next upgrade draws are `cards`, in order (swapped to the deck's top)."""
    deck = s.udeck[0]
    n = int(s.ud_len[0])
    for k, u in enumerate(cards):
        pos = n - 1 - k
        j = int(np.flatnonzero(deck[:n] == u)[0])
        deck[pos], deck[j] = deck[j], deck[pos]


def at(game: Game, s: BadCompanyState, dec: int, player: int = 0) -> BadCompanyState:
    """Go to decision (or automatic state) `dec` with `player` acting, and play on to the next
    decision."""
    s.dec[0] = dec
    s.current_player[0] = player
    s.legal_action_mask[0] = False
    return game.resume(s)


def legal(s: BadCompanyState) -> set[int]:
    return set(np.flatnonzero(s.legal_action_mask[0]).tolist())


def play(game: Game, s: BadCompanyState, *actions: int) -> BadCompanyState:
    """Apply an action script; each action must be legal at its point."""
    for a in actions:
        assert a in legal(s), f"{a} ({game.action_name(a)}) not in {sorted(legal(s))}"
        game.step(s, np.array([a]))
    return s


def decision(s: BadCompanyState) -> int:
    return int(s.dec[0])


def end_phase_all(game: Game, s: BadCompanyState) -> BadCompanyState:
    """Every player still in phase 2B ends it."""
    while decision(s) == K.PHASE2B:
        play(game, s, K.A_END_PHASE)
    return s
