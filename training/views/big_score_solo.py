"""The Big Score solo game's table: the scenario, the six job positions, the vault bag and
draw, the crew row of Betray the Traitor, and the player's hand, cash and loot (divisors are
the layout's scales). There are no other seats: everything is in the public panel or "mine"."""

from __future__ import annotations

from ...envs.big_score import components as C
from ...envs.big_score.solo_kernel import OBJECTIVES, SCENARIO_TITLES
from ...envs.big_score.solo_rules import DECISION_NAMES
from . import Item, Rows, View, block_rows, scale, thousands

STAGES = ("setup", "Act I, round 1", "Act I, round 2", "Act I, round 3", "Act II", "game over")
STATUS = ("", "open", "completed")
LOOT = C.TOKEN_NAMES[:C.NUM_LOOT]
K10 = thousands  # sums in $10K


def view(game) -> View:
    sc = lambda name: scale(game, name)  # noqa: E731
    job = lambda name: scale(game, f"job.{name}")  # noqa: E731
    return View(
        table=[
            Item("scenario", "scenario", "meta.scenario", "choice", names=SCENARIO_TITLES),
            Item("objective", "objective", "meta.scenario", "choice", names=OBJECTIVES),
            Item("stage", "stage", "meta.stage", "choice", names=STAGES, log=True),
            Rows("job", "job", block_rows("job"), [
                Item("status", "status", "status", "choice", names=STATUS, log=True),
                Item("face_down", "face-down", "face_down", "flag", log=True),
                Item("scouted", "you looked at it", "scouted", "flag"),
                Item("req", "needs", "req", "cards", job("req"), C.CREW_TYPES),
                Item("cash", "pays", "cash", "number", job("cash"), fmt=K10),
                Item("token", "and", "token", "choice", names=C.PAYOUT_NAMES),
                Item("missing", "icons missing", "missing", div=job("missing"),
                     skip_zero=True, log=True),
                Item("placed", "crew on it", "placed", "cards", job("placed"), C.CREW_TYPES,
                     log=True),
                Item("joat", "JoAT on it", "joat", div=job("joat"), skip_zero=True, log=True),
                Item("tokens", "vault tokens on it", "tokens", "cards", job("tokens"),
                     C.TOKEN_NAMES, log=True),
            ], show="status"),
            Item("decks", "cards in the crew decks (rounds 1-3)", "cards.deck_size", "cards",
                 sc("cards.deck_size"), ("round 1", "round 2", "round 3")),
            Item("unseen", "crew cards not drawn yet", "cards.unseen", "cards",
                 sc("cards.unseen"), C.CREW_TYPES),
            Item("shuffled_in", "shuffled into a later deck", "cards.shuffled_in", "cards",
                 sc("cards.shuffled_in"), C.CREW_TYPES),
            Item("discarded", "crew cards discarded", "cards.discarded",
                 div=sc("cards.discarded")),
            Item("cops", "Cops on the track", "vault.cops_on_track", div=sc(
                "vault.cops_on_track"), log=True),
            Item("bag", "in the bag", "vault.bag", "cards", sc("vault.bag"), C.TOKEN_NAMES),
            Item("drawn", "drawn", "vault.drawn", "cards", sc("vault.drawn"), C.TOKEN_NAMES,
                 log=True),
            Item("to_bribe", "Cops that may be bribed", "vault.to_bribe",
                 div=sc("vault.to_bribe"), skip_zero=True),
            Rows("crew_row", "crew row", block_rows("crew_row"), [
                Item("present", "in the row", "present", "flag"),
                Item("tokens", "tokens", "tokens", "cards", scale(game, "crew_row.tokens"),
                     C.TOKEN_NAMES, log=True),
            ], present=("present", 0), names=C.CREW_TYPES),
            Item("aside", "set aside from completed jobs", "betray.aside", "cards",
                 sc("betray.aside"), C.CREW_TYPES),
            Item("pending_token", "token to put on a crew card", "betray.pending", "choice",
                 names=C.TOKEN_NAMES),
            Rows("traitor", "traitor", block_rows("traitor"), [
                Item("type", "crew type", "type", "choice", names=C.CREW_TYPES, log=True),
            ], show="type"),
        ],
        seat=[],
        mine=[
            Item("decision", "your decision", "meta.decision", "choice",
                 names=("", *DECISION_NAMES[1:])),
            Item("cash", "cash", "me.cash", div=sc("me.cash"), fmt=K10, log=True),
            Item("take", "take now", "me.take", div=sc("me.take"), fmt=K10, log=True),
            Item("hand", "your hand", "me.hand", "cards", sc("me.hand"), C.CREW_TYPES),
            Item("kept", "paid to keep", "me.kept", "cards", sc("me.kept"), C.CREW_TYPES),
            Item("chosen_type", "type chosen", "me.chosen_type", "choice",
                 names=C.CREW_TYPES),
            Item("removed_type", "type removed", "me.removed_type", "choice",
                 names=C.CREW_TYPES),
            Item("joat", "JoAT tokens", "me.joat", div=sc("me.joat"), log=True),
            Item("jobs_done", "jobs completed", "me.jobs_done", div=sc("me.jobs_done"),
                 log=True),
            Item("reveals_owed", "face-down jobs you may reveal", "me.reveals_owed",
                 div=sc("me.reveals_owed"), skip_zero=True),
            Item("payout", "payout tokens", "me.payout", "cards", sc("me.payout"),
                 C.PAYOUT_NAMES, log=True),
            Item("vault_pile", "vault loot", "vault.pile", "cards", sc("vault.pile"), LOOT,
                 log=True),
            Item("bribe_cash", "cash for bribes", "vault.bribe_cash",
                 div=sc("vault.bribe_cash"), fmt=K10),
        ],
        targets={"DISCARD_TYPE": "mine/hand", "SCOUT": "table/job+3",
                 "CHOOSE_TYPE": "mine/hand", "PLACE": "table/job", "PAY_SHUFFLE": "mine/hand",
                 "PLACE_JOAT": "table/job", "KEEP": "mine/hand", "REVEAL": "table/job+3",
                 "REMOVE_TYPE": "table/unseen", "KEEP_TOKEN": "table/drawn",
                 "REMOVE_TOKEN": "table/drawn", "TO_CREW": "table/crew_row"},
    )
