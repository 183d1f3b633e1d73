"""The Big Score's observation and action layouts (data), and the observation encoder.

Seats in observations are relative: slot 0 is the observer, slot 1 the player on his left,
and so on; slots beyond the number of players are zero with `present = 0`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core import ActionLayout, ActionRange, Block, Field, ObservationLayout
from ..core.buffers import BufferPool
from . import components as C

if TYPE_CHECKING:
    from .kernel import BigScoreGame, BigScoreState

SLOTS = 6  # relative seats in every observation, whatever the player count
DECISIONS = 10


def build_observation_layout() -> ObservationLayout:
    F = Field

    def H(name: str, size: int, doc: str) -> Field:  # one-hot
        return Field(name, size, doc, onehot=True)

    return ObservationLayout([
        H("meta.num_players", 6, "player count 1..6"),
        F("meta.flags", 3, "simple variant, expert abilities on, Inside Man on"),
        H("meta.stage", 6, "setup, round 1, round 2, round 3, Act II, game over"),
        H("meta.decision", DECISIONS, "decision pending for this agent: none, boss_option, "
          "draft, assign, joat, rob_flee, muscle, trade, gun_steal, grease_steal"),
        F("meta.pass_left", 1, "1 if this round's draft passes left (rounds 1 and 3)"),
        F("meta.draft_step", 1, "picks made this round", 8),
        H("meta.resolving_job", 6, "job position being resolved (JoAT window)"),
        F("meta.missing_icons", 1, "icons still missing on that job", 6),
        F("meta.act2_round", 1, "Act II round (clipped at 30)", 30),
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
        F("me.hand", 12, "my hand per kind (draft hand held, or cards still to assign)", 9),
        F("me.picks", 12, "my picks this round per kind", 9),
        H("me.pending_pick", 12, "kind I picked in the open draft window"),
        F("me.assign_job", 36, "my cards assigned [position x crew type]", 6),
        F("me.assign_training", 6, "my Training pile this round per type", 3),
        F("me.assign_unassigned", 6, "my Unassigned pile per type", 9),
        F("me.returned", 12, "training cards that came back to my hand this round", 3),
        H("me.current_card", 12, "kind I am assigning now"),
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
    """Writes the raw integers of the layout with a few block writes; the core's
    `ObservationLayout.encode` scales them and expands the one-hots (the hot path)."""

    def __init__(self, game: BigScoreGame):
        self.game = game
        self.pool = BufferPool()
        self.layout = lay = game.base_observation_layout
        self.n = game.num_players
        jobs = game.jobs
        self.job_raw = np.zeros((25, 11), np.int16)  # job id (-1 = none) -> req, cash, token
        self.job_raw[:24, :6] = jobs.req
        self.job_raw[:24, 6] = jobs.cash
        self.job_raw[:24, 7] = 1 + jobs.token
        self.job_raw[24, 7] = 4
        self.col = {name: lay.slice_of(name).start for name in lay.names}
        self.job_block = self.col["player.present"] - self.col["job.req"]
        self.job_block //= 6
        self.player_block = (self.col["vault.cops_on_track"] - self.col["player.present"]) // 6
        self.flags = np.array([game.simple, bool(game.ability_on.any()), game.inside_man],
                              np.int16)
        self._pads: dict[tuple[int, ...], np.ndarray] = {}

    def _zeros(self, *shape: int) -> np.ndarray:
        """Cached all-zero padding blocks (read-only) for the one-hot and empty slots."""
        z = self._pads.get(shape)
        if z is None:
            if len(self._pads) > 64:
                self._pads.clear()
            z = self._pads[shape] = np.zeros(shape, np.int16)
        return z

    def __call__(self, s: BigScoreState, me: np.ndarray) -> np.ndarray:
        """Raw integers in layout order with one concatenation, then the layout's encode."""
        from .kernel import ACT2, BOSS_OPTION, JOAT, ROB_FLEE, TRAINING, UNASSIGNED

        g, n, Z = self.game, self.n, self._zeros
        B = s.batch_size
        ar = np.arange(B)
        mine = ar * n + me  # row of my seat in arrays flattened over (game, seat)
        rel = (me[:, None] + np.arange(n)[None, :]) % n  # slot -> seat
        rel_rows = (ar[:, None] * n + rel).ravel()
        act2 = s.stage >= ACT2
        acting = s.current_player == me
        joat_window = s.phase == JOAT
        col = lambda x: x[:, None]  # noqa: E731
        rows = lambda x: np.take(x.reshape(B * n, *x.shape[2:]), mine, axis=0)  # noqa: E731
        # per seat (public), turned into relative slots with one gather
        drawn = np.where((s.phase == ROB_FLEE)[:, None] | ~act2[:, None], -1, s.drawn)
        z1, z2, z5 = Z(B, n, 1), Z(B, n, 2), Z(B, n, 5)
        # starting options open together: until then only my own choice is shown
        hidden = (s.phase == BOSS_OPTION)[:, None] & (np.arange(n) != me[:, None])
        boss_choice = np.where(hidden, -1, s.boss_choice)
        seat = np.concatenate([
            z1 + 1, ((np.arange(n) == s.first_player[:, None]) & act2[:, None])[..., None],
            s.cash[..., None], s.payout, (1 + np.take(C.BOSS_TOKEN, s.boss))[..., None], z2,
            (1 + boss_choice)[..., None], z1, s.joat[..., None],
            1 + s.train_public[..., :1], z5, s.train_public[..., 1:],
            (s.hands + s.ahand).sum(axis=2, dtype=np.int16)[..., None],
            s.picks.sum(axis=2, dtype=np.int16)[..., None], 1 + s.ability[..., None], z5,
            s.ability_used[..., None], np.where(act2[:, None], s.status + 1, 0)[..., None], z2,
            s.vault_pile, (drawn + 1)[..., None], Z(B, n, 9), s.committed[..., None],
            s.contrib, s.joat_rev], axis=2, dtype=np.int16)
        by_slot = np.take(seat.reshape(B * n, -1), rel_rows, axis=0).reshape(B, n, -1)
        pb = self.player_block
        players = np.concatenate([by_slot[:, :, :pb], Z(B, 6 - n, pb)], axis=1)
        contrib = np.concatenate([by_slot[:, :, pb:pb + 6], Z(B, 6 - n, 6)], axis=1)
        joat = np.concatenate([by_slot[:, :, pb + 6:], Z(B, 6 - n, 6)], axis=1)
        jobs = np.concatenate([
            np.take(self.job_raw, s.jobs, axis=0), (s.job_status + 1)[..., None], Z(B, 6, 4),
            s.pile, contrib.transpose(0, 2, 1), joat.transpose(0, 2, 1),
            (s.inside + 1)[..., None], Z(B, 6, 5)], axis=2, dtype=np.int16)
        bag = s.bag * act2[:, None]
        total = bag.sum(axis=1)
        assigned = _pairs(rows(s.assign))
        score_now, at_risk = self.score_now(s, me)
        raw = np.concatenate([
            # meta
            np.broadcast_to(np.int16(n), (B, 1)), Z(B, 5), np.broadcast_to(self.flags, (B, 3)),
            col(s.stage + 1), Z(B, 5), col(np.where(acting, s.phase, 0) + 1), Z(B, 9),
            col((s.stage == 1) | (s.stage == 3)), col(s.draft_step),
            col(np.where(joat_window, s.cur_job + 1, 0)), Z(B, 5), col(s.missing),
            col(np.minimum(s.act2_round, 30)),
            jobs.reshape(B, -1), players.reshape(B, -1),
            # vault and public card memory
            col(s.cops_track), col((g.cops_to_bust - s.cops_track) * act2), s.vault_floor, bag,
            col(total), Z(B, 1), s.crew_revealed, s.jobs_seen,
            col(C.CREW_DECK_SIZE - s.crew_ptr),
            # me (private)
            rows(s.hands) + rows(s.ahand), rows(s.picks), col(rows(s.pick_pending) + 1),
            Z(B, 11), assigned[:, :6].reshape(B, 36), assigned[:, TRAINING],
            assigned[:, UNASSIGNED], rows(s.returned),
            col(np.where(acting, s.cur_kind + 1, 0)), Z(B, 11), col(rows(s.rob_pending) + 1),
            Z(B, 1), col(np.where(joat_window & rows(s.committed), rows(s.joat_pending) + 1,
                                  0)), Z(B, 2), col(score_now), col(at_risk)],
            axis=1, dtype=np.int16)
        out = self.layout.encode(raw, self.pool.zeros((B, self.layout.size)))
        out[:, self.col["vault.p_cop"]] = bag[:, C.COPS] / np.maximum(total, 1)
        return out

    def score_now(self, s: BigScoreState, me: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """My score if the game ended now (all Act II loot safe), and what my loot adds."""
        from .kernel import ACT2, ROB_FLEE

        B = s.batch_size
        ar = np.arange(B)
        g = self.game
        if not (s.stage == ACT2).any():  # no Act II loot anywhere in the batch
            return g.total_score(s)[ar, me], np.zeros(B, np.int64)
        held = ((s.drawn >= 0) & (s.drawn < C.NUM_LOOT) & ~s.banked & (s.status == 0)
                & ((s.stage == ACT2) & (s.phase != ROB_FLEE))[:, None])
        extra = np.zeros(s.vault_pile.shape, np.int16)
        b, p = np.nonzero(held)
        extra[b, p, s.drawn[b, p]] = 1
        now = g.total_score(s, extra)[ar, me]
        extra[ar, me] = -s.vault_pile[ar, me]
        return now, now - g.total_score(s, extra)[ar, me]
