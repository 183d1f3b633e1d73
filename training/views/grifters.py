"""Grifters' table: the Job stacks, the Coffers, every seat's Stash, Nights, Refresh Area and
Jobs, and the viewer's hand and pending decision (divisors from the layout's docs)."""

from __future__ import annotations

from ...envs.grifters import components as C
from ...envs.grifters.rules import DECISION_NAMES
from . import Item, Rows, View, chunk_rows

NIGHTS = ("Night One", "Night Two", "Night Three")
JOB_TITLES = tuple(f"{C.STACK_NAMES[j[0]]} {j[1]}: {j[2]}" for j in C.JOBS)
JOB_STATUS = ("", "in its stack", "on top", "completed")


def view(game) -> View:
    cards = lambda key, label, f, div=3, log=True: Item(  # noqa: E731
        key, label, f, "cards", div, C.CARD_NAMES, log=log)
    return View(
        table=[
            Item("coffers", "Coffers", "coffers", div=75, fmt="{}M ISK", log=True),
            Item("deck", "Specialist deck", "deck_size", div=48),
            cards("discard", "discard pile", "discard", log=False),
            Rows("jobs", "Job", chunk_rows("job_status", C.NUM_JOBS),
                 [Item("status", "", "", "choice", names=JOB_STATUS, log=True)],
                 show="status", names=JOB_TITLES),
        ],
        seat=[
            Item("active", "acting now", "active", "flag"),
            Item("start_player", "start player", "start_player", "flag"),
            Item("stash", "Stash", "stash", div=75, fmt="{}M", log=True),
            Item("score", "score", "score", div=100),
            Item("hand_size", "cards in hand", "hand_size", div=30),
            cards("known_hand", "known hand cards", "known_hand"),
            cards("night1", "Night One", "night1"),
            cards("night2", "Night Two", "night2"),
            cards("night3", "Night Three", "night3"),
            Item("night_isk", "ISK on Nights", "night_isk", "cards", 3, NIGHTS, log=True),
            cards("refresh", "Refresh Area", "refresh"),
            Item("jobs", "completed Jobs", "jobs", "cards", 1, C.JOB_NAMES, log=True),
            Item("turns", "turns taken", "turns_taken", div=100),
        ],
        mine=[
            Item("decision", "your decision", "decision", "choice",
                 names=("", *DECISION_NAMES[1:])),
            cards("hand", "your hand", "my_hand", log=False),
            Item("effect_card", "resolving", "effect_card", "choice", names=C.CARD_NAMES),
            Item("job_in_progress", "Job in progress", "job_in_progress", "choice",
                 names=C.JOB_NAMES),
            Item("team_so_far", "team so far", "team_so_far", "cards", 6, C.CARD_NAMES),
            Item("team_needed", "skills still needed", "team_needed", "cards", 6,
                 C.SKILL_NAMES),
            cards("mastermind", "Mastermind's draw", "mastermind_draw", log=False),
            Item("target_player", "target", "target_player", "seat"),
            Item("target_night", "target Night", "target_night", "choice", names=NIGHTS),
            Item("fence_own", "Job to fence", "fence_own_job", "choice", names=C.JOB_NAMES),
            Item("extra_capers", "Femme Fatale capers left", "extra_capers", div=3),
        ],
        targets={"card": "mine/hand", "player": "@seat"},
    )
