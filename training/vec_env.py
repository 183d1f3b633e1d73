"""A stable-baselines3 VecEnv of self-play games on the batch kernel.

Each of the N games seats the learner at a random seat; every other seat is filled by a
member of an `OpponentPool` (frozen learner snapshots, the heuristic bot, the random policy)
drawn per seat when the game starts. The opponents are played inside the env, batched, so the
learner only ever sees its own turns. A learner step applies the learner's actions to all N
games, then steps the opponents of every game in which an opponent is to move, repeatedly,
until each game waits for the learner again; games that ended report their final reward and
restart with fresh seeds. The loops run over steps and pool members, never over games; they
are `opponents.SeatedGames`, which the single-seat envs of `heistbench.integrations` share.

With `oracle=True` the learner's observation is the kernel's `critic_view` (its own view, then
what each other seat sees that it does not) for a critic that sees the hidden state
(`networks.OracleCriticPolicy`); its actor still reads the own view alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env import VecEnv

from ..agents.base import Policy
from ..envs import game as make_game
from ..envs.core import Game, observation_box
from .opponents import OpponentPool, PolicySlots, SeatedGames


class SelfPlayVecEnv(SeatedGames, VecEnv):
    """N games of `game`, the learner in one random seat per game (or always `seat`), the
    opponents (an `OpponentPool`, or any `PolicySlots`) played inside."""

    def __init__(self, game: str | Game, num_envs: int, pool: PolicySlots | None = None,
                 seed: int = 0, seat: int | None = None, oracle: bool = False,
                 **options: Any):
        if isinstance(game, str):
            game = make_game(game, validate=False, **options)
        if seat is not None and not 0 <= seat < game.num_players:
            raise ValueError(f"{game.name}: seat must be in 0..{game.num_players - 1} or None "
                             f"(a random seat per game), got {seat!r}")
        SeatedGames.__init__(self, game, num_envs,
                             pool or OpponentPool(game, {"random": 1.0}, seed=seed))
        self.pool = self.opponents
        self.fixed_seat = seat
        self.render_mode = None  # no rendering from the vector env: render the kernel's games
        self.oracle = oracle
        width = game.critic_size if oracle else game.obs_size
        VecEnv.__init__(self, num_envs, observation_box(width),
                        gym.spaces.Discrete(game.num_actions))
        self.rng = np.random.default_rng(seed)
        # training seeds: a block per run seed, far from the evaluation seeds (< 2**40)
        self.next_seed = (1 << 41) + (seed % (1 << 20)) * (1 << 32)
        self.ep_return = np.zeros(num_envs, dtype=np.float64)
        self.ep_length = np.zeros(num_envs, dtype=np.int64)
        self.actions: np.ndarray | None = None
        self.games_finished = 0

    # -- game lifecycle ----------------------------------------------------------------------
    def _new_games(self, idx: np.ndarray) -> None:
        """Fresh games with fresh seeds, learner seats and opponents at rows `idx`."""
        k = idx.size
        seeds = np.arange(self.next_seed, self.next_seed + k, dtype=np.int64)
        self.next_seed += k
        seats = (self.rng.integers(self.game.num_players, size=k) if self.fixed_seat is None
                 else np.full(k, self.fixed_seat, dtype=np.int64))
        self.start(idx, seeds, seats)
        self.ep_return[idx] = 0.0
        self.ep_length[idx] = 0

    def _play_opponents(self, reward: np.ndarray, dones: np.ndarray,
                        infos: list[dict]) -> None:
        """Opponents move until every game waits for the learner; finished games restart."""

        def restart(over: np.ndarray) -> None:
            ended = over & ~dones  # the learner's current episode ended here
            if ended.any():
                self._finish(np.flatnonzero(ended), reward, infos)
                np.logical_or(dones, ended, out=dones)
            self._new_games(np.flatnonzero(over))

        self.play_opponents(reward, dones, restart)

    def _finish(self, idx: np.ndarray, reward: np.ndarray, infos: list[dict]) -> None:
        """Episode statistics and the terminal observation of games `idx`."""
        self.ep_return[idx] += reward[idx]
        terminal_obs = self._observe(self.state[idx], self.seat[idx])
        truncated = self.state.truncated[idx] & ~self.state.terminated[idx]
        for j, b in enumerate(idx.tolist()):
            infos[b]["terminal_observation"] = terminal_obs[j]
            infos[b]["TimeLimit.truncated"] = bool(truncated[j])
            infos[b]["episode"] = {"r": float(self.ep_return[b]), "l": int(self.ep_length[b])}
        self.games_finished += idx.size

    def _observe(self, state, seats: np.ndarray) -> np.ndarray:
        """The learner's observations: its own view, or with `oracle` the critic's."""
        view = self.game.critic_view if self.oracle else self.game.observe
        return view(state, seats)

    def add_snapshot(self, policy: Policy) -> None:
        """A frozen copy of the learner joins the opponents (`env_method("add_snapshot", p)`
        reaches it from a callback)."""
        self.pool.add_snapshot(policy)

    # -- VecEnv API -----------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        self.state = None
        self._new_games(self.rows)
        infos = [{} for _ in range(self.num_envs)]
        self._play_opponents(np.zeros(self.num_envs), np.zeros(self.num_envs, bool), infos)
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return self._observe(self.state, self.seat)

    def step_async(self, actions: np.ndarray) -> None:
        self.actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self):
        state = self.state
        self.check_learner(self.actions)
        self.game.step(state, self.actions)  # every game waits for the learner here
        self.ep_length += 1
        reward = state.rewards[self.rows, self.seat].astype(np.float64)
        dones = np.zeros(self.num_envs, dtype=bool)
        infos: list[dict] = [{} for _ in range(self.num_envs)]
        self._play_opponents(reward, dones, infos)
        self.ep_return += np.where(dones, 0.0, reward)
        obs = self._observe(self.state, self.seat)
        return obs, reward.astype(np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        """bool [N, A]: the learner's legal actions in each game (it is to move in all)."""
        if self.state is None:
            raise RuntimeError(f"{self.game.name}: call reset() before action_masks(): there "
                               "are no games yet")
        return self.state.legal_action_mask.copy()

    def close(self) -> None:
        pass

    def seed(self, seed: int | None = None) -> list[None]:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
            self.next_seed = (1 << 41) + (seed % (1 << 20)) * (1 << 32)
        return [None] * self.num_envs

    def _indices(self, indices) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return indices

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        return [getattr(self, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *args, indices=None, **kwargs):
        if method_name == "action_masks":  # sb3-contrib stacks whatever rows come back
            masks = self.action_masks()
            return masks if indices is None else masks[list(self._indices(indices))]
        out = getattr(self, method_name)(*args, **kwargs)
        return [out] * len(self._indices(indices))

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def has_attr(self, attr_name: str) -> bool:
        return hasattr(self, attr_name)
