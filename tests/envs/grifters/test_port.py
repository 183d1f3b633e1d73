"""The port harness: the compiled Grifters rules against the former NumPy kernel, side by side.

Both kernels play the same seeds with the same (random legal) actions; after every step every
state array, the current player, the mask, every seat's observation, the rewards, and (at the
end) the scores and rank keys must be equal. `HEISTBENCH_PORT_STEPS` sets the agent steps per
configuration (the port was checked with 1,000,000 in all; CI runs a sample).
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from heistbench.envs.grifters_v0 import Game

from . import numpy_kernel

STEPS = int(os.environ.get("HEISTBENCH_PORT_STEPS", "20000"))
CONFIGS = [
    {"num_players": 2}, {"num_players": 3}, {"num_players": 4},
    {"num_players": 2, "auto_forced": False}, {"num_players": 3, "auto_forced": False},
    {"num_players": 4, "auto_forced": False, "first_player": 2},
    {"num_players": 3, "reward": "score", "first_player": 1},
]


def assert_same(old_game, new_game, old, new, what: str) -> None:
    """Every state array, every seat's observation and the rewards are equal."""
    for name, arr in old.arrays().items():
        got = getattr(new, name)
        if not np.array_equal(got, arr):
            b = int(np.flatnonzero((got != arr).reshape(len(arr), -1).any(axis=1))[0])
            raise AssertionError(f"{what}: field {name!r} differs in game {b}: "
                                 f"{arr[b].tolist()} (NumPy) vs {got[b].tolist()} (compiled)")
    for p in range(old_game.num_players):
        np.testing.assert_array_equal(new_game.observe(new, p), old_game.observe(old, p),
                                      err_msg=f"{what}: seat {p}'s observation")


def play_side_by_side(options: dict, steps: int, batch: int = 256, seed: int = 0) -> int:
    """Play until `steps` agent steps are compared; returns the number compared."""
    old_game = numpy_kernel.GriftersGame(**options)
    new_game = Game(**options)
    rng = np.random.default_rng(seed)
    done_steps, first_seed = 0, 1000 * seed
    while done_steps < steps:
        seeds = np.arange(first_seed, first_seed + batch)
        first_seed += batch
        old, new = old_game.init(seeds), new_game.init(seeds)
        assert_same(old_game, new_game, old, new, f"init {options}")
        while not old.done.all():
            mask = old.legal_action_mask
            u = rng.random(batch)
            n = mask.sum(axis=1)
            rank = np.minimum((u * n).astype(np.int64), np.maximum(n - 1, 0))
            acts = np.where(n > 0, np.argsort(~mask, axis=1, kind="stable")[
                np.arange(batch), rank], 0)
            live = int((~old.done).sum())
            old_game.step(old, acts)
            new_game.step(new, acts)
            done_steps += live
            assert_same(old_game, new_game, old, new, f"{options} after {done_steps} steps")
        np.testing.assert_array_equal(new_game.scores(new), old_game.scores(old))
        np.testing.assert_array_equal(new_game.rank_keys(new), old_game.rank_keys(old))
        np.testing.assert_array_equal(new_game.winners(new), old_game.winners(old))
    return done_steps


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: "-".join(f"{k}={v}" for k, v in
                                                                    o.items()))
def test_compiled_rules_match_the_numpy_kernel(options):
    assert play_side_by_side(options, STEPS) >= STEPS


def test_resample_hidden_matches_the_numpy_kernel():
    """Determinization: the same redeal from the same seeds, masks included."""
    for n in (2, 3, 4):
        old_game, new_game = numpy_kernel.GriftersGame(num_players=n), Game(num_players=n)
        old, new = old_game.init(np.arange(64)), new_game.init(np.arange(64))
        rng = np.random.default_rng(n)
        for t in range(60):
            mask = old.legal_action_mask
            acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
            old_game.step(old, acts)
            new_game.step(new, acts)
            if t % 10 == 9:
                p = t % n
                assert_same(old_game, new_game, old_game.resample_hidden(old, p, np.arange(64) + t),
                            new_game.resample_hidden(new, p, np.arange(64) + t),
                            f"resample {n}p step {t}")
