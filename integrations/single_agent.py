"""One seat of a heistbench game as a Gymnasium env: `make_single_agent(game, ...)`.

The learner plays one seat, fixed or drawn per episode; every other seat is played inside
`step` by a policy: a bot ("random", "heuristic"), a checkpoint, the learner's own latest
snapshot ("self") or any `Policy`. The env is a view on the batch kernel, a batch of one game
seen from the learner's seat: its opponents' loop and its action checks are those of the
training VecEnv (`heistbench.training.opponents.SeatedGames`).

- Observation: the learner's own view, `Box(obs_size)` float32 (the AEC env's
  `observation`), so that SB3's and sb3-contrib's MLP policies take it as is.
- Legal actions: `env.action_masks()` (bool [num_actions], what sb3-contrib's `MaskablePPO`
  reads) and `info["action_mask"]` (int8, like the AEC env's infos). `env.action_space` is a
  `Discrete` whose `sample()` draws a legal action, so random-play loops and the env checkers
  play legal games.
- Illegal actions (`illegal_action=`), as the AEC `env()` treats them: "lose" (the default) ends
  the episode at once, terminated, with -1 for the learner and, in `info`, `illegal_action` (the
  action) and `legal_actions` (the legal ones then); "raise" raises ValueError naming the action
  and the legal ones, and changes nothing. An action that is not an int in 0..num_actions-1 is
  no move: it always raises ValueError.
- Reward: the learner's reward from the kernel (the game's `reward` option), summed over the
  opponents' moves until the learner's next turn (zero-sum win/loss at the end by default).
- Seeding: `reset(seed=s)` deals the same game as the AEC env's `reset(seed=s)`, draws the
  learner's seat and restarts the opponents' random streams from `s`; later unseeded resets
  play episode 1, 2, ... of `s`, each a pure function of (s, episode).
- Render: the game's text render of what the learner sees (everything once the game is over).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..agents import make_policy
from ..agents.base import Policy
from ..envs import game as make_game
from ..envs.core import Game, observation_box
from ..envs.core.rng import bits, seed_keys
from ..training.opponents import FixedOpponents, LatestSnapshot, SeatedGames

SEAT_CHOICES = "'random' or a seat number"
ILLEGAL_ACTION_CHOICES = ("lose", "raise")
OPPONENT_CHOICES = ("'random', 'heuristic', 'self', a checkpoint path, a Policy, or a list of "
                    "these with one entry per opponent seat")
# counter-based streams of an env's episodes: (reset seed, episode) -> game seed, seat, policies
_GAME_STREAM, _SEAT_STREAM, _POLICY_STREAM = 0, 1, 2


def episode_draws(keys: np.ndarray, episodes: np.ndarray,
                  num_players: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(game seeds, learner seats, policy seeds), int64 [B] each, of episode `episodes[b]` of
    an env reset with seed `keys[b]`: pure functions of the pair, so that a row of the vector
    env plays like a single env reset with the same seed. Episode 0 plays the game of seed
    `keys[b]` itself, the one the AEC env deals for that seed."""
    keys = np.asarray(keys, dtype=np.int64)
    episodes = np.asarray(episodes, dtype=np.uint64)
    k = seed_keys(keys)
    games = np.where(episodes == 0, keys, bits(k, _GAME_STREAM, episodes).view(np.int64))
    seats = (bits(k, _SEAT_STREAM, episodes) % np.uint64(num_players)).astype(np.int64)
    policies = (bits(k, _POLICY_STREAM, episodes) >> np.uint64(2)).astype(np.int64)
    return games, seats, policies


def learner_game(game: str | Game | AECEnv, num_players: int | None,
                 options: dict[str, Any]) -> Game:
    """The kernel: from a name (with `num_players`, default 2, and the options), a `Game`, or
    a heistbench AEC env (whose game and options are taken as they are)."""
    if isinstance(game, str):
        return make_game(game, num_players=2 if num_players is None else num_players,
                         **options)
    kernel = getattr(getattr(game, "unwrapped", game), "game", game)
    if not isinstance(kernel, Game):
        raise ValueError(f"game must be a game name, a heistbench Game or a heistbench AEC env, "
                         f"got {type(game).__name__}")
    if options or (num_players is not None and num_players != kernel.num_players):
        raise ValueError(f"{kernel.name}: a Game or AEC env comes with its own options "
                         f"({kernel.num_players} players); pass num_players and options only "
                         "with a game name")
    return kernel


def learner_seat(seat: int | str, game: Game) -> int | None:
    """The learner's fixed seat, or None for a seat drawn per episode."""
    if seat == "random":
        return None
    if isinstance(seat, (int, np.integer)) and not isinstance(seat, bool) \
            and 0 <= seat < game.num_players:
        return int(seat)
    raise ValueError(f"{game.name}: seat must be {SEAT_CHOICES} in 0..{game.num_players - 1}, "
                     f"got {seat!r}")


def illegal_action_mode(illegal_action: Any, game: Game) -> bool:
    """Whether an illegal learner action loses the game ("lose") rather than raising ("raise")."""
    if isinstance(illegal_action, str) and illegal_action in ILLEGAL_ACTION_CHOICES:
        return illegal_action == "lose"
    raise ValueError(f"{game.name}: illegal_action must be "
                     f"{' or '.join(map(repr, ILLEGAL_ACTION_CHOICES))}, got {illegal_action!r}")


def opponent_table(opponents: Any, game: Game, seed: int = 0) -> FixedOpponents:
    """The opponents' table from one spec for every opponent seat or a list of one per seat
    (in seat order after the learner's). Equal strings share one policy, played batched."""
    n = game.num_players - 1
    if isinstance(opponents, (list, tuple)):
        if len(opponents) != n:
            raise ValueError(f"{game.name}: {game.num_players} players need {n} opponent(s), "
                             f"got a list of {len(opponents)}")
        specs: Sequence[Any] = opponents
    else:
        specs = [opponents] * n
    built: dict[str, Policy] = {}
    policies = []
    for spec in specs:
        if isinstance(spec, Policy) or callable(getattr(spec, "act", None)):
            policies.append(spec)
            continue
        if not isinstance(spec, (str, os.PathLike)):
            raise ValueError(f"{game.name}: opponents must be {OPPONENT_CHOICES}; got {spec!r}")
        key = os.fspath(spec)
        if key not in built:
            if key == "self":
                built[key] = LatestSnapshot(game, seed=seed + len(built))
            else:
                try:
                    built[key] = make_policy(key, game, seed=seed + len(built))
                except ValueError as e:
                    if "unknown policy" not in str(e):
                        raise  # a checkpoint for another game: its own message
                    raise ValueError(f"{game.name}: unknown opponent {key!r}; opponents must "
                                     f"be {OPPONENT_CHOICES}") from None
        policies.append(built[key])
    return FixedOpponents(policies)


def learner_action(action: Any, game: Game) -> int:
    """An int action from an int, a NumPy integer or a one-element integer array; ValueError
    for anything else or out of range (that is no move, illegal or not)."""
    a = np.asarray(action)
    if a.size != 1 or a.dtype.kind not in "iu":
        raise ValueError(f"{game.name}: the action must be an int in 0..{game.num_actions - 1}, "
                         f"got {action!r}")
    a = int(a.reshape(()))
    if not 0 <= a < game.num_actions:
        raise ValueError(f"{game.name}: action {a} is out of range; actions are "
                         f"0..{game.num_actions - 1}")
    return a


class LegalDiscrete(spaces.Discrete):
    """`Discrete(n)` whose `sample()` draws among the legal actions of its env's pending
    decision (`legal`, int8 [n], kept current by the env), like a random player; with a mask or
    probabilities given, or when nothing is legal (the game is over), Discrete's own."""

    def __init__(self, n: int, legal: np.ndarray, seed: int | None = None):
        super().__init__(n, seed=seed)
        self.legal = legal

    def sample(self, mask: np.ndarray | None = None,
               probability: np.ndarray | None = None) -> np.int64:
        if mask is None and probability is None and self.legal.any():
            mask = self.legal
        return super().sample(mask=mask, probability=probability)


class SingleAgentEnv(SeatedGames, gym.Env):
    """One seat of a heistbench game against policies played inside `step` (see the module's
    documentation); build it with `make_single_agent`."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(self, game: str | Game | AECEnv, seat: int | str = "random",
                 opponents: Any = "heuristic", num_players: int | None = None,
                 render_mode: str | None = None, illegal_action: str = "lose",
                 **options: Any):
        kernel = learner_game(game, num_players, options)
        self.lose_illegal = illegal_action_mode(illegal_action, kernel)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"{kernel.name}: render_mode must be None, "
                             f"{', '.join(map(repr, self.metadata['render_modes']))}; "
                             f"got {render_mode!r}")
        self.fixed_seat = learner_seat(seat, kernel)
        SeatedGames.__init__(self, kernel, 1, opponent_table(opponents, kernel))
        self.render_mode = render_mode
        self.observation_space = observation_box(kernel.obs_size)
        self._legal = np.zeros(kernel.num_actions, np.int8)  # the learner's, kept current
        self.action_space = LegalDiscrete(kernel.num_actions, self._legal)
        self._key: int | None = None  # the last reset seed, and the episode of it now played
        self._episode = 0
        self._actions = np.zeros(1, np.int64)
        self._no_done = np.zeros(1, bool)

    # -- the Gymnasium API ---------------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if options:
            raise ValueError(f"{self.game.name}: reset takes no options (game options go to "
                             f"make_single_agent), got {sorted(options)}")
        if seed is not None:
            self._key, self._episode = int(seed), 0
        elif self._key is None:
            self._key, self._episode = int(self.np_random.integers(0, 2**62)), 0
        else:
            self._episode += 1
        games, seats, policy_seed = episode_draws(np.array([self._key]),
                                                  np.array([self._episode]),
                                                  self.game.num_players)
        if self.fixed_seat is not None:
            seats[:] = self.fixed_seat
        self.start(self.rows, games, seats)
        self.opponents.seed(int(policy_seed[0]))
        self.opponents.reset()
        self.play_opponents(np.zeros(1), self._no_done)
        if self.state.done[0]:
            raise RuntimeError(f"{self.game.name}: game {int(games[0])} ended before the "
                               "learner's first turn")
        info = self._info()
        info["seat"] = int(self.seat[0])
        if self.render_mode == "human":
            self.render()
        return self.learner_observation()[0], info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.state is None:
            raise RuntimeError(f"{self.game.name}: call reset() before step()")
        self._actions[0] = learner_action(action, self.game)
        lost = self.check_learner(self._actions, lose_illegal=self.lose_illegal).size > 0
        state = self.state
        if lost:
            legal = np.flatnonzero(state.legal_action_mask[0]).tolist()
            self.lose(self.rows)  # the game ends here: no step, no opponent to play
        else:
            self.game.step(state, self._actions)
        reward = state.rewards[0, self.seat].astype(np.float64)
        self.play_opponents(reward, self._no_done)
        terminated = bool(state.terminated[0])
        truncated = bool(state.truncated[0]) and not terminated
        info = self._info()
        if lost:
            info.update(illegal_action=int(self._actions[0]), legal_actions=legal)
        elif terminated or truncated:
            scores = self.game.scores(state)[0]
            info.update(final_scores=scores.tolist(), score=int(scores[self.seat[0]]),
                        winners=np.flatnonzero(self.game.winners(state)[0]).tolist(),
                        **self.game.final_info(state, 0))
        if self.render_mode == "human":
            self.render()
        return self.learner_observation()[0], float(reward[0]), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """bool [num_actions]: the learner's legal actions now (none once the game is over)."""
        if self.state is None:
            raise RuntimeError(f"{self.game.name}: call reset() before action_masks()")
        return self.state.legal_action_mask[0].copy()

    def render(self) -> str | None:
        """The game's text as the learner sees it; once the game is over (or with
        `reveal_hidden`), everything."""
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; pass render_mode='ansi' "
                            "or 'human' to make_single_agent().")
            return None
        if self.state is None:
            raise RuntimeError(f"{self.game.name}: call reset() before render()")
        over = bool(self.state.done[0])
        seat = None if over or self.game.reveal_hidden else int(self.seat[0])
        text = self.game.render(self.state, 0, player=seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def add_snapshot(self, policy: Policy) -> None:
        """The "self" seats are played by `policy` (a frozen copy of the learner) from now on;
        `SnapshotCallback` calls it during training."""
        self.opponents.add_snapshot(policy)

    def _info(self) -> dict[str, Any]:
        self._legal[:] = self.state.legal_action_mask[0]
        return {"action_mask": self._legal.copy()}


def make_single_agent(game: str | Game | AECEnv, seat: int | str = "random",
                      opponents: Any = "heuristic", num_players: int | None = None,
                      render_mode: str | None = None, illegal_action: str = "lose",
                      **options: Any) -> SingleAgentEnv:
    """One seat of `game` as a Gymnasium env, the other seats played inside `step`.

    game: a game name ("grifters", "grifters_v1"), a `Game`, or a heistbench AEC env;
    seat: "random" (drawn per episode) or a seat number; opponents: "heuristic", "random",
    "self" (the learner's latest snapshot, see `SnapshotCallback`), a checkpoint path, a
    `Policy`, or a list of these, one per opponent seat in seat order after the learner's;
    num_players: default 2 (with a name); illegal_action: "lose" (an illegal action ends the
    episode with -1 for the learner, like the AEC `env()`) or "raise" (ValueError);
    options: the game's options (`reward="score"`, ...).
    """
    return SingleAgentEnv(game, seat=seat, opponents=opponents, num_players=num_players,
                          render_mode=render_mode, illegal_action=illegal_action, **options)
