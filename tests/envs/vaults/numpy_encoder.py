"""The Vaults observation encoder: raw integers laid out like the observation, scaled once.

Every value of the observation is a small integer (a count, a flag or a one-hot index) put
through a fixed function. The encoder writes those integers into one int8 matrix in the
layout's own column order -- every seat's block is built once in absolute seat order and one
scatter puts them at the observer's relative seats (straight into the matrix, where a gather
would go through a temporary); what only the observer sees (its hand, known hand and peeks) is
kept per seat as one block and copied with one take -- then turns it into float32 with a
division by a per-column divisor (2 for counts by type, 1 for flags and one-hots, the field's
scale elsewhere, with the integers clipped where the field is min(1, x / d)). A float32
division of a small integer gives exactly the float32 of the float64 quotient for every value
these fields take (a multiply by a rounded reciprocal would not). The values beyond int8 (loot,
turns, the goal) and the other scalars of a game are gathered together (a few NumPy calls fewer
for a small batch) and written into each chunk of the output between its cast and its division:
they are small integers, exact in float32 too.

Every one-hot is a table lookup: the state's small integers (relative seats, pile tops, the
pending decision combined with its owner, ...) index one constant table of output columns,
and one scatter sets them all. A value that shows nothing maps to the `goal` column, which the
goal itself overwrites before the division. Outside the kept parts the int8 matrix is zero
between calls: each call clears the few ones it set, which touches far fewer bytes than zeroing
those columns.

The hands, the crews, the vault piles, the public piles (with every seat's peeks at them) and
the Police station change far less often than the turn does, so each is rebuilt only where its
inputs changed since the last call: for a large batch, the seat rows, crew slots or games that
changed, found by comparing kept copies a word at a time; for a small one (the AEC env, where
every NumPy call costs about the same whatever its size), all of it or nothing. The int8 matrix
keeps the seat blocks and the observer's hand and peeks where the last call put them, so a large
batch puts again only those of games whose observer changed and those rebuilt. A call that fails
part way drops what it kept, and the next one builds everything afresh.
"""

from __future__ import annotations

from itertools import accumulate
from typing import TYPE_CHECKING

import numpy as np
from heistbench.envs.core.buffers import BufferPool
from heistbench.envs.vaults import components as C

if TYPE_CHECKING:
    from .numpy_kernel import Vaults, VaultsState

SEAT_HAND, SEAT_VAULTS, SEAT_TOP, SEAT_FAILS, SEAT_PILE = 2, 57, 58, 86, 87  # seat block
MINE = 192  # my_hand, my_hand_known and my_peeks, per seat
CHUNK = 3 << 16  # values converted to float32 at a time (whole rows: 81 at 4 players)
SMALL_BATCH = 16  # batches up to this size keep the parts that did not change
# the state fields each kept part of the int8 matrices is built from
PART_INPUTS = {"hands": ("hand", "known"), "piles": ("vpriv", "vpriv_len"),
               "crews": ("crew", "spent", "blocked", "mods"),
               "public": ("vpub", "vpub_len", "revealed", "known_face"),
               "police": ("police_count", "pchar", "pc_len", "ptool", "pt_len", "dused")}
INPUT_NAMES = [name for names in PART_INPUTS.values() for name in names]
INPUT_SPANS = {part: (end - len(names), end)  # where each part's inputs are in INPUT_NAMES
               for (part, names), end in zip(PART_INPUTS.items(),
                                             accumulate(map(len, PART_INPUTS.values())))}


def _changed_parts(k: dict, st: VaultsState) -> dict[str, bool]:
    """For a small batch (the AEC env): which parts' inputs differ from the last call's, from
    one pass over the bytes of all of them (most steps change few: these parts change far less
    often than the turn does)."""
    now = [getattr(st, name).tobytes() for name in INPUT_NAMES]
    last = k.get("inputs")
    k["inputs"] = now
    return {part: last is None or now[a:b] != last[a:b] for part, (a, b) in INPUT_SPANS.items()}


def _stale_rows(k: dict, st: VaultsState, part: str, n: int) -> np.ndarray | slice | None:
    """Rows (of the n that its inputs [n, ...] have) of `part` to rebuild: all of them the first
    time, then those whose inputs changed since the last call (None if none did). Small
    batches compare all rows at once (`_changed_parts`, fewer NumPy calls), large ones row by
    row: in a batch step few games change their crews or vault piles."""
    if k["R"].shape[0] <= SMALL_BATCH:
        return slice(None) if k["changed"][part] else None
    inputs = [getattr(st, name) for name in PART_INPUTS[part]]
    last = k.get(part + " inputs")
    if last is None:
        k[part + " inputs"] = [a.copy() for a in inputs]
        return slice(None)
    changed = np.zeros(n, bool)
    for a, b in zip(inputs, last):
        _mark_changed(changed, a, b)
    rows = np.flatnonzero(changed)
    return rows if rows.size else None


def _mark_changed(changed: np.ndarray, a: np.ndarray, b: np.ndarray) -> None:
    """Mark in `changed` [n] the rows where a and b [n, ...] differ, and bring b up to a (only
    the words that differ: few, against a copy of all of b). Compared a word at a time: 8
    bytes where rows are at least that long (a word across two rows marks both), else the
    widest word that divides a row -- far fewer elements than a per-row reduction over a short
    last axis."""
    a, b = a.reshape(-1).view(np.uint8), b.reshape(-1).view(np.uint8)
    row = a.size // changed.size  # bytes
    w = 8 if row >= 8 and a.size % 8 == 0 else min(row & -row, 8)
    a, b = a.view(f"u{w}"), b.view(f"u{w}")
    at = np.flatnonzero(a != b)
    b[at] = a[at]
    at *= w
    changed[at // row] = True
    changed[(at + w - 1) // row] = True


def _flags(n: int, rows: np.ndarray | slice | None) -> np.ndarray:
    """bool [n]: the rows `rows` (all for a slice, none for None)."""
    f = np.zeros(n, bool)
    if rows is not None:
        f[rows] = True
    return f


def _product(x: np.ndarray, table: np.ndarray) -> np.ndarray:
    """x [n,k] @ table [k,m] in float32, as a stack of 8-row products: one large 2-D product
    would start BLAS threads, which stall for milliseconds when the cores are busy."""
    n, k = x.shape
    buf = np.zeros((-(-n // 8), 8, k), np.float32)
    buf.reshape(-1, k)[:n] = x
    return (buf @ table).reshape(-1, table.shape[1])[:n]


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
        assert col("player.vault_pile") - self.seat0 == SEAT_PILE
        assert col("my_peeks") + 84 - col("my_hand") == MINE
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
        self.players_col = col("num_players") + N - 2  # a constant one-hot
        # the values put apart from the int8 matrix (beyond int8, or one per game): every
        # relative seat's loot and turns taken, then the scalars of `tail_state` and the goal,
        # each capped where its field is min(1, x / d) (the other scalars are small counts and
        # flags); `tail_at` says where they are among the values `__call__` gathers
        scalars = [("turns_total", col("turn"), 300), ("deck_len", col("main_deck"), None),
                   ("ddeck_len", col("disrupt_deck"), None), ("actions", col("actions_left"), 6),
                   ("can_draw", col("can_draw"), None), ("key_used", col("key_used"), None),
                   ("win_passes", col("window") + 2, None),
                   (None, col("goal"), None)]  # state field (the goal last), column, cap
        self.tail_state = tuple(name for name, _, _ in scalars[:-1])
        self.tail_cols = np.concatenate((self.seat0 + 56 + W * np.arange(N),
                                         self.seat0 + 114 + W * np.arange(N),
                                         [c for _, c, _ in scalars]))
        self.tail_caps = np.array([game.goal] * N + [300] * N
                                  + [cap or 1 << 15 for _, _, cap in scalars])
        # hand size and disrupts per seat: sums over the hand, capped
        self.hand_sums = np.zeros((54, 2), np.float32)
        self.hand_sums[:, 0] = 1
        self.hand_sums[C.DISRUPT0:, 1] = 1
        self.hand_caps = np.array([10, 5], np.float32)
        self.depth = np.arange(27, dtype=np.int16)
        self.is_fail = (~C.VAULT_SUCCESS).astype(np.int8)
        # per crew slot, from its cards, modifiers, spent and blocked flags side by side: its
        # characters (it exists iff it has one) and the columns after its cards (skills plus
        # modifiers, spent, blocked, modifiers + 6), then clipped
        table = np.zeros((44 + 5, 9), np.float32)
        table[:44, 0] = C.IS_CHAR
        table[:44, 1:4] = C.SKILLS
        table[44:47, 1:4] = table[44:47, 6:9] = np.eye(3)
        table[47, 4] = table[48, 5] = 1
        self.crew_table = table
        self.crew_shift = np.array([0] * 6 + [6] * 3, np.float32)
        self.crew_caps = np.array([1, 30, 30, 30, 1, 1, 12, 12, 12], np.float32)
        self.table_cols = slice(col("public_piles"), col("disrupt_used") + 10)
        self.police0 = col("police_counts")
        assert self.table_cols.start == self.seat0 + N * W
        self.rotation = (np.arange(N)[:, None] + np.arange(N)) % N  # [me, r] -> seat
        self.relative = self.rotation[-np.arange(N)]  # [me, seat] -> r
        self._build_hot_table()
        self.scalar_rows = len(self.hot_state) + len(scalars)  # one per field, the goal last
        self.tail_step = np.array([N] * 2 * N + [1] * len(scalars))  # from one game to the next
        self.pool = BufferPool()
        self._consts: dict[int, dict[str, np.ndarray]] = {}

    def _build_hot_table(self) -> None:
        """One flat table from (one-hot field, value) to the output column it sets.

        `hot_state` names the state's scalars that `__call__` stacks (the first four become
        seat offsets from the observer, v - me in [-N, N), shifted by N); each table row reads
        one of them, or a combination `dec * m + x` for the fields that show only while a
        decision is pending, or a per-pile value."""
        from .numpy_kernel import WIN_ACTION, WIN_CRACK

        N, K, col = self.N, self.K, self.col
        dump = col["goal"]
        D = C.D
        nd = len(C.DECISIONS)
        tp = np.zeros(nd, bool)
        tp[[D["TARGET_CREW"], D["TARGET_CARD"], D["TARGET_SKILL"], D["DEST_CREW"],
            D["FAIL_CARD"]]] = True
        tc = np.zeros(nd, bool)
        tc[[D["TARGET_CARD"], D["TARGET_SKILL"], D["DEST_CREW"], D["FAIL_CARD"],
            D["SWAP_CARD"]]] = True
        self.hot_state = ("active", "first_player", "tgt_player", "owner", "phase",
                          "draw_source", "effect", "card_in_play", "win_kind", "tgt_crew", "dec")
        segments = []  # (state row, table of columns by value, value shift)

        def seg(row: int, cols, shift: int = 0) -> None:
            segments.append((row, np.asarray(cols, np.int64), shift))

        seat = np.arange(2 * N) % N  # relative seat of v - me + N
        seg(0, col["active_player"] + seat, shift=N)
        seg(1, col["first_player"] + seat, shift=N)
        seg(4, [dump] + [col["phase"] + min(p, 4) - 1 for p in range(1, 128)])
        seg(5, col["draw_source"] + np.arange(3))
        seg(6, [dump] + [col["effect"] + e for e in range(1, C.N_EFFECTS)])
        seg(7, [dump] + [col["card_in_play"] + c for c in range(54)], shift=1)
        win_cols = np.full(128, dump)
        win_cols[WIN_CRACK], win_cols[WIN_ACTION] = col["window"], col["window"] + 1
        seg(8, win_cols)
        # pending-decision fields: value dec * m + x
        seg(3, [col["decision"] + d if r == 0 else dump for d in range(nd) for r in seat],
            shift=N)
        seg(2, [col["target_player"] + r if tp[d] else dump for d in range(nd) for r in seat],
            shift=N)
        seg(9, [col["target_crew"] + t if tc[d] else dump for d in range(nd)
                for t in range(-1, K)], shift=1)
        self.hot_rows = np.array([s[0] for s in segments])
        self.hot_dec = np.array([0] * 7 + [2 * N, 2 * N, K + 1])[:, None]  # multiplier of dec
        # per public pile j: the top vault's group (27 = empty pile); top 3 Police characters
        # (32 = none) and tools (44 = none)
        group = np.append(C.VAULT_GROUP, 9)  # the rows from here on are `public`'s, `police`'s
        for j in range(3):
            segments.append((-1, col["public_piles"] + 11 * j + 1 + group, 0))
        for j in range(3):
            segments.append((-1, col["police_tops"] + 33 * j + np.arange(33), 0))
        for j in range(3):
            tools = np.full(45, col["police_tops"] + 99 + 13 * j)
            tools[C.TOOL0:] += np.arange(13)
            segments.append((-1, tools, 0))
        offsets = np.cumsum([0] + [len(s[1]) for s in segments])
        offset = (offsets[:-1] + [s[2] for s in segments])[:, None]
        self.hot_offset, self.public_offset, self.police_offset = np.split(offset, [10, 13])
        self.hot_table = np.concatenate([s[1] for s in segments])
        # `public` and `police` build their own blocks
        self.hot_table[offsets[10]:offsets[13]] -= self.table_cols.start
        self.hot_table[offsets[13]:] -= self.police0

    def tail_at(self, B: int) -> np.ndarray:
        """[me, .]: where the values apart of game 0 are among the scalars of B games (one row
        of B per field) followed by their loot and turns taken ([B,N] each)."""
        N, rot, rows = self.N, self.rotation, self.scalar_rows
        scalars = (len(self.hot_state) + np.arange(rows - len(self.hot_state))) * B
        return np.concatenate((rows * B + rot, (rows + N) * B + rot,
                               np.broadcast_to(scalars, (N, scalars.size))), 1)

    def consts(self, B: int) -> dict:
        c = self._consts.get(B)
        if c is None:
            if len(self._consts) > 8:
                self._consts.clear()
            N, S, W, K = self.N, self.size, self.seat_w, self.K
            raw = np.zeros((B, S), np.int8)
            raw[:, self.players_col] = 1
            R = np.zeros((B, N, W), np.int8)
            j3 = np.arange(3)
            c = self._consts[B] = {
                "raw": raw, "R": R,
                "seats": raw[:, self.seat0:self.seat0 + N * W].reshape(B, N, W),
                # the same, and R, as [B,N] items of one block each (copied as one piece)
                "seat_items": raw[:, self.seat0:self.seat0 + N * W].view((np.void, W)),
                "R_items": R.reshape(B, N * W).view((np.void, W)),
                "seat_rows": R.reshape(B * N, W),
                "crews": R.reshape(B * N, W)[:, self.crew0:self.crew0 + 53 * K].reshape(
                    B * N, K, 53),
                "slot_at": np.divmod(np.arange(B * N * K), K),  # slot -> (seat row, slot k)
                "b": np.arange(B)[:, None], "bN": np.arange(B) * N, "rowS": np.arange(B) * S,
                "div": np.tile(self.div, (max(min(B, CHUNK // S), 1), 1)),  # one long loop
                "goal": np.full(B, self.game.goal),
                # where `__call__` finds the values apart: [me, .] plus [b, .]
                "tail_at": self.tail_at(B), "tail_b": np.arange(B)[:, None] * self.tail_step,
                "pub_tops": np.arange(B * 3).reshape(B, 3) * 9 - 1,
                "char_tops": np.arange(B)[:, None] * 52 - 1 - j3,
                "tool_tops": np.arange(B)[:, None] * 24 - 1 - j3,
                "mine": np.zeros((B * N, MINE), np.int8)}
        return c

    def rebuild_stale(self, st: VaultsState, k: dict, parts: dict[str, int]) -> dict:
        """Rebuild each kept part (named as its method) over the rows, of the number given,
        whose inputs changed since the last call; returns those rows (or None) by part."""
        stale = {}
        for part, n in parts.items():
            rows = stale[part] = _stale_rows(k, st, part, n)
            if rows is not None:
                getattr(self, part)(st, k, rows)
        return stale

    def moved(self, k: dict, seats: np.ndarray) -> np.ndarray | None:
        """bool [B]: the games whose observer changed since the last call (None: all, for a
        small batch or the first call), whose places in the int8 matrix must all be redone."""
        if len(seats) <= SMALL_BATCH:
            return None
        last, k["seats at"] = k.get("seats at"), seats.copy()
        return None if last is None else seats != last

    def place_seats(self, k: dict, seats: np.ndarray, stale: dict,
                    moved: np.ndarray | None) -> np.ndarray | None:
        """Put every seat's block at its place relative to the observer in the int8 matrix:
        all of them, or only those not there already, those of games whose observer `moved`
        and elsewhere the blocks that were rebuilt (the matrix keeps the others from the last
        call; in a batch step, a game changes one or two). Returns where the observer's own
        block was put (None: everywhere)."""
        if moved is None:
            k["seat_items"][k["b"], self.relative[seats]] = k["R_items"]  # seat q of b to q - me
            return None
        # (rows come as arrays here: a part is rebuilt whole only on a call with nothing kept,
        # and such a call has no `moved` either)
        n = len(seats) * self.N
        todo = _flags(n, stale["hands"]) | _flags(n, stale["piles"])
        if stale["crews"] is not None:
            todo[stale["crews"] // self.K] = True  # crew slot -> its seat row
        todo = todo.reshape(-1, self.N)
        todo[moved] = True
        b, q = todo.nonzero()
        k["seat_items"][b, self.relative[seats[b], q]] = k["R_items"][b, q]
        return todo.reshape(-1)[k["bN"] + seats]

    def place_mine(self, k: dict, my_row: np.ndarray, stale: dict,
                   moved: np.ndarray | None, own: np.ndarray | None) -> None:
        """Copy the observer's hand, known hand and peeks (`mine`, kept per seat row) into the
        int8 matrix, and its hand over its own block's known hand (it knows its hand): for
        every game, or only where the observer `moved`, its hand or the public piles (the
        peeks) changed, or its own block was put again (`own`)."""
        c, seat0 = self.col["my_hand"], k["seats"][:, 0, SEAT_HAND:SEAT_HAND + 54]
        if moved is None:
            k["raw"][:, c:c + MINE] = k["mine"].take(my_row, axis=0)
            seat0[:] = k["raw"][:, c:c + 54]
            return
        todo = _flags(k["mine"].shape[0], stale["hands"])[my_row]
        todo |= moved | _flags(len(moved), stale["public"])
        b = todo.nonzero()[0]
        k["raw"][b, c:c + MINE] = k["mine"].take(my_row[b], axis=0)
        b = (todo | own).nonzero()[0]
        seat0[b] = k["raw"][b, c:c + 54]

    def hands(self, st: VaultsState, k: dict, rows: np.ndarray | slice) -> None:
        """Hand size, disrupts and the known hand of the seat rows `rows`; their hands and
        known hands as they see them."""
        hand = st.hand.reshape(-1, 54)[rows]
        known = st.known.reshape(-1, 54)[rows]
        sums = np.minimum(_product(hand, self.hand_sums), self.hand_caps)
        k["seat_rows"][rows, :SEAT_HAND] = sums
        k["seat_rows"][rows, SEAT_HAND:SEAT_HAND + 54] = known
        k["mine"][rows, :54] = hand
        k["mine"][rows, 54:108] = known

    def piles(self, st: VaultsState, k: dict, rows: np.ndarray | slice) -> None:
        """Vault count, top vault, fails and the whole pile in order, of the seat rows `rows`."""
        vl = st.vpriv_len.reshape(-1)[rows]
        blk = np.zeros((vl.size, SEAT_PILE + 27 - SEAT_VAULTS), np.int8)
        blk[:, 0] = vl
        # each vault of the pile at its id's column, as its depth from the top (1 = top)
        at = np.flatnonzero(self.depth < vl[:, None])  # [row, place in the pile]
        r, t = np.divmod(at, 27)
        vault = st.vpriv.reshape(-1, 27)[rows].reshape(-1)[at]
        blk.reshape(-1)[r * blk.shape[1] + SEAT_PILE - SEAT_VAULTS + vault] = vl[r] - t
        pile = blk[:, SEAT_PILE - SEAT_VAULTS:]
        top = SEAT_TOP - SEAT_VAULTS
        np.equal(pile, 1, out=blk[:, top:top + 27])
        np.equal(vl, 0, out=blk[:, top + 27])
        np.matmul(pile > 0, self.is_fail, out=blk[:, SEAT_FAILS - SEAT_VAULTS])
        k["seat_rows"][rows, SEAT_VAULTS:SEAT_PILE + 27] = blk

    def public(self, st: VaultsState, k: dict, rows: np.ndarray | slice) -> None:
        """The public piles and revealed fronts of the games `rows` (the columns from
        `public_piles` to `police_counts`, the same for every seat), and every seat's
        `my_peeks` for when it observes."""
        col, t0 = self.col, self.table_cols.start
        ln = st.vpub_len[rows]
        n = ln.shape[0]
        blk = np.zeros((n, self.police0 - t0), np.int8)
        c = col["public_piles"] - t0
        blk[:, c:c + 33:11] = ln
        revealed = st.revealed[rows]
        c = col["revealed"] - t0
        blk[:, c:c + 27] = revealed
        c = col["unrevealed_by_group"] - t0
        seen = np.add.reduce(revealed.reshape(n, 9, 3), -1, np.int8)
        np.subtract(3, seen, out=blk[:, c:c + 9])
        t = st.vpub.reshape(-1).take(k["pub_tops"][rows] + ln, mode="wrap")
        tops = np.where(ln > 0, t, 27)  # 27: empty pile
        self.peeks(st, k, rows, tops)
        hot = tops.T + self.public_offset
        blk.reshape(-1)[self.hot_table.take(hot) + np.arange(n) * blk.shape[1]] = 1
        k["raw"][rows, t0:self.police0] = blk

    def police(self, st: VaultsState, k: dict, rows: np.ndarray | slice) -> None:
        """The Police station and the used disrupts of the games `rows` (the columns from
        `police_counts` to `disrupt_used`, the same for every seat)."""
        col, t0 = self.col, self.police0
        pc_len, pt_len = st.pc_len[rows][:, None], st.pt_len[rows][:, None]
        n = pc_len.shape[0]
        blk = np.zeros((n, self.table_cols.stop - t0), np.int8)
        blk[:, :44] = st.police_count[rows]
        c = col["disrupt_used"] - t0
        blk[:, c:c + 10] = st.dused[rows]
        pc = st.pchar.reshape(-1).take(k["char_tops"][rows] + pc_len, mode="wrap")
        pt = st.ptool.reshape(-1).take(k["tool_tops"][rows] + pt_len, mode="wrap")
        j3 = self.depth[:3]
        hot = np.concatenate((np.where(pc_len > j3, pc, 32).T, np.where(pt_len > j3, pt, 44).T),
                             dtype=np.int64)
        hot += self.police_offset
        blk.reshape(-1)[self.hot_table.take(hot) + np.arange(n) * blk.shape[1]] = 1
        k["raw"][rows, t0:self.table_cols.stop] = blk

    def peeks(self, st: VaultsState, k: dict, rows: np.ndarray | slice, tops: np.ndarray) -> None:
        """`my_peeks` of every seat of the games `rows`, tops [n,3] of their public piles:
        per pile, the top vault's column if the seat knows its front, else the pile's
        unknown column (28j + 27); nothing for an empty pile (its one lands in column 84)."""
        t = tops.astype(np.int64)[:, None, :]  # [n,1,3]
        n, N = t.shape[0], self.N
        seat = np.arange(n * N).reshape(n, N, 1)
        known = st.known_face[rows].reshape(-1).take(seat * 27 + np.minimum(t, 26))
        at = np.where(known, t, 27) + 28 * self.depth[:3]
        at = np.where(t < 27, at, 84)
        blk = np.zeros((n * N, 85), np.int8)
        blk.reshape(-1)[at + seat * 85] = 1
        k["mine"].reshape(-1, N, MINE)[rows, :, 108:] = blk[:, :84].reshape(n, N, 84)

    def crews(self, st: VaultsState, k: dict, rows: np.ndarray | slice) -> None:
        """The crew slots `rows` (of all seats' slots in order): exists, cards, skills, spent,
        blocked, modifiers."""
        crew = st.crew.reshape(-1, 44)[rows]
        n = len(crew)
        x = _product(np.concatenate((crew, st.mods.reshape(-1, 3)[rows],
                                     st.spent.reshape(-1, 1)[rows],
                                     st.blocked.reshape(-1, 1)[rows]), -1, dtype=np.int8),
                     self.crew_table)
        x += self.crew_shift
        np.maximum(x, 0, out=x)
        np.minimum(x, self.crew_caps, out=x)
        rc = np.empty((n, 53), np.int8)
        rc[:, 0] = x[:, 0]
        rc[:, 1:45] = crew
        rc[:, 45:] = x[:, 1:]
        seat_row, slot = k["slot_at"]
        k["crews"][seat_row[rows], slot[rows]] = rc

    def __call__(self, st: VaultsState, seats: np.ndarray) -> np.ndarray:
        try:
            return self._encode(st, seats)
        except BaseException:  # the kept parts may be half updated: the next call starts afresh
            self._consts.pop(len(seats), None)
            raise

    def _encode(self, st: VaultsState, seats: np.ndarray) -> np.ndarray:
        g = self.game
        B, N, S = len(seats), self.N, self.size
        col = self.col
        k = self.consts(B)
        raw = k["raw"]
        if B <= SMALL_BATCH:
            k["changed"] = _changed_parts(k, st)
        # -- the seat blocks, relative to me ---------------------------------------------------
        # in absolute seat order; the crews slot by slot (a step changes one or two)
        stale = self.rebuild_stale(st, k, {"hands": B * N, "piles": B * N,
                                           "crews": B * N * self.K})
        moved = self.moved(k, seats)
        own = self.place_seats(k, seats, stale, moved)
        my_row = k["bN"] + seats
        stale.update(self.rebuild_stale(st, k, {"public": B, "police": B}))
        self.place_mine(k, my_row, stale, moved, own)
        # -- global fields ---------------------------------------------------------------------
        c = col["overloads"]
        raw[:, c:c + 12] = st.over
        # -- one-hots: values -> columns through one table, one scatter --------------------------
        h = len(self.hot_state)
        # the scalars field by field, then every seat's loot and turns taken game by game
        wide = np.concatenate([getattr(st, name) for name in self.hot_state + self.tail_state]
                              + [k["goal"], st.loot.reshape(-1), st.turns_taken.reshape(-1)],
                              dtype=np.int64)
        v = wide[:self.scalar_rows * B].reshape(-1, B)
        v[:4] -= seats
        hot = v[self.hot_rows] + v[h - 1] * self.hot_dec
        hot += self.hot_offset
        hot = self.hot_table.take(hot) + k["rowS"]
        raw.reshape(-1)[hot] = 1
        gs = gc = None  # the games in setup, and those with a declared crack
        setup = st.dec == C.D["BOSS_CHOICE"]
        if np.count_nonzero(setup):
            gs = np.flatnonzero(setup & (st.boss_pick.reshape(-1)[my_row] < 0))
            off = st.boss_offer.reshape(B * N, 2)[my_row[gs]].astype(np.int64)
            raw[gs[:, None], col["my_boss_offer"] + off] = 1
        cracking = st.crack_target >= 0
        if np.count_nonzero(cracking):
            gc = np.flatnonzero(cracking)
            me = seats[gc]
            raw[gc, col["crack_crew"] + st.crack_crew[gc].astype(np.int64)] = 1
            t = st.crack_target[gc].astype(np.int64)  # 0-2 public, 3.. offset from active
            q = st.active[gc].astype(np.int64) + t - 2  # the target pile's owner (if t >= 3)
            t = np.where(t < 3, t, 3 + (q - me) % N)  # offset from me
            raw[gc, col["crack_target"] + t] = 1
            cs = col["crack_skills"]
            raw[gc, cs:cs + 3] = np.minimum(g._crack_skills(st, gc), 30)
            t = g._crack_top(st, gc)
            raw[gc, cs + 3:cs + 6] = C.VAULT_COMBO[np.maximum(t, 0)] * (t >= 0)[:, None]
        # -- float32: the cast, the values apart, one division ---------------------------------
        tail = wide.take(k["tail_at"][seats] + k["tail_b"])
        np.minimum(tail, self.tail_caps, out=tail)
        out = np.empty((B, S), np.float32) if B <= SMALL_BATCH else self.pool.empty((B, S))
        chunk = len(k["div"])
        for i in range(0, B, chunk):  # a cast, then a same-type division while in cache:
            o = out[i:i + chunk]  # faster than one mixed-type division
            np.copyto(o, raw[i:i + chunk])
            o[:, self.tail_cols] = tail[i:i + chunk]  # exact in float32 too
            np.divide(o, k["div"][:len(o)], out=o)
        # what was set outside the kept parts is cleared for the next call (a call that fails
        # before this drops the whole matrix: see `__call__`)
        raw.reshape(-1)[hot] = 0
        if gs is not None:
            raw[gs, col["my_boss_offer"]:col["my_boss_offer"] + 12] = 0
        if gc is not None:
            raw[gc, col["crack_crew"]:col["crack_combo"] + 3] = 0
        return out
