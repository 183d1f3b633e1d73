"""The Big Deal rules as compiled scalar functions over one game's record `g`, ordered like the
rulebook: Set up, the Play (draw, income, the optional actions: resources, shares, companies,
hostile takeovers), Cash Cards, Game End; then the masks and the observation.

A turn is a sequence of decisions of the turn owner (MAIN), with sub-decisions for the
multi-part actions: a hostile takeover is target -> cards committed one by one -> bids that
alternate between attacker and defender (each raise a multiple of $50M chosen as tens, then
ones, of $50M) -> the attacker realising assets when his cash falls short -> the defender
placing won shares; a premium is a first target, then a second or none. `resume` plays the
automatic parts (the draw, the income) until a decision waits or the game is over.
Money is in units of $50M throughout.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..core import scalar
from ..core.jit import jit, load_drivers
from ..core.scalar import put_capped, put_hot
from . import components as C

HERE = Path(__file__).resolve().parent

# -- decisions, then the automatic states (NumPy ints: see the core's notes on literals) ------
NONE, MAIN, COMMIT, BID, BID_ONES, RAISE_FUNDS, PREMIUM_SECOND, PLACE = np.arange(8)
NUM_DECISIONS = 8
TURN_START, GAME_OVER = np.arange(8, 10)
DECISION_NAMES = ("none", "main", "commit", "bid", "bid ones", "raise funds",
                  "premium second", "place share")

# -- actions: 153 ids whatever the player count ------------------------------------------------
NCO, NR, NS = C.NUM_CO, C.NUM_RES, C.NUM_SLOTS
MAXP = 6  # the largest player count: relative seats 1..5 address opponents
A_END = np.int64(0)
A_BUY_RES = np.int64(1)
A_SELL_RES = A_BUY_RES + NR  # 5
A_BUY_SHARE = A_SELL_RES + NR  # 9
A_SELL_SHARE = A_BUY_SHARE + NCO  # 20
A_FOUND = A_SELL_SHARE + NCO  # 31
A_ADD = A_FOUND + NCO  # 42
A_WITHDRAW = A_ADD + NS  # 50
A_CLOSE = A_WITHDRAW + NS  # 58
A_SELL_BRANCH = A_CLOSE + NS  # 66
A_TAKEOVER = A_SELL_BRANCH + NS  # 74: + 8 (k - 1) + slot
A_COMMIT_SHARE = A_TAKEOVER + (MAXP - 1) * NS  # 114
A_COMMIT_CASH = A_COMMIT_SHARE + 1  # 115
A_COMMIT_DONE = A_COMMIT_CASH + 1  # 116
BID_TENS = 6  # a raise is 10 t + o units: t in 0..5 ...
A_TENS = A_COMMIT_DONE + 1  # 117
A_ONES = A_TENS + BID_TENS  # 123: ... and o in 0..9
A_DROP = A_ONES + 10  # 133
A_PREMIUM = A_DROP + 1  # 134: + k - 1
A_PREMIUM_FINISH = A_PREMIUM + MAXP - 1  # 139
A_SELL_FRESH = A_PREMIUM_FINISH + 1  # 140
A_PLACE_COMPANY = A_SELL_FRESH + NCO  # 151
A_PLACE_HAND = A_PLACE_COMPANY + 1  # 152
NUM_ACTIONS = int(A_PLACE_HAND) + 1  # 153

# RNG streams
S_SPLIT, S_TOP, S_BOTTOM, S_DISCARD, S_RESAMPLE = np.arange(1, 6)

# -- the state of one game ----------------------------------------------------------------------
STATE_FIELDS = (
    ("cash", np.int32, ("N",), "money in units of $50M"),
    ("hand", np.int8, ("N", NCO), "shares in hand per company"),
    ("hand_cash", np.int8, ("N",), "cash cards in hand"),
    ("res_free", np.int8, ("N", NR), "unassigned resources (in front of the player)"),
    ("br_co", np.int8, ("N", NS), "company of each branch slot, -1 empty"),
    ("br_sh", np.int8, ("N", NS), "shares of each branch"),
    ("out", np.int8, (NR,), "resources taken from each wheel (14 - out remain)"),
    ("pool", np.int8, (NCO,), "shares pool: shares sold to the bank, buyable"),
    ("waste", np.int8, (NCO,), "waste heap: shares out of play"),
    ("cash_gone", np.int8, (), "cash cards played or discarded"),
    ("deck", np.int8, (C.MAX_DECK,), "card codes (0-10 company, 11 cash, 12 Game Over); "
     "the top is deck[deck_len - 1]"),
    ("deck_len", np.int8, (), "cards in the draw pile"),
    ("bottom_size", np.int8, (), "cards of the bottom half (the first ones of `deck`)"),
    ("go_revealed", np.int8, (), "Game Over cards on the board"),
    ("in_game", np.bool_, (NCO,), "companies in this player count's deck"),
    ("shares_per_co", np.int8, (), "shares of each company in the game"),
    ("cash_cards", np.int8, (), "cash cards in the game"),
    ("dec", np.int8, (), "pending decision (or automatic state)"),
    ("turn_owner", np.int8, (), "whose turn it is"),
    ("turn_idx", np.int16, (), "turns begun so far"),
    ("drawn", np.int8, (), "card drawn this turn (handed back if the game ends)"),
    ("main_actions", np.int8, (), "optional actions taken this turn"),
    ("buys", np.int8, (), "resources bought this turn"),
    ("sells", np.int8, (), "resources sold this turn"),
    ("fresh", np.int8, (NCO,), "turn owner's hand shares won in a takeover this turn"),
    ("tk_wins", np.int8, (NCO,), "branches the turn owner took over this turn"),
    ("to_def", np.int8, (), "takeover: defender seat, -1 none"),
    ("to_slot", np.int8, (), "takeover: the defended branch slot"),
    ("to_co", np.int8, (), "takeover: company"),
    ("to_n_def", np.int8, (), "takeover: shares of the defended branch"),
    ("to_sh", np.int8, (), "takeover: attacker's committed shares"),
    ("to_cc", np.int8, (), "takeover: attacker's committed cash cards"),
    ("to_pa", np.int16, (), "takeover: attacker's offer per defender share (W - 1 before)"),
    ("to_pd", np.int16, (), "takeover: defender's offer per attacker card (W - 1 before)"),
    ("to_bids", np.int8, (), "takeover: bids made so far"),
    ("to_bidder", np.int8, (), "takeover: 0 the attacker bids next, 1 the defender"),
    ("to_tens", np.int8, (), "takeover: tens of the raise being chosen"),
    ("to_owed", np.int16, (), "takeover: what the winning attacker owes"),
    ("to_cash0", np.int32, (), "takeover: attacker's cash before the attempt"),
    ("to_place", np.int8, (), "takeover: won shares the defender has still to place"),
    ("prem_first", np.int8, (), "first premium target of the card being played, -1 none"),
    ("transfers", np.int32, ("N", 3), "public cash transfers since the last decision put to a "
     "player: income, money received, money paid (units)"),
    ("last_transfers", np.int32, ("N", 3), "the transfers of the previous step"),
    ("rng_ctr", np.uint64, (), "per-game random-event counter"),
)
CONFIG_FIELDS = (("shark", np.bool_), ("bonus", np.int64), ("rate", np.int64),
                 ("max_main", np.int64), ("bid_cap", np.int64),
                 ("raises", np.uint64),  # bit r set: a raise of r units is allowed (1..59)
                 ("takeover_income", np.bool_), ("liberal_fresh_sale", np.bool_),
                 ("liquidate_assigned", np.bool_), ("cash_card_only", np.bool_),
                 ("shares_to", np.int64),  # SHARES_TO_*: where the defender puts won shares
                 ("transfer_log", np.bool_))
SHARES_TO_CHOICE, SHARES_TO_COMPANY, SHARES_TO_HAND = np.arange(3)
IN, RECEIVED, PAID = np.arange(3)  # the columns of `transfers`: income, other gains, payments

# -- tables the compiled code reads (small: numba freezes them into the code) -------------------
WHITE, GREEN, REQ, PRICE = C.WHITE.copy(), C.GREEN.copy(), C.REQ.copy(), C.PRICE.copy()
REQ_TOTAL = C.REQ.sum(axis=1)
IN_GAME = np.zeros((7, NCO), np.bool_)
SHARES_BY_N = np.zeros(7, np.int64)
CASH_BY_N = np.zeros(7, np.int64)
START = np.zeros((7, MAXP), np.int64)
for _n in range(2, 7):
    IN_GAME[_n] = C.in_game(_n)
    SHARES_BY_N[_n] = C.DECK_BY_N[_n][1]
    CASH_BY_N[_n] = C.DECK_BY_N[_n][2]
    START[_n, :_n] = C.start_money(_n)
CASH_CARD, GO = np.int64(C.CASH_CARD), np.int64(C.GO_CARD)
HAND_LIMIT, WHEEL = C.HAND_LIMIT, C.WHEEL_SLOTS


# == small pieces =================================================================================
@jit
def hand_size(g, p: int) -> int:
    """Cards in p's hand: shares and cash cards."""
    n = int(g.hand_cash[p])
    for co in range(NCO):
        n += int(g.hand[p, co])
    return n


@jit
def income(g, p: int) -> int:
    """The green value of every open branch: one payment per branch, whatever its shares."""
    x = 0
    for s in range(NS):
        co = int(g.br_co[p, s])
        if co >= 0:
            x += GREEN[co]
    return x


@jit
def assigned(g, p: int, r: int) -> int:
    """Resources of type r assigned to p's branches (one set each)."""
    x = 0
    for s in range(NS):
        co = int(g.br_co[p, s])
        if co >= 0:
            x += REQ[co, r]
    return x


@jit
def owns_branch_of(g, p: int, co: int) -> bool:
    for s in range(NS):
        if g.br_co[p, s] == co:
            return True
    return False


@jit
def free_slot(g, p: int) -> int:
    for s in range(NS):
        if g.br_co[p, s] < 0:
            return s
    return -1


@jit
def has_set(g, p: int, co: int) -> bool:
    """p's unassigned resources hold a full set of co's."""
    for r in range(NR):
        if g.res_free[p, r] < REQ[co, r]:
            return False
    return True


@jit
def give(g, p: int, card: int) -> None:
    """A card joins p's hand."""
    if card == CASH_CARD:
        g.hand_cash[p] += 1
    else:
        g.hand[p, card] += 1


@jit(inline="always")
def earn(g, p: int, x: int, kind: int) -> None:
    """p receives x (income or another gain), in view of everyone."""
    g.cash[p] += x
    g.transfers[p, kind] += x


@jit(inline="always")
def spend(g, p: int, x: int) -> None:
    """p pays x, in view of everyone."""
    g.cash[p] -= x
    g.transfers[p, PAID] += x


@jit
def use_hand_share(g, p: int, co: int) -> None:
    """A share of co leaves p's hand; shares that are not fresh are used first."""
    g.hand[p, co] -= 1
    if p == g.turn_owner and g.fresh[co] > g.hand[p, co]:
        g.fresh[co] = g.hand[p, co]


@jit
def pop_top(g) -> int:
    g.deck_len -= 1
    return int(g.deck[int(g.deck_len)])


@jit
def reveal_top(g) -> bool:
    """Every Game Over card on top of the pile is turned over at once; True when the last one
    is."""
    while g.deck_len > 0 and g.deck[int(g.deck_len) - 1] == GO:
        g.deck_len -= 1
        g.go_revealed += 1
        if g.go_revealed >= C.GO_CARDS:
            return True
    return False


# == Set up =======================================================================================
@jit
def setup(g, c) -> None:
    """Full wheels; the deck adjusted by player count, shuffled, split in two, 3 Game Over
    cards shuffled into the top half and 4 into the bottom; 5 cards each (a Game Over card
    dealt is placed on the board and replaced); the starting money; seat 0 begins."""
    N = c.num_players
    n_sh = SHARES_BY_N[N]
    base = np.zeros(C.MAX_DECK, np.int64)
    n = 0
    for co in range(NCO):
        g.in_game[co] = IN_GAME[N, co]
        if IN_GAME[N, co]:
            for _ in range(n_sh):
                base[n] = co
                n += 1
    for _ in range(CASH_BY_N[N]):
        base[n] = CASH_CARD
        n += 1
    g.shares_per_co = n_sh
    g.cash_cards = CASH_BY_N[N]
    order = scalar.permutation(g.key, S_SPLIT, n)
    top_n = n // 2
    top = np.empty(top_n + C.GO_TOP, np.int64)
    for i in range(top_n):
        top[i] = base[order[i]]
    top[top_n:] = GO
    bot = np.empty(n - top_n + C.GO_BOTTOM, np.int64)
    for i in range(n - top_n):
        bot[i] = base[order[top_n + i]]
    bot[n - top_n:] = GO
    total = n + C.GO_CARDS
    pt = scalar.permutation(g.key, S_TOP, top.shape[0])
    pb = scalar.permutation(g.key, S_BOTTOM, bot.shape[0])
    for i in range(top.shape[0]):  # the top half, top card first, at the end of `deck`
        g.deck[total - 1 - i] = top[pt[i]]
    for i in range(bot.shape[0]):
        g.deck[bot.shape[0] - 1 - i] = bot[pb[i]]
    g.deck_len = total
    g.bottom_size = bot.shape[0]
    for p in range(g.br_co.shape[0]):
        for s in range(NS):
            g.br_co[p, s] = -1
    for k in range(C.HAND_LIMIT * N):
        card = pop_top(g)
        while card == GO:  # placed on the board and replaced
            g.go_revealed += 1
            card = pop_top(g)
        give(g, k % N, card)
    reveal_top(g)  # never the last one: dealing stays inside the top half
    for p in range(N):
        g.cash[p] = START[N, p]
    g.turn_owner = 0
    g.current_player = 0
    g.to_def = -1
    g.prem_first = -1
    g.dec = TURN_START


# == the step: one decision, then everything automatic up to the next one =========================
@jit
def apply(g, a: int, c) -> None:
    """Apply the pending decision's action (the drivers then `resume` play)."""
    d = int(g.dec)
    p = int(g.turn_owner)
    if d == MAIN:
        main(g, p, a, c)
    elif d == COMMIT:
        commit(g, p, a)
    elif d == BID:
        if a == A_DROP:
            drop(g, c)
        else:
            g.to_tens = a - A_TENS
            g.dec = BID_ONES
    elif d == BID_ONES:
        raise_bid(g, 10 * int(g.to_tens) + a - A_ONES)
    elif d == RAISE_FUNDS:
        sell(g, p, a, c)
        raise_funds(g, c)
    elif d == PREMIUM_SECOND:
        if a != A_PREMIUM_FINISH:
            premium(g, p, (p + a - A_PREMIUM + 1) % c.num_players, c)
        g.prem_first = -1
        g.dec = MAIN
    elif d == PLACE:
        place_share(g, a)


@jit
def resume(g, c) -> None:
    """Play the automatic states (the start of a turn, the end of the game) until a decision
    waits (its mask set) or the game is over."""
    for _ in range(16):
        d = int(g.dec)
        if d == TURN_START:
            turn_start(g, c)
        elif d == GAME_OVER:
            finish(g, c)
            return
        elif d == NONE:
            return
        else:
            n = refresh_mask(g, c)
            if not (c.auto_forced and n == 1):  # put to a player: the step's transfers are in
                close_transfers(g)
            return
    raise RuntimeError("big_deal: automatic play did not settle")


@jit
def close_transfers(g) -> None:
    """The transfers since the last decision put to a player become the previous step's."""
    for p in range(g.transfers.shape[0]):
        for k in range(3):
            g.last_transfers[p, k] = g.transfers[p, k]
            g.transfers[p, k] = 0


@jit
def finish(g, c) -> None:
    """The last Game Over card is exposed: the final tally (the liquidation) decides."""
    g.dec = NONE
    scalar.game_over(g)
    close_transfers(g)


# == The Play =====================================================================================
@jit
def turn_start(g, c) -> None:
    """Pick up the top card, then claim the income of every branch. A Game Over card exposed
    by the draw is turned over; if it is the last one the game ends at once, and the player
    hands the card back and gets no income."""
    p = int(g.turn_owner)
    g.turn_idx += 1
    if g.deck_len <= 0:  # cannot happen: the bottom half holds Game Over cards to the end
        g.dec = GAME_OVER
        return
    card = pop_top(g)
    g.drawn = card
    give(g, p, card)
    if reveal_top(g):
        if card == CASH_CARD:
            g.hand_cash[p] -= 1
        else:
            g.hand[p, card] -= 1
        g.deck[int(g.deck_len)] = card
        g.deck_len += 1
        g.dec = GAME_OVER
        return
    earn(g, p, income(g, p), IN)
    g.current_player = p
    g.dec = MAIN


@jit(inline="always")
def main(g, p: int, a: int, c) -> None:
    """END_TURN, or one optional action (each counts towards the turn's cap)."""
    if a == A_END:
        end_turn(g, c)
        return
    g.main_actions += 1
    if a < A_SELL_RES:
        buy_resource(g, p, a - A_BUY_RES)
    elif a < A_BUY_SHARE:
        sell(g, p, a, c)
    elif a < A_SELL_SHARE:
        co = a - A_BUY_SHARE
        spend(g, p, WHITE[co])
        g.pool[co] -= 1
        g.hand[p, co] += 1
    elif a < A_FOUND:
        sell(g, p, a, c)
    elif a < A_ADD:
        found(g, p, a - A_FOUND)
    elif a < A_WITHDRAW:
        s = a - A_ADD
        use_hand_share(g, p, int(g.br_co[p, s]))
        g.br_sh[p, s] += 1
    elif a < A_CLOSE:
        s = a - A_WITHDRAW
        g.br_sh[p, s] -= 1
        g.hand[p, int(g.br_co[p, s])] += 1
    elif a < A_SELL_BRANCH:
        close_branch(g, p, a - A_CLOSE)
    elif a < A_TAKEOVER:
        sell(g, p, a, c)
    elif a < A_COMMIT_SHARE:
        k = (a - A_TAKEOVER) // NS + 1
        start_takeover(g, p, (p + k) % c.num_players, (a - A_TAKEOVER) % NS)
    elif A_PREMIUM <= a < A_PREMIUM_FINISH:
        g.hand_cash[p] -= 1
        g.cash_gone += 1
        o = (p + a - A_PREMIUM + 1) % c.num_players
        premium(g, p, o, c)
        g.prem_first = o
        g.dec = PREMIUM_SECOND
    else:
        sell(g, p, a, c)


@jit
def end_turn(g, c) -> None:
    """The takeover income, the hand limit (excess cards discarded at random), then the
    next player clockwise."""
    p = int(g.turn_owner)
    for co in range(NCO):
        if c.takeover_income and g.tk_wins[co] > 0 and owns_branch_of(g, p, co):
            earn(g, p, int(g.tk_wins[co]) * GREEN[co], IN)
        g.tk_wins[co] = 0
        g.fresh[co] = 0
    counts = np.zeros(NCO + 1, np.int64)
    while hand_size(g, p) > HAND_LIMIT:
        for co in range(NCO):
            counts[co] = g.hand[p, co]
        counts[NCO] = g.hand_cash[p]
        u = scalar.uniform(g.key, S_DISCARD, g.rng_ctr)
        g.rng_ctr += np.uint64(1)
        k = scalar.draw_from_counts(counts, u)
        if k == NCO:
            g.hand_cash[p] -= 1
            g.cash_gone += 1
        else:
            g.hand[p, k] -= 1
            g.waste[k] += 1
    g.main_actions = 0
    g.buys = 0
    g.sells = 0
    g.turn_owner = (p + 1) % c.num_players
    g.dec = TURN_START


# -- 1. resources ---------------------------------------------------------------------------------
@jit
def buy_resource(g, p: int, r: int) -> None:
    """At the price of the wheel's next slot."""
    spend(g, p, PRICE[r, int(g.out[r])])
    g.out[r] += 1
    g.res_free[p, r] += 1
    g.buys += 1


@jit
def sell(g, p: int, a: int, c) -> None:
    """The sales (also the ways to realise assets in a takeover): a resource back to its
    wheel, a share to the pool at its white value, a fresh share or a whole branch to the
    bank at white + the bonus per share."""
    if A_SELL_RES <= a < A_BUY_SHARE:
        r = a - A_SELL_RES
        g.out[r] -= 1
        earn(g, p, PRICE[r, int(g.out[r])], RECEIVED)
        g.res_free[p, r] -= 1
        g.sells += 1
    elif A_SELL_SHARE <= a < A_FOUND:
        co = a - A_SELL_SHARE
        use_hand_share(g, p, co)
        earn(g, p, WHITE[co], RECEIVED)
        g.pool[co] += 1
    elif A_SELL_BRANCH <= a < A_TAKEOVER:
        s = a - A_SELL_BRANCH
        co = int(g.br_co[p, s])
        k = int(g.br_sh[p, s])
        earn(g, p, k * (WHITE[co] + c.bonus), RECEIVED)
        g.waste[co] += k
        close_branch(g, p, s)
        g.hand[p, co] -= k
    elif A_SELL_FRESH <= a < A_PLACE_COMPANY:
        co = a - A_SELL_FRESH
        k = 1  # any number of them (D-BD-18); strictly, all or none without a resource set
        if not c.liberal_fresh_sale and not has_set(g, p, co):
            k = int(g.fresh[co])
        g.hand[p, co] -= k
        g.fresh[co] -= k
        earn(g, p, k * (WHITE[co] + c.bonus), RECEIVED)
        g.waste[co] += k


# -- 3.-6. companies ------------------------------------------------------------------------------
@jit
def found(g, p: int, co: int) -> None:
    """Two shares from hand open a branch in the lowest free slot, with one resource set."""
    s = free_slot(g, p)
    use_hand_share(g, p, co)
    use_hand_share(g, p, co)
    g.br_co[p, s] = co
    g.br_sh[p, s] = 2
    for r in range(NR):
        g.res_free[p, r] -= REQ[co, r]


@jit
def close_branch(g, p: int, s: int) -> None:
    """All shares back to hand; the resources stay with the player, unassigned."""
    co = int(g.br_co[p, s])
    g.hand[p, co] += g.br_sh[p, s]
    for r in range(NR):
        g.res_free[p, r] += REQ[co, r]
    g.br_co[p, s] = -1
    g.br_sh[p, s] = 0


# -- 7. hostile takeover --------------------------------------------------------------------------
@jit
def start_takeover(g, p: int, y: int, s: int) -> None:
    """Target y's branch in slot s; the attacker then commits cards."""
    co = int(g.br_co[y, s])
    g.to_def = y
    g.to_slot = s
    g.to_co = co
    g.to_n_def = g.br_sh[y, s]
    g.to_sh = 0
    g.to_cc = 0
    g.to_pa = WHITE[co] - 1  # so that a raise of one unit opens at the white value
    g.to_pd = WHITE[co] - 1
    g.to_bids = 0
    g.to_bidder = 0
    g.to_cash0 = g.cash[p]
    g.dec = COMMIT


@jit(inline="always")
def commit(g, p: int, a: int) -> None:
    """One more share of the company, or a cash card in its place; or done: the bidding."""
    if a == A_COMMIT_SHARE:
        use_hand_share(g, p, int(g.to_co))
        g.to_sh += 1
    elif a == A_COMMIT_CASH:
        g.hand_cash[p] -= 1
        g.to_cc += 1
    else:
        g.dec = BID
        g.current_player = p


@jit
def bid_limit(g, c) -> int:
    """The highest price the bidder may name: the cap for the attacker (who may offer more
    than he has), the defender's cash over the attacker's cards for the defender."""
    if g.to_bidder == 0:
        return c.bid_cap
    n_att = int(g.to_sh) + int(g.to_cc)
    return min(c.bid_cap, int(g.cash[int(g.to_def)]) // n_att)


@jit
def own_price(g) -> int:
    return int(g.to_pa) if g.to_bidder == 0 else int(g.to_pd)


@jit
def raise_bid(g, r: int) -> None:
    """The bidder raises his own per-share offer by r units; the other side answers."""
    if g.to_bidder == 0:
        g.to_pa += r
    else:
        g.to_pd += r
    g.to_bids += 1
    g.to_bidder = 1 - g.to_bidder
    g.current_player = g.turn_owner if g.to_bidder == 0 else g.to_def
    g.dec = BID


@jit
def drop(g, c) -> None:
    """The bidder drops out: the other side wins at its standing offer."""
    if g.to_bidder == 1:
        attacker_wins(g, c)
    else:
        defender_wins(g, c)


@jit
def attacker_wins(g, c) -> None:
    """The attacker owes his offer for each of the defender's shares: paid at once, or after
    realising assets, or, when even that cannot raise it, forfeited."""
    p = int(g.turn_owner)
    g.to_owed = int(g.to_pa) * int(g.to_n_def)
    g.current_player = p
    if g.cash[p] >= g.to_owed:
        pay_takeover(g, c)
    elif int(g.cash[p]) + max_liquidation(g, p, c) >= g.to_owed:
        g.dec = RAISE_FUNDS
    else:
        forfeit(g, c)


@jit
def raise_funds(g, c) -> None:
    """After each sale: pay once the cash covers the debt; forfeit once it no longer can."""
    p = int(g.turn_owner)
    if g.cash[p] >= g.to_owed:
        pay_takeover(g, c)
    elif int(g.cash[p]) + max_liquidation(g, p, c) < g.to_owed:
        forfeit(g, c)


@jit
def max_liquidation(g, p: int, c) -> int:
    """Cash p could still raise this turn: hand shares (fresh ones at white + bonus),
    branches at white + bonus per share, and the best resource sales left under the limit
    (greedy at the highest sell price: each wheel's price falls as it refills)."""
    x = 0
    for co in range(NCO):
        f = int(g.fresh[co]) if p == g.turn_owner else 0
        x += (int(g.hand[p, co]) - f) * WHITE[co] + f * (WHITE[co] + c.bonus)
    held = np.zeros(NR, np.int64)
    out = np.zeros(NR, np.int64)
    for r in range(NR):
        held[r] = int(g.res_free[p, r])
        out[r] = int(g.out[r])
    for s in range(NS):
        co = int(g.br_co[p, s])
        if co >= 0:
            x += int(g.br_sh[p, s]) * (WHITE[co] + c.bonus)
            for r in range(NR):
                held[r] += REQ[co, r]
    for _ in range(C.SELLS - int(g.sells)):
        best, br = -1, -1
        for r in range(NR):
            if held[r] > 0 and PRICE[r, out[r] - 1] > best:
                best, br = PRICE[r, out[r] - 1], r
        if br < 0:
            break
        x += best
        held[br] -= 1
        out[br] -= 1
    return x


@jit
def pay_takeover(g, c) -> None:
    """The attacker pays and takes the defender's shares, and his own committed ones, into
    his hand, all fresh; the defender keeps the resources; cash cards used are discarded."""
    p, y, s, co = int(g.turn_owner), int(g.to_def), int(g.to_slot), int(g.to_co)
    spend(g, p, int(g.to_owed))
    earn(g, y, int(g.to_owed), RECEIVED)
    n = int(g.to_n_def) + int(g.to_sh)
    g.hand[p, co] += n
    g.fresh[co] += n
    for r in range(NR):
        g.res_free[y, r] += REQ[co, r]
    g.br_co[y, s] = -1
    g.br_sh[y, s] = 0
    g.cash_gone += g.to_cc
    g.tk_wins[co] += 1
    end_takeover(g)


@jit
def forfeit(g, c) -> None:
    """The attacker cannot pay: his committed shares go to the defender's branch, his cash
    cards used are discarded, and the cash he had before the attempt goes to the bank."""
    p = int(g.turn_owner)
    g.br_sh[int(g.to_def), int(g.to_slot)] += g.to_sh
    g.cash_gone += g.to_cc
    spend(g, p, min(int(g.cash[p]), int(g.to_cash0)))
    end_takeover(g)


@jit
def defender_wins(g, c) -> None:
    """The defender buys the attacker's cards at his offer each; for a cash card the bank
    pays him its white value; then he places the won shares, one by one."""
    p, y, co = int(g.turn_owner), int(g.to_def), int(g.to_co)
    paid = int(g.to_pd) * (int(g.to_sh) + int(g.to_cc))
    spend(g, y, paid)
    earn(g, p, paid, RECEIVED)
    if g.to_cc > 0:
        earn(g, y, int(g.to_cc) * WHITE[co], RECEIVED)
    g.cash_gone += g.to_cc
    g.to_cc = 0
    g.to_place = g.to_sh  # the committed shares are now the defender's to place
    g.to_sh = 0
    if g.to_place > 0:
        g.current_player = y
        g.dec = PLACE
    else:
        end_takeover(g)


@jit(inline="always")
def place_share(g, a: int) -> None:
    """The defender adds a won share to the company or to his hand (under the hand limit)."""
    y, co = int(g.to_def), int(g.to_co)
    if a == A_PLACE_COMPANY:
        g.br_sh[y, int(g.to_slot)] += 1
    else:
        g.hand[y, co] += 1
    g.to_place -= 1
    if g.to_place <= 0:
        end_takeover(g)


@jit
def end_takeover(g) -> None:
    """Back to the attacker's turn."""
    g.to_def = -1
    g.to_sh = 0
    g.to_cc = 0
    g.to_bids = 0
    g.to_bidder = 0
    g.to_tens = 0
    g.to_owed = 0
    g.to_place = 0
    g.current_player = g.turn_owner
    g.dec = MAIN


# == Cash Cards: the premium ======================================================================
@jit
def premium(g, p: int, o: int, c) -> None:
    """o pays the rate for each share in front of him (in branches) and each unassigned
    resource; what he cannot pay is ignored."""
    n = 0
    for s in range(NS):
        n += int(g.br_sh[o, s])
    for r in range(NR):
        n += int(g.res_free[o, r])
    x = min(int(g.cash[o]), n * c.rate)
    spend(g, o, x)
    earn(g, p, x, RECEIVED)


# == Game End =====================================================================================
@jit
def final_cash(g, p: int, c) -> int:
    """Cash after selling every share (hand and branches) and every resource (assigned, unless
    `liquidate_assigned` is off, and unassigned) to the bank at $150M each."""
    n = 0
    for co in range(NCO):
        n += int(g.hand[p, co])
    for s in range(NS):
        n += int(g.br_sh[p, s])
    for r in range(NR):
        n += int(g.res_free[p, r])
        if c.liquidate_assigned:
            n += assigned(g, p, r)
    return int(g.cash[p]) + C.LIQUIDATION * n


@jit
def scores(g, out: np.ndarray, c) -> None:
    """Final cash in $M."""
    for p in range(c.num_players):
        out[p] = final_cash(g, p, c) * C.UNIT


@jit
def rank_keys(g, out: np.ndarray, c) -> None:
    """The most cash wins; the rulebook has no tie-breaker, so level players share."""
    for p in range(c.num_players):
        out[p] = final_cash(g, p, c)


# == masks ========================================================================================
@jit
def refresh_mask(g, c) -> int:
    """Set the legal actions of the pending decision; returns how many there are."""
    m = g.legal_action_mask
    m[:] = 0
    d = int(g.dec)
    p = int(g.turn_owner)
    N = c.num_players
    if d == MAIN:
        main_mask(g, p, m, c)
    elif d == COMMIT:
        m[A_COMMIT_SHARE] = g.hand[p, int(g.to_co)] > 0
        m[A_COMMIT_CASH] = g.hand_cash[p] > 0
        m[A_COMMIT_DONE] = g.to_sh + g.to_cc > 0
    elif d == BID:
        room = bid_limit(g, c) - own_price(g)
        for t in range(BID_TENS):
            for o in range(10):
                r = 10 * t + o
                if 1 <= r <= room and raise_allowed(r, c):
                    m[A_TENS + t] = 1
                    break
        m[A_DROP] = g.to_bids > 0
    elif d == BID_ONES:
        room = bid_limit(g, c) - own_price(g)
        for o in range(10):
            r = 10 * int(g.to_tens) + o
            m[A_ONES + o] = 1 <= r <= room and raise_allowed(r, c)
    elif d == RAISE_FUNDS:
        sell_mask(g, p, m)
    elif d == PREMIUM_SECOND:
        for k in range(1, N):
            m[A_PREMIUM + k - 1] = (p + k) % N != g.prem_first
        m[A_PREMIUM_FINISH] = 1
    elif d == PLACE:
        room = hand_size(g, int(g.to_def)) < HAND_LIMIT
        m[A_PLACE_COMPANY] = c.shares_to != SHARES_TO_HAND or not room
        m[A_PLACE_HAND] = room and c.shares_to != SHARES_TO_COMPANY
    n = 0
    for a in range(NUM_ACTIONS):
        n += m[a]
    return n


@jit(inline="always")
def raise_allowed(r: int, c) -> bool:
    """A raise of r units is one of the allowed increments (`bid_increments`)."""
    return (c.raises >> np.uint64(r)) & np.uint64(1) != 0


@jit
def sell_mask(g, p: int, m: np.ndarray) -> None:
    """The sales: resources (under the limit), shares, fresh shares, branches."""
    for r in range(NR):
        m[A_SELL_RES + r] = g.sells < C.SELLS and g.res_free[p, r] > 0
    for co in range(NCO):
        m[A_SELL_SHARE + co] = g.hand[p, co] > 0
        m[A_SELL_FRESH + co] = g.fresh[co] > 0
    for s in range(NS):
        m[A_SELL_BRANCH + s] = g.br_co[p, s] >= 0


@jit
def main_mask(g, p: int, m: np.ndarray, c) -> None:
    """END_TURN always; every optional action while the turn's cap is not reached."""
    m[A_END] = 1
    if g.main_actions >= c.max_main:
        return
    N = c.num_players
    cash = int(g.cash[p])
    sell_mask(g, p, m)
    for r in range(NR):
        out = int(g.out[r])
        m[A_BUY_RES + r] = g.buys < C.BUYS and out < WHEEL and cash >= PRICE[r, min(out, 13)]
    slot = free_slot(g, p)
    for co in range(NCO):
        m[A_BUY_SHARE + co] = g.pool[co] > 0 and cash >= WHITE[co]
        ok = slot >= 0 and g.hand[p, co] >= 2
        for r in range(NR):
            ok = ok and g.res_free[p, r] >= REQ[co, r]
        m[A_FOUND + co] = ok
    for s in range(NS):
        co = int(g.br_co[p, s])
        if co >= 0:
            m[A_ADD + s] = g.hand[p, co] > 0
            m[A_WITHDRAW + s] = g.br_sh[p, s] >= 3
            m[A_CLOSE + s] = 1
    for k in range(1, N):
        o = (p + k) % N
        for s in range(NS):
            co = int(g.br_co[o, s])
            m[A_TAKEOVER + (k - 1) * NS + s] = co >= 0 and (
                g.hand[p, co] > 0 or (c.cash_card_only and g.hand_cash[p] > 0))
        m[A_PREMIUM + k - 1] = g.hand_cash[p] > 0


# == observation ==================================================================================


@jit
def rel(seat: int, p: int, N: int) -> int:
    """p's seat relative to the observer (0 = self), -1 for none."""
    return (p - seat) % N if p >= 0 else -1


@jit
def observe(g, seat: int, out: np.ndarray, c) -> None:
    """What `seat` may know, in the layout's column order (`kernel._observation_layout`):
    the board, every player's public block clockwise from the observer, then the observer's
    hand. In the Shark variant the others' cash is hidden."""
    N = c.num_players
    d = int(g.dec) if g.dec < NUM_DECISIONS else 0
    i = put_hot(out, 0, 5, N - 2)
    i = put_hot(out, i, NUM_DECISIONS, d)
    i = put_hot(out, i, N, rel(seat, int(g.current_player), N))
    i = put_hot(out, i, N, rel(seat, int(g.turn_owner), N))
    i = put_hot(out, i, C.GO_CARDS + 1, int(g.go_revealed))
    i = put_capped(out, i, g.deck_len, 0.01)
    for r in range(NR):
        o = int(g.out[r])
        i = put_capped(out, i, WHEEL - o, 1 / 14)
        i = put_capped(out, i, PRICE[r, o] if o < WHEEL else 0, 1 / 14)
        i = put_capped(out, i, PRICE[r, o - 1] if o > 0 else 0, 1 / 14)
    for co in range(NCO):
        i = put_capped(out, i, g.pool[co], 1 / 7)
    for co in range(NCO):
        i = put_capped(out, i, g.waste[co], 1 / 7)
    i = put_capped(out, i, g.cash_gone, 1 / 12)
    for co in range(NCO):
        i = put_capped(out, i, WHITE[co], 0.1)
        i = put_capped(out, i, GREEN[co], 0.1)
        for r in range(NR):
            i = put_capped(out, i, REQ[co, r], 1 / 3)
    for co in range(NCO):
        i = put_capped(out, i, g.in_game[co], 1.0)
    i = put_capped(out, i, g.shares_per_co, 1 / 7)
    i = put_capped(out, i, g.main_actions, 1 / c.max_main)
    i = put_capped(out, i, g.buys, 1 / 3)
    i = put_capped(out, i, g.sells, 1 / 3)
    active = g.to_def >= 0
    i = put_capped(out, i, active, 1.0)
    i = put_hot(out, i, NCO, int(g.to_co) if active else -1)
    i = put_hot(out, i, N, rel(seat, int(g.to_def), N))
    i = put_hot(out, i, NS, int(g.to_slot) if active else -1)
    i = put_capped(out, i, g.to_n_def if active else 0, 1 / 7)
    i = put_capped(out, i, g.to_sh, 1 / 7)
    i = put_capped(out, i, g.to_cc, 1 / 12)
    i = put_capped(out, i, g.to_pa if active and g.to_bids > 0 else 0, 1 / 60)
    i = put_capped(out, i, g.to_pd if active and g.to_bids > 1 else 0, 1 / 60)
    i = put_capped(out, i, active and g.to_bidder == 1, 1.0)
    i = put_capped(out, i, g.to_tens if d == BID_ONES else 0, 1 / 5)
    i = put_capped(out, i, g.to_owed, 1 / 400)
    i = put_capped(out, i, g.to_place, 1 / 7)
    for co in range(NCO):
        i = put_capped(out, i, g.tk_wins[co], 1 / 3)
    i = put_hot(out, i, N, rel(seat, int(g.prem_first), N))
    i = put_capped(out, i, c.shark, 1.0)
    i = put_capped(out, i, c.bonus, 0.5)
    i = put_capped(out, i, g.turn_idx, 1 / 200)
    for k in range(N):
        i = player_block(g, (seat + k) % N, k == 0, out, i, c)
    for co in range(NCO):
        i = put_capped(out, i, g.hand[seat, co], 1 / 7)
    i = put_capped(out, i, g.hand_cash[seat], 1 / 12)
    for co in range(NCO):
        i = put_capped(out, i, g.fresh[co] if seat == g.turn_owner else 0, 1 / 7)
    if c.transfer_log:
        for k in range(N):
            q = (seat + k) % N
            i = put_capped(out, i, g.last_transfers[q, IN], 1 / 40)
            i = put_capped(out, i, g.last_transfers[q, RECEIVED], 1 / 400)
            i = put_capped(out, i, g.last_transfers[q, PAID], 1 / 400)


@jit(inline="always")
def player_block(g, p: int, mine: bool, out: np.ndarray, i: int, c) -> int:
    """One player's public block: cash (unless hidden), hand size, resources, branches."""
    hidden = c.shark and not mine
    i = put_capped(out, i, 0 if hidden else g.cash[p], 1 / 400)
    i = put_capped(out, i, hidden, 1.0)
    i = put_capped(out, i, hand_size(g, p), 0.1)
    for r in range(NR):
        i = put_capped(out, i, g.res_free[p, r], 1 / 14)
    for r in range(NR):
        i = put_capped(out, i, assigned(g, p, r), 1 / 14)
    n = 0
    for s in range(NS):
        i = put_hot(out, i, NCO, int(g.br_co[p, s]))
        i = put_capped(out, i, g.br_sh[p, s], 1 / 7)
        n += int(g.br_sh[p, s])
    i = put_capped(out, i, income(g, p), 1 / 40)
    return put_capped(out, i, n, 1 / 20)


DRIVERS = load_drivers("big_deal", HERE, setup=setup, resume=resume, apply=apply,
                       refresh_mask=refresh_mask, observe=observe, scores=scores,
                       rank_keys=rank_keys)
