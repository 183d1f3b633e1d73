"""The port harness: the compiled Big Score rules against the former NumPy kernel, side by side.

Both kernels play the same seeds with the same (random legal) actions; after every step every
state array, the current player, the mask, every seat's observation, the rewards, and (at the
end) the scores, rank keys and winners must be equal; `resample_hidden` must redeal the same
from the same seeds. `HEISTBENCH_PORT_STEPS` sets the agent steps per configuration (the port
was checked with over 1,000,000 in all; CI runs a sample).
"""

from __future__ import annotations

import os

import numpy as np
import numpy_kernel
import pytest
from heistbench.envs.big_score_v0 import Game

STEPS = int(os.environ.get("HEISTBENCH_PORT_STEPS", "3000"))
CONFIGS = [
    {"num_players": 2}, {"num_players": 3}, {"num_players": 4}, {"num_players": 5},
    {"num_players": 6},
    {"num_players": 2, "auto_forced": False}, {"num_players": 4, "auto_forced": False},
    {"num_players": 6, "auto_forced": False, "reward": "score"},
    {"num_players": 3, "reward": "score", "inside_man": True, "joat_per_player": 2},
    {"num_players": 2, "inside_man": False, "joat_per_player": 1, "cops_to_bust": 2},
    {"num_players": 5, "simple_variant": True, "boss_option_mode": "random",
     "boss_assignment": "random"},
    {"num_players": 4, "expert_abilities": False, "boss_option_mode": "cash",
     "fp_tiebreak": "random"},
    {"num_players": 3, "abilities": ("driver", "gun_man", "con_man"),
     "boss_option_mode": "token", "fp_tiebreak": "lowest_seat",
     "boss_options": [("diamond", 2), ("artifact", 4), ("hard_drive", 3), ("diamond", 1),
                      ("artifact", 3), ("hard_drive", 5)]},
    {"num_players": 6, "cops_to_bust": 10, "max_steps": 150},
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
        seats = np.where(old.done, -1, p)
        o, w = old_game.observe(old, seats), new_game.observe(new, seats)
        if not np.array_equal(o, w):
            b, col = (int(x[0]) for x in np.nonzero(o != w))
            name = next(n for n in new_game.observation_layout.names
                        if col in range(new_game.observation_layout.slice_of(n).start,
                                        new_game.observation_layout.slice_of(n).stop)
                        or any(col in range(new_game.observation_layout.slice_of(n, i).start,
                                            new_game.observation_layout.slice_of(n, i).stop)
                               for i in range(6) if "." in n and n.split(".")[0] in
                               ("job", "player")))
            raise AssertionError(f"{what}: seat {p}'s observation differs in game {b}, column "
                                 f"{col} ({name}): {o[b, col]} (NumPy) vs {w[b, col]}")


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per game (0 where none)."""
    batch = len(mask)
    n = mask.sum(axis=1)
    rank = np.minimum((rng.random(batch) * n).astype(np.int64), np.maximum(n - 1, 0))
    return np.where(n > 0, np.argsort(~mask, axis=1, kind="stable")[np.arange(batch), rank], 0)


def play_side_by_side(options: dict, steps: int, batch: int = 256, seed: int = 0) -> int:
    """Play until `steps` agent steps are compared; returns the number compared."""
    old_game = numpy_kernel.BigScoreGame(**options)
    new_game = Game(**options)
    rng = np.random.default_rng(seed)
    done_steps, first_seed = 0, 1000 * seed
    while done_steps < steps:
        seeds = np.arange(first_seed, first_seed + batch)
        first_seed += batch
        old, new = old_game.init(seeds), new_game.init(seeds)
        assert_same(old_game, new_game, old, new, f"init {options}")
        while not old.done.all():
            acts = random_actions(old.legal_action_mask, rng)
            live = int((~old.done).sum())
            old_game.step(old, acts)
            new_game.step(new, acts)
            done_steps += live
            assert_same(old_game, new_game, old, new, f"{options} after {done_steps} steps")
        np.testing.assert_array_equal(new_game.scores(new), old_game.scores(old))
        np.testing.assert_array_equal(new_game.rank_keys(new), old_game.rank_keys(old))
        np.testing.assert_array_equal(new_game.winners(new), old_game.winners(old))
    return done_steps


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: "-".join(
    f"{k}={v}" for k, v in o.items() if k != "boss_options"))
def test_compiled_rules_match_the_numpy_kernel(options):
    total = play_side_by_side(options, STEPS)
    print(f"port: {total} agent steps compared for {options}")
    assert total >= STEPS


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_resample_hidden_matches_the_numpy_kernel(n):
    """Determinization: the same redeal from the same seeds, masks included, at every kind
    of decision."""
    old_game, new_game = numpy_kernel.BigScoreGame(num_players=n), Game(num_players=n)
    old, new = old_game.init(np.arange(64)), new_game.init(np.arange(64))
    rng = np.random.default_rng(n)
    for t in range(400):
        if old.done.all():
            break
        acts = random_actions(old.legal_action_mask, rng)
        old_game.step(old, acts)
        new_game.step(new, acts)
        if t % 7 == 3:
            p = t % n
            assert_same(old_game, new_game, old_game.resample_hidden(old, p, np.arange(64) + t),
                        new_game.resample_hidden(new, p, np.arange(64) + t),
                        f"resample {n}p step {t}")
