"""The Vaults rules as compiled scalar functions over one game's record `g`, ordered like the
rulebook: setup (dealer, bosses, vault piles), the turn (draw/bailout, planning, jobs, hideout)
with its actions (draw, play, move, crack), abilities, vault fronts and disrupt cards, the
response windows in which other players may play disrupts, the end of the turn (hand limit)
and the end of the game; then the masks and the observation.

Effects that need several choices wait on a small per-game stack (`g.stack`): `resume` pops
and applies them one at a time, runs the response windows, flips a declared crack once its
window closes and hands the turn on, until a decision waits or the game is over.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..core import scalar
from ..core.jit import jit, load_drivers
from ..core.scalar import mark_hot, put_all
from . import components as C

HERE = Path(__file__).resolve().parent
K = C.MAX_CREWS  # crew slots per seat: the most crews the cards allow (components.MAX_CREWS)

# -- decisions (components.DECISIONS), as NumPy ints: numba compiles a function anew for each
# literal Python int passed to it
(NONE, BOSS_CHOICE, MAIN, PLAY_DEST, TARGET_PLAYER, TARGET_CREW, TARGET_CARD, TARGET_SKILL,
 TARGET_PILE, TARGET_POLICE_PILE, DEST_CREW, MOVE_CARD, MOVE_DEST, SWAP_CARD, CRACK_TARGET,
 OVERLOAD, USE_KEY, RESPONSE, DISRUPT_EFFECT, FAIL_CARD, DISCARD, COPY_BOSS) = np.arange(22)
assert len(C.DECISIONS) == 22 and C.D["COPY_BOSS"] == COPY_BOSS
NUM_DECISIONS = len(C.DECISIONS)
WIN_NONE, WIN_CRACK, WIN_ACTION = np.arange(3)  # window kinds
RESUME_NONE, RESUME_FLIP = np.arange(2)
WINDOWS_NONE, WINDOWS_CRACK, WINDOWS_EVERY = np.arange(3)  # the response_windows option
WINDOW_NAMES = ("none", "crack", "every_action")
S_BOSS, S_VAULT, S_DISRUPT, S_DECK, S_RESHUFFLE, S_PICK = np.arange(1, 7)  # RNG streams

# effect codes the rules name (components.EFFECTS), as NumPy ints like the decisions
(E_PLAY_CARD, E_ACTION_WINDOW, E_BURN_OVERLOADS, E_B_REFRESH, E_B_COPY, E_D_KEY, E_D_LOCKDOWN,
 E_D_ACTION, E_D_DRAW, E_D_JAIL_TOOL, E_D_SABOTAGE, E_D_REINFORCE, E_D_TIPOFF, E_D_BAIL, E_D_RESET,
 E_D_SCOUT, E_D_PICKPOCKET, E_D_BURY, E_F_LOSE_ACTIONS, E_FP_ALL_TOOLS, E_FP_CREW,
 E_FP_BOSS_OR_MEMBER) = (np.int64(C.E[n]) for n in (
    "PLAY_CARD ACTION_WINDOW BURN_OVERLOADS B_REFRESH B_COPY D_KEY D_LOCKDOWN D_ACTION D_DRAW "
    "D_JAIL_TOOL D_SABOTAGE D_REINFORCE D_TIPOFF D_BAIL D_RESET D_SCOUT D_PICKPOCKET D_BURY "
    "F_LOSE_ACTIONS FP_ALL_TOOLS FP_CREW FP_BOSS_OR_MEMBER").split())

# -- how targeted effects choose their target (components.TARGETING) -------------------------
OP_NONE, OP_JAIL, OP_RETURN, OP_STEAL, OP_STEAL_HERE, OP_MOD, OP_FAIL, OP_PICK, OP_RESET = \
    np.arange(9)
WHO_ANY, WHO_OPP, WHO_BACKFIRE, WHO_SELF = np.arange(4)
_OPS = {"jail": OP_JAIL, "return": OP_RETURN, "steal": OP_STEAL, "steal_here": OP_STEAL_HERE,
        "mod": OP_MOD, "fail": OP_FAIL}
_WHO = {"any": WHO_ANY, "opp": WHO_OPP, "backfire": WHO_BACKFIRE, "self": WHO_SELF}
NE = C.N_EFFECTS
OP = np.zeros(NE, np.int64)
WHO = np.zeros(NE, np.int64)
TARGET_CLASSES = np.zeros((NE, 3), np.int64)  # card classes (boss, member, tool) it may take
for _n, (_op, _cls, _who) in C.TARGETING.items():
    OP[C.E[_n]], WHO[C.E[_n]] = _OPS[_op], _WHO[_who]
    for _c in _cls:
        TARGET_CLASSES[C.E[_n], "bmt".index(_c)] = 1
OP[C.E["B_PICKPOCKET"]] = OP[C.E["D_PICKPOCKET"]] = OP_PICK
WHO[C.E["B_PICKPOCKET"]] = WHO[C.E["D_PICKPOCKET"]] = WHO_OPP
OP[C.E["D_RESET"]] = OP_RESET
IS_PEEK = np.zeros(NE, np.int64)
IS_PEEK[list(C.PEEK_EFFECTS)] = 1
IS_BAIL = np.zeros(NE, np.int64)
IS_BAIL[list(C.BAIL_EFFECTS)] = 1
IS_TARGETED = ((OP != OP_NONE) | (IS_PEEK > 0) | (IS_BAIL > 0)).astype(np.int64)
IS_TARGETED[[C.E["D_BURY"], C.E["B_COPY"]]] = 1
MOD_SIGN = np.zeros(NE, np.int64)
MOD_SIGN[C.E["D_SABOTAGE"]], MOD_SIGN[C.E["D_REINFORCE"]] = -2, 2
DRAW_COUNT = C.DRAW_COUNT.astype(np.int64)
GAIN_ACTION = C.GAIN_ACTION.astype(np.int64)
GAIN_DISRUPT = C.GAIN_DISRUPT.astype(np.int64)

# disrupt effects usable by context [RB "Disrupts"; spec §2.9]: 0 MAIN (active player), 1 crack
# window, the active player, 2 crack window, the others, 3 action window (the others only)
CTX_MAIN, CTX_CRACK_ACTIVE, CTX_CRACK_OTHER, CTX_ACTION = np.arange(4)
ALLOWED = np.zeros((4, NE), np.int64)
for _n in ("D_DRAW", "D_JAIL_TOOL", "D_TIPOFF", "D_SABOTAGE", "D_REINFORCE", "D_BAIL",
           "D_SCOUT", "D_PICKPOCKET", "D_BURY"):
    ALLOWED[:, C.E[_n]] = 1
ALLOWED[CTX_MAIN, [C.E["D_ACTION"], C.E["D_RESET"]]] = 1
ALLOWED[CTX_CRACK_ACTIVE, [C.E["D_KEY"], C.E["D_ACTION"]]] = 1
ALLOWED[CTX_CRACK_OTHER, C.E["D_LOCKDOWN"]] = 1

# -- card and vault tables ----------------------------------------------------------------------
SKILLS = C.SKILLS.astype(np.int64)  # [44,3]
CLASS_OF = C.CLASS_OF.astype(np.int64)  # 0 boss, 1 member, 2 tool
CLASS_CAP = C.CLASS_CAP.astype(np.int64)
PLAY_ABILITY = C.PLAY_ABILITY.astype(np.int64)
SUCCESS_ABILITY = C.SUCCESS_ABILITY.astype(np.int64)
DISRUPT_EFFECTS = C.DISRUPT_EFFECTS.astype(np.int64)  # [10,2]
DECK_TYPES = C.DECK_TYPES.astype(np.int64)
DISRUPT_TYPES = C.DISRUPT_TYPES.astype(np.int64)
VAULT_COMBO = C.VAULT_COMBO.astype(np.int64)
VAULT_SUCCESS = C.VAULT_SUCCESS.astype(np.int64)
VAULT_VALUE = C.VAULT_VALUE.astype(np.int64)
VAULT_EFFECT = C.VAULT_EFFECT.astype(np.int64)
VAULT_GROUP = C.VAULT_GROUP.astype(np.int64)
FAIL_STACK = np.zeros((C.N_VAULTS, 3), np.int64)  # a Fail front's parts, first part first
for _v in range(C.N_VAULTS):
    if not C.VAULT_SUCCESS[_v]:
        for _j, _part in enumerate(C.FAIL_PARTS.get(C.EFFECTS[C.VAULT_EFFECT[_v]], ())):
            FAIL_STACK[_v, _j] = C.E[_part]
NO_TARGET = 999  # the combination of an empty pile: no crew meets it
M0, T0, D0 = C.MEMBER0, C.TOOL0, C.DISRUPT0
HT = C.N_HAND_TYPES
CREW_BLOCK = 1 + C.N_CREW_TYPES + 3 + 2 + 3  # a crew slot's observation columns
EMPTY_MODS = CREW_BLOCK - 3  # where its modifiers start

# -- the state of one game ------------------------------------------------------------------------
STATE_FIELDS = (
    ("hand", np.int8, ("N", HT), "cards in hand by type"),
    ("known", np.int8, ("N", HT), "of those, cards everyone knows are there"),
    ("crew", np.int8, ("N", K, C.N_CREW_TYPES), "cards in each crew slot by type"),
    ("spent", np.bool_, ("N", K), "the crew flipped a vault this turn"),
    ("blocked", np.bool_, ("N", K), "the crew's crack was cancelled this turn"),
    ("mods", np.int8, ("N", K, 3), "Sabotage/Reinforce modifiers until the end of the turn"),
    ("crews_used", np.uint8, ("N",), "one past the highest slot holding a crew: loops over a "
     "seat's crews stop there (set by `new_crew` and `dissolve`)"),
    ("deck", np.int8, (C.DECK_SIZE,), "main deck, top at deck_len - 1"),
    ("deck_len", np.int16, (), "cards in the main deck"),
    ("ddeck", np.int8, (C.DISRUPT_DECK_SIZE,), "disrupt deck (disrupt index 0-9)"),
    ("ddeck_len", np.int16, (), "cards in the disrupt deck"),
    ("dused", np.int8, (C.N_DISRUPT,), "used disrupt cards by type"),
    ("pchar", np.int8, (52,), "Police station character pile, top at pc_len - 1"),
    ("pc_len", np.int16, (), "cards in the character pile"),
    ("police_count", np.int8, (C.N_CREW_TYPES,), "cards in the Police station by type"),
    ("ptool", np.int8, (24,), "Police station tool pile, top at pt_len - 1"),
    ("pt_len", np.int16, (), "cards in the tool pile"),
    ("vpub", np.int8, (3, C.PILE_SIZE), "public vault piles, top at vpub_len - 1"),
    ("vpub_len", np.int16, (3,), "vaults in each public pile"),
    ("vpriv", np.int8, ("N", C.N_VAULTS), "private vault piles"),
    ("vpriv_len", np.int16, ("N",), "vaults in each private pile"),
    ("loot", np.int16, ("N",), "loot of the Success vaults kept"),
    ("revealed", np.bool_, (C.N_VAULTS,), "vault fronts that are public (cracked)"),
    ("known_face", np.bool_, ("N", C.N_VAULTS), "fronts a player looked at secretly"),
    ("boss_offer", np.int8, ("N", 2), "the two bosses offered at setup (low, high)"),
    ("boss_pick", np.int8, ("N",), "chosen boss, -1 before the choice"),
    ("first_player", np.int8, (), "the first player (the dealer sits before)"),
    ("active", np.int8, (), "whose turn it is"),
    ("phase", np.int8, (), "1 draw/bailout, 2 planning, 3 jobs, 4 hideout"),
    ("actions", np.int8, (), "actions left this turn"),
    ("can_draw", np.bool_, (), "the turn started with fewer than five cards"),
    ("draw_source", np.int8, (), "0 none yet, 1 main deck, 2 Police station"),
    ("draws", np.int8, (), "cards drawn in this turn's Draw/bailout phase (at most three)"),
    ("turns_taken", np.int16, ("N",), "turns each player has completed"),
    ("turns_total", np.int16, (), "turns played"),
    ("dec", np.int8, (), "pending decision (components.DECISIONS)"),
    ("owner", np.int8, (), "who makes the pending decision / resolves the effect"),
    ("card_in_play", np.int8, (), "card being played or whose effect resolves, -1"),
    ("effect", np.int8, (), "effect being resolved (components.EFFECTS)"),
    ("stack", np.int8, (8,), "effects still to resolve, top at slen - 1"),
    ("slen", np.int8, (), "effects on the stack"),
    ("tgt_player", np.int8, (), "chosen player (absolute seat)"),
    ("tgt_crew", np.int8, (), "chosen crew slot"),
    ("src_crew", np.int8, (), "crew a card moves from"),
    ("move_card", np.int8, (), "card type being moved"),
    ("crack_crew", np.int8, (), "crew slot of the active player's declared crack"),
    ("crack_target", np.int8, (), "0-2 public pile, 3.. opponent at offset 1.., -1 none"),
    ("over", np.int8, (12,), "tools overloaded for the declared crack"),
    ("key_used", np.bool_, (), "a Master Key was played on the declared crack"),
    ("resume", np.int8, (), "what the closing window resumes (RESUME_*)"),
    ("win_kind", np.int8, (), "kind of the open response window, 0 = none"),
    ("win_active", np.int8, (), "the active player, who is visited last"),
    ("win_seat", np.int8, (), "seat visited most recently (the next one is seat + 1)"),
    ("win_passes", np.int8, (), "passes or skips in a row"),
    ("game_over", np.bool_, (), "ended by the rules; the tally follows"),
    ("rng_counter", np.uint64, (), "per-game random-event counter"),
)
CONFIG_FIELDS = (
    ("first_player", np.int64), ("goal", np.int64), ("max_turns", np.int64),
    ("windows", np.int64),
)

# -- the action ranges in id order (`kernel`'s layout names and documents them) --------------
ACTION_SIZES = (("card", HT), ("move", K), ("crack", K), ("draw_deck", 1),
                ("draw_police_char", 1), ("draw_police_tool", 1), ("end_turn", 1), ("crew", K),
                ("new_crew", 1), ("boss_to_police", 1), ("player", 4), ("pile", 6),
                ("skill", 3), ("option", 2), ("pass", 1))
ACTION_START = dict(zip([n for n, _ in ACTION_SIZES],
                        np.cumsum([0] + [n for _, n in ACTION_SIZES[:-1]]).tolist()))
(A_MOVE, A_CRACK, A_DRAW, A_END, A_CREW, A_NEW, A_POLICE, A_PLAYER, A_PILE, A_SKILL, A_OPT,
 A_PASS) = (ACTION_START[n] for n in ("move", "crack", "draw_deck", "end_turn", "crew",
                                      "new_crew", "boss_to_police", "player", "pile", "skill",
                                      "option", "pass"))


# == small pieces =================================================================================
@jit
def rand_u(g, stream: int, i: int) -> float:
    """The i-th uniform of the game's current random event (`next_event` moves on)."""
    return scalar.uniform(g.key, stream, g.rng_counter * np.uint64(128) + np.uint64(i))


@jit
def next_event(g) -> None:
    g.rng_counter += np.uint64(1)


@jit
def hand_total(g, p: int) -> int:
    hand = g.hand[p]
    n = 0
    for t in range(HT):
        n += int(hand[t])
    return n


@jit
def holds_disrupt(g, p: int) -> bool:
    for t in range(D0, HT):
        if g.hand[p, t] > 0:
            return True
    return False


@jit
def holds_key(g, p: int) -> bool:
    """A disrupt with the Master Key icon (Skeleton Key, Forged Key) in p's hand."""
    return g.hand[p, C.KEY_CARDS[0]] > 0 or g.hand[p, C.KEY_CARDS[1]] > 0


@jit
def leave_hand(g, p: int, t: int) -> None:
    """A card leaves a hand: one fewer, and at most one fewer known (public view)."""
    g.hand[p, t] -= 1
    if g.known[p, t] > 0:
        g.known[p, t] -= 1


@jit
def to_hand_shown(g, p: int, t: int) -> None:
    g.hand[p, t] += 1
    g.known[p, t] += 1


@jit
def push(g, e: int) -> None:
    """Queue an effect (0: none) on top of the stack."""
    if e > 0:
        g.stack[g.slen] = e
        g.slen += 1


@jit
def crew_counts(g, p: int, k: int) -> tuple[int, int, int]:
    """(bosses, members, tools) in crew k of seat p."""
    cr = g.crew[p, k]
    b = m = t = 0
    for x in range(M0):
        b += int(cr[x])
    for x in range(M0, T0):
        m += int(cr[x])
    for x in range(T0, C.N_CREW_TYPES):
        t += int(cr[x])
    return b, m, t


@jit
def crew_exists(g, p: int, k: int) -> bool:
    """A crew exists while it holds a boss or a member."""
    cr = g.crew[p, k]
    for x in range(T0):
        if cr[x] > 0:
            return True
    return False


@jit
def tool_room(g, p: int, k: int) -> bool:
    """Crew k of p exists and can take another tool."""
    b, m, t = crew_counts(g, p, k)
    return b + m > 0 and t < C.MAX_TOOLS


@jit
def max_skills(g, p: int, k: int) -> tuple[int, int, int]:
    """Crew k's skills with every tool counted twice (the most overloads can give) and its
    modifiers, never below 0: what a crack target is checked against before the overloads."""
    s0, s1, s2 = int(g.mods[p, k, 0]), int(g.mods[p, k, 1]), int(g.mods[p, k, 2])
    cr = g.crew[p, k]
    for x in range(C.N_CREW_TYPES):
        n = int(cr[x])
        if n:
            n *= 2 if x >= T0 else 1
            s0 += n * SKILLS[x, 0]
            s1 += n * SKILLS[x, 1]
            s2 += n * SKILLS[x, 2]
    return max(s0, 0), max(s1, 0), max(s2, 0)


@jit
def seat_counts(g, p: int, c) -> np.ndarray:
    """(bosses, members, tools) of each of p's crew slots [K, 3]."""
    out = np.zeros((K, 3), np.int64)
    cr = g.crew[p]
    for k in range(g.crews_used[p]):
        for x in range(C.N_CREW_TYPES):
            out[k, CLASS_OF[x]] += cr[k, x]
    return out


@jit
def seat_totals(g, p: int, cnt: np.ndarray) -> np.ndarray:
    """Over seat p's crew counts `cnt` [K, 3], once per mask: [crews, crews with room for a
    boss, for a member, for a tool, slots without a crew]."""
    tot = np.zeros(5, np.int64)
    for k in range(g.crews_used[p]):
        if cnt[k, 0] + cnt[k, 1] > 0:
            tot[0] += 1
            for cl in range(3):
                tot[1 + cl] += cnt[k, cl] < CLASS_CAP[cl]
    tot[4] = K - tot[0]
    return tot


@jit
def new_crew(g, p: int) -> int:
    """The slot of a crew p forms: the lowest one without a crew (`crews_used` grows past
    it). The masks offer a new crew only while a slot is free."""
    n = int(g.crews_used[p])
    k = 0
    while k < n and crew_exists(g, p, k):
        k += 1
    if k == n:
        g.crews_used[p] = n + 1
    return k


@jit
def clear_flags(g, p: int, k: int) -> None:
    """Spent/blocked flags and modifiers last until the end of the turn [RB "Turn"]."""
    g.spent[p, k] = 0
    g.blocked[p, k] = 0
    for s in range(3):
        g.mods[p, k, s] = 0


@jit
def dissolve(g, p: int, k: int) -> None:
    """Slot k of p holds no crew (any more): no flags or modifiers, so that a crew formed there
    starts fresh; the seat's `crews_used` shrinks past the empty slots at its top."""
    clear_flags(g, p, k)
    n = int(g.crews_used[p])
    if k + 1 == n:
        while n > 0 and not crew_exists(g, p, n - 1):
            n -= 1
        g.crews_used[p] = n


@jit
def normalize(g, p: int, c) -> None:
    """After seat p's crews changed: tools left without a boss or member return to hand
    (known), except the declared crack's overloaded tools, which go to the Police station
    [RB "Tools"; spec §2.7 step 5]; slots without a crew lose their flags."""
    for k in range(g.crews_used[p]):
        if crew_exists(g, p, k):
            continue
        cracking = p == g.active and k == g.crack_crew
        for x in range(T0, C.N_CREW_TYPES):
            n = int(g.crew[p, k, x])
            if n == 0:
                continue
            if cracking:
                burn = min(n, int(g.over[x - T0]))
                g.over[x - T0] -= burn
                for _ in range(burn):
                    to_police(g, x)
                n -= burn
            g.hand[p, x] += n
            g.known[p, x] += n
            g.crew[p, k, x] = 0
        dissolve(g, p, k)


# == the Police station [RB "Police Station"] =====================================================
@jit
def to_police(g, t: int) -> None:
    """A card goes on top of its Police pile (characters or tools) [FAQ: on the top]."""
    g.police_count[t] += 1
    if t < T0:
        g.pchar[g.pc_len] = t
        g.pc_len += 1
    else:
        g.ptool[g.pt_len] = t
        g.pt_len += 1


@jit
def bail(g, p: int, pile: int) -> None:
    """Take the top of a Police pile (0 characters, 1 tools) into hand, face up."""
    if pile == 0:
        g.pc_len -= 1
        t = int(g.pchar[g.pc_len])
    else:
        g.pt_len -= 1
        t = int(g.ptool[g.pt_len])
    to_hand_shown(g, p, t)
    g.police_count[t] -= 1


# == decks ========================================================================================
@jit
def draw_main(g, p: int) -> None:
    """Draw the main deck's top into p's hand; the last card ends the game [RB "The Goals"]."""
    if g.deck_len <= 0:
        return
    g.deck_len -= 1
    g.hand[p, g.deck[g.deck_len]] += 1
    if g.deck_len == 0:
        g.game_over = 1


@jit
def can_gain_disrupt(g) -> bool:
    if g.ddeck_len > 0:
        return True
    for d in range(C.N_DISRUPT):
        if g.dused[d] > 0:
            return True
    return False


@jit
def gain_disrupt(g, p: int) -> None:
    """Draw a disrupt; an empty deck is first rebuilt from the used pile, shuffled [RB]."""
    if g.ddeck_len == 0:
        n = C.DISRUPT_DECK_SIZE
        u = np.empty(n, np.float64)
        valid = 0
        for i in range(n):  # two slots per type: the second copy uses the odd one
            if i % 2 < g.dused[DISRUPT_TYPES[i]]:
                u[i] = rand_u(g, S_RESHUFFLE, i)
                valid += 1
            else:
                u[i] = 2.0
        next_event(g)
        order = scalar.stable_order(u)
        for i in range(n):
            g.ddeck[i] = DISRUPT_TYPES[order[i]]
        g.ddeck_len = valid
        for d in range(C.N_DISRUPT):
            g.dused[d] = 0
    if g.ddeck_len > 0:
        g.ddeck_len -= 1
        g.hand[p, D0 + g.ddeck[g.ddeck_len]] += 1


# == Setup [RB "Starting the game"] ===============================================================
@jit
def setup(g, c) -> None:
    """First player, two bosses offered to each, three public vault piles of nine, the disrupt
    deck; then the boss choices (the main deck is built once they are made)."""
    N = c.num_players
    g.card_in_play = -1
    g.crack_target = -1
    for p in range(N):
        g.boss_pick[p] = -1
    if c.first_player >= 0:
        fp = int(c.first_player)
    else:
        fp = int(rand_u(g, S_BOSS, 0) * N)
        next_event(g)
    g.first_player = fp
    order = shuffled(g, S_BOSS, C.N_BOSS)
    for i in range(N):
        p = (fp + i) % N
        a, b = order[2 * i], order[2 * i + 1]
        g.boss_offer[p, 0] = min(a, b)
        g.boss_offer[p, 1] = max(a, b)
    order = shuffled(g, S_VAULT, C.N_VAULTS)
    for j in range(3):
        g.vpub_len[j] = C.PILE_SIZE
        for t in range(C.PILE_SIZE):
            g.vpub[j, t] = order[C.PILE_SIZE * j + t]
    order = shuffled(g, S_DISRUPT, C.DISRUPT_DECK_SIZE)
    for i in range(C.DISRUPT_DECK_SIZE):
        g.ddeck[i] = DISRUPT_TYPES[order[i]]
    g.ddeck_len = C.DISRUPT_DECK_SIZE
    g.dec = BOSS_CHOICE
    g.owner = fp
    g.active = fp


@jit
def shuffled(g, stream: int, n: int) -> np.ndarray:
    """A random order of range(n) from one random event."""
    u = np.empty(n, np.float64)
    for i in range(n):
        u[i] = rand_u(g, stream, i)
    next_event(g)
    return scalar.stable_order(u)


@jit
def boss_choice(g, a: int, c) -> None:
    """A secret boss choice; after the last one, crews, main deck and hands are made."""
    N = c.num_players
    p = int(g.owner)
    g.boss_pick[p] = g.boss_offer[p, a - A_OPT]
    nxt = (p + 1) % N
    fp = int(g.first_player)
    if nxt != fp:
        g.owner = nxt
        return
    # every chosen boss is its player's crew 0; the others are shuffled into the main deck
    u = np.empty(C.DECK_SIZE, np.float64)
    for i in range(C.DECK_SIZE):
        u[i] = rand_u(g, S_DECK, i)
    for q in range(N):
        b = int(g.boss_pick[q])
        g.crew[q, 0, b] = 1
        g.crews_used[q] = 1
        u[b] = 2.0  # bosses are single copies at deck positions 0-11
    next_event(g)
    order = scalar.stable_order(u)
    for i in range(C.DECK_SIZE):
        g.deck[i] = DECK_TYPES[order[i]]
    size = C.DECK_SIZE - N
    for j in range(C.START_HAND * N):  # four cards each, from the top in seat order
        g.hand[(fp + j) % N, g.deck[size - 1 - j]] += 1
    g.deck_len = size - C.START_HAND * N
    g.dec = NONE
    start_turn(g, fp)


# == the turn [RB "Action Management & Hand Size", "Game Turns"] ==================================
@jit
def start_turn(g, p: int) -> None:
    g.active = p
    g.owner = p
    g.actions = C.ACTIONS_PER_TURN
    g.phase = 1
    g.draw_source = 0
    g.draws = 0
    g.can_draw = hand_total(g, p) < C.HAND_LIMIT


@jit
def end_turn(g, c) -> None:
    """The hand limit first (DISCARD decisions), then the next player's turn."""
    a = int(g.active)
    if hand_total(g, a) > C.HAND_LIMIT:
        g.dec = DISCARD
        g.owner = a
    else:
        next_turn(g, c)


@jit
def next_turn(g, c) -> None:
    """Modifiers and spent/blocked flags last until the end of the turn [RB "Turn"]."""
    a = int(g.active)
    for q in range(c.num_players):
        for k in range(g.crews_used[q]):
            clear_flags(g, q, k)
    g.turns_taken[a] += 1
    g.turns_total += 1
    g.dec = NONE
    if g.turns_total >= c.max_turns:
        g.game_over = 1
    start_turn(g, (a + 1) % c.num_players)


# == the step: one decision, then everything automatic up to the next one =========================
@jit
def apply(g, a: int, c) -> None:
    """Apply the pending decision's action (the drivers then `resume` play)."""
    d = g.dec
    if d == MAIN:
        main(g, a, c)
    elif d == BOSS_CHOICE:
        boss_choice(g, a, c)
    elif d == PLAY_DEST:
        play_dest(g, a, c)
    elif d == TARGET_PLAYER:
        target_player(g, a, c)
    elif d == TARGET_CREW:
        target_crew(g, a, c)
    elif d == TARGET_CARD or d == FAIL_CARD:
        target_card(g, a, c)
    elif d == TARGET_SKILL:
        g.mods[g.tgt_player, g.tgt_crew, a - A_SKILL] += MOD_SIGN[g.effect]
        g.dec = NONE
    elif d == TARGET_PILE:
        target_pile(g, a - A_PILE)
    elif d == TARGET_POLICE_PILE:
        bail(g, int(g.owner), a - A_OPT)
        g.dec = NONE
    elif d == DEST_CREW:
        dest_crew(g, a, c)
    elif d == MOVE_CARD:
        g.move_card = a
        g.dec = MOVE_DEST
    elif d == MOVE_DEST:
        move_dest(g, a, c)
    elif d == SWAP_CARD:
        swap_card(g, a, c)
    elif d == CRACK_TARGET:
        crack_target(g, a, c)
    elif d == OVERLOAD:
        if a < D0:
            g.over[a - T0] += 1
        else:
            after_overload(g, c)
    elif d == USE_KEY:
        use_key(g, a, c)
    elif d == RESPONSE:
        response(g, a, c)
    elif d == DISRUPT_EFFECT:
        g.dec = NONE
        push(g, DISRUPT_EFFECTS[g.card_in_play - D0, a - A_OPT])
    elif d == DISCARD:
        discard(g, a, c)
    elif d == COPY_BOSS:
        g.dec = NONE
        push(g, SUCCESS_ABILITY[a])


@jit
def resume(g, c) -> None:
    """Resolve queued effects, windows and turn changes until a decision is pending (its mask
    set) or the game is over."""
    for _ in range(c.max_steps):  # a guard against effects that never settle
        if g.game_over:
            finish(g, c)
            return
        if g.dec == NONE:
            if g.slen > 0:
                start_effect(g, c)
            else:
                go_on(g, c)
            continue
        # a decision: its mask (with auto_forced the drivers play a single legal action,
        # except where `asked_always`)
        refresh_mask(g, c)
        return
    raise RuntimeError("vaults: automatic play did not settle")


@jit(inline="always")
def asked_always(g, c) -> bool:
    """A RESPONSE is asked even when only passing is legal: a disrupt holder is always
    asked, so the turn order tells nothing about which disrupts he holds [spec §2.9, §3.3]."""
    return g.dec == RESPONSE


@jit
def go_on(g, c) -> None:
    """Nothing queued: the window goes on, the crack flips, or the active player acts."""
    if g.win_kind != WIN_NONE:
        seat = next_responder(g, c)
        if seat >= 0:
            g.dec = RESPONSE
            g.owner = seat
            return
    if g.resume == RESUME_FLIP:
        g.resume = RESUME_NONE
        flip(g, c)
        return
    a = int(g.active)
    g.owner = a
    g.card_in_play = -1
    g.effect = 0
    g.dec = MAIN
    if g.actions == 0 and not holds_disrupt(g, a):  # only a disrupt could still be played
        end_turn(g, c)


@jit
def finish(g, c) -> None:
    """The game is over: the final tally decides the rewards."""
    g.game_over = 0
    scalar.game_over(g)


# == MAIN: the active player's actions ============================================================
@jit
def main(g, a: int, c) -> None:
    g.dec = NONE
    p = int(g.active)
    if a < D0:
        play_card(g, a, c)
    elif a < HT:
        play_disrupt(g, p, a)
    elif a < A_CRACK:
        g.src_crew = a - A_MOVE
        g.dec = MOVE_CARD
    elif a < A_DRAW:
        g.crack_crew = a - A_CRACK
        g.phase = 3  # declared: no going back [RB FAQ]
        g.dec = CRACK_TARGET
    elif a < A_END:
        draw_action(g, p, a - A_DRAW, c)
    else:
        end_turn(g, c)


@jit
def play_card(g, t: int, c) -> None:
    """Play a boss, member or tool from hand: its ability first, then the destination."""
    leave_hand(g, int(g.active), t)
    g.actions -= 1
    g.phase = 2 if g.phase <= 2 else 4
    g.draw_source = 0
    g.card_in_play = t
    if c.windows == WINDOWS_EVERY:
        push(g, E_ACTION_WINDOW)
    push(g, E_PLAY_CARD)
    push(g, PLAY_ABILITY[t])  # members only: bosses act on a Success


@jit
def play_disrupt(g, p: int, a: int) -> None:
    """Play a disrupt: free; its effect is chosen next."""
    leave_hand(g, p, a)
    g.dused[a - D0] += 1
    g.card_in_play = a
    g.owner = p
    g.dec = DISRUPT_EFFECT


@jit
def draw_action(g, p: int, src: int, c) -> None:
    """1. Draw/Bailout: one card per action from one source, three at most [RB, FAQ]."""
    g.actions -= 1
    g.draws += 1
    if src == 0:
        draw_main(g, p)
        g.draw_source = 1
    else:
        bail(g, p, src - 1)
        g.draw_source = 2
    if c.windows == WINDOWS_EVERY:
        push(g, E_ACTION_WINDOW)


# -- playing a card: its destination [RB "Forming Crews"] -------------------------------------
@jit
def play_dest(g, a: int, c) -> None:
    p = int(g.active)
    t = int(g.card_in_play)
    g.dec = NONE
    g.card_in_play = -1
    if a == A_POLICE:  # a boss to the Police station for a disrupt
        to_police(g, t)
        gain_disrupt(g, p)
        return
    k = new_crew(g, p) if a == A_NEW else a - A_CREW
    g.crew[p, k, t] += 1


# -- moving cards between crews [RB "Forming Crews", FAQ "refreshed"] -------------------------
@jit
def move_dest(g, a: int, c) -> None:
    p, src, x = int(g.active), int(g.src_crew), int(g.move_card)
    new = a == A_NEW
    k = new_crew(g, p) if new else a - A_CREW
    cls = CLASS_OF[x]
    g.tgt_crew = k
    if not new and crew_counts(g, p, k)[cls] >= CLASS_CAP[cls]:
        g.dec = SWAP_CARD
        return
    g.crew[p, src, x] -= 1
    g.crew[p, k, x] += 1
    moved(g, p, src, c)


@jit
def swap_card(g, a: int, c) -> None:
    p, src, k, x = int(g.active), int(g.src_crew), int(g.tgt_crew), int(g.move_card)
    g.crew[p, src, x] -= 1
    g.crew[p, k, x] += 1
    g.crew[p, k, a] -= 1
    g.crew[p, src, a] += 1
    moved(g, p, src, c)


@jit
def moved(g, p: int, src: int, c) -> None:
    """A card moved out of crew src (or two swapped): one action; a source left without a
    boss or member dissolves (a legal move never strands a tool)."""
    g.actions -= 1
    g.phase = max(int(g.phase), 2)
    g.dec = NONE
    if not crew_exists(g, p, src):
        dissolve(g, p, src)
    if c.windows == WINDOWS_EVERY:
        push(g, E_ACTION_WINDOW)


# == cracking a vault [RB "Crack phase", "Vaults", "Tools", "The Master Key"] =====================
@jit
def target_top(g, t: int, c) -> int:
    """Top vault of crack target t seen from the active player (0-2 public piles, 3-5 the
    opponents by offset), -1 if its pile is empty or there is no such opponent."""
    if t < 3:
        n = int(g.vpub_len[t])
        return int(g.vpub[t, n - 1]) if n > 0 else -1
    r = t - 2
    if r >= c.num_players:
        return -1
    q = (int(g.active) + r) % c.num_players
    n = int(g.vpriv_len[q])
    return int(g.vpriv[q, n - 1]) if n > 0 else -1


@jit
def combo(v: int, s: int) -> int:
    return VAULT_COMBO[v, s] if v >= 0 else NO_TARGET


@jit
def crack_skill(g, s: int) -> int:
    """Skill s of the declared crack's crew now, with its overloads and modifiers."""
    p, k = int(g.active), int(g.crack_crew)
    n = int(g.mods[p, k, s])
    for x in range(C.N_CREW_TYPES):
        n += int(g.crew[p, k, x]) * SKILLS[x, s]
    for x in range(T0, C.N_CREW_TYPES):
        n += min(int(g.over[x - T0]), int(g.crew[p, k, x])) * SKILLS[x, s]
    return max(n, 0)


@jit
def combo_met(g, c) -> bool:
    v = target_top(g, int(g.crack_target), c)
    for s in range(3):
        if crack_skill(g, s) < combo(v, s):
            return False
    return True


@jit
def crack_target(g, a: int, c) -> None:
    g.crack_target = a - A_PILE
    for x in range(12):
        g.over[x] = 0
    g.key_used = 0
    if crew_counts(g, int(g.active), int(g.crack_crew))[2] > 0:
        g.dec = OVERLOAD  # announced before the attempt [RB "Tools"]
    else:
        after_overload(g, c)


@jit
def after_overload(g, c) -> None:
    if holds_key(g, int(g.active)):
        g.dec = USE_KEY
    else:
        declared(g, c)


@jit
def use_key(g, a: int, c) -> None:
    if a < HT:
        leave_hand(g, int(g.active), a)
        g.dused[a - D0] += 1
        g.key_used = 1
    declared(g, c)


@jit
def declared(g, c) -> None:
    """The crack is declared: the crack window opens before the flip."""
    g.dec = NONE
    g.resume = RESUME_FLIP
    if c.windows != WINDOWS_NONE:
        open_window(g, WIN_CRACK)


@jit
def burn_overloads(g) -> None:
    """Overloaded tools go to the Police station, even on a failed crack [RB "Tools"]."""
    p, k = int(g.active), int(g.crack_crew)
    for x in range(T0, C.N_CREW_TYPES):
        burn = min(int(g.over[x - T0]), int(g.crew[p, k, x]))
        g.crew[p, k, x] -= burn
        for _ in range(burn):
            to_police(g, x)
        g.over[x - T0] = 0
    g.key_used = 0


@jit
def abort(g) -> None:
    """Cancelled (Lockdown) or no longer possible: no flip, no action spent [RB FAQ]."""
    p, k = int(g.active), int(g.crack_crew)
    g.blocked[p, k] = crew_exists(g, p, k)  # a crew jailed meanwhile: none
    burn_overloads(g)
    g.crack_target = -1


@jit
def flip(g, c) -> None:
    """The vault's front is revealed: the vault is kept either way [FAQ], its loot counts, and
    the boss ability (Success) or the front's effects follow."""
    N = c.num_players
    a, k = int(g.active), int(g.crack_crew)
    tgt = int(g.crack_target)
    v = target_top(g, tgt, c)
    if not (crew_exists(g, a, k) and (g.key_used or combo_met(g, c)) and v >= 0):
        abort(g)
        return
    g.actions -= 1  # spent on the actual flip [RB FAQ]
    if tgt < 3:
        g.vpub_len[tgt] -= 1
    else:
        q = (a + tgt - 2) % N
        g.vpriv_len[q] -= 1
        g.loot[q] -= VAULT_VALUE[v] * VAULT_SUCCESS[v]
    g.revealed[v] = 1
    g.vpriv[a, g.vpriv_len[a]] = v
    g.vpriv_len[a] += 1
    g.spent[a, k] = 1
    g.crack_target = -1
    succ = VAULT_SUCCESS[v] > 0
    if succ:
        g.loot[a] += VAULT_VALUE[v]
        if g.loot[a] >= c.goal:
            g.game_over = 1
    g.owner = a
    # the last pushed resolves first: the vault's bonus, the boss ability, then the burn
    if c.windows == WINDOWS_EVERY:
        push(g, E_ACTION_WINDOW)
    push(g, E_BURN_OVERLOADS)
    if succ:
        for x in range(C.N_BOSS):
            if g.crew[a, k, x] > 0:
                push(g, SUCCESS_ABILITY[x])
                break
        push(g, VAULT_EFFECT[v])
    else:
        for j in range(2, -1, -1):
            push(g, FAIL_STACK[v, j])


# == effects: abilities, vault fronts, disrupts ===================================================
@jit
def start_effect(g, c) -> None:
    """Pop one effect and apply it, or open its first target decision."""
    g.slen -= 1
    e = int(g.stack[g.slen])
    g.effect = e
    owner = int(g.owner)
    for _ in range(DRAW_COUNT[e]):
        draw_main(g, owner)
    g.actions += GAIN_ACTION[e]
    if GAIN_DISRUPT[e]:
        gain_disrupt(g, owner)
    if e == E_B_REFRESH:
        g.spent[owner, g.crack_crew] = 0
    elif e == E_D_KEY:
        g.key_used = 1
    elif e == E_D_LOCKDOWN:
        close_window(g)
        g.resume = RESUME_NONE
        abort(g)
    elif e == E_F_LOSE_ACTIONS:
        g.actions = 0
    elif e == E_FP_ALL_TOOLS or e == E_FP_CREW:
        jail_crack_crew(g, e == E_FP_CREW, c)
    elif e == E_BURN_OVERLOADS:
        burn_overloads(g)
    elif e == E_ACTION_WINDOW:
        open_window(g, WIN_ACTION)
    elif e == E_PLAY_CARD:
        g.dec = PLAY_DEST
    elif e == E_FP_BOSS_OR_MEMBER:  # the boss goes if there is one
        a, k = int(g.active), int(g.crack_crew)
        for x in range(C.N_BOSS):
            if g.crew[a, k, x] > 0:
                g.crew[a, k, x] = 0
                to_police(g, x)
                normalize(g, a, c)
                g.effect = 0
                break
    if IS_TARGETED[g.effect]:
        open_target(g, c)


@jit
def jail_crack_crew(g, whole: bool, c) -> None:
    """All tools (or the whole crew) of the cracking crew go to the Police station."""
    a, k = int(g.active), int(g.crack_crew)
    for x in range(0 if whole else T0, C.N_CREW_TYPES):
        n = int(g.crew[a, k, x])
        g.crew[a, k, x] = 0
        for _ in range(n):
            to_police(g, x)
    normalize(g, a, c)


@jit
def open_target(g, c) -> None:
    """Set the first decision of a targeted effect, or let it fizzle (no target)."""
    e = int(g.effect)
    op = OP[e]
    owner = int(g.owner)
    if OP_JAIL <= op <= OP_FAIL:
        if any_eligible(g, c):
            if op == OP_FAIL:
                g.tgt_player = g.active
                g.tgt_crew = g.crack_crew
                g.dec = FAIL_CARD
            else:
                g.dec = TARGET_PLAYER
    elif op == OP_PICK:
        for q in range(c.num_players):
            if q != owner and hand_total(g, q) > 0:
                g.dec = TARGET_PLAYER
    elif op == OP_RESET:
        g.tgt_player = owner
        g.dec = TARGET_CREW  # usable only when a spent crew exists
    elif IS_PEEK[e]:
        for j in range(3):
            if peek_pile(g, owner, j):
                g.dec = TARGET_PILE
    elif e == E_D_BURY:
        for j in range(3):
            if bury_pile(g, j):
                g.dec = TARGET_PILE
    elif IS_BAIL[e]:
        if g.pc_len + g.pt_len > 0:
            g.dec = TARGET_POLICE_PILE
    elif e == E_B_COPY:
        for b in range(1, C.N_BOSS):
            if boss_in_play(g, b, c):
                g.dec = COPY_BOSS


@jit
def crew_ok(g, q: int, k: int, opp: bool, c) -> bool:
    """Crew k of seat q (an opponent of the effect's owner or not) holds a card the pending
    effect may take. Targets are whole classes; stealing needs a destination."""
    e = int(g.effect)
    b, m, t = crew_counts(g, q, k)
    if not ((b > 0 and TARGET_CLASSES[e, 0]) or (m > 0 and TARGET_CLASSES[e, 1])
            or (t > 0 and TARGET_CLASSES[e, 2])):
        return False
    op = OP[e]
    if op == OP_STEAL:  # an own crew with room for a tool (not the source)
        o = int(g.owner)
        room = 0
        for kk in range(g.crews_used[o]):
            if tool_room(g, o, kk) and (opp or kk != k):
                room += 1
        return room >= 1
    if op == OP_STEAL_HERE:
        return tool_room(g, int(g.active), int(g.crack_crew))
    return True


@jit
def opp_eligible(g, c) -> bool:
    """Some opponent of the owner has a crew with a card the effect may take."""
    o = int(g.owner)
    for q in range(c.num_players):
        if q != o:
            for k in range(g.crews_used[q]):
                if crew_ok(g, q, k, True, c):
                    return True
    return False


@jit
def eligible(g, q: int, k: int, opp_any: bool, c) -> bool:
    """Crew k of q may be chosen by the pending card-targeting effect (opp_any: whether an
    opponent has such a crew, for the backfire rule [RB FAQ])."""
    e = int(g.effect)
    opp = q != g.owner
    who = WHO[e]
    if who == WHO_OPP and not opp:
        return False
    if who == WHO_BACKFIRE and opp != opp_any:
        return False
    if OP[e] == OP_FAIL and not (q == g.active and k == g.crack_crew):
        return False
    return crew_ok(g, q, k, opp, c)


@jit
def any_eligible(g, c) -> bool:
    opp_any = opp_eligible(g, c) if WHO[g.effect] == WHO_BACKFIRE else False
    for q in range(c.num_players):
        for k in range(g.crews_used[q]):
            if eligible(g, q, k, opp_any, c):
                return True
    return False


@jit
def peek_pile(g, p: int, j: int) -> bool:
    """Public pile j has a top whose front p has not seen."""
    n = int(g.vpub_len[j])
    return n > 0 and not g.known_face[p, g.vpub[j, n - 1]]


@jit
def bury_pile(g, j: int) -> bool:
    """Pile j has two vaults or more and is not the pile of a pending crack."""
    if g.vpub_len[j] < 2:
        return False
    return not (g.resume == RESUME_FLIP and g.crack_target == j)


@jit
def boss_in_play(g, b: int, c) -> bool:
    for q in range(c.num_players):
        for k in range(g.crews_used[q]):
            if g.crew[q, k, b] > 0:
                return True
    return False


@jit
def target_player(g, a: int, c) -> None:
    owner = int(g.owner)
    q = (owner + a - A_PLAYER) % c.num_players
    g.tgt_player = q
    op = OP[g.effect]
    if op == OP_PICK:
        pickpocket(g, owner, q)
    else:
        g.dec = NONE if op == OP_NONE else TARGET_CREW


@jit
def pickpocket(g, p: int, q: int) -> None:
    """A random card of q's hand (uniform over the cards, in type order) goes to p, shown."""
    u = rand_u(g, S_PICK, 0)
    next_event(g)
    t = scalar.draw_from_counts(g.hand[q], u)
    leave_hand(g, q, t)
    to_hand_shown(g, p, t)
    g.dec = NONE


@jit
def target_crew(g, a: int, c) -> None:
    k = a - A_CREW
    g.tgt_crew = k
    op = OP[g.effect]
    if op == OP_MOD:
        g.dec = TARGET_SKILL
    elif op == OP_RESET:
        g.dec = NONE
        g.spent[g.tgt_player, k] = 0
    else:
        g.dec = TARGET_CARD


@jit
def target_card(g, a: int, c) -> None:
    """Apply a card-targeting effect to card `a` in the chosen crew."""
    q, k = int(g.tgt_player), int(g.tgt_crew)
    op = OP[g.effect]
    g.dec = NONE
    g.move_card = a
    if op == OP_STEAL:
        g.dec = DEST_CREW
        return
    g.crew[q, k, a] -= 1
    if op == OP_JAIL or op == OP_FAIL:
        to_police(g, a)
    elif op == OP_RETURN:
        to_hand_shown(g, q, a)
    elif op == OP_STEAL_HERE:
        g.crew[g.active, g.crack_crew, a] += 1
    normalize(g, q, c)
    if op == OP_STEAL_HERE:
        normalize(g, int(g.active), c)


@jit
def dest_crew(g, a: int, c) -> None:
    q, k, t, o = int(g.tgt_player), int(g.tgt_crew), int(g.move_card), int(g.owner)
    g.crew[q, k, t] -= 1
    g.crew[o, a - A_CREW, t] += 1
    g.dec = NONE
    normalize(g, q, c)
    normalize(g, o, c)


@jit
def target_pile(g, i: int) -> None:
    """A peek at the top's front, or Bury: the top goes to the bottom of its pile."""
    g.dec = NONE
    n = int(g.vpub_len[i])
    if g.effect != E_D_BURY:
        g.known_face[g.owner, g.vpub[i, n - 1]] = 1
        return
    top = g.vpub[i, n - 1]
    for j in range(n - 1, 0, -1):
        g.vpub[i, j] = g.vpub[i, j - 1]
    g.vpub[i, 0] = top


# == disrupt cards and response windows [RB "Disrupts"] ===========================================
@jit
def open_window(g, kind: int) -> None:
    """Other players may respond, clockwise from the active player's left, who comes last."""
    g.win_kind = kind
    g.win_active = g.active
    g.win_seat = g.active  # the seat "before" the first one visited
    g.win_passes = 0


@jit
def close_window(g) -> None:
    g.win_kind = WIN_NONE
    g.win_passes = 0


@jit
def next_responder(g, c) -> int:
    """Advance the window to the next seat that may respond (one holding a disrupt; not the
    active player in an action window). Skipped seats count as passes; after N passes or skips
    in a row the window closes (-1)."""
    n = c.num_players
    seat, passes = int(g.win_seat), int(g.win_passes)
    first = n
    for i in range(n):
        q = (seat + 1 + i) % n
        if holds_disrupt(g, q) and not (g.win_kind == WIN_ACTION and q == g.active):
            first = i
            break
    if first >= n - passes:
        close_window(g)
        return -1
    out = (seat + 1 + first) % n
    g.win_passes = passes + first
    g.win_seat = out
    return out


@jit
def response(g, a: int, c) -> None:
    if a == A_PASS:
        g.win_passes += 1
        g.dec = NONE
    else:
        g.win_passes = 0  # everybody gets another chance
        play_disrupt(g, int(g.owner), a)


@jit
def in_play(g, c) -> tuple[bool, bool, bool]:
    """Whether a boss, a member, a tool is in some crew in play."""
    boss = mem = tool = False
    cr = g.crew
    for q in range(c.num_players):
        for k in range(g.crews_used[q]):
            for x in range(C.N_CREW_TYPES):
                if cr[q, k, x]:
                    boss |= x < M0
                    mem |= M0 <= x < T0
                    tool |= x >= T0
    return boss, mem, tool


@jit
def effect_usable(g, e: int, play: tuple[bool, bool, bool], c) -> bool:
    """The decision owner may use disrupt effect e now (play: `in_play`)."""
    p = int(g.owner)
    if g.win_kind == WIN_CRACK:
        ctx = CTX_CRACK_ACTIVE if p == g.active else CTX_CRACK_OTHER
    elif g.win_kind == WIN_ACTION:
        ctx = CTX_ACTION
    else:
        ctx = CTX_MAIN
    if not ALLOWED[ctx, e]:
        return False
    if e == E_D_KEY:
        return not g.key_used
    if e == E_D_DRAW:
        return g.deck_len > 0
    if e == E_D_JAIL_TOOL or e == E_D_TIPOFF or e == E_D_SABOTAGE or e == E_D_REINFORCE:
        boss, mem, tool = play
        if e == E_D_JAIL_TOOL:
            return tool
        if e == E_D_TIPOFF:
            return mem or tool
        return boss or mem
    if e == E_D_BAIL:
        return g.pc_len + g.pt_len > 0
    if e == E_D_RESET:
        for k in range(g.crews_used[p]):
            if g.spent[p, k] and crew_exists(g, p, k):
                return True
        return False
    if e == E_D_SCOUT:
        return peek_pile(g, p, 0) or peek_pile(g, p, 1) or peek_pile(g, p, 2)
    if e == E_D_PICKPOCKET:
        for q in range(c.num_players):
            if q != p and hand_total(g, q) > 0:
                return True
        return False
    if e == E_D_BURY:
        return bury_pile(g, 0) or bury_pile(g, 1) or bury_pile(g, 2)
    return True


@jit
def disrupt_usable(g, d: int, play: tuple[bool, bool, bool], c) -> bool:
    """One of disrupt d's two effects is usable now."""
    return (effect_usable(g, DISRUPT_EFFECTS[d, 0], play, c)
            or effect_usable(g, DISRUPT_EFFECTS[d, 1], play, c))


# == the end of the turn: the hand limit [RB "Action Management & Hand Size"] =====================
@jit
def discard(g, a: int, c) -> None:
    """Excess cards go to the Police station (disrupts to the used pile)."""
    p = int(g.active)
    leave_hand(g, p, a)
    if a >= D0:
        g.dused[a - D0] += 1
    else:
        to_police(g, a)
    if hand_total(g, p) <= C.HAND_LIMIT:
        g.dec = NONE
        next_turn(g, c)


# == the end of the game [RB "The Goals"] =========================================================
@jit
def scores(g, out: np.ndarray, c) -> None:
    for p in range(c.num_players):
        out[p] = g.loot[p]


@jit
def rank_keys(g, out: np.ndarray, c) -> None:
    """Loot, then Success vaults in pile, then fewer turns, then the later seat [DEC V12]."""
    N = c.num_players
    for p in range(N):
        succ = 0
        for i in range(int(g.vpriv_len[p])):
            succ += VAULT_SUCCESS[g.vpriv[p, i]]
        order = (p - int(g.first_player)) % N
        out[p] = (((int(g.loot[p]) * 32 + succ) * 8192
                   + (8191 - min(int(g.turns_taken[p]), 8191))) * 8 + order)


# == legal actions ================================================================================
@jit
def refresh_mask(g, c) -> int:
    """Set the legal actions of the pending decision and who makes it; returns how many."""
    m = g.legal_action_mask
    m[:] = 0
    d = g.dec
    p = int(g.active)
    o = int(g.owner)
    if d == MAIN:
        mask_main(g, m, c)
    elif d == BOSS_CHOICE:
        m[A_OPT] = 1
        m[A_OPT + 1] = 1
    elif d == PLAY_DEST:
        t = int(g.card_in_play)
        cls = CLASS_OF[t]
        n = int(g.crews_used[p])
        free = n < K
        for k in range(n):
            cnt = crew_counts(g, p, k)
            ex = cnt[0] + cnt[1] > 0
            m[A_CREW + k] = ex and cnt[cls] < CLASS_CAP[cls]
            free |= not ex
        m[A_NEW] = cls < 2 and free
        m[A_POLICE] = cls == 0 and can_gain_disrupt(g)
    elif d == TARGET_PLAYER:
        mask_target_player(g, m, c)
    elif d == TARGET_CREW:
        q = int(g.tgt_player)
        op = OP[g.effect]
        for k in range(g.crews_used[q]):
            if op == OP_MOD:
                m[A_CREW + k] = crew_exists(g, q, k)
            elif op == OP_RESET:
                m[A_CREW + k] = crew_exists(g, q, k) and g.spent[q, k]
            else:
                m[A_CREW + k] = crew_ok(g, q, k, q != o, c)
    elif d == TARGET_CARD or d == FAIL_CARD:
        q, k = int(g.tgt_player), int(g.tgt_crew)
        if crew_ok(g, q, k, q != o, c):
            e = int(g.effect)
            for x in range(C.N_CREW_TYPES):
                m[x] = g.crew[q, k, x] > 0 and TARGET_CLASSES[e, CLASS_OF[x]]
    elif d == TARGET_SKILL:
        for s in range(3):
            m[A_SKILL + s] = 1
    elif d == TARGET_PILE:
        for j in range(3):
            m[A_PILE + j] = bury_pile(g, j) if g.effect == E_D_BURY else peek_pile(g, o, j)
    elif d == TARGET_POLICE_PILE:
        m[A_OPT] = g.pc_len > 0
        m[A_OPT + 1] = g.pt_len > 0
    elif d == DEST_CREW:
        for k in range(g.crews_used[o]):
            m[A_CREW + k] = tool_room(g, o, k) and not (g.tgt_player == o and k == g.tgt_crew)
    elif d == MOVE_CARD:
        src = int(g.src_crew)
        cnt = seat_counts(g, p, c)
        tot = seat_totals(g, p, cnt)
        for x in range(C.N_CREW_TYPES):
            m[x] = g.crew[p, src, x] > 0 and can_move(cnt, tot, src, CLASS_OF[x])
    elif d == MOVE_DEST:
        mask_move_dest(g, m, c)
    elif d == SWAP_CARD:
        k, cls = int(g.tgt_crew), CLASS_OF[g.move_card]
        for x in range(C.N_CREW_TYPES):
            m[x] = g.crew[p, k, x] > 0 and CLASS_OF[x] == cls
    elif d == CRACK_TARGET:
        key = holds_key(g, p)
        s0, s1, s2 = max_skills(g, p, int(g.crack_crew))
        for t in range(6):
            m[A_PILE + t] = target_met(g, t, s0, s1, s2, key, c)
    elif d == OVERLOAD:
        k = int(g.crack_crew)
        for x in range(T0, C.N_CREW_TYPES):
            m[x] = g.over[x - T0] < g.crew[p, k, x]
        m[A_PASS] = combo_met(g, c) or holds_key(g, p)
    elif d == USE_KEY:
        for x in C.KEY_CARDS:
            m[x] = g.hand[p, x] > 0
        m[A_PASS] = combo_met(g, c)
    elif d == RESPONSE:
        play = in_play(g, c)
        for x in range(C.N_DISRUPT):
            m[D0 + x] = g.hand[o, D0 + x] > 0 and disrupt_usable(g, x, play, c)
        m[A_PASS] = 1
    elif d == DISRUPT_EFFECT:
        x = int(g.card_in_play) - D0
        play = in_play(g, c)
        m[A_OPT] = effect_usable(g, DISRUPT_EFFECTS[x, 0], play, c)
        m[A_OPT + 1] = effect_usable(g, DISRUPT_EFFECTS[x, 1], play, c)
    elif d == DISCARD:
        for x in range(HT):
            m[x] = g.hand[p, x] > 0
    elif d == COPY_BOSS:
        for b in range(1, C.N_BOSS):  # any boss in play but Patricia herself [RB FAQ]
            m[b] = boss_in_play(g, b, c)
    g.current_player = g.owner
    n = 0
    for a in range(m.shape[0]):
        n += m[a]
    return n


@jit
def target_met(g, t: int, s0: int, s1: int, s2: int, key: bool, c) -> bool:
    """Skills (s0, s1, s2) meet crack target t's combination, or any target with a key."""
    v = target_top(g, t, c)
    if v < 0:
        return False
    if key:
        return True
    return s0 >= VAULT_COMBO[v, 0] and s1 >= VAULT_COMBO[v, 1] and s2 >= VAULT_COMBO[v, 2]


@jit
def mask_main(g, m: np.ndarray, c) -> None:
    p = int(g.active)
    m[A_END] = 1
    act = g.actions > 0
    cnt = seat_counts(g, p, c)
    tot = seat_totals(g, p, cnt)
    # a card can be played if its class has a destination: a crew with room, a new crew
    # (bosses, members), the Police station (bosses, while a disrupt can be had)
    room = tot[1:4] > 0
    room[0] |= tot[4] > 0 or can_gain_disrupt(g)
    room[1] |= tot[4] > 0
    if act:
        for x in range(D0):
            m[x] = g.hand[p, x] > 0 and room[CLASS_OF[x]]
    if holds_disrupt(g, p):  # disrupts are free
        play = in_play(g, c)
        for x in range(C.N_DISRUPT):
            if g.hand[p, D0 + x] > 0:
                m[D0 + x] = disrupt_usable(g, x, play, c)
    if not act:
        return
    key = holds_key(g, p)
    for k in range(g.crews_used[p]):
        for cl in range(3):
            if cnt[k, cl] > 0 and can_move(cnt, tot, k, cl):
                m[A_MOVE + k] = 1
        if cnt[k, 0] + cnt[k, 1] == 0 or g.spent[p, k] or g.blocked[p, k] or g.phase > 3:
            continue
        s0, s1, s2 = max_skills(g, p, k)
        for t in range(6):
            if target_met(g, t, s0, s1, s2, key, c):
                m[A_CRACK + k] = 1
                break
    # draws: phase 1 only, one source, not with five cards at the start of the turn
    if g.phase == 1 and g.can_draw and g.draws < C.MAX_DRAWS:
        src = g.draw_source
        m[A_DRAW] = src != 2 and g.deck_len > 0
        m[A_DRAW + 1] = src != 1 and g.pc_len > 0
        m[A_DRAW + 2] = src != 1 and g.pt_len > 0


@jit
def can_move(cnt: np.ndarray, tot: np.ndarray, k: int, cls: int) -> bool:
    """A card of class cls in crew k (of a seat with crew counts cnt, `seat_totals` tot) could
    move [RB "Forming Crews"; spec §2.6]: a tool to any other crew (a move, or a swap if it is
    full); a boss or member to another crew full in its class (a swap), or one with room while
    the source stays valid (keeps a boss or member, or has no tools), or to a free slot while
    the source keeps a boss or member."""
    ex = cnt[k, 0] + cnt[k, 1] > 0
    n_ex = tot[0] - ex  # the other crews
    n_room = tot[1 + cls] - (ex and cnt[k, cls] < CLASS_CAP[cls])
    free = tot[4] > 0
    if cls == 2:
        return n_ex > 0
    keeps = cnt[k, 0] + cnt[k, 1] >= 2
    valid_after = keeps or cnt[k, 2] == 0
    return n_ex > n_room or (valid_after and n_room > 0) or (keeps and free)


@jit
def mask_move_dest(g, m: np.ndarray, c) -> None:
    p, src = int(g.active), int(g.src_crew)
    cls = CLASS_OF[g.move_card]
    cnt = seat_counts(g, p, c)
    keeps = cnt[src, 0] + cnt[src, 1] - 1 >= 1
    valid_after = cls == 2 or keeps or cnt[src, 2] == 0
    for k in range(g.crews_used[p]):
        room = cnt[k, cls] < CLASS_CAP[cls]
        m[A_CREW + k] = k != src and cnt[k, 0] + cnt[k, 1] > 0 and (valid_after or not room)
    m[A_NEW] = cls < 2 and keeps and seat_totals(g, p, cnt)[4] > 0


@jit
def mask_target_player(g, m: np.ndarray, c) -> None:
    N = c.num_players
    o = int(g.owner)
    op = OP[g.effect]
    opp_any = opp_eligible(g, c) if WHO[g.effect] == WHO_BACKFIRE else False
    for r in range(N):
        q = (o + r) % N
        ok = False
        if op == OP_PICK:
            ok = q != o and hand_total(g, q) > 0
        else:
            for k in range(g.crews_used[q]):
                if op == OP_MOD:
                    ok |= crew_exists(g, q, k)
                else:
                    ok |= eligible(g, q, k, opp_any, c)
        m[A_PLAYER + r] = ok


# == observation [spec §4] ======================================================================
@jit(inline="always")
def put(out: np.ndarray, i: int, v, d: float) -> int:
    """Write a small integer divided by its scale at column i (a float32 division, exact for
    every value these fields take); returns i + 1. Without a branch and inlined by numba: a
    branch on the row, or a call that LLVM inlines later, keeps numba's incref and decref of
    the row around every value written (two fifths of the observation's time)."""
    out[i] = np.float32(v) / np.float32(d)
    return i + 1



@jit
def observe(g, seat: int, out: np.ndarray, c) -> None:
    """What `seat` may know, in the layout's column order (`kernel._observation_layout`): the
    table, every seat's block clockwise from the observer (its own with the whole hand), the
    public piles and the Police station, then the pending decision (its owner only) and the
    context of the effect or crack under way. The row is zeroed, then its nonzero values set."""
    N, me = c.num_players, seat
    out[:] = 0.0
    i = mark_hot(out, 0, 3, N - 2)
    i = put(out, i, c.goal, C.TOTAL_LOOT)
    i = put(out, i, g.deck_len, C.DECK_SIZE)
    i = put(out, i, g.ddeck_len, C.DISRUPT_DECK_SIZE)
    i = put(out, i, min(int(g.turns_total), 300), 300)
    i = mark_hot(out, i, 4, (int(g.active) - me) % N)
    i = mark_hot(out, i, 4, (int(g.first_player) - me) % N)
    i = mark_hot(out, i, 4, min(int(g.phase), 4) - 1)
    i = put(out, i, min(int(g.actions), 6), 6)
    i = put(out, i, g.can_draw, 1)
    i = mark_hot(out, i, 3, int(g.draw_source))
    # counts / 2 as counts * 0.5 (the same float32), a whole array per loop (`put_all`)
    i = put_all(out, i, g.hand[me], 0.5)
    i = put_all(out, i, g.known[me], 0.5)
    for j in range(3):  # my peeks: the top's id if I know its front, else "unknown" (27)
        n = int(g.vpub_len[j])
        if n > 0:
            top = int(g.vpub[j, n - 1])
            out[i + (top if g.known_face[me, top] else 27)] = 1.0
        i += 28
    if g.dec == BOSS_CHOICE and g.boss_pick[me] < 0:
        out[i + int(g.boss_offer[me, 0])] = out[i + int(g.boss_offer[me, 1])] = 1.0
    i += C.N_BOSS
    for r in range(N):
        i = seat_block(g, (me + r) % N, r == 0, out, i, c)
    for j in range(3):
        n = int(g.vpub_len[j])
        i = put(out, i, n, C.PILE_SIZE)
        i = mark_hot(out, i, 10, VAULT_GROUP[g.vpub[j, n - 1]] if n > 0 else 9)
    i = put_all(out, i, g.revealed, 1.0)
    for grp in range(C.N_GROUPS):
        i = put(out, i, 3 - int(g.revealed[3 * grp]) - int(g.revealed[3 * grp + 1])
                - int(g.revealed[3 * grp + 2]), 3)
    i = put_all(out, i, g.police_count, 0.5)
    for j in range(3):
        n = int(g.pc_len)
        i = mark_hot(out, i, 33, int(g.pchar[n - 1 - j]) if n > j else 32)
    for j in range(3):
        n = int(g.pt_len)
        i = mark_hot(out, i, 13, int(g.ptool[n - 1 - j]) - T0 if n > j else 12)
    i = put_all(out, i, g.dused, 0.5)
    d = int(g.dec)
    i = mark_hot(out, i, NUM_DECISIONS, d if g.owner == me else -1)
    i = mark_hot(out, i, HT, int(g.card_in_play))
    e = int(g.effect)
    i = mark_hot(out, i, NE, e if e > 0 else -1)
    shows_player = (d == TARGET_CREW or d == TARGET_CARD or d == TARGET_SKILL
                    or d == DEST_CREW or d == FAIL_CARD)
    i = mark_hot(out, i, 4, (int(g.tgt_player) - me) % N if shows_player else -1)
    shows_crew = (d == TARGET_CARD or d == TARGET_SKILL or d == DEST_CREW or d == FAIL_CARD
                  or d == SWAP_CARD)
    i = mark_hot(out, i, K, int(g.tgt_crew) if shows_crew else -1)
    t = int(g.crack_target)
    if t >= 0 or d == CRACK_TARGET:  # the declared crew is public from the declaration on
        out[i + int(g.crack_crew)] = 1.0
    if t >= 0:
        out[i + K + (t if t < 3 else 3 + (int(g.active) + t - 2 - me) % N)] = 1.0
        v = target_top(g, t, c)
        for s in range(3):
            put(out, i + K + 7 + s, min(crack_skill(g, s), 30), 30)
            put(out, i + K + 10 + s, VAULT_COMBO[v, s] if v >= 0 else 0, 10)
    i += K + 13
    i = put_all(out, i, g.over, 0.5)
    i = put(out, i, g.key_used, 1)
    i = put(out, i, g.win_kind == WIN_CRACK, 1)
    i = put(out, i, g.win_kind == WIN_ACTION, 1)
    put(out, i, g.win_passes, N)


@jit
def seat_block(g, q: int, mine: bool, out: np.ndarray, i: int, c) -> int:
    """One seat's block: hand sizes, known hand (the observer's own: the whole hand), loot,
    vault pile, turns taken, then its crew slots."""
    hand = g.hand[q]
    n = nd = 0
    for t in range(HT):
        h = int(hand[t])
        n += h
        nd += h if t >= D0 else 0
    put_all(out, i + 2, hand if mine else g.known[q], 0.5)
    put(out, i, min(n, 10), 10)
    put(out, i + 1, min(nd, 5), 5)
    i += 2 + HT
    i = put(out, i, min(int(g.loot[q]), c.goal), c.goal)
    ln = int(g.vpriv_len[q])
    i = put(out, i, ln, C.N_VAULTS)
    i = mark_hot(out, i, 28, int(g.vpriv[q, ln - 1]) if ln > 0 else 27)
    fails = 0
    for x in range(ln):  # each vault at its id's column, as its depth from the top (1 = top)
        v = int(g.vpriv[q, x])
        fails += 1 - VAULT_SUCCESS[v]
        out[i + 1 + v] = np.float32(ln - x) / np.float32(C.N_VAULTS)
    put(out, i, fails, 8)
    i += 1 + C.N_VAULTS
    i = put(out, i, min(int(g.turns_taken[q]), 300), 300)
    n = int(g.crews_used[q])
    for k in range(n):
        i = crew_block(g, q, k, out, i)
    for _ in range(n, K):  # slots past the last crew: all 0 but the modifiers, (0 + 6) / 12
        out[i + EMPTY_MODS] = out[i + EMPTY_MODS + 1] = out[i + EMPTY_MODS + 2] = 0.5
        i += CREW_BLOCK
    return i


@jit
def crew_block(g, q: int, k: int, out: np.ndarray, i: int) -> int:
    """exists, boss one-hot, member and tool counts / 2, skills / 30, spent, blocked,
    modifiers (m + 6) / 12."""
    cr = g.crew[q, k]
    # one pass per scale, without branches (so that LLVM vectorizes it): the counts written
    # and the skills summed
    s0 = s1 = s2 = chars = 0
    for x in range(M0):
        n = int(cr[x])
        out[i + 1 + x] = np.float32(n)
        chars += n
        s0 += n * SKILLS[x, 0]
        s1 += n * SKILLS[x, 1]
        s2 += n * SKILLS[x, 2]
    for x in range(M0, C.N_CREW_TYPES):
        n = int(cr[x])
        out[i + 1 + x] = np.float32(n) * np.float32(0.5)
        chars += n * (x < T0)
        s0 += n * SKILLS[x, 0]
        s1 += n * SKILLS[x, 1]
        s2 += n * SKILLS[x, 2]
    put(out, i, chars > 0, 1)
    i += 1 + C.N_CREW_TYPES
    m0, m1, m2 = int(g.mods[q, k, 0]), int(g.mods[q, k, 1]), int(g.mods[q, k, 2])
    i = put(out, i, min(max(s0 + m0, 0), 30), 30)
    i = put(out, i, min(max(s1 + m1, 0), 30), 30)
    i = put(out, i, min(max(s2 + m2, 0), 30), 30)
    i = put(out, i, g.spent[q, k], 1)
    i = put(out, i, g.blocked[q, k], 1)
    i = put(out, i, min(max(m0 + 6, 0), 12), 12)
    i = put(out, i, min(max(m1 + 6, 0), 12), 12)
    return put(out, i, min(max(m2 + 6, 0), 12), 12)


DRIVERS = load_drivers("vaults", HERE, setup=setup, resume=resume, apply=apply,
                       refresh_mask=refresh_mask, observe=observe, scores=scores,
                       rank_keys=rank_keys, asked_always=asked_always)
