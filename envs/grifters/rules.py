"""The Grifters rules as compiled scalar functions over one game's record `g`, ordered like the
rulebook: Setup, a turn (Advance Time, Play Specialists: Perform a Caper or Complete a Job,
Refresh), the card effects, Game End & Scoring; then the masks and the observation.

A card's effect runs as a program (`components.PROG_OP`) with a program counter `g.pc`; copy
effects (Fall Guy, Middle Man, Inside Man) are tail calls that switch the program, so no stack
(and no recursion) is needed. An effect that needs a choice opens a decision and stops; the
decision's handler resumes the program. `resume` plays every automatic state (a program step,
Refresh, Advance Time) until a decision waits or the game is over.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..core import scalar
from ..core.jit import jit, load_drivers
from ..core.scalar import put, put_hot
from . import components as C

HERE = Path(__file__).resolve().parent

# -- decisions (the spec's §3.2), then the automatic states --------------------------------------
# NumPy ints rather than Python ints: numba compiles a function once per *literal* Python int
# passed to it, so `ask(g, MAIN, c)` would otherwise be a compile of its own per decision
NONE, MAIN, TEAM_PICK, CHOOSE_OPP, MM_KEEP, FALLGUY_PICK, THUG_PARTNER, THUG_SKILL = np.arange(8)
MIDDLEMAN_PICK, IM_NIGHT, IM_CARD, SNITCH_PLAYER, SNITCH_PAIR, WHEELMAN_NIGHT = np.arange(8, 14)
FENCE_OWN, FENCE_OTHER, FF_EXTRA = np.arange(14, 17)
NUM_DECISIONS = 17
# automatic: run the program, Refresh, Advance Time, the end of the game
RUN, TURN_END, TURN_START, GAME_OVER = np.arange(17, 21)
DECISION_NAMES = ("none", "main", "team pick", "choose opponent", "mastermind keep",
                  "fall guy pick", "thug partner", "thug skill", "middle man pick",
                  "inside man night", "inside man card", "snitch player", "snitch pair",
                  "wheelman night", "fence own", "fence other", "femme fatale extra")

# -- actions (the spec's §3.1): 58 ids whatever the player count --------------------------------
A_CARD, A_STACK, A_PLAYER, A_NIGHT, A_PAIR, A_SKILL, A_JOB, A_PASS = np.array(
    [0, 19, 24, 28, 31, 34, 37, 57])
NUM_ACTIONS = 58
NIGHT_NAMES = ("One", "Two", "Three")
PAIRS = np.array([(0, 1), (0, 2), (1, 2)], np.int64)

# RNG streams
S_START, S_DEAL, S_RESHUFFLE, S_KIDNAP, S_RESAMPLE = np.arange(1, 6)

# -- the state of one game (the batch is a structured array of these records) -----------------
T, J, S = C.NUM_TYPES, C.NUM_JOBS, C.NUM_STACKS
STATE_FIELDS = (
    ("hand", np.int8, ("N", T), "cards in hand, counts per type"),
    ("known", np.int8, ("N", T), "hand cards every player knows about (<= hand)"),
    ("refresh", np.int8, ("N", T), "Refresh Area"),
    ("night", np.int8, ("N", 3, T), "Hideout: Night One, Two, Three"),
    ("night_isk", np.int8, ("N", 3), "ISK tokens placed with an empty hand"),
    ("stash", np.int16, ("N",), "ISK in each Stash"),
    ("coffers", np.int16, (), "ISK in the Government Coffers"),
    ("deck", np.int8, (C.DECK_SIZE,), "card types; the top is deck[deck_len - 1]"),
    ("deck_len", np.int8, (), "cards in the Specialist deck"),
    ("discard", np.int8, (T,), "face-up discard pile"),
    ("job_owner", np.int8, (J,), "-2 out of the game, -1 not owned, else seat"),
    ("stack_top", np.int8, (S,), "order index of each stack's top card, 4 = empty"),
    ("turns_taken", np.int16, ("N",), "turns each player has completed"),
    ("turns_total", np.int16, (), "turns played"),
    ("start_player", np.int8, (), "the start player's seat"),
    ("dec", np.int8, (), "pending decision (or automatic state)"),
    ("prog", np.int8, (), "program being resolved: card type, or 19 + Job; -1 none"),
    ("pc", np.int8, (), "step within the program"),
    ("staging", np.int8, (T,), "cards about to enter Night One"),
    ("mm_draw", np.int8, (T,), "Mastermind's three drawn cards"),
    ("team_job", np.int8, (), "Job being completed, -1 none"),
    ("last_pick", np.int8, (), "last team pick (picks are non-decreasing)"),
    ("picks_left", np.int8, (), "team cards still to pick"),
    ("tgt_player", np.int8, (), "seat chosen for Inside Man / Snitch, -1 none"),
    ("tgt_night", np.int8, (), "Night chosen for Inside Man, -1 none"),
    ("fence_own", np.int8, (), "Job chosen at FENCE_OWN, -1 none"),
    ("extra_capers", np.int8, (), "Femme Fatale capers still allowed this turn"),
    ("rng_ctr", np.uint64, (), "per-game random-event counter"),
)
CONFIG_FIELDS = (("first_player", np.int64),)  # -1: drawn from the seed

# -- tables the compiled code reads (small, so numba freezes them into the code) ----------------
IM = C.INSIDE_MAN
PROG_OP = C.PROG_OP.astype(np.int64)
PROG_ARG = C.PROG_ARG.astype(np.int64)
SKILL = C.SKILL.astype(np.int64)  # WILD (3) for the Inside Man
JOB_REQ = C.JOB_REQ.astype(np.int64)
JOB_SIZE = C.JOB_SIZE.astype(np.int64)
JOB_STACK = C.JOB_STACK.astype(np.int64)
SET_BONUS = C.SET_BONUS.astype(np.int64)
RINGLEADER = C.RINGLEADER.copy()
COPIER = C.COPIER.copy()
MIDDLEMAN_TAKES = np.arange(T) != C.INSIDE_MAN  # "cannot be duplicated by any other card" [FAQ]
ABDUCTABLE = C.ABDUCTABLE.copy()
STACK_MIN_PLAYERS = np.array(C.STACK_MIN_PLAYERS, np.int64)
COFFERS_START = np.array([C.COFFERS_START.get(n, 0) for n in range(5)], np.int64)
DECK_BASE = np.repeat(np.arange(T), C.SPECIALIST_COPIES).astype(np.int8)
# card operations that only open the decision their effect starts with (-1: not such an op)
OPENS_DECISION = np.full(C.WHEEL + 1, -1, np.int64)
for _op, _dec in ((C.COPY_HAND, FALLGUY_PICK), (C.COPY_REFRESH, MIDDLEMAN_PICK),
                  (C.THUG, THUG_PARTNER), (C.KIDNAP, CHOOSE_OPP), (C.ABDUCT, CHOOSE_OPP),
                  (C.SNITCH, SNITCH_PLAYER), (C.WHEEL, WHEELMAN_NIGHT)):
    OPENS_DECISION[_op] = _dec
# observation scales (counts are capped where noted; one-hots are 1)
F75, F48, F30, F6, F4, F3 = 1 / 75, 1 / 48, 1 / 30, 1 / 6, 1 / 4, 1 / 3
F100, F200 = 1 / 100, 1 / 200
BLOCK_SIZE = 1 + 1 + T + 3 * T + 3 + T + J + S + 1 + 1 + 1 + 1  # one seat's public block


# == small pieces ==================================================================================
@jit
def hand_total(g, p: int) -> int:
    n = 0
    for t in range(T):
        n += int(g.hand[p, t])
    return n


@jit
def take_from_hand(g, p: int, t: int) -> None:
    """One card of type t leaves p's hand; what was known of it is forgotten first."""
    g.hand[p, t] -= 1
    if g.known[p, t] > 0:
        g.known[p, t] -= 1


@jit
def place_staging(g, me: int) -> None:
    """The staged cards (the card played, its partner, a Team) enter Night One."""
    for t in range(T):
        g.night[me, 0, t] += g.staging[t]
        g.staging[t] = 0


@jit
def go_on(g) -> None:
    """The effect's step is done: the program goes on with its next step."""
    g.pc += 1
    g.dec = RUN


@jit
def to_hand_shown(g, p: int, t: int) -> None:
    """A card of type t joins p's hand in view of everyone (so it is a known hand card)."""
    g.hand[p, t] += 1
    g.known[p, t] += 1


@jit
def steal(g, me: int, o: int, n: int) -> None:
    """Take up to n from o's Stash: only what is there [FAQ]."""
    x = min(n, int(g.stash[o]))
    g.stash[o] -= x
    g.stash[me] += x


@jit
def stack_in_play(s: int, n: int) -> bool:
    return STACK_MIN_PLAYERS[s] <= n


# == 2. Setup ======================================================================================
@jit
def setup(g, c) -> None:
    """Coffers, Stashes, Ringleaders, the shuffled deck and three cards each from the top in
    seat order from the start player; the first turn starts (without Advance Time)."""
    N = c.num_players
    if c.first_player >= 0:
        start = c.first_player
    else:
        start = int(np.floor(scalar.uniform(g.key, S_START, np.uint64(0)) * N))
    order = scalar.permutation(g.key, S_DEAL, C.DECK_SIZE)
    for i in range(C.DECK_SIZE):
        g.deck[i] = DECK_BASE[order[i]]
    for p in range(N):
        for t in range(T):
            g.hand[p, t] = 1 if RINGLEADER[t] else 0
            g.known[p, t] = g.hand[p, t]
        g.stash[p] = C.START_STASH
    for k in range(C.HAND_DEAL * N):
        seat = (start + k // C.HAND_DEAL) % N
        g.hand[seat, g.deck[C.DECK_SIZE - 1 - k]] += 1
    g.coffers = COFFERS_START[N] - C.START_STASH * N
    g.deck_len = C.DECK_SIZE - C.HAND_DEAL * N
    for j in range(J):
        g.job_owner[j] = -1 if stack_in_play(JOB_STACK[j], N) else -2
    for s in range(S):
        g.stack_top[s] = 0 if stack_in_play(s, N) else 4
    g.start_player = start
    g.current_player = start
    g.dec = TURN_START
    g.prog = -1
    g.team_job = -1
    g.tgt_player = -1
    g.tgt_night = -1
    g.fence_own = -1


# == the step: one decision, then everything automatic up to the next one =========================
@jit
def apply(g, a: int, c) -> None:
    """Apply the pending decision's action (the drivers then `resume` play)."""
    d = int(g.dec)
    me = int(g.current_player)
    if d == MAIN:
        main(g, me, a, c)
    elif d == TEAM_PICK:
        team_pick(g, me, a, c)
    elif d == CHOOSE_OPP:
        choose_opp(g, me, a, c)
    elif d == MM_KEEP:
        mm_keep(g, me, a)
    elif d == FALLGUY_PICK:
        fallguy_pick(g, me, a)
    elif d == THUG_PARTNER:
        thug_partner(g, me, a, c)
    elif d == THUG_SKILL:
        thug_steal(g, me, a - A_SKILL, c)
    elif d == MIDDLEMAN_PICK:
        middleman_pick(g, me, a)
    elif d == IM_NIGHT:
        g.tgt_night = a - A_NIGHT
        ask(g, IM_CARD, c)
    elif d == IM_CARD:
        im_card(g, a)
    elif d == SNITCH_PLAYER:
        g.tgt_player = (me + a - A_PLAYER) % c.num_players
        ask(g, SNITCH_PAIR, c)
    elif d == SNITCH_PAIR:
        snitch_pair(g, a)
    elif d == WHEELMAN_NIGHT:
        wheelman_night(g, me, a)
    elif d == FENCE_OWN:
        g.fence_own = a - A_JOB
        ask(g, FENCE_OTHER, c)
    elif d == FENCE_OTHER:
        fence_other(g, me, a)
    elif d == FF_EXTRA:
        ff_extra(g, me, a, c)


@jit
def resume(g, c) -> None:
    """Play the automatic states (a program step, Refresh and the next turn, the end of the
    game) until a decision waits or the game is over. A decision just asked gets its mask
    here; one with no legal action fizzles: the effect's program goes on."""
    for _ in range(100_000):  # a guard: every turn asks a decision within a few passes
        d = int(g.dec)
        if d == RUN:
            exec_step(g, c)
        elif d == TURN_END:
            refresh_phase(g, c)
            turn_start(g, c)
        elif d == TURN_START:
            turn_start(g, c)
        elif d == GAME_OVER:
            finish(g, c)
            return
        elif d == NONE:
            return
        elif refresh_mask(g, c) > 0:
            return
        else:
            g.dec = RUN
            g.pc += 1
    raise RuntimeError("grifters: automatic play did not settle")


@jit(inline="always")
def ask(g, d: int, c) -> None:
    """Open decision d (`resume` computes its mask)."""
    g.dec = d


@jit(inline="always")
def end_game(g, c) -> None:
    """"The game ends immediately": nothing after the triggering primitive resolves. The staged
    cards were about to enter Night One and go there now, so the final state is complete."""
    place_staging(g, int(g.current_player))
    g.dec = GAME_OVER


@jit
def finish(g, c) -> None:
    """The game is over: the final tally decides the rewards."""
    g.dec = NONE
    scalar.game_over(g)


@jit(inline="always")
def end_turn(g) -> None:
    """The play is over: Refresh and the next turn follow."""
    g.dec = TURN_END


# == Phase 1: Advance Time =========================================================================
@jit
def advance(g, me: int, c) -> None:
    """Night Three -> Refresh Area (ISK -> Coffers), Two -> Three, One -> Two."""
    for t in range(T):
        g.refresh[me, t] += g.night[me, 2, t]
        g.night[me, 2, t] = g.night[me, 1, t]
        g.night[me, 1, t] = g.night[me, 0, t]
        g.night[me, 0, t] = 0
    g.coffers += g.night_isk[me, 2]
    g.night_isk[me, 2] = g.night_isk[me, 1]
    g.night_isk[me, 1] = g.night_isk[me, 0]
    g.night_isk[me, 0] = 0


@jit(inline="always")
def turn_start(g, c) -> None:
    """Advance Time (not on a first turn), then the main decision. With no cards in hand an ISK
    token from the Stash goes to Night One instead, and the turn goes straight on to Refresh."""
    me = int(g.current_player)
    if g.turns_taken[me] > 0:
        advance(g, me, c)
    if hand_total(g, me) > 0:
        ask(g, MAIN, c)
        return
    if g.stash[me] > 0:
        g.stash[me] -= 1
        g.night_isk[me, 0] += 1
    end_turn(g)


# == Phase 2: Play Specialists =====================================================================
@jit(inline="always")
def main(g, me: int, a: int, c) -> None:
    """Perform a Caper with a hand card, or Complete a Job: take the top Job of a stack, then
    pick its Team."""
    if a < A_STACK:
        caper(g, me, a)
        return
    st = a - A_STACK
    j = 4 * st + int(g.stack_top[st])
    g.stack_top[st] += 1
    g.team_job = j
    g.last_pick = 0
    g.picks_left = JOB_SIZE[j]
    ask(g, TEAM_PICK, c)


@jit(inline="always")
def caper(g, me: int, t: int) -> None:
    """Perform a Caper: the card goes to staging and its program starts."""
    take_from_hand(g, me, t)
    g.staging[t] += 1
    start_program(g, t)


@jit
def start_program(g, prog: int) -> None:
    g.prog = prog
    g.pc = 0
    g.dec = RUN


@jit(inline="always")
def team_pick(g, me: int, a: int, c) -> None:
    """One Team card; with the last, the Team enters Night One, the Job is the player's and
    its reward resolves."""
    take_from_hand(g, me, a)
    g.staging[a] += 1
    g.last_pick = a
    g.picks_left -= 1
    if g.picks_left > 0:
        ask(g, TEAM_PICK, c)
        return
    place_staging(g, me)
    j = int(g.team_job)
    g.job_owner[j] = me
    start_program(g, C.JOB_PROG + j)


@jit(inline="always")
def ff_extra(g, me: int, a: int, c) -> None:
    """Femme Fatale: pass, or Advance Time again and perform a second Caper (the effect's
    targets cleared for it)."""
    if a == A_PASS:
        g.extra_capers = 0
        end_turn(g)
        return
    g.extra_capers -= 1
    g.tgt_player = -1
    g.tgt_night = -1
    g.fence_own = -1
    advance(g, me, c)
    caper(g, me, a)


# -- the program interpreter -----------------------------------------------------------------------
@jit
def exec_step(g, c) -> None:
    """Run the program's current step (op, arg)."""
    prog, pc = int(g.prog), int(g.pc)
    op, n = PROG_OP[prog, pc], PROG_ARG[prog, pc]
    me = int(g.current_player)
    if OPENS_DECISION[op] >= 0:  # the effect starts with a choice
        ask(g, OPENS_DECISION[op], c)
    elif op == C.END:
        op_end(g, me, c)
    elif op == C.COFFERS:
        take_coffers(g, me, n, c)
    elif op == C.OPP or op == C.BLACKMAIL:
        # two players have one opponent: with auto_forced the choice is played, not asked
        if c.num_players == 2 and c.auto_forced:
            choose_opp(g, me, A_PLAYER + 1, c)
        else:
            ask(g, CHOOSE_OPP, c)
    elif op == C.EACH_OPP:
        for r in range(1, c.num_players):
            steal(g, me, (me + r) % c.num_players, n)
        g.pc += 1
    elif op == C.RICHEST_OPP:
        richest_opp(g, me, n, c)
    elif op == C.DRAW:
        draw_cards(g, me, n, c)
    elif op == C.DRAW_KEEP:
        mastermind_draw(g, me, c)
    elif op == C.FENCE:
        fence(g, me, c)
    elif op == C.ADVANCE:  # Fixer: Advance Time while it waits in staging
        advance(g, me, c)
        g.pc += 1
    elif op == C.GRANT_EXTRA:
        g.extra_capers += 1
        g.pc += 1


@jit(inline="always")
def op_end(g, me: int, c) -> None:
    """The play is over: staged cards enter Night One; completing the last Job ends the game;
    then the Femme Fatale's extra Caper, or Refresh."""
    place_staging(g, me)
    if g.prog >= C.JOB_PROG and all_jobs_done(g):
        end_game(g, c)
        return
    g.prog = -1
    if g.extra_capers > 0:
        ask(g, FF_EXTRA, c)
    else:
        end_turn(g)


@jit(inline="always")
def all_jobs_done(g) -> bool:
    """"All Jobs have been completed": every Job in play is owned."""
    for j in range(J):
        if g.job_owner[j] == -1:
            return False
    return True


@jit(inline="always")
def take_coffers(g, me: int, n: int, c) -> None:
    """Take n from the Coffers; taking the last ISK ends the game."""
    x = min(n, int(g.coffers))
    g.coffers -= x
    g.stash[me] += x
    g.pc += 1
    if g.coffers == 0:
        end_game(g, c)


@jit
def richest(g, me: int, r: int, c) -> bool:
    """Whether the opponent at offset r has the largest Stash among the opponents."""
    N = c.num_players
    best = -1
    for q in range(1, N):
        best = max(best, int(g.stash[(me + q) % N]))
    return r > 0 and int(g.stash[(me + r) % N]) == best


@jit(inline="always")
def richest_opp(g, me: int, n: int, c) -> None:
    """Steal from the richest opponent; a choice only when several tie."""
    N = c.num_players
    tied, first = 0, 0
    for r in range(1, N):
        if richest(g, me, r, c):
            if tied == 0:
                first = r
            tied += 1
    if tied == 1:
        steal(g, me, (me + first) % N, n)
        g.pc += 1
    else:
        ask(g, CHOOSE_OPP, c)


@jit
def draw(g, c) -> tuple[int, bool]:
    """Draw one card (reshuffling the discard pile if needed). Returns the card type (-1 when
    deck and discard pile were already empty) and whether the game ends because both are now
    empty."""
    if g.deck_len == 0 and discard_total(g) > 0:
        reshuffle(g)
    top = int(g.deck_len) - 1
    t = int(g.deck[top]) if top >= 0 else -1
    g.deck_len = max(top, 0)
    return t, g.deck_len == 0 and discard_total(g) == 0


@jit
def discard_total(g) -> int:
    n = 0
    for t in range(T):
        n += int(g.discard[t])
    return n


@jit(inline="always")
def reshuffle(g) -> None:
    """Shuffle the discard pile into a new deck with the game's own RNG (the slots past the
    cards sort last and hold the last type, as the batch kernel laid them out)."""
    types = np.empty(C.DECK_SIZE, np.int8)
    u = np.empty(C.DECK_SIZE, np.uint64)
    total = discard_total(g)
    t, cum = 0, int(g.discard[0])
    base = g.rng_ctr * np.uint64(64)
    for pos in range(C.DECK_SIZE):
        while t < T - 1 and cum <= pos:
            t += 1
            cum += int(g.discard[t])
        types[pos] = t
        if pos < total:
            u[pos] = scalar.bits(g.key, S_RESHUFFLE, base + np.uint64(pos)) >> np.uint64(1)
        else:
            u[pos] = np.uint64(2**63)
    order = scalar.stable_order(u)
    for i in range(C.DECK_SIZE):
        g.deck[i] = types[order[i]]
    g.deck_len = total
    g.discard[:] = 0
    g.rng_ctr += np.uint64(1)


@jit(inline="always")
def draw_cards(g, me: int, n: int, c) -> None:
    for _ in range(n):
        t, ended = draw(g, c)
        if t >= 0:
            g.hand[me, t] += 1
        if ended:
            end_game(g, c)
            return
    g.pc += 1


@jit(inline="always")
def mastermind_draw(g, me: int, c) -> None:
    """Mastermind: draw three into a private buffer, keep one, discard two face up."""
    for _ in range(3):
        t, ended = draw(g, c)
        if t >= 0:
            g.mm_draw[t] += 1
        if ended:  # the game is over: the drawn cards stay with the player
            for u in range(T):
                g.hand[me, u] += g.mm_draw[u]
                g.mm_draw[u] = 0
            end_game(g, c)
            return
    ask(g, MM_KEEP, c)


@jit(inline="always")
def fence(g, me: int, c) -> None:
    """Fence: swap an own completed Job for another player's, if both exist."""
    own, other = False, False
    for j in range(J):
        o = int(g.job_owner[j])
        own |= o == me
        other |= o >= 0 and o != me
    if own and other:
        ask(g, FENCE_OWN, c)
    else:
        g.pc += 1


# -- decision handlers of the card effects ---------------------------------------------------------
@jit
def choose_opp(g, me: int, a: int, c) -> None:
    """The chosen opponent: steal from them, kidnap from them, or abduct from their Hideout."""
    o = (me + a - A_PLAYER) % c.num_players
    prog, pc = int(g.prog), int(g.pc)
    op, n = PROG_OP[prog, pc], PROG_ARG[prog, pc]
    if op == C.BLACKMAIL:  # 1M, plus 1M per Job of the victim, at most 4M
        n = 1
        for j in range(J):
            n += g.job_owner[j] == o
        n = min(4, n)
    if op == C.OPP or op == C.RICHEST_OPP or op == C.BLACKMAIL:
        steal(g, me, o, n)
        go_on(g)
    elif op == C.KIDNAP:
        kidnap(g, me, o)
    elif op == C.ABDUCT:
        g.tgt_player = o
        ask(g, IM_NIGHT, c)


@jit(inline="always")
def kidnap(g, me: int, o: int) -> None:
    """Abduct a random hand card of o, shown to all; a Ringleader goes back [FAQ]."""
    u = scalar.uniform(g.key, S_KIDNAP, g.rng_ctr)
    g.rng_ctr += np.uint64(1)
    t = scalar.draw_from_counts(g.hand[o], u)
    if t >= 0 and not RINGLEADER[t]:
        take_from_hand(g, o, t)
        to_hand_shown(g, me, t)
    go_on(g)


@jit(inline="always")
def mm_keep(g, me: int, a: int) -> None:
    g.mm_draw[a] -= 1
    g.hand[me, a] += 1
    for t in range(T):
        g.discard[t] += g.mm_draw[t]
        g.mm_draw[t] = 0
    go_on(g)


@jit(inline="always")
def fallguy_pick(g, me: int, a: int) -> None:
    """Duplicate a hand card's action; the card stays in hand, shown (tail call)."""
    if g.known[me, a] < 1:
        g.known[me, a] = 1
    start_program(g, a)


@jit(inline="always")
def middleman_pick(g, me: int, a: int) -> None:
    """Team up a Refresh-Area card with the Middle Man and take its action."""
    g.refresh[me, a] -= 1
    g.staging[a] += 1
    start_program(g, a)


@jit(inline="always")
def thug_partner(g, me: int, a: int, c) -> None:
    take_from_hand(g, me, a)
    g.staging[a] += 1
    if a == IM:
        ask(g, THUG_SKILL, c)
    else:
        thug_steal(g, me, SKILL[a], c)


@jit
def thug_steal(g, me: int, k: int, c) -> None:
    """1M from each opponent per single (non-Team) Hideout card of skill k (wild counts)."""
    N = c.num_players
    for r in range(1, N):
        o = (me + r) % N
        n = 0
        for night in range(3):
            cards, match = 0, 0
            for t in range(T):
                x = int(g.night[o, night, t])
                cards += x
                if SKILL[t] == k or t == IM:
                    match += x
            n += cards == 1 and match == 1
        steal(g, me, o, n)
    go_on(g)


@jit(inline="always")
def im_card(g, a: int) -> None:
    """Exchange the Inside Man with the chosen card, then take that card's action."""
    o, n = int(g.tgt_player), int(g.tgt_night)
    g.night[o, n, a] -= 1
    g.night[o, n, IM] += 1
    g.staging[IM] -= 1
    g.staging[a] += 1
    start_program(g, a)


@jit(inline="always")
def snitch_pair(g, a: int) -> None:
    """Switch the whole contents of two Night spaces; Teams stay together."""
    o = int(g.tgt_player)
    x, y = PAIRS[a - A_PAIR, 0], PAIRS[a - A_PAIR, 1]
    for t in range(T):
        v = g.night[o, x, t]
        g.night[o, x, t] = g.night[o, y, t]
        g.night[o, y, t] = v
    v = g.night_isk[o, x]
    g.night_isk[o, x] = g.night_isk[o, y]
    g.night_isk[o, y] = v
    go_on(g)


@jit(inline="always")
def wheelman_night(g, me: int, a: int) -> None:
    """Return a lone Hideout card to hand (publicly)."""
    n = a - A_NIGHT
    t = int(np.argmax(g.night[me, n]))
    g.night[me, n, t] -= 1
    to_hand_shown(g, me, t)
    go_on(g)


@jit(inline="always")
def fence_other(g, me: int, a: int) -> None:
    j1, j2 = int(g.fence_own), a - A_JOB
    g.job_owner[j1] = g.job_owner[j2]
    g.job_owner[j2] = me
    go_on(g)


# == Phase 3: Refresh ==============================================================================
@jit(inline="always")
def refresh_phase(g, c) -> None:
    """Refresh Area back to hand (publicly), then the next player clockwise. The effect's
    context is cleared for that turn."""
    me = int(g.current_player)
    for t in range(T):
        g.hand[me, t] += g.refresh[me, t]
        g.known[me, t] += g.refresh[me, t]
        g.refresh[me, t] = 0
    g.turns_taken[me] += 1
    g.turns_total += 1
    g.current_player = (me + 1) % c.num_players
    g.team_job = -1
    g.tgt_player = -1
    g.tgt_night = -1
    g.fence_own = -1


# == Game End & Scoring ============================================================================
@jit
def colour_jobs(g, p: int, s: int) -> int:
    """Completed Jobs of player p in colour s (a stack's Jobs are ids 4 s .. 4 s + 3)."""
    n = 0
    for j in range(4 * s, 4 * s + 4):
        n += g.job_owner[j] == p
    return n


@jit(inline="always")
def set_bonus(g, p: int) -> int:
    """2/4/8M per colour with 2/3/4 completed Jobs."""
    b = 0
    for s in range(S):
        b += SET_BONUS[colour_jobs(g, p, s)]
    return b


@jit
def score_of(g, p: int) -> int:
    """Stash plus the set bonus."""
    return int(g.stash[p]) + set_bonus(g, p)


@jit
def scores(g, out: np.ndarray, c) -> None:
    for p in range(c.num_players):
        out[p] = score_of(g, p)


@jit
def specialists(g, p: int) -> int:
    """Cards a player holds in hand, Hideout, Refresh Area and (while acting) staging."""
    n = 0
    for t in range(T):
        n += int(g.hand[p, t]) + int(g.refresh[p, t])
        for night in range(3):
            n += int(g.night[p, night, t])
        if p == g.current_player:
            n += int(g.staging[t])
    return n


@jit
def rank_keys(g, out: np.ndarray, c) -> None:
    """Score, then most Jobs, then fewest Specialists [RB]; players still level share the win."""
    for p in range(c.num_players):
        jobs = 0
        for s in range(S):
            jobs += colour_jobs(g, p, s)
        key = score_of(g, p) * 32 + jobs
        out[p] = key * 128 + (127 - min(specialists(g, p), 127))


# == masks =========================================================================================
@jit
def refresh_mask(g, c) -> int:
    """Set the legal actions of the pending decision; returns how many there are."""
    m = g.legal_action_mask
    m[:] = 0
    d = int(g.dec)
    me = int(g.current_player)
    N = c.num_players
    if d == MAIN:
        for t in range(T):
            m[A_CARD + t] = g.hand[me, t] > 0
        for s in range(S):
            m[A_STACK + s] = job_feasible(g, me, s)
    elif d == TEAM_PICK:
        team_pick_mask(g, me, m)
    elif d == CHOOSE_OPP:
        op = PROG_OP[int(g.prog), int(g.pc)]
        for r in range(1, N):
            o = (me + r) % N
            if op == C.RICHEST_OPP:
                m[A_PLAYER + r] = richest(g, me, r, c)
            elif op == C.KIDNAP:
                m[A_PLAYER + r] = hand_total(g, o) > 0
            elif op == C.ABDUCT:
                ok = False
                for night in range(3):
                    ok |= night_abductable(g, o, night)
                m[A_PLAYER + r] = ok
            else:
                m[A_PLAYER + r] = 1
    elif d == MM_KEEP:
        for t in range(T):
            m[A_CARD + t] = g.mm_draw[t] > 0
    elif d == FALLGUY_PICK:
        for t in range(T):
            m[A_CARD + t] = g.hand[me, t] > 0 and not COPIER[t]
    elif d == THUG_PARTNER:
        # when a Fall Guy copies the Thug (a Fall Guy staged and no Thug: every other way to run
        # the Thug stages one), the copied Thug stays in hand (D4), so one Thug is held back
        copied = (g.prog == C.THUG_T and g.staging[C.FALL_GUY] > 0
                  and g.staging[C.THUG_T] == 0)
        for t in range(T):
            m[A_CARD + t] = int(g.hand[me, t]) - (copied and t == C.THUG_T) > 0
    elif d == THUG_SKILL:
        for k in range(3):
            m[A_SKILL + k] = 1
    elif d == MIDDLEMAN_PICK:  # a Fall Guy or Middle Man too: the Refresh Area empties as it goes
        for t in range(T):
            m[A_CARD + t] = g.refresh[me, t] > 0 and MIDDLEMAN_TAKES[t]
    elif d == IM_NIGHT:
        for night in range(3):
            m[A_NIGHT + night] = night_abductable(g, int(g.tgt_player), night)
    elif d == IM_CARD:
        o, night = int(g.tgt_player), int(g.tgt_night)
        for t in range(T):
            m[A_CARD + t] = g.night[o, night, t] > 0 and ABDUCTABLE[t]
    elif d == SNITCH_PLAYER:
        for r in range(N):
            o = (me + r) % N
            m[A_PLAYER + r] = (space_full(g, o, 0) or space_full(g, o, 1)
                               or space_full(g, o, 2))
    elif d == SNITCH_PAIR:
        o = int(g.tgt_player)
        for i in range(3):
            m[A_PAIR + i] = space_full(g, o, PAIRS[i, 0]) or space_full(g, o, PAIRS[i, 1])
    elif d == WHEELMAN_NIGHT:
        for night in range(3):
            n = 0
            for t in range(T):
                n += int(g.night[me, night, t])
            m[A_NIGHT + night] = n == 1
    elif d == FENCE_OWN:
        for j in range(J):
            m[A_JOB + j] = g.job_owner[j] == me
    elif d == FENCE_OTHER:
        for j in range(J):
            m[A_JOB + j] = g.job_owner[j] >= 0 and g.job_owner[j] != me
    elif d == FF_EXTRA:
        for t in range(T):
            m[A_CARD + t] = g.hand[me, t] > 0
        m[A_PASS] = 1
    n = 0
    for a in range(NUM_ACTIONS):
        n += m[a]
    return n


@jit
def night_abductable(g, o: int, night: int) -> bool:
    for t in range(T):
        if ABDUCTABLE[t] and g.night[o, night, t] > 0:
            return True
    return False


@jit
def space_full(g, o: int, night: int) -> bool:
    """A Night space holding any card or ISK token."""
    if g.night_isk[o, night] > 0:
        return True
    for t in range(T):
        if g.night[o, night, t] > 0:
            return True
    return False


@jit(inline="always")
def job_feasible(g, me: int, s: int) -> bool:
    """The hand can form a Team matching the stack's top Job exactly: fixed skills up to each
    requirement, Inside Men for the rest."""
    top = int(g.stack_top[s])
    if top >= 4:
        return False
    j = 4 * s + top
    brain, speed, brawn = skill_counts(g.hand[me])
    cover = (int(g.hand[me, IM]) + min(brain, JOB_REQ[j, 0]) + min(speed, JOB_REQ[j, 1])
             + min(brawn, JOB_REQ[j, 2]))
    return cover >= JOB_SIZE[j]


@jit
def skill_counts(cards: np.ndarray) -> tuple[int, int, int]:
    """Cards of each fixed skill (brain, speed, brawn) in a row of counts per type."""
    brain, speed, brawn = 0, 0, 0
    for t in range(T):
        x = int(cards[t])
        if SKILL[t] == C.BRAIN:
            brain += x
        elif SKILL[t] == C.SPEED:
            speed += x
        elif SKILL[t] == C.BRAWN:
            brawn += x
    return brain, speed, brawn


@jit
def still_needed(g) -> tuple[int, int, int]:
    """(brain, speed, brawn) of the Job in progress that the staged fixed-skill cards leave
    (negative where over-filled)."""
    j = int(g.team_job)
    brain, speed, brawn = skill_counts(g.staging)
    return JOB_REQ[j, 0] - brain, JOB_REQ[j, 1] - speed, JOB_REQ[j, 2] - brawn


@jit(inline="always")
def team_pick_mask(g, me: int, m: np.ndarray) -> None:
    """Picks (non-decreasing type) after which the Team can still be finished.

    Picking t must leave every skill deficit >= 0, and the cards at or above t must still cover
    what remains: Inside Men - 1 + the sum over skills k of min(cards of skill k at or above t,
    skill k needed before the pick)."""
    r0, r1, r2 = still_needed(g)
    if r0 < 0 or r1 < 0 or r2 < 0:
        return
    need = int(g.picks_left) - 1
    a0, a1, a2 = 0, 0, 0  # cards of each fixed skill at or above t, t descending
    ims = int(g.hand[me, IM])
    for t in range(T - 1, -1, -1):
        x = int(g.hand[me, t])
        k = SKILL[t]
        if k == C.BRAIN:
            a0 += x
        elif k == C.SPEED:
            a1 += x
        elif k == C.BRAWN:
            a2 += x
        if x <= 0 or t < g.last_pick:
            continue
        if (k == C.BRAIN and r0 < 1) or (k == C.SPEED and r1 < 1) or (k == C.BRAWN and r2 < 1):
            continue
        m[A_CARD + t] = ims - 1 + min(a0, r0) + min(a1, r1) + min(a2, r2) >= need


# == observation ===================================================================================


@jit
def observe(g, seat: int, out: np.ndarray, c) -> None:
    """What `seat` may know, in the layout's column order (`kernel._observation_layout`): the
    table, every seat's public block clockwise from the observer (its own with the whole
    hand), the observer's hand, then the pending decision and its context, which only the
    decision's owner sees."""
    N = c.num_players
    i = put_hot(out, 0, 3, N - 2)
    i = put(out, i, g.coffers, F75)
    i = put(out, i, g.deck_len, F48)
    for t in range(T):
        i = put(out, i, g.discard[t], F3)
    i = put(out, i, min(int(g.turns_total), 200), F200)
    i = put(out, i, g.turns_taken[seat] == 0, 1.0)
    for j in range(J):  # out of game / in stack below the top / top / completed
        o, top, order = int(g.job_owner[j]), int(g.stack_top[JOB_STACK[j]]), j % 4
        cat = 3 if o >= 0 else 0 if o == -2 else 1 if top < order else 2 if top == order else 3
        i = put_hot(out, i, 4, cat)
    for r in range(N):
        i = seat_block(g, (seat + r) % N, r == 0, out, i)
    for t in range(T):
        i = put(out, i, g.hand[seat, t], F3)
    d = int(g.dec)
    if not (seat == g.current_player and NONE < d < NUM_DECISIONS):
        out[i:] = 0
        return
    i = put_hot(out, i, NUM_DECISIONS, d)
    i = put_hot(out, i, T, int(g.prog))
    i = put_hot(out, i, J, int(g.team_job))
    for t in range(T):
        i = put(out, i, g.staging[t], F6)
    n0, n1, n2 = team_needed(g)
    i = put(out, i, n0, F6)
    i = put(out, i, n1, F6)
    i = put(out, i, n2, F6)
    for t in range(T):
        i = put(out, i, g.mm_draw[t], F3)
    tp = int(g.tgt_player)
    i = put_hot(out, i, 4, (tp - int(g.current_player)) % N if tp >= 0 else -1)
    i = put_hot(out, i, 3, int(g.tgt_night))
    i = put_hot(out, i, J, int(g.fence_own))
    put(out, i, min(int(g.extra_capers), 3), F3)


@jit(inline="always")
def seat_block(g, p: int, mine: bool, out: np.ndarray, i: int) -> int:
    """One seat's public block (the observer's own shows the whole hand as known)."""
    i = put(out, i, g.stash[p], F75)
    i = put(out, i, min(hand_total(g, p), 30), F30)
    for t in range(T):
        i = put(out, i, g.hand[p, t] if mine else g.known[p, t], F3)
    for night in range(3):
        for t in range(T):
            i = put(out, i, g.night[p, night, t], F3)
    for night in range(3):
        i = put(out, i, g.night_isk[p, night], F3)
    for t in range(T):
        i = put(out, i, g.refresh[p, t], F3)
    # the completed Jobs, then their count per colour: one pass over the Jobs for both
    bonus = 0
    for s in range(S):
        n = 0
        for j in range(4 * s, 4 * s + 4):
            own = g.job_owner[j] == p
            out[i + j] = own
            n += own
        out[i + J + s] = np.float32(n) * np.float32(F4)
        bonus += SET_BONUS[n]
    i += J + S
    i = put(out, i, min(int(g.stash[p]) + bonus, 100), F100)  # score_of
    i = put(out, i, min(int(g.turns_taken[p]), 100), F100)
    i = put(out, i, p == g.start_player, 1.0)
    return put(out, i, p == g.current_player, 1.0)


@jit(inline="always")
def team_needed(g) -> tuple[int, int, int]:
    """(brain, speed, brawn) the Job in progress still needs once the staged cards are in its
    Team; Inside Men fill deficits in that order. Nothing when no Job is in progress."""
    if g.team_job < 0:
        return 0, 0, 0
    r0, r1, r2 = still_needed(g)
    wild = int(g.staging[IM])
    n0 = max(r0, 0)
    u = min(wild, n0)
    n0, wild = n0 - u, wild - u
    n1 = max(r1, 0)
    u = min(wild, n1)
    n1, wild = n1 - u, wild - u
    n2 = max(r2, 0)
    return n0, n1, n2 - min(wild, n2)


DRIVERS = load_drivers("grifters", HERE, setup=setup, resume=resume, apply=apply,
                       refresh_mask=refresh_mask, observe=observe, scores=scores,
                       rank_keys=rank_keys)
