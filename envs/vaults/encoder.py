"""The Vaults observation encoder: raw integers laid out like the observation, scaled once.

Every value of the observation is a small integer (a count, a flag or a one-hot index) put
through a fixed function. The encoder writes those integers into one int8 matrix in the
layout's own column order -- every seat's block is built once in absolute seat order and one
gather turns them into the observer's relative seats -- then turns it into float32 with one
division by a per-column divisor (2 for counts by type, 1 for flags and one-hots, the field's
scale elsewhere, with the integers clipped where the field is min(1, x / d)). A float32
division of a small integer gives exactly the float32 of the float64 quotient for every value
these fields take (a multiply by a rounded reciprocal would not).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core.buffers import BufferPool
from . import components as C

if TYPE_CHECKING:
    from .kernel import Vaults, VaultsState

_SKILLS_EXISTS = np.concatenate([C.SKILLS.astype(np.float32),
                                 C.IS_CHAR[:, None].astype(np.float32)], 1)


class Encoder:
    """Builds `Vaults._observe` for one game configuration."""

    def __init__(self, game: Vaults):
        self.game = game
        lay = game._layout
        self.size = S = lay.size
        self.N = N = game.num_players
        self.K = K = game.K
        col = lambda name, i=0: lay.slice_of(name, i).start  # noqa: E731
        self.col = {name: col(name) for name in lay.names}
        self.seat0 = col("player.hand_size")
        self.seat_w = W = col("player.hand_size", 1) - self.seat0
        self.crew0 = col("player.crew0") - self.seat0  # offset of the crews in a seat block
        div = np.ones(S, np.float32)

        def put(cols: slice | list[int] | int, d: float) -> None:
            div[cols] = d

        for name in ("my_hand", "my_hand_known", "police_counts", "disrupt_used", "overloads"):
            put(lay.slice_of(name), 2)
        put(col("goal"), C.TOTAL_LOOT)
        put(col("main_deck"), C.DECK_SIZE)
        put(col("disrupt_deck"), C.DISRUPT_DECK_SIZE)
        put(col("turn"), 300)
        put(col("actions_left"), 6)
        put([col("public_piles") + 11 * j for j in range(3)], 9)
        put(lay.slice_of("unrevealed_by_group"), 3)
        put(lay.slice_of("crack_skills"), 30)
        put(lay.slice_of("crack_combo"), 10)
        put(col("window") + 2, N)
        for r in range(N):
            s = self.seat0 + r * W
            put(s, 10)  # hand size
            put(s + 1, 5)  # disrupts
            put(slice(s + 2, s + 56), 2)  # known hand
            put(s + 56, game.goal)  # loot
            put(s + 57, 27)  # vault count
            put(s + 86, 8)  # fails
            put(slice(s + 87, s + 114), 27)  # vault pile depths
            put(s + 114, 300)  # turns taken
            for k in range(K):
                c = s + self.crew0 + 53 * k
                put(slice(c + 13, c + 45), 2)  # members and tools
                put(slice(c + 45, c + 48), 30)  # skills
                put(slice(c + 50, c + 53), 12)  # modifiers + 6
        self.div = div
        self.goal_value = np.float32(game.goal) / np.float32(C.TOTAL_LOOT)
        self.loot_cols = self.seat0 + 56 + W * np.arange(N)
        self.turn_cols = self.seat0 + 114 + W * np.arange(N)
        assert col("player.vault_pile") == self.seat0 + 87
        assert col("player.turns_taken") == self.seat0 + 114
        # decisions during which the chosen player / crew of an effect is shown
        D = C.D
        self.tp_pending = np.zeros(len(C.DECISIONS), bool)
        self.tp_pending[[D["TARGET_CREW"], D["TARGET_CARD"], D["TARGET_SKILL"], D["DEST_CREW"],
                         D["FAIL_CARD"]]] = True
        self.tc_pending = np.zeros(len(C.DECISIONS), bool)
        self.tc_pending[[D["TARGET_CARD"], D["TARGET_SKILL"], D["DEST_CREW"], D["FAIL_CARD"],
                         D["SWAP_CARD"]]] = True
        self.pool = BufferPool()
        self._consts: dict[int, dict[str, np.ndarray]] = {}
        # fixed one-hot columns
        self.c_np = col("num_players") + N - 2
        self.phase_col = col("phase") + np.clip(np.arange(8) - 1, 0, 3)  # phase -> column
        from .kernel import WIN_ACTION, WIN_CRACK

        self.win_crack, self.win_action = WIN_CRACK, WIN_ACTION

    def consts(self, B: int) -> dict[str, np.ndarray]:
        c = self._consts.get(B)
        if c is None:
            if len(self._consts) > 8:
                self._consts.clear()
            N, S = self.N, self.size
            c = self._consts[B] = {
                "b": np.arange(B), "rowS": np.arange(B)[:, None] * S,
                "base27": np.arange(B * N).reshape(B, N) * 27,
                "base9": np.arange(B * 3).reshape(B, 3) * 9,
                "base52": np.arange(B)[:, None] * 52, "base24": np.arange(B)[:, None] * 24,
                "c_np": np.full((B, 1), self.c_np),
                "bN": np.arange(B)[:, None] * N, "rel": np.arange(N)[None, :],
                "raw": np.zeros((B, S), np.int8),
                "R": np.zeros((B, N, self.seat_w), np.int8)}
        return c

    def loot_view(self, out: np.ndarray, offset: int = 56) -> np.ndarray:
        """[B,N] view of every relative seat's loot column (or the column at `offset`)."""
        s0 = self.seat0 + offset
        return out[:, s0:s0 + self.N * self.seat_w].reshape(out.shape[0], self.N,
                                                            self.seat_w)[:, :, 0]

    def __call__(self, st: VaultsState, seats: np.ndarray) -> np.ndarray:
        g = self.game
        B, N, K, S, W = st.batch_size, self.N, self.K, self.size, self.seat_w
        col = self.col
        k = self.consts(B)
        b, rowS = k["b"], k["rowS"]
        me = seats.astype(np.int64)
        raw, R = k["raw"], k["R"]
        s0, s1 = self.seat0, self.seat0 + N * W  # the seat blocks come from `rel` below
        raw[:, :s0] = 0
        raw[:, s1:] = 0
        # -- every seat's block, in absolute seat order ---------------------------------------
        hand = st.hand
        R[..., 0] = np.minimum(hand.sum(-1, dtype=np.int16), 10)
        R[..., 1] = np.minimum(hand[..., C.DISRUPT0:].sum(-1, dtype=np.int16), 5)
        R[..., 2:56] = st.known
        R[..., 56] = 0  # loot (beyond int8) is written after the division
        vl = st.vpriv_len
        R[..., 57] = vl
        pos = np.arange(27, dtype=np.int16)[None, None, :] < vl[..., None]
        R[..., 86] = (pos & ~C.VAULT_SUCCESS[st.vpriv]).sum(-1, dtype=np.int16)
        vt = st.vpriv.reshape(-1).take(k["base27"] + np.maximum(vl - 1, 0))
        R[..., 58:86] = 0
        hot = np.where(vl > 0, vt, 27).astype(np.int64) + 58
        R.reshape(-1, W)[np.arange(B * N), hot.reshape(-1)] = 1
        # the whole pile, in order: each vault's depth from the top (1 = top, 0 = absent)
        R[..., 87:115] = 0  # and turns taken (beyond int8), written after the division
        bi, qi, ti = np.nonzero(pos)
        R[bi, qi, 87 + st.vpriv[bi, qi, ti].astype(np.int64)] = vl[bi, qi] - ti
        crew = st.crew
        sk = crew.astype(np.float32) @ _SKILLS_EXISTS  # [B,N,K,4] skills, characters
        mods = st.mods
        rc = R[..., self.crew0:self.crew0 + 53 * K].reshape(B, N, K, 53)
        rc[..., 0] = sk[..., 3] > 0
        rc[..., 1:45] = crew
        x = sk[..., :3].astype(np.int16)
        x += mods
        np.maximum(x, 0, out=x)
        np.minimum(x, 30, out=rc[..., 45:48])
        rc[..., 48] = st.spent
        rc[..., 49] = st.blocked
        x = mods.astype(np.int16)
        x += 6
        np.maximum(x, 0, out=x)
        np.minimum(x, 12, out=rc[..., 50:53])
        # relative seats: one gather
        idx = k["bN"] + (me[:, None] + k["rel"]) % N  # [B,N]
        rel = R.reshape(B * N, W).take(idx.reshape(-1), axis=0).reshape(B, N, W)
        rel[:, 0, 2:56] = hand[b, me]  # my own hand is known to me
        # -- global fields --------------------------------------------------------------------
        raw[:, col["main_deck"]] = st.deck_len
        raw[:, col["disrupt_deck"]] = st.ddeck_len
        raw[:, col["actions_left"]] = np.minimum(st.actions, 6)
        raw[:, col["can_draw"]] = st.can_draw
        raw[:, col["my_hand"]:col["my_hand"] + 54] = rel[:, 0, 2:56]
        raw[:, col["my_hand_known"]:col["my_hand_known"] + 54] = st.known[b, me]
        ln = st.vpub_len
        tops = st.vpub.reshape(-1).take(k["base9"] + np.maximum(ln - 1, 0)).astype(np.int64)
        pp = col["public_piles"]
        raw[:, pp:pp + 33:11] = ln
        raw[:, col["revealed"]:col["revealed"] + 27] = st.revealed
        rv = st.revealed.view(np.int8)
        raw[:, col["unrevealed_by_group"]:col["unrevealed_by_group"] + 9] = (
            3 - (rv[:, 0::3] + rv[:, 1::3] + rv[:, 2::3]))
        c = col["police_counts"]
        raw[:, c:c + 44] = st.police_count
        c = col["disrupt_used"]
        raw[:, c:c + 10] = st.dused
        c = col["overloads"]
        raw[:, c:c + 12] = st.over
        raw[:, col["key_used"]] = st.key_used
        raw[:, col["window"]] = st.win_kind == self.win_crack
        raw[:, col["window"] + 1] = st.win_kind == self.win_action
        raw[:, col["window"] + 2] = st.win_passes
        # one-hots that are always set
        j3 = np.arange(3)
        i = st.pc_len.astype(np.int64)[:, None] - 1 - j3  # [B,3]
        tc = np.where(i >= 0, st.pchar.reshape(-1).take(k["base52"] + np.maximum(i, 0)), 32)
        i = st.pt_len.astype(np.int64)[:, None] - 1 - j3
        tt = np.where(i >= 0, st.ptool.reshape(-1).take(k["base24"] + np.maximum(i, 0)) - C.TOOL0,
                      12)
        kf = st.known_face.reshape(B, -1)[b[:, None], me[:, None] * 27 + tops]
        grp = np.where(ln > 0, C.VAULT_GROUP[tops], 9)
        always = np.concatenate([
            k["c_np"],
            (col["active_player"] + (st.active - me) % N)[:, None],
            (col["first_player"] + (st.first_player - me) % N)[:, None],
            (col["draw_source"] + st.draw_source.astype(np.int64))[:, None],
            col["public_piles"] + 11 * j3 + 1 + grp,
            col["police_tops"] + 33 * j3 + tc,
            col["police_tops"] + 99 + 13 * j3 + tt,
        ], 1)
        flat = raw.reshape(-1)
        flat[(rowS + always).reshape(-1)] = 1
        # one-hots with a condition (the flag is written at the index)
        cond_idx = np.concatenate([
            self.phase_col.take(st.phase)[:, None],
            col["my_peeks"] + 28 * j3 + np.where(kf, tops, 27),
            (col["effect"] + st.effect.astype(np.int64))[:, None],
            (col["decision"] + st.dec.astype(np.int64))[:, None],
            (col["card_in_play"] + np.maximum(st.card_in_play, 0).astype(np.int64))[:, None],
            (col["target_player"] + (st.tgt_player - me) % N)[:, None],
            (col["target_crew"] + st.tgt_crew.astype(np.int64))[:, None],
        ], 1)
        cond_val = np.concatenate([
            (st.phase > 0)[:, None], ln > 0, (st.effect > 0)[:, None],
            (st.owner == me)[:, None], (st.card_in_play >= 0)[:, None],
            self.tp_pending[st.dec][:, None], self.tc_pending[st.dec][:, None]], 1)
        flat[(rowS + cond_idx).reshape(-1)] = cond_val.reshape(-1)
        setup = st.dec == C.D["BOSS_CHOICE"]
        if setup.any():
            mine = setup & (st.boss_pick[b, me] < 0)
            rows = np.flatnonzero(mine)
            off = st.boss_offer[rows, me[rows]].astype(np.int64)
            raw[rows[:, None], col["my_boss_offer"] + off] = 1
        cracking = st.crack_target >= 0
        gc = np.flatnonzero(cracking)
        if gc.size:
            raw[gc, col["crack_crew"] + st.crack_crew[gc].astype(np.int64)] = 1
            t = st.crack_target[gc].astype(np.int64)  # 0-2 public, 3.. offset from active
            q = st.active[gc].astype(np.int64) + t - 2  # the target pile's owner (if t >= 3)
            t = np.where(t < 3, t, 3 + (q - me[gc]) % N)  # offset from me
            raw[gc, col["crack_target"] + t] = 1
            cs = col["crack_skills"]
            raw[gc, cs:cs + 3] = np.minimum(g._crack_skills(st, gc), 30)
            t = g._target_tops(st, gc)[np.arange(gc.size), st.crack_target[gc]]
            raw[gc, cs + 3:cs + 6] = C.VAULT_COMBO[np.maximum(t, 0)] * (t >= 0)[:, None]
        # -- float32: one multiply, then the table columns ------------------------------------
        out = self.pool.empty((B, S), np.float32)  # small batches bypass the pool
        div = self.div
        np.divide(raw[:, :s0], div[:s0], out=out[:, :s0])
        np.divide(rel.reshape(B, N * W), div[s0:s1], out=out[:, s0:s1])
        np.divide(raw[:, s1:], div[s1:], out=out[:, s1:])
        # fields beyond int8: the goal, the turn count, every seat's loot
        out[:, col["goal"]] = self.goal_value
        np.divide(np.minimum(st.turns_total, 300), div[col["turn"]], out=out[:, col["turn"]])
        loot = np.minimum(st.loot.reshape(-1).take(idx), g.goal)  # [B,N] relative seats
        np.divide(loot, div[self.loot_cols], out=self.loot_view(out))
        turns = np.minimum(st.turns_taken.reshape(-1).take(idx), 300)
        np.divide(turns, div[self.turn_cols], out=self.loot_view(out, 114))
        return out
