"""Stable-baselines3 / sb3-contrib: self-play with every seat credited right, and the fast VecEnv.

PettingZoo's SB3 tutorial (connect four) wraps an AEC env into one `gym.Env` that plays every
seat with the policy being trained and returns, after each move, the mover's reward and the
*next* player's observation. Credit goes wrong twice: the seats' moves form one trajectory, so
each move's value is bootstrapped from a state seen by the other player; and the episode ends on
the winning move, so the loser's -1 never reaches any move. Here the learner owns one seat per
episode (drawn at each reset, so over episodes it plays them all); the other seats are played
inside `step` by a frozen snapshot of the learner, and the learner's reward is its own seat's,
summed over the opponents' moves until its next turn:

    env = make_single_agent("grifters", seat="random", opponents="self")
    model = MaskablePPO("MlpPolicy", env)
    model.learn(50_000, callback=SnapshotCallback(every=5_000))

`sb3_vec_env` is the same env for many games at once on the batch kernel (the training
VecEnv, `SelfPlayVecEnv`, with a fixed table of opponents); the same callback refreshes it.
`heistbench train` runs the full recipe: a pool of snapshots and bots, evaluation, checkpoints.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv
from stable_baselines3.common.callbacks import BaseCallback

from ..agents.model import ModelPolicy
from ..envs.core import Game
from ..training.vec_env import SelfPlayVecEnv
from .single_agent import learner_game, learner_seat, opponent_table


class SnapshotCallback(BaseCallback):
    """At the start of training and every `every` learner steps, a frozen copy of the learner
    takes the "self" seats of the training envs (through their `add_snapshot`)."""

    def __init__(self, every: int = 10_000, seed: int = 0, verbose: int = 0):
        super().__init__(verbose)
        if every < 1:
            raise ValueError(f"every must be a positive number of steps, got {every!r}")
        self.every = every
        self.seed = seed
        self.next_snapshot = every
        self.snapshots = 0

    def _on_training_start(self) -> None:
        self.snapshot()

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_snapshot:
            self.snapshot()
            self.next_snapshot += self.every
        return True

    def snapshot(self) -> None:
        """Freeze the learner now and seat the copy."""
        policy = ModelPolicy.from_sb3(self.model.policy, seed=self.seed + self.num_timesteps)
        self.training_env.env_method("add_snapshot", policy)
        self.snapshots += 1


def sb3_vec_env(game: str | Game | AECEnv, num_envs: int, seat: int | str = "random",
                opponents: Any = "heuristic", num_players: int | None = None, seed: int = 0,
                **options: Any) -> SelfPlayVecEnv:
    """`num_envs` single-seat games as a stable-baselines3 VecEnv on the batch kernel, with
    `action_masks()` for MaskablePPO; the arguments are `make_single_agent`'s but for
    `illegal_action`: an illegal action raises, as in training. Finished games restart at once
    (SB3's convention), with the training VecEnv's seeds."""
    kernel = learner_game(game, num_players, options)
    return SelfPlayVecEnv(kernel, num_envs, opponent_table(opponents, kernel, seed=seed),
                          seed=seed, seat=learner_seat(seat, kernel))
