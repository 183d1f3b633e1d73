"""A stable-baselines3 VecEnv of self-play games on the batch kernel.

Each of the N games seats the learner at a random seat; every other seat is filled by a
member of an `OpponentPool` (frozen learner snapshots, the heuristic bot, the random policy)
drawn per seat when the game starts. The opponents are played inside the env, batched, so the
learner only ever sees its own turns. A learner step applies the learner's actions to all N
games, then steps the opponents of every game in which an opponent is to move, repeatedly,
until each game waits for the learner again; games that ended report their final reward and
restart with fresh seeds. The loops run over steps and pool members, never over games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env import VecEnv

from ..agents.base import Policy, RandomPolicy
from ..envs import game as make_game
from ..envs.core import Game, observation_box

OPPONENT_KINDS = ("self", "heuristic", "random")
RANDOM_SLOT, HEURISTIC_SLOT, FIRST_SNAPSHOT_SLOT = 0, 1, 2


class OpponentPool:
    """The policies that fill the non-learner seats, by slot: random, heuristic, snapshots..."""

    def __init__(self, game: Game, mix: dict[str, float], pool_size: int = 8, seed: int = 0):
        unknown = set(mix) - set(OPPONENT_KINDS)
        if unknown:
            raise ValueError(f"unknown opponent kind {sorted(unknown)[0]!r}; "
                             f"use {', '.join(OPPONENT_KINDS)}")
        share = np.array([mix.get(k, 0.0) for k in OPPONENT_KINDS], dtype=np.float64)
        if (share < 0).any() or share.sum() <= 0:
            raise ValueError(f"opponent mix {mix!r}: shares must be >= 0 with a positive sum")
        self.share = share / share.sum()
        self.pool_size = pool_size
        self.rng = np.random.default_rng(seed)
        heuristic: Policy | None = None
        if self.share[1] > 0:
            from ..agents import heuristic_policy

            heuristic = heuristic_policy(game, seed=seed + 1)
        self.slots: list[Policy | None] = [RandomPolicy(seed=seed + 2), heuristic]
        self.snapshots_added = 0

    @property
    def num_snapshots(self) -> int:
        return len(self.slots) - FIRST_SNAPSHOT_SLOT

    def add_snapshot(self, policy: Policy) -> None:
        """A frozen learner enters the pool, replacing the oldest once the pool is full."""
        if self.num_snapshots < self.pool_size:
            self.slots.append(policy)
        else:
            self.slots[FIRST_SNAPSHOT_SLOT + self.snapshots_added % self.pool_size] = policy
        self.snapshots_added += 1

    def draw(self, n: int) -> np.ndarray:
        """Slots for n seats, drawn by the mix; "self" picks a snapshot uniformly."""
        kind = self.rng.choice(len(OPPONENT_KINDS), size=n, p=self.share)
        slot = np.where(kind == 2, RANDOM_SLOT, HEURISTIC_SLOT)
        is_self = kind == 0
        if self.num_snapshots == 0:  # before the first snapshot: random stands in
            slot[is_self] = RANDOM_SLOT
        else:
            slot[is_self] = FIRST_SNAPSHOT_SLOT + self.rng.integers(
                self.num_snapshots, size=int(is_self.sum()))
        return slot

    def act(self, slots: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Actions of the policies in `slots` [k], each batched over its own rows."""
        actions = np.zeros(len(slots), dtype=np.int64)
        for s in np.unique(slots):
            rows = slots == s
            actions[rows] = self.slots[s].act(obs[rows], mask[rows])
        return actions


class SelfPlayVecEnv(VecEnv):
    """N games of `game`, the learner in one random seat per game, opponents played inside."""

    def __init__(self, game: str | Game, num_envs: int, pool: OpponentPool | None = None,
                 seed: int = 0, **options: Any):
        if isinstance(game, str):
            game = make_game(game, validate=False, **options)
        self.game = game
        self.pool = pool or OpponentPool(game, {"random": 1.0}, seed=seed)
        self.render_mode = None  # no rendering from the vector env: render the kernel's games
        super().__init__(num_envs, observation_box(game.obs_size),
                         gym.spaces.Discrete(game.num_actions))
        self.rng = np.random.default_rng(seed)
        # training seeds: a block per run seed, far from the evaluation seeds (< 2**40)
        self.next_seed = (1 << 41) + (seed % (1 << 20)) * (1 << 32)
        self.rows = np.arange(num_envs)
        self.state = None
        self.seat = np.zeros(num_envs, dtype=np.int64)  # the learner's seat per game
        self.opp = np.zeros((num_envs, game.num_players), dtype=np.int64)  # pool slot per seat
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
        if self.state is None:
            self.state = self.game.init(seeds)
        else:
            self.state[idx] = self.game.init(seeds)
        self.seat[idx] = self.rng.integers(self.game.num_players, size=k)
        self.opp[idx] = self.pool.draw(k * self.game.num_players).reshape(k, -1)
        self.ep_return[idx] = 0.0
        self.ep_length[idx] = 0

    def _step_only(self, movers: np.ndarray, actions: np.ndarray) -> None:
        """Step the games flagged in `movers`, leaving the others untouched."""
        self.game.step(self.state, actions, where=movers)

    def _play_opponents(self, reward: np.ndarray, dones: np.ndarray,
                        infos: list[dict]) -> None:
        """Opponents move until every game waits for the learner; finished games restart."""
        state = self.state
        for _ in range(self.game.max_steps + 2):
            over = state.terminated | state.truncated
            ended = over & ~dones  # the learner's current episode ended here
            if ended.any():
                self._finish(np.flatnonzero(ended), reward, infos)
                dones |= ended
            if over.any():
                self._new_games(np.flatnonzero(over))
            turn = state.current_player != self.seat
            if not turn.any():
                return
            rows = np.flatnonzero(turn)
            cp = state.current_player[rows].astype(np.int64)
            # observing a copied sub-batch beats observing every game once few remain
            obs = self.game.observe(state[rows] if rows.size < self.num_envs else state, cp)
            actions = np.zeros(self.num_envs, dtype=np.int64)
            actions[rows] = self.pool.act(self.opp[rows, cp], obs,
                                          state.legal_action_mask[rows])
            self._step_only(turn, actions)
            reward += np.where(dones, 0.0, state.rewards[self.rows, self.seat])
        raise RuntimeError(f"{self.game.name}: opponents did not hand the turn back within "
                           f"{self.game.max_steps} steps")

    def _finish(self, idx: np.ndarray, reward: np.ndarray, infos: list[dict]) -> None:
        """Episode statistics and the terminal observation of games `idx`."""
        self.ep_return[idx] += reward[idx]
        terminal_obs = self.game.observe(self.state[idx], self.seat[idx])
        truncated = self.state.truncated[idx] & ~self.state.terminated[idx]
        for j, b in enumerate(idx.tolist()):
            infos[b]["terminal_observation"] = terminal_obs[j]
            infos[b]["TimeLimit.truncated"] = bool(truncated[j])
            infos[b]["episode"] = {"r": float(self.ep_return[b]), "l": int(self.ep_length[b])}
        self.games_finished += idx.size

    # -- VecEnv API -----------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        self.state = None
        self._new_games(self.rows)
        infos = [{} for _ in range(self.num_envs)]
        self._play_opponents(np.zeros(self.num_envs), np.zeros(self.num_envs, bool), infos)
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return self.game.observe(self.state, self.seat)

    def step_async(self, actions: np.ndarray) -> None:
        self.actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self):
        state = self.state
        if not state.legal_action_mask[self.rows, self.actions].all():
            b = int(np.flatnonzero(~state.legal_action_mask[self.rows, self.actions])[0])
            raise ValueError(f"{self.game.name}: game {b}: the learner's action "
                             f"{int(self.actions[b])} ({self.game.action_name(self.actions[b])})"
                             " is illegal; use the action_masks()")
        self.game.step(state, self.actions)  # every game waits for the learner here
        self.ep_length += 1
        reward = state.rewards[self.rows, self.seat].astype(np.float64)
        dones = np.zeros(self.num_envs, dtype=bool)
        infos: list[dict] = [{} for _ in range(self.num_envs)]
        self._play_opponents(reward, dones, infos)
        self.ep_return += np.where(dones, 0.0, reward)
        obs = self.game.observe(self.state, self.seat)
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
