"""Text rendering of one game of The Big Score (public table, plus a seat's private view)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core.render import counts_text, table
from . import components as C

if TYPE_CHECKING:
    from .kernel import BigScoreGame, BigScoreState

STAGES = ("Setup", "Act I round 1", "Act I round 2", "Act I round 3", "Act II", "Game over")
STATUS = ("", "open", "success", "failed", "unattempted")
ACT2_STATUS = ("in vault", "fled", "busted")


def render_text(game: BigScoreGame, s: BigScoreState, b: int = 0,
                player: int | None = None) -> str:
    """Everything public about game b; with `player`, also that seat's private cards (with
    None, every seat's private cards: the full state)."""
    from .kernel import ACT2, DECISION_NAMES, OVER

    n = game.num_players
    lines = [f"The Big Score — {STAGES[s.stage[b]]}, {n} players"]
    if s.stage[b] != OVER:
        lines.append(f"To act: player_{s.current_player[b]} ({DECISION_NAMES[s.phase[b]]})")
    if ACT2 > s.stage[b] > 0:
        rows = []
        for p in range(6):
            j = int(s.jobs[b, p])
            if j < 0:
                continue
            tok = C.PAYOUT_NAMES[game.jobs.token[j]]
            need = counts_text(game.jobs.req[j], C.CREW_TYPES)
            pile = counts_text(s.pile[b, p], C.CREW_TYPES, "")
            rows.append([p + 1, game.jobs.names[j], f"${game.jobs.cash[j]}0K + {tok}", need,
                         STATUS[s.job_status[b, p]], pile])
        lines += ["", table(["#", "job", "payout", "needs", "status", "revealed pile"], rows)]
    if (s.last_jobs[b] >= 0).any():
        rows = []
        for p in range(6):
            j = int(s.last_jobs[b, p])
            sent = ", ".join(f"player_{q}: {s.last_contrib[b, q, p]}"
                             + (f" + {s.last_joat_rev[b, q, p]} JoAT"
                                if s.last_joat_rev[b, q, p] else "")
                             for q in range(n) if s.last_contrib[b, q, p])
            rows.append([p + 1, game.jobs.names[j], STATUS[s.last_status[b, p]],
                         counts_text(s.last_pile[b, p], C.CREW_TYPES, ""), sent or "-"])
        lines += ["", "Last round's reveals:",
                  table(["#", "job", "outcome", "revealed pile", "cards sent"], rows)]
    rows = []
    score = game.scores(s[b])[0]
    for p in range(n):
        ab = int(s.ability[b, p])
        row = [f"player_{p}", C.BOSS_NAMES[s.boss[b, p]], f"${s.cash[b, p]}0K",
               counts_text(s.payout[b, p], C.PAYOUT_NAMES), int(s.joat[b, p]),
               (C.CREW_TYPES[ab] + (" (used)" if s.ability_used[b, p] else "")) if ab >= 0
               else "-", score[p]]
        if s.stage[b] >= ACT2:
            row += [ACT2_STATUS[s.status[b, p]] + (" *" if s.first_player[b] == p else ""),
                    counts_text(s.vault_pile[b, p], C.TOKEN_NAMES)]
        rows.append(row)
    head = ["seat", "boss", "cash", "payout tokens", "JoAT", "ability", "score"]
    if s.stage[b] >= ACT2:
        head += ["vault (* = first player)", "vault loot"]
    lines += ["", table(head, rows)]
    if s.stage[b] >= ACT2:
        lines += ["", f"Cops track: {s.cops_track[b]}/{game.cops_to_bust}   "
                  f"Vault Floor: {counts_text(s.vault_floor[b], C.TOKEN_NAMES)}",
                  f"Bag: {counts_text(s.bag[b], C.TOKEN_NAMES)}"]
    seats = range(n) if player is None else [player]
    for p in seats:
        private = s.hands[b, p] + s.ahand[b, p]
        if s.stage[b] < ACT2 and s.stage[b] > 0:
            assigned = [f"job {t + 1}: {counts_text(s.assign[b, p, t], C.KIND_NAMES)}"
                        for t in range(6) if s.assign[b, p, t].any()]
            if s.assign[b, p, 6].any():
                assigned.append(f"training: {counts_text(s.assign[b, p, 6], C.KIND_NAMES)}")
            lines += ["", f"player_{p} hand: {counts_text(private, C.KIND_NAMES)}",
                      f"player_{p} picks: {counts_text(s.picks[b, p], C.KIND_NAMES)}"]
            if assigned:
                lines.append(f"player_{p} assigned: " + "; ".join(assigned))
    if s.stage[b] == OVER:
        win = np.flatnonzero(game.winners(s[b])[0])
        lines += ["", "Winner(s): " + ", ".join(f"player_{w}" for w in win)]
    return "\n".join(lines)


def render_solo(game, s, b: int = 0) -> str:
    """The solo table of game b: what the player sees (the face-down jobs he has not scouted
    stay face-down), his hand and money, the vault."""
    from .solo_kernel import DECISION_NAMES, OBJECTIVES, SCENARIO_TITLES

    sc, stage = int(s.scenario[b]), int(s.stage[b])
    lines = [f"The Big Score solo — {SCENARIO_TITLES[sc]} — {STAGES[stage]}",
             f"Objective: {OBJECTIVES[sc]}"]
    if s.phase[b]:
        lines.append(f"To decide: {DECISION_NAMES[s.phase[b]]}")
    lines.append(f"Cash ${int(s.cash[b])}0K · payout "
                 f"{counts_text(s.payout[b], C.PAYOUT_NAMES, 'none')} · jobs done "
                 f"{int(s.jobs_done[b])} · take ${int(game.scores(s[b])[0, 0])}0K")
    if 0 < stage < 4:
        lines.append(f"Hand: {counts_text(s.hand[b], C.CREW_TYPES, 'empty')} · decks "
                     f"{'/'.join(str(int(x)) for x in s.deck_len[b])}"
                     + (f" · JoAT {int(s.joat[b])}" if s.joat[b] else ""))
        rows = []
        for p in range(6):
            j = int(s.jobs[b, p])
            if j < 0:
                continue
            hidden = s.face_down[b, p] and not s.scouted[b, p]
            name = "(face-down)" if hidden else game.jobs.names[j]
            pay = "" if hidden else (f"${game.jobs.cash[j]}0K + "
                                     f"{C.PAYOUT_NAMES[game.jobs.token[j]]}")
            need = "" if hidden else counts_text(game.jobs.req[j], C.CREW_TYPES)
            on = counts_text(s.placed[b, p], C.CREW_TYPES, "")
            if s.joat_on[b, p]:
                on += f" +{int(s.joat_on[b, p])} JoAT"
            toks = counts_text(s.job_tokens[b, p], C.TOKEN_NAMES, "")
            rows.append([p + 1, name, pay, need, on, toks])
        if rows:
            lines.append(table(["pos", "job", "pays", "needs", "placed", "tokens"], rows))
    if stage >= 4 or s.robberies[b]:
        lines.append(f"Vault: Cops {int(s.cops_track[b])}/5 · loot "
                     f"{counts_text(s.vault_pile[b], C.TOKEN_NAMES, 'none')} · drawn "
                     f"{counts_text(s.drawn[b], C.TOKEN_NAMES, 'none')}")
    if s.row[b].any():
        row = [f"{C.CREW_TYPES[t]}: {counts_text(s.row_tokens[b, t], C.TOKEN_NAMES, '-')}"
               for t in range(6) if s.row[b, t]]
        lines.append("Crew row: " + "; ".join(row))
    return "\n".join(lines)
