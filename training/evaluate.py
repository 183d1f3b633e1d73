"""Batched matches between policies, seat rotation, and evaluation with honest statistics.

Evaluation plays on a fixed, versioned set of seeds: version 1 is seeds 2**36 + i, for
i = 0, 1, 2, ... — far from the seeds training draws. Version 0, seeds 2**37 + i, is for
choosing between variants (a zoo entry's play mode), so that the figures reported on
version 1 are not the ones the choice was made on. Every seed is played once per seat
rotation of the table, so each policy sits in each seat equally often and both sides meet
the same deals. A win counts 1 / (number of co-winners), the same share the zero-sum reward
gives; the interval is Wilson's 95% score interval over games.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np

from ..agents.base import Policy, play_out, win_shares
from ..envs.core import Game

EVAL_SEEDS_VERSION = 1
SELECTION_SEEDS_VERSION = 0  # for choosing between variants, apart from the reported seeds
_SEED_BASE = {0: 1 << 37, 1: 1 << 36}


def eval_seeds(n: int, version: int = EVAL_SEEDS_VERSION) -> np.ndarray:
    """The first n evaluation seeds of a seed-set version."""
    if version not in _SEED_BASE:
        raise ValueError(f"unknown evaluation seed version {version}; known: "
                         f"{', '.join(map(str, _SEED_BASE))}")
    return _SEED_BASE[version] + np.arange(n, dtype=np.int64)


def rotations(table: Sequence[int]) -> np.ndarray:
    """int [N, N]: the N cyclic seatings of `table` (policy ids by seat); row r shifts by r."""
    t = np.asarray(table, dtype=np.int64)
    return np.stack([np.roll(t, r) for r in range(len(t))])


def rotated_schedule(table: Sequence[int], games: int,
                     version: int = EVAL_SEEDS_VERSION) -> tuple[np.ndarray, np.ndarray]:
    """(seeds [G], seating [G, N]): every seed under every rotation; G = games rounded up to
    a multiple of the table size."""
    n = len(table)
    per_seed = rotations(table)
    n_seeds = max(1, math.ceil(games / n))
    seeds = np.repeat(eval_seeds(n_seeds, version), n)
    seating = np.tile(per_seed, (n_seeds, 1))
    return seeds, seating


@dataclass
class MatchResult:
    """Outcome of a batch of finished games."""

    seating: np.ndarray  # int [G, N]  policy id at each seat
    scores: np.ndarray  # int [G, N]  final tally per seat
    winners: np.ndarray  # bool [G, N]
    rank_keys: np.ndarray  # int [G, N]  higher is better (ties equal)
    rewards: np.ndarray  # float [G, N]  total reward per seat
    truncated: np.ndarray  # bool [G]


def play_matches(game: Game, policies: Sequence[Policy], seating: np.ndarray,
                 seeds: np.ndarray, batch_size: int = 2048) -> MatchResult:
    """Play game g with seeds[g], seat s taken by policies[seating[g, s]], batched."""
    seating = np.asarray(seating, dtype=np.int64)
    seeds = np.asarray(seeds, dtype=np.int64)
    if seating.shape != (len(seeds), game.num_players):
        raise ValueError(f"seating must be [{len(seeds)}, {game.num_players}], "
                         f"got {list(seating.shape)}")
    parts = []
    for lo in range(0, len(seeds), batch_size):
        parts.append(_play_chunk(game, policies, seating[lo:lo + batch_size],
                                 seeds[lo:lo + batch_size]))
    return MatchResult(seating, *(np.concatenate([getattr(p, k) for p in parts])
                                  for k in ("scores", "winners", "rank_keys", "rewards",
                                            "truncated")))


def _play_chunk(game: Game, policies: Sequence[Policy], seating: np.ndarray,
                seeds: np.ndarray) -> MatchResult:
    for p in policies:
        p.reset()
    state = game.init(seeds)
    total = play_out(game, state, policies, seating)
    return MatchResult(seating, game.scores(state), game.winners(state),
                       game.rank_keys(state), total, state.truncated.copy())


def wilson_interval(successes: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% by default); (0, 1) when n = 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class EvalRow:
    """How policy `name` did against `opponent` over `games` seat-rotated games."""

    name: str
    opponent: str
    games: int
    win_rate: float  # mean win share (1 / co-winners when among the winners)
    ci_low: float
    ci_high: float
    wins: int  # sole wins
    ties: int  # shared wins
    mean_margin: float  # own score minus the mean of the other seats' scores (solo: own)
    mean_reward: float

    def as_dict(self) -> dict:
        return asdict(self)


def summarize(result: MatchResult, policy_id: int, name: str, opponent: str) -> EvalRow:
    """Statistics of policy `policy_id` over the games of `result` (one seat per game)."""
    seat_mask = result.seating == policy_id
    if not (seat_mask.sum(axis=1) == 1).all():
        raise ValueError("summarize needs the policy in exactly one seat of every game")
    seat = seat_mask.argmax(axis=1)
    g = np.arange(len(seat))
    n_win = result.winners.sum(axis=1)
    won = result.winners[g, seat]
    credit = win_shares(result.winners)[g, seat]
    scores = result.scores.astype(np.float64)
    # the mean of the other seats' scores (a solo game has none: its margin is its score)
    others = (scores.sum(axis=1) - scores[g, seat]) / max(scores.shape[1] - 1, 1)
    lo, hi = wilson_interval(float(credit.sum()), len(g))
    return EvalRow(name, opponent, len(g), float(credit.mean()), lo, hi,
                   int((won & (n_win == 1)).sum()), int((won & (n_win > 1)).sum()),
                   float((scores[g, seat] - others).mean()), float(result.rewards[g, seat].mean()))


def evaluate(game: Game, policy: Policy, opponent: Policy, games: int, name: str = "policy",
             opponent_name: str = "opponent", version: int = EVAL_SEEDS_VERSION) -> EvalRow:
    """`policy` in one seat against copies of `opponent`, every seat rotation of every seed."""
    table = [0] + [1] * (game.num_players - 1)
    seeds, seating = rotated_schedule(table, games, version)
    result = play_matches(game, [policy, opponent], seating, seeds)
    return summarize(result, 0, name, opponent_name)


def format_rows(rows: Sequence[EvalRow]) -> str:
    from ..envs.core.render import table

    body = [[r.name, r.opponent, f"{100 * r.win_rate:5.1f}%",
             f"[{100 * r.ci_low:.1f}, {100 * r.ci_high:.1f}]", f"{r.mean_margin:+.2f}",
             f"{r.mean_reward:+.3f}", r.games] for r in rows]
    return table(["policy", "vs", "win rate", "95% CI (Wilson)", "score margin", "reward",
                  "games"], body)
