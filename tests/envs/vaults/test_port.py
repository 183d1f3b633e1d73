"""The port harness: the compiled Vaults rules against the former NumPy kernel, side by side.

Both kernels play the same seeds with the same (random legal) actions; after every step every
state array, the current player, the mask, every seat's observation, the rewards, and (at the
end) the scores, rank keys and winners must be equal; `resample_hidden` too, from the same
seeds. The NumPy kernel's derived arrays (crew stats, pile tops) have no compiled counterpart;
crew slots beyond `max_crews` must stay empty. `HEISTBENCH_PORT_STEPS` sets the agent steps per
configuration (CI runs a sample).
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from heistbench.envs.vaults_v0 import Game

from . import numpy_kernel

STEPS = int(os.environ.get("HEISTBENCH_PORT_STEPS", "3000"))
CONFIGS = [
    {"num_players": 2}, {"num_players": 3}, {"num_players": 4},
    {"num_players": 2, "response_windows": "every_action"},
    {"num_players": 3, "response_windows": "every_action", "auto_forced": False},
    {"num_players": 4, "response_windows": "every_action", "max_crews": 3},
    {"num_players": 2, "response_windows": "none", "reward": "score"},
    {"num_players": 3, "auto_forced": False, "first_player": 2, "max_crews": 8},
    {"num_players": 4, "auto_forced": False, "reward": "score", "goal": 200},
    {"num_players": 2, "max_crews": 2, "goal": 150, "max_turns": 100},
]
CREW_FIELDS = ("crew", "spent", "blocked", "mods")  # per crew slot: only K are in the NumPy one


def assert_same(old_game, new_game, old, new, what: str) -> None:
    """Every state array, every seat's observation and the rewards are equal."""
    K = old_game.K
    for name, arr in old.arrays().items():
        if name in ("cstats", "tops"):
            continue
        got = getattr(new, name)
        if name in CREW_FIELDS:
            assert not got[:, :, K:].any(), f"{what}: {name} beyond slot {K}"
            got = got[:, :, :K]
        if not np.array_equal(got, arr):
            b = int(np.flatnonzero((got != arr).reshape(len(arr), -1).any(axis=1))[0])
            raise AssertionError(f"{what}: field {name!r} differs in game {b}: "
                                 f"{arr[b].tolist()} (NumPy) vs {got[b].tolist()} (compiled)")
    for p in range(old_game.num_players):
        np.testing.assert_array_equal(new_game.observe(new, p), old_game.observe(old, p),
                                      err_msg=f"{what}: seat {p}'s observation")


def random_actions(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """A uniform legal action per game (0 where none is legal)."""
    n = mask.sum(axis=1)
    rank = np.minimum((rng.random(len(mask)) * n).astype(np.int64), np.maximum(n - 1, 0))
    order = np.argsort(~mask, axis=1, kind="stable")
    return np.where(n > 0, order[np.arange(len(mask)), rank], 0)


def play_side_by_side(options: dict, steps: int, seed: int = 0) -> int:
    """Play until `steps` agent steps are compared, on a batch whose finished games are
    replaced by fresh ones (so that it holds games of every age); returns the number compared.
    A finished game's scores, rank keys and winners are compared before it is replaced."""
    old_game = numpy_kernel.Vaults(**options)
    new_game = Game(**options)
    rng = np.random.default_rng(seed)
    batch = int(np.clip(steps // 1000, 4, 512))
    next_seed = 100_000 * seed + batch
    old, new = old_game.init(np.arange(batch)), new_game.init(np.arange(batch))
    assert_same(old_game, new_game, old, new, f"init {options}")
    done_steps = 0
    while done_steps < steps:
        acts = random_actions(rng, old.legal_action_mask)
        old_game.step(old, acts)
        new_game.step(new, acts)
        done_steps += batch
        assert_same(old_game, new_game, old, new, f"{options} after {done_steps} steps")
        over = np.flatnonzero(old.done)
        if over.size:
            a, b = old[over], new[over]
            np.testing.assert_array_equal(new_game.scores(b), old_game.scores(a))
            np.testing.assert_array_equal(new_game.rank_keys(b), old_game.rank_keys(a))
            np.testing.assert_array_equal(new_game.winners(b), old_game.winners(a))
            seeds = np.arange(next_seed, next_seed + over.size)
            next_seed += over.size
            old[over], new[over] = old_game.init(seeds), new_game.init(seeds)
            assert_same(old_game, new_game, old, new, f"{options}: fresh games")
    return done_steps


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: "-".join(f"{k}={v}" for k, v in
                                                                    o.items()))
def test_compiled_rules_match_the_numpy_kernel(options):
    done = play_side_by_side(options, STEPS)
    print(f"port: {done} agent steps compared for {options}")
    assert done >= STEPS


@pytest.mark.parametrize("n", [2, 3, 4])
def test_resample_hidden_matches_the_numpy_kernel(n):
    """Determinization: the same redeal from the same seeds, masks included."""
    old_game, new_game = numpy_kernel.Vaults(num_players=n), Game(num_players=n)
    B = 32
    old, new = old_game.init(np.arange(B)), new_game.init(np.arange(B))
    rng = np.random.default_rng(n)
    for t in range(200):
        acts = random_actions(rng, old.legal_action_mask)
        old_game.step(old, acts)
        new_game.step(new, acts)
        if t % 10 == 0:
            p = t % n
            seeds = np.arange(B) + t
            assert_same(old_game, new_game, old_game.resample_hidden(old, p, seeds),
                        new_game.resample_hidden(new, p, seeds), f"resample {n}p step {t}")
