"""The generic PettingZoo AEC environment over any `Game` (a batch of one).

Follows the PettingZoo classic-env conventions: agents player_0..player_{N-1}, Dict
observations with an int8 action mask that is all zeros for agents not to move, the mask also
in infos, EzPickle, `env()` = `raw_env()` + the standard wrappers.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .game import Game, TurnView
from .layout import observation_box


class HeistAECEnv(AECEnv, EzPickle):
    """One game of `game_cls` as a turn-based PettingZoo environment."""

    game_cls: ClassVar[type[Game]]
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"],
                                          "is_parallelizable": False, "name": "heist"}

    def __init__(self, render_mode: str | None = None, **options: Any):
        EzPickle.__init__(self, render_mode=render_mode, **options)
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"{self.metadata['name']}: invalid render_mode {render_mode!r}; "
                             f"allowed: None, {', '.join(self.metadata['render_modes'])}")
        self.render_mode = render_mode
        self.game = self.game_cls(**options)
        self.reveal_all = self.game.reveal_hidden  # the oracle option shows every seat
        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": observation_box(self.game.obs_size),
            "action_mask": spaces.Box(0, 1, (self.game.num_actions,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.game.num_actions)
                              for a in self.possible_agents}
        self.state_space = observation_box(n * self.game.base_obs_size)
        self._zero_mask = np.zeros(self.game.num_actions, np.int8)
        self._zero_mask.flags.writeable = False
        self.kernel_state = None  # the batch-of-one kernel state (`state()` is PettingZoo's)
        self._view = TurnView(self.game)  # what each step leaves for `_sync` to read
        # the seat whose observation the last step left in the view (-1: none), and of which
        # state (a `kernel_state` put in its place is observed afresh)
        self._obs_seat, self._obs_row = -1, self._view.obs[0] if len(self._view.obs) else None
        self._obs_state = None
        self._seed_rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- lifecycle ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is None:
            seed = int(self._seed_rng.integers(0, 2**63 - 1))
        self.seed_value = int(seed)
        self.kernel_state = self.game.init(np.array([self.seed_value], dtype=np.int64))
        self.game.peek_one(self.kernel_state, self._view)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._rewards_given = True  # `_sync` writes `rewards` afresh
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {"action_mask": self._zero_mask} for a in self.agents}
        self.num_moves = 0
        self.agent_selection = None
        self._sync()
        self._obs_seat = -1  # the reset's view holds no observation

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or not isinstance(action, (int, np.integer)):
            raise ValueError(f"{self.metadata['name']}: {agent} must act with an int action "
                             f"in 0..{self.game.num_actions - 1}, got {action!r}")
        self._cumulative_rewards[agent] = 0.0
        self.game.step_one(self.kernel_state, int(action), self._view)
        self.num_moves += 1
        if self._sync():
            self._accumulate_rewards()
        if self.render_mode == "human":  # like PettingZoo's classic envs: a frame per step
            self.render()

    def _sync(self) -> bool:
        """Copy what the last step left in `_view` into the AEC bookkeeping; whether any
        reward is not zero (most steps give none)."""
        player, terminated, truncated = self._view.turn.tolist()
        rewards = self._view.rewards.tolist()
        given = any(rewards)
        if given or self._rewards_given:  # else the zeros of the last step stand
            self.rewards = dict(zip(self.agents, rewards))
            self._rewards_given = given
        if not (terminated or truncated):
            # only the agent to move has a mask; the one who moved before loses theirs
            prev = self.agent_selection
            if prev is not None:
                self.infos[prev] = {"action_mask": self._zero_mask}
            self.agent_selection = agent = self.possible_agents[player]
            self.infos[agent] = {"action_mask": self._view.mask.copy()}
            self._obs_seat = -1 if self._obs_row is None else player
            self._obs_state = self.kernel_state
            return given
        self._obs_seat = -1
        st = self.kernel_state
        flag = self.terminations if terminated else self.truncations
        final = self.game.scores(st)[0]
        wins = np.flatnonzero(self.game.winners(st)[0]).tolist()
        extra = self.game.final_info(st, 0)
        for i, a in enumerate(self.agents):
            flag[a] = True
            self.infos[a] = {"action_mask": self._zero_mask, "final_scores": final.tolist(),
                             "winners": wins, "score": int(final[i]), **extra}
        # keep cycling through the agents so each one sees its final reward
        cur = self.agent_name_mapping.get(self.agent_selection, -1)
        self.agent_selection = self.agents[(cur + 1) % len(self.agents)]
        return given

    # -- views -------------------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        # the seat is valid by construction: no checks of a user's seats (the hot path)
        seat = self.agent_name_mapping[agent]
        # the player to move, unless a wrapper ended the game (TerminateIllegalWrapper)
        live = agent == self.agent_selection and not (self.terminations[agent]
                                                      or self.truncations[agent])
        if seat == self._obs_seat and self.kernel_state is self._obs_state:  # the step wrote it
            obs = self._obs_row.copy()
        else:
            obs = self.game.observe_one(self.kernel_state, seat)
        if live:
            mask = self.infos[agent]["action_mask"].copy()  # `_sync` made it this step
        else:
            mask = np.zeros(self.game.num_actions, np.int8)
        return {"observation": obs, "action_mask": mask}

    def state(self) -> np.ndarray:
        """The global state for centralized training: every seat's own observation in seat
        order, float32 [N * base_obs_size] (the `reveal_hidden` observation of player_0)."""
        return self.game.oracle_view(self.kernel_state, 0)[0]

    def render(self) -> str | None:
        """The public table plus the private view of the agent to act (so a render shown
        during play gives nothing away); once the game is over, everything. The full state
        at any time: `env.unwrapped.game.render(env.unwrapped.kernel_state)`."""
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass "
                                  "render_mode='ansi' or 'human' to env().")
            return None
        st = self.kernel_state
        over = bool(st.terminated[0] or st.truncated[0])
        seat = None if over or self.reveal_all else int(st.current_player[0])
        text = self.game.render(st, 0, player=seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def define_env(game_cls: type[Game], module: str):
    """The PettingZoo pieces of a game's env module: `raw_env` (the class), `env()` (with the
    standard wrappers) and `obs_fields(obs, **options)` (decode an observation by name).

    Call it from the module as `raw_env, env, obs_fields = define_env(Game, __name__)`; the
    class is attributed to that module so that environments pickle by reference.
    """
    raw = type("raw_env", (HeistAECEnv,), {
        "__module__": module, "__qualname__": "raw_env", "game_cls": game_cls,
        "__doc__": f"{game_cls.title} without wrappers; illegal actions raise ValueError.",
        "metadata": {"render_modes": ["human", "ansi"], "is_parallelizable": False,
                     "name": game_cls.name}})
    env, _ = make_env_fns(raw)
    env.__module__ = module

    @lru_cache(maxsize=16)
    def _game(items: tuple[tuple[str, Any], ...]) -> Game:
        return game_cls(**dict(items))

    def obs_fields(obs: np.ndarray, **options: Any) -> dict[str, np.ndarray]:
        """Decode an observation (or a batch) by field name; pass the env's options."""
        return _game(tuple(sorted(options.items()))).obs_fields(obs)

    obs_fields.__module__ = module
    return raw, env, obs_fields


def standard_wrappers(env: AECEnv) -> AECEnv:
    """PettingZoo's classic-env wrappers: illegal moves end the game with -1, out-of-range
    actions assert, and the call order is enforced."""
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def make_env_fns(raw_cls: type[HeistAECEnv]):
    """`env()` (with PettingZoo's standard wrappers) and `raw_env()` for a game module."""

    def env(**kwargs: Any) -> AECEnv:
        return standard_wrappers(raw_cls(**kwargs))

    def raw_env(**kwargs: Any) -> HeistAECEnv:
        return raw_cls(**kwargs)

    env.__doc__ = f"The {raw_cls.game_cls.title} AEC env with PettingZoo's standard wrappers."
    raw_env.__doc__ = f"The unwrapped {raw_cls.game_cls.title} AEC env (illegal actions raise)."
    return env, raw_env
