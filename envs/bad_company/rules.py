"""The Bad Company rules as compiled scalar functions over one game's record `g`, ordered like
the rulebook: setup and the opening draft, phase 1 (rolling), phase 2A (activating, with the
car chase and the tokens), phase 2B (heists, tasks, recruiting, loot), collars, the end of the
turn (police, new heists, the end check), the final round and the final tally; then the masks
and the observation.

A player's activation, task, heist or loot effect fills a pending queue (Fixer choices, car
steps, tokens) that the player resolves one decision at a time; `g.ret` says where play goes
on once it is empty. `resume` plays every automatic state until a decision waits.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..core import scalar
from ..core.jit import jit, load_drivers
from ..core.scalar import mark_hot, put_capped
from . import components as C

HERE = Path(__file__).resolve().parent

# -- decisions (the spec's §3.1 phases, in its order), then the automatic states -----------------
# NumPy ints: numba compiles a function once per literal Python int passed to it
SETUP_RETURN, CHIEF_REROLL, CHIEF_PAIRING, FINAL_PAIRING, CHOOSE_SUM = np.arange(5)
FIXER_SYMBOL, PLACE_TOKEN, SHORTCUT, PHASE2B, UPGRADE_CHOICE = np.arange(5, 10)
COLLAR_PLACEMENT, TAKE_HEIST, GAME_OVER = np.arange(10, 13)
NUM_DECISIONS = 13
PENDING, NEXT_SETUP, NEW_TURN, NEXT_2A, NEXT_FINAL, NEXT_2B, COLLARS = np.arange(13, 20)
END_TURN, REFILL, END_CHECK = np.arange(20, 23)
DECISION_NAMES = ("setup return", "chief reroll", "chief pairing", "final pairing",
                  "choose sum", "fixer symbol", "place token", "shortcut", "phase 2B",
                  "upgrade choice", "collar placement", "take heist", "game over")

# -- actions (the spec's §3.2): 92 ids whatever the player count --------------------------------
A_ACCEPT, A_REROLL, A_PAIRING, A_SUM, A_FIXER, A_PLACE_HEIST, A_PLACE_TASK = np.array(
    [0, 1, 32, 35, 37, 40, 48])
A_DISCARD, A_STEP, A_SHORTCUT, A_COMPLETE_HEIST, A_COMPLETE_TASK, A_RECRUIT = np.array(
    [52, 53, 54, 55, 57, 61])
A_UPGRADE, A_BUY_VP, A_CASH3, A_CAR2, A_WILD, A_FREE_RECRUIT, A_FREE_REROLL = np.array(
    [62, 65, 66, 67, 68, 69, 70])
A_HALT, A_END_PHASE, A_COLLAR, A_TAKE, A_SETUP = np.array([71, 72, 73, 84, 89])
NUM_ACTIONS = 92
NUM_REROLLS = 31  # any non-empty subset of the five dice: bits y0, y1, y2, y3, black

# RNG streams
S_CHIEF, S_HEISTS, S_UPGRADES, S_LOOT, S_LEFT, S_RIGHT, S_DICE, S_SHUFFLE, S_RESAMPLE = (
    np.arange(1, 10))

# -- the state of one game (the batch is a structured array of these records) -----------------
NM, NR, NH, NU, NL = C.NUM_MEMBERS, C.NUM_REWARDS, C.NUM_HEISTS, C.NUM_UPGRADES, C.NUM_LOOT
NLT = C.NUM_LOOT_TYPES
STATE_FIELDS = (
    ("dec", np.int8, (), "pending decision (or automatic state)"),
    ("ret", np.int8, (), "where play goes on once the pending queue is empty"),
    ("chief", np.int8, (), "the chief's seat"),
    ("cursor", np.int8, (), "players done in the current clockwise sequence"),
    ("turn", np.int16, (), "turns (rounds) started"),
    ("final_round", np.bool_, (), "this turn is the final round"),
    ("end_triggered", np.bool_, (), "the end of the game has been triggered"),
    ("police_halt", np.bool_, (), "a Police halt was played this turn"),
    ("dice", np.int8, (4,), "the yellow dice (0 before the roll)"),
    ("black", np.int8, (), "the police die (-1 in the final round)"),
    ("sums", np.int8, (2,), "the pair sums, lower first (0 before pairing)"),
    ("rerolls_done", np.int8, (), "rerolls this turn"),
    ("reroll_credits", np.int8, (), "free rerolls from loot cards this turn"),
    ("a5_used", np.bool_, (), "the Dice cheat's free reroll is spent this turn"),
    ("pending_fixer", np.int8, (), "Fixer choices the acting player still makes"),
    ("pending_steps", np.int8, (), "car steps the acting player still moves"),
    ("pending_tokens", np.int8, (5,), "tokens to place: lock, glove, mask, flashlight, wild"),
    ("money", np.int16, ("N",), "coins"),
    ("vp", np.int16, ("N",), "the score track (control points, collars, $5 -> 3 VP, ...)"),
    ("car", np.int8, ("N",), "road position of each car (0 = START)"),
    ("recruit", np.int8, ("N",), "recruiter space 0..8"),
    ("police", np.int8, (), "road position of the police car (-6..28)"),
    ("left", np.int8, ("N",), "left crew-board half"),
    ("right", np.int8, ("N",), "right crew-board half"),
    ("crew", np.int8, ("N", NM, NR), "reward symbols per member 2..12 (base + upgrades)"),
    ("n_upgrades", np.int8, ("N", NM), "upgrade cards on each member"),
    ("upgrade_vp", np.int8, ("N", NM), "VP printed on each member's upgrade cards"),
    ("task_sym", np.int8, ("N", 4), "symbol of each task"),
    ("task_tok", np.int8, ("N", 4), "tokens on each task (0..2)"),
    ("active", np.int8, ("N", 2), "active heists (card index, -1 none)"),
    ("cov", np.int8, ("N", 2, 4), "tokens on each active heist per symbol"),
    ("completed", np.bool_, ("N", NH), "completed heists (the cards face down on the board)"),
    ("heists_done", np.int8, ("N",), "completed heists"),
    ("done_this_turn", np.int8, ("N",), "heists completed this turn"),
    ("abil", np.bool_, ("N", C.NUM_ABILITIES), "red-box abilities A1..A8"),
    ("collar_owner", np.int8, (C.NUM_MISSIONS,), "seat holding each collar, -1 reserve"),
    ("collar_member", np.int8, (C.NUM_MISSIONS,), "member (2..12) wearing it, -1 not placed"),
    ("collar_k", np.int8, (), "collar being evaluated"),
    ("hdeck", np.int8, (NH,), "heist deck, a ring: top hdeck[hd_head], bottom after hd_len"),
    ("hd_head", np.int8, (), "index of the deck's top card"),
    ("hd_len", np.int8, (), "cards in the heist deck (its top is the fifth display heist)"),
    ("display", np.int8, (C.DISPLAY_SLOTS,), "face-up heists in slots 0..3, -1 empty"),
    ("setup_choice", np.int8, (3,), "the drafter's three heists"),
    ("returned", np.int8, ("N",), "heist each player put back at setup (-1 not yet)"),
    ("refill_quota", np.int8, ("N",), "heists each player still takes at the end of turn"),
    ("udeck", np.int8, (NU,), "upgrade deck; the top is udeck[ud_len - 1]"),
    ("ud_len", np.int8, (), "cards in the upgrade deck"),
    ("udisc", np.bool_, (NU,), "upgrade discard pile (face up)"),
    ("upg_choice", np.int8, (3,), "upgrade cards drawn to choose from, -1 none"),
    ("ldeck", np.int8, (NL,), "loot deck (types); the top is ldeck[ld_len - 1]"),
    ("ld_len", np.int8, (), "cards in the loot deck"),
    ("loot", np.int8, ("N", NLT), "loot cards held, per type (private)"),
    ("ldisc", np.int8, (NLT,), "loot discard pile per type (played cards are shown)"),
    ("rng_ctr", np.uint64, (), "per-game random-event counter"),
)
CONFIG_FIELDS = (("first_chief", np.int64), ("tokens_on_heists", np.bool_),
                 ("final_2b", np.bool_),
                 ("police_offset", np.int64),  # the police car starts on -N + this
                 ("police_faces", np.int64, (6,)),  # the police die
                 ("canonical_pairings", np.bool_),  # mask pairings that repeat a lower one's sums
                 # the heist cards for the observation, passed in: reading a module-level table
                 # in compiled code measured slower than reading an array argument
                 ("heist_table", np.int64, (NH, 12)))

# -- tables the compiled code reads (small) -------------------------------------------------------
LEFT_SYM = C.LEFT_SYM.astype(np.int64)
RIGHT_SYM = C.RIGHT_SYM.astype(np.int64)
LEFT_TASK = C.LEFT_TASK.astype(np.int64)
RIGHT_TASK = C.RIGHT_TASK.astype(np.int64)
CP_BONUS = C.CP_BONUS.astype(np.int64)
CP_VP = np.array(C.CP_VP, np.int64)
SHORTCUT_TO = C.SHORTCUT_TO.astype(np.int64)
RED_VP = C.RED_VP.astype(np.int64)
RECRUIT_COST = np.array(C.RECRUIT_COST, np.int64)
UPG_MEMBER = C.UPG_MEMBER.astype(np.int64)
UPG_SYM = C.UPG_SYM.astype(np.int64)
UPG_VP = C.UPG_VP.astype(np.int64)
HEIST_REQ = C.HEIST_REQ.astype(np.int64)
HEIST_VP = C.HEIST_VP.astype(np.int64)
HEIST_BONUS = C.HEIST_BONUS.astype(np.int64)
HEIST_BONUS_AMOUNT = C.HEIST_BONUS_AMOUNT.astype(np.int64)
HEIST_BOX = C.HEIST_BOX.astype(np.int64)
HEIST_MISSION = C.HEIST_MISSION.astype(np.int64)
LOOT_BASE = C.LOOT_BASE.copy()
LOOT_VP = C.LOOT_VP.astype(np.int64)
PAIR_IDX = np.array([[0, 1, 2, 3], [0, 2, 1, 3], [0, 3, 1, 2]], np.int64)
CP_POS = np.array(C.CP_POSITIONS, np.int64)
ROAD_END, RED_ZONE = C.ROAD_END, C.RED_ZONE_START
HEIST_TABLE = np.concatenate([HEIST_REQ, HEIST_VP[:, None], HEIST_BONUS[:, None],
                              HEIST_BONUS_AMOUNT[:, None], HEIST_BOX[:, None], HEIST_MISSION],
                             axis=1)
COLLAR_ORDER = np.array([7, 6, 8, 5, 9, 4, 10, 3, 11, 2, 12], np.int64)


# == small pieces ==================================================================================
@jit
def has(g, p: int, ability: int) -> bool:
    """Whether p holds the red-box ability A1..A8 (1-based, as on the cards)."""
    return g.abil[p, ability - 1] != 0


@jit
def next_uniform(g, stream: int) -> float:
    u = scalar.uniform(g.key, stream, g.rng_ctr)
    g.rng_ctr += np.uint64(1)
    return u


@jit
def roll_yellow(g) -> int:
    return 1 + int(np.floor(next_uniform(g, S_DICE) * 6))


@jit
def roll_black(g, c) -> int:
    """A face of the police die (option `police_die_faces`), each as likely."""
    faces = c.police_faces
    return faces[int(np.floor(next_uniform(g, S_DICE) * faces.shape[0]))]


@jit
def shuffled(g, n: int) -> np.ndarray:
    """A fresh random order of range(n) from the game's counter (reshuffles)."""
    u = np.empty(n, np.uint64)
    for i in range(n):
        u[i] = scalar.bits(g.key, S_SHUFFLE, g.rng_ctr + np.uint64(i))
    g.rng_ctr += np.uint64(n)
    return scalar.stable_order(u)


@jit
def heist_full(g, p: int, h: int) -> bool:
    """Active slot h holds a heist with every symbol space covered."""
    k = int(g.active[p, h])
    if k < 0:
        return False
    for s in range(4):
        if g.cov[p, h, s] < HEIST_REQ[k, s]:
            return False
    return True


@jit
def empty_slots(g, p: int) -> int:
    """p's active-heist slots without a card (counted as ints: two NumPy bools would add up to
    True in plain Python)."""
    return int(g.active[p, 0] < 0) + int(g.active[p, 1] < 0)


@jit
def recruit_cost(g, p: int) -> int:
    """The next advance's price (A4 Headhunter: $1 less, at least $1)."""
    cost = RECRUIT_COST[int(g.recruit[p])]
    if has(g, p, C.A4_HEADHUNTER):
        cost = max(cost - 1, 1)
    return cost


# -- decks ---------------------------------------------------------------------------------------
@jit
def heist_pop(g) -> int:
    """The heist deck's top card, or -1 when it is empty (heists are never reshuffled)."""
    if g.hd_len <= 0:
        return -1
    k = int(g.hdeck[g.hd_head])
    g.hdeck[g.hd_head] = -1
    g.hd_head = (int(g.hd_head) + 1) % NH
    g.hd_len -= 1
    return k


@jit
def heist_to_bottom(g, k: int) -> None:
    g.hdeck[(int(g.hd_head) + int(g.hd_len)) % NH] = k
    g.hd_len += 1


@jit
def draw_loot(g, p: int) -> None:
    """Draw a loot card, face down; an empty deck is refilled from its shuffled discard pile,
    and with both empty nothing is drawn."""
    if g.ld_len == 0:
        n = 0
        for t in range(NLT):
            for _ in range(int(g.ldisc[t])):
                g.ldeck[n] = t
                n += 1
            g.ldisc[t] = 0
        if n == 0:
            return
        order = shuffled(g, n)
        tmp = g.ldeck[:n].copy()
        for i in range(n):
            g.ldeck[i] = tmp[order[i]]
        g.ld_len = n
    g.ld_len -= 1
    g.loot[p, g.ldeck[g.ld_len]] += 1


@jit
def draw_upgrade(g) -> int:
    """The upgrade deck's top card (the discard pile reshuffled when empty), or -1."""
    if g.ud_len == 0:
        n = 0
        for u in range(NU):
            if g.udisc[u]:
                g.udeck[n] = u
                g.udisc[u] = 0
                n += 1
        if n == 0:
            return -1
        order = shuffled(g, n)
        tmp = g.udeck[:n].copy()
        for i in range(n):
            g.udeck[i] = tmp[order[i]]
        g.ud_len = n
    g.ud_len -= 1
    return int(g.udeck[g.ud_len])


@jit
def play_loot(g, p: int, t: int) -> None:
    """A loot card is discarded (face up) to apply its effect."""
    g.loot[p, t] -= 1
    g.ldisc[t] += 1


# == Setup =========================================================================================
@jit
def setup(g, c) -> None:
    """Shuffle the three decks, lay out the heist display (four face-up cards and the deck's
    top), the police car on the space of the player count, recruiters and cars at the start,
    one left and one right crew-board half each, $2 each, the first chief; then the draft."""
    N = c.num_players
    order = scalar.permutation(g.key, S_HEISTS, NH)
    for i in range(NH):
        g.hdeck[i] = order[i]
    g.hd_head = 0
    g.hd_len = NH
    order = scalar.permutation(g.key, S_UPGRADES, NU)
    for i in range(NU):
        g.udeck[i] = order[i]
    g.ud_len = NU
    order = scalar.permutation(g.key, S_LOOT, NL)
    for i in range(NL):
        g.ldeck[i] = LOOT_BASE[order[i]]
    g.ld_len = NL
    for s in range(C.DISPLAY_SLOTS):
        g.display[s] = heist_pop(g)
    g.police = -N + c.police_offset
    lefts = scalar.permutation(g.key, S_LEFT, C.NUM_HALVES)
    rights = scalar.permutation(g.key, S_RIGHT, C.NUM_HALVES)
    for p in range(N):
        g.money[p] = C.START_MONEY
        g.left[p] = lefts[p]
        g.right[p] = rights[p]
        for m in range(5):  # members 3..7, rows 1..5
            for r in range(NR):
                g.crew[p, 1 + m, r] = LEFT_SYM[lefts[p], m, r]
        for m in range(4):  # members 8..11, rows 6..9
            for r in range(NR):
                g.crew[p, 6 + m, r] = RIGHT_SYM[rights[p], m, r]
        g.task_sym[p, 0] = LEFT_TASK[lefts[p], 0]
        g.task_sym[p, 1] = LEFT_TASK[lefts[p], 1]
        g.task_sym[p, 2] = RIGHT_TASK[rights[p], 0]
        g.task_sym[p, 3] = RIGHT_TASK[rights[p], 1]
        g.active[p, 0] = -1
        g.active[p, 1] = -1
        g.returned[p] = -1
    for k in range(C.NUM_MISSIONS):
        g.collar_owner[k] = -1
        g.collar_member[k] = -1
    for i in range(3):
        g.upg_choice[i] = -1
        g.setup_choice[i] = -1
    if c.first_chief >= 0:
        g.chief = c.first_chief
    else:
        g.chief = int(np.floor(scalar.uniform(g.key, S_CHIEF, np.uint64(0)) * N))
    g.black = -1
    g.cursor = 0
    g.dec = NEXT_SETUP


@jit(inline="always")
def next_setup(g, c) -> None:
    """From the chief clockwise, each player draws the top three heists (privately): keep two,
    put the third at the bottom of the deck. Then the first turn."""
    if g.cursor >= c.num_players:
        g.dec = NEW_TURN
        return
    p = (int(g.chief) + int(g.cursor)) % c.num_players
    g.current_player = p
    for i in range(C.SETUP_DRAW):
        g.setup_choice[i] = heist_pop(g)
    g.dec = SETUP_RETURN


@jit(inline="always")
def setup_return(g, p: int, a: int) -> None:
    i = a - A_SETUP
    k = 0
    for j in range(C.SETUP_DRAW):
        if j == i:
            heist_to_bottom(g, int(g.setup_choice[j]))
            g.returned[p] = g.setup_choice[j]
        else:
            g.active[p, k] = g.setup_choice[j]
            k += 1
        g.setup_choice[j] = -1
    g.cursor += 1
    g.dec = NEXT_SETUP


# == the step: one decision, then everything automatic up to the next one =========================
@jit
def apply(g, a: int, c) -> None:
    """Apply the pending decision's action (the drivers then `resume` play)."""
    d = int(g.dec)
    p = int(g.current_player)
    if d == CHIEF_REROLL:
        chief_reroll(g, p, a, c)
    elif d == CHIEF_PAIRING:
        chief_pairing(g, p, a)
    elif d == FINAL_PAIRING:
        final_pairing(g, p, a)
    elif d == CHOOSE_SUM:
        activate(g, p, int(g.sums[a - A_SUM]))
        g.cursor += 1
        start_pending(g, NEXT_2A)
    elif d == FIXER_SYMBOL:
        fixer_symbol(g, p, a - A_FIXER)
    elif d == PLACE_TOKEN:
        place_token(g, p, a)
    elif d == SHORTCUT:
        move_car(g, p, a == A_SHORTCUT)
        g.dec = PENDING
    elif d == PHASE2B:
        phase2b(g, p, a, c)
    elif d == UPGRADE_CHOICE:
        choose_upgrade(g, p, a - A_UPGRADE)
    elif d == COLLAR_PLACEMENT:
        g.collar_member[g.collar_k] = a - A_COLLAR + 2
        g.collar_k += 1
        g.dec = COLLARS
    elif d == TAKE_HEIST:
        take_heist(g, p, a - A_TAKE)
    elif d == SETUP_RETURN:
        setup_return(g, p, a)


@jit
def resume(g, c) -> None:
    """Play the automatic states until a decision waits or the game is over; a decision just
    asked gets its mask here."""
    for _ in range(100_000):  # a guard: every state asks a decision within a few passes
        d = int(g.dec)
        if d == PENDING:
            pending(g, c)
        elif d == NEXT_SETUP:
            next_setup(g, c)
        elif d == NEW_TURN:
            new_turn(g, c)
        elif d == NEXT_2A:
            next_2a(g, c)
        elif d == NEXT_FINAL:
            next_final(g, c)
        elif d == NEXT_2B:
            next_2b(g, c)
        elif d == COLLARS:
            collars(g, c)
        elif d == END_TURN:
            end_turn(g, c)
        elif d == REFILL:
            refill(g, c)
        elif d == END_CHECK:
            end_check(g, c)
        elif d == GAME_OVER:
            if not g.terminated:
                scalar.game_over(g)
            return
        else:
            refresh_mask(g, c)
            return
    raise RuntimeError("bad_company: automatic play did not settle")


@jit
def start_pending(g, ret: int) -> None:
    """The acting player resolves the pending queue, then play goes on at `ret`."""
    g.ret = ret
    g.dec = PENDING


# == Phase 1: rolling dice =========================================================================
@jit(inline="always")
def new_turn(g, c) -> None:
    """The chief rolls all five dice."""
    g.turn += 1
    for p in range(c.num_players):
        g.done_this_turn[p] = 0
    g.rerolls_done = 0
    g.reroll_credits = 0
    g.a5_used = 0
    g.police_halt = 0
    g.sums[0] = 0
    g.sums[1] = 0
    for i in range(4):
        g.dice[i] = roll_yellow(g)
    g.black = roll_black(g, c)
    g.current_player = g.chief
    g.dec = CHIEF_REROLL


@jit(inline="always")
def chief_reroll(g, p: int, a: int, c) -> None:
    """Accept the roll, turn a Free reroll card into a credit, play a $3 loot card, or pay $1
    (A5's first reroll free, then credits) to reroll any subset of the five dice."""
    if a == A_ACCEPT:
        g.dec = CHIEF_PAIRING
        return
    if a == A_FREE_REROLL:
        play_loot(g, p, C.L_FREE_REROLL)
        g.reroll_credits += 1
        return
    if a == A_CASH3:  # loot is played any time it can matter: here, for more rerolls
        play_loot(g, p, C.L_CASH3)
        g.money[p] += 3
        return
    if has(g, p, C.A5_DICE_CHEAT) and not g.a5_used:
        g.a5_used = 1
    elif g.reroll_credits > 0:
        g.reroll_credits -= 1
    else:
        g.money[p] -= 1
    bits = a - A_REROLL + 1
    for i in range(4):
        if bits & (1 << i):
            g.dice[i] = roll_yellow(g)
    if bits & 16:
        g.black = roll_black(g, c)
    g.rerolls_done += 1


@jit(inline="always")
def pairing_sums(g, k: int) -> tuple[int, int]:
    """The two sums of pairing k of the four yellow dice, lower first."""
    a = int(g.dice[PAIR_IDX[k, 0]]) + int(g.dice[PAIR_IDX[k, 1]])
    b = int(g.dice[PAIR_IDX[k, 2]]) + int(g.dice[PAIR_IDX[k, 3]])
    return min(a, b), max(a, b)


@jit
def set_sums(g, k: int) -> None:
    """Pairing k of the four yellow dice; the two sums are announced, lower first."""
    g.sums[0], g.sums[1] = pairing_sums(g, k)


@jit(inline="always")
def chief_pairing(g, p: int, a: int) -> None:
    """The chief activates both matching members (the same one twice on equal sums)."""
    set_sums(g, a - A_PAIRING)
    activate(g, p, int(g.sums[0]))
    activate(g, p, int(g.sums[1]))
    g.cursor = 1
    start_pending(g, NEXT_2A)


# == Phase 2A: activating crew members =============================================================
@jit
def activate(g, p: int, m: int) -> None:
    """Take every reward on member m: coins at once, wheels and the Chauffeur's two spaces as
    car steps, symbols as tokens, the Fixer's choice; a collar on m gives 1 VP."""
    for k in range(C.NUM_MISSIONS):
        if g.collar_owner[k] == p and g.collar_member[k] == m:
            g.vp[p] += 1
    if m == C.FIXER:
        g.pending_fixer += 1
        return
    if m == C.CHAUFFEUR:
        g.pending_steps += C.CHAUFFEUR_STEPS + (1 if has(g, p, C.A1_WHEELMAN) else 0)
        return
    row = m - 2
    coins = int(g.crew[p, row, C.COIN])
    if coins > 0:
        g.money[p] += coins + (1 if has(g, p, C.A3_LAUNDERER) else 0)
    g.pending_steps += g.crew[p, row, C.WHEEL]
    for s in range(4):
        g.pending_tokens[s] += g.crew[p, row, 2 + s]


@jit(inline="always")
def next_2a(g, c) -> None:
    """Each other player, clockwise from the chief's left, activates one of the two sums."""
    if g.cursor >= c.num_players:
        g.cursor = 0
        g.dec = NEXT_2B
        return
    p = (int(g.chief) + int(g.cursor)) % c.num_players
    g.current_player = p
    if g.sums[0] == g.sums[1]:
        activate(g, p, int(g.sums[0]))
        g.cursor += 1
        start_pending(g, NEXT_2A)
        return
    g.dec = CHOOSE_SUM


@jit(inline="always")
def pending(g, c) -> None:
    """The acting player's queue: Fixer choices, then car steps, then tokens (lock, glove,
    mask, flashlight, wild), one decision each."""
    p = int(g.current_player)
    if g.pending_fixer > 0:
        g.dec = FIXER_SYMBOL
        return
    if g.pending_steps > 0:
        x = int(g.car[p])
        if x >= ROAD_END:  # the end of the road: the remaining steps are lost
            g.pending_steps = 0
        elif SHORTCUT_TO[x] >= 0:
            g.dec = SHORTCUT
        else:
            move_car(g, p, False)
        return
    if token_kind(g) >= 0:
        g.dec = PLACE_TOKEN
        return
    g.dec = g.ret


@jit(inline="always")
def fixer_symbol(g, p: int, s: int) -> None:
    """Count the chosen symbol on every crew member (3..11): that many tokens (A2: one more)."""
    n = 0
    for row in range(1, NM - 1):
        n += int(g.crew[p, row, 2 + s])
    if has(g, p, C.A2_CONNECTED):
        n += 1
    g.pending_tokens[s] += n
    g.pending_fixer -= 1
    g.dec = PENDING


@jit
def move_car(g, p: int, shortcut: bool) -> None:
    """One car step, or a shortcut that bypasses a control point. A normal step onto a control
    point collects its bonus unless the police car has reached it (A7: 1 VP more)."""
    g.pending_steps -= 1
    x = int(g.car[p])
    if shortcut:
        g.car[p] = SHORTCUT_TO[x]
        return
    x += 1
    g.car[p] = x
    b = CP_BONUS[x]
    if b == C.CP_NONE or g.police >= x:
        return
    if b == C.CP_CASH:
        g.money[p] += 2
    elif b == C.CP_LOOT:
        draw_loot(g, p)
    else:
        g.vp[p] += CP_VP[b]
    if has(g, p, C.A7_SCOUT):
        g.vp[p] += 1


@jit
def token_kind(g) -> int:
    """The token placed next (lock, glove, mask, flashlight, then wild), or -1."""
    for s in range(5):
        if g.pending_tokens[s] > 0:
            return s
    return -1


@jit(inline="always")
def place_token(g, p: int, a: int) -> None:
    """Cover a pictogram on an active heist or a task; a token that fits nowhere is lost."""
    s = token_kind(g)
    g.pending_tokens[s] -= 1
    if a < A_PLACE_TASK:
        h = (a - A_PLACE_HEIST) // 4
        g.cov[p, h, (a - A_PLACE_HEIST) % 4] += 1
    elif a < A_DISCARD:
        g.task_tok[p, a - A_PLACE_TASK] += 1
    g.dec = PENDING


# == Phase 2B: heists, tasks and recruiting, in any order ==========================================
@jit(inline="always")
def next_2b(g, c) -> None:
    """Players take phase 2B one at a time, from the chief clockwise."""
    if g.cursor >= c.num_players:
        g.collar_k = 0
        g.dec = COLLARS
        return
    g.current_player = (int(g.chief) + int(g.cursor)) % c.num_players
    g.dec = PHASE2B


@jit
def phase2b(g, p: int, a: int, c) -> None:
    """One 2B action; its steps, tokens or upgrade choice resolve before the next."""
    if a == A_END_PHASE:
        g.cursor += 1
        g.dec = NEXT_2B
    elif a < A_COMPLETE_TASK:
        complete_heist(g, p, a - A_COMPLETE_HEIST)
    elif a < A_RECRUIT:
        complete_task(g, p, a - A_COMPLETE_TASK)
    elif a == A_RECRUIT:
        g.money[p] -= recruit_cost(g, p)
        recruit(g, p)
    elif a == A_BUY_VP:
        g.money[p] -= C.BUY_VP_COST
        g.vp[p] += C.BUY_VP_GAIN
    elif a == A_CASH3:
        play_loot(g, p, C.L_CASH3)
        g.money[p] += 3
    elif a == A_CAR2:
        play_loot(g, p, C.L_CAR2)
        g.pending_steps += 2
        start_pending(g, PHASE2B)
    elif a == A_WILD:
        play_loot(g, p, C.L_WILD)
        g.pending_tokens[C.WILD] += 1
        start_pending(g, PHASE2B)
    elif a == A_FREE_RECRUIT:
        play_loot(g, p, C.L_FREE_RECRUIT)
        recruit(g, p)
    elif a == A_HALT:
        play_loot(g, p, C.L_HALT)
        g.police_halt = 1


@jit
def complete_heist(g, p: int, h: int) -> None:
    """Tokens back to the reserve, the immediate bonus (A8: $2 more for a later heist), the
    card face down on the crew board, and its red-box ability from now on."""
    k = int(g.active[p, h])
    for s in range(4):
        g.cov[p, h, s] = 0
    g.active[p, h] = -1
    if has(g, p, C.A8_FENCE):
        g.money[p] += 2
    g.completed[p, k] = 1
    g.heists_done[p] += 1
    g.done_this_turn[p] += 1
    box = HEIST_BOX[k]
    if 1 <= box <= C.NUM_ABILITIES:
        g.abil[p, box - 1] = 1
    b, n = HEIST_BONUS[k], HEIST_BONUS_AMOUNT[k]
    if b == C.B_CASH:
        g.money[p] += n
    elif b == C.B_LOOT:
        for _ in range(n):
            draw_loot(g, p)
    elif b == C.B_CAR:
        g.pending_steps += n
        start_pending(g, PHASE2B)
    elif b == C.B_WILD:
        g.pending_tokens[C.WILD] += n
        start_pending(g, PHASE2B)


@jit
def complete_task(g, p: int, t: int) -> None:
    """Two tokens back to the reserve for the task's bonus (A6: $1 more)."""
    g.task_tok[p, t] = 0
    if has(g, p, C.A6_ORGANIZER):
        g.money[p] += 1
    if t == C.TASK_WILD:
        g.pending_tokens[C.WILD] += 1
        start_pending(g, PHASE2B)
    elif t == C.TASK_CASH:
        g.money[p] += C.TASK_CASH_AMOUNT
    elif t == C.TASK_CAR:
        g.pending_steps += 1
        start_pending(g, PHASE2B)
    else:
        draw_loot(g, p)


@jit
def recruit(g, p: int) -> None:
    """Advance the recruiter and draw three upgrade cards to keep one (fewer if the decks run
    out; none drawn: nothing to keep)."""
    g.recruit[p] += 1
    n = 0
    for i in range(C.UPGRADES_DRAWN):
        u = draw_upgrade(g)
        g.upg_choice[i] = u
        n += u >= 0
    g.dec = UPGRADE_CHOICE if n > 0 else PHASE2B


@jit(inline="always")
def choose_upgrade(g, p: int, i: int) -> None:
    """The kept card goes on its member, symbols stacked (a collar stays on top); the others
    go to the discard pile."""
    for j in range(C.UPGRADES_DRAWN):
        u = int(g.upg_choice[j])
        if u < 0:
            continue
        if j == i:
            row = UPG_MEMBER[u] - 2
            for r in range(NR):
                g.crew[p, row, r] += UPG_SYM[u, r]
            g.n_upgrades[p, row] += 1
            g.upgrade_vp[p, row] += UPG_VP[u]
        else:
            g.udisc[u] = 1
        g.upg_choice[j] = -1
    g.dec = PHASE2B


# == Collars =======================================================================================
@jit
def collar_winner(g, k: int, c) -> int:
    """The player with the most mission symbols k on completed heists (ties: the highest heist
    number with that symbol), or -1 when nobody has one."""
    best, best_n, best_top = -1, 0, -1
    for p in range(c.num_players):
        n, top = 0, -1
        for h in range(NH):
            if g.completed[p, h] and HEIST_MISSION[h, k]:
                n += 1
                top = h
        if n > best_n or (n == best_n and n > 0 and top > best_top):
            best, best_n, best_top = p, n, top
    return best


@jit(inline="always")
def collars(g, c) -> None:
    """Diamond, gold bar, art, money bag in turn: a new winner takes the collar from the reserve
    or its holder (1 VP) and places it on a member."""
    while g.collar_k < C.NUM_MISSIONS:
        k = int(g.collar_k)
        w = collar_winner(g, k, c)
        if w >= 0 and w != g.collar_owner[k]:
            g.collar_owner[k] = w
            g.collar_member[k] = -1
            g.vp[w] += 1
            g.current_player = w
            g.dec = COLLAR_PLACEMENT
            return
        g.collar_k += 1
    g.dec = GAME_OVER if g.final_round else END_TURN


# == End of the turn ===============================================================================
@jit(inline="always")
def end_turn(g, c) -> None:
    """The police car moves by the police die (never by a shortcut; not after a Police halt);
    then, from the chief clockwise, players take heists up to two. When the display and the
    deck cannot give everyone two, each player who completed a heist this turn takes one."""
    if not g.police_halt:
        g.police = min(ROAD_END, int(g.police) + int(g.black))
    g.police_halt = 0
    N = c.num_players
    need, avail = 0, int(g.hd_len)
    for s in range(C.DISPLAY_SLOTS):
        avail += g.display[s] >= 0
    for p in range(N):
        need += empty_slots(g, p)
    for p in range(N):
        short = empty_slots(g, p)
        if avail < need:
            short = min(short, 1) if g.done_this_turn[p] > 0 else 0
        g.refill_quota[p] = short
    g.cursor = 0
    g.dec = REFILL


@jit(inline="always")
def refill(g, c) -> None:
    N = c.num_players
    avail = int(g.hd_len)
    for s in range(C.DISPLAY_SLOTS):
        avail += g.display[s] >= 0
    while g.cursor < N:
        p = (int(g.chief) + int(g.cursor)) % N
        if g.refill_quota[p] > 0 and avail > 0:
            g.current_player = p
            g.dec = TAKE_HEIST
            return
        g.refill_quota[p] = 0
        g.cursor += 1
    g.dec = END_CHECK


@jit(inline="always")
def take_heist(g, p: int, slot: int) -> None:
    """A display heist becomes active; the display refills from the deck at once."""
    if slot == C.DISPLAY_SLOTS:
        k = heist_pop(g)
    else:
        k = int(g.display[slot])
        g.display[slot] = heist_pop(g)
    h = 0 if g.active[p, 0] < 0 else 1
    g.active[p, h] = k
    g.refill_quota[p] -= 1
    g.dec = REFILL


@jit(inline="always")
def end_check(g, c) -> None:
    """A sixth heist, or any car (the police's too) in the red zone: one final round follows.
    Either way the chief passes to the left."""
    N = c.num_players
    g.chief = (int(g.chief) + 1) % N
    triggered = g.police >= RED_ZONE
    for p in range(N):
        triggered |= g.heists_done[p] >= C.HEISTS_TO_END or g.car[p] >= RED_ZONE
    if not triggered:
        g.dec = NEW_TURN
        return
    g.end_triggered = 1
    g.final_round = 1
    g.turn += 1
    for p in range(N):
        g.done_this_turn[p] = 0
    for i in range(4):  # the golden dice, once more; no rerolls, no police die
        g.dice[i] = roll_yellow(g)
    g.black = -1
    g.sums[0] = 0
    g.sums[1] = 0
    g.cursor = 0
    g.dec = NEXT_FINAL


# == The final round ===============================================================================
@jit(inline="always")
def next_final(g, c) -> None:
    """Each player, from the chief clockwise, pairs the dice and activates two members; then
    phase 2B (option `final_phase_2b`) and the collars, and the game is over."""
    if g.cursor >= c.num_players:
        g.cursor = 0
        if c.final_2b:
            g.dec = NEXT_2B
        else:
            g.collar_k = 0
            g.dec = COLLARS
        return
    g.current_player = (int(g.chief) + int(g.cursor)) % c.num_players
    g.dec = FINAL_PAIRING


@jit(inline="always")
def final_pairing(g, p: int, a: int) -> None:
    set_sums(g, a - A_PAIRING)
    activate(g, p, int(g.sums[0]))
    activate(g, p, int(g.sums[1]))
    g.cursor += 1
    start_pending(g, NEXT_FINAL)


# == The final tally ===============================================================================
@jit
def leftover_tokens(g, p: int, c) -> int:
    n = 0
    for t in range(4):
        n += int(g.task_tok[p, t])
    if c.tokens_on_heists:
        for h in range(2):
            for s in range(4):
                n += int(g.cov[p, h, s])
    return n


@jit
def collars_held(g, p: int) -> int:
    n = 0
    for k in range(C.NUM_MISSIONS):
        n += g.collar_owner[k] == p
    return n


SUMMARY = 16  # heist_summary: missions 0..3, top numbers 4..7, purple 8..13, base VP, heists


@jit
def heist_summary(g, p: int, t: np.ndarray) -> None:
    """One pass over p's completed heists: mission symbols per type, the highest heist number
    (1-based) with each, purple cards per kind, base VP and the count, into t."""
    t[:] = 0
    done = g.completed[p]
    for h in range(NH):
        if done[h]:
            t[14] += HEIST_VP[h]
            t[15] += 1
            for k in range(C.NUM_MISSIONS):
                if HEIST_MISSION[h, k]:
                    t[k] += 1
                    t[4 + k] = h + 1
            box = HEIST_BOX[h]
            if box >= C.P1_MASTERMIND:
                t[8 + box - C.P1_MASTERMIND] += 1


@jit
def public_score(g, p: int, c) -> int:
    t = np.zeros(SUMMARY, np.int64)
    heist_summary(g, p, t)
    return tally(g, p, c, t)


@jit
def tally(g, p: int, c, t: np.ndarray) -> int:
    """The tally without the loot cards' VP (which are hidden until the end), from p's heist
    summary t: the score track, heists' base VP and purple effects, upgrades' VP, 2 per collar,
    a point per two leftover tokens, the red-zone bonus, -3 behind the police car."""
    s = int(g.vp[p]) + t[14]
    upgrades = 0
    for row in range(NM):
        s += int(g.upgrade_vp[p, row])
        upgrades += int(g.n_upgrades[p, row])
    collars = collars_held(g, p)
    s += C.COLLAR_VP * collars + leftover_tokens(g, p, c) // 2
    car = int(g.car[p])
    s += RED_VP[car]
    behind = car < g.police
    if behind:
        s -= C.BEHIND_POLICE_VP
    kinds = int(t[0] > 0) + int(t[1] > 0) + int(t[2] > 0) + int(t[3] > 0)
    s += t[8] * t[15] + t[9] * 2 * kinds + t[10] * upgrades + t[11] * (int(g.money[p]) // 3)
    s += t[12] * (0 if behind else 4) + t[13] * 2 * collars
    return s


@jit
def loot_vp(g, p: int) -> int:
    n = 0
    for t in range(NLT):
        n += int(g.loot[p, t]) * LOOT_VP[t]
    return n


@jit
def scores(g, out: np.ndarray, c) -> None:
    for p in range(c.num_players):
        out[p] = public_score(g, p, c) + loot_vp(g, p)


@jit
def rank_keys(g, out: np.ndarray, c) -> None:
    """Most points, then most coins; players still level share the victory [RB]."""
    for p in range(c.num_players):
        out[p] = (public_score(g, p, c) + loot_vp(g, p)) * 65536 + int(g.money[p])


# == masks =========================================================================================
@jit
def refresh_mask(g, c) -> int:
    """Set the legal actions of the pending decision; returns how many there are."""
    m = g.legal_action_mask
    m[:] = 0
    d = int(g.dec)
    p = int(g.current_player)
    if d == CHIEF_REROLL:
        m[A_ACCEPT] = 1
        can = (has(g, p, C.A5_DICE_CHEAT) and not g.a5_used) or g.reroll_credits > 0 \
            or g.money[p] >= 1
        if can:
            for i in range(NUM_REROLLS):
                m[A_REROLL + i] = 1
        m[A_FREE_REROLL] = g.loot[p, C.L_FREE_REROLL] > 0
        m[A_CASH3] = g.loot[p, C.L_CASH3] > 0
    elif d == CHIEF_PAIRING or d == FINAL_PAIRING:
        pairing_mask(g, m, c.canonical_pairings)
    elif d == CHOOSE_SUM:
        m[A_SUM] = 1
        m[A_SUM + 1] = 1
    elif d == FIXER_SYMBOL:
        for s in range(3):
            m[A_FIXER + s] = 1
    elif d == PLACE_TOKEN:
        token_mask(g, p, m)
    elif d == SHORTCUT:
        m[A_STEP] = 1
        m[A_SHORTCUT] = 1
    elif d == PHASE2B:
        phase2b_mask(g, p, m)
    elif d == UPGRADE_CHOICE:
        for i in range(C.UPGRADES_DRAWN):
            m[A_UPGRADE + i] = g.upg_choice[i] >= 0
    elif d == COLLAR_PLACEMENT:
        for member in range(2, 13):
            free = True
            for k in range(C.NUM_MISSIONS):
                if g.collar_owner[k] == p and g.collar_member[k] == member:
                    free = False
            m[A_COLLAR + member - 2] = free
    elif d == TAKE_HEIST:
        for s in range(C.DISPLAY_SLOTS):
            m[A_TAKE + s] = g.display[s] >= 0
        m[A_TAKE + C.DISPLAY_SLOTS] = g.hd_len > 0
    elif d == SETUP_RETURN:
        for i in range(C.SETUP_DRAW):
            m[A_SETUP + i] = g.setup_choice[i] >= 0
    n = 0
    for a in range(NUM_ACTIONS):
        n += m[a]
    return n


@jit(inline="always")
def pairing_mask(g, m: np.ndarray, canonical: bool) -> None:
    """The three pairings, a duplicate of a lower one's sums masked (D-BC-04; all three
    without `canonical`)."""
    lo = np.zeros(3, np.int64)
    hi = np.zeros(3, np.int64)
    for k in range(3):
        a = int(g.dice[PAIR_IDX[k, 0]]) + int(g.dice[PAIR_IDX[k, 1]])
        b = int(g.dice[PAIR_IDX[k, 2]]) + int(g.dice[PAIR_IDX[k, 3]])
        lo[k], hi[k] = min(a, b), max(a, b)
        dup = False
        for j in range(k):
            dup |= lo[j] == lo[k] and hi[j] == hi[k]
        m[A_PAIRING + k] = not (dup and canonical)


@jit(inline="always")
def token_mask(g, p: int, m: np.ndarray) -> None:
    """An uncovered matching pictogram on an active heist or a task with room (a wild token
    fits any); discarding only when the token fits nowhere (D-BC-09)."""
    s = token_kind(g)
    n = 0
    for h in range(2):
        k = int(g.active[p, h])
        if k < 0:
            continue
        for x in range(4):
            if (s == x or s == C.WILD) and g.cov[p, h, x] < HEIST_REQ[k, x]:
                m[A_PLACE_HEIST + 4 * h + x] = 1
                n += 1
    for t in range(4):
        if g.task_tok[p, t] < 2 and (s == C.WILD or g.task_sym[p, t] == s):
            m[A_PLACE_TASK + t] = 1
            n += 1
    m[A_DISCARD] = n == 0


@jit(inline="always")
def phase2b_mask(g, p: int, m: np.ndarray) -> None:
    for h in range(2):
        m[A_COMPLETE_HEIST + h] = heist_full(g, p, h)
    for t in range(4):
        m[A_COMPLETE_TASK + t] = g.task_tok[p, t] >= 2
    r = int(g.recruit[p])
    m[A_RECRUIT] = r < C.TRACK_END and g.money[p] >= recruit_cost(g, p)
    m[A_BUY_VP] = r >= C.TRACK_END and g.money[p] >= C.BUY_VP_COST
    m[A_CASH3] = g.loot[p, C.L_CASH3] > 0
    m[A_CAR2] = g.loot[p, C.L_CAR2] > 0
    m[A_WILD] = g.loot[p, C.L_WILD] > 0
    m[A_FREE_RECRUIT] = g.loot[p, C.L_FREE_RECRUIT] > 0 and r < C.TRACK_END
    m[A_HALT] = g.loot[p, C.L_HALT] > 0 and not g.final_round and not g.police_halt
    m[A_END_PHASE] = 1


# == observation ===================================================================================


HEIST_FEAT = 38


@jit
def heist_feat(out: np.ndarray, i: int, k: int, c0: int, c1: int, c2: int, c3: int,
               c) -> int:
    """One heist card (k < 0: zeros) with the tokens on it."""
    if k < 0:  # the row is zero
        return i + HEIST_FEAT
    row = c.heist_table[k]
    i = put_capped(out, i, 1, 1.0)
    i = put_capped(out, i, k + 1, 1 / 40)
    for s in range(4):
        i = put_capped(out, i, row[s], 1 / 8)
    i = put_capped(out, i, c0, 1 / 8)
    i = put_capped(out, i, c1, 1 / 8)
    i = put_capped(out, i, c2, 1 / 8)
    i = put_capped(out, i, c3, 1 / 8)
    i = put_capped(out, i, row[4], 1 / 10)
    i = mark_hot(out, i, 5, row[5])
    i = put_capped(out, i, row[6], 1 / 3)
    box = row[7]
    i = mark_hot(out, i, 9, box if box <= C.NUM_ABILITIES else 0)
    i = mark_hot(out, i, 7, box - C.NUM_ABILITIES if box > C.NUM_ABILITIES else 0)
    for x in range(C.NUM_MISSIONS):
        i = put_capped(out, i, row[8 + x], 1.0)
    return put_capped(out, i, row[0] + row[1] + row[2] + row[3] - c0 - c1 - c2 - c3, 1 / 8)


@jit
def observe(g, seat: int, out: np.ndarray, c) -> None:
    """What `seat` may know, in the layout's column order (`kernel._observation_layout`): the
    table, every seat's public block clockwise from the observer, then the observer's private
    part (own loot; the drawn heists or upgrades and the pending queue while deciding)."""
    N = c.num_players
    d = int(g.dec)
    out[:] = 0.0  # one pass over the row; then only hot columns and values are written
    i = mark_hot(out, 0, NUM_DECISIONS, GAME_OVER if g.terminated or g.truncated else d)
    i = put_capped(out, i, g.final_round, 1.0)
    i = put_capped(out, i, g.end_triggered, 1.0)
    i = put_capped(out, i, g.turn, 1 / 60)
    i = mark_hot(out, i, N, (int(g.chief) - seat) % N)
    cp = int(g.current_player)
    i = mark_hot(out, i, N, (cp - seat) % N if cp >= 0 else -1)
    i = mark_hot(out, i, 5, N - 2)
    for k in range(4):
        i = mark_hot(out, i, 6, int(g.dice[k]) - 1)
    i = mark_hot(out, i, 3, int(g.black))
    i = put_capped(out, i, g.dice[0] > 0, 1.0)
    i = mark_hot(out, i, 11, int(g.sums[0]) - 2)
    i = mark_hot(out, i, 11, int(g.sums[1]) - 2)
    i = pairing_part(g, seat, out, i)
    police = int(g.police)
    i = put_capped(out, i, police + 6, 1 / 34)
    i = mark_hot(out, i, 35, police + 6)
    for k in range(CP_POS.shape[0]):
        i = put_capped(out, i, police >= CP_POS[k], 1.0)
    for s in range(C.DISPLAY_SLOTS):
        i = heist_feat(out, i, int(g.display[s]), 0, 0, 0, 0, c)
    top = int(g.hdeck[g.hd_head]) if g.hd_len > 0 else -1
    i = heist_feat(out, i, top, 0, 0, 0, 0, c)
    i = put_capped(out, i, g.hd_len, 1 / 40)
    i = put_capped(out, i, g.ud_len, 1 / 45)
    i = put_capped(out, i, g.ld_len, 1 / 30)
    for k in range(C.NUM_MISSIONS):
        o = int(g.collar_owner[k])
        i = mark_hot(out, i, N + 1, (o - seat) % N if o >= 0 else N)
    i = put_capped(out, i, g.police_halt, 1.0)
    for u in range(NU):
        i = put_capped(out, i, g.udisc[u], 1.0)
    for t in range(NLT):
        i = put_capped(out, i, g.ldisc[t], 1 / 6)
    t = np.zeros(SUMMARY, np.int64)
    for r in range(N):
        i = player_block(g, (seat + r) % N, out, i, c, t)
    private_part(g, seat, out, i, c)


MEMBER_FEAT = 9


@jit(inline="always")
def member_feat(g, p: int, row: int, out: np.ndarray, i: int) -> int:
    """Crew member `row` (0 = member 2) of player p: its rewards, upgrades and collar (row
    outside the crew: zeros)."""
    if row < 0 or row >= NM:
        return i + MEMBER_FEAT
    i = put_capped(out, i, g.crew[p, row, 0], 1 / 6)
    for r in range(1, NR):
        i = put_capped(out, i, g.crew[p, row, r], 1 / 4)
    i = put_capped(out, i, g.n_upgrades[p, row], 1 / 5)
    i = put_capped(out, i, g.upgrade_vp[p, row], 1 / 6)
    collar = 0
    for k in range(C.NUM_MISSIONS):
        collar |= g.collar_owner[k] == p and g.collar_member[k] == row + 2
    return put_capped(out, i, collar, 1.0)


@jit(inline="always")
def pairing_part(g, seat: int, out: np.ndarray, i: int) -> int:
    """Once the dice are rolled: the sums of each of the three pairings, then the observer's
    crew member at each of those sums and at the announced pair sums. All of it follows from
    the dice and the crew boards, but a network would have to learn the additions and the
    look-ups; given them, it learns which pairing activates what."""
    rolled = g.dice[0] > 0
    pairs = PAIR_IDX.shape[0]
    members = i + 22 * pairs  # the members' columns follow all the sums
    for k in range(pairs):
        lo, hi = pairing_sums(g, k) if rolled else (1, 1)  # 1: no sum, zeros
        mark_hot(out, i + 22 * k, 11, lo - 2)
        mark_hot(out, i + 22 * k + 11, 11, hi - 2)
        member_feat(g, seat, lo - 2, out, members + 2 * MEMBER_FEAT * k)
        member_feat(g, seat, hi - 2, out, members + 2 * MEMBER_FEAT * k + MEMBER_FEAT)
    i = members + 2 * MEMBER_FEAT * pairs
    for j in range(2):
        i = member_feat(g, seat, int(g.sums[j]) - 2, out, i)
    return i


@jit(inline="always")
def player_block(g, p: int, out: np.ndarray, i: int, c, t: np.ndarray) -> int:
    """One seat's public block (t: scratch for its heist summary)."""
    i = put_capped(out, i, g.money[p], 1 / 30)
    i = put_capped(out, i, max(int(g.vp[p]), 0), 1 / 80)
    car = int(g.car[p])
    i = put_capped(out, i, car, 1 / 28)
    i = mark_hot(out, i, 29, car)
    i = put_capped(out, i, car < g.police, 1.0)
    i = mark_hot(out, i, 9, int(g.recruit[p]))
    nloot = 0
    for x in range(NLT):
        nloot += int(g.loot[p, x])
    i = put_capped(out, i, nloot, 1 / 10)
    i = put_capped(out, i, g.heists_done[p], 1 / 6)
    heist_summary(g, p, t)
    for k in range(C.NUM_MISSIONS):
        i = put_capped(out, i, t[k], 1 / 8)
    for k in range(C.NUM_MISSIONS):
        i = put_capped(out, i, t[4 + k], 1 / 40)
    for a in range(C.NUM_ABILITIES):
        i = put_capped(out, i, g.abil[p, a], 1.0)
    for x in range(C.NUM_PURPLE):
        i = put_capped(out, i, t[8 + x], 1 / 2)
    for row in range(NM):
        i = member_feat(g, p, row, out, i)
    for task in range(4):
        i = mark_hot(out, i, 4, int(g.task_sym[p, task]))
        i = mark_hot(out, i, 4, task)
        i = put_capped(out, i, g.task_tok[p, task], 1 / 2)
    for h in range(2):
        i = heist_feat(out, i, int(g.active[p, h]), int(g.cov[p, h, 0]), int(g.cov[p, h, 1]),
                       int(g.cov[p, h, 2]), int(g.cov[p, h, 3]), c)
    i = put_capped(out, i, t[14], 1 / 60)
    i = put_capped(out, i, max(tally(g, p, c, t), 0), 1 / 100)
    for k in range(C.NUM_MISSIONS):
        i = put_capped(out, i, g.collar_owner[k] == p, 1.0)
    return i


UPG_FEAT = 17


@jit(inline="always")
def private_part(g, seat: int, out: np.ndarray, i: int, c) -> None:
    d = int(g.dec)
    actor = seat == g.current_player and not g.terminated and not g.truncated
    s = token_kind(g) if actor and d == PLACE_TOKEN else -1
    i = mark_hot(out, i, 5, s)
    tokens = 0
    for x in range(5):
        tokens += int(g.pending_tokens[x])
    i = put_capped(out, i, tokens if actor else 0, 1 / 10)
    i = put_capped(out, i, g.pending_steps if actor else 0, 1 / 4)
    i = put_capped(out, i, actor, 1.0)
    for j in range(C.UPGRADES_DRAWN):
        u = int(g.upg_choice[j]) if actor and d == UPGRADE_CHOICE else -1
        if u < 0:  # the row is zero
            i += UPG_FEAT
            continue
        i = put_capped(out, i, 1, 1.0)
        i = mark_hot(out, i, 9, UPG_MEMBER[u] - 3)
        i = put_capped(out, i, UPG_SYM[u, 0], 1 / 3)
        for r in range(1, NR):
            i = put_capped(out, i, UPG_SYM[u, r], 1 / 3)
        i = put_capped(out, i, UPG_VP[u], 1 / 3)
    for j in range(C.SETUP_DRAW):
        k = int(g.setup_choice[j]) if actor and d == SETUP_RETURN else -1
        i = heist_feat(out, i, k, 0, 0, 0, 0, c)
    for t in range(NLT):
        i = put_capped(out, i, g.loot[seat, t], 1 / 4)
    i = put_capped(out, i, g.reroll_credits if actor else 0, 1 / 3)
    i = put_capped(out, i, g.rerolls_done, 1 / 10)
    put_capped(out, i, loot_vp(g, seat), 1 / 20)


DRIVERS = load_drivers("bad_company", HERE, setup=setup, resume=resume, apply=apply,
                       refresh_mask=refresh_mask, observe=observe, scores=scores,
                       rank_keys=rank_keys)
