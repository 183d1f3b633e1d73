"""Shared helpers for the Vaults tests: invariants and batched random play."""

from __future__ import annotations

import numpy as np
from heistbench.envs.vaults import components as C
from heistbench.envs.vaults.kernel import Vaults, VaultsState


def count_types(arr: np.ndarray, length: np.ndarray, n_types: int) -> np.ndarray:
    """Per-game type counts of the first `length` entries of stacks arr [B, M]."""
    B, M = arr.shape
    live = np.arange(M)[None, :] < length[:, None]
    out = np.zeros((B, n_types), np.int64)
    np.add.at(out, (np.broadcast_to(np.arange(B)[:, None], arr.shape)[live],
                    arr[live].astype(np.int64)), 1)
    return out


def check_invariants(game: Vaults, st: VaultsState) -> None:
    """Conservation of every card and vault, crew limits, loot and known-card bookkeeping, the
    bound on the crew slots in use."""
    B = st.batch_size
    setup = st.dec == C.D["BOSS_CHOICE"]
    crew_cards = (count_types(st.deck, st.deck_len, 44) + st.hand[:, :, :44].sum(1)
                  + st.crew.sum((1, 2)) + count_types(st.pchar, st.pc_len, 44)
                  + count_types(st.ptool, st.pt_len, 44))
    cip = (st.card_in_play >= 0) & (st.card_in_play < 44)
    crew_cards[np.flatnonzero(cip), st.card_in_play[cip]] += 1
    ok = ~setup
    assert (crew_cards[ok] == C.COPIES[None, :44]).all(), "crew cards not conserved"
    dis = count_types(st.ddeck, st.ddeck_len, 10) + st.hand[:, :, 44:].sum(1) + st.dused
    assert (dis == 2).all(), "disrupts not conserved"
    vaults = count_types(st.vpub.reshape(B, 27), np.full(B, 27), 27) * 0
    for j in range(3):
        vaults += count_types(st.vpub[:, j], st.vpub_len[:, j], 27)
    for q in range(game.num_players):
        vaults += count_types(st.vpriv[:, q], st.vpriv_len[:, q], 27)
    assert (vaults == 1).all(), "vaults not conserved"
    cr = st.crew.astype(np.int64)
    assert (cr[..., :12].sum(-1) <= 1).all() and (cr[..., 12:32].sum(-1) <= 4).all()
    assert (cr[..., 32:].sum(-1) <= 3).all()
    exists = cr[..., :32].sum(-1) > 0
    assert (cr[..., 32:].sum(-1)[~exists] == 0).all(), "tools without a crew"
    for q in range(game.num_players):
        pos = np.arange(27)[None, :] < st.vpriv_len[:, q, None]
        v = st.vpriv[:, q].astype(np.int64)
        loot = (pos * C.VAULT_VALUE[v] * C.VAULT_SUCCESS[v]).sum(1)
        assert (loot == st.loot[:, q]).all(), "loot differs from the Success vaults kept"
    assert (st.known <= st.hand).all() and (st.known >= 0).all() and (st.hand >= 0).all()
    live = ~st.done
    assert st.legal_action_mask[live].any(1).all(), "empty mask in a live game"
    if game.auto_forced:  # the rules settle forced decisions, but a holder is always asked
        forced = live & (st.legal_action_mask.sum(1) == 1) & ~game.asked_always(st)
        assert not forced.any(), "a forced decision is pending"
    flags = st.spent | st.blocked | st.mods.any(-1)
    exists = st.crew[..., :32].any(-1)
    assert not (flags & ~exists).any(), "flags or modifiers on a slot without a crew"
    top = np.where(exists.any(-1), exists.shape[-1] - exists[..., ::-1].argmax(-1), 0)
    assert (st.crews_used == top).all(), "crews_used is not one past the highest crew"


def random_play(game: Vaults, seeds: np.ndarray, check_every: int = 0,
                rng_seed: int = 0, max_steps: int = 200000) -> VaultsState:
    """Play uniformly random legal actions until every game is over."""
    st = game.init(seeds)
    r = np.random.default_rng(rng_seed)
    n = 0
    while not st.done.all() and n < max_steps:
        m = st.legal_action_mask
        u = r.random(len(m))
        cum = m.cumsum(1)
        tot = np.maximum(cum[:, -1], 1)
        a = (cum <= (u * tot).astype(np.int64)[:, None]).sum(1)
        game.step(st, np.minimum(a, game.num_actions - 1))
        n += 1
        if check_every and n % check_every == 0:
            check_invariants(game, st)
    return st


def scenario(game: Vaults, seed: int = 0, hands: dict | None = None,
             crews: dict | None = None, piles: dict | None = None,
             private: dict | None = None, police_char: list | None = None,
             police_tool: list | None = None, deck_top: list | None = None,
             deck_len: int | None = None, loot: list | None = None,
             ddeck: list | None = None, dused: dict | None = None) -> VaultsState:
    """A batch-of-one state at the start of player 0's turn with the given cards.

    hands {p: [types]}, crews {(p, k): [types]}, piles {i: [vault ids bottom -> top]},
    private {p: [vault ids bottom -> top]}, Police piles bottom -> top, deck_top [first drawn,
    ...]. Arrays not named keep the seeded deal, emptied of hands, crews and the Police station.
    """
    st = game.init(seed)
    while st.dec[0] == C.D["BOSS_CHOICE"]:
        game.step(st, np.array([game.A_OPT]))
    for name in ("hand", "known", "crew", "spent", "blocked", "mods", "police_count",
                 "vpriv_len", "loot", "over", "stack", "slen"):
        getattr(st, name)[:] = 0
    st.pc_len[:] = st.pt_len[:] = 0
    for p, cards in (hands or {}).items():
        for t in cards:
            st.hand[0, p, t] += 1
    for (p, k), cards in (crews or {}).items():
        for t in cards:
            st.crew[0, p, k, t] += 1
    for i, vs in (piles or {}).items():
        st.vpub[0, i, :len(vs)] = vs
        st.vpub_len[0, i] = len(vs)
    for p, vs in (private or {}).items():
        st.vpriv[0, p, :len(vs)] = vs
        st.vpriv_len[0, p] = len(vs)
        st.revealed[0, vs] = True
        st.loot[0, p] = int((C.VAULT_VALUE[vs] * C.VAULT_SUCCESS[vs]).sum())
    for pile, plen, cards in ((st.pchar, st.pc_len, police_char), (st.ptool, st.pt_len,
                                                                  police_tool)):
        for t in cards or []:
            pile[0, plen[0]] = t
            plen[0] += 1
            st.police_count[0, t] += 1
    if deck_len is not None:
        st.deck_len[0] = deck_len
    for j, t in enumerate(deck_top or []):
        st.deck[0, st.deck_len[0] - 1 - j] = t
    if loot is not None:
        st.loot[0] = loot
    if ddeck is not None:
        st.ddeck[0, :len(ddeck)] = ddeck
        st.ddeck_len[0] = len(ddeck)
    if dused is not None:
        st.dused[0] = 0
        for d, c in dused.items():
            st.dused[0, d] = c
    st.turns_total[:] = 0
    st.turns_taken[:] = 0
    st.card_in_play[:] = -1
    st.crack_target[:] = -1
    st.first_player[:] = 0
    st.active[:] = st.owner[:] = 0  # the start of player 0's turn
    st.actions[:] = C.ACTIONS_PER_TURN
    st.phase[:] = 1
    st.draw_source[:] = 0
    st.can_draw[:] = st.hand[:, 0].sum(1) < C.HAND_LIMIT
    st.dec[:] = C.D["MAIN"]
    game.refresh_masks(st)
    return st


def legal(st: VaultsState) -> set[int]:
    return set(np.flatnonzero(st.legal_action_mask[0]).tolist())


def play(game: Vaults, st: VaultsState, *actions: int) -> VaultsState:
    for a in actions:
        assert st.legal_action_mask[0, a], (a, game.action_name(a), sorted(legal(st)))
        game.step(st, np.array([a]))
    return st


def top_char(st: VaultsState) -> int:
    return int(st.pchar[0, st.pc_len[0] - 1])


def top_tool(st: VaultsState) -> int:
    return int(st.ptool[0, st.pt_len[0] - 1])


def top_private(st: VaultsState, p: int) -> int:
    return int(st.vpriv[0, p, st.vpriv_len[0, p] - 1])
