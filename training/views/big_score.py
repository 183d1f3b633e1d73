"""The Big Score's table: the six job positions, the vault, every seat's loot and the viewer's
draft hand and assignments (divisors are the layout's scales)."""

from __future__ import annotations

from ...envs.big_score import components as C
from ...envs.big_score.rules import DECISION_NAMES
from . import Item, Rows, View, block_rows, chunk_rows, scale, thousands

STAGES = ("setup", "Act I, round 1", "Act I, round 2", "Act I, round 3", "Act II", "game over")
STATUS = ("", "open", "success (paid)", "failed", "unattempted")
REWARD = (*C.PAYOUT_NAMES, "")
RELATIVE = ("you", "seat +1", "seat +2", "seat +3", "seat +4", "seat +5")
K10 = thousands  # sums in $10K


def _job_items(game) -> list[Item]:
    s = lambda name: scale(game, name)  # noqa: E731
    return [
        Item("status", "status", "status", "choice", names=STATUS, log=True),
        Item("req", "needs", "req", "cards", s("job.req"), C.CREW_TYPES),
        Item("cash", "pays", "cash", "number", s("job.cash"), fmt=K10),
        Item("token", "and", "token", "choice", names=REWARD),
        Item("pile", "revealed pile", "pile", "cards", s("job.pile"), C.CREW_TYPES),
        Item("contrib", "cards sent", "contrib", "cards", s("job.contrib"), RELATIVE),
        Item("joat", "JoAT revealed", "joat", "cards", s("job.joat"), RELATIVE, log=True),
        Item("inside_man", "Inside Man", "inside_man", "choice", names=C.CREW_TYPES, log=True),
    ]


def view(game) -> View:
    sc = lambda name: scale(game, name)  # noqa: E731
    seat = lambda f: scale(game, f"player.{f}")  # noqa: E731
    return View(
        table=[
            Item("stage", "stage", "meta.stage", "choice", names=STAGES, log=True),
            Item("pass_left", "the draft passes left", "meta.pass_left", "flag"),
            Item("draft_step", "picks made", "meta.draft_step", div=sc("meta.draft_step")),
            Item("act2_round", "Act II round", "meta.act2_round", div=sc("meta.act2_round")),
            Rows("job", "job", block_rows("job"), _job_items(game), show="status"),
            Rows("last_job", "last round's job", block_rows("last_job"), _job_items(game),
                 show="status"),
            Item("cops", "Cops on the track", "vault.cops_on_track", "number",
                 sc("vault.cops_on_track"), log=True),
            Item("cops_to_bust", "Cops still to bust", "vault.cops_to_bust", "number",
                 sc("vault.cops_to_bust")),
            Item("floor", "Vault Floor", "vault.floor", "cards", sc("vault.floor"),
                 C.TOKEN_NAMES, log=True),
            Item("bag", "in the bag", "vault.bag", "cards", sc("vault.bag"), C.TOKEN_NAMES),
            Item("p_cop", "chance of Cops", "vault.p_cop", "percent", fmt="{}%"),
            Item("crew_revealed", "crew cards revealed", "cards.crew_revealed", "cards",
                 sc("cards.crew_revealed"), C.KIND_NAMES),
            Item("deck", "crew deck", "cards.crew_deck_left", div=sc("cards.crew_deck_left")),
        ],
        seat=[
            Item("first_player", "First Player Marker", "first_player", "flag", log=True),
            Item("cash", "cash", "cash", "number", seat("cash"), fmt=K10, log=True),
            Item("payout", "payout tokens", "payout", "cards", seat("payout"),
                 C.PAYOUT_NAMES, log=True),
            Item("boss_choice", "starting option", "boss_choice", "choice",
                 names=("token", "cash"), log=True),
            Item("joat", "JoAT tokens", "joat", div=seat("joat"), log=True),
            Item("hand_size", "cards held", "hand_size", div=seat("hand_size")),
            Item("picks", "drafted", "picks", div=seat("picks")),
            Item("training_type", "Training", "training_type", "choice", names=C.CREW_TYPES,
                 log=True),
            Item("training_count", "Training cards", "training_count",
                 div=seat("training_count")),
            Item("ability", "Expert Ability", "ability", "choice", names=C.CREW_TYPES,
                 log=True),
            Item("ability_used", "ability spent", "ability_used", "flag", log=True),
            Item("act2_status", "vault", "act2_status", "choice",
                 names=("inside", "fled", "busted"), log=True),
            Item("vault_pile", "vault loot", "vault_pile", "cards", seat("vault_pile"),
                 C.TOKEN_NAMES, log=True),
            Item("last_draw", "drew", "last_draw", "choice", names=C.TOKEN_NAMES, log=True),
            Item("committed", "has chosen", "committed", "flag"),
        ],
        seat_present="present",
        mine=[
            Item("decision", "your decision", "meta.decision", "choice",
                 names=("", *DECISION_NAMES[1:])),
            Item("current_card", "card to assign", "me.current_card", "choice",
                 names=C.KIND_NAMES),
            Item("hand", "your hand", "me.hand", "cards", sc("me.hand"), C.KIND_NAMES),
            Item("picks", "your picks", "me.picks", "cards", sc("me.picks"), C.KIND_NAMES),
            Item("pending_pick", "your pick", "me.pending_pick", "choice", names=C.KIND_NAMES),
            Rows("assign_job", "your cards on job", chunk_rows("me.assign_job", 6),
                 [Item("cards", "cards", "", "cards", sc("me.assign_job"), C.CREW_TYPES)]),
            Item("training", "your Training pile", "me.assign_training", "cards",
                 sc("me.assign_training"), C.CREW_TYPES),
            Item("unassigned", "left unassigned", "me.assign_unassigned", "cards",
                 sc("me.assign_unassigned"), C.CREW_TYPES),
            Item("returned", "back from Training", "me.returned", "cards", sc("me.returned"),
                 C.KIND_NAMES),
            Item("rob_flee", "your choice", "me.pending_rob_flee", "choice",
                 names=("rob", "flee")),
            Item("pending_joat", "your JoAT choice", "me.pending_joat", "choice",
                 names=("0", "1", "2")),
            Item("score_now", "your score if it ended now", "me.score_now",
                 div=sc("me.score_now"), fmt=K10),
            Item("at_risk", "of it in the vault", "me.value_at_risk",
                 div=sc("me.value_at_risk"), fmt=K10),
        ],
        targets={"DRAFT_PICK": "mine/hand", "ASSIGN_JOB": "table/job",
                 "TRADE_TAKE": "table/floor", "GUN_STEAL": "table/floor",
                 "GREASE_STEAL": "table/floor"},
    )
