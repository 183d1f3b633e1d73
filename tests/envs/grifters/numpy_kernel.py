"""The Grifters rules as the former vectorized NumPy kernel, kept only as the reference of the
side-by-side harness (`test_port.py`) while the compiled rules replace it.

Setup, then a turn (Advance Time, Play Specialists: Perform a Caper or Complete a Job, Refresh),
then the card effects as small programs of primitives, then Game End & Scoring. Every handler
takes the index array `g` of the games it applies to and works on all of them at once.

A card's effect runs as a program (`components.PROG_OP`) with a program counter; copy effects
(Fall Guy, Middle Man, Inside Man) are tail calls that switch the program, so no stack is needed.
Decisions that need a choice stop the program; the action's handler resumes it.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np
from heistbench.envs.core import rng
from heistbench.envs.core.buffers import BufferPool
from heistbench.envs.core.game import Game
from heistbench.envs.core.groups import groups
from heistbench.envs.core.layout import ActionLayout, ActionRange, Block, Field, ObservationLayout
from heistbench.envs.core.options import Option
from heistbench.envs.core.state import BatchState
from heistbench.envs.grifters import components as C

# -- decisions (the spec's §3.2), then the automatic states of the kernel ------------------------
NONE, MAIN, TEAM_PICK, CHOOSE_OPP, MM_KEEP, FALLGUY_PICK, THUG_PARTNER, THUG_SKILL = range(8)
MIDDLEMAN_PICK, IM_NIGHT, IM_CARD, SNITCH_PLAYER, SNITCH_PAIR, WHEELMAN_NIGHT = range(8, 14)
FENCE_OWN, FENCE_OTHER, FF_EXTRA = 14, 15, 16
NUM_DECISIONS = 17
RUN, TURN_END, TURN_START = 17, 18, 19  # automatic: run the program, Refresh, Advance Time
DECISION_NAMES = ("none", "main", "team pick", "choose opponent", "mastermind keep",
                  "fall guy pick", "thug partner", "thug skill", "middle man pick",
                  "inside man night", "inside man card", "snitch player", "snitch pair",
                  "wheelman night", "fence own", "fence other", "femme fatale extra")

# -- actions (the spec's §3.1): 58 ids whatever the player count --------------------------------
A_CARD, A_STACK, A_PLAYER, A_NIGHT, A_PAIR, A_SKILL, A_JOB, A_PASS = 0, 19, 24, 28, 31, 34, 37, 57
NUM_ACTIONS = 58
NIGHT_NAMES = ("One", "Two", "Three")
PAIRS = np.array([(0, 1), (0, 2), (1, 2)], np.int64)

# RNG streams
S_START, S_DEAL, S_RESHUFFLE, S_KIDNAP, S_RESAMPLE = 1, 2, 3, 4, 5

ARANGE_T = np.arange(C.NUM_TYPES)
ARANGE_S = np.arange(C.NUM_STACKS)
IS_IM = (ARANGE_T == C.INSIDE_MAN).astype(np.float32)
IS_FIXED = 1 - IS_IM  # the card type has a fixed skill
JOB_REQ_F = C.JOB_REQ.astype(np.float32)
SKILL_OH_F = C.SKILL_OH.astype(np.float32)
SKILL_OF_T = np.ascontiguousarray(SKILL_OH_F.T)  # [skill, type]
# per skill k, [u, t]: a card of type u has fixed skill k and is at or above type t
GE_SKILL = [SKILL_OH_F[:, k, None] * (ARANGE_T[:, None] >= ARANGE_T[None, :]) for k in range(3)]
# observation scale of each field (hand size, score and turns are capped at 30, 100 and 100;
# the turn count at 200 and the Femme Fatale capers at 3); the others are counts or one-hots
BLOCK_SCALE = {"stash": 1 / 75, "hand_size": 1 / 30, "known_hand": 1 / 3, "night1": 1 / 3,
               "night2": 1 / 3, "night3": 1 / 3, "night_isk": 1 / 3, "refresh": 1 / 3,
               "jobs": 1.0, "jobs_by_colour": 1 / 4, "score": 1 / 100, "turns_taken": 1 / 100,
               "start_player": 1.0, "active": 1.0}
FIELD_SCALE = {"coffers": 1 / 75, "deck_size": 1 / 48, "discard": 1 / 3, "turn": 1 / 200,
               "my_hand": 1 / 3, "team_so_far": 1 / 6, "team_needed": 1 / 6,
               "mastermind_draw": 1 / 3, "extra_capers": 1 / 3}
IM = C.INSIDE_MAN
JOB_STACK_OH = np.eye(C.NUM_STACKS, dtype=np.float32)[C.JOB_STACK]  # [20, 5]
PROG_STEP = np.stack([C.PROG_OP, C.PROG_ARG], axis=-1)  # [program, step] -> (op, arg), one lookup


def _job_feasible_table() -> tuple[np.ndarray, np.ndarray]:
    """What a hand needs to Complete the top Job of a stack: (cards per type -> counts [19, 4],
    flat bool [key * 21 + Job]). The key counts the fixed-skill cards of each skill up to 3 (no
    Job needs more) and the Inside Men up to 6 (no team is larger): 1 brain + 4 speed + 16 brawn
    + 64 IM. Job 20 stands for an empty stack and is never feasible."""
    counts = np.concatenate([C.SKILL_OH, (ARANGE_T == C.INSIDE_MAN)[:, None]], axis=1)
    key = np.arange(4 * 4 * 4 * 7)
    have = np.stack([key % 4, key // 4 % 4, key // 16 % 4], axis=1)
    cover = key[:, None] // 64 + np.minimum(have[:, None, :], C.JOB_REQ[None]).sum(axis=2)
    ok = np.concatenate([cover >= C.JOB_SIZE, np.zeros((len(key), 1), bool)], axis=1)
    return counts.astype(np.float32), ok.ravel()


SKILL_COUNTS, JOB_FEASIBLE = _job_feasible_table()
FEASIBLE_CAP = np.array([3, 3, 3, 6], np.float32)
FEASIBLE_ROW = np.array([1, 4, 16, 64], np.float32) * (C.NUM_JOBS + 1)  # capped counts -> row


def _team_needed_table() -> np.ndarray:
    """int16 [key * 21 + Job, 3]: the (brain, speed, brawn) a Job still needs once the cards of
    `key` (as in `_job_feasible_table`) are in its team; Inside Men fill deficits in that
    order. Job 20 (none) needs nothing."""
    key = np.arange(4 * 4 * 4 * 7)
    have = np.stack([key % 4, key // 4 % 4, key // 16 % 4], axis=1)
    d = np.zeros((len(key), C.NUM_JOBS + 1, 3), np.int16)  # [key, Job, skill]
    d[:, :-1] = np.maximum(C.JOB_REQ[None] - have[:, None], 0)
    wild = np.broadcast_to(key[:, None] // 64, d.shape[:2])
    for k in range(3):
        used = np.minimum(wild, d[:, :, k])
        d[:, :, k] -= used
        wild = wild - used
    return d.reshape(-1, 3)


TEAM_NEEDED = _team_needed_table()
# stack * 5 + top -> the top Job, or 20 for an empty stack
TOP_JOB = np.where(np.arange(5) < 4, 4 * ARANGE_S[:, None] + np.arange(5), C.NUM_JOBS).ravel()
STACK_ROWS = 5 * ARANGE_S


def _onehot_rows(rows: int, size: int) -> np.ndarray:
    """int8 [rows, size]: row i one-hot at i for i < size, zero after; index -1 (unset) is the
    last row, so it must be one of the zero rows."""
    return np.eye(rows, size, dtype=np.int8)


# one-hot observation rows looked up by state value: decision, effect card (programs from 19 on
# are Job rewards), Job (also the Fence's own Job), target Night
DECISION_OH = _onehot_rows(TURN_START + 1, NUM_DECISIONS)
IS_DECISION = (np.arange(TURN_START + 1) > NONE) & (np.arange(TURN_START + 1) < NUM_DECISIONS)
EFFECT_OH = _onehot_rows(C.JOB_PROG + C.NUM_JOBS + 1, C.NUM_TYPES)
JOB_OH = _onehot_rows(C.NUM_JOBS + 1, C.NUM_JOBS)
NIGHT_OH = _onehot_rows(4, 3)


def _job_status_table() -> np.ndarray:
    """int8 [20 * 30, 4]: Job j's status one-hot (out of game / in stack below the top / top /
    completed) at row 30 j + 5 (owner + 2) + its stack's top; an unowned Job in play above the
    top has been taken for the Job in progress and counts as completed."""
    order = np.array([j[1] - 1 for j in C.JOBS])
    table = np.zeros((C.NUM_JOBS, 6, 5, 4), np.int8)
    for j in range(C.NUM_JOBS):
        for owner in range(-2, 4):
            for top in range(5):
                cat = 3 if owner >= 0 else 0 if owner == -2 else 2 + np.sign(top - order[j])
                table[j, owner + 2, top, cat] = 1
    return table.reshape(-1, 4)


JOB_STATUS_OH = _job_status_table()
JOB_STATUS_KEY = np.arange(C.NUM_JOBS) * 30 + 10  # row of owner 0, top 0 is 30 j + 10


@dataclasses.dataclass(eq=False)  # BatchState compares the arrays
class GriftersState(BatchState):
    """Public fields first (BatchState), then the tableau, the supply and the decision context."""

    hand: np.ndarray  # int8 [B,P,19]  cards in hand, counts per type
    known: np.ndarray  # int8 [B,P,19]  hand cards every player knows about (<= hand)
    refresh: np.ndarray  # int8 [B,P,19]  Refresh Area
    night: np.ndarray  # int8 [B,P,3,19]  Hideout: Night One, Two, Three
    night_isk: np.ndarray  # int8 [B,P,3]  ISK tokens placed with an empty hand
    stash: np.ndarray  # int16 [B,P]
    coffers: np.ndarray  # int16 [B]
    deck: np.ndarray  # int8 [B,48]  card types; the top is deck[deck_len - 1]
    deck_len: np.ndarray  # int8 [B]
    discard: np.ndarray  # int8 [B,19]  face-up discard pile
    job_owner: np.ndarray  # int8 [B,20]  -2 out of the game, -1 not owned, else seat
    stack_top: np.ndarray  # int8 [B,5]  order index of each stack's top card, 4 = empty
    turns_taken: np.ndarray  # int16 [B,P]
    turns_total: np.ndarray  # int16 [B]
    start_player: np.ndarray  # int8 [B]
    dec: np.ndarray  # int8 [B]  pending decision (or automatic state)
    prog: np.ndarray  # int8 [B]  program being resolved: card type, or 19 + Job; -1 none
    pc: np.ndarray  # int8 [B]  step within the program
    staging: np.ndarray  # int8 [B,19]  cards about to enter Night One
    mm_draw: np.ndarray  # int8 [B,19]  Mastermind's three drawn cards
    team_job: np.ndarray  # int8 [B]  Job being completed, -1 none
    last_pick: np.ndarray  # int8 [B]  last team pick (picks are non-decreasing)
    picks_left: np.ndarray  # int8 [B]
    tgt_player: np.ndarray  # int8 [B]  seat chosen for Inside Man / Snitch, -1 none
    tgt_night: np.ndarray  # int8 [B]  Night chosen for Inside Man, -1 none
    fence_own: np.ndarray  # int8 [B]  Job chosen at FENCE_OWN, -1 none
    extra_capers: np.ndarray  # int8 [B]  Femme Fatale capers still allowed this turn
    rng_ctr: np.ndarray  # uint64 [B]  per-game random-event counter


def _first_player_ok(v: Any) -> bool:
    return v is None or (isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 4)


def _rows(arr: np.ndarray, width: int) -> np.ndarray:
    """A [-1, width] view of a state array (no copy: raises if one would be needed), so that
    (game, player, ...) cells are picked with one flat row index instead of several."""
    view = arr.view()
    view.shape = (-1, width) if width > 0 else (-1,)
    return view


_ONES = {n: np.ones(n, np.int8) for n in (C.NUM_STACKS, C.NUM_TYPES, NUM_ACTIONS)}


def _total(counts: np.ndarray) -> np.ndarray:
    """Sum over the last axis (card types, colours, actions) in a small integer type, as a
    product with ones: no total here exceeds the 60 cards or 58 actions of the game, and a
    product is much cheaper than `sum` both on one short row and on many."""
    return counts @ _ONES[counts.shape[-1]]


def _team_row(cards: np.ndarray) -> np.ndarray:
    """Row of a set of cards [n, 19] in the Job tables: its skill counts and Inside Men, capped
    where no Job needs more, as a key times 21."""
    return (np.minimum(cards @ SKILL_COUNTS, FEASIBLE_CAP) @ FEASIBLE_ROW).astype(np.int64)


def _any(flags: np.ndarray) -> bool:
    """Whether any flag is set; count_nonzero is a plain C call, several times cheaper than the
    `any` method at the small batches of the AEC env."""
    return np.count_nonzero(flags) > 0


def _all(flags: np.ndarray) -> bool:
    return np.count_nonzero(flags) == flags.size


class GriftersGame(Game):
    """Grifters for 2-4 players (see the module docstring of grifters_v0 for the rules)."""

    name: ClassVar[str] = "grifters_v0"
    title: ClassVar[str] = "Grifters"
    version: ClassVar[int] = 0
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4)
    score_scale: ClassVar[float] = 25.0
    settles_forced: ClassVar[bool] = True  # `_run` plays forced decisions inside the step
    GAME_OPTIONS: ClassVar[dict[str, Option]] = {
        "first_player": Option(None, "start player seat; None draws it from the game seed "
                               "(the rulebook's 'most recent legal infraction')",
                               check=_first_player_ok, allowed="None or a seat 0..N-1"),
    }

    @classmethod
    def option_spec(cls) -> dict[str, Option]:
        spec = super().option_spec()
        spec["num_players"] = Option(2, "number of players", choices=cls.player_counts)
        return spec

    # == construction ==============================================================================
    def _setup(self) -> None:
        n = self.num_players
        fp = self.options["first_player"]
        if fp is not None and fp >= n:
            raise ValueError(f"{self.name}: invalid value {fp!r} for option 'first_player'; "
                             f"allowed: None or a seat 0..{n - 1}")
        self.stacks_in_play = np.array([m <= n for m in C.STACK_MIN_PLAYERS])
        self.jobs_in_play = self.stacks_in_play[C.JOB_STACK]
        self.observation_layout = _observation_layout(n)
        self.action_layout = _action_layout()
        lay = self.observation_layout
        block = next(e for e in lay.entries if isinstance(e, Block))
        self._block_size = block.block_size
        seat0 = lay.slice_of("player.stash").start
        known = lay.slice_of("player.known_hand").start - seat0
        self._known_hand = slice(known, known + C.NUM_TYPES)  # inside a seat's block
        self._turns_taken = lay.slice_of("player.turns_taken").start - seat0
        self._team_needed_cols = lay.slice_of("team_needed")
        self._decision_start = lay.slice_of("decision").start
        scale = np.ones(lay.size, np.float32)
        for name, x in FIELD_SCALE.items():
            scale[lay.slice_of(name)] = x
        for f in block.fields:
            for i in range(n):
                scale[lay.slice_of(f"player.{f.name}", i)] = BLOCK_SCALE[f.name]
        self._obs_scale = scale
        self._seat_ids = np.arange(n, dtype=np.int8)[None, :]  # compared with int8 fields
        # row (active seat) * N + start seat -> [seat, (is start player, is active)]; active -1
        # (the game is over) reads the last N rows, which have no active seat
        seat = np.arange(n)
        is_start = np.broadcast_to(seat[:, None] == seat, (n + 1, n, n))  # [active, start, seat]
        is_active = np.eye(n + 1, n, dtype=bool)[:, None, :]
        self._start_active = np.stack(np.broadcast_arrays(is_start, is_active), axis=-1).reshape(
            -1, n, 2).astype(np.int8)
        self._clockwise = (np.arange(n)[:, None] + np.arange(n)) % n  # [seat, offset] -> seat
        # row target seat * N + active seat -> one-hot target offset; target -1 (none) reads
        # the last N rows, which are zero (once the game is over no decision context is shown)
        self._target_oh = np.zeros((n + 1, n, 4), np.int8)
        for t in range(n):
            for me in range(n):
                self._target_oh[t, me, (t - me) % n] = 1
        self._target_oh = self._target_oh.reshape(-1, 4)
        self._obs_cache: dict[int, dict[str, np.ndarray]] = {}
        self._pool = BufferPool()
        self._deck_base = np.repeat(np.arange(C.NUM_TYPES), C.SPECIALIST_COPIES).astype(np.int8)

    def default_max_steps(self) -> int:
        return 3000

    # == 2. Setup ==================================================================================
    def _init(self, keys: np.ndarray) -> GriftersState:
        B, N, T = len(keys), self.num_players, C.NUM_TYPES
        z8 = lambda *shape: np.zeros((B, *shape), np.int8)  # noqa: E731
        fp = self.options["first_player"]
        if fp is None:
            start = np.floor(rng.uniform(keys, S_START, 0) * N).astype(np.int8)
        else:
            start = np.full(B, fp, np.int8)
        hand = z8(N, T)
        hand[:, :, C.RINGLEADER] = 1
        deck = self._deck_base[rng.permutations(keys, S_DEAL, C.DECK_SIZE)]
        for k in range(C.HAND_DEAL * N):  # deal from the top, in seat order from the start player
            seat = (start.astype(np.int64) + k // C.HAND_DEAL) % N
            np.add.at(hand, (np.arange(B), seat, deck[:, C.DECK_SIZE - 1 - k]), 1)
        owner = np.where(self.jobs_in_play, -1, -2).astype(np.int8)
        s = GriftersState(
            current_player=start.copy(), legal_action_mask=np.zeros((B, NUM_ACTIONS), bool),
            terminated=np.zeros(B, bool), truncated=np.zeros(B, bool),
            rewards=np.zeros((B, N), np.float32), steps=np.zeros(B, np.int32), key=keys.copy(),
            hand=hand, known=(hand * C.RINGLEADER).astype(np.int8), refresh=z8(N, T),
            night=z8(N, 3, T), night_isk=z8(N, 3),
            stash=np.full((B, N), C.START_STASH, np.int16),
            coffers=np.full(B, C.COFFERS_START[N] - C.START_STASH * N, np.int16),
            deck=deck, deck_len=np.full(B, C.DECK_SIZE - C.HAND_DEAL * N, np.int8),
            discard=z8(T), job_owner=np.broadcast_to(owner, (B, C.NUM_JOBS)).copy(),
            stack_top=np.broadcast_to(np.where(self.stacks_in_play, 0, 4).astype(np.int8),
                                      (B, C.NUM_STACKS)).copy(),
            turns_taken=np.zeros((B, N), np.int16), turns_total=np.zeros(B, np.int16),
            start_player=start, dec=np.full(B, TURN_START, np.int8),
            prog=np.full(B, -1, np.int8), pc=z8(), staging=z8(T), mm_draw=z8(T),
            team_job=np.full(B, -1, np.int8), last_pick=z8(), picks_left=z8(),
            tgt_player=np.full(B, -1, np.int8), tgt_night=np.full(B, -1, np.int8),
            fence_own=np.full(B, -1, np.int8), extra_capers=z8(),
            rng_ctr=np.zeros(B, np.uint64))
        self._new_step()
        g = np.arange(B)
        self._end_turn(s, self._turn_start(s, g))
        self._run(s, g)
        return s

    # == the step: one decision, then everything automatic up to the next one ======================
    def _step(self, s: GriftersState, idx: np.ndarray, actions: np.ndarray) -> None:
        self._new_step()
        self._dispatch(s, idx, actions)
        self._run(s, idx)

    def _new_step(self) -> None:
        """Empty the step's work lists: games whose new decision still needs its mask (by
        decision type), and games whose play is over (Refresh and the next turn)."""
        self._pending: dict[int, list[np.ndarray]] = {}
        self._turns_over: list[np.ndarray] = []

    def _dispatch(self, s: GriftersState, g: np.ndarray, a: np.ndarray) -> None:
        """Apply decisions: one handler per decision type, each on its group of games."""
        for k, sel in groups(s.dec[g]):
            _HANDLERS[k](self, s, g[sel], a[sel])

    def _run(self, s: GriftersState, idx: np.ndarray) -> None:
        """Run card programs, then Refresh and the next turn where a play is over, and, with
        auto_forced, single-option decisions, until every game waits for a real decision or
        is over.

        Forced decisions are played here rather than by the base class's settle loop, and the
        masks of newly asked decisions are computed once per pass and decision type, so that
        each pass carries every game as far as it can go at a small fixed cost.
        """
        for _ in range(1000):  # finished games have dec NONE and drop out of every group
            g = idx[s.dec[idx] == RUN]
            while g.size:  # a card's program, op after op, until a decision or its end
                self._exec(s, g)
                g = g[s.dec[g] == RUN]
            if self._turns_over:  # Refresh, then the next turn; an empty hand goes on to Refresh
                parts, self._turns_over = self._turns_over, []
                g = np.concatenate(parts) if len(parts) > 1 else parts[0]
                while g.size:
                    self._refresh_phase(s, g)
                    g = self._turn_start(s, g)
            if not self._pending:
                return
            forced, fizzled = self._flush(s)
            if forced.size:
                self._dispatch(s, forced, s.legal_action_mask[forced].argmax(axis=1))
            elif fizzled.size == 0:
                return
        raise RuntimeError("grifters: automatic play did not settle")

    def _open(self, s: GriftersState, g: np.ndarray, dec: int) -> None:
        """Ask decision `dec` in games g (its mask is computed at the end of the pass)."""
        s.dec[g] = dec
        self._pending.setdefault(dec, []).append(g)

    def _flush(self, s: GriftersState) -> tuple[np.ndarray, np.ndarray]:
        """Masks of the decisions asked this pass. An effect with no legal target fizzles
        (its program goes on). Returns the games whose decision is forced (auto_forced) and
        those that fizzled: the games with more to play."""
        pending, self._pending = self._pending, {}
        gs = [np.concatenate(parts) if len(parts) > 1 else parts[0]
              for parts in pending.values()]
        ms = [self._mask(s, g, dec) for g, dec in zip(gs, pending)]
        g, m = (gs[0], ms[0]) if len(gs) == 1 else (np.concatenate(gs), np.concatenate(ms))
        s.legal_action_mask[g] = m
        n = _total(m)
        e = g[:0]
        if not _all(n):
            e = g[n == 0]
            s.dec[e] = RUN
            s.pc[e] += 1
        return (g[n == 1] if self.auto_forced else g[:0]), e

    def _end_games(self, s: GriftersState, g: np.ndarray) -> None:
        """"The game ends immediately": nothing after the triggering primitive resolves.

        The staged cards (the card played, a Middle Man's or Thug's partner, an abducted card)
        are the active player's and were about to enter Night One: they go there now, so the
        final state is complete without the active seat, which `_finish` clears.
        """
        if g.size:
            self._place_staging(s, g, s.current_player[g])
            s.dec[g] = NONE
            self._finish(s, g)

    def _end_turn(self, s: GriftersState, g: np.ndarray) -> None:
        """The play is over in games g: Refresh and the next turn follow once this pass's
        programs have run, for all such games together."""
        if g.size:
            s.dec[g] = TURN_END
            self._turns_over.append(g)

    # == Phase 1: Advance Time =====================================================================
    def _advance(self, s: GriftersState, g: np.ndarray, r: np.ndarray) -> None:
        """Night Three -> Refresh Area (ISK -> Coffers), Two -> Three, One -> Two, in games g
        for their seat rows r (game * N + seat)."""
        nights = _rows(s.night, 57)
        cur = nights[r]
        _rows(s.refresh, 19)[r] += cur[:, 38:]
        nights[r, 19:] = cur[:, :38]
        nights[r, :19] = 0
        isk = _rows(s.night_isk, 3)
        cur = isk[r]
        s.coffers[g] += cur[:, 2]
        isk[r, 1:] = cur[:, :2]
        isk[r, 0] = 0

    def _turn_start(self, s: GriftersState, g: np.ndarray) -> np.ndarray:
        """Advance Time (not on a first turn), then the main decision. With no cards in hand
        an ISK token from the Stash goes to Night One instead, and the turn goes straight on
        to Refresh: returns those games."""
        me = s.current_player[g]
        r = g * self.num_players + me
        later = _rows(s.turns_taken, -1)[r] > 0  # skip Advance Time on a first turn
        if _all(later):
            self._advance(s, g, r)
        elif _any(later):
            self._advance(s, g[later], r[later])
        empty = _total(_rows(s.hand, 19)[r]) == 0
        if not _any(empty):
            self._open(s, g, MAIN)
            return g[:0]
        stash = _rows(s.stash, -1)
        pay = r[empty & (stash[r] > 0)]
        stash[pay] -= 1
        _rows(s.night_isk, 3)[pay, 0] += 1
        if not _all(empty):
            self._open(s, g[~empty], MAIN)
        return g[empty]

    # == Phase 2: Play Specialists =================================================================
    def _main(self, s: GriftersState, g: np.ndarray, a: np.ndarray) -> None:
        caper = a < A_STACK
        if _all(caper):
            self._caper(s, g, a)
            return
        self._caper(s, g[caper], a[caper])
        g, a = g[~caper], a[~caper]
        # Complete a Job: take the top Job of the stack, then pick the team
        st = a - A_STACK
        j = 4 * st + s.stack_top[g, st]
        s.stack_top[g, st] += 1
        s.team_job[g] = j
        s.last_pick[g] = 0
        s.picks_left[g] = C.JOB_SIZE[j]
        self._open(s, g, TEAM_PICK)

    def _caper(self, s: GriftersState, g: np.ndarray, t: np.ndarray) -> None:
        """Perform a Caper: the card goes to staging and its program starts. The effect's
        targets are still clear from Refresh (a second Caper clears them in `_ff_extra`)."""
        if g.size == 0:
            return
        me = s.current_player[g]
        self._take_from_hand(s, g, me, t)
        s.staging[g, t] += 1
        s.prog[g] = t
        s.pc[g] = 0
        s.dec[g] = RUN

    def _take_from_hand(self, s: GriftersState, g: np.ndarray, p: np.ndarray,
                        t: np.ndarray) -> None:
        """One card of type t leaves p's hand; what was known of it is forgotten first."""
        i = (g * self.num_players + p) * C.NUM_TYPES + t
        hand, known = _rows(s.hand, -1), _rows(s.known, -1)
        hand[i] -= 1
        known[i] = np.maximum(known[i] - 1, 0)

    def _team_pick(self, s: GriftersState, g: np.ndarray, a: np.ndarray) -> None:
        me = s.current_player[g]
        self._take_from_hand(s, g, me, a)
        s.staging[g, a] += 1
        s.last_pick[g] = a
        s.picks_left[g] -= 1
        done = s.picks_left[g] == 0
        if _any(done):  # the team goes into Night One, the Job is the player's, its reward resolves
            gd, md = g[done], me[done]
            self._place_staging(s, gd, md)
            j = s.team_job[gd].astype(np.int64)
            s.job_owner[gd, j] = md
            s.prog[gd] = C.JOB_PROG + j
            s.pc[gd] = 0
            s.dec[gd] = RUN
            if _all(done):
                return
            g = g[~done]
        self._open(s, g, TEAM_PICK)

    def _place_staging(self, s: GriftersState, g: np.ndarray, me: np.ndarray) -> None:
        _rows(s.night, C.NUM_TYPES)[(g * self.num_players + me) * 3] += s.staging[g]
        s.staging[g] = 0

    def _ff_extra(self, s: GriftersState, g: np.ndarray, a: np.ndarray) -> None:
        """Femme Fatale: pass, or Advance Time again and perform a second Caper."""
        stop = a == A_PASS
        s.extra_capers[g[stop]] = 0
        self._end_turn(s, g[stop])
        g, a = g[~stop], a[~stop]
        if g.size:
            s.extra_capers[g] -= 1
            s.tgt_player[g] = -1
            s.tgt_night[g] = -1
            s.fence_own[g] = -1
            self._advance(s, g, g * self.num_players + s.current_player[g])
            self._caper(s, g, a)

    # -- the program interpreter -------------------------------------------------------------------
    def _exec(self, s: GriftersState, g: np.ndarray) -> None:
        step = PROG_STEP[s.prog[g], s.pc[g]]
        op, arg = step[:, 0], step[:, 1]
        for o, sel in groups(op):
            if o in _OPENS_DECISION:  # the effect starts with a choice
                self._open(s, g[sel], _OPENS_DECISION[o])
            else:
                _OPS[o](self, s, g[sel], arg[sel])

    def _op_end(self, s: GriftersState, g: np.ndarray, arg: np.ndarray) -> None:
        """The play is over: staged cards enter Night One; then the extra Caper or Refresh."""
        self._place_staging(s, g, s.current_player[g])
        job = s.prog[g] >= C.JOB_PROG
        if _any(job):  # "All Jobs have been completed"
            gj = g[job]
            over = gj[((s.job_owner[gj] >= 0) | ~self.jobs_in_play).all(axis=1)]
            if over.size:
                self._end_games(s, over)
                g = g[~s.terminated[g]]
        s.prog[g] = -1
        extra = s.extra_capers[g] > 0
        if _any(extra):
            self._end_turn(s, g[~extra])
            self._open(s, g[extra], FF_EXTRA)
        else:
            self._end_turn(s, g)

    def _op_coffers(self, s: GriftersState, g: np.ndarray, n: np.ndarray) -> None:
        """Take n from the Coffers; taking the last ISK ends the game."""
        me = s.current_player[g]
        x = np.minimum(n, s.coffers[g]).astype(np.int16)
        s.coffers[g] -= x
        s.stash[g, me] += x
        s.pc[g] += 1
        self._end_games(s, g[s.coffers[g] == 0])

    def _steal(self, s: GriftersState, g: np.ndarray, me: np.ndarray, o: np.ndarray,
               n: np.ndarray) -> None:
        """Take up to n from o's Stash: only what is there [FAQ]."""
        x = np.minimum(n, s.stash[g, o]).astype(np.int16)
        s.stash[g, o] -= x
        s.stash[g, me] += x

    def _op_choose(self, s: GriftersState, g: np.ndarray, arg: np.ndarray) -> None:
        """Steal from an opponent of the player's choice. Two players have one opponent, so
        with auto_forced the choice is played here rather than asked, masked and replayed."""
        if self.num_players == 2 and self.auto_forced:
            self._choose_opp(s, g, np.full(g.size, A_PLAYER + 1))
        else:
            self._open(s, g, CHOOSE_OPP)

    def _op_richest(self, s: GriftersState, g: np.ndarray, n: np.ndarray) -> None:
        """Steal from the richest opponent; a choice only when several tie."""
        tied = self._richest(s, g)
        one = tied.sum(axis=1) == 1
        if _any(one):
            g1 = g[one]
            me = s.current_player[g1].astype(np.int64)
            o = (me + tied[one].argmax(axis=1)) % self.num_players
            self._steal(s, g1, me, o, n[one])
            s.pc[g1] += 1
        if not _all(one):
            self._open(s, g[~one], CHOOSE_OPP)

    def _richest(self, s: GriftersState, g: np.ndarray) -> np.ndarray:
        """bool [n, N] by seat offset: opponents with the largest Stash."""
        st = self._rel(s.stash[g], s.current_player[g]).astype(np.int64)
        st[:, 0] = -1
        return st == st.max(axis=1, keepdims=True)

    def _rel(self, arr: np.ndarray, me: np.ndarray) -> np.ndarray:
        """Reorder a per-seat array [n, N, ...] by seat offset from `me`."""
        q = (me.astype(np.int64)[:, None] + np.arange(self.num_players)) % self.num_players
        return arr[np.arange(len(me))[:, None], q]

    def _op_each_opp(self, s: GriftersState, g: np.ndarray, n: np.ndarray) -> None:
        me = s.current_player[g].astype(np.int64)
        for r in range(1, self.num_players):
            self._steal(s, g, me, (me + r) % self.num_players, n)
        s.pc[g] += 1

    def _draw(self, s: GriftersState, g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Draw one card per game (reshuffling the discard pile if needed).

        Returns (card types, games that ended because deck and discard pile are now empty).
        Card types are -1 where deck and discard pile were already empty: no card is dealt
        (normal play ends the game before that; crafted states can reach it).
        """
        out = s.deck_len[g] == 0
        if _any(out):
            re = g[out & (_total(s.discard[g]) > 0)]
            if re.size:
                self._reshuffle(s, re)
        top = s.deck_len[g].astype(np.int64) - 1
        t = np.where(top >= 0, s.deck[g, np.maximum(top, 0)], -1).astype(np.int64)
        s.deck_len[g] = np.maximum(top, 0)
        ended = s.deck_len[g] == 0
        if _any(ended):
            ended &= _total(s.discard[g]) == 0
        return t, ended

    def _reshuffle(self, s: GriftersState, g: np.ndarray) -> None:
        """Shuffle the discard pile into a new deck with the game's own RNG."""
        cum = np.cumsum(s.discard[g], axis=1, dtype=np.int64)
        pos = np.arange(C.DECK_SIZE)
        types = np.minimum((cum[:, None, :] <= pos[None, :, None]).sum(axis=2), C.NUM_TYPES - 1)
        valid = pos[None, :] < cum[:, -1:]
        u = rng.bits(s.key[g, None], S_RESHUFFLE,
                     s.rng_ctr[g, None] * np.uint64(64) + pos.astype(np.uint64)[None])
        u = np.where(valid, u >> np.uint64(1), np.uint64(2**63))
        order = np.argsort(u, axis=1, kind="stable")
        s.deck[g] = np.take_along_axis(types, order, axis=1).astype(np.int8)
        s.deck_len[g] = cum[:, -1]
        s.discard[g] = 0
        s.rng_ctr[g] += np.uint64(1)

    def _op_draw(self, s: GriftersState, g: np.ndarray, n: np.ndarray) -> None:
        for k in range(int(n.max())):
            live = g[(n > k) & ~s.terminated[g]]
            if live.size == 0:
                break
            t, ended = self._draw(s, live)
            dealt = t >= 0
            gd, td = (live, t) if _all(dealt) else (live[dealt], t[dealt])
            s.hand[gd, s.current_player[gd], td] += 1
            if _any(ended):
                self._end_games(s, live[ended])
        g = g[~s.terminated[g]]
        s.pc[g] += 1

    def _op_draw_keep(self, s: GriftersState, g: np.ndarray, n: np.ndarray) -> None:
        """Mastermind: draw three into a private buffer, keep one, discard two face up."""
        for _ in range(3):
            live = g[~s.terminated[g]]
            if live.size == 0:
                break
            t, ended = self._draw(s, live)
            d = t >= 0
            s.mm_draw[live[d], t[d]] += 1
            e = live[ended]
            if e.size:  # the game is over: the drawn cards stay with the player
                s.hand[e, s.current_player[e].astype(np.int64)] += s.mm_draw[e]
                s.mm_draw[e] = 0
                self._end_games(s, e)
        g = g[~s.terminated[g]]
        if g.size:
            self._open(s, g, MM_KEEP)

    def _op_fence(self, s: GriftersState, g: np.ndarray, arg: np.ndarray) -> None:
        me = s.current_player[g]
        own = (s.job_owner[g] == me[:, None]).any(axis=1)
        other = ((s.job_owner[g] >= 0) & (s.job_owner[g] != me[:, None])).any(axis=1)
        ok = own & other
        s.pc[g[~ok]] += 1
        if _any(ok):
            self._open(s, g[ok], FENCE_OWN)

    def _op_advance(self, s: GriftersState, g: np.ndarray, arg: np.ndarray) -> None:
        """Fixer: Advance Time while it waits in staging, so it lands in Night One after."""
        self._advance(s, g, g * self.num_players + s.current_player[g])
        s.pc[g] += 1

    def _op_grant_extra(self, s: GriftersState, g: np.ndarray, arg: np.ndarray) -> None:
        s.extra_capers[g] += 1
        s.pc[g] += 1

    def _op_wheel(self, s: GriftersState, g: np.ndarray, arg: np.ndarray) -> None:
        self._open(s, g, WHEELMAN_NIGHT)

    # -- decision handlers of the card effects -----------------------------------------------------
    def _choose_opp(self, s: GriftersState, g: np.ndarray, a: np.ndarray) -> None:
        me = s.current_player[g].astype(np.int64)
        o = (me + a - A_PLAYER) % self.num_players
        step = PROG_STEP[s.prog[g], s.pc[g]]
        op, n = step[:, 0], step[:, 1]
        bm = op == C.BLACKMAIL
        if _any(bm):
            n = np.where(bm, np.minimum(4, 1 + (s.job_owner[g] == o[:, None]).sum(axis=1)), n)
        st = (op == C.OPP) | (op == C.RICHEST_OPP) | bm
        if _all(st):
            st = slice(None)  # every game steals (the common case): no split
        self._steal(s, g[st], me[st], o[st], n[st])
        s.pc[g[st]] += 1
        s.dec[g[st]] = RUN
        k = op == C.KIDNAP
        if _any(k):
            self._kidnap(s, g[k], me[k], o[k])
        ab = op == C.ABDUCT
        if _any(ab):
            s.tgt_player[g[ab]] = o[ab]
            self._open(s, g[ab], IM_NIGHT)

    def _kidnap(self, s: GriftersState, g: np.ndarray, me: np.ndarray, o: np.ndarray) -> None:
        """Abduct a random hand card of o, shown to all; a Ringleader goes back [FAQ]."""
        u = rng.uniform(s.key[g], S_KIDNAP, s.rng_ctr[g])
        s.rng_ctr[g] += np.uint64(1)
        t = rng.draw_from_counts(s.hand[g, o].astype(np.int64), u)
        take = ~C.RINGLEADER[t]
        gt, mt, ot, tt = g[take], me[take], o[take], t[take]
        self._take_from_hand(s, gt, ot, tt)
        s.hand[gt, mt, tt] += 1
        s.known[gt, mt, tt] += 1
        s.pc[g] += 1
        s.dec[g] = RUN

    def _mm_keep(self, s: GriftersState, g: np.ndarray, a: np.ndarray) -> None:
        me = s.current_player[g].astype(np.int64)
        s.mm_draw[g, a] -= 1
        s.hand[g, me, a] += 1
        s.discard[g] += s.mm_draw[g]
        s.mm_draw[g] = 0
        s.pc[g] += 1
        s.dec[g] = RUN

    def _fallguy_pick(self, s: GriftersState, g: np.ndarray, a: np.ndarray) -> None:
        """Duplicate a hand card's action; the card stays in hand, shown (tail call)."""
        me = s.current_player[g].astype(np.int64)
        s.known[g, me, a] = np.maximum(s.known[g, me, a], 1)
        s.prog[g] = a
        s.pc[g] = 0
        s.dec[g] = RUN

    def _middleman_pick(self, s: GriftersState, g: np.ndarray, a: np.ndarray) -> None:
        """Team up a Refresh-Area card with the Middle Man and take its action."""
        me = s.current_player[g].astype(np.int64)
        s.refresh[g, me, a] -= 1
        s.staging[g, a] += 1
        s.prog[g] = a
        s.pc[g] = 0
        s.dec[g] = RUN

    def _thug_partner(self, s: GriftersState, g: np.ndarray, a: np.ndarray) -> None:
        me = s.current_player[g].astype(np.int64)
        self._take_from_hand(s, g, me, a)
        s.staging[g, a] += 1
        wild = a == IM
        if _any(wild):
            self._open(s, g[wild], THUG_SKILL)
        self._thug_steal(s, g[~wild], C.SKILL[a[~wild]].astype(np.int64))

    def _thug_skill(self, s: GriftersState, g: np.ndarray, a: np.ndarray) -> None:
        self._thug_steal(s, g, a - A_SKILL)

    def _thug_steal(self, s: GriftersState, g: np.ndarray, k: np.ndarray) -> None:
        """1M from each opponent per single (non-Team) Hideout card of skill k (wild counts)."""
        if g.size == 0:
            return
        me = s.current_player[g].astype(np.int64)
        for r in range(1, self.num_players):
            o = (me + r) % self.num_players
            nt = s.night[g, o].astype(np.int64)  # [n, 3, 19]
            single = nt.sum(axis=2) == 1
            match = (nt @ C.SKILL_OH)[np.arange(g.size), :, k] + nt[:, :, IM]
            self._steal(s, g, me, o, (single & (match == 1)).sum(axis=1))
        s.pc[g] += 1
        s.dec[g] = RUN

    def _im_night(self, s: GriftersState, g: np.ndarray, a: np.ndarray) -> None:
        s.tgt_night[g] = a - A_NIGHT
        self._open(s, g, IM_CARD)

    def _im_card(self, s: GriftersState, g: np.ndarray, a: np.ndarray) -> None:
        """Exchange the Inside Man with the chosen card, then take that card's action."""
        o, n = s.tgt_player[g].astype(np.int64), s.tgt_night[g].astype(np.int64)
        s.night[g, o, n, a] -= 1
        s.night[g, o, n, IM] += 1
        s.staging[g, IM] -= 1
        s.staging[g, a] += 1
        s.prog[g] = a
        s.pc[g] = 0
        s.dec[g] = RUN

    def _snitch_player(self, s: GriftersState, g: np.ndarray, a: np.ndarray) -> None:
        s.tgt_player[g] = (s.current_player[g] + a - A_PLAYER) % self.num_players
        self._open(s, g, SNITCH_PAIR)

    def _snitch_pair(self, s: GriftersState, g: np.ndarray, a: np.ndarray) -> None:
        """Switch the whole contents of two Night spaces; Teams stay together."""
        o = s.tgt_player[g].astype(np.int64)
        x, y = PAIRS[a - A_PAIR, 0], PAIRS[a - A_PAIR, 1]
        cx, cy = s.night[g, o, x].copy(), s.night[g, o, y].copy()
        s.night[g, o, x], s.night[g, o, y] = cy, cx
        ix, iy = s.night_isk[g, o, x].copy(), s.night_isk[g, o, y].copy()
        s.night_isk[g, o, x], s.night_isk[g, o, y] = iy, ix
        s.pc[g] += 1
        s.dec[g] = RUN

    def _wheelman_night(self, s: GriftersState, g: np.ndarray, a: np.ndarray) -> None:
        """Return a lone Hideout card to hand (publicly)."""
        me, n = s.current_player[g].astype(np.int64), a - A_NIGHT
        t = s.night[g, me, n].argmax(axis=1)
        s.night[g, me, n, t] -= 1
        s.hand[g, me, t] += 1
        s.known[g, me, t] += 1
        s.pc[g] += 1
        s.dec[g] = RUN

    def _fence_own(self, s: GriftersState, g: np.ndarray, a: np.ndarray) -> None:
        s.fence_own[g] = a - A_JOB
        self._open(s, g, FENCE_OTHER)

    def _fence_other(self, s: GriftersState, g: np.ndarray, a: np.ndarray) -> None:
        j1, j2 = s.fence_own[g].astype(np.int64), a - A_JOB
        s.job_owner[g, j1] = s.job_owner[g, j2]
        s.job_owner[g, j2] = s.current_player[g]
        s.pc[g] += 1
        s.dec[g] = RUN

    # == Phase 3: Refresh ==========================================================================
    def _refresh_phase(self, s: GriftersState, g: np.ndarray) -> None:
        """Refresh Area back to hand (publicly), then the next player clockwise, whose turn
        `_turn_start` begins. The effect's context is cleared for that turn; no program runs
        and no Femme Fatale caper is left (`_op_end` and `_ff_extra` saw to both)."""
        me = s.current_player[g]
        r = g * self.num_players + me
        refresh = _rows(s.refresh, 19)
        back = refresh[r]
        _rows(s.hand, 19)[r] += back
        _rows(s.known, 19)[r] += back
        refresh[r] = 0
        _rows(s.turns_taken, -1)[r] += 1
        s.turns_total[g] += 1
        s.current_player[g] = (me + 1) % self.num_players
        s.team_job[g] = -1
        s.tgt_player[g] = -1
        s.tgt_night[g] = -1
        s.fence_own[g] = -1

    # == masks =====================================================================================
    def _mask(self, s: GriftersState, g: np.ndarray, dec: int) -> np.ndarray:
        """bool [n, 58]: legal actions of decision `dec` in games g."""
        m = np.zeros((g.size, NUM_ACTIONS), bool)
        me = s.current_player[g]
        cards = slice(A_CARD, A_CARD + C.NUM_TYPES)
        if dec == MAIN:
            hand = _rows(s.hand, 19)[g * self.num_players + me]
            m[:, cards] = hand > 0
            m[:, A_STACK:A_STACK + C.NUM_STACKS] = self._stack_feasible(s, g, hand)
        elif dec == TEAM_PICK:
            m[:, cards] = self._team_pick_mask(s, g, me)
        elif dec == CHOOSE_OPP:
            m[:, A_PLAYER:A_PLAYER + self.num_players] = self._opp_mask(s, g, me)
        elif dec == MM_KEEP:
            m[:, cards] = s.mm_draw[g] > 0
        elif dec == FALLGUY_PICK:
            m[:, cards] = (s.hand[g, me] > 0) & ~C.COPIER
        elif dec == THUG_PARTNER:
            m[:, cards] = self._thug_partners(s, g, me) > 0
        elif dec == THUG_SKILL:
            m[:, A_SKILL:A_SKILL + 3] = True
        elif dec == MIDDLEMAN_PICK:
            m[:, cards] = (s.refresh[g, me] > 0) & ~C.COPIER
        elif dec == IM_NIGHT:
            o = s.tgt_player[g].astype(np.int64)
            m[:, A_NIGHT:A_NIGHT + 3] = (s.night[g, o][:, :, C.ABDUCTABLE] > 0).any(axis=2)
        elif dec == IM_CARD:
            o, n = s.tgt_player[g].astype(np.int64), s.tgt_night[g].astype(np.int64)
            m[:, cards] = (s.night[g, o, n] > 0) & C.ABDUCTABLE
        elif dec == SNITCH_PLAYER:
            full = self._rel(self._space_full(s, g), me)  # [n, N, 3]
            m[:, A_PLAYER:A_PLAYER + self.num_players] = full.any(axis=2)
        elif dec == SNITCH_PAIR:
            full = self._space_full(s, g)[np.arange(g.size), s.tgt_player[g]]
            m[:, A_PAIR:A_PAIR + 3] = full[:, PAIRS[:, 0]] | full[:, PAIRS[:, 1]]
        elif dec == WHEELMAN_NIGHT:
            m[:, A_NIGHT:A_NIGHT + 3] = s.night[g, me].sum(axis=2) == 1
        elif dec == FENCE_OWN:
            m[:, A_JOB:A_JOB + C.NUM_JOBS] = s.job_owner[g] == me[:, None]
        elif dec == FENCE_OTHER:
            own = s.job_owner[g]
            m[:, A_JOB:A_JOB + C.NUM_JOBS] = (own >= 0) & (own != me[:, None])
        elif dec == FF_EXTRA:
            m[:, cards] = s.hand[g, me] > 0
            m[:, A_PASS] = True
        return m

    @staticmethod
    def _thug_partners(s: GriftersState, g: np.ndarray, me: np.ndarray) -> np.ndarray:
        """int [n, 19]: hand cards that may partner the Thug. When a Fall Guy copies the
        Thug (a Fall Guy staged and no Thug: every other way to run the Thug stages one), the
        copied Thug stays in hand (D4), so one Thug is held back."""
        hand = s.hand[g, me].astype(np.int16)
        copied = (s.prog[g] == C.THUG_T) & (s.staging[g, C.FALL_GUY] > 0) & \
            (s.staging[g, C.THUG_T] == 0)
        hand[:, C.THUG_T] -= copied
        return hand

    @staticmethod
    def _space_full(s: GriftersState, g: np.ndarray) -> np.ndarray:
        """bool [n, N, 3]: Night spaces holding any card or ISK token."""
        return (s.night[g].sum(axis=3) > 0) | (s.night_isk[g] > 0)

    def _stack_feasible(self, s: GriftersState, g: np.ndarray, hand: np.ndarray) -> np.ndarray:
        """bool [n, 5]: the hand can form a team matching the stack's top Job exactly
        (fixed skills up to each requirement, Inside Men for the rest)."""
        row = _team_row(hand)
        return JOB_FEASIBLE.take(row[:, None] + TOP_JOB.take(s.stack_top[g] + STACK_ROWS))

    def _team_pick_mask(self, s: GriftersState, g: np.ndarray, me: np.ndarray) -> np.ndarray:
        """bool [n, 19]: picks (non-decreasing type) after which the team can still be finished.

        Picking t must leave every skill deficit >= 0, and the cards at or above t must still
        cover what remains: Inside Men, plus per skill up to its deficit. Every card has one
        fixed skill or is an Inside Man, so taking t out of both the cards left and the deficits
        lowers that cover by exactly 1: Inside Men - 1 + sum over skills k of
        min(cards of skill k at or above t, skill k needed before the pick).
        """
        hand = _rows(s.hand, 19)[g * self.num_players + me].astype(np.float32)
        req = JOB_REQ_F[s.team_job[g]] - s.staging[g] @ SKILL_OH_F  # [n, 3] before this pick
        need = s.picks_left[g, None] - 1  # after this pick (a Job's size sums its requirements)
        cover = hand[:, IM, None] - 1 + np.minimum(hand @ GE_SKILL[0], req[:, 0, None])
        for k in (1, 2):
            cover += np.minimum(hand @ GE_SKILL[k], req[:, k, None])
        # no deficit below 0: t's own skill still needed, none over-filled
        ok = (req @ SKILL_OF_T >= IS_FIXED) & (np.minimum.reduce(req, axis=1) >= 0)[:, None]
        return ok & (hand > 0) & (cover >= need) & (ARANGE_T >= s.last_pick[g, None])

    def _opp_mask(self, s: GriftersState, g: np.ndarray, me: np.ndarray) -> np.ndarray:
        """bool [n, N] by seat offset: eligible opponents for the pending primitive."""
        N = self.num_players
        op = C.PROG_OP[s.prog[g], s.pc[g]]
        m = np.ones((g.size, N), bool)
        rich = op == C.RICHEST_OPP
        if _any(rich):
            m[rich] = self._richest(s, g[rich])
        kid = op == C.KIDNAP
        if _any(kid):
            m[kid] = self._rel(s.hand[g[kid]].sum(axis=2), me[kid]) > 0
        ab = op == C.ABDUCT
        if _any(ab):
            elig = (s.night[g[ab]][..., C.ABDUCTABLE] > 0).any(axis=(2, 3))
            m[ab] = self._rel(elig, me[ab])
        m[:, 0] = False
        return m

    # == Game End & Scoring ========================================================================
    def scores(self, s: GriftersState) -> np.ndarray:
        """Stash plus the set bonus of 2/4/8M for 2/3/4 Jobs of one colour."""
        return (s.stash + self._set_bonus(s)).astype(np.int64)

    def _set_bonus(self, s: GriftersState) -> np.ndarray:
        own = s.job_owner[:, None, :] == np.arange(self.num_players)[None, :, None]  # [B,N,20]
        per_colour = own.astype(np.int64) @ JOB_STACK_OH.astype(np.int64)  # [B,N,5]
        return C.SET_BONUS[per_colour].sum(axis=2)

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
        """int [B, N]: cards a player holds in hand, Hideout, Refresh Area and staging.

        Staging belongs to the active player; a game that ends mid-play has already moved
        it into that player's Night One (`_end_games`), so finished games need no active seat.
        """
        n = (s.hand.sum(axis=2, dtype=np.int64) + s.night.sum(axis=(2, 3), dtype=np.int64)
             + s.refresh.sum(axis=2, dtype=np.int64))
        B = s.batch_size
        live = s.current_player >= 0
        n[np.arange(B)[live], s.current_player[live]] += s.staging[live].sum(axis=1)
        return n

    def rank_keys(self, s: GriftersState) -> np.ndarray:
        """Score, then most Jobs, fewest Specialists [RB], fewest turns, later seat [D17]."""
        N = self.num_players
        jobs = (s.job_owner[:, None, :] == np.arange(N)[None, :, None]).sum(axis=2)
        pos = (np.arange(N)[None, :] - s.start_player[:, None].astype(np.int64)) % N
        turns = np.minimum(s.turns_taken.astype(np.int64), 65535)
        key = self.scores(s) * 32 + jobs
        key = key * 128 + (127 - np.minimum(self.specialists(s), 127))
        key = key * 65536 + (65535 - turns)
        return key * 4 + pos

    # == observation ===============================================================================
    def _observe(self, s: GriftersState, seats: np.ndarray) -> np.ndarray:
        """Every field as a small integer, in the layout's column order, written into the
        float32 output by one concatenate, then scaled by one in-place multiply."""
        B, N = s.batch_size, self.num_players
        k = self._obs_consts(B)
        b = k["b"]
        my_hand = s.hand[b, seats]
        # every seat's public block once, then one gather puts them clockwise from the observer
        feat = np.concatenate(self._seat_blocks(s), axis=2, out=k["feat"])
        blocks = feat.reshape(B * N, -1).take(k["bN"] + self._clockwise[seats], axis=0)
        blocks[:, 0, self._known_hand] = my_hand  # the observer's own block: the whole hand
        status = JOB_STATUS_OH.take(s.job_owner * 5 + s.stack_top[:, C.JOB_STACK]
                                    + JOB_STATUS_KEY, axis=0)
        out = np.concatenate([
            k["num_players"], s.coffers[:, None], s.deck_len[:, None], s.discard,
            np.minimum(s.turns_total, 200)[:, None], blocks[:, 0, self._turns_taken, None] == 0,
            status.reshape(B, -1), blocks.reshape(B, -1), my_hand,
            # the pending decision, then its context (kept below for the decision's owner only)
            DECISION_OH.take(s.dec, axis=0), EFFECT_OH.take(s.prog, axis=0),
            JOB_OH.take(s.team_job, axis=0), s.staging, k["zero3"], s.mm_draw,
            self._target_oh.take(s.tgt_player * N + s.current_player, axis=0),
            NIGHT_OH.take(s.tgt_night, axis=0), JOB_OH.take(s.fence_own, axis=0),
            np.minimum(s.extra_capers, 3)[:, None],
        ], axis=1, out=self._pool.empty((B, self.base_obs_size)))
        job = (s.team_job >= 0).nonzero()[0]
        if job.size:
            out[job, self._team_needed_cols] = self._team_needed(s, job)
        mine = (s.current_player == seats) & IS_DECISION.take(s.dec)
        if not _all(mine):
            out[~mine, self._decision_start:] = 0
        out *= self._obs_scale
        return out

    def _seat_blocks(self, s: GriftersState) -> list[np.ndarray]:
        """The fields of every seat's block, [B, N, width] each, in absolute seat order."""
        B, N = s.batch_size, self.num_players
        jobs = s.job_owner[:, None, :] == self._seat_ids[:, :, None]  # [B, N, 20]
        # Job ids run stack by stack (4 st + order): a colour's Jobs are the 4 bytes of a 32-bit
        # word, each 0 or 1, so the word's set bits count them
        by_colour = np.bitwise_count(jobs.view(np.uint32))
        score = np.minimum(s.stash + _total(C.SET_BONUS.take(by_colour)), 100)
        return [s.stash[..., None], np.minimum(_total(s.hand), 30)[..., None],
                s.known, s.night.reshape(B, N, -1), s.night_isk, s.refresh, jobs, by_colour,
                score[..., None], np.minimum(s.turns_taken, 100)[..., None],
                self._start_active.take(s.current_player * N + s.start_player, axis=0)]

    @staticmethod
    def _team_needed(s: GriftersState, g: np.ndarray) -> np.ndarray:
        """[n, 3] remaining (brain, speed, brawn) of the Job in progress in games g."""
        return TEAM_NEEDED.take(_team_row(s.staging[g]) + s.team_job[g], axis=0)

    def _obs_consts(self, B: int) -> dict[str, np.ndarray]:
        """Per batch size: row indices, constant columns and the reused int16 seat blocks."""
        k = self._obs_cache.get(B)
        if k is None:
            if len(self._obs_cache) > 8:
                self._obs_cache.clear()
            N = self.num_players
            np_col = np.zeros((B, 3), np.int16)
            np_col[:, N - 2] = 1
            k = self._obs_cache[B] = {
                "b": np.arange(B), "bN": np.arange(B)[:, None] * N, "num_players": np_col,
                "zero3": np.zeros((B, 3), np.int16),
                "feat": np.empty((B, N, self._block_size), np.int16)}
        return k

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
        live = np.flatnonzero(~s.done & (s.dec > NONE) & (s.dec < NUM_DECISIONS))
        for d in np.unique(s.dec[live]):
            g = live[s.dec[live] == d]
            s.legal_action_mask[g] = self._mask(s, g, int(d))
        return s

    # == text ======================================================================================
    def render(self, state: GriftersState, b: int = 0, player: int | None = None) -> str:
        from .render import render_text

        return render_text(self, state, b, player)


_HANDLERS = {
    MAIN: GriftersGame._main, TEAM_PICK: GriftersGame._team_pick,
    CHOOSE_OPP: GriftersGame._choose_opp, MM_KEEP: GriftersGame._mm_keep,
    FALLGUY_PICK: GriftersGame._fallguy_pick, THUG_PARTNER: GriftersGame._thug_partner,
    THUG_SKILL: GriftersGame._thug_skill, MIDDLEMAN_PICK: GriftersGame._middleman_pick,
    IM_NIGHT: GriftersGame._im_night, IM_CARD: GriftersGame._im_card,
    SNITCH_PLAYER: GriftersGame._snitch_player, SNITCH_PAIR: GriftersGame._snitch_pair,
    WHEELMAN_NIGHT: GriftersGame._wheelman_night, FENCE_OWN: GriftersGame._fence_own,
    FENCE_OTHER: GriftersGame._fence_other, FF_EXTRA: GriftersGame._ff_extra,
}
_OPS = {
    C.END: GriftersGame._op_end, C.COFFERS: GriftersGame._op_coffers,
    C.OPP: GriftersGame._op_choose, C.EACH_OPP: GriftersGame._op_each_opp,
    C.RICHEST_OPP: GriftersGame._op_richest, C.BLACKMAIL: GriftersGame._op_choose,
    C.DRAW: GriftersGame._op_draw, C.DRAW_KEEP: GriftersGame._op_draw_keep,
    C.FENCE: GriftersGame._op_fence, C.ADVANCE: GriftersGame._op_advance,
    C.GRANT_EXTRA: GriftersGame._op_grant_extra, C.WHEEL: GriftersGame._op_wheel,
}
# card operations that only open the decision their effect starts with
_OPENS_DECISION = {C.COPY_HAND: FALLGUY_PICK, C.COPY_REFRESH: MIDDLEMAN_PICK,
                   C.THUG: THUG_PARTNER, C.KIDNAP: CHOOSE_OPP, C.ABDUCT: CHOOSE_OPP,
                   C.SNITCH: SNITCH_PLAYER}


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
