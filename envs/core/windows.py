"""Response windows: moments when players other than the active one may act.

Some rulebooks let a card be played "at any time, even on another player's turn". An AEC
environment needs explicit decision points for that, so a game opens a *window* after a
trigger (a declared attack, any action, ...). The window visits the seats clockwise starting
left of the active player, with the active player last, and repeats that cycle. A seat that
may respond is offered the game's response decision (respond or pass); a seat that may not is
skipped silently. The window closes after `num_players` passes or skips in a row, and the game
then resumes the interrupted action. A response resets the pass count.

The window's bookkeeping is four arrays carried by `WindowState`; the functions below are
pure array updates over an index subset of the batch, so any game can use them.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .state import BatchState

NO_WINDOW = 0  # window kind 0: no window is open


@dataclasses.dataclass(eq=False)
class WindowState(BatchState):
    """A batch state with one response window per game (kind 0 = closed)."""

    win_kind: np.ndarray  # int8 [B]  kind of the open window (game-defined), 0 = none
    win_active: np.ndarray  # int8 [B]  the active player, who is visited last
    win_seat: np.ndarray  # int8 [B]  seat visited most recently (the next one is seat + 1)
    win_passes: np.ndarray  # int8 [B]  passes or skips in a row


def window_arrays(batch: int) -> dict[str, np.ndarray]:
    """Fresh, closed window arrays for a batch (to pass into a WindowState constructor)."""
    return {"win_kind": np.zeros(batch, np.int8), "win_active": np.zeros(batch, np.int8),
            "win_seat": np.zeros(batch, np.int8), "win_passes": np.zeros(batch, np.int8)}


def open_window(st: WindowState, idx: np.ndarray, kind: int | np.ndarray,
                active: np.ndarray) -> None:
    """Open a window of `kind` in games idx; the first seat visited is left of `active`."""
    st.win_kind[idx] = kind
    st.win_active[idx] = active
    st.win_seat[idx] = active  # the seat "before" the first one visited
    st.win_passes[idx] = 0


def close_window(st: WindowState, idx: np.ndarray) -> None:
    """Close the window at once (e.g. an effect that ends the interrupted action)."""
    st.win_kind[idx] = NO_WINDOW
    st.win_passes[idx] = 0


def record_pass(st: WindowState, idx: np.ndarray) -> None:
    """The prompted seat passed."""
    st.win_passes[idx] += 1


def record_response(st: WindowState, idx: np.ndarray) -> None:
    """The prompted seat responded: everybody gets another chance."""
    st.win_passes[idx] = 0


def next_responder(st: WindowState, idx: np.ndarray, can_respond: np.ndarray,
                   num_players: int) -> np.ndarray:
    """Advance the windows of games idx to the next seat that may respond.

    `can_respond` is bool [len(idx), num_players] (absolute seats). Seats that may not respond
    are skipped and count as passes. Returns the seat to prompt per game, or -1 where the window
    closed (num_players passes or skips in a row); closed windows get kind 0. The prompted seat
    becomes `win_seat`.
    """
    n = num_players
    seat = st.win_seat[idx].astype(np.int64)
    passes = st.win_passes[idx].astype(np.int64)
    rows = np.arange(idx.size)
    # candidate seats in visiting order, 1..n steps after the last visited seat
    order = (seat[:, None] + np.arange(1, n + 1)[None, :]) % n
    ok = can_respond[rows[:, None], order]
    # seats skipped before the first responder count as passes; stop once n passes accrue
    first = np.where(ok.any(axis=1), ok.argmax(axis=1), n)
    allowed = n - passes  # skips that still fit before the window closes
    closes = first >= allowed
    out = np.where(closes, -1, order[rows, np.minimum(first, n - 1)])
    st.win_passes[idx] = np.where(closes, 0, passes + first).astype(np.int8)
    st.win_seat[idx] = np.where(closes, seat, out).astype(np.int8)
    st.win_kind[idx] = np.where(closes, NO_WINDOW, st.win_kind[idx])
    return out
