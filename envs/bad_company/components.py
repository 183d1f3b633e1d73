"""Bad Company components as tables: dice, crew-board halves, the city road, the recruitment
track, the upgrade, heist and loot cards, collars.

The rulebook gives the structure (members 2-12, four tasks, control points, shortcuts, the red
zone, heist symbols and mission symbols) but no card data. Everything marked REC is the
reconstruction of the spec (`design/specs/bad_company.md` §1, "[R]"): consistent with every
rulebook statement, checked for totals, and kept here, in one place, so that the published
data can replace it without touching a code path.
"""

from __future__ import annotations

import numpy as np

# the names of the data sets a game may be built from (option `component_set`): only this
# reconstruction exists so far; the published card data would be another name here
COMPONENT_SETS = ("reconstructed_v1",)

# -- symbols -----------------------------------------------------------------------------------
# the four heist symbols (tokens), then the wild token of task T0, heists and loot
LOCK, GLOVE, MASK, FLASHLIGHT, WILD = 0, 1, 2, 3, 4
TOKEN_NAMES = ("lock", "glove", "mask", "flashlight", "wild")
# a crew member's reward columns: coins (their value), steering wheels, then the four symbols
COIN, WHEEL = 0, 1
REWARD_NAMES = ("$", "wheel", "lock", "glove", "mask", "flashlight")
NUM_REWARDS = 6
# mission symbols, in the order collars are evaluated
MISSION_NAMES = ("diamond", "gold bar", "art", "money bag")
NUM_MISSIONS = 4

# -- dice [RB]; police die faces REC (the rulebook names only the values 0, 1 and 2) -------------
YELLOW_DICE = 4
POLICE_FACES = (0, 0, 0, 1, 1, 2)  # mean 2/3 space a turn (spec D-BC-16, pacing check §1.11)
POLICE_DIE_VALUES = (0, 1, 2)  # the values a police die face may show [RB]

# -- the crew board: members 2..12; 2 = Fixer, 12 = Chauffeur [RB] -------------------------------
FIXER, CHAUFFEUR = 2, 12
NUM_MEMBERS = 11  # members 2..12 are rows 0..10
CHAUFFEUR_STEPS = 2
FIXER_CHOICES = (LOCK, GLOVE, MASK)  # never the flashlight [RB]
# tasks: two spaces of one heist symbol each; the bonus is fixed by the task's place [REC]
TASK_BONUS_NAMES = ("wild token", "$2", "car +1", "loot card")
TASK_WILD, TASK_CASH, TASK_CAR, TASK_LOOT = 0, 1, 2, 3
TASK_CASH_AMOUNT = 2

_S = {"L": LOCK, "G": GLOVE, "M": MASK, "F": FLASHLIGHT}


def _reward(code: str) -> tuple[int, ...]:
    """A reward code ("$3", "W", "L", ...) as a row of reward columns."""
    row = [0] * NUM_REWARDS
    if code.startswith("$"):
        row[COIN] = int(code[1:])
    elif code == "W":
        row[WHEEL] = 1
    else:
        row[2 + _S[code]] = 1
    return tuple(row)


# left halves (members 3-7; T0 -> wild, T1 -> $2) and right halves (members 8-11; T2 -> car +1,
# T3 -> loot): REC, the names from reviews (one random half of each side per player [WEB])
LEFT_HALVES = (
    ("Sneaky", ("$3", "G", "L", "M", "$1"), ("L", "F")),
    ("Lazy", ("F", "$2", "M", "W", "L"), ("G", "L")),
    ("Lucky", ("W", "L", "$2", "G", "M"), ("F", "M")),
    ("Crazy", ("M", "F", "G", "$1", "W"), ("M", "G")),
    ("Grumpy", ("L", "W", "F", "$2", "G"), ("L", "M")),
    ("Emotional", ("G", "M", "W", "L", "$1"), ("F", "G")),
)
RIGHT_HALVES = (
    ("Ninjas", ("L", "$2", "F", "W"), ("M", "G")),
    ("Angels", ("$1", "G", "M", "F"), ("L", "F")),
    ("Tacos", ("W", "M", "$2", "L"), ("G", "F")),
    ("Hoods", ("G", "F", "W", "$3"), ("F", "M")),
    ("Eleven", ("M", "W", "L", "G"), ("F", "L")),
    ("Bandits", ("F", "L", "G", "$3"), ("M", "L")),
)
NUM_HALVES = 6
LEFT_NAMES = tuple(h[0] for h in LEFT_HALVES)
RIGHT_NAMES = tuple(h[0] for h in RIGHT_HALVES)
LEFT_SYM = np.array([[_reward(c) for c in h[1]] for h in LEFT_HALVES], np.int8)  # [6, 5, 6]
RIGHT_SYM = np.array([[_reward(c) for c in h[1]] for h in RIGHT_HALVES], np.int8)  # [6, 4, 6]
LEFT_TASK = np.array([[_S[c] for c in h[2]] for h in LEFT_HALVES], np.int8)  # [6, 2]
RIGHT_TASK = np.array([[_S[c] for c in h[2]] for h in RIGHT_HALVES], np.int8)

# -- the city road (REC geometry): police approach -6..-1, START 0, road 1..28 ------------------
ROAD_END = 28
RED_ZONE_START = 25
POLICE_MIN = -6
CP_NONE, CP_CASH, CP_LOOT, CP_VP2, CP_VP3, CP_VP4 = range(6)
CP_NAMES = ("", "$2", "loot card", "2 VP", "3 VP", "4 VP")
CP_VP = (0, 0, 0, 2, 3, 4)
CONTROL_POINTS = {3: CP_CASH, 6: CP_LOOT, 9: CP_VP2, 12: CP_CASH, 15: CP_LOOT, 18: CP_VP3,
                  21: CP_LOOT, 24: CP_VP4}
CP_POSITIONS = tuple(sorted(CONTROL_POINTS))
SHORTCUTS = {5: 8, 11: 14, 17: 20, 22: 25}  # each bypasses exactly one control point [RB]
RED_ZONE_VP = {25: 2, 26: 3, 27: 4, 28: 5}
CP_BONUS = np.zeros(ROAD_END + 1, np.int8)
SHORTCUT_TO = np.full(ROAD_END + 1, -1, np.int8)
RED_VP = np.zeros(ROAD_END + 1, np.int8)
for _pos, _b in CONTROL_POINTS.items():
    CP_BONUS[_pos] = _b
for _pos, _to in SHORTCUTS.items():
    SHORTCUT_TO[_pos] = _to
for _pos, _vp in RED_ZONE_VP.items():
    RED_VP[_pos] = _vp
BEHIND_POLICE_VP = 3

# -- the recruitment track: spaces 0..8, the cost of each advance (REC) ------------------------
RECRUIT_COST = (2, 2, 3, 3, 4, 4, 5, 5)
TRACK_END = len(RECRUIT_COST)
BUY_VP_COST, BUY_VP_GAIN = 5, 3
UPGRADES_DRAWN = 3

# -- upgrade cards (REC): (member, rewards added, VP); no upgrades for members 2 and 12 ---------
UPGRADES = (
    (3, "L G M", 0), (3, "$3 W", 1), (3, "F F", 1), (3, "W W $1", 0), (3, "L F $1", 1),
    (4, "L G", 1), (4, "$2 F", 1), (4, "W M", 1), (4, "G G", 1), (4, "M F", 1),
    (5, "L M", 1), (5, "G F", 0), (5, "$2 W", 0), (5, "L G", 0), (5, "F", 2),
    (6, "L", 1), (6, "G W", 0), (6, "M $1", 0), (6, "F", 1), (6, "$2", 1),
    (7, "L", 1), (7, "G", 1), (7, "M", 1), (7, "W", 1), (7, "$2", 1),
    (8, "M", 1), (8, "L W", 0), (8, "G $1", 0), (8, "F", 1), (8, "$2", 1),
    (9, "G M", 1), (9, "L F", 0), (9, "$2 W", 0), (9, "L M", 0), (9, "F", 2),
    (10, "G M", 1), (10, "$2 F", 1), (10, "W L", 1), (10, "M M", 1), (10, "L F", 1),
    (11, "G M F", 0), (11, "$3 L", 1), (11, "F F", 1), (11, "W W $1", 0), (11, "M F $1", 1),
)
NUM_UPGRADES = len(UPGRADES)  # 45
UPG_MEMBER = np.array([u[0] for u in UPGRADES], np.int8)
UPG_SYM = np.array([np.sum([_reward(c) for c in u[1].split()], axis=0) for u in UPGRADES],
                   np.int8)  # [45, 6]
UPG_VP = np.array([u[2] for u in UPGRADES], np.int8)

# -- heist cards (REC): numbered 1..40; (L, G, M, F), base VP, bonus, box, missions ---------------
B_NONE, B_CASH, B_CAR, B_LOOT, B_WILD = range(5)
BONUS_NAMES = ("", "$", "car", "loot", "wild")
# boxes: 0 none, 1..8 red abilities A1..A8, 9..14 purple end effects P1..P6
A1_WHEELMAN, A2_CONNECTED, A3_LAUNDERER, A4_HEADHUNTER = 1, 2, 3, 4
A5_DICE_CHEAT, A6_ORGANIZER, A7_SCOUT, A8_FENCE = 5, 6, 7, 8
P1_MASTERMIND, P2_COLLECTOR, P3_BOSS, P4_HOARDER, P5_ESCAPE, P6_FASHIONISTA = range(9, 15)
NUM_ABILITIES, NUM_PURPLE = 8, 6
BOX_NAMES = ("", "Wheelman", "Connected", "Launderer", "Headhunter", "Dice cheat", "Organizer",
             "Scout", "Fence", "Mastermind", "Collector", "Boss", "Hoarder", "Escape artist",
             "Fashionista")
_M = {"D": 0, "B": 1, "A": 2, "$": 3}
HEISTS = (  # (L, G, M, F), VP, (bonus, amount), box, missions
    ((1, 1, 1, 0), 2, (B_CASH, 2), 0, "$"), ((2, 1, 0, 0), 2, (B_CAR, 1), 0, "D"),
    ((0, 2, 1, 0), 2, (B_CASH, 2), 0, "B"), ((1, 0, 2, 0), 2, (B_CAR, 1), 0, "A"),
    ((1, 1, 0, 1), 3, (B_NONE, 0), 0, "D"), ((0, 1, 1, 1), 3, (B_NONE, 0), 0, "B"),
    ((1, 0, 1, 1), 3, (B_NONE, 0), 0, "A"), ((2, 0, 1, 0), 2, (B_LOOT, 1), 0, "$"),
    ((1, 1, 2, 0), 3, (B_CASH, 2), 0, "D"), ((1, 2, 1, 0), 3, (B_CAR, 1), 0, "A"),
    ((2, 1, 0, 1), 4, (B_NONE, 0), 0, "B"), ((0, 1, 2, 1), 4, (B_NONE, 0), 0, "$"),
    ((1, 1, 2, 0), 3, (B_WILD, 1), 1, "D"), ((2, 1, 1, 0), 3, (B_CASH, 2), 2, "B"),
    ((0, 2, 1, 1), 4, (B_NONE, 0), 3, "$"), ((1, 0, 2, 1), 4, (B_NONE, 0), 4, "A"),
    ((1, 2, 1, 0), 3, (B_LOOT, 1), 5, "$"), ((1, 1, 1, 1), 4, (B_NONE, 0), 6, "D"),
    ((2, 0, 1, 1), 4, (B_NONE, 0), 7, "B"), ((0, 1, 1, 2), 5, (B_NONE, 0), 8, "A"),
    ((2, 2, 1, 0), 4, (B_CASH, 3), 0, "D$"), ((1, 2, 2, 0), 4, (B_CAR, 2), 0, "BA"),
    ((1, 1, 2, 1), 5, (B_NONE, 0), 9, "D"), ((2, 1, 1, 1), 5, (B_NONE, 0), 10, "B"),
    ((1, 2, 1, 1), 5, (B_NONE, 0), 11, "A"), ((1, 1, 2, 1), 5, (B_LOOT, 1), 0, "$"),
    ((2, 2, 2, 0), 5, (B_CASH, 3), 0, "DB"), ((1, 2, 2, 1), 6, (B_NONE, 0), 12, "$"),
    ((2, 1, 1, 2), 7, (B_NONE, 0), 0, "DA"), ((1, 1, 2, 2), 7, (B_CAR, 2), 0, "B"),
    ((3, 1, 1, 1), 6, (B_NONE, 0), 13, "A"), ((1, 3, 1, 1), 6, (B_WILD, 1), 0, "B$"),
    ((1, 1, 3, 1), 6, (B_NONE, 0), 14, "D"), ((2, 2, 2, 1), 8, (B_NONE, 0), 0, "A$"),
    ((1, 2, 2, 2), 9, (B_LOOT, 1), 0, "DB"), ((2, 1, 2, 2), 9, (B_CASH, 3), 0, "A$"),
    ((1, 1, 1, 2), 6, (B_CAR, 1), 0, "D"), ((2, 2, 0, 2), 7, (B_NONE, 0), 9, "B"),
    ((0, 2, 2, 2), 7, (B_NONE, 0), 10, "A"), ((2, 2, 2, 2), 10, (B_NONE, 0), 0, "DBA$"),
)
NUM_HEISTS = len(HEISTS)  # 40
HEIST_REQ = np.array([h[0] for h in HEISTS], np.int8)  # [40, 4]
HEIST_VP = np.array([h[1] for h in HEISTS], np.int8)
HEIST_BONUS = np.array([h[2][0] for h in HEISTS], np.int8)
HEIST_BONUS_AMOUNT = np.array([h[2][1] for h in HEISTS], np.int8)
HEIST_BOX = np.array([h[3] for h in HEISTS], np.int8)
HEIST_MISSION = np.zeros((NUM_HEISTS, NUM_MISSIONS), np.int8)
for _h, _heist in enumerate(HEISTS):
    for _m in _heist[4]:
        HEIST_MISSION[_h, _M[_m]] = 1
DISPLAY_SLOTS = 4  # face-up slots 0..3; the deck's top card is the fifth heist on display
ACTIVE_HEISTS = 2
SETUP_DRAW = 3
HEISTS_TO_END = 6

# -- loot cards (REC): 30 cards of 9 types, counts ----------------------------------------------
LOOT = (  # (name, copies, VP at the end)
    ("2 VP", 6, 2), ("3 VP", 4, 3), ("4 VP", 2, 4), ("$3", 4, 0), ("car +2", 3, 0),
    ("wild token", 4, 0), ("free recruit", 2, 0), ("free reroll", 3, 0), ("police halt", 2, 0),
)
L_VP2, L_VP3, L_VP4, L_CASH3, L_CAR2, L_WILD, L_FREE_RECRUIT, L_FREE_REROLL, L_HALT = range(9)
NUM_LOOT_TYPES = len(LOOT)
LOOT_NAMES = tuple(t[0] for t in LOOT)
LOOT_COPIES = np.array([t[1] for t in LOOT], np.int8)
LOOT_VP = np.array([t[2] for t in LOOT], np.int8)
NUM_LOOT = int(LOOT_COPIES.sum())  # 30
LOOT_BASE = np.repeat(np.arange(NUM_LOOT_TYPES), LOOT_COPIES).astype(np.int8)

# -- setup [RB] ------------------------------------------------------------------------------------
START_MONEY = 2
COLLAR_VP = 2  # each held collar at the end [RB]

# consistency of the reconstruction (spec §1.5, §1.6 totals)
assert UPG_SYM[:, COIN].sum() == 26 and UPG_VP.sum() == 33
assert tuple(UPG_SYM[:, 2:].sum(axis=0)) == (13, 12, 14, 17) and UPG_SYM[:, WHEEL].sum() == 12
assert tuple(HEIST_REQ.sum(axis=0)) == (49, 51, 54, 36)
assert tuple(HEIST_MISSION.sum(axis=0)) == (13, 13, 13, 12)
_spaces = HEIST_REQ.sum(axis=1)
assert (HEIST_VP == _spaces - 1 + HEIST_REQ[:, FLASHLIGHT] + (_spaces >= 7)).all()
