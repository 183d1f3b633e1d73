"""Text rendering of one Vaults game (everything, or what one player may see)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core.render import counts_text
from . import components as C

if TYPE_CHECKING:
    from .kernel import Vaults, VaultsState

PHASES = ("setup", "draw/bailout", "planning", "jobs", "hideout")


def _vault(v: int, face: bool) -> str:
    p, m, e = C.VAULT_COMBO[v]
    if not face:
        return f"{p}/{m}/{e}"
    front = f"£{C.VAULT_VALUE[v]}" if C.VAULT_SUCCESS[v] else "Fail"
    return f"{p}/{m}/{e} {front}"


def _crew(game: Vaults, st: VaultsState, b: int, q: int, k: int) -> str:
    cr = st.crew[b, q, k]
    boss = [C.CARD_NAMES[t] for t in range(C.N_BOSS) if cr[t]]
    mem = counts_text(cr[C.MEMBER0:C.TOOL0], C.CARD_NAMES[C.MEMBER0:C.TOOL0])
    tools = counts_text(cr[C.TOOL0:], C.CARD_NAMES[C.TOOL0:C.DISRUPT0])
    sk = game.crew_skills(cr, st.mods[b, q, k])
    flags = ("spent " if st.spent[b, q, k] else "") + ("blocked" if st.blocked[b, q, k] else "")
    return (f"  crew {k}: {{{boss[0] if boss else '-'} | {mem} | {tools}}} "
            f"skills {sk[0]}/{sk[1]}/{sk[2]} {flags}".rstrip())


def render_text(game: Vaults, st: VaultsState, b: int = 0, player: int | None = None) -> str:
    """All of game b (player=None) or what `player` may see."""
    N = game.num_players
    dec = C.DECISIONS[int(st.dec[b])]
    lines = [f"Vaults: turn {int(st.turns_total[b]) + 1}, player {int(st.active[b])} active, "
             f"phase {PHASES[int(st.phase[b])]}, {int(st.actions[b])} actions; goal "
             f"£{game.goal}; main deck {int(st.deck_len[b])}, disrupt deck "
             f"{int(st.ddeck_len[b])}"]
    if st.terminated[b] or st.truncated[b]:
        lines.append(f"Game over: loot {st.loot[b].tolist()}")
    else:
        lines.append(f"Pending: {dec} for player {int(st.owner[b])}")
    for j in range(3):
        ln = int(st.vpub_len[b, j])
        if ln == 0:
            lines.append(f"Public pile {j + 1}: empty")
            continue
        top = int(st.vpub[b, j, ln - 1])
        face = player is None or bool(st.known_face[b, player, top])
        lines.append(f"Public pile {j + 1}: {ln} vaults, top {_vault(top, face)}")
    pc = [C.CARD_NAMES[int(t)] for t in st.pchar[b, :int(st.pc_len[b])][::-1]]
    pt = [C.CARD_NAMES[int(t)] for t in st.ptool[b, :int(st.pt_len[b])][::-1]]
    lines.append(f"Police characters (top first): {', '.join(pc) or '-'}")
    lines.append(f"Police tools (top first): {', '.join(pt) or '-'}")
    for q in range(N):
        hand = st.hand[b, q]
        if player is None or player == q:
            htxt = counts_text(hand, C.CARD_NAMES)
        else:
            htxt = (f"{int(hand.sum())} cards ({int(hand[C.DISRUPT0:].sum())} disrupts), known: "
                    + counts_text(st.known[b, q], C.CARD_NAMES))
        vl = int(st.vpriv_len[b, q])
        piles = ", ".join(_vault(int(v), True) for v in st.vpriv[b, q, :vl][::-1]) or "-"
        lines.append(f"Player {q}: loot £{int(st.loot[b, q])}; vaults (top first): {piles}")
        lines.append(f"  hand: {htxt}")
        ex = st.crew[b, q, :int(st.crews_used[b, q]), :C.TOOL0].any(-1)
        for k in np.flatnonzero(ex):
            lines.append(_crew(game, st, b, q, int(k)))
    return "\n".join(lines)
