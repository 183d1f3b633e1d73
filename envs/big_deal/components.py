"""Big Deal components as tables: the companies, the resource wheels, the deck by player
count and the starting money.

The rulebook gives neither the company cards nor the wheel prices nor the deck adjustment
table. The values marked REC below are reconstructed (see the spec, §1, and the game README,
"Reconstructed data"): they agree with every rulebook statement and live here, in one place,
so they can be replaced. Money is counted in units of $50M, the smallest note.
"""

from __future__ import annotations

import numpy as np

UNIT = 50  # $M per money unit
HAND_LIMIT = 5  # cards at the end of a turn [RB]
GO_CARDS = 7  # Game Over cards [RB]
GO_TOP, GO_BOTTOM = 3, 4  # in the top and the bottom half of the split deck [RB]
CASH_CARDS = 12  # in the box [F]
NUM_SLOTS = 8  # branch slots per player (spec D-BD-07)
BUYS, SELLS = 3, 3  # resource trades per turn, each way [RB]
LIQUIDATION = 3  # units paid per share and per resource at the end ($150M) [RB]

# -- resources: Labour, Space, Energy, Machinery; 14 each on a wheel of rising prices ----------
RESOURCE_NAMES = ("Labour", "Space", "Energy", "Machinery")
RESOURCE_SHORT = ("L", "S", "E", "M")
NUM_RES = 4
WHEEL_SLOTS = 14  # [F]
PRICE_M = (  # $M by slot 0..13 [REC]; buying takes the slot `out`, selling gives slot `out - 1`
    (100, 100, 150, 150, 150, 200, 200, 200, 250, 250, 300, 300, 350, 400),
    (100, 150, 150, 200, 200, 250, 250, 300, 300, 350, 350, 400, 400, 450),
    (150, 150, 200, 200, 250, 250, 300, 300, 350, 350, 400, 450, 500, 550),
    (150, 200, 200, 250, 300, 300, 350, 400, 400, 450, 500, 550, 600, 650),
)
PRICE = np.array(PRICE_M, np.int64) // UNIT  # [4, 14] units

# -- companies: (letter, name, white $M, green $M, (L, S, E, M) one full set) [REC] -------------
COMPANIES = (
    ("A", "Corner Shops", 100, 50, (2, 0, 0, 0)),
    ("B", "City Taxi", 100, 50, (1, 0, 1, 0)),
    ("C", "Fast Food", 150, 100, (2, 1, 0, 0)),
    ("D", "Print House", 150, 100, (0, 1, 1, 1)),
    ("E", "Hotels", 200, 150, (2, 2, 0, 0)),
    ("F", "Airline", 200, 150, (1, 0, 2, 1)),
    ("G", "Chemicals", 250, 200, (1, 1, 2, 1)),
    ("H", "Shipyard", 250, 250, (2, 2, 1, 1)),
    ("I", "Steel Works", 300, 300, (2, 1, 2, 2)),
    ("J", "Electronics", 350, 300, (1, 2, 2, 2)),
    ("K", "Space Tech", 500, 450, (3, 3, 3, 3)),
)
NUM_CO = len(COMPANIES)  # 11
CO_LETTER = tuple(c[0] for c in COMPANIES)
CO_NAME = tuple(c[1] for c in COMPANIES)
WHITE = np.array([c[2] for c in COMPANIES], np.int64) // UNIT  # share price, units
GREEN = np.array([c[3] for c in COMPANIES], np.int64) // UNIT  # income per branch, units
REQ = np.array([c[4] for c in COMPANIES], np.int64)  # [11, 4] one resource set
CASH_CARD = NUM_CO  # card code of a cash card in the deck (companies are 0..10)
GO_CARD = NUM_CO + 1  # card code of a Game Over card

# -- the deck by player count: (companies removed, shares per company, cash cards) -------------
# The cash card counts are the rulebook's; which companies go and how many shares each has
# are reconstructed (spec §1.2), consistent with "five to seven shares of eight to eleven
# companies" [F] and 7 x 11 = 77 share cards in the box [F].
DECK_BY_N = {
    2: ("DHJ", 5, 8),
    3: ("HJ", 5, 8),
    4: ("J", 6, 8),
    5: ("", 6, 10),
    6: ("", 7, 12),
}
MAX_DECK = 7 * NUM_CO + CASH_CARDS + GO_CARDS  # 96 cards at 6 players


def in_game(n: int) -> np.ndarray:
    """bool [11]: the companies whose shares are in the deck with n players."""
    removed = DECK_BY_N[n][0]
    return np.array([c not in removed for c in CO_LETTER])


def start_money(n: int) -> np.ndarray:
    """Units per seat: $1000M + $150M per preceding player (2-4), $1400M + ... (5-6) [RB]."""
    base = 1000 if n <= 4 else 1400
    return (base + 150 * np.arange(n)) // UNIT
