"""The Big Score rules as compiled scalar functions over one game's record `g`, ordered like
the rulebook: Setup (boss options), Act I rounds (round setup, Hire Crew = the draft, the
Training pickup, Assign Crew, Resolve Jobs with JoAT and the Inside Man, Cleanup), Act II
(setup, Rob or Flee, the Reveal with the Driver and the Grease Man, Getting Busted, the
Muscle, trades with the Con Man and the Gun Man), Game End and scoring; then the masks and the
observation.

Simultaneous secret choices (boss option, draft pick, JoAT fists, rob or flee) are windows:
the seats of a window act one after another in `queue` order, their choices stay hidden until
it closes. A decision's handler plays every automatic rule that follows up to the next
decision; `resume` then sets the acting seat and its mask.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..core import scalar
from ..core.jit import jit, load_drivers
from ..core.scalar import mark_hot, put, put_capped
from . import components as C

HERE = Path(__file__).resolve().parent

# -- decisions (also the `meta.decision` one-hot of the observation) ----------------------------
# NumPy ints: numba compiles a function anew for every literal Python int passed to it
NONE, BOSS_OPTION, DRAFT, ASSIGN, JOAT, ROB_FLEE, MUSCLE, TRADE, GUN_STEAL, GREASE_STEAL = (
    np.arange(10))
NUM_DECISIONS = 10
DECISION_NAMES = ("none", "boss_option", "draft", "assign", "joat", "rob_flee", "muscle",
                  "trade", "gun_steal", "grease_steal")
# automatic points that `resume` plays (crafted states start there: scenarios, tests)
RESOLVE_JOBS, ACT2_SETUP = np.int64(10), np.int64(11)
# stages (the `meta.stage` one-hot)
SETUP, ROUND1, ROUND2, ROUND3, ACT2, OVER = np.arange(6)
# job status per position
EMPTY, OPEN, SUCCESS, FAILED, UNATTEMPTED = np.arange(5)
# Act II status per seat
IN_VAULT, FLED, BUSTED = np.arange(3)
# assignment targets: job positions 0..5, then these
TRAINING, UNASSIGNED = np.int64(6), np.int64(7)

# random streams (core.rng): each use of chance draws from its own stream
S_CREW, S_JOBS, S_BOSS, S_BAG, S_MISC = np.arange(5)

# -- actions: 139 ids whatever the player count (names in kernel.action_layout) ----------------
A_DRAFT, A_ASSIGN, A_JOAT, A_ROB, A_FLEE = np.array([0, 12, 20, 23, 24])
A_BOSS_TOKEN, A_BOSS_CASH, A_MUSCLE_STEAL, A_MUSCLE_PASS = np.array([25, 26, 27, 28])
A_TRADE_PASS, A_TRADE, A_CONMAN, A_GUN_DECLINE, A_GUN, A_GREASE = np.array(
    [29, 30, 39, 120, 121, 130])
NUM_ACTIONS = 139

# -- option codes in the config -------------------------------------------------------------------
BOSS_MODES = ("choose", "token", "cash", "random")
FP_RULES = ("youngest_last_seat", "lowest_seat", "random")
CHOOSE, FP_YOUNGEST, FP_LOWEST = np.int64(0), np.int64(0), np.int64(1)

# -- the state of one game (the batch is a structured array of these records) --------------------
NK, NT, NV, NL = C.NUM_KINDS, C.NUM_TYPES, C.NUM_TOKENS, C.NUM_LOOT
SCRIPT = 16  # room for stacked bag tokens (scenarios)
STATE_FIELDS = (
    ("phase", np.int8, (), "pending decision type (NONE once over)"),
    ("stage", np.int8, (), "SETUP, ROUND1..3, ACT2, OVER"),
    ("queue", np.int8, ("N",), "seats of the open window in acting order (-1 pad)"),
    ("qlen", np.int8, (), "seats in the window"),
    ("qpos", np.int8, (), "cursor into queue: the acting seat is queue[qpos]"),
    ("committed", np.bool_, ("N",), "has made its secret choice in the open window"),
    ("boss", np.int8, ("N",), "boss board of each seat"),
    ("boss_choice", np.int8, ("N",), "starting option: -1 none yet, 0 token, 1 cash"),
    ("cash", np.int32, ("N",), "cash tokens ($10K)"),
    ("payout", np.int16, ("N", 3), "Act I Artifacts, Diamonds, Hard Drives"),
    ("act1_score", np.int32, ("N",), "worth of cash and payout alone (the score in Act I)"),
    ("crew_deck", np.int8, (C.CREW_DECK_SIZE,), "kinds in draw order"),
    ("crew_ptr", np.int16, (), "next card of the crew deck"),
    ("job_deck", np.int8, (24,), "job ids in draw order"),
    ("job_ptr", np.int8, (), "next job of the job deck"),
    ("jobs", np.int8, (6,), "job id at each position (-1 none)"),
    ("job_status", np.int8, (6,), "EMPTY, OPEN, SUCCESS, FAILED, UNATTEMPTED"),
    ("jobs_seen", np.bool_, (24,), "dealt face-up this game"),
    ("draft_step", np.int8, (), "picks made this round"),
    ("hands", np.int8, ("N", NK), "draft hand each seat holds now"),
    ("picks", np.int8, ("N", NK), "cards drafted this round"),
    ("pick_pending", np.int8, ("N",), "secret pick of the open draft window"),
    ("pick_log", np.int8, ("N", 8), "kind each seat picked at each pick step of this round "
     "(-1 none): with the deal, the round's draft (what each seat saw pass through its hands)"),
    ("deal_ptr", np.int16, (), "crew deck index where this round's deal began"),
    ("ahand", np.int8, ("N", NK), "cards still to assign"),
    ("returned", np.int8, ("N", NK), "public training cards picked up this round"),
    ("assign", np.int8, ("N", 8, NK), "assigned cards per target (jobs, training, trash)"),
    ("cur_kind", np.int8, (), "card kind being assigned (ASSIGN), else -1"),
    ("train", np.int8, ("N", NK), "training pile carried to the next round"),
    ("train_public", np.int8, ("N", 2), "last revealed training pile: type (-1), count"),
    ("trash", np.int8, ("N", NK), "own unassigned cards discarded face-down"),
    ("crew_revealed", np.int16, (NK,), "crew cards revealed face-up (job piles, Inside Man)"),
    ("cur_job", np.int8, (), "position being resolved"),
    ("missing", np.int8, (), "icons still missing there (JoAT window)"),
    ("pile", np.int8, (6, NT), "revealed pile per position per crew type"),
    ("contrib", np.int8, ("N", 6), "cards each seat revealed per position"),
    ("joat_rev", np.int8, ("N", 6), "JoAT tokens revealed per seat per position"),
    ("inside", np.int8, (6,), "Inside Man card type per position (-1 none)"),
    ("last_jobs", np.int8, (6,), "the last resolved round: job id per position (-1 none)"),
    ("last_status", np.int8, (6,), "the last resolved round: job status per position"),
    ("last_pile", np.int8, (6, NT), "the last resolved round: revealed pile per crew type"),
    ("last_contrib", np.int8, ("N", 6), "the last resolved round: cards each seat revealed"),
    ("last_joat_rev", np.int8, ("N", 6), "the last resolved round: JoAT tokens revealed"),
    ("last_inside", np.int8, (6,), "the last resolved round: Inside Man card type (-1 none)"),
    ("joat", np.int8, ("N",), "unused JoAT tokens"),
    ("joat_pending", np.int8, ("N",), "secret JoAT choice of the open window"),
    ("ability", np.int8, ("N",), "expert ability (crew type) or -1"),
    ("ability_used", np.bool_, ("N",), "once-per-game ability spent"),
    ("status", np.int8, ("N",), "IN_VAULT, FLED, BUSTED (Act II)"),
    ("bag", np.int16, (NV,), "vault bag per token type"),
    ("bag_ptr", np.int32, (), "draws made from the bag (RNG counter)"),
    ("misc_ptr", np.int32, (), "other random choices (RNG counter)"),
    ("vault_floor", np.int8, (NL,), "the Vault Floor per loot type"),
    ("vault_pile", np.int16, ("N", NL), "Act II loot held (at risk until fled)"),
    ("drawn", np.int8, ("N",), "token revealed this Act II round (-1 none)"),
    ("banked", np.bool_, ("N",), "that token already joined the vault pile"),
    ("rob_pending", np.int8, ("N",), "secret choice: -1 none, 0 rob, 1 flee"),
    ("first_player", np.int8, (), "First Player Marker (Act II)"),
    ("cops_track", np.int8, (), "Cops tokens on the track"),
    ("busted_round", np.bool_, (), "the cops arrived this round"),
    ("act2_round", np.int16, (), "Act II round"),
    ("stacked", np.int8, (SCRIPT,), "tokens stacked on top of the bag: the next draws take "
     "them in order (scenarios; empty in play)"),
    ("stacked_len", np.int8, (), "tokens stacked"),
    ("stacked_pos", np.int8, (), "stacked tokens drawn so far"),
)
CONFIG_FIELDS = (
    ("hand_size", np.int64), ("inside_man", np.bool_), ("joat_per_player", np.int64),
    ("cops_to_bust", np.int64), ("simple", np.bool_), ("abilities_on", np.bool_),
    ("ability_on", np.uint8, (NT,)), ("boss_mode", np.int64), ("boss_random", np.bool_),
    ("fp_rule", np.int64), ("job_req", np.int64, (25, NT)), ("job_cash", np.int64, (25,)),
    ("job_token", np.int64, (25,)), ("boss_token", np.int64, (6,)),
    ("boss_cash", np.int64, (6,)),
)

# -- tables the compiled code reads (small, so numba freezes them into the code) ----------------
KIND_TYPE = C.KIND_TYPE.astype(np.int64)
KIND_EXPERT = C.KIND_EXPERT.copy()
VAULT_COUNTS = C.VAULT_COUNTS.astype(np.int64)
LOOT_FACE = C.LOOT_FACE.astype(np.int64)
CASH_FACE = C.CASH_FACE.astype(np.int64)
DIAMOND_TABLE = np.array(C.DIAMOND_TABLE, np.int64)
PASS_DIR = np.array(C.PASS_DIR, np.int64)
# observation scales: 1 / the field's most, as float32 (the layout's own column scales)
F2, F3, F5, F6, F7, F8, F9, F10, F12, F15 = (np.float32(1.0 / x) for x in
                                           (2, 3, 5, 6, 7, 8, 9, 10, 12, 15))
F30, F62, F90, F100, F300 = (np.float32(1.0 / x) for x in (30, 62, 90, 100, 300))
ONE = np.float32(1.0)
SLOTS = 6  # relative seats in every observation, whatever the player count
PLAYER_BLOCK = 1 + 1 + 1 + 3 + 3 + 1 + 2 + 1 + 6 + 1 + 1 + 1 + 6 + 1 + 3 + NL + NV + 1


# == small pieces ==================================================================================
@jit
def kinds_total(row: np.ndarray) -> int:
    n = 0
    for k in range(row.shape[0]):
        n += int(row[k])
    return n


@jit
def first_kind(row: np.ndarray) -> int:
    """The first kind held (0 where none)."""
    for k in range(row.shape[0]):
        if row[k] > 0:
            return k
    return 0


@jit
def diamond_value(d: int) -> int:
    """Total worth of d diamonds (the table, then +$150K each after the fifth)."""
    if d <= 5:
        return DIAMOND_TABLE[d]
    return DIAMOND_TABLE[5] + C.DIAMOND_EXTRA * (d - 5)


@jit
def draw(g, loot_only: bool) -> int:
    """One uniform draw from the bag (-1 if empty; loot only: the Floor's draws); the caller
    takes the token out. Stacked tokens come first."""
    if g.stacked_pos < g.stacked_len:
        v = int(g.stacked[g.stacked_pos])
        g.stacked_pos += 1
        return v
    u = scalar.uniform(g.key, S_BAG, np.uint64(g.bag_ptr))
    g.bag_ptr += 1
    if loot_only:
        return scalar.draw_from_counts(g.bag[:NL], u)
    return scalar.draw_from_counts(g.bag, u)


# == windows: simultaneous secret choices, serialized =============================================
@jit
def open_window(g, phase: int, seats: int, start: int, c) -> None:
    """The seats in the bit set `seats` act in clockwise order from `start`."""
    n = c.num_players
    k = 0
    for j in range(n):
        p = (start + j) % n
        if seats >> p & 1:
            g.queue[k] = p
            k += 1
    for j in range(k, g.queue.shape[0]):
        g.queue[j] = -1
    g.qlen = k
    g.qpos = 0
    g.phase = phase
    g.committed[:] = 0


@jit(inline="always")
def advance_window(g) -> bool:
    """Move the window cursor on; True when the window is now closed."""
    g.qpos += 1
    return g.qpos >= g.qlen


@jit(inline="always")
def secret(g, pending: np.ndarray, value: int) -> bool:
    """Record the acting seat's secret choice (a closed fist over the table); True when the
    window just closed and the choices are revealed together."""
    seat = int(g.current_player)
    pending[seat] = value
    g.committed[seat] = 1
    return advance_window(g)


@jit(inline="always")
def all_seats(c) -> int:
    return (1 << c.num_players) - 1


# == Setup =========================================================================================
@jit
def setup(g, c) -> None:
    """RB › Setup: shuffle the crew and job decks, hand out the boss boards and $200K, then
    the starting options (a secret choice, or fixed by the options)."""
    n = c.num_players
    order = scalar.permutation(g.key, S_CREW, C.CREW_DECK_SIZE)
    for i in range(C.CREW_DECK_SIZE):
        expert = 1 if order[i] % 15 >= 8 and not c.simple else 0
        g.crew_deck[i] = 2 * (order[i] // 15) + expert
    if c.boss_random:
        bosses = scalar.permutation(g.key, S_BOSS, 6)
        for p in range(n):
            g.boss[p] = bosses[p]
    else:
        for p in range(n):
            g.boss[p] = p
    jobs = scalar.permutation(g.key, S_JOBS, 24)
    for i in range(24):
        g.job_deck[i] = jobs[i]
    g.queue[:] = -1
    g.boss_choice[:] = -1
    g.cash[:] = C.START_CASH
    g.act1_score[:] = C.START_CASH
    g.jobs[:] = -1
    g.last_jobs[:] = -1
    g.last_inside[:] = -1
    g.pick_pending[:] = -1
    g.cur_kind = -1
    g.train_public[:, 0] = -1
    g.inside[:] = -1
    g.joat[:] = c.joat_per_player
    g.ability[:] = -1
    for v in range(NV):
        g.bag[v] = VAULT_COUNTS[v]
    g.drawn[:] = -1
    g.rob_pending[:] = -1
    if c.boss_mode == CHOOSE:
        open_window(g, BOSS_OPTION, all_seats(c), 0, c)
        return
    for p in range(n):
        if c.boss_mode == 3:  # random
            g.boss_choice[p] = int(scalar.uniform(g.key, S_MISC, np.uint64(p)) < 0.5)
        else:
            g.boss_choice[p] = int(c.boss_mode == 2)  # cash
    if c.boss_mode == 3:
        g.misc_ptr = n
    take_boss_options(g, c)


@jit
def take_boss_options(g, c) -> None:
    """RB › Setup 8: each player takes the token or the cash shown on his board."""
    for p in range(c.num_players):
        b = int(g.boss[p])
        if g.boss_choice[p] == 0:
            g.payout[p, c.boss_token[b]] += 1
        elif g.boss_choice[p] == 1:
            g.cash[p] += c.boss_cash[b]
    score_act1(g, c)
    round_setup(g, c)


@jit(inline="always")
def on_boss_option(g, a: int, c) -> None:
    if secret(g, g.boss_choice, a - A_BOSS_TOKEN):
        take_boss_options(g, c)


# == Act I › Round Setup ===========================================================================
@jit
def round_setup(g, c) -> None:
    """Deal 6 jobs face-up and a hand to each player; reset the JoAT tokens."""
    n, h = c.num_players, c.hand_size
    g.stage += 1
    for i in range(C.JOBS_PER_ROUND):
        j = g.job_deck[g.job_ptr + i]
        g.jobs[i] = j
        g.jobs_seen[j] = 1
        g.job_status[i] = OPEN
        g.inside[i] = -1
    g.job_ptr += C.JOBS_PER_ROUND
    g.pile[:] = 0
    g.contrib[:] = 0
    g.joat_rev[:] = 0
    g.hands[:] = 0
    ptr = int(g.crew_ptr)
    g.deal_ptr = ptr
    g.pick_log[:] = -1
    for p in range(n):
        for i in range(h):
            g.hands[p, g.crew_deck[ptr + p * h + i]] += 1
    g.crew_ptr += n * h
    g.picks[:] = 0
    g.joat[:] = c.joat_per_player
    g.draft_step = 0
    open_draft(g, c)


# == Act I › Phase 1 - Hire Crew ===================================================================
@jit(inline="always")
def open_draft(g, c) -> None:
    g.pick_pending[:] = -1
    open_window(g, DRAFT, all_seats(c), 0, c)


@jit
def on_draft(g, a: int, c) -> None:
    """Everyone picks a card secretly; then the rest of the hands pass (left, right, left).
    "When a last single card is passed, the player simply adds it to his other cards"."""
    if not secret(g, g.pick_pending, a - A_DRAFT):
        return
    n = c.num_players
    for p in range(n):
        k = g.pick_pending[p]
        g.picks[p, k] += 1
        g.hands[p, k] -= 1
        g.pick_log[p, g.draft_step] = k
    held = g.hands[:n].copy()
    d = PASS_DIR[g.stage - ROUND1]
    for p in range(n):
        g.hands[p] = held[(p - d) % n]
    g.draft_step += 1
    if g.draft_step < c.hand_size - 1:
        open_draft(g, c)
        return
    for p in range(n):
        for k in range(NK):
            g.picks[p, k] += g.hands[p, k]
    g.hands[:] = 0
    g.pick_pending[:] = -1
    pickup_and_assign(g, c)


@jit
def pickup_and_assign(g, c) -> None:
    """RB › Phase 1 IMPORTANT: training cards of the last round return to the hand; then
    everyone assigns his cards."""
    seats = 0
    for p in range(c.num_players):
        for k in range(NK):
            g.returned[p, k] = g.train[p, k]
            g.ahand[p, k] = g.picks[p, k] + g.train[p, k]
        if kinds_total(g.ahand[p]) > 0:
            seats |= 1 << p
    g.train[:] = 0
    g.picks[:] = 0
    g.assign[:] = 0
    open_window(g, ASSIGN, seats, 0, c)


# == Act I › Phase 2 - Assign Crew =================================================================
@jit
def on_assign(g, a: int, c) -> None:
    """The current card goes to a job, to Training or stays unassigned; once every seat has
    assigned all its cards, the jobs are resolved."""
    seat = int(g.current_player)
    k = int(g.cur_kind)
    g.assign[seat, a - A_ASSIGN, k] += 1
    g.ahand[seat, k] -= 1
    if kinds_total(g.ahand[seat]) == 0 and advance_window(g):
        g.cur_job = 0
        resolve_jobs(g, c)


# == Act I › Phase 3 - Resolve Jobs ================================================================
@jit
def resolve_jobs(g, c) -> None:
    """Resolve positions cur_job.. in order until a JoAT window opens or all are done."""
    resolve_positions(g, c)
    score_act1(g, c)


@jit
def resolve_positions(g, c) -> None:
    n = c.num_players
    for _ in range(C.JOBS_PER_ROUND + 1):
        p = int(g.cur_job)
        if p >= C.JOBS_PER_ROUND:
            cleanup(g, c)
            return
        participants = 0
        for q in range(n):
            if kinds_total(g.assign[q, p]) > 0:
                participants |= 1 << q
        if participants == 0:  # D-06: unattempted
            g.job_status[p] = UNATTEMPTED
            g.cur_job += 1
            continue
        # the reveal: all participants' cards form a common face-up pile
        for t in range(NT):
            g.pile[p, t] = 0
        for q in range(n):
            g.contrib[q, p] = kinds_total(g.assign[q, p])
            for k in range(NK):
                x = g.assign[q, p, k]
                g.pile[p, KIND_TYPE[k]] += x
                g.crew_revealed[k] += x
                g.assign[q, p, k] = 0
        job = int(g.jobs[p])
        missing = 0
        for t in range(NT):
            missing += max(c.job_req[job, t] - int(g.pile[p, t]), 0)
        if c.inside_man and missing > 0:
            # RB › 2-Player Rules › The Inside Man: the top crew card joins the pile
            card = int(g.crew_deck[g.crew_ptr])
            g.crew_ptr += 1
            g.crew_revealed[card] += 1
            t = KIND_TYPE[card]
            g.inside[p] = t
            if c.job_req[job, t] > g.pile[p, t]:
                missing -= 1
            g.pile[p, t] += 1
        eligible, tokens = 0, 0
        for q in range(n):
            if participants >> q & 1 and g.joat[q] > 0:
                eligible |= 1 << q
                tokens += int(g.joat[q])
        if 0 < missing <= tokens:
            g.missing = missing
            g.joat_pending[:] = 0
            open_window(g, JOAT, eligible, 0, c)
            return
        job_outcome(g, p, participants, missing == 0, c)


@jit
def on_joat(g, a: int, c) -> None:
    """The fists open together; revealed tokens are spent whatever the outcome."""
    if not secret(g, g.joat_pending, a - A_JOAT):
        return
    p = int(g.cur_job)
    shown, participants = 0, 0
    for q in range(c.num_players):
        x = int(g.joat_pending[q])
        g.joat[q] -= x
        g.joat_rev[q, p] = x
        shown += x
        if g.contrib[q, p] > 0:
            participants |= 1 << q
    job_outcome(g, p, participants, shown >= g.missing, c)
    g.joat_pending[:] = 0
    g.missing = 0
    resolve_jobs(g, c)


@jit
def job_outcome(g, p: int, participants: int, success: bool, c) -> None:
    """RB › Job Payout / Job Failure, then move on to the next position. A success pays every
    participant in full; a player with less than $20K ignores the penalty (D-08)."""
    job = int(g.jobs[p])
    for q in range(c.num_players):
        if not participants >> q & 1:
            continue
        if success:
            g.cash[q] += c.job_cash[job]
            g.payout[q, c.job_token[job]] += 1
        elif g.cash[q] >= C.FAIL_PENALTY:
            g.cash[q] -= C.FAIL_PENALTY
    g.job_status[p] = SUCCESS if success else FAILED
    g.cur_job = p + 1


# == Act I › End-of-Round Cleanup ==================================================================
@jit
def cleanup(g, c) -> None:
    """Unassigned cards are discarded face-down; training piles are revealed; then the next
    round, or Act II (the jobs and everything about them set aside)."""
    for q in range(c.num_players):
        count = 0
        for k in range(NK):
            g.trash[q, k] += g.assign[q, UNASSIGNED, k]
            g.train[q, k] = g.assign[q, TRAINING, k]
            count += int(g.train[q, k])
        g.train_public[q, 0] = KIND_TYPE[first_kind(g.train[q])] if count > 0 else -1
        g.train_public[q, 1] = count
    keep_record(g)
    g.assign[:] = 0
    g.returned[:] = 0
    g.cur_job = 0
    if g.stage < ROUND3:
        round_setup(g, c)
        return
    g.job_status[:] = EMPTY
    g.jobs[:] = -1
    g.pile[:] = 0
    g.contrib[:] = 0
    g.joat_rev[:] = 0
    g.inside[:] = -1
    act2_setup(g, c)


@jit
def keep_record(g) -> None:
    """The public record of the round's reveals (cards by type, who sent them, JoAT tokens,
    the Inside Man, the outcomes) is kept until the next round's jobs are resolved."""
    g.last_jobs[:] = g.jobs
    g.last_status[:] = g.job_status
    g.last_pile[:] = g.pile
    g.last_contrib[:] = g.contrib
    g.last_joat_rev[:] = g.joat_rev
    g.last_inside[:] = g.inside


# == Act II › Set-up at the Beginning of Act II ====================================================
@jit
def act2_setup(g, c) -> None:
    """Expert Abilities from Training, the First Player Marker (fewest payout tokens), the
    Vault Floor (5 draws of loot: Cops drawn are put back and replaced)."""
    n = c.num_players
    g.stage = ACT2
    for q in range(n):
        t = int(g.train_public[q, 0])
        g.ability[q] = t if g.train_public[q, 1] == 3 and c.ability_on[max(t, 0)] else -1
    fewest = 1 << 30
    for q in range(n):
        fewest = min(fewest, payout_tokens(g, q))
    tied, last, lowest = 0, -1, -1
    for q in range(n):
        if payout_tokens(g, q) == fewest:
            tied += 1
            last = q
            if lowest < 0:
                lowest = q
    if c.fp_rule == FP_YOUNGEST:
        fp = last
    elif c.fp_rule == FP_LOWEST:
        fp = lowest
    else:
        u = scalar.uniform(g.key, S_MISC, np.uint64(g.misc_ptr))
        g.misc_ptr += 1
        rank = int(np.floor(u * tied))
        fp = -1
        for q in range(n):
            if payout_tokens(g, q) == fewest:
                if rank == 0:
                    fp = q
                    break
                rank -= 1
    g.first_player = fp
    g.status[:] = IN_VAULT
    for _ in range(C.FLOOR_SIZE):
        v = draw(g, True)
        g.bag[v] -= 1
        g.vault_floor[v] += 1
    start_act2_round(g, c)


@jit
def payout_tokens(g, q: int) -> int:
    return int(g.payout[q, 0]) + int(g.payout[q, 1]) + int(g.payout[q, 2])


# == Act II › Phase 1 - Rob or Flee the Vault ======================================================
@jit
def start_act2_round(g, c) -> None:
    g.act2_round += 1
    g.drawn[:] = -1
    g.banked[:] = 0
    g.rob_pending[:] = -1
    open_window(g, ROB_FLEE, inside_seats(g, c), int(g.first_player), c)


@jit
def inside_seats(g, c) -> int:
    seats = 0
    for q in range(c.num_players):
        if g.status[q] == IN_VAULT:
            seats |= 1 << q
    return seats


@jit(inline="always")
def on_rob_flee(g, a: int, c) -> None:
    if secret(g, g.rob_pending, a - A_ROB):
        reveal(g, c)


@jit
def reveal(g, c) -> None:
    """RB › The Reveal and Getting Busted, with the Driver's and Grease Man's flight.
    Robbers draw clockwise from the marker (the window's order)."""
    qlen = int(g.qlen)
    for j in range(qlen):
        q = int(g.queue[j])
        if g.rob_pending[q] == 0:
            v = draw(g, False)
            if v >= 0:
                g.bag[v] -= 1
            g.drawn[q] = v
    for q in range(c.num_players):
        if g.drawn[q] == C.COPS:
            g.cops_track += 1
    bust = g.cops_track >= c.cops_to_bust
    g.busted_round = bust
    # Driver: draws and keeps two tokens; Cops drawn go back, never on the track
    for j in range(qlen):
        q = int(g.queue[j])
        if g.rob_pending[q] == 1 and g.ability[q] == C.DRIVER and not g.ability_used[q]:
            g.ability_used[q] = 1
            cops_back = 0
            for _ in range(2):
                v = draw(g, False)
                if v >= 0:
                    g.bag[v] -= 1
                    if v != C.COPS:
                        g.vault_pile[q, v] += 1
                    else:
                        cops_back += 1
            g.bag[C.COPS] += cops_back
    for q in range(c.num_players):
        if g.rob_pending[q] == 1:
            g.status[q] = FLED
    pass_marker_if_gone(g, c)
    if bust:
        # Getting Busted: everyone still inside loses his Act II loot back into the vault
        for q in range(c.num_players):
            if g.status[q] != IN_VAULT:
                continue
            for v in range(NL):
                g.bag[v] += g.vault_pile[q, v]
                g.vault_pile[q, v] = 0
            held = int(g.drawn[q])
            if held >= 0 and held != C.COPS:
                g.bag[held] += 1
            g.status[q] = BUSTED
    # Grease Man: steals a Floor token on fleeing (even in a round that busts)
    greasers = 0
    if floor_total(g) > 0:
        for q in range(c.num_players):
            if (g.rob_pending[q] == 1 and g.ability[q] == C.GREASE_MAN
                    and not g.ability_used[q]):
                greasers |= 1 << q
    if greasers:
        open_window(g, GREASE_STEAL, greasers, int(g.queue[0]), c)
        return
    after_flight(g, c)


@jit
def floor_total(g) -> int:
    n = 0
    for v in range(NL):
        n += int(g.vault_floor[v])
    return n


@jit(inline="always")
def on_grease(g, a: int, c) -> None:
    seat = int(g.current_player)
    v = a - A_GREASE
    g.vault_floor[v] -= 1
    g.vault_pile[seat, v] += 1
    g.ability_used[seat] = 1
    closed = advance_window(g)
    if closed or floor_total(g) == 0:
        after_flight(g, c)


@jit
def pass_marker_if_gone(g, c) -> None:
    """A fleeing holder passes the First Player Marker left, skipping fled players."""
    if g.status[g.first_player] != IN_VAULT:
        pass_marker(g, c)


@jit
def pass_marker(g, c) -> None:
    """Marker to the next seat clockwise still in the vault (may come back to the holder)."""
    n = c.num_players
    fp = int(g.first_player)
    for j in range(1, n + 1):
        q = (fp + j) % n
        if g.status[q] == IN_VAULT:
            g.first_player = q
            return


@jit
def after_flight(g, c) -> None:
    if g.busted_round or inside_seats(g, c) == 0:
        game_end(g, c)
    else:
        phase2(g, c)


# == Act II › Phase 2 - Trade with the Vault Floor =================================================
@jit
def traders(g, c) -> int:
    """Seats still inside that drew loot this round."""
    seats = 0
    for q in range(c.num_players):
        v = g.drawn[q]
        if g.status[q] == IN_VAULT and v >= 0 and v != C.COPS:
            seats |= 1 << q
    return seats


@jit
def phase2(g, c) -> None:
    """Muscle may steal the First Player Marker before the trades (D-10); then the trades."""
    if traders(g, c) == 0:
        start_act2_round(g, c)
        return
    fp = int(g.first_player)
    muscles = 0
    for q in range(c.num_players):
        if (g.ability[q] == C.MUSCLE and not g.ability_used[q] and g.status[q] == IN_VAULT
                and q != fp):
            muscles |= 1 << q
    if muscles:
        open_window(g, MUSCLE, muscles, fp, c)
    else:
        open_trades(g, c)


@jit(inline="always")
def on_muscle(g, a: int, c) -> None:
    seat = int(g.current_player)
    if a == A_MUSCLE_STEAL:
        g.first_player = seat
        g.ability_used[seat] = 1
    if advance_window(g):
        open_trades(g, c)


@jit
def open_trades(g, c) -> None:
    """Trade order: clockwise from the marker holder, fixed for this phase (D-14)."""
    open_window(g, TRADE, traders(g, c), int(g.first_player), c)


@jit
def on_trade(g, a: int, c) -> None:
    """Keep the drawn token, swap it for a Floor token, or (Con Man) trade an earlier one;
    a marker holder who trades passes the marker; then the Gun Man may steal."""
    seat = int(g.current_player)
    traded = False
    if A_TRADE <= a < A_CONMAN:
        v = a - A_TRADE
        g.vault_floor[g.drawn[seat]] += 1
        g.vault_floor[v] -= 1
        g.drawn[seat] = v
        traded = True
    elif A_CONMAN <= a < A_GUN_DECLINE:
        code = a - A_CONMAN
        give, take = code // NL, code % NL
        g.vault_pile[seat, give] -= 1
        g.vault_floor[give] += 1
        g.vault_floor[take] -= 1
        g.vault_pile[seat, take] += 1
        g.ability_used[seat] = 1
        traded = True
    if traded and g.first_player == seat:
        pass_marker(g, c)
    if (traded and g.ability[seat] == C.GUN_MAN and not g.ability_used[seat]
            and floor_total(g) > 0):
        g.phase = GUN_STEAL
        return
    end_trade_turn(g, c)


@jit(inline="always")
def on_gun(g, a: int, c) -> None:
    seat = int(g.current_player)
    if a != A_GUN_DECLINE:
        v = a - A_GUN
        g.vault_floor[v] -= 1
        g.vault_pile[seat, v] += 1
        g.ability_used[seat] = 1
    g.phase = TRADE
    end_trade_turn(g, c)


@jit
def end_trade_turn(g, c) -> None:
    """The (possibly swapped) drawn token joins the trader's vault pile."""
    seat = int(g.current_player)
    g.vault_pile[seat, g.drawn[seat]] += 1
    g.banked[seat] = 1
    if advance_window(g):
        start_act2_round(g, c)


# == Game End ======================================================================================
@jit
def game_end(g, c) -> None:
    """Nobody is left inside (or the vault busted): the final tally decides the rewards."""
    g.stage = OVER
    g.phase = NONE
    g.committed[:] = 0
    scalar.game_over(g)


# == the step ======================================================================================
@jit
def apply(g, a: int, c) -> None:
    """Apply the pending decision's action and every automatic rule after it."""
    d = int(g.phase)
    if d == BOSS_OPTION:
        on_boss_option(g, a, c)
    elif d == DRAFT:
        on_draft(g, a, c)
    elif d == ASSIGN:
        on_assign(g, a, c)
    elif d == JOAT:
        on_joat(g, a, c)
    elif d == ROB_FLEE:
        on_rob_flee(g, a, c)
    elif d == MUSCLE:
        on_muscle(g, a, c)
    elif d == TRADE:
        on_trade(g, a, c)
    elif d == GUN_STEAL:
        on_gun(g, a, c)
    elif d == GREASE_STEAL:
        on_grease(g, a, c)


@jit
def resume(g, c) -> None:
    """The acting seat and its mask: the handlers already played every automatic rule, but a
    crafted state may start at an automatic point (the jobs to resolve from `cur_job`, or the
    set-up of Act II)."""
    if g.phase == RESOLVE_JOBS:
        resolve_jobs(g, c)
    elif g.phase == ACT2_SETUP:
        act2_setup(g, c)
    g.cur_kind = -1
    if g.phase == NONE:
        return
    refresh_mask(g, c)


# == scoring: RB › Winning the Game ================================================================
@jit
def score_act1(g, c) -> None:
    """Keep `act1_score` (the observation's score in Act I) current where cash or payout
    tokens change."""
    for q in range(c.num_players):
        g.act1_score[q] = worth_with(g, q, False, -1, True, c)


@jit
def worth(g, q: int, c) -> int:
    """The score of seat q: cash, payout tokens and vault loot."""
    return worth_with(g, q, False, -1, False, c)


@jit
def scores(g, out: np.ndarray, c) -> None:
    for q in range(c.num_players):
        out[q] = worth(g, q, c)


@jit
def rank_keys(g, out: np.ndarray, c) -> None:
    """Score, then 'a Busted player loses all ties with any player not Busted', then cash."""
    for q in range(c.num_players):
        cash = int(g.cash[q])
        for v in range(NL):
            cash += CASH_FACE[v] * int(g.vault_pile[q, v])
        out[q] = (worth(g, q, c) << 32) + (int(g.status[q] != BUSTED) << 31) + cash


# == masks =========================================================================================
@jit
def refresh_mask(g, c) -> int:
    """Set the acting seat and the legal actions of the pending decision; returns how many."""
    m = g.legal_action_mask
    m[:] = 0
    g.cur_kind = -1
    d = int(g.phase)
    if d == NONE:
        return 0
    seat = int(g.queue[g.qpos])
    g.current_player = seat
    if d == BOSS_OPTION:
        m[A_BOSS_TOKEN] = 1
        m[A_BOSS_CASH] = 1
    elif d == DRAFT:
        for k in range(NK):
            m[A_DRAFT + k] = g.hands[seat, k] > 0
    elif d == ASSIGN:
        assign_mask(g, seat, m, c)
    elif d == JOAT:
        for x in range(3):
            m[A_JOAT + x] = x <= g.joat[seat]
    elif d == ROB_FLEE:
        bag = 0
        for v in range(NV):
            bag += int(g.bag[v])
        m[A_ROB] = bag > 0
        m[A_FLEE] = 1
    elif d == MUSCLE:
        m[A_MUSCLE_STEAL] = 1
        m[A_MUSCLE_PASS] = 1
    elif d == TRADE:
        m[A_TRADE_PASS] = 1
        con = g.ability[seat] == C.CON_MAN and not g.ability_used[seat]
        for v in range(NL):
            m[A_TRADE + v] = g.vault_floor[v] > 0
            if con and g.vault_pile[seat, v] > 0:
                for w in range(NL):
                    m[A_CONMAN + NL * v + w] = g.vault_floor[w] > 0
    elif d == GUN_STEAL:
        m[A_GUN_DECLINE] = 1
        for v in range(NL):
            m[A_GUN + v] = g.vault_floor[v] > 0
    elif d == GREASE_STEAL:
        for v in range(NL):
            m[A_GREASE + v] = g.vault_floor[v] > 0
    n = 0
    for a in range(NUM_ACTIONS):
        n += m[a]
    return n


@jit(inline="always")
def assign_mask(g, seat: int, m: np.ndarray, c) -> None:
    """The first card left: to a job showing its type's icon; to Training if Expert (one
    type, at most 3; not in the Simple Variant); or left unassigned."""
    k = first_kind(g.ahand[seat])
    g.cur_kind = k
    t = KIND_TYPE[k]
    for p in range(6):
        m[A_ASSIGN + p] = c.job_req[g.jobs[p], t] > 0
    size = kinds_total(g.assign[seat, TRAINING])
    same = size == 0 or KIND_TYPE[first_kind(g.assign[seat, TRAINING])] == t
    m[A_ASSIGN + TRAINING] = KIND_EXPERT[k] and not c.simple and size < 3 and same
    m[A_ASSIGN + UNASSIGNED] = 1


# == observation ===================================================================================


@jit
def observe(g, me: int, out: np.ndarray, c) -> None:
    """What seat `me` may know, in the layout's column order (`kernel.observation_layout`):
    the table, the jobs (this round's and the last resolved round's), every seat's public
    block from the observer clockwise, the vault, then the observer's own cards and secret
    choices. Starting options show once the fists
    open (but one's own), this round's draws likewise, a JoAT fist only to its owner."""
    n = c.num_players
    stage, phase = int(g.stage), int(g.phase)
    act2 = stage >= ACT2
    acting = g.current_player == me
    out[:] = 0.0  # one pass over the row; then only one-hots' hot entries and counts are set
    # -- meta
    i = mark_hot(out, 0, 6, n - 1)
    i = put(out, i, c.simple, ONE)
    i = put(out, i, c.abilities_on, ONE)
    i = put(out, i, c.inside_man, ONE)
    i = put(out, i, stage == ROUND1 or stage == ROUND3, ONE)
    i = put(out, i, g.draft_step, F8)
    i = put(out, i, g.missing, F6)
    i = put(out, i, min(int(g.act2_round), 30), F30)
    i = mark_hot(out, i, 6, stage)
    i = mark_hot(out, i, NUM_DECISIONS, phase if acting else 0)
    i = mark_hot(out, i, 6, int(g.cur_job) if phase == JOAT else -1)
    # -- the jobs of this round, then the public record of the last resolved round's reveals
    for p in range(6):
        i = job_block(g.jobs[p], g.job_status[p], g.pile[p], g.contrib[:, p], g.joat_rev[:, p],
                      g.inside[p], me, out, i, c)
    for p in range(6):
        i = job_block(g.last_jobs[p], g.last_status[p], g.last_pile[p], g.last_contrib[:, p],
                      g.last_joat_rev[:, p], g.last_inside[p], me, out, i, c)
    # -- every seat's public block, clockwise from me
    q = me
    for _ in range(n):
        i = seat_block(g, q, me, act2, out, i, c)
        q = q + 1 if q + 1 < n else 0
    i += (SLOTS - n) * PLAYER_BLOCK  # the empty slots: zero
    # -- the vault (public by counting)
    bag_total = 0
    for v in range(NV):
        bag_total += int(g.bag[v])
    if act2:
        i = put(out, i, g.cops_track, F7)
        i = put(out, i, c.cops_to_bust - int(g.cops_track), F7)
        for v in range(NL):
            i = put(out, i, g.vault_floor[v], F5)
        for v in range(NV):
            i = put(out, i, g.bag[v], F10)
        i = put(out, i, bag_total, F62)
        out[i] = np.float32(int(g.bag[C.COPS]) / max(bag_total, 1))
        i += 1
    else:  # no vault yet: zero
        i += 2 + NL + NV + 2
    # -- the cards seen
    for k in range(NK):
        i = put(out, i, g.crew_revealed[k], F15)
    for j in range(24):
        i = put(out, i, g.jobs_seen[j], ONE)
    i = put(out, i, C.CREW_DECK_SIZE - int(g.crew_ptr), F90)
    # -- mine
    i = mark_hot(out, i, NK, int(g.cur_kind) if acting else -1)
    for k in range(NK):
        i = put(out, i, int(g.hands[me, k]) + int(g.ahand[me, k]), F9)
    for k in range(NK):
        i = put(out, i, g.picks[me, k], F9)
    i = mark_hot(out, i, NK, int(g.pick_pending[me]))
    for target in range(8):
        scale = F6 if target < 6 else F3 if target == TRAINING else F9
        for t in range(NT):
            i = put_capped(out, i, int(g.assign[me, target, 2 * t])
                           + int(g.assign[me, target, 2 * t + 1]), scale)
    for k in range(NK):
        i = put(out, i, g.returned[me, k], F3)
    i = mark_hot(out, i, 2, int(g.rob_pending[me]))
    i = mark_hot(out, i, 3, int(g.joat_pending[me]) if phase == JOAT and g.committed[me] else -1)
    if act2:
        now, at_risk = score_now(g, me, c)
    else:  # Act I: no vault, and the score is the one the rules keep
        now, at_risk = int(g.act1_score[me]), 0
    i = put(out, i, now, F300)
    put(out, i, at_risk, F300)



@jit(inline="always")
def job_block(job: int, status: int, pile: np.ndarray, contrib: np.ndarray, joat: np.ndarray,
              inside: int, me: int, out: np.ndarray, i: int, c) -> int:
    """One job position: the card (crew icons, payout), its status or outcome, the revealed
    pile by crew type, the cards and JoAT tokens each relative seat revealed on it, and the
    Inside Man card. Job -1 (none) reads the config's last row: no icons, no payout."""
    n = c.num_players
    job = int(job)
    for t in range(NT):
        i = put(out, i, c.job_req[job, t], F3)
    i = put(out, i, c.job_cash[job], F5)
    i = mark_hot(out, i, 4, c.job_token[job])
    i = mark_hot(out, i, 5, int(status))
    for t in range(NT):  # capped: a job may draw more than 6 cards of a type, or from a seat
        i = put_capped(out, i, pile[t], F6)
    q = me  # relative slots 0..n-1 from me clockwise (no modulo: a division each)
    for r in range(n):
        out[i + r] = min(np.float32(contrib[q]) * F6, ONE)
        out[i + SLOTS + r] = np.float32(joat[q]) * F2
        q = q + 1 if q + 1 < n else 0
    return mark_hot(out, i + 2 * SLOTS, 6, int(inside))


@jit(inline="always")
def seat_block(g, q: int, me: int, act2: bool, out: np.ndarray, i: int, c) -> int:
    """Seat q's public block (the Act II fields are zero before Act II)."""
    i = put(out, i, 1, ONE)
    i = put(out, i, act2 and q == g.first_player, ONE)
    i = put(out, i, g.cash[q], F100)
    for x in range(3):
        i = put(out, i, g.payout[q, x], F10)
    b = int(g.boss[q])
    i = mark_hot(out, i, 3, c.boss_token[b])
    i = put(out, i, c.boss_cash[b], F10)
    hidden = g.phase == BOSS_OPTION and q != me
    i = mark_hot(out, i, 2, -1 if hidden else int(g.boss_choice[q]))
    i = put(out, i, g.joat[q], F2)
    i = mark_hot(out, i, 6, int(g.train_public[q, 0]))
    i = put(out, i, g.train_public[q, 1], F3)
    i = put(out, i, kinds_total(g.hands[q]) + kinds_total(g.ahand[q]), F12)
    i = put(out, i, kinds_total(g.picks[q]), F9)
    if not act2:  # the Act II fields: zero before Act II
        return put(out, i + 6 + 1 + 3 + NL + NV, g.committed[q], ONE)
    i = mark_hot(out, i, 6, int(g.ability[q]))
    i = put(out, i, g.ability_used[q], ONE)
    i = mark_hot(out, i, 3, int(g.status[q]))
    for v in range(NL):
        i = put(out, i, g.vault_pile[q, v], F10)
    i = mark_hot(out, i, NV, int(g.drawn[q]) if g.phase != ROB_FLEE else -1)
    return put(out, i, g.committed[q], ONE)


@jit
def score_now(g, me: int, c) -> tuple[int, int]:
    """My score if the game ended now (every drawn token not yet banked counted as its
    drawer's, all Act II loot safe), and what my own loot adds to it."""
    now = worth_with(g, me, True, -1, False, c)
    return now, now - worth_with(g, me, True, me, False, c)


@jit(inline="always")
def held_token(g, q: int, count_held: bool) -> int:
    """The token seat q drew this round and has not banked yet, counted as his in the
    observation's score (only for seats still inside in Act II, once the fists are open);
    -1 if none."""
    if not count_held or g.stage != ACT2 or g.phase == ROB_FLEE:
        return -1
    v = int(g.drawn[q])
    if 0 <= v < NL and not g.banked[q] and g.status[q] == IN_VAULT:
        return v
    return -1


@jit(inline="always")
def loot_of(g, q: int, v: int, count_held: bool, without: int, act1: bool) -> int:
    """Act II loot of type v that seat q holds for the score (see `worth_with`)."""
    if act1 or q == without:
        return 0
    return int(g.vault_pile[q, v]) + (held_token(g, q, count_held) == v)


@jit
def worth_with(g, q: int, count_held: bool, without: int, act1: bool, c) -> int:
    """The score of seat q (RB › Winning the Game): `count_held` adds every seat's drawn
    token not yet banked; the seat `without` holds no Act II loot at all; `act1`: cash and
    payout tokens alone (no vault loot, no Hacker), the score of Act I."""
    n = c.num_players
    top, at_top, mine = 0, 0, 0
    for o in range(n):
        art = int(g.payout[o, C.ARTIFACT]) + loot_of(g, o, C.V_ARTIFACT, count_held, without,
                                                     act1)
        if o == q:
            mine = art
        if art > top:
            top, at_top = art, 1
        elif art == top:
            at_top += 1
    total = int(g.cash[q])
    for v in range(NL):
        if LOOT_FACE[v]:
            total += LOOT_FACE[v] * loot_of(g, q, v, count_held, without, act1)
    dia = int(g.payout[q, C.DIAMOND]) + loot_of(g, q, C.V_DIAMOND, count_held, without, act1)
    drives = int(g.payout[q, C.HARD_DRIVE])
    keys = loot_of(g, q, C.KEY, count_held, without, act1)
    total += C.PAIR_VALUE * min(drives, keys)
    if g.ability[q] == C.HACKER and not act1:
        total += C.HACKER_UNPAIRED * abs(drives - keys)
    total += diamond_value(dia) + C.ARTIFACT_FACE * mine
    if mine == top and at_top == 1 and top >= 1:
        total += C.ARTIFACT_BONUS
    return total


@jit(inline="always")
def asked_always(g, c) -> bool:
    """Draft picks and assignments are asked even with one legal action: whether a hand holds
    one kind, or a card fits no job, is hidden, and a skipped seat would show it."""
    return g.phase == DRAFT or g.phase == ASSIGN


DRIVERS = load_drivers("big_score", HERE, setup=setup, resume=resume, apply=apply,
                       refresh_mask=refresh_mask, observe=observe, scores=scores,
                       rank_keys=rank_keys, asked_always=asked_always)
