"""Round-robin tournaments between policies, rated with OpenSkill (Plackett-Luce).

Two-player games play every pairing; N-player games play every table of N distinct policies
(or, with fewer policies than seats, tables that repeat policies in turn). Each table plays
every evaluation seed under every seat rotation, so seat advantage cancels out. Games are
then fed to the rating model in a seeded random order.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np

from ..agents.base import Policy, win_shares
from ..envs.core import Game
from .evaluate import EVAL_SEEDS_VERSION, play_matches, rotated_schedule


def tables(num_policies: int, num_players: int) -> list[list[int]]:
    """The tables to play: all combinations of distinct policies, or padded cyclic tables."""
    if num_policies < 2:
        raise ValueError("a tournament needs at least two policies")
    if num_policies >= num_players:
        return [list(t) for t in itertools.combinations(range(num_policies), num_players)]
    return [[(r + i) % num_policies for i in range(num_players)] for r in range(num_policies)]


@dataclass
class Standing:
    """One policy's line of the rating table."""

    name: str
    mu: float
    sigma: float
    ordinal: float  # mu - 3 sigma: a conservative skill estimate
    win_share: float  # mean share of the win over its seats
    games: int

    def as_dict(self) -> dict:
        return asdict(self)


def run_tournament(game: Game, policies: Sequence[Policy], names: Sequence[str],
                   games_per_table: int = 200, seed: int = 0,
                   version: int = EVAL_SEEDS_VERSION, progress: bool = False) -> list[Standing]:
    """Play every table, rate the games, and return the standings, best first."""
    from openskill.models import PlackettLuce
    from tqdm import tqdm

    n = game.num_players
    seat_ids, seat_keys, seat_credit = [], [], []
    for table in tqdm(tables(len(policies), n), desc="tournament", disable=not progress,
                      unit="table"):
        seeds, seating = rotated_schedule(table, games_per_table, version)
        res = play_matches(game, policies, seating, seeds)
        credit = win_shares(res.winners)
        seat_ids.append(seating)
        seat_keys.append(res.rank_keys)
        seat_credit.append(credit)
    ids = np.concatenate(seat_ids)
    keys = np.concatenate(seat_keys)
    credit = np.concatenate(seat_credit)

    model = PlackettLuce()
    ratings = [model.rating(name=nm) for nm in names]
    order = np.random.default_rng(seed).permutation(len(ids))
    for g in order:
        teams = [[ratings[p]] for p in ids[g]]
        ranks = (-keys[g]).tolist()  # lower rank = better; equal keys tie
        new = model.rate(teams, ranks=ranks)
        for p in set(ids[g].tolist()):  # a policy seated twice takes the mean of its updates
            seats = np.flatnonzero(ids[g] == p)
            mu = float(np.mean([new[s][0].mu for s in seats]))
            sigma = float(np.mean([new[s][0].sigma for s in seats]))
            ratings[p] = model.rating(mu=mu, sigma=sigma, name=names[p])
    out = []
    for p, r in enumerate(ratings):
        mine = ids == p
        out.append(Standing(names[p], r.mu, r.sigma, r.mu - 3 * r.sigma,
                            float(credit[mine].mean()) if mine.any() else 0.0,
                            int(mine.any(axis=1).sum())))
    return sorted(out, key=lambda s: -s.ordinal)


def format_standings(standings: Sequence[Standing]) -> str:
    from ..envs.core.render import table

    return table(["#", "policy", "rating (mu - 3 sigma)", "mu", "sigma", "win share", "games"],
                 [[i + 1, s.name, f"{s.ordinal:.2f}", f"{s.mu:.2f}", f"{s.sigma:.2f}",
                   f"{100 * s.win_share:.1f}%", s.games] for i, s in enumerate(standings)])
