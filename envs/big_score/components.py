"""The Big Score's components as data (RB › Components, Payout Tokens, Vault Contents).

Money is in units of $10K throughout. Crew cards of one kind are interchangeable, so hands
and piles are count vectors over the 12 kinds `k = 2 * type + expert`.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import numpy as np

CREW_TYPES = ("Con Man", "Driver", "Grease Man", "Gun Man", "Hacker", "Muscle")
CON_MAN, DRIVER, GREASE_MAN, GUN_MAN, HACKER, MUSCLE = range(6)
NUM_TYPES, NUM_KINDS = 6, 12
KIND_NAMES = tuple(f"{t}{'*' if e else ''}" for t in CREW_TYPES for e in (0, 1))
KIND_TYPE = np.repeat(np.arange(NUM_TYPES), 2)  # kind -> crew type
KIND_EXPERT = np.tile([False, True], NUM_TYPES)
KIND_COUNTS = np.array([8, 7] * NUM_TYPES)  # 8 regular + 7 Expert of each type: 90 cards
CREW_DECK_SIZE = 90

HAND_SIZE = {2: 9, 3: 8, 4: 7, 5: 6, 6: 5}  # RB › Act I › Round Setup
PASS_DIR = (+1, -1, +1)  # rounds 1..3: left, right, left; left = next clockwise seat
START_CASH = 20  # $200K (RB › Setup 7)
FAIL_PENALTY = 2  # $20K (RB › Job Failure)
JOBS_PER_ROUND = 6
ROUNDS = 3

# Payout tokens of Act I
PAYOUT_NAMES = ("Artifact", "Diamond", "Hard Drive")
ARTIFACT, DIAMOND, HARD_DRIVE = range(3)

# Vault tokens (RB › Gameplay Summary › Vault Contents)
TOKEN_NAMES = ("$20K", "$30K", "$50K", "$100K", "Silver Bar", "Gold Bar", "Digital Key",
               "Artifact", "Diamond", "Cops")
CASH20, CASH30, CASH50, CASH100, SILVER, GOLD, KEY, V_ARTIFACT, V_DIAMOND, COPS = range(10)
NUM_TOKENS, NUM_LOOT = 10, 9  # loot = every type but Cops
VAULT_COUNTS = np.array([4, 6, 6, 4, 5, 1, 6, 10, 10, 10])  # 62 tokens
CASH_FACE = np.array([2, 3, 5, 10, 0, 0, 0, 0, 0])  # cash value of a loot type
FLOOR_SIZE = 5

# Scoring (RB › Additional Rules › Payout Tokens; Expert Abilities › Hacker)
DIAMOND_TABLE = (0, 2, 5, 10, 20, 35)  # total worth of 0..5 diamonds; +15 each after
DIAMOND_EXTRA = 15
ARTIFACT_FACE, ARTIFACT_BONUS = 3, 25
PAIR_VALUE, HACKER_UNPAIRED = 20, 5
SILVER_VALUE, GOLD_VALUE = 15, 20

# Bosses and their starting options. RECONSTRUCTED: the rulebook says each board shows a
# payout token or cash without listing them; $30K matches an Artifact's face value.
BOSS_NAMES = ("The Dragon", "Le Femme", "The Bull", "The Mamba", "The Brute", "The Sixth")
BOSS_TOKEN = np.array([DIAMOND, ARTIFACT, HARD_DRIVE, DIAMOND, ARTIFACT, HARD_DRIVE])
BOSS_CASH = np.array([3, 3, 3, 3, 3, 3])

PAYOUT_KEYS = ("artifact", "diamond", "hard_drive")


def valid_boss_options(options) -> bool:
    """Six (token, cash) pairs: token a payout-token name, cash a non-negative int."""
    try:
        return len(options) == len(BOSS_NAMES) and all(
            tok in PAYOUT_KEYS and isinstance(cash, int) and 0 <= cash <= 100
            for tok, cash in options)
    except (TypeError, ValueError):
        return False


def boss_option_table(options) -> tuple[np.ndarray, np.ndarray]:
    """(token per boss, cash per boss) from the `boss_options` option (None = defaults)."""
    if options is None:
        return BOSS_TOKEN, BOSS_CASH
    return (np.array([PAYOUT_KEYS.index(t) for t, _ in options]),
            np.array([c for _, c in options]))


ABILITY_NAMES = ("con_man", "driver", "grease_man", "gun_man", "hacker", "muscle")


def _diamond_table(d: int) -> int:
    return DIAMOND_TABLE[d] if d <= 5 else DIAMOND_TABLE[5] + DIAMOND_EXTRA * (d - 5)


DIAMOND_LUT = np.array([_diamond_table(d) for d in range(128)])  # more than a game can hold
# face value of each loot type counted directly (cash and bars; the rest is scored apart)
LOOT_FACE = np.array([2, 3, 5, 10, SILVER_VALUE, GOLD_VALUE, 0, 0, 0], np.int16)


def diamond_value(d: np.ndarray) -> np.ndarray:
    """Total worth of d diamonds (the table is convex: each extra diamond is worth more)."""
    return DIAMOND_LUT.take(np.asarray(d))


@dataclass(frozen=True)
class JobTable:
    """The 24 job cards: names, cash, payout token and crew requirement per type."""

    names: tuple[str, ...]
    cash: np.ndarray  # int [24]
    token: np.ndarray  # int [24] 0 Artifact, 1 Diamond, 2 Hard Drive
    req: np.ndarray  # int [24, 6]

    @property
    def icons(self) -> np.ndarray:
        return self.req.sum(axis=1)


DATA = Path(__file__).with_name("data")


def load_job_table(name_or_path: str = "reconstructed_v1") -> JobTable:
    """Load a job table by name (a CSV in data/) or path; check the rulebook's constraints."""
    path = Path(name_or_path)
    if not path.suffix:
        path = DATA / f"jobs_{name_or_path}.csv"
    if not path.exists():
        known = sorted(p.stem.removeprefix("jobs_") for p in DATA.glob("jobs_*.csv"))
        raise ValueError(f"job_table {name_or_path!r} not found; known tables: "
                         f"{', '.join(known)} (or the path of a CSV file)")
    with open(path, newline="") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    token_ids = {"A": ARTIFACT, "D": DIAMOND, "H": HARD_DRIVE}
    try:
        table = JobTable(
            names=tuple(r["name"] for r in rows),
            cash=np.array([int(r["cash"]) for r in rows]),
            token=np.array([token_ids[r["token"]] for r in rows]),
            req=np.array([[int(r[t.lower().replace(" ", "_")]) for t in CREW_TYPES]
                          for r in rows]),
        )
    except (KeyError, ValueError) as e:
        raise ValueError(f"job table {path}: malformed row ({e})") from e
    check_job_table(table)
    return table


def check_job_table(t: JobTable) -> None:
    """The constraints the rulebook itself puts on the job cards (any table must pass)."""
    problems = []
    if len(t.names) != 24:
        problems.append(f"{len(t.names)} jobs instead of 24")
    classes = [(2, ARTIFACT, 3), (2, HARD_DRIVE, 3), (2, DIAMOND, 3),
               (3, ARTIFACT, 4), (3, HARD_DRIVE, 4), (3, DIAMOND, 4)]
    for cash, tok, icons in classes:
        n = int(((t.cash == cash) & (t.token == tok) & (t.icons == icons)).sum())
        if n != 2:
            problems.append(f"{n} jobs paying {cash}0K + {PAYOUT_NAMES[tok]} with {icons} crew "
                            "(rulebook: 2)")
    if int((t.token == HARD_DRIVE).sum()) != 4:
        problems.append("the rulebook has exactly 4 Hard Drive jobs")
    named = {"Night Club": [1, 1, 0, 2, 0, 1], "Apartment": [1, 0, 0, 1, 0, 1]}
    for name, req in named.items():
        if name in t.names and t.req[t.names.index(name)].tolist() != req:
            problems.append(f"{name} requirement differs from the rulebook {req}")
    if "Hotel" in t.names:
        i = t.names.index("Hotel")
        if (t.cash[i], t.token[i]) != (3, DIAMOND):
            problems.append("the Hotel pays $30K + 1 Diamond in the rulebook")
    if (t.req < 0).any() or (t.icons == 0).any():
        problems.append("every job needs at least one crew icon and no negative counts")
    if problems:
        raise ValueError("job table violates the rulebook: " + "; ".join(problems))


def configure_jobs(c, table: JobTable) -> None:
    """The job table as compiled rules read it, in a config record `c` (the multiplayer and
    the solo game alike): rows 0..23 the jobs, row 24 "no job" (a position's id -1)."""
    c["job_req"][:24] = table.req
    c["job_cash"][:24] = table.cash
    c["job_token"][:24] = table.token
    c["job_token"][24] = 3
