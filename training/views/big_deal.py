"""Big Deal's table: the resource wheels, the shares pool, the companies, a takeover under way,
and every seat's cash, resources and branches (divisors from the layout's docs; money in $M)."""

from __future__ import annotations

from ...envs.big_deal import components as C
from ...envs.big_deal.rules import DECISION_NAMES
from . import Item, Rows, View, chunk_rows

COMPANIES = tuple(f"{letter} {name}" for letter, name in zip(C.CO_LETTER, C.CO_NAME))
M = C.UNIT  # $M per money unit: a field "units / d" is shown with divisor d * M
SLOTS = tuple(f"branch {s}" for s in range(C.NUM_SLOTS))


def view(game) -> View:
    return View(
        table=[
            Item("to_act", "to act", "to_act", "seat"),
            Item("turn_owner", "whose turn", "turn_owner", "seat"),
            Item("turn", "turn", "turn", div=200),
            Item("game_over_cards", "Game Over cards out", "go_revealed", "choice",
                 names=tuple(str(k) for k in range(C.GO_CARDS + 1)), log=True),
            Item("deck", "draw pile", "deck_left", div=100),
            Rows("wheels", "wheel", chunk_rows("wheels", C.NUM_RES), [
                Item("left", "left", "", part=(0, 1), div=14, log=True),
                Item("buy", "buy at", "", part=(1, 1), div=14 * M, fmt="${}M"),
                Item("sell", "sell at", "", part=(2, 1), div=14 * M, fmt="${}M"),
            ], names=C.RESOURCE_NAMES),
            Item("pool", "shares pool", "pool", "cards", 7, COMPANIES, log=True),
            Item("waste", "waste heap", "waste", "cards", 7, COMPANIES, log=True),
            Item("cash_cards_gone", "cash cards gone", "cash_cards_gone", div=12, log=True),
            Rows("companies", "company", chunk_rows("company_table", C.NUM_CO), [
                Item("white", "share", "", part=(0, 1), div=10 * M, fmt="${}M"),
                Item("green", "income", "", part=(1, 1), div=10 * M, fmt="${}M"),
                Item("needs", "needs", "", "cards", 3, C.RESOURCE_NAMES, part=(2, 4)),
            ], names=COMPANIES),
            Item("takeover", "hostile takeover", "takeover_active", "flag", log=True),
            Item("takeover_company", "of", "takeover_company", "choice", names=COMPANIES),
            Item("takeover_defender", "defender", "takeover_defender", "seat"),
            Item("takeover_slot", "branch", "takeover_slot", "choice", names=SLOTS),
            Item("takeover_n_def", "defended shares", "takeover_n_def", div=7, skip_zero=True),
            Item("takeover_shares", "attacking shares", "takeover_shares", div=7,
                 skip_zero=True, log=True),
            Item("takeover_cash_cards", "attacking cash cards", "takeover_cash_cards", div=12,
                 skip_zero=True, log=True),
            Item("attacker_offer", "attacker offers per share", "attacker_offer", div=60 * M,
                 fmt="${}M", skip_zero=True, log=True),
            Item("defender_offer", "defender offers per card", "defender_offer", div=60 * M,
                 fmt="${}M", skip_zero=True, log=True),
            Item("owed", "the attacker owes", "owed", div=400 * M, fmt="${}M", skip_zero=True),
            Item("to_place", "won shares to place", "to_place", div=7, skip_zero=True),
            Item("takeover_wins", "taken over this turn", "takeover_wins", "cards", 3,
                 COMPANIES),
            Item("premium_first", "first premium from", "premium_first", "seat"),
        ],
        seat=[
            Item("cash", "cash", "cash", div=400 * M, fmt="${}M", log=True),
            Item("cash_hidden", "cash secret", "cash_hidden", "flag"),
            Item("hand_size", "cards in hand", "hand_size", div=10, log=True),
            Item("unassigned", "resources", "unassigned", "cards", 14, C.RESOURCE_NAMES,
                 log=True),
            Item("assigned", "resources in branches", "assigned", "cards", 14,
                 C.RESOURCE_NAMES),
            Rows("branches", "branch", chunk_rows("branches", C.NUM_SLOTS), [
                Item("company", "company", "", "choice", part=(0, C.NUM_CO), names=COMPANIES,
                     log=True),
                Item("shares", "shares", "", part=(C.NUM_CO, 1), div=7, log=True),
            ], show="company", names=SLOTS),
            Item("income", "income", "income", div=40 * M, fmt="${}M"),
            Item("shares_in_play", "shares in branches", "shares_in_play", div=20),
        ],
        mine=[
            Item("decision", "your decision", "decision", "choice",
                 names=("", *DECISION_NAMES[1:])),
            Item("hand", "your shares", "my_hand", "cards", 7, COMPANIES),
            Item("cash_cards", "your cash cards", "my_cash_cards", div=12),
            Item("fresh", "won this turn", "my_fresh", "cards", 7, COMPANIES),
        ],
        targets={"buy_resource": "table/wheels", "buy_share": "table/pool",
                 "sell_share": "mine/hand", "found": "mine/hand", "sell_fresh": "mine/fresh",
                 "add_share": "seat/branches", "withdraw_share": "seat/branches",
                 "close_branch": "seat/branches", "sell_branch": "seat/branches",
                 "premium": "@seat+1"},
    )
