"""Vaults components as tables: crew cards, disrupts, vaults, effect and decision codes.

The card data lives in `data/*.csv`. Nearly all of it is reconstructed (the rulebook prints
no card list); see README.md, "Reconstructed data". Hand types 0-53 are used everywhere:
bosses 0-11, crew members 12-31, tools 32-43, disrupts 44-53.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

DATA = Path(__file__).parent / "data"

N_BOSS, N_MEMBER, N_TOOL, N_DISRUPT = 12, 20, 12, 10
MEMBER0, TOOL0, DISRUPT0 = 12, 32, 44
N_CREW_TYPES = 44  # bosses + members + tools
N_HAND_TYPES = 54
N_VAULTS, N_GROUPS, N_PILES, PILE_SIZE = 27, 9, 3, 9
HAND_LIMIT, ACTIONS_PER_TURN, START_HAND = 5, 3, 4
MAX_DRAWS = 3  # cards drawn in the Draw/bailout phase [FAQ: "up to three cards"]
MAX_MEMBERS, MAX_TOOLS = 4, 3
DECK_SIZE, DISRUPT_DECK_SIZE = 76, 20
KEY_CARDS = (44, 45)  # the disrupts with the Master Key icon


def _rows(name: str) -> list[dict[str, str]]:
    with open(DATA / name, newline="") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


# -- effect codes (the `effect` one-hot) ----------------------------------------------------
EFFECTS = (
    "NONE", "PLAY_CARD", "SEND_BOSS", "MOVE", "CRACK", "HAND_LIMIT",
    # crew-member abilities, on play
    "M_JAIL_ANY", "M_JAIL_TOOL", "M_DRAW", "M_GAIN_DISRUPT", "M_GAIN_ACTION", "M_PEEK",
    "M_BAIL", "M_STEAL_TOOL", "M_RETURN_MEMBER",
    # boss abilities, on a Success
    "B_COPY", "B_DRAW1", "B_ACTION", "B_DISRUPT", "B_REFRESH", "B_JAIL_OPP", "B_BAIL",
    "B_PEEK", "B_PICKPOCKET", "B_STEAL_TOOL", "B_DRAW2", "B_ACTION_DRAW",
    # disrupt effects
    "D_KEY", "D_ACTION", "D_DRAW", "D_LOCKDOWN", "D_JAIL_TOOL", "D_SABOTAGE", "D_REINFORCE",
    "D_TIPOFF", "D_BAIL", "D_RESET", "D_SCOUT", "D_PICKPOCKET", "D_BURY",
    # vault fronts
    "V_DRAW", "V_DISRUPT", "F_JAIL_TOOL", "F_LOSE_ACTIONS", "F_JAIL_MEMBER_GAIN",
    "F_JAIL_BOSS", "F_JAIL_ALL_TOOLS", "F_JAIL_TWO_MEMBERS", "F_JAIL_MEMBER_TOOL_LOSE",
    "F_JAIL_CREW",
    # the parts Fail fronts are made of, and the steps that close a crack or an action
    "FP_MEMBER", "FP_TOOL", "FP_GAIN_ACTION", "FP_ALL_TOOLS", "FP_BOSS_OR_MEMBER",
    "FP_CREW", "BURN_OVERLOADS", "ACTION_WINDOW",
)
E = {name: i for i, name in enumerate(EFFECTS)}
N_EFFECTS = len(EFFECTS)

# a Fail front is resolved as a sequence of parts (first part first)
FAIL_PARTS = {
    "F_JAIL_TOOL": ("FP_TOOL",),
    "F_LOSE_ACTIONS": ("F_LOSE_ACTIONS",),
    "F_JAIL_MEMBER_GAIN": ("FP_MEMBER", "FP_GAIN_ACTION"),
    "F_JAIL_BOSS": ("FP_BOSS_OR_MEMBER",),
    "F_JAIL_ALL_TOOLS": ("FP_ALL_TOOLS",),
    "F_JAIL_TWO_MEMBERS": ("FP_MEMBER", "FP_MEMBER"),
    "F_JAIL_MEMBER_TOOL_LOSE": ("FP_MEMBER", "FP_TOOL", "F_LOSE_ACTIONS"),
    "F_JAIL_CREW": ("FP_CREW",),
}

# -- crew cards and disrupts -----------------------------------------------------------------
_cards = _rows("cards.csv")
CARD_NAMES: tuple[str, ...] = tuple(r["name"] for r in _cards)
CARD_KIND: tuple[str, ...] = tuple(r["kind"] for r in _cards)
COPIES = np.array([int(r["copies"]) for r in _cards], np.int8)  # [54]
SKILLS = np.array([[int(r["p"]), int(r["m"]), int(r["e"])] for r in _cards[:N_CREW_TYPES]],
                  np.int16)  # [44, 3]
ABILITY = np.array([E[r["ability_a"]] if r["ability_a"] else 0 for r in _cards[:N_CREW_TYPES]],
                   np.int8)  # [44] every crew card's ability code (members and bosses)
# when abilities fire: a member's when it is played from hand, a boss's only with a Success
# (never when the boss is played or sent to the Police station) [RB "Bosses"; spec §1.3, §2.5]
PLAY_ABILITY = np.where(np.arange(N_CREW_TYPES) >= MEMBER0, ABILITY, 0).astype(np.int8)  # [44]
SUCCESS_ABILITY = np.where(np.arange(N_CREW_TYPES) < MEMBER0, ABILITY, 0).astype(np.int8)  # [44]
DISRUPT_EFFECTS = np.array([[E[r["ability_a"]], E[r["ability_b"]]] for r in _cards[DISRUPT0:]],
                           np.int8)  # [10, 2] effect A, effect B
IS_BOSS = np.arange(N_CREW_TYPES) < MEMBER0
IS_MEMBER = (np.arange(N_CREW_TYPES) >= MEMBER0) & (np.arange(N_CREW_TYPES) < TOOL0)
IS_TOOL = np.arange(N_CREW_TYPES) >= TOOL0
IS_CHAR = ~IS_TOOL  # bosses and members: the character Police pile
CLASS_OF = np.where(IS_BOSS, 0, np.where(IS_MEMBER, 1, 2)).astype(np.int8)  # 0 boss, 1 mem, 2 tool
CLASS_CAP = np.array([1, MAX_MEMBERS, MAX_TOOLS], np.int16)
# the 76 main-deck cards by type, in type order
DECK_TYPES = np.repeat(np.arange(N_CREW_TYPES), COPIES[:N_CREW_TYPES]).astype(np.int8)
DISRUPT_TYPES = np.repeat(np.arange(N_DISRUPT), COPIES[DISRUPT0:]).astype(np.int8)  # [20]
# "There is no restriction on the number of crews that one player can have in play" [RB
# "Forming Crews"]. A crew exists while it holds a boss or a member, so one seat can have at
# most one crew per boss and member card, 52; no rule keeps any of them elsewhere (the main
# deck may end with tools only, the other seats may lose their crews to their own Fail
# fronts, and hands and the Police station may be empty). Every seat has that many slots.
MAX_CREWS = int(COPIES[:TOOL0].sum())  # 12 bosses + 40 members

# -- vaults ----------------------------------------------------------------------------------
_vaults = _rows("vaults.csv")
VAULT_GROUP = np.array([int(r["group"]) for r in _vaults], np.int8)  # [27]
VAULT_COMBO = np.array([[int(r["p"]), int(r["m"]), int(r["e"])] for r in _vaults], np.int16)
VAULT_SUCCESS = np.array([r["success"] == "1" for r in _vaults])
VAULT_VALUE = np.array([int(r["value"]) for r in _vaults], np.int16)
VAULT_EFFECT = np.array([E[r["effect"]] if r["effect"] else 0 for r in _vaults], np.int8)
TOTAL_LOOT = int(VAULT_VALUE.sum())
GROUP_COMBO = VAULT_COMBO[::3]  # [9, 3]

# -- decisions -------------------------------------------------------------------------------
DECISIONS = ("NONE", "BOSS_CHOICE", "MAIN", "PLAY_DEST", "TARGET_PLAYER", "TARGET_CREW",
             "TARGET_CARD", "TARGET_SKILL", "TARGET_PILE", "TARGET_POLICE_PILE", "DEST_CREW",
             "MOVE_CARD", "MOVE_DEST", "SWAP_CARD", "CRACK_TARGET", "OVERLOAD", "USE_KEY",
             "RESPONSE", "DISRUPT_EFFECT", "FAIL_CARD", "DISCARD", "COPY_BOSS")
D = {name: i for i, name in enumerate(DECISIONS)}

# -- how targeted effects choose their target -------------------------------------------------
# op: what happens to the chosen card or crew; who: whose cards may be chosen
#   any: anyone's (crew-member abilities may hit their owner's crews: the "backfire" rule)
#   opp: opponents' only (boss abilities fizzle instead of backfiring)
#   backfire: opponents' if any opponent has one, else the player's own
TARGETING = {
    "M_JAIL_ANY": ("jail", "mt", "any"), "M_JAIL_TOOL": ("jail", "t", "any"),
    "M_STEAL_TOOL": ("steal", "t", "backfire"), "M_RETURN_MEMBER": ("return", "m", "any"),
    "B_JAIL_OPP": ("jail", "mt", "opp"), "B_STEAL_TOOL": ("steal_here", "t", "opp"),
    "D_JAIL_TOOL": ("jail", "t", "any"), "D_TIPOFF": ("jail", "mt", "any"),
    "D_SABOTAGE": ("mod", "bmt", "any"), "D_REINFORCE": ("mod", "bmt", "any"),
    "FP_MEMBER": ("fail", "m", "self"), "FP_TOOL": ("fail", "t", "self"),
    "FP_BOSS_OR_MEMBER": ("fail", "m", "self"),
}
_CLASS_LETTERS = {"b": IS_BOSS, "m": IS_MEMBER, "t": IS_TOOL}
TARGET_CLASS = np.zeros((N_EFFECTS, N_CREW_TYPES), bool)  # eligible card classes per effect
for _name, (_op, _cls, _who) in TARGETING.items():
    for _c in _cls:
        TARGET_CLASS[E[_name]] |= _CLASS_LETTERS[_c]

PEEK_EFFECTS = (E["M_PEEK"], E["B_PEEK"], E["D_SCOUT"])
BAIL_EFFECTS = (E["M_BAIL"], E["B_BAIL"], E["D_BAIL"])
DRAW_COUNT = np.zeros(N_EFFECTS, np.int8)  # main-deck draws an effect makes
for _n, _k in (("M_DRAW", 1), ("B_DRAW1", 1), ("D_DRAW", 1), ("V_DRAW", 1), ("B_DRAW2", 2),
               ("B_ACTION_DRAW", 1)):
    DRAW_COUNT[E[_n]] = _k
GAIN_ACTION = np.zeros(N_EFFECTS, np.int8)
for _n in ("M_GAIN_ACTION", "B_ACTION", "D_ACTION", "B_ACTION_DRAW", "FP_GAIN_ACTION"):
    GAIN_ACTION[E[_n]] = 1
GAIN_DISRUPT = np.zeros(N_EFFECTS, bool)
for _n in ("M_GAIN_DISRUPT", "B_DISRUPT", "V_DISRUPT"):
    GAIN_DISRUPT[E[_n]] = True

# boss-choice preference used nowhere in the rules; bots may read it
BOSS_NAMES = CARD_NAMES[:N_BOSS]
