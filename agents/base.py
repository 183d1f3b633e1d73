"""The policy interface every agent implements, and the uniform random policy."""

from __future__ import annotations

import numpy as np


class Policy:
    """Plays any seat of a game, batched: `act(obs [B, D], mask [B, A]) -> actions [B]`."""

    name: str = "policy"

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def reset(self) -> None:
        """Forget per-game memory (policies that keep none need not override)."""


def sample_legal(mask: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The action of rank floor(u * #legal) among each row's legal actions (vectorized).

    One pass over the legal positions of the whole batch, in row order: a cumulative sum
    along each row's few dozen actions is several times slower for a large batch."""
    mask = np.asarray(mask, dtype=bool)
    B, A = mask.shape
    at = np.flatnonzero(mask)  # legal (row, action) positions, row by row
    n = np.bincount(at // A, minlength=B)
    if not n.all():
        bad = int(np.flatnonzero(n == 0)[0])
        raise ValueError(f"row {bad} of the action mask has no legal action")
    rank = np.minimum((u * n).astype(np.int64), n - 1)
    return at[np.cumsum(n) - n + rank] - np.arange(B) * A


class ObservationBot(Policy):
    """Base of the heuristic bots: rules over the acting seat's own observation, batched."""

    name = "heuristic"

    def __init__(self, game, seed: int | None = 0):
        self.game = game
        self.n = game.num_players
        self.rng = np.random.default_rng(seed)

    def view(self, obs: np.ndarray, mask: np.ndarray) -> tuple[dict[str, np.ndarray],
                                                               np.ndarray]:
        """The acting seat's own view by field name (the first block of an oracle
        observation, so a bot never uses what the rules hide), and the mask as bool [B, A]."""
        obs = np.atleast_2d(obs)
        view = self.game.base_observation_layout.decode(obs[:, :self.game.base_obs_size])
        return view, np.atleast_2d(mask).astype(bool)


class RandomPolicy(Policy):
    """Uniform over the legal actions."""

    name = "random"

    def __init__(self, game=None, seed: int | None = 0):
        self.rng = np.random.default_rng(seed)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        mask = np.atleast_2d(mask)
        return sample_legal(mask, self.rng.random(mask.shape[0]))
