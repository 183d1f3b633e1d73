"""Bad Company's table: the dice, the police car and the road, the heist display, and every
seat's car, crew, tasks and heists (divisors from the layout's docs)."""

from __future__ import annotations

from ...envs.bad_company import components as C
from ...envs.bad_company.rules import DECISION_NAMES
from . import Item, Rows, View, chunk_rows

SYMBOLS = C.TOKEN_NAMES[:4]  # lock, glove, mask, flashlight
REWARDS = ("wheel", *SYMBOLS)
HEIST_SIZE = 38  # the layout's heist features (kernel.HEIST_FIELDS)
CONTROL_POINTS = tuple(str(p) for p in C.CP_POSITIONS)


def _heist_items() -> list[Item]:
    return [
        Item("number", "heist no.", "", part=(1, 1), div=40),
        Item("req", "needs", "", "cards", 8, SYMBOLS, part=(2, 4)),
        Item("covered", "covered", "", "cards", 8, SYMBOLS, part=(6, 4), log=True),
        Item("vp", "VP", "", part=(10, 1), div=10),
        Item("bonus", "bonus", "", "choice", part=(11, 5),
             names=("", "$", "car", "loot", "wild token")),
        Item("bonus_amount", "bonus amount", "", part=(16, 1), div=3, skip_zero=True),
        Item("red", "ability", "", "choice", part=(17, 9),
             names=("", *(f"A{k}" for k in range(1, 9)))),
        Item("purple", "purple box", "", "choice", part=(26, 7),
             names=("", *(f"P{k}" for k in range(1, 7)))),
        Item("missions", "missions", "", "cards", 1, C.MISSION_NAMES, part=(33, 4)),
    ]


def _heists(key: str, label: str, field: str, count: int, names=()) -> Rows:
    return Rows(key, label, chunk_rows(field, count), _heist_items(), names=names,
                present=("", 0))


def view(game) -> View:
    n = game.num_players
    collars = [Item(f"collar_{m}", f"{name} collar", "collar_owner", "seat",
                    part=(k * (n + 1), n + 1), log=True)
               for k, (m, name) in enumerate(zip("DBA$", C.MISSION_NAMES))]
    return View(
        table=[
            Item("decision", "decision", "decision", "choice",
                 names=(*DECISION_NAMES[:-1], "")),
            Item("final_round", "final round", "final_round", "flag", log=True),
            Item("end_triggered", "the end is triggered", "end_triggered", "flag", log=True),
            Item("turn", "turn", "turn", div=60),
            Item("chief", "chief", "chief", "seat", log=True),
            Item("actor", "to act", "actor", "seat"),
            Item("dice", "yellow dice", "yellow_dice", "dice", log=True),
            Item("black_die", "police die", "black_die", "choice", names=("0", "1", "2"),
                 log=True),
            Item("lower", "lower pair sum", "pair_sums", "choice", part=(0, 11),
                 names=tuple(str(s) for s in range(2, 13))),
            Item("higher", "higher pair sum", "pair_sums", "choice", part=(11, 11),
                 names=tuple(str(s) for s in range(2, 13))),
            Item("police", "police car", "police", div=34, shift=-6, log=True),
            Item("cp_passed", "control points the police reached", "cp_passed", "cards", 1,
                 CONTROL_POINTS),
            _heists("display", "display heist", "display", C.DISPLAY_SLOTS + 1,
                    names=(*(f"display heist {s + 1}" for s in range(C.DISPLAY_SLOTS)),
                           "top of the heist deck")),
            Item("heist_deck", "heist deck", "decks", part=(0, 1), div=40),
            Item("upgrade_deck", "upgrade deck", "decks", part=(1, 1), div=45),
            Item("loot_deck", "loot deck", "decks", part=(2, 1), div=30),
            *collars,
            Item("police_halt", "Police halt played", "police_halt", "flag", log=True),
            Item("loot_discard", "loot played", "loot_discard", "cards", 6, C.LOOT_NAMES,
                 log=True),
        ],
        seat=[
            Item("money", "money", "money", div=30, fmt="${}", log=True),
            Item("vp", "VP track", "vp_track", div=80, log=True),
            Item("car", "car", "car", "track", div=28, max=C.ROAD_END, log=True),
            Item("behind_police", "behind the police", "behind_police", "flag", log=True),
            Item("recruit", "recruiter", "recruit", "choice",
                 names=tuple(f"space {k}" for k in range(9)), log=True),
            Item("loot", "loot cards", "loot_count", div=10, log=True),
            Item("heists_done", "heists completed", "heists_done", div=6, log=True),
            Item("missions", "missions", "mission_counts", "cards", 8, C.MISSION_NAMES),
            Item("abilities", "abilities", "abilities", "cards", 1,
                 tuple(f"A{k}" for k in range(1, 9)), log=True),
            Item("purple", "purple cards", "purple", "cards", 2,
                 tuple(f"P{k}" for k in range(1, 7))),
            Rows("crew", "member", chunk_rows("crew", C.NUM_MEMBERS), [
                Item("coins", "coins", "", part=(0, 1), div=6, skip_zero=True, log=True),
                Item("rewards", "rewards", "", "cards", 4, REWARDS, part=(1, 5)),
                Item("upgrades", "upgrades", "", part=(6, 1), div=5, skip_zero=True,
                     log=True),
                Item("upgrade_vp", "upgrade VP", "", part=(7, 1), div=6, skip_zero=True),
                Item("collar", "collar", "", "flag", part=(8, 1)),
            ], names=tuple(f"member {m}" for m in range(2, 13))),
            Rows("tasks", "task", chunk_rows("tasks", 4), [
                Item("symbol", "symbol", "", "choice", part=(0, 4), names=SYMBOLS),
                Item("bonus", "bonus", "", "choice", part=(4, 4), names=C.TASK_BONUS_NAMES),
                Item("tokens", "tokens", "", part=(8, 1), div=2, log=True),
            ]),
            _heists("active_heists", "active heist", "active_heists", 2),
            Item("heist_vp", "heist VP", "heist_vp", div=60),
            Item("public_score", "score without loot", "public_score", div=100),
        ],
        mine=[
            Item("pending_token", "token to place", "pending_token", "choice",
                 names=C.TOKEN_NAMES),
            Item("tokens_left", "tokens to place", "tokens_left", div=10, skip_zero=True),
            Item("steps_left", "car steps to move", "steps_left", div=4, skip_zero=True),
            Rows("upgrade_choices", "upgrade", chunk_rows("upgrade_choices", 3), [
                Item("member", "for member", "", "choice", part=(1, 9),
                     names=tuple(str(m) for m in range(3, 12))),
                Item("adds", "adds", "", "cards", 3, ("coins", *REWARDS, "VP"), part=(10, 7)),
            ], present=("", 0)),
            _heists("setup_choices", "drafted heist", "setup_choices", 3),
            Item("loot_hand", "your loot cards", "loot_hand", "cards", 4, C.LOOT_NAMES),
            Item("reroll_credits", "free rerolls", "reroll_credits", div=3, skip_zero=True),
            Item("rerolls_done", "rerolls this turn", "rerolls_done", div=10, skip_zero=True),
            Item("own_loot_vp", "VP of your loot", "own_loot_vp", div=20),
        ],
        targets={"take_heist": "table/display", "choose_upgrade": "mine/upgrade_choices",
                 "setup_return": "mine/setup_choices", "complete_heist": "seat/active_heists",
                 "complete_task": "seat/tasks", "place_task": "seat/tasks",
                 "place_collar": "seat/crew"},
    )
