"""Grifters components as tables: skills, the 19 card types, their effect programs, the Jobs.

The rulebook lists no cards. Card types, skills, texts and Jobs marked REC below are
reconstructed (see the spec and the game README, "Reconstructed data"): they agree with
every rulebook and review statement, and live here, in one place, so they can be replaced.
"""

from __future__ import annotations

import numpy as np

# -- skills ------------------------------------------------------------------------------------
BRAIN, SPEED, BRAWN, WILD = 0, 1, 2, 3
SKILL_NAMES = ("brain", "speed", "brawn")

# -- effect primitives (the spec's §2.4); each program is a list of (op, arg) ------------------
END, COFFERS, OPP, EACH_OPP, RICHEST_OPP, BLACKMAIL, DRAW, DRAW_KEEP = 0, 1, 2, 3, 4, 5, 6, 7
COPY_HAND, COPY_REFRESH, THUG, KIDNAP, ABDUCT, SNITCH, FENCE, ADVANCE = 8, 9, 10, 11, 12, 13, 14, 15
GRANT_EXTRA, WHEEL = 16, 17

# -- card types: (name, skill, copies, program, provenance) -----------------------------------
# copies of the Ringleaders are per player; the 48 Specialists are 16 types x 3 copies (WEB).
CARDS = (
    ("Mastermind", BRAIN, 1, ((DRAW_KEEP, 3),), "RB text; skill INF"),
    ("Thief", SPEED, 1, ((COFFERS, 2),), "RB text and skill"),
    ("Pickpocket", BRAWN, 1, ((OPP, 2),), "RB text; skill INF"),
    ("Fall Guy", BRAIN, 3, ((COPY_HAND, 0),), "name, behaviour WEB; skill REC"),
    ("Snitch", BRAIN, 3, ((SNITCH, 0),), "behaviour RB FAQ; skill REC"),
    ("Recruiter", BRAIN, 3, ((DRAW, 2),), "REC"),
    ("Fence", BRAIN, 3, ((FENCE, 0),), "behaviour WEB; name, skill REC"),
    ("Fixer", BRAIN, 3, ((ADVANCE, 0),), "behaviour WEB; name, skill REC"),
    ("Con Man", SPEED, 3, ((COFFERS, 1), (OPP, 1)), "RB text and skill"),
    ("Femme Fatale", SPEED, 3, ((GRANT_EXTRA, 1),), "behaviour RB FAQ; skill REC"),
    ("Wheelman", SPEED, 3, ((WHEEL, 0),), "name, behaviour WEB; text, skill REC"),
    ("Safecracker", SPEED, 3, ((COFFERS, 3),), "REC"),
    ("Hacker", SPEED, 3, ((COFFERS, 1), (DRAW, 1)), "REC"),
    ("Middle Man", BRAWN, 3, ((COPY_REFRESH, 0),), "RB text and skill"),
    ("Thug", BRAWN, 3, ((THUG, 0),), "behaviour RB FAQ; skill REC"),
    ("Kidnapper", BRAWN, 3, ((KIDNAP, 0),), "random Abduct RB FAQ; name, text, skill REC"),
    ("Enforcer", BRAWN, 3, ((RICHEST_OPP, 3),), "REC"),
    ("Blackmailer", BRAWN, 3, ((BLACKMAIL, 0),), "REC"),
    ("Inside Man", WILD, 3, ((ABDUCT, 0),), "RB FAQ"),
)
CARD_NAMES = tuple(c[0] for c in CARDS)
NUM_TYPES = len(CARDS)  # 19
MASTERMIND, THIEF, PICKPOCKET, FALL_GUY, SNITCH_T, RECRUITER, FENCE_T, FIXER = range(8)
CON_MAN, FEMME_FATALE, WHEELMAN, SAFECRACKER, HACKER, MIDDLE_MAN, THUG_T = range(8, 15)
KIDNAPPER, ENFORCER, BLACKMAILER, INSIDE_MAN = range(15, 19)

SKILL = np.array([c[1] for c in CARDS], np.int8)  # WILD for the Inside Man
SKILL_OH = np.zeros((NUM_TYPES, 3), np.int16)  # one-hot fixed skill; the Inside Man has none
for _t, _k in enumerate(SKILL):
    if _k < 3:
        SKILL_OH[_t, _k] = 1
RINGLEADER = np.zeros(NUM_TYPES, bool)
RINGLEADER[[MASTERMIND, THIEF, PICKPOCKET]] = True
# copy effects never pick a copier, so chains stay short and loop-free (spec D9)
COPIER = np.zeros(NUM_TYPES, bool)
COPIER[[FALL_GUY, MIDDLE_MAN, INSIDE_MAN]] = True
# Inside Man may abduct any opponent Hideout card but a Ringleader or another Inside Man
ABDUCTABLE = ~RINGLEADER
ABDUCTABLE[INSIDE_MAN] = False
SPECIALIST_COPIES = np.array([0 if RINGLEADER[t] else c[2] for t, c in enumerate(CARDS)], np.int8)
DECK_SIZE = int(SPECIALIST_COPIES.sum())  # 48

# -- Jobs: (stack, order, name, (brain, speed, brawn), reward program, provenance) -----------
STACK_NAMES = ("RED", "BLUE", "GREEN", "YELLOW", "PURPLE")
STACK_TARGETS = ("Blackwatch Defence Corporation", "Government Treasury",
                 "Black Market Syndicates", "Financial Network", "Ministry of Information")
STACK_MIN_PLAYERS = (2, 2, 2, 3, 4)  # the "2+/3+/4+" marking, the same for a whole stack
JOBS = (
    (0, 1, "Kidnap Weapon Experts", (3, 0, 0), ((DRAW, 2),), "RB (order INF)"),
    (0, 2, "Steal Drone Schematics", (2, 1, 1), ((DRAW, 1), (COFFERS, 2)), "REC"),
    (0, 3, "Sabotage Weapons Shipment", (3, 0, 2), ((OPP, 2), (COFFERS, 2)), "REC"),
    (0, 4, "Raid the Blackwatch Armory", (3, 1, 2), ((COFFERS, 6),), "REC"),
    (1, 1, "Skim Tax Collections", (1, 2, 0), ((COFFERS, 3),), "REC"),
    (1, 2, "Forge Ration Credits", (1, 2, 1), ((COFFERS, 4),), "REC"),
    (1, 3, "Hijack Treasury Transport", (0, 3, 2), ((COFFERS, 5),), "REC"),
    (1, 4, "Empty the Central Reserve", (2, 3, 1), ((COFFERS, 7),), "REC"),
    (2, 1, "Shake Down Smugglers", (0, 1, 2), ((OPP, 2),), "REC"),
    (2, 2, "Rob a Gambling Den", (1, 1, 2), ((EACH_OPP, 1), (DRAW, 1)), "REC"),
    (2, 3, "Take Over a Protection Racket", (2, 0, 3), ((OPP, 3), (COFFERS, 1)), "REC"),
    (2, 4, "Topple the Syndicate Boss", (1, 2, 3), ((EACH_OPP, 2), (COFFERS, 2)), "REC"),
    (3, 1, "Hack Credit System", (0, 2, 1), ((OPP, 2),), "RB (order INF)"),
    (3, 2, "Launder Through Shell Banks", (2, 1, 1), ((COFFERS, 3), (DRAW, 1)), "REC"),
    (3, 3, "Crash the Exchange", (2, 2, 1), ((COFFERS, 5),), "REC"),
    (3, 4, "Drain the Offshore Accounts", (2, 2, 2), ((OPP, 3), (COFFERS, 3)), "REC"),
    (4, 1, "Bribe an Official", (1, 1, 1), ((COFFERS, 1), (DRAW, 1)), "REC"),
    (4, 2, "Steal Classified Files", (2, 0, 2), ((DRAW, 2),), "REC"),
    (4, 3, "Blackmail a Minister", (2, 1, 2), ((EACH_OPP, 2),), "REC"),
    (4, 4, "Seize the Ministry", (2, 2, 2), ((COFFERS, 6),), "REC"),
)
NUM_JOBS, NUM_STACKS, STACK_LEN = len(JOBS), 5, 4
JOB_NAMES = tuple(j[2] for j in JOBS)
JOB_STACK = np.array([j[0] for j in JOBS], np.int8)
JOB_REQ = np.array([j[3] for j in JOBS], np.int16)  # [20, 3] brain/speed/brawn
JOB_SIZE = JOB_REQ.sum(axis=1)  # cards in the team: order + 2
SET_BONUS = np.array([0, 0, 2, 4, 8], np.int16)  # by Jobs of one colour [RB]

# -- setup ---------------------------------------------------------------------------------------
COFFERS_START = {2: 50, 3: 65, 4: 75}  # [RB "1. Fill the Government Coffers"]
START_STASH = 3  # taken from the Coffers [RB "3. Distribute ..."]
HAND_DEAL = 3

# -- programs: cards 0..18, then Job j's reward as program 19 + j; padded with END ----------------
PROG_LEN = 3
_progs = [c[3] for c in CARDS] + [j[4] for j in JOBS]
PROG_OP = np.full((len(_progs), PROG_LEN), END, np.int8)
PROG_ARG = np.zeros((len(_progs), PROG_LEN), np.int8)
for _p, _ops in enumerate(_progs):
    for _i, (_op, _arg) in enumerate(_ops):
        PROG_OP[_p, _i], PROG_ARG[_p, _i] = _op, _arg
JOB_PROG = NUM_TYPES  # program id of Job 0
