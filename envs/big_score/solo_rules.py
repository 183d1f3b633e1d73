"""The Big Score solo game as compiled scalar functions over one game's record `g`, ordered
like the rulebook's "Solo Rules": Solo Setup (with each scenario's set-up), Solo Act I (Round
Setup, Phase 1 Hire Crew, Phase 2 Assign Crew with the paid extras and the Scout action,
Phase 3 Resolve Jobs), Solo Act II (Rob or Flee the Vault, bribes, Getting Busted), Solo Game
End and the scenarios' objectives; then the masks and the observation.

The design specification's decisions D-S1 to D-S8 resolve what the rulebook leaves open; the
points neither covers are the README's "Rule decisions" (S-xx). Money is in $10K units.
"""

from __future__ import annotations

import numpy as np

from ..core import scalar
from ..core.jit import jit, load_drivers
from ..core.scalar import mark_hot, put, put_capped
from . import components as C
from .rules import HERE, diamond_value
from .rules import kinds_total as total

# -- scenarios (the `meta.scenario` one-hot; the spec's order) -----------------------------------
SCENARIOS = ("biggest_score", "biggest_score_2m", "diamond_thief", "magic_paintings",
             "jack_of_all_trades_show", "crypto_currency", "heat_is_on", "simultaneous_plunder",
             "betray_the_traitor", "crew_does_what_it_takes")
(BIGGEST, BIGGEST_2M, DIAMOND_THIEF, PAINTINGS, JOAT_SHOW, CRYPTO, HEAT, PLUNDER, BETRAY,
 CREW_DOES) = np.arange(10)
NUM_SCENARIOS = 10
RANDOM_SCENARIO = np.int64(10)  # the option "random": one drawn per game at setup

# -- decisions (the `meta.decision` one-hot) ------------------------------------------------------
(NONE, REMOVE_TYPE, MANIPULATE, CHOOSE_TYPE, PLACE, PAID, KEEP, REVEAL, ROB_FLEE, BRIBE,
 KEEP_TOKEN, REMOVE_TOKEN, BUY_HD, TRAITOR) = np.arange(14)
NUM_DECISIONS = 14
NEXT_OWED = np.int64(14)  # an automatic point: what Phase 3 still owes (`resume` plays it)
DECISION_NAMES = ("none", "remove_type", "manipulate", "choose_type", "place", "paid",
                  "keep", "reveal", "rob_flee", "bribe", "keep_token", "remove_token", "buy_hd",
                  "traitor")
# stages
SETUP, ROUND1, ROUND2, ROUND3, ACT2, OVER = np.arange(6)
# job position status
EMPTY, OPEN, DONE = np.arange(3)
# random streams
S_CREW, S_JOBS, S_BAG, S_MISC, S_CRYPTO = np.arange(5)

# -- actions (names and documentation in solo_kernel.build_action_layout) -------------------------
A_DISCARD, A_DRAW_ONE, A_SCOUT, A_DONE, A_CHOOSE, A_PLACE, A_PAY_PLACE, A_PAY_SHUFFLE = (
    np.array([0, 6, 7, 10, 11, 17, 23, 59]))
A_PLACE_JOAT, A_KEEP, A_REVEAL, A_REMOVE_TYPE, A_ROB, A_FLEE, A_BRIBE = (
    np.array([65, 71, 77, 80, 86, 87, 88]))
A_KEEP_TOKEN, A_REMOVE_TOKEN, A_BUY_HD, A_TRAITOR = np.array([91, 100, 109, 110])
NUM_ACTIONS = 116

NT, NV, NL = C.NUM_TYPES, C.NUM_TOKENS, C.NUM_LOOT
CASH_TYPES = 4  # vault tokens 0..3 are cash
HAND = 5  # RB › Solo › Phase 1: draw to five
DECK = C.CREW_DECK_SIZE  # room per crew deck: shuffle-ins can grow decks 2 and 3
SCRIPT = 32  # room for stacked bag tokens (tests)
SCOUT_COST, BRIBE_COST, HD_COST = 3, 5, 10
BUST_AT = 5  # RB › Solo Act II: busted at 5 Cops on the track
HEAT_LOSE_AT = 4  # The Heat Is On: 4 Cops on the track lose the game
HEAT_TOKENS = 2  # The Heat Is On: tokens drawn onto every job dealt

STATE_FIELDS = (
    ("phase", np.int8, (), "pending decision (NONE once over)"),
    ("stage", np.int8, (), "SETUP, ROUND1..3, ACT2, OVER"),
    ("scenario", np.int8, (), "the scenario played (drawn at setup for 'random')"),
    ("cash", np.int32, (), "cash in the supply ($10K): Act I money"),
    ("payout", np.int16, (3,), "Act I payout tokens: Artifacts, Diamonds, Hard Drives"),
    ("decks", np.int8, (3, DECK), "crew decks of rounds 1..3 by type; the top is the last"),
    ("deck_len", np.int16, (3,), "cards in each crew deck"),
    ("known", np.int8, (3, NT), "cards I shuffled into a deck, by type, not yet drawn from it"),
    ("seen", np.int8, (NT,), "crew cards drawn and not shuffled back, by type (15 each)"),
    ("removed_type", np.int8, (), "crew type removed at setup (-1 none)"),
    ("hand", np.int8, (NT,), "crew cards in my hand by type"),
    ("kept", np.int8, (NT,), "cards of my hand paid to keep this turn"),
    ("chosen", np.int8, (), "type chosen in Phase 2 (-1 before)"),
    ("discarded", np.int16, (), "crew cards in the discard pile"),
    ("aside", np.int8, (NT,), "Betray the Traitor: crew from completed jobs, set aside"),
    ("job_deck", np.int8, (24,), "job ids: the 18-job deck in draw order, then those unused"),
    ("job_ptr", np.int8, (), "next job of the deck"),
    ("jobs", np.int8, (6,), "job id at positions 1..6 (-1 none)"),
    ("job_status", np.int8, (6,), "EMPTY, OPEN, DONE (completed this round)"),
    ("face_down", np.bool_, (6,), "the job lies face-down (not revealed)"),
    ("scouted", np.bool_, (6,), "a face-down job I looked at"),
    ("placed", np.int8, (6, NT), "crew cards on each job by type"),
    ("joat_on", np.int8, (6,), "Jack of All Trades wildcards put on each job"),
    ("job_tokens", np.int8, (6, NV), "The Heat Is On: vault tokens lying on each job"),
    ("jobs_seen", np.bool_, (24,), "job ids I have seen (face-up, revealed or scouted)"),
    ("reveals_owed", np.int8, (), "face-down jobs to reveal for this turn's completions"),
    ("vault_rounds_owed", np.int8, (), "Simultaneous Plunder: vault rounds still owed"),
    ("joat", np.int8, (), "wildcard Jack of All Trades tokens left"),
    ("jobs_done", np.int8, (), "jobs completed this game"),
    ("bag", np.int16, (NV,), "vault bag per token type"),
    ("bag_ptr", np.int32, (), "draws made from the bag (RNG counter)"),
    ("misc_ptr", np.int32, (), "other random choices (RNG counter)"),
    ("vault_pile", np.int16, (NL,), "vault loot I kept"),
    ("cops_track", np.int8, (), "Cops tokens on the track"),
    ("drawn", np.int8, (NV,), "the current 3-draw by type (loot left to keep, remove, return)"),
    ("to_bribe", np.int8, (), "Cops of the current draw that may be bribed"),
    ("busted", np.bool_, (), "the cops caught me"),
    ("lost", np.bool_, (), "a scenario's losing condition struck (objective failed)"),
    ("robberies", np.int16, (), "vault rounds played"),
    ("tokens_out", np.int16, (), "vault tokens removed from the game"),
    ("row", np.bool_, (NT,), "Betray the Traitor: the crew row, one card per type present"),
    ("row_tokens", np.int8, (NT, NV), "Betray the Traitor: tokens on each crew card of the row"),
    ("pending", np.int8, (), "Betray the Traitor: the token to put on a crew card (-1 none)"),
    ("traitors", np.int8, (2,), "Betray the Traitor: the crew types drawn on fleeing (-1)"),
    ("stacked", np.int8, (SCRIPT,), "tokens stacked on top of the bag: the next draws take "
     "them in order (tests; empty in play)"),
    ("stacked_len", np.int8, (), "tokens stacked"),
    ("stacked_pos", np.int8, (), "stacked tokens drawn so far"),
)
CONFIG_FIELDS = (
    ("scenario", np.int64), ("job_req", np.int64, (25, NT)), ("job_cash", np.int64, (25,)),
    ("job_token", np.int64, (25,)),
)

VAULT_COUNTS = C.VAULT_COUNTS.astype(np.int64)
CASH_FACE = C.CASH_FACE.astype(np.int64)
F2, F3, F5, F6, F10, F15, F18 = (np.float32(1.0 / x) for x in (2, 3, 5, 6, 10, 15, 18))
F30, F62, F90, F120, F300 = (np.float32(1.0 / x) for x in (30, 62, 90, 120, 300))
ONE = np.float32(1.0)


# == small pieces ==================================================================================
@jit
def misc_uniform(g) -> float:
    u = scalar.uniform(g.key, S_MISC, np.uint64(g.misc_ptr))
    g.misc_ptr += 1
    return u


@jit
def draw_token(g) -> int:
    """One uniform draw from the vault bag (stacked tokens first); the token leaves the bag."""
    if g.stacked_pos < g.stacked_len:
        v = int(g.stacked[g.stacked_pos])
        g.stacked_pos += 1
    else:
        u = scalar.uniform(g.key, S_BAG, np.uint64(g.bag_ptr))
        g.bag_ptr += 1
        v = scalar.draw_from_counts(g.bag, u)
    if v >= 0:
        g.bag[v] -= 1
    return v


@jit
def scenario_removes_type(s: int) -> bool:
    return s == JOAT_SHOW or s == PLUNDER


@jit
def has_act2(s: int) -> bool:
    return s != HEAT and s != PLUNDER


# == Solo Setup ====================================================================================
@jit
def setup(g, c) -> None:
    """RB › Solo Setup: no starting bonus, $200K, an 18-card job deck, three 30-card crew decks
    (25 when a scenario removes a crew type: that choice comes first)."""
    s = int(c.scenario)
    if s == RANDOM_SCENARIO:
        s = int(np.floor(misc_uniform(g) * NUM_SCENARIOS))
    g.scenario = s
    g.cash = C.START_CASH
    g.removed_type = -1
    g.chosen = -1
    g.pending = -1
    g.traitors[:] = -1
    g.jobs[:] = -1
    for v in range(NV):
        g.bag[v] = VAULT_COUNTS[v]
    deal_job_deck(g, c)
    if s == JOAT_SHOW or s == PLUNDER:
        g.joat = 6
    if scenario_removes_type(s):
        g.phase = REMOVE_TYPE
        return
    deal_crew_decks(g, c)


@jit
def deal_job_deck(g, c) -> None:
    """The first 18 jobs of a shuffle; Crypto Currency: the 4 Hard Drive jobs and 14 others,
    shuffled together (the rest stay out of the game, after them)."""
    order = scalar.permutation(g.key, S_JOBS, 24)
    if g.scenario != CRYPTO:
        for i in range(24):
            g.job_deck[i] = order[i]
        return
    deck = np.empty(18, np.int64)
    n, out = 0, 18
    for i in range(24):
        j = order[i]
        if c.job_token[j] == C.HARD_DRIVE:
            deck[n] = j
            n += 1
    for i in range(24):
        j = order[i]
        if c.job_token[j] != C.HARD_DRIVE:
            if n < 18:
                deck[n] = j
                n += 1
            else:
                g.job_deck[out] = j
                out += 1
    mix = scalar.permutation(g.key, S_CRYPTO, 18)
    for i in range(18):
        g.job_deck[i] = deck[mix[i]]


@jit
def deal_crew_decks(g, c) -> None:
    """Shuffle the crew (less a removed type) and split it into three equal decks."""
    order = scalar.permutation(g.key, S_CREW, C.CREW_DECK_SIZE)
    cards = np.empty(C.CREW_DECK_SIZE, np.int64)
    n = 0
    for i in range(C.CREW_DECK_SIZE):
        t = order[i] // 15
        if t != g.removed_type:
            cards[n] = t
            n += 1
    per = n // 3
    for d in range(3):
        g.deck_len[d] = per
        for i in range(per):
            g.decks[d, i] = cards[d * per + i]
    round_setup(g, c)


@jit(inline="always")
def on_remove_type(g, a: int, c) -> None:
    """JoAT Show, Simultaneous Plunder: remove every crew card of one type."""
    g.removed_type = a - A_REMOVE_TYPE
    deal_crew_decks(g, c)


# == Solo Act I › Round Setup ======================================================================
@jit
def round_setup(g, c) -> None:
    """Deck r is the round's deck (D-S1); jobs 1-3 face-up, 4-6 face-down. The Heat Is On:
    two bag tokens on every job dealt."""
    g.stage += 1
    for p in range(6):
        j = int(g.job_deck[g.job_ptr])
        g.job_ptr += 1
        g.jobs[p] = j
        g.job_status[p] = OPEN
        g.face_down[p] = p >= 3
        g.scouted[p] = 0
        g.placed[p, :] = 0
        g.joat_on[p] = 0
        g.job_tokens[p, :] = 0
        if p < 3:
            g.jobs_seen[j] = 1
        if g.scenario == HEAT:
            for _ in range(HEAT_TOKENS):
                v = draw_token(g)
                if v >= 0:
                    g.job_tokens[p, v] += 1
    start_turn(g, c)


@jit(inline="always")
def active(g) -> int:
    return int(g.stage) - ROUND1


@jit
def draw_cards(g, n: int) -> None:
    """Draw up to n cards from the round's deck into the hand."""
    d = active(g)
    for _ in range(n):
        if g.deck_len[d] == 0:
            return
        g.deck_len[d] -= 1
        t = int(g.decks[d, g.deck_len[d]])
        g.hand[t] += 1
        g.seen[t] += 1
        if g.known[d, t] > 0:
            g.known[d, t] -= 1


# == Phase 1 - Hire Crew ===========================================================================
@jit
def start_turn(g, c) -> None:
    """Draw to five (or until the deck runs out), then manipulate the hand."""
    held = total(g.hand)
    if held < HAND:
        draw_cards(g, HAND - held)
    g.chosen = -1
    g.phase = MANIPULATE


@jit
def on_manipulate(g, a: int, c) -> None:
    if a < A_DRAW_ONE:  # pay 10K: discard every card of a type, draw as many
        t = a - A_DISCARD
        n = int(g.hand[t])
        g.cash -= 1
        g.hand[t] = 0
        g.discarded += n
        draw_cards(g, n)
    elif a == A_DRAW_ONE:
        g.cash -= 1
        draw_cards(g, 1)
    elif a < A_DONE:
        scout(g, a)
    else:
        start_assign(g, c)


@jit(inline="always")
def scout(g, a: int) -> None:
    """Pay 30K to look at one face-down job: it stays known (observation) once seen."""
    p = 3 + a - A_SCOUT
    g.cash -= SCOUT_COST
    g.scouted[p] = 1
    g.jobs_seen[g.jobs[p]] = 1


# == Phase 2 - Assign Crew =========================================================================
@jit
def missing(g, p: int, c) -> int:
    """Icons the job at p still lacks, less its wildcards (0: it completes)."""
    j = int(g.jobs[p])
    need = 0
    for t in range(NT):
        need += max(int(c.job_req[j, t]) - int(g.placed[p, t]), 0)
    if g.scenario == CREW_DOES:  # a job also completes with one card of each type
        other = 0
        for t in range(NT):
            other += int(g.placed[p, t]) == 0
        need = min(need, other)
    return max(need - int(g.joat_on[p]), 0)


@jit
def placeable(g, t: int, p: int, c) -> bool:
    """A card of type t can go on the job at p: it is face-up and open and still needs that
    type (D-S2: no excess cards); This Crew Does What It Takes: or has no card of that type."""
    if g.jobs[p] < 0 or g.job_status[p] != OPEN or g.face_down[p]:
        return False
    if missing(g, p, c) == 0:
        return False
    on = int(g.placed[p, t])
    if on < c.job_req[g.jobs[p], t]:
        return True
    return g.scenario == CREW_DOES and on == 0


@jit
def any_placeable(g, t: int, c) -> bool:
    for p in range(6):
        if placeable(g, t, p, c):
            return True
    return False


@jit
def start_assign(g, c) -> None:
    """Choose one type (mandatory) unless the hand is empty: then straight to Resolve Jobs."""
    if total(g.hand) == 0:
        resolve_jobs(g, c)
    else:
        g.phase = CHOOSE_TYPE


@jit
def place_chosen(g, c) -> None:
    """Place the chosen type's cards one at a time while a job can take one; the rest of them
    are discarded (D-S2). Then the paid extras."""
    t = int(g.chosen)
    if g.hand[t] > 0 and any_placeable(g, t, c):
        g.phase = PLACE
        return
    g.discarded += g.hand[t]
    g.hand[t] = 0
    g.phase = PAID


@jit
def on_choose(g, a: int, c) -> None:
    g.chosen = a - A_CHOOSE
    place_chosen(g, c)


@jit
def on_place(g, a: int, c) -> None:
    if a < A_PLACE:
        scout(g, a)
        return
    t = int(g.chosen)
    g.placed[a - A_PLACE, t] += 1
    g.hand[t] -= 1
    place_chosen(g, c)


@jit
def on_paid(g, a: int, c) -> None:
    """10K per extra card placed, 10K per card shuffled into the next round's deck (D-S3: a
    uniform position), a wildcard JoAT on a job (free), a scout; then the cards to keep."""
    if a >= A_PAY_PLACE and a < A_PAY_SHUFFLE:
        t, p = (a - A_PAY_PLACE) // 6, (a - A_PAY_PLACE) % 6
        g.cash -= 1
        g.hand[t] -= 1
        g.placed[p, t] += 1
    elif a >= A_PAY_SHUFFLE and a < A_PLACE_JOAT:
        t = a - A_PAY_SHUFFLE
        g.cash -= 1
        g.hand[t] -= 1
        d = active(g) + 1
        n = int(g.deck_len[d])
        pos = int(np.floor(misc_uniform(g) * (n + 1)))
        for i in range(n, pos, -1):
            g.decks[d, i] = g.decks[d, i - 1]
        g.decks[d, pos] = t
        g.deck_len[d] += 1
        g.known[d, t] += 1
        g.seen[t] -= 1  # back among the cards to draw (known to lie in that deck)
    elif a >= A_PLACE_JOAT and a < A_KEEP:
        g.joat -= 1
        g.joat_on[a - A_PLACE_JOAT] += 1
    elif a < A_DONE:
        scout(g, a)
    else:
        g.phase = KEEP
        g.kept[:] = 0


@jit
def on_keep(g, a: int, c) -> None:
    """10K per card kept for the next turn; the rest are discarded."""
    if a < A_DONE:
        scout(g, a)
        return
    if a != A_DONE:
        g.cash -= 1
        g.kept[a - A_KEEP] += 1
        return
    for t in range(NT):
        g.discarded += int(g.hand[t]) - int(g.kept[t])
        g.hand[t] = g.kept[t]
    g.kept[:] = 0
    resolve_jobs(g, c)


# == Phase 3 - Resolve Jobs ========================================================================
@jit
def resolve_jobs(g, c) -> None:
    """Completed jobs pay and are discarded with their crew; each lets me reveal a face-down
    job (D-S4); Simultaneous Plunder: each owes a vault round."""
    g.chosen = -1
    for p in range(6):
        if g.jobs[p] >= 0 and g.job_status[p] == OPEN and not g.face_down[p] and \
                missing(g, p, c) == 0:
            complete(g, p, c)
    next_owed(g, c)


@jit
def complete(g, p: int, c) -> None:
    j = int(g.jobs[p])
    cops = int(g.job_tokens[p, C.COPS])
    if g.scenario == HEAT and cops > 0:  # no payout; every token goes back (D-S6)
        for v in range(NV):
            g.bag[v] += g.job_tokens[p, v]
    else:
        g.cash += c.job_cash[j]
        g.payout[c.job_token[j]] += 1
        for v in range(NL):  # The Heat Is On: the tokens are an extra payout
            g.vault_pile[v] += g.job_tokens[p, v]
    g.job_tokens[p, :] = 0
    for t in range(NT):
        if g.scenario == BETRAY:
            g.aside[t] += g.placed[p, t]
        else:
            g.discarded += g.placed[p, t]
        g.placed[p, t] = 0
    g.joat_on[p] = 0
    g.job_status[p] = DONE
    g.jobs_done += 1
    if face_down_left(g) > 0:
        g.reveals_owed += 1
    if g.scenario == PLUNDER:
        g.vault_rounds_owed += 1


@jit
def face_down_left(g) -> int:
    n = 0
    for p in range(6):
        n += g.jobs[p] >= 0 and g.job_status[p] == OPEN and g.face_down[p]
    return n


@jit
def next_owed(g, c) -> None:
    """The reveals owed, then Simultaneous Plunder's vault rounds, then the round-end check."""
    if g.reveals_owed > 0 and face_down_left(g) > 0:
        g.phase = REVEAL
        return
    g.reveals_owed = 0
    if g.vault_rounds_owed > 0:
        g.vault_rounds_owed -= 1
        rob(g, c)
        return
    end_of_turn(g, c)


@jit
def on_reveal(g, a: int, c) -> None:
    p = 3 + a - A_REVEAL
    g.face_down[p] = 0
    g.jobs_seen[g.jobs[p]] = 1
    g.reveals_owed -= 1
    next_owed(g, c)


@jit
def end_of_turn(g, c) -> None:
    """A new turn while the round's deck has cards; else the round ends: unfinished jobs are
    discarded with their crew (The Heat Is On: their Cops go to the track, the other tokens
    leave the game, and 4 Cops lose)."""
    if g.deck_len[active(g)] > 0:
        start_turn(g, c)
        return
    for p in range(6):
        if g.jobs[p] >= 0 and g.job_status[p] == OPEN:
            g.discarded += total(g.placed[p])
            g.cops_track += g.job_tokens[p, C.COPS]
            g.tokens_out += total(g.job_tokens[p]) - int(g.job_tokens[p, C.COPS])
        g.placed[p, :] = 0
        g.job_tokens[p, :] = 0
        g.joat_on[p] = 0  # a wildcard on a job is spent (S-04)
        g.jobs[p] = -1
        g.job_status[p] = EMPTY
        g.face_down[p] = 0
        g.scouted[p] = 0
    if g.scenario == HEAT and g.cops_track >= HEAT_LOSE_AT:
        g.lost = 1
        game_end(g, c)
    elif g.stage < ROUND3:
        round_setup(g, c)
    elif g.scenario == CREW_DOES:
        g.phase = BUY_HD
    else:
        start_act2(g, c)


@jit
def on_buy_hd(g, a: int, c) -> None:
    """This Crew Does What It Takes: $100K buys a Hard Drive at the end of Act I."""
    if a == A_BUY_HD:
        g.cash -= HD_COST
        g.payout[C.HARD_DRIVE] += 1
    else:
        start_act2(g, c)


# == Solo Act II › The Big Score ===================================================================
@jit
def start_act2(g, c) -> None:
    """The vault (no Floor). Betray the Traitor: one crew card of each type from the
    completed jobs forms the row; the rest are shuffled for the flight."""
    if not has_act2(int(g.scenario)):
        game_end(g, c)
        return
    g.stage = ACT2
    if g.scenario == BETRAY:
        for t in range(NT):
            if g.aside[t] > 0:
                g.row[t] = 1
                g.aside[t] -= 1
    g.phase = ROB_FLEE


@jit
def row_size(g) -> int:
    return total(g.row)


@jit
def on_rob_flee(g, a: int, c) -> None:
    if a == A_ROB:
        rob(g, c)
    else:
        flee(g, c)


@jit
def rob(g, c) -> None:
    """Draw three tokens. Crypto Currency: Cops drawn with a Digital Key go back. Then the
    bribe (when more than one Cops can be bribed and I can pay), the Cops, the loot."""
    g.robberies += 1
    g.drawn[:] = 0
    for _ in range(3):
        v = draw_token(g)
        if v >= 0:
            g.drawn[v] += 1
    cops = int(g.drawn[C.COPS])
    if g.scenario == CRYPTO and g.drawn[C.KEY] > 0 and cops > 0:
        g.bag[C.COPS] += cops
        g.drawn[C.COPS] = 0
        cops = 0
    if g.scenario == BETRAY:  # the drawn Cops wait in `drawn` for their crew cards
        place_cops_on_crew(g, c)
        return
    g.to_bribe = max(cops - 1, 0)
    if g.to_bribe > 0 and bribe_cash(g) >= BRIBE_COST:
        g.phase = BRIBE
        return
    place_cops(g, 0, c)


@jit
def bribe_cash(g) -> int:
    """Cash that may bribe: vault cash only (D-S5); Simultaneous Plunder: any cash."""
    n = 0
    for v in range(CASH_TYPES):
        n += CASH_FACE[v] * int(g.vault_pile[v])
    if g.scenario == PLUNDER:
        n += int(g.cash)
    return n


@jit
def pay_bribe(g, amount: int) -> None:
    """Pay `amount` with the vault's cash tokens (no change) and, in Simultaneous Plunder, the
    supply's cash (exact): the least overpaid, then the least supply cash, then the fewest
    tokens (D-S5)."""
    supply = int(g.cash) if g.scenario == PLUNDER else 0
    best_over, best_rest, best_n = 1 << 30, 1 << 30, 1 << 30
    pick = np.zeros(4, np.int64)
    for a in range(int(g.vault_pile[0]) + 1):
        for b in range(int(g.vault_pile[1]) + 1):
            for d in range(int(g.vault_pile[2]) + 1):
                for e in range(int(g.vault_pile[3]) + 1):
                    s = 2 * a + 3 * b + 5 * d + 10 * e
                    rest = max(amount - s, 0)
                    if rest > supply:
                        continue
                    over, n = max(s - amount, 0), a + b + d + e
                    better = over < best_over or (over == best_over and (
                        rest < best_rest or (rest == best_rest and n < best_n)))
                    if better:
                        best_over, best_rest, best_n = over, rest, n
                        pick[0], pick[1], pick[2], pick[3] = a, b, d, e
    for v in range(CASH_TYPES):  # paid tokens leave the game
        g.vault_pile[v] -= pick[v]
        g.tokens_out += pick[v]
    g.cash -= best_rest


@jit
def on_bribe(g, a: int, c) -> None:
    b = a - A_BRIBE
    if b > 0:
        pay_bribe(g, BRIBE_COST * b)
    place_cops(g, b, c)


@jit
def place_cops(g, bribed: int, c) -> None:
    """One Cops is always placed, the bribed ones go back into the bag; 5 on the track bust
    (D-S8: the placed Cops stay, the drawn loot and my vault loot go back)."""
    cops = int(g.drawn[C.COPS])
    g.bag[C.COPS] += bribed
    g.cops_track += cops - bribed
    g.drawn[C.COPS] = 0
    g.to_bribe = 0
    if g.cops_track >= BUST_AT:
        bust(g, c)
        return
    keep_loot(g, c)


@jit
def bust(g, c) -> None:
    g.busted = 1
    for v in range(NV):  # Betray the Traitor: the Cops not yet on a crew card too
        g.bag[v] += g.drawn[v]
        g.drawn[v] = 0
        if v < NL:
            g.bag[v] += g.vault_pile[v]
            g.vault_pile[v] = 0
        for t in range(NT):
            g.bag[v] += g.row_tokens[t, v]
            g.row_tokens[t, v] = 0
    if g.scenario == PLUNDER:  # busted in Act I: the game is lost at once
        g.lost = 1
    game_end(g, c)


@jit
def loot_drawn(g) -> int:
    n = 0
    for v in range(NL):
        n += int(g.drawn[v])
    return n


@jit
def keep_loot(g, c) -> None:
    """Take one drawn token, then remove one from the game, then return the last."""
    if loot_drawn(g) > 0:
        g.phase = KEEP_TOKEN
    else:
        after_robbery(g, c)


@jit
def on_keep_token(g, a: int, c) -> None:
    v = a - A_KEEP_TOKEN
    g.drawn[v] -= 1
    if g.scenario == BETRAY:
        g.pending = v
        g.phase = TRAITOR
        return
    g.vault_pile[v] += 1
    remove_loot(g, c)


@jit
def remove_loot(g, c) -> None:
    if loot_drawn(g) > 0:
        g.phase = REMOVE_TOKEN
    else:
        after_robbery(g, c)


@jit
def on_remove_token(g, a: int, c) -> None:
    g.drawn[a - A_REMOVE_TOKEN] -= 1
    g.tokens_out += 1
    for v in range(NL):
        g.bag[v] += g.drawn[v]
        g.drawn[v] = 0
    after_robbery(g, c)


@jit
def after_robbery(g, c) -> None:
    """Act II: rob or flee again; Simultaneous Plunder: back to what Phase 3 still owes."""
    g.drawn[:] = 0
    g.phase = ROB_FLEE if g.stage == ACT2 else NEXT_OWED


@jit
def flee(g, c) -> None:
    """Leave with the loot. Betray the Traitor: the next 2 crew cards name the traitors; the
    tokens on their crew cards go back into the vault, the rest are mine."""
    if g.scenario == BETRAY:
        left = total(g.aside)
        for i in range(2):
            if left == 0:
                break
            k = int(np.floor(misc_uniform(g) * left))
            t = 0
            while k >= g.aside[t]:
                k -= g.aside[t]
                t += 1
            g.aside[t] -= 1
            g.discarded += 1
            left -= 1
            g.traitors[i] = t
        for t in range(NT):
            traitor = g.traitors[0] == t or g.traitors[1] == t
            for v in range(NV):
                if traitor:
                    g.bag[v] += g.row_tokens[t, v]
                elif v < NL:
                    g.vault_pile[v] += g.row_tokens[t, v]
                else:
                    g.bag[v] += g.row_tokens[t, v]
                g.row_tokens[t, v] = 0
    game_end(g, c)


# == Betray the Traitor: tokens on the crew cards ==================================================
@jit
def crew_tokens(g, t: int) -> int:
    return total(g.row_tokens[t])


@jit
def fewest_tokens(g) -> int:
    low = 1 << 30
    for t in range(NT):
        if g.row[t]:
            low = min(low, crew_tokens(g, t))
    return low


@jit
def crew_takes(g, t: int, cop: bool) -> bool:
    """A token goes on a crew card with the fewest tokens (Cops included); a Cops only on one
    without a Cops yet (S-06)."""
    if not g.row[t] or crew_tokens(g, t) != fewest_tokens(g):
        return False
    return not cop or g.row_tokens[t, C.COPS] == 0


@jit
def place_cops_on_crew(g, c) -> None:
    """Each Cops drawn goes on a crew card; none legal, or every card with a Cops: busted."""
    if g.drawn[C.COPS] > 0:
        for t in range(NT):
            if crew_takes(g, t, True):
                g.pending = C.COPS
                g.phase = TRAITOR
                return
        bust(g, c)
        return
    keep_loot(g, c)


@jit
def on_traitor(g, a: int, c) -> None:
    t = a - A_TRAITOR
    v = int(g.pending)
    g.row_tokens[t, v] += 1
    g.pending = -1
    if v == C.COPS:
        g.drawn[C.COPS] -= 1
        every = True
        for s in range(NT):
            if g.row[s] and g.row_tokens[s, C.COPS] == 0:
                every = False
        if every:
            bust(g, c)
            return
        place_cops_on_crew(g, c)
        return
    remove_loot(g, c)


# == Solo Game End =================================================================================
@jit
def game_end(g, c) -> None:
    g.stage = OVER
    g.phase = NONE
    scalar.game_over(g)


@jit
def holdings(g) -> tuple[int, int, int, int, int, int, int]:
    """(cash, artifacts, diamonds, hard drives, keys, silver, gold): the supply and the vault."""
    cash = int(g.cash)
    for v in range(CASH_TYPES):
        cash += CASH_FACE[v] * int(g.vault_pile[v])
    return (cash, int(g.payout[C.ARTIFACT]) + int(g.vault_pile[C.V_ARTIFACT]),
            int(g.payout[C.DIAMOND]) + int(g.vault_pile[C.V_DIAMOND]),
            int(g.payout[C.HARD_DRIVE]), int(g.vault_pile[C.KEY]),
            int(g.vault_pile[C.SILVER]), int(g.vault_pile[C.GOLD]))


@jit
def take(g) -> int:
    """RB › Solo Game End: the total take, scored as in the multiplayer game without the
    Artifact bonus or the Hacker (D-S7, D-25)."""
    cash, art, dia, hd, key, silver, gold = holdings(g)
    return (cash + C.SILVER_VALUE * silver + C.GOLD_VALUE * gold + diamond_value(dia)
            + C.ARTIFACT_FACE * art + C.PAIR_VALUE * min(hd, key))


@jit
def unlocked_drives(g) -> int:
    """Hard Drives with a Digital Key; Crypto Currency: the Gold Bar as a key or a drive."""
    _, _, _, hd, key, _, gold = holdings(g)
    best = min(hd, key)
    if g.scenario == CRYPTO and gold > 0:
        best = max(min(hd + 1, key), min(hd, key + 1))
    return best


@jit
def objective_met(g) -> bool:
    """The scenario's objective (RB › Solo Scenarios)."""
    if g.lost:
        return False
    s = int(g.scenario)
    cash, art, dia, _, _, silver, gold = holdings(g)
    if s == BIGGEST or s == JOAT_SHOW or s == PLUNDER:
        return take(g) >= 150
    if s == BIGGEST_2M:
        return take(g) >= 200
    if s == DIAMOND_THIEF:  # the black market: 3 Artifacts or $250K per Diamond
        return dia + art // 3 + cash // 25 >= 11
    if s == PAINTINGS:
        return art >= 5 and cash >= 50
    if s == CRYPTO:
        return unlocked_drives(g) >= 4
    if s == HEAT:
        return g.jobs_done >= 8 and take(g) > 150
    if s == BETRAY:
        return take(g) >= 120
    # CREW_DOES
    return (cash + C.SILVER_VALUE * silver + C.GOLD_VALUE * gold >= 80 and dia >= 3
            and art >= 3 and unlocked_drives(g) >= 3)


@jit
def scores(g, out: np.ndarray, c) -> None:
    out[0] = take(g)


@jit
def rank_keys(g, out: np.ndarray, c) -> None:
    """1 when the objective is met, else 0 (a solo game's win)."""
    out[0] = objective_met(g)


# == the step ======================================================================================
@jit
def apply(g, a: int, c) -> None:
    d = int(g.phase)
    if d == REMOVE_TYPE:
        on_remove_type(g, a, c)
    elif d == MANIPULATE:
        on_manipulate(g, a, c)
    elif d == CHOOSE_TYPE:
        if a < A_DONE:
            scout(g, a)
        else:
            on_choose(g, a, c)
    elif d == PLACE:
        on_place(g, a, c)
    elif d == PAID:
        on_paid(g, a, c)
    elif d == KEEP:
        on_keep(g, a, c)
    elif d == REVEAL:
        on_reveal(g, a, c)
    elif d == ROB_FLEE:
        on_rob_flee(g, a, c)
    elif d == BRIBE:
        on_bribe(g, a, c)
    elif d == KEEP_TOKEN:
        on_keep_token(g, a, c)
    elif d == REMOVE_TOKEN:
        on_remove_token(g, a, c)
    elif d == BUY_HD:
        on_buy_hd(g, a, c)
    elif d == TRAITOR:
        on_traitor(g, a, c)


@jit
def resume(g, c) -> None:
    """Play the automatic points (a Plunder vault round's end), then set the mask."""
    while g.phase == NEXT_OWED:
        next_owed(g, c)
    if g.phase != NONE:
        refresh_mask(g, c)


# == masks =========================================================================================
@jit
def refresh_mask(g, c) -> int:
    m = g.legal_action_mask
    m[:] = 0
    d = int(g.phase)
    if d == NONE:
        return 0
    g.current_player = 0
    cash = int(g.cash)
    if MANIPULATE <= d <= KEEP:  # RB: scout at any time during Phase 1 or 2
        for p in range(3):
            m[A_SCOUT + p] = (cash >= SCOUT_COST and g.jobs[3 + p] >= 0 and g.face_down[3 + p]
                              and g.job_status[3 + p] == OPEN and not g.scouted[3 + p])
    if d == REMOVE_TYPE:
        for t in range(NT):
            m[A_REMOVE_TYPE + t] = 1
    elif d == MANIPULATE:
        deck = g.deck_len[active(g)] > 0 and cash >= 1
        for t in range(NT):
            m[A_DISCARD + t] = deck and g.hand[t] > 0
        m[A_DRAW_ONE] = deck
        m[A_DONE] = 1
    elif d == CHOOSE_TYPE:
        for t in range(NT):
            m[A_CHOOSE + t] = g.hand[t] > 0
    elif d == PLACE:
        for p in range(6):
            m[A_PLACE + p] = placeable(g, int(g.chosen), p, c)
    elif d == PAID:
        for t in range(NT):
            if g.hand[t] > 0 and cash >= 1:
                for p in range(6):
                    m[A_PAY_PLACE + 6 * t + p] = placeable(g, t, p, c)
                m[A_PAY_SHUFFLE + t] = g.stage < ROUND3
        if g.joat > 0:
            for p in range(6):
                m[A_PLACE_JOAT + p] = (g.jobs[p] >= 0 and g.job_status[p] == OPEN
                                       and not g.face_down[p] and missing(g, p, c) > 0)
        m[A_DONE] = 1
    elif d == KEEP:
        for t in range(NT):
            m[A_KEEP + t] = cash >= 1 and g.hand[t] > g.kept[t]
        m[A_DONE] = 1
    elif d == REVEAL:
        for p in range(3):
            m[A_REVEAL + p] = (g.jobs[3 + p] >= 0 and g.job_status[3 + p] == OPEN
                               and g.face_down[3 + p])
    elif d == ROB_FLEE:
        m[A_ROB] = total(g.bag) > 0 and (g.scenario != BETRAY or row_size(g) > 0)
        m[A_FLEE] = 1
    elif d == BRIBE:
        eligible = bribe_cash(g)
        for b in range(3):
            m[A_BRIBE + b] = b <= g.to_bribe and BRIBE_COST * b <= eligible
    elif d == KEEP_TOKEN:
        for v in range(NL):
            m[A_KEEP_TOKEN + v] = g.drawn[v] > 0
    elif d == REMOVE_TOKEN:
        for v in range(NL):
            m[A_REMOVE_TOKEN + v] = g.drawn[v] > 0
    elif d == BUY_HD:
        m[A_BUY_HD] = cash >= HD_COST
        m[A_DONE] = 1
    elif d == TRAITOR:
        for t in range(NT):
            m[A_TRAITOR + t] = crew_takes(g, t, g.pending == C.COPS)
    n = 0
    for a in range(NUM_ACTIONS):
        n += m[a]
    return n


# == the observation ===============================================================================
@jit
def observe(g, me: int, out: np.ndarray, c) -> None:
    """Everything the solo player knows (`solo_kernel.build_observation_layout`): all but the
    order of the crew decks and of the bag, and the face-down jobs he has not scouted."""
    out[:] = 0.0
    acting = g.current_player == 0
    i = mark_hot(out, 0, NUM_SCENARIOS, int(g.scenario))
    i = mark_hot(out, i, 6, int(g.stage))
    i = mark_hot(out, i, NUM_DECISIONS, int(g.phase) if acting else 0)
    i = put_capped(out, i, g.cash, F120)
    for k in range(3):
        i = put(out, i, g.payout[k], F10)
    for t in range(NT):
        i = put(out, i, g.hand[t], F15)
    for t in range(NT):
        i = put(out, i, g.kept[t], F15)
    i = mark_hot(out, i, NT, int(g.chosen))
    i = mark_hot(out, i, NT, int(g.removed_type))
    i = put(out, i, g.joat, F6)
    i = put(out, i, g.jobs_done, F18)
    i = put(out, i, g.reveals_owed, F6)
    i = put_capped(out, i, take(g), F300)
    # the crew: deck sizes, what is still unseen per type, my shuffle-ins still in a deck
    for d in range(3):
        i = put(out, i, g.deck_len[d], F90)
    for t in range(NT):
        left = 0 if t == g.removed_type else 15 - int(g.seen[t])
        i = put(out, i, left, F15)
    for t in range(NT):
        i = put(out, i, int(g.known[1, t]) + int(g.known[2, t]), F15)
    i = put(out, i, g.discarded, F90)
    # the jobs
    for p in range(6):
        j = int(g.jobs[p])
        shown = j >= 0 and (not g.face_down[p] or g.scouted[p])
        i = mark_hot(out, i, 3, int(g.job_status[p]))
        i = put(out, i, g.face_down[p], ONE)
        i = put(out, i, g.scouted[p], ONE)
        if shown:
            for t in range(NT):
                i = put(out, i, c.job_req[j, t], F3)
            i = put(out, i, c.job_cash[j], F5)
            i = mark_hot(out, i, 3, int(c.job_token[j]))
            i = put(out, i, missing(g, p, c) if not g.face_down[p] else 0, F6)
        else:
            i += NT + 1 + 3 + 1
        for t in range(NT):
            i = put(out, i, g.placed[p, t], F3)
        i = put(out, i, g.joat_on[p], F6)
        for v in range(NV):
            i = put(out, i, g.job_tokens[p, v], F2)
    for j in range(24):
        i = put(out, i, g.jobs_seen[j], ONE)
    # the vault
    bag = total(g.bag)
    for v in range(NV):
        i = put(out, i, g.bag[v], F10)
    i = put(out, i, bag, F62)
    i = put_capped(out, i, g.cops_track, F5)
    for v in range(NV):
        i = put(out, i, g.drawn[v], F3)
    for v in range(NL):
        i = put(out, i, g.vault_pile[v], F10)
    i = put_capped(out, i, bribe_cash(g), F30)
    i = put(out, i, g.to_bribe, F2)
    # Betray the Traitor
    for t in range(NT):
        i = put(out, i, g.row[t], ONE)
        for v in range(NV):
            i = put_capped(out, i, g.row_tokens[t, v], F10)
    for t in range(NT):
        i = put(out, i, g.aside[t], F15)
    i = mark_hot(out, i, NV, int(g.pending))
    for k in range(2):
        i = mark_hot(out, i, NT, int(g.traitors[k]))


DRIVERS = load_drivers("big_score_solo", HERE, setup=setup, resume=resume, apply=apply,
                       refresh_mask=refresh_mask, observe=observe, scores=scores,
                       rank_keys=rank_keys)
