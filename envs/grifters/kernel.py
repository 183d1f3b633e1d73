"""Grifters on the compiled core: the `Game` (options, layouts, determinization, text) over
the scalar rules of `rules.py`, which read top to bottom like the rulebook.

The batch state is one structured array of `rules.STATE_FIELDS` records; `GriftersState`
shows each field as a view with the batch axis first (`state.hand` is [B, N, 19]).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from ..core import rng
from ..core.compiled import CompiledGame
from ..core.layout import ActionLayout, ActionRange, Block, Field, ObservationLayout
from ..core.options import Option
from ..core.records import RecordState
from . import components as C
from . import rules as R

# the decision and action ids, for the bots, the renderer and the tests
from .rules import (  # noqa: F401
    A_CARD,
    A_JOB,
    A_NIGHT,
    A_PAIR,
    A_PASS,
    A_PLAYER,
    A_SKILL,
    A_STACK,
    CHOOSE_OPP,
    DECISION_NAMES,
    FALLGUY_PICK,
    FENCE_OTHER,
    FENCE_OWN,
    FF_EXTRA,
    IM_CARD,
    IM_NIGHT,
    MAIN,
    MIDDLEMAN_PICK,
    MM_KEEP,
    NIGHT_NAMES,
    NONE,
    NUM_ACTIONS,
    NUM_DECISIONS,
    PAIRS,
    RUN,
    S_RESAMPLE,
    SNITCH_PAIR,
    SNITCH_PLAYER,
    TEAM_PICK,
    THUG_PARTNER,
    THUG_SKILL,
    TURN_END,
    TURN_START,
    WHEELMAN_NIGHT,
)


class GriftersState(RecordState):
    """A batch of Grifters games: the public fields, then `rules.STATE_FIELDS` (the tableau,
    the supply and the decision context), each a view [B, ...]."""


def _first_player_ok(v: Any) -> bool:
    return v is None or (isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 4)


class GriftersGame(CompiledGame):
    """Grifters for 2-4 players (see the module docstring of grifters_v1 for the rules)."""

    name: ClassVar[str] = "grifters_v1"
    title: ClassVar[str] = "Grifters"
    version: ClassVar[int] = 1
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4)
    score_scale: ClassVar[float] = 25.0
    GAME_OPTIONS: ClassVar[dict[str, Option]] = {
        "first_player": Option(None, "start player seat; None draws it from the game seed "
                               "(the rulebook's 'most recent legal infraction')",
                               check=_first_player_ok, allowed="None or a seat 0..N-1"),
    }
    STATE_FIELDS = R.STATE_FIELDS
    CONFIG_FIELDS = R.CONFIG_FIELDS
    state_cls = GriftersState
    rules_folder = R.HERE

    @classmethod
    def option_spec(cls) -> dict[str, Option]:
        spec = super().option_spec()
        spec["num_players"] = Option(2, "number of players", choices=cls.player_counts)
        return spec

    @classmethod
    def drivers(cls) -> ModuleType:
        return R.DRIVERS

    def _setup(self) -> None:
        n = self.num_players
        fp = self.options["first_player"]
        if fp is not None and fp >= n:
            raise ValueError(f"{self.name}: invalid value {fp!r} for option 'first_player'; "
                             f"allowed: None or a seat 0..{n - 1}")
        self.stacks_in_play = np.array([m <= n for m in C.STACK_MIN_PLAYERS])
        self.observation_layout = _observation_layout(n)
        self.action_layout = _action_layout()

    def _configure(self, c: np.void) -> None:
        fp = self.options["first_player"]
        c["first_player"] = -1 if fp is None else fp

    def default_max_steps(self) -> int:
        return 3000

    # == Game End & Scoring (the tallies are compiled: rules.scores, rules.rank_keys) ==========
    def conserved(self, s: GriftersState) -> dict[str, np.ndarray]:
        """ISK (Coffers, Stashes, Hideout tokens), cards (everywhere) and Jobs in play."""
        isk = (s.coffers.astype(np.int64) + s.stash.sum(axis=1)
               + s.night_isk.sum(axis=(1, 2), dtype=np.int64))
        cards = (s.hand.sum(axis=(1, 2), dtype=np.int64) + s.night.sum(axis=(1, 2, 3),
                                                                      dtype=np.int64)
                 + s.refresh.sum(axis=(1, 2), dtype=np.int64) + s.deck_len
                 + (s.staging.astype(np.int64) + s.discard + s.mm_draw).sum(axis=1))
        return {"isk": isk, "cards": cards, "jobs": (s.job_owner != -2).sum(axis=1)}

    def specialists(self, s: GriftersState) -> np.ndarray:
        """int [B, N]: cards a player holds in hand, Hideout, Refresh Area and staging (the
        tie-breaker; `rules.specialists` is the compiled one the rank keys use). Staging
        belongs to the active player; a finished game has already moved it to Night One."""
        n = (s.hand.sum(axis=2, dtype=np.int64) + s.night.sum(axis=(2, 3), dtype=np.int64)
             + s.refresh.sum(axis=2, dtype=np.int64))
        live = np.flatnonzero(s.current_player >= 0)
        n[live, s.current_player[live]] += s.staging[live].sum(axis=1)
        return n

    # == determinization ===========================================================================
    def resample_hidden(self, state: GriftersState, player: int | np.ndarray,
                        seeds: int | np.ndarray) -> GriftersState:
        """Redeal what `player` cannot know: opponents' unknown hand cards, the deck order,
        Mastermind's buffer (if not theirs); future chance gets a new key from `seeds`."""
        s = state.copy()
        B, N, T = s.batch_size, self.num_players, C.NUM_TYPES
        p = np.broadcast_to(np.asarray(player, np.int64), (B,))
        keys = np.broadcast_to(rng.seed_keys(seeds), (B,)).copy()
        b = np.arange(B)
        cur = s.current_player.astype(np.int64)
        keep_active = (cur != p) & ((s.dec == TEAM_PICK) | (s.dec == FALLGUY_PICK))
        seat = np.arange(N)[None, :]
        redeal = (seat != p[:, None]) & ~(keep_active[:, None] & (seat == cur[:, None]))
        unknown = (s.hand - s.known) * redeal[:, :, None]  # [B,N,T]
        mm = np.where(((cur != p) & ~s.terminated)[:, None], s.mm_draw, 0)
        deck_counts = np.zeros((B, T), np.int64)
        pos = np.arange(C.DECK_SIZE)
        in_deck = pos[None] < s.deck_len[:, None]
        np.add.at(deck_counts, (np.repeat(b, C.DECK_SIZE)[in_deck.ravel()],
                                s.deck.astype(np.int64).ravel()[in_deck.ravel()]), 1)
        pool = deck_counts + unknown.sum(axis=1) + mm
        M = C.DECK_SIZE + 3 * N
        cum = np.cumsum(pool, axis=1)
        slots = np.arange(M)
        types = np.minimum((cum[:, None, :] <= slots[None, :, None]).sum(axis=2), T - 1)
        valid = slots[None] < cum[:, -1:]
        u = rng.bits(keys[:, None], S_RESAMPLE, slots.astype(np.uint64)[None])
        u = np.where(valid, u >> np.uint64(1), np.uint64(2**63))
        shuffled = np.take_along_axis(types, np.argsort(u, axis=1, kind="stable"), axis=1)
        sizes = np.concatenate([unknown.sum(axis=2), mm.sum(axis=1, keepdims=True)], axis=1)
        bounds = np.cumsum(sizes, axis=1)  # [B, N+1]
        seg = (slots[None, :, None] >= bounds[:, None, :]).sum(axis=2)  # [B, M]
        counts = np.zeros((B, N + 2, T), np.int64)
        np.add.at(counts, (np.repeat(b, M), np.where(valid, seg, N + 1).ravel(),
                           shuffled.ravel()), 1)
        s.hand = np.where(redeal[:, :, None], s.known + counts[:, :N], s.hand).astype(np.int8)
        s.mm_draw = np.where((mm.sum(axis=1) > 0)[:, None], counts[:, N], s.mm_draw).astype(
            np.int8)
        start = bounds[:, -1]
        take = np.minimum(start[:, None] + pos[None], M - 1)
        s.deck = np.where(in_deck, np.take_along_axis(shuffled, take, axis=1), 0).astype(np.int8)
        s.key = keys
        s.rng_ctr[:] = 0
        return self.refresh_masks(s)

    # == text ======================================================================================
    def render(self, state: GriftersState, b: int = 0, player: int | None = None) -> str:
        from .render import render_text

        return render_text(self, state, b, player)


# == layouts =======================================================================================
def _observation_layout(n: int) -> ObservationLayout:
    per_player = (
        Field("stash", 1, "Stash / 75"),
        Field("hand_size", 1, "cards in hand / 30 (capped at 1)"),
        Field("known_hand", 19, "hand cards known to all, per type / 3 (own block: whole hand)"),
        Field("night1", 19, "Night One cards per type / 3"),
        Field("night2", 19, "Night Two cards per type / 3"),
        Field("night3", 19, "Night Three cards per type / 3"),
        Field("night_isk", 3, "ISK tokens in Nights One-Three / 3"),
        Field("refresh", 19, "Refresh Area cards per type / 3"),
        Field("jobs", 20, "1 per completed Job owned"),
        Field("jobs_by_colour", 5, "completed Jobs per colour / 4"),
        Field("score", 1, "current score (Stash + set bonus) / 100, capped at 1"),
        Field("turns_taken", 1, "turns this player has completed / 100, capped at 1"),
        Field("start_player", 1, "1 if this player is the start player"),
        Field("active", 1, "1 if this player is acting now (0 for all once the game is over)"),
    )
    return ObservationLayout([
        Field("num_players", 3, "one-hot over 2, 3, 4 players"),
        Field("coffers", 1, "ISK in the Coffers / 75"),
        Field("deck_size", 1, "cards in the Specialist deck / 48"),
        Field("discard", 19, "discard pile per card type / 3"),
        Field("turn", 1, "turns played / 200, capped at 1"),
        Field("my_first_turn", 1, "1 if I have not taken a turn yet"),
        Field("job_status", 80, "per Job 0-19: one-hot out of game / in stack / top / completed"),
        Block("player", n, per_player, "per player, clockwise from me (0 = me)"),
        Field("my_hand", 19, "my hand per card type / 3"),
        Field("decision", 17, "one-hot pending decision type (zeros unless it is mine)"),
        Field("effect_card", 19, "one-hot card type whose action is resolving"),
        Field("job_in_progress", 20, "one-hot Job being completed"),
        Field("team_so_far", 19, "team cards picked so far per type / 6"),
        Field("team_needed", 3, "skills (brain, speed, brawn) still needed / 6"),
        Field("mastermind_draw", 19, "Mastermind's three drawn cards per type / 3"),
        Field("target_player", 4, "one-hot seat offset chosen for Inside Man / Snitch"),
        Field("target_night", 3, "one-hot Night chosen for Inside Man"),
        Field("fence_own_job", 20, "one-hot own Job chosen for the Fence"),
        Field("extra_capers", 1, "Femme Fatale capers left / 3"),
    ])


def _action_layout() -> ActionLayout:
    pair = lambda i: f"swap nights {NIGHT_NAMES[PAIRS[i, 0]]}-{NIGHT_NAMES[PAIRS[i, 1]]}"  # noqa
    return ActionLayout([
        ActionRange("card", C.NUM_TYPES, lambda i: f"card {C.CARD_NAMES[i]}",
                    "a card type: Caper, team pick, target, keep ..."),
        ActionRange("job_stack", C.NUM_STACKS, lambda i: f"job stack {C.STACK_NAMES[i]}",
                    "Complete a Job: the top Job of a stack"),
        ActionRange("player", 4, lambda i: "player +0 (self)" if i == 0 else f"player +{i}",
                    "a seat, clockwise offset from me"),
        ActionRange("night", 3, lambda i: f"night {NIGHT_NAMES[i]}", "a Night space"),
        ActionRange("swap", 3, pair, "Snitch: a pair of Night spaces"),
        ActionRange("skill", 3, lambda i: f"skill {C.SKILL_NAMES[i]}",
                    "Thug with an Inside Man: the skill it stands for"),
        ActionRange("job", C.NUM_JOBS, lambda i: f"job {C.JOB_NAMES[i]}",
                    "Fence: a completed Job"),
        ActionRange("pass", 1, lambda i: "pass", "Femme Fatale: no second Caper"),
    ])
