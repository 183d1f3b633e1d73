"""Text rendering of one Bad Company game: the road, the display, every crew, the decision."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core.render import counts_text
from . import components as C

if TYPE_CHECKING:
    from .kernel import BadCompanyGame, BadCompanyState

SYM = ("L", "G", "M", "F")


def heist_text(k: int, cov: np.ndarray | None = None) -> str:
    """'H13 L1/1 G0/1 M0/2 3VP wild1 [Wheelman] D' for heist index k."""
    if k < 0:
        return "-"
    req = C.HEIST_REQ[k]
    parts = [f"{SYM[s]}{int(cov[s]) if cov is not None else 0}/{int(req[s])}"
             for s in range(4) if req[s]]
    text = f"H{k + 1:02d} " + " ".join(parts) + f" {int(C.HEIST_VP[k])}VP"
    if C.HEIST_BONUS[k]:
        text += f" {C.BONUS_NAMES[C.HEIST_BONUS[k]]}{int(C.HEIST_BONUS_AMOUNT[k])}"
    if C.HEIST_BOX[k]:
        text += f" [{C.BOX_NAMES[C.HEIST_BOX[k]]}]"
    return text + " " + "".join("DBA$"[m] for m in range(4) if C.HEIST_MISSION[k, m])


def render_text(game: BadCompanyGame, s: BadCompanyState, b: int = 0,
                player: int | None = None) -> str:
    """All of game b, or only what `player` may see (others' loot as counts)."""
    from .kernel import DECISION_NAMES, NUM_DECISIONS, SETUP_RETURN, UPGRADE_CHOICE

    N = game.num_players
    dice = " ".join(str(int(d)) for d in s.dice[b])
    black = int(s.black[b])
    lines = [f"Bad Company ({N} players)  turn {int(s.turn[b])}"
             f"{'  FINAL ROUND' if s.final_round[b] else ''}  chief P{int(s.chief[b])}  "
             f"dice {dice}" + (f" police die {black}" if black >= 0 else "") +
             f"  sums {int(s.sums[b, 0])}/{int(s.sums[b, 1])}  police car {int(s.police[b])}"]
    top = int(s.hdeck[b, s.hd_head[b]]) if s.hd_len[b] > 0 else -1
    lines.append("display: " + "; ".join(heist_text(int(k)) for k in s.display[b]) +
                 f"; deck top: {heist_text(top)} ({int(s.hd_len[b])} in deck)")
    scores = game.scores(s[b])[0]
    for p in range(N):
        mark = ">" if int(s.current_player[b]) == p else " "
        loot = s.loot[b, p]
        loot_txt = (counts_text(loot, C.LOOT_NAMES) if player is None or player == p
                    else f"{int(loot.sum())} cards")
        collars = [C.MISSION_NAMES[k] + f"@{int(s.collar_member[b, k])}" for k in range(4)
                   if int(s.collar_owner[b, k]) == p]
        lines.append(f"{mark}P{p} {C.LEFT_NAMES[s.left[b, p]]} {C.RIGHT_NAMES[s.right[b, p]]}: "
                     f"${int(s.money[b, p])}  VP track {int(s.vp[b, p])}  car "
                     f"{int(s.car[b, p])}  recruiter {int(s.recruit[b, p])}  heists "
                     f"{int(s.heists_done[b, p])}  score {int(scores[p])}  loot: {loot_txt}"
                     f"  collars: {', '.join(collars) or '-'}")
        crew = []
        for row in range(1, C.NUM_MEMBERS - 1):
            r = s.crew[b, p, row]
            sym = [f"${int(r[0])}"] if r[0] else []
            sym += [C.REWARD_NAMES[k][0].upper() * int(r[k]) for k in range(1, 6) if r[k]]
            crew.append(f"{row + 2}:{''.join(sym)}")
        lines.append("    crew " + " ".join(crew))
        tasks = " ".join(f"T{t}({SYM[s.task_sym[b, p, t]]}){int(s.task_tok[b, p, t])}/2"
                         for t in range(4))
        active = "; ".join(heist_text(int(s.active[b, p, h]), s.cov[b, p, h]) for h in range(2))
        lines.append(f"    tasks {tasks}  active: {active}")
    d = int(s.dec[b])
    cur = int(s.current_player[b])
    if s.terminated[b] or s.truncated[b]:
        lines.append("game over" + (" (truncated)" if s.truncated[b] else "") +
                     f"; scores {scores.tolist()}")
    elif d < NUM_DECISIONS and (player is None or player == cur):
        if d == SETUP_RETURN:
            lines.append("drafted: " + "; ".join(heist_text(int(k)) for k in s.setup_choice[b]))
        if d == UPGRADE_CHOICE:
            lines.append("upgrades drawn: " + ", ".join(str(int(u) + 1) for u in s.upg_choice[b]
                                                        if u >= 0))
        legal = ", ".join(game.action_name(a) for a in np.flatnonzero(s.legal_action_mask[b]))
        lines.append(f"P{cur} to decide: {DECISION_NAMES[d]} [{legal}]")
    return "\n".join(lines)
