"""Determinization: redraw what one player cannot know, keeping everything he can.

Kept: all public state, the player's own cards and choices, the bag's composition (public by
counting). Redrawn: the order of the crew deck and of the unseen jobs, the opponents'
private crew cards (draft hands, picks, cards still to assign, earlier face-down discards),
opponents' pending secret choices, and the future bag draws (a fresh RNG key).
Approximation (documented in the README): opponents' assignment piles that are not yet
revealed keep their true contents, and the redeal does not condition on the draft hands the
player saw earlier in the round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from heistbench.envs.core import rng

if TYPE_CHECKING:
    from numpy_kernel import BigScoreGame, BigScoreState


def resample_hidden(game: BigScoreGame, s: BigScoreState, player: int | np.ndarray,
                    seeds: int | np.ndarray) -> BigScoreState:
    from numpy_kernel import BOSS_OPTION, DRAFT, JOAT, ROB_FLEE

    out = s.copy()
    B, n = s.batch_size, game.num_players
    seats = np.broadcast_to(np.asarray(player, dtype=np.int64), (B,))
    keys = np.broadcast_to(rng.seed_keys(seeds), (B,)).copy()
    gen = [np.random.default_rng(int(k)) for k in keys]
    for b in range(B):
        if s.terminated[b] or s.truncated[b]:
            continue
        r = gen[b]
        me = int(seats[b])
        opp = [q for q in range(n) if q != me]
        # the pool of cards `me` cannot see, and the sizes of the places they lie in
        deck = out.crew_deck[b, out.crew_ptr[b]:].astype(np.int64)
        pool = [np.bincount(deck, minlength=12)]
        fixed_returned = {q: np.minimum(out.ahand[b, q], out.returned[b, q]) for q in opp}
        places = []
        for q in opp:
            for name in ("hands", "picks", "trash"):
                arr = getattr(out, name)[b, q]
                pool.append(arr.copy())
                places.append((name, q, int(arr.sum())))
            free = out.ahand[b, q] - fixed_returned[q]
            pool.append(free.copy())
            places.append(("ahand", q, int(free.sum())))
        counts = np.sum(pool, axis=0)
        cards = np.repeat(np.arange(12), counts)
        r.shuffle(cards)
        pos = 0
        for name, q, size in places:
            dealt = np.bincount(cards[pos:pos + size], minlength=12).astype(np.int8)
            pos += size
            if name == "ahand":
                out.ahand[b, q] = fixed_returned[q] + dealt
            else:
                getattr(out, name)[b, q] = dealt
        out.crew_deck[b, out.crew_ptr[b]:] = cards[pos:]
        # unseen jobs
        jp = int(out.job_ptr[b])
        out.job_deck[b, jp:] = r.permutation(out.job_deck[b, jp:])
        # opponents' pending secret choices in the open window
        phase = int(out.phase[b])
        for q in opp:
            if not out.committed[b, q]:
                continue
            if phase == DRAFT:
                kinds = np.flatnonzero(out.hands[b, q])
                out.pick_pending[b, q] = r.choice(kinds)
            elif phase == JOAT:
                out.joat_pending[b, q] = r.integers(0, out.joat[b, q] + 1)
            elif phase == ROB_FLEE:
                out.rob_pending[b, q] = r.integers(0, 2) if out.bag[b].sum() else 1
            elif phase == BOSS_OPTION:
                out.boss_choice[b, q] = r.integers(0, 2)
        # the partial draft hands other players now hold must still contain their pending pick
    out.key[:] = keys
    out.bag_ptr[:] = 0
    game._refresh(out, np.flatnonzero(~(out.terminated | out.truncated)))
    return out
