"""Many single-seat games stepped together on the batch kernel: a Gymnasium `VectorEnv`.

`make_vector_env(game, num_envs, seat=..., opponents=...)` is `num_envs` copies of
`make_single_agent(game, ...)` in one kernel batch: one compiled step for every learner, the
opponents of every game played batched per policy, no Python loop over games. Row i of a vector
env reset with seed s plays like a single env reset with seed s + i (Gymnasium's convention),
episode after episode, whenever the opponents play deterministically: a random opponent, a bot
breaking ties at random or a sampling checkpoint draws from one stream for the whole batch.

Autoreset is Gymnasium's default, next-step: the step after a game ends ignores that row's
action and returns the first observation of its next game (reward 0, not terminated). Legal
actions: `envs.action_masks()` (bool [num_envs, num_actions]; all False in a finished row),
`infos["action_mask"]`, and `envs.action_space.sample()` draws a legal action in every row.

Illegal actions: `illegal_action="lose"` (the default) ends only that row's game, terminated
with reward -1 (then autoreset like any other end), with `infos["illegal_action"]` and
`infos["legal_actions"]` (masked by `infos["_illegal_action"]`); `"raise"` raises ValueError
naming the row, the action and the legal ones, and no row changes. Actions that are not ints in
0..num_actions-1 always raise.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space
from pettingzoo import AECEnv

from ..agents.base import Policy, sample_legal
from ..envs.core import Game, observation_box
from ..training.opponents import SeatedGames
from .single_agent import (
    episode_draws,
    illegal_action_mode,
    learner_game,
    learner_seat,
    opponent_table,
)


class LegalMultiDiscrete(spaces.MultiDiscrete):
    """`MultiDiscrete([n] * B)` whose `sample()` draws a legal action in each row of `legal`
    (bool [B, n], kept current by the env; 0 in a finished row); with a mask or probabilities
    given, MultiDiscrete's own."""

    def __init__(self, n: int, legal: np.ndarray, seed: int | None = None):
        super().__init__(np.full(legal.shape[0], n), seed=seed)
        self.legal = legal

    def sample(self, mask: Any = None, probability: Any = None) -> np.ndarray:
        if mask is None and probability is None:
            return sample_legal(self.legal, self.np_random.random(self.legal.shape[0]))
        return super().sample(mask=mask, probability=probability)


class SingleAgentVectorEnv(SeatedGames, gym.vector.VectorEnv):
    """`num_envs` single-seat games of one kernel batch (see the module's documentation)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, game: str | Game | AECEnv, num_envs: int, seat: int | str = "random",
                 opponents: Any = "heuristic", num_players: int | None = None,
                 illegal_action: str = "lose", **options: Any):
        kernel = learner_game(game, num_players, options)
        self.lose_illegal = illegal_action_mode(illegal_action, kernel)
        if not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"{kernel.name}: num_envs must be a positive int, got {num_envs!r}")
        self.fixed_seat = learner_seat(seat, kernel)
        SeatedGames.__init__(self, kernel, int(num_envs), opponent_table(opponents, kernel))
        self.num_envs = int(num_envs)
        self.single_observation_space = observation_box(kernel.obs_size)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.single_action_space = spaces.Discrete(kernel.num_actions)
        self._legal = np.zeros((self.num_envs, kernel.num_actions), bool)
        self.action_space = LegalMultiDiscrete(kernel.num_actions, self._legal)
        self._keys = np.zeros(self.num_envs, np.int64)  # each row's reset seed
        self._episodes = np.zeros(self.num_envs, np.int64)  # and the episode of it now played
        self._seeded = False
        self._autoreset = np.zeros(self.num_envs, bool)  # rows whose game ended last step

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed if isinstance(seed, (int, np.integer)) else None)
        if options:
            raise ValueError(f"{self.game.name}: reset takes no options, got {sorted(options)}")
        if seed is None:
            if self._seeded:
                self._episodes += 1
            else:
                self._keys[:] = self.np_random.integers(0, 2**62, size=self.num_envs)
                self._episodes[:] = 0
        else:
            self._keys[:] = self._reset_seeds(seed)
            self._episodes[:] = 0
        self._seeded = True
        policy_seed = self._start(self.rows)
        self.opponents.seed(int(policy_seed[0]))
        self.opponents.reset()
        self.play_opponents(np.zeros(self.num_envs), np.zeros(self.num_envs, bool))
        self._autoreset[:] = False
        self._check_started(self.rows)
        infos = self._infos()
        infos["seat"], infos["_seat"] = self.seat.copy(), np.ones(self.num_envs, bool)
        return self.learner_observation(), infos

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        if self.state is None:
            raise RuntimeError(f"{self.game.name}: call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or actions.dtype.kind not in "iu":
            raise ValueError(f"{self.game.name}: actions must be ints of shape "
                             f"({self.num_envs},), got {actions.dtype} {actions.shape}")
        actions = actions.astype(np.int64, copy=False)
        restart = self._autoreset.copy()
        live = ~restart
        lost = self.check_learner(actions, np.flatnonzero(live), lose_illegal=self.lose_illegal)
        state = self.state
        if lost.size:
            legal = [np.flatnonzero(state.legal_action_mask[b]).tolist() for b in lost]
        if restart.any():  # next-step autoreset: these rows' actions are ignored
            idx = np.flatnonzero(restart)
            self._episodes[idx] += 1
            self._start(idx)
        played = live.copy()
        played[lost] = False
        self.game.step(state, actions, where=played)
        self.lose(lost)  # after the step, which clears every game's rewards
        reward = np.where(live, state.rewards[self.rows, self.seat], 0.0)
        self.play_opponents(reward, ~played)
        self._check_started(np.flatnonzero(restart))
        terminated = state.terminated.copy()
        truncated = state.truncated & ~terminated
        self._autoreset = terminated | truncated
        infos = self._infos()
        if restart.any():
            infos["seat"], infos["_seat"] = self.seat.copy(), restart
        ended = self._autoreset & played  # by the rules, not by an illegal action
        if ended.any():
            infos["final_scores"], infos["_final_scores"] = self.game.scores(state), ended
            infos["winners"], infos["_winners"] = self.game.winners(state), ended
        if lost.size:
            flagged = np.zeros(self.num_envs, bool)
            flagged[lost] = True
            infos["illegal_action"] = np.where(flagged, actions, -1)
            infos["legal_actions"] = np.full(self.num_envs, None, dtype=object)
            for b, ok in zip(lost, legal):
                infos["legal_actions"][b] = ok
            infos["_illegal_action"], infos["_legal_actions"] = flagged, flagged.copy()
        return self.learner_observation(), reward, terminated, truncated, infos

    def action_masks(self) -> np.ndarray:
        """bool [num_envs, num_actions]: each learner's legal actions (none in a finished row)."""
        if self.state is None:
            raise RuntimeError(f"{self.game.name}: call reset() before action_masks()")
        return self.state.legal_action_mask.copy()

    def add_snapshot(self, policy: Policy) -> None:
        """The "self" seats are played by `policy` (a frozen copy of the learner) from now on."""
        self.opponents.add_snapshot(policy)

    # -- internals -----------------------------------------------------------------------------
    def _reset_seeds(self, seed: Any) -> np.ndarray:
        if isinstance(seed, (int, np.integer)):
            return int(seed) + np.arange(self.num_envs, dtype=np.int64)
        seeds = list(seed)
        if len(seeds) != self.num_envs or not all(
                isinstance(s, (int, np.integer)) for s in seeds):
            raise ValueError(f"{self.game.name}: seed must be None, an int or {self.num_envs} "
                             f"ints, got {seed!r}")
        return np.array(seeds, dtype=np.int64)

    def _start(self, idx: np.ndarray) -> np.ndarray:
        """New games at rows idx for their current (seed, episode); their policy seeds."""
        games, seats, policy_seeds = episode_draws(self._keys[idx], self._episodes[idx],
                                                   self.game.num_players)
        if self.fixed_seat is not None:
            seats[:] = self.fixed_seat
        self.start(idx, games, seats)
        return policy_seeds

    def _check_started(self, idx: np.ndarray) -> None:
        over = idx[self.state.done[idx]]
        if over.size:
            raise RuntimeError(f"{self.game.name}: the game of row {int(over[0])} ended before "
                               "the learner's first turn")

    def _infos(self) -> dict[str, Any]:
        self._legal[:] = self.state.legal_action_mask
        return {"action_mask": self._legal.astype(np.int8),
                "_action_mask": np.ones(self.num_envs, bool)}


def make_vector_env(game: str | Game | AECEnv, num_envs: int, seat: int | str = "random",
                    opponents: Any = "heuristic", num_players: int | None = None,
                    illegal_action: str = "lose", **options: Any) -> SingleAgentVectorEnv:
    """`num_envs` copies of `make_single_agent(game, seat, opponents, num_players,
    illegal_action, **options)` on one kernel batch, as a Gymnasium VectorEnv (next-step
    autoreset; "lose" ends only the row of the illegal action)."""
    return SingleAgentVectorEnv(game, num_envs, seat=seat, opponents=opponents,
                                num_players=num_players, illegal_action=illegal_action,
                                **options)
