"""The Big Score's observation and action layouts (data), and the observation encoder.

Seats in observations are relative: slot 0 is the observer, slot 1 the player on his left,
and so on; slots beyond the number of players are zero with `present = 0`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from heistbench.envs.big_score import components as C
from heistbench.envs.core import ActionLayout, ActionRange, Block, Field, ObservationLayout
from heistbench.envs.core.buffers import BufferPool

if TYPE_CHECKING:
    from numpy_kernel import BigScoreGame, BigScoreState

SLOTS = 6  # relative seats in every observation, whatever the player count
DECISIONS = 10


def build_observation_layout() -> ObservationLayout:
    F = Field

    def H(name: str, size: int, doc: str) -> Field:  # one-hot
        return Field(name, size, doc, onehot=True)

    return ObservationLayout([
        H("meta.num_players", 6, "player count 1..6"),
        F("meta.flags", 3, "simple variant, expert abilities on, Inside Man on"),
        F("meta.pass_left", 1, "1 if this round's draft passes left (rounds 1 and 3)"),
        F("meta.draft_step", 1, "picks made this round", 8),
        F("meta.missing_icons", 1, "icons still missing on the job being resolved", 6),
        F("meta.act2_round", 1, "Act II round (clipped at 30)", 30),
        H("meta.stage", 6, "setup, round 1, round 2, round 3, Act II, game over"),
        H("meta.decision", DECISIONS, "decision pending for this agent: none, boss_option, "
          "draft, assign, joat, rob_flee, muscle, trade, gun_steal, grease_steal"),
        H("meta.resolving_job", 6, "job position being resolved (JoAT window)"),
        Block("job", 6, (
            F("req", 6, "crew icons per type", 3),
            F("cash", 1, "cash reward ($10K)", 5),
            H("token", 4, "reward token: Artifact, Diamond, Hard Drive, none"),
            H("status", 5, "empty, open, success, failed, unattempted"),
            F("pile", 6, "revealed pile per crew type (with the Inside Man card)", 6),
            F("contrib", SLOTS, "cards revealed per relative seat", 6),
            F("joat", SLOTS, "JoAT tokens revealed per relative seat", 2),
            H("inside_man", 6, "crew type of the Inside Man card"),
        ), "the job at position i+1 this round"),
        Block("player", SLOTS, (
            F("present", 1, "slot occupied"),
            F("first_player", 1, "holds the First Player Marker"),
            F("cash", 1, "cash tokens ($10K)", 100),
            F("payout", 3, "Act I Artifacts, Diamonds, Hard Drives", 10),
            H("boss_token", 3, "payout token of the boss board's starting option"),
            F("boss_cash", 1, "cash of the boss board's starting option ($10K)", 10),
            H("boss_choice", 2, "starting option taken: token, cash"),
            F("joat", 1, "unused JoAT tokens", 2),
            H("training_type", 6, "crew type of the last revealed Training pile"),
            F("training_count", 1, "its size", 3),
            F("hand_size", 1, "cards held now (draft hand or cards to assign)", 12),
            F("picks", 1, "cards drafted this round", 9),
            H("ability", 6, "Expert Ability"),
            F("ability_used", 1, "once-per-game ability spent"),
            H("act2_status", 3, "in the vault, fled, busted (none before Act II)"),
            F("vault_pile", 9, "Act II loot held per token type", 10),
            H("last_draw", 10, "token revealed this Act II round (9 loot types, Cops)"),
            F("committed", 1, "has made its secret choice in the open window"),
        ), "relative seat i (0 = me, 1 = the player on my left, ...)"),
        F("vault.cops_on_track", 1, "Cops tokens on the track", 7),
        F("vault.cops_to_bust", 1, "Cops tokens still needed to bust", 7),
        F("vault.floor", 9, "Vault Floor per loot type", 5),
        F("vault.bag", 10, "vault bag per token type (public by counting)", 10),
        F("vault.bag_total", 1, "tokens in the bag", 62),
        F("vault.p_cop", 1, "chance that one draw is a Cops token"),
        F("cards.crew_revealed", 12, "crew cards revealed face-up this game per kind", 15),
        F("cards.jobs_seen", 24, "job ids dealt face-up so far"),
        F("cards.crew_deck_left", 1, "cards left in the crew deck", 90),
        H("me.current_card", 12, "kind I am assigning now"),
        F("me.hand", 12, "my hand per kind (draft hand held, or cards still to assign)", 9),
        F("me.picks", 12, "my picks this round per kind", 9),
        H("me.pending_pick", 12, "kind I picked in the open draft window"),
        F("me.assign_job", 36, "my cards assigned [position x crew type]", 6),
        F("me.assign_training", 6, "my Training pile this round per type", 3),
        F("me.assign_unassigned", 6, "my Unassigned pile per type", 9),
        F("me.returned", 12, "training cards that came back to my hand this round", 3),
        H("me.pending_rob_flee", 2, "my secret choice this round: rob, flee"),
        H("me.pending_joat", 3, "my secret JoAT choice: 0, 1, 2"),
        F("me.score_now", 1, "my score ($10K) if the game ended now, all Act II loot safe",
          300),
        F("me.value_at_risk", 1, "what my Act II loot adds to that score", 300),
    ])


def _draft_label(k: int) -> str:
    return f"draft {C.KIND_NAMES[k]}"


def build_action_layout() -> ActionLayout:
    R = ActionRange
    loot = C.TOKEN_NAMES[:C.NUM_LOOT]
    return ActionLayout([
        R("DRAFT_PICK", 12, _draft_label, "take one card of this kind from the hand I hold"),
        R("ASSIGN_JOB", 6, lambda i: f"assign card -> job {i + 1}",
          "send the current card to job position 1..6 (its type's icon must be on the job)"),
        R("ASSIGN_TRAINING", 1, lambda i: "assign card -> training",
          "current Expert card to Training (same type, at most 3)"),
        R("ASSIGN_UNASSIGNED", 1, lambda i: "assign card -> unassigned",
          "current card left unassigned (discarded face-down at cleanup)"),
        R("JOAT_REVEAL", 3, lambda i: f"reveal {i} JoAT", "reveal 0, 1 or 2 JoAT tokens"),
        R("ROB", 1, lambda i: "rob the vault", "draw one token from the vault"),
        R("FLEE", 1, lambda i: "flee the vault", "leave with my loot"),
        R("BOSS_TOKEN", 1, lambda i: "take the boss board's token", "starting option: token"),
        R("BOSS_CASH", 1, lambda i: "take the boss board's cash", "starting option: cash"),
        R("MUSCLE_STEAL", 1, lambda i: "Muscle: steal the marker",
          "take the First Player Marker"),
        R("MUSCLE_PASS", 1, lambda i: "Muscle: don't steal", "keep the ability"),
        R("TRADE_PASS", 1, lambda i: "keep the drawn token", "no trade this round"),
        R("TRADE_TAKE", 9, lambda i: f"trade for {loot[i]}",
          "swap the token just drawn for a Floor token of this type"),
        R("CONMAN_TRADE", 81, lambda i: f"Con Man: give {loot[i // 9]}, take {loot[i % 9]}",
          "id 39 + 9*give + take: trade an earlier vault token instead"),
        R("GUN_DECLINE", 1, lambda i: "Gun Man: don't steal", "keep the ability"),
        R("GUN_STEAL", 9, lambda i: f"Gun Man: steal {loot[i]}", "take a Floor token"),
        R("GREASE_STEAL", 9, lambda i: f"Grease Man: steal {loot[i]}",
          "on fleeing, take a Floor token"),
    ])


def _pairs(x: np.ndarray) -> np.ndarray:
    """Counts per crew type from counts per kind (regular + Expert) on the last axis."""
    return x[..., 0::2] + x[..., 1::2]


class Encoder:
    """Builds the raw integers of the layout with few array operations (this is the hot path
    of every step); the core's `ObservationLayout.encode` scales them and expands one-hots.

    Every seat's public row is built once, in the layout's own column order, and one gather
    turns the rows into the observer's relative slots; the observer's private fields are
    gathered from his own seat; large intermediates live in pooled buffers. Fields that only
    Act II, a boss-option window or a JoAT window can set are computed only for batches that
    hold such a game (zeros otherwise).
    """

    def __init__(self, game: BigScoreGame):
        self.game = game
        self.pool = BufferPool()
        self.layout = lay = game.base_observation_layout
        self.n = n = game.num_players
        jobs = game.jobs
        self.job_raw = np.zeros((25, 11), np.int16)  # job id (-1 = none) -> req, cash, token
        self.job_raw[:24, :6] = jobs.req
        self.job_raw[:24, 6] = jobs.cash
        self.job_raw[:24, 7] = 1 + jobs.token
        self.job_raw[24, 7] = 4
        col = {name: lay.slice_of(name).start for name in lay.names}
        self.p_cop = col["vault.p_cop"]
        self.player_block = (col["vault.cops_on_track"] - col["player.present"]) // SLOTS
        self.public = self.player_block + 12  # + cards and JoAT revealed per job position
        # me -> the seat in each relative slot (slots past the player count are empty)
        self.rel_table = (np.arange(n)[:, None] + np.arange(SLOTS)[None, :]) % n
        self.rel_table[:, n:] = 0  # (their row comes from `slot_base` alone)
        self.seats = np.arange(n)
        self.job_width = (col["player.present"] - col["job.req"]) // 6
        # boss board -> its starting option as the layout has it: token one-hot, cash
        self.boss_row = np.zeros((6, 4), np.int16)
        self.boss_row[:, 0] = 1 + game.boss_token
        self.boss_row[:, 3] = game.boss_cash
        self.head = np.zeros(9, np.int16)  # meta.num_players, meta.flags
        self.head[0] = n
        self.head[6:] = [game.simple, bool(game.ability_on.any()), game.inside_man]
        # columns that are zero unless a game of the batch is in Act II
        self.act2_width = col["player.committed"] - col["player.ability"]
        self.vault_width = col["cards.crew_revealed"] - col["vault.cops_on_track"]
        self._consts: dict[int, dict[str, np.ndarray]] = {}
        import numpy_kernel as K

        self.K = K
        self.pass_left = np.isin(np.arange(6), (K.ROUND1, K.ROUND3))  # by stage

    def consts(self, B: int) -> dict[str, np.ndarray]:
        """Padding blocks and row offsets for a batch size (cached; never written to)."""
        c = self._consts.get(B)
        if c is None:
            if len(self._consts) > 8:
                self._consts.clear()
            n, Z = self.n, lambda *shape: np.zeros(shape, np.int16)  # noqa: E731
            present = np.arange(SLOTS) < n
            c = self._consts[B] = {
                "one": np.ones((B, n, 1), np.int16), "base": np.arange(B) * n,
                # row of the seat in relative slot j = slot_base + rel[me]; B * n: empty
                "slot_base": np.where(present, np.arange(B)[:, None] * n, B * n),
                "z1": Z(B, n, 1), "z2": Z(B, n, 2), "z5": Z(B, n, 5), "z9": Z(B, n, 9),
                "no_act2": Z(B, n, self.act2_width), "j4": Z(B, 6, 4), "j5": Z(B, 6, 5),
                "head": np.broadcast_to(self.head, (B, 9)), "m5": Z(B, 5), "m9": Z(B, 9),
                "m11": Z(B, 11), "m1": Z(B, 1), "m2": Z(B, 2),
                "vault": Z(B, self.vault_width), "zero": Z(B)}
        return c

    def __call__(self, s: BigScoreState, me: np.ndarray) -> np.ndarray:
        K, g, n = self.K, self.game, self.n  # noqa: N806
        B = s.batch_size
        k = self.consts(B)
        acting = s.current_player == me
        # Act II, a boss-option window and JoAT windows need work of their own: only done
        # where the batch has them (at a batch of one, most steps have none of them)
        vault = bool(s.stage.max() >= K.ACT2)
        decisions = np.bincount(s.phase, minlength=DECISIONS).astype(bool).tolist()
        seats = self.seats
        # per seat, the public row: the layout's player block, then the cards and JoAT tokens
        # revealed per job position. Starting options show once the fists open (but my own),
        # this round's draws likewise, a JoAT fist only to its owner (the private fields)
        choice = s.boss_choice + 1
        if decisions[K.BOSS_OPTION]:
            choice = choice * ((s.phase != K.BOSS_OPTION)[:, None] | (seats == me[:, None]))
        hand = s.hands + s.ahand
        z1, z5 = k["z1"], k["z5"]
        if vault:
            act2 = s.stage >= K.ACT2
            a2 = act2[:, None]
            drawn = (s.drawn + 1) * (act2 & (s.phase != K.ROB_FLEE))[:, None]
            first = ((seats == s.first_player[:, None]) & a2)[..., None]
            act2_cols = [s.ability[..., None] + 1, z5, s.ability_used[..., None],
                         ((s.status + 1) * a2)[..., None], k["z2"], s.vault_pile,
                         drawn[..., None], k["z9"]]
        else:
            first, act2_cols = z1, [k["no_act2"]]
        # large intermediates go into pooled buffers: fresh ones would cost page faults
        rows = self.pool.empty((B * n + 1, self.public), np.int16)
        rows[-1] = 0  # the row of an empty slot
        np.concatenate([
            k["one"], first, s.cash[..., None], s.payout, self.boss_row.take(s.boss, axis=0),
            choice[..., None], z1, s.joat[..., None], s.train_public[..., :1] + 1, z5,
            s.train_public[..., 1:], hand.sum(axis=2, dtype=np.int16)[..., None],
            s.picks.sum(axis=2, dtype=np.int16)[..., None], *act2_cols, s.committed[..., None],
            s.contrib, s.joat_rev], axis=2, out=rows[:-1].reshape(B, n, -1))
        # one gather: every observer's six relative slots
        slots = k["slot_base"] + self.rel_table.take(me, axis=0)
        public = rows.take(slots.reshape(-1), axis=0,
                           out=self.pool.empty((B * SLOTS, self.public), np.int16))
        public = public.reshape(B, SLOTS, -1)
        # my private cards and choices
        mine = k["base"] + me
        own = lambda x: x.reshape(B * n, *x.shape[2:]).take(mine, axis=0)  # noqa: E731
        pb = self.player_block
        revealed = public[:, :, pb:self.public]
        jobs = self.pool.empty((B, 6, self.job_width), np.int16)
        np.concatenate([
            self.job_raw.take(s.jobs, axis=0), (s.job_status + 1)[..., None], k["j4"],
            s.pile, revealed[:, :, :6].transpose(0, 2, 1), revealed[:, :, 6:].transpose(0, 2, 1),
            (s.inside + 1)[..., None], k["j5"]], axis=2, out=jobs)
        col = lambda x: x[:, None]  # noqa: E731
        if decisions[K.JOAT]:
            fists = s.phase == K.JOAT
            resolving = (s.cur_job + 1) * fists
            joat_shown = (own(s.joat_pending) + 1) * (fists & own(s.committed))
        else:
            resolving = joat_shown = k["zero"]
        if vault:
            bag = s.bag * a2
            total = bag.sum(axis=1)
            vault_cols = [col(s.cops_track), col((g.cops_to_bust - s.cops_track) * act2),
                          s.vault_floor, bag, col(total), k["m1"]]
            act2_round, rob_flee = np.minimum(s.act2_round, 30), own(s.rob_pending) + 1
            score_now, at_risk = self.score_now(s, me)
        else:  # Act I: no vault, and the score is the one the kernel keeps
            vault_cols = [k["vault"]]
            act2_round, rob_flee = s.act2_round, k["zero"]
            score_now, at_risk = own(s.act1_score), k["zero"]
        raw = self.pool.empty((B, self.layout.size), np.int16)
        np.concatenate([
            k["head"], col(self.pass_left.take(s.stage)), col(s.draft_step), col(s.missing),
            col(act2_round), col(s.stage + 1), k["m5"], col(s.phase * acting + 1), k["m9"],
            col(resolving), k["m5"], jobs.reshape(B, -1), public[:, :, :pb].reshape(B, -1),
            *vault_cols, s.crew_revealed, s.jobs_seen, col(C.CREW_DECK_SIZE - s.crew_ptr),
            col((s.cur_kind + 1) * acting), k["m11"], own(hand), own(s.picks),
            col(own(s.pick_pending) + 1), k["m11"], _pairs(own(s.assign)).reshape(B, 48),
            own(s.returned), col(rob_flee), k["m1"], col(joat_shown), k["m2"], col(score_now),
            col(at_risk)], axis=1, out=raw)
        out = self.layout.encode(raw, self.pool.empty((B, self.layout.size)))
        if vault:
            out[:, self.p_cop] = bag[:, C.COPS] / np.maximum(total, 1)
        return out

    def score_now(self, s: BigScoreState, me: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """My score if the game ended now (all Act II loot safe), and what my loot adds."""
        B = s.batch_size
        ar = np.arange(B)
        g = self.game
        in_act2 = s.stage == self.K.ACT2
        held = ((s.drawn >= 0) & (s.drawn < C.NUM_LOOT) & ~s.banked & (s.status == 0)
                & (in_act2 & (s.phase != self.K.ROB_FLEE))[:, None])
        extra = np.zeros(s.vault_pile.shape, np.int16)
        b, p = np.nonzero(held)
        extra[b, p, s.drawn[b, p]] = 1
        now = g.total_score(s, extra)[ar, me]
        extra[ar, me] = -s.vault_pile[ar, me]
        return now, now - g.total_score(s, extra)[ar, me]
