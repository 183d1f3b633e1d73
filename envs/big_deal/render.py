"""Text rendering of one Big Deal game: the board, every player, the pending decision."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core.render import counts_text
from . import components as C

if TYPE_CHECKING:
    from .kernel import BigDealGame, BigDealState


def money(units: int) -> str:
    return f"${int(units) * C.UNIT}M"


def render_text(game: BigDealGame, s: BigDealState, b: int = 0,
                player: int | None = None) -> str:
    """All of game b, or only what `player` may see (other hands as sizes; in the Shark
    variant, other players' cash hidden)."""
    from .kernel import DECISION_NAMES, NUM_DECISIONS

    N = game.num_players
    out = s.out[b].astype(int)
    wheels = "  ".join(f"{C.RESOURCE_SHORT[r]} {14 - out[r]} left" for r in range(C.NUM_RES))
    lines = [f"Big Deal ({N} players{', Shark' if game.shark else ''})  turn "
             f"{int(s.turn_idx[b])}  deck {int(s.deck_len[b])}  Game Over "
             f"{int(s.go_revealed[b])}/7",
             f"wheels: {wheels}",
             f"pool: {counts_text(s.pool[b], C.CO_LETTER)}   waste: "
             f"{counts_text(s.waste[b], C.CO_LETTER)}   cash cards gone "
             f"{int(s.cash_gone[b])}"]
    for p in range(N):
        mark = ">" if int(s.current_player[b]) == p else " "
        see = player is None or player == p
        cash = money(s.cash[b, p]) if see or not game.shark else "$?"
        if see:
            hand = counts_text(s.hand[b, p], C.CO_LETTER)
            hand += f"; {int(s.hand_cash[b, p])} cash cards" if s.hand_cash[b, p] else ""
        else:
            hand = f"{int(s.hand[b, p].sum() + s.hand_cash[b, p])} cards"
        res = counts_text(s.res_free[b, p], C.RESOURCE_SHORT)
        branches = [f"[{k}] {C.CO_LETTER[int(co)]} x{int(s.br_sh[b, p, k])}"
                    for k, co in enumerate(s.br_co[b, p]) if co >= 0]
        lines.append(f"{mark}P{p}: cash {cash}  hand: {hand}  resources: {res}")
        lines.append(f"    branches: {', '.join(branches) or '-'}")
    if s.to_def[b] >= 0:
        lines.append(f"takeover of P{int(s.to_def[b])}'s branch {int(s.to_slot[b])} "
                     f"({C.CO_LETTER[int(s.to_co[b])]} x{int(s.to_n_def[b])}): committed "
                     f"{int(s.to_sh[b])} shares + {int(s.to_cc[b])} cash cards; offers "
                     f"{money(s.to_pa[b])} / {money(s.to_pd[b])}")
    d = int(s.dec[b])
    if s.terminated[b] or s.truncated[b]:
        lines.append("game over" + (" (truncated)" if s.truncated[b] else "")
                     + f"; final cash ($M) {game.scores(s[b])[0].tolist()}")
    elif d < NUM_DECISIONS:
        legal = ", ".join(game.action_name(a) for a in np.flatnonzero(s.legal_action_mask[b]))
        if player is None or player == int(s.current_player[b]):
            lines.append(f"P{int(s.current_player[b])} to decide: {DECISION_NAMES[d]} "
                         f"[{legal}]")
    return "\n".join(lines)
