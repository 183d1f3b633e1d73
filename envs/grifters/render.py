"""Text rendering of one Grifters game: the supply, every tableau, the pending decision."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core.render import counts_text
from . import components as C

if TYPE_CHECKING:
    from .kernel import GriftersGame, GriftersState


def render_text(game: GriftersGame, s: GriftersState, b: int = 0,
                player: int | None = None) -> str:
    """All of game b, or only what `player` may see (other hands as sizes and known cards)."""
    from .kernel import DECISION_NAMES, NUM_DECISIONS

    N = game.num_players
    lines = [f"Grifters ({N} players)  turn {int(s.turns_total[b])}  "
             f"Coffers {int(s.coffers[b])}M  deck {int(s.deck_len[b])}  "
             f"discard: {counts_text(s.discard[b], C.CARD_NAMES)}"]
    tops = []
    for st in range(C.NUM_STACKS):
        k = int(s.stack_top[b, st])
        if game.stacks_in_play[st]:
            name = C.JOB_NAMES[4 * st + k] if k < 4 else "(empty)"
            tops.append(f"{C.STACK_NAMES[st]}: {name}")
    lines.append("Jobs on top: " + "; ".join(tops))
    scores = game.scores(s[b])[0]
    for p in range(N):
        mark = ">" if int(s.current_player[b]) == p else " "
        hand = s.hand[b, p]
        if player is None or player == p:
            hand_txt = counts_text(hand, C.CARD_NAMES)
        else:
            hand_txt = (f"{int(hand.sum())} cards, known: "
                        f"{counts_text(s.known[b, p], C.CARD_NAMES)}")
        jobs = [C.JOB_NAMES[j] for j in np.flatnonzero(s.job_owner[b] == p)]
        lines.append(f"{mark}P{p}: stash {int(s.stash[b, p])}M  score {int(scores[p])}  "
                     f"jobs: {', '.join(jobs) or '-'}")
        lines.append(f"    hand: {hand_txt}")
        for n in range(3):
            isk = int(s.night_isk[b, p, n])
            extra = f" +{isk} ISK" if isk else ""
            lines.append(f"    Night {n + 1}: {counts_text(s.night[b, p, n], C.CARD_NAMES)}{extra}")
        lines.append(f"    Refresh: {counts_text(s.refresh[b, p], C.CARD_NAMES)}")
    d = int(s.dec[b])
    if s.terminated[b] or s.truncated[b]:
        lines.append("game over" + (" (truncated)" if s.truncated[b] else "") +
                     f"; scores {scores.tolist()}")
    elif d < NUM_DECISIONS:
        legal = ", ".join(game.action_name(a) for a in np.flatnonzero(s.legal_action_mask[b]))
        if player is None or player == int(s.current_player[b]):
            lines.append(f"P{int(s.current_player[b])} to decide: {DECISION_NAMES[d]} "
                         f"[{legal}]")
    return "\n".join(lines)
