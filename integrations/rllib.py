"""RLlib 2 (new API stack: RLModule, Learner, env runners) with heistbench: a turn-based
`MultiAgentEnv` on the batch kernel, its registration, a self-play PPO config and a trainer.

RLlib's default PPO module has no encoder for a `Dict` observation, and its own action-masking
module (`ActionMaskingTorchRLModule`, from RLlib's examples) reads the keys `"observations"` and
`"action_mask"`, not the AEC env's `"observation"`. `HeistMultiAgentEnv` gives it that form:

- `HeistMultiAgentEnv(game, num_players=2, illegal_action="lose", **options)`: one game, a
  batch of one of the kernel; each step returns only the agent to move (`player_<seat>`),
  observed as `Dict(observations=Box(obs_size), action_mask=Box(0, 1, (num_actions,)))`. At the
  end every seat gets its final observation and its reward, so every seat's last move is
  credited; `terminateds["__all__"]` ends the episode;
- `register(game)`: `ray.tune.registry.register_env("heistbench/<game>", ...)`, so that a config
  says `.environment("heistbench/grifters", env_config={"num_players": 2})`;
- `ppo_config(game, num_players)`: PPO with one shared policy, "main", in every seat (parameter
  sharing: self-play) and the masking module, sized for a small CPU;
- `RLlibPolicy(module)`: a trained RLModule as a heistbench `Policy` (greedy legal actions), so
  that `heistbench.training.evaluate` scores it on the project's fixed, seat-rotated seeds;
- `train(game, num_players, iterations)`: the documented example, then evaluation against the
  random and heuristic bots.

    python -m heistbench.integrations.rllib grifters --iterations 20
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

try:
    import torch
    from ray.rllib.algorithms.algorithm import Algorithm
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )
    from ray.tune.registry import register_env
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError("heistbench.integrations.rllib needs ray[rllib] 2 and torch: "
                      "pip install 'heistbench[rllib]'") from error

from ..agents import make_policy
from ..agents.base import Policy, action_mask, greedy_legal
from ..envs import GAMES
from ..envs.core import Game, observation_box
from ..envs.core.game import TurnView
from ..training.evaluate import EvalRow, evaluate, format_rows
from .single_agent import LegalDiscrete, illegal_action_mode, learner_action, learner_game

POLICY = "main"  # the one shared policy of self-play


def env_name(game: str) -> str:
    """The RLlib env name of a game: "heistbench/<game>" (no version: "heistbench/grifters")."""
    return f"heistbench/{learner_game(game, 2, {}).name.rsplit('_v', 1)[0]}"


class HeistMultiAgentEnv(MultiAgentEnv):
    """One heistbench game as a turn-based RLlib `MultiAgentEnv` (see the module's
    documentation). An illegal action, with `illegal_action="lose"` (the default, as the AEC
    `env()`), ends the game: -1 for the mover, 0 for the others, and the mover's info names the
    action and the legal ones; with "raise" it raises ValueError and nothing changes."""

    def __init__(self, game: str | Game, num_players: int | None = None,
                 illegal_action: str = "lose", render_mode: str | None = None,
                 **options: Any):
        super().__init__()
        self.game = kernel = learner_game(game, num_players, options)
        self.lose_illegal = illegal_action_mode(illegal_action, kernel)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"{kernel.name}: render_mode must be None or 'ansi', "
                             f"got {render_mode!r}")
        self.render_mode = render_mode
        self.agents = self.possible_agents = [f"player_{i}" for i in range(kernel.num_players)]
        space = spaces.Dict({
            "observations": observation_box(kernel.obs_size),
            "action_mask": spaces.Box(0.0, 1.0, (kernel.num_actions,), np.float32)})
        self._legal = np.zeros(kernel.num_actions, np.int8)  # the mover's, kept current
        action_space = LegalDiscrete(kernel.num_actions, self._legal)
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: action_space for a in self.possible_agents}
        self.state = None
        self._view = TurnView(kernel)
        self._seeds = np.random.default_rng()
        self._acted = np.zeros(kernel.num_players, bool)  # seats that moved this game

    def reset(self, *, seed: int | None = None,
              options: dict | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game: dealt as the AEC env deals `seed`; unseeded resets after a seeded one
        draw their deals from it, so a seeded env runner replays its episodes."""
        if options:
            raise ValueError(f"{self.game.name}: reset takes no options (game options go to "
                             f"the env config), got {sorted(options)}")
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            deal = int(seed)
        else:
            deal = int(self._seeds.integers(0, 2**62))
        self.state = self.game.init(np.array([deal], np.int64))
        self.game.peek_one(self.state, self._view)
        self._acted[:] = False
        mover = int(self._view.turn[0])
        return {self.possible_agents[mover]: self._observation(mover, live=True)}, {}

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        if self.state is None:
            raise RuntimeError(f"{self.game.name}: call reset() before step()")
        player, terminated, truncated = self._view.turn.tolist()
        if terminated or truncated:
            raise RuntimeError(f"{self.game.name}: the game is over; call reset()")
        agent = self.possible_agents[player]
        if set(action_dict) != {agent}:
            raise ValueError(f"{self.game.name}: {agent} is to move, and only they; got "
                             f"actions for {sorted(action_dict)}")
        action = learner_action(action_dict[agent], self.game)
        self._acted[player] = True
        if not self._view.mask[action]:
            legal = np.flatnonzero(self._view.mask).tolist()
            if not self.lose_illegal:
                raise ValueError(f"{self.game.name}: {agent} played illegal action {action} "
                                 f"({self.game.action_name(action)}); legal: {legal}")
            rewards = np.zeros(self.game.num_players)
            rewards[player] = -1.0
            self.state.terminated[0] = True  # ended here, as the AEC env()'s wrapper ends it
            self.state.current_player[0] = -1
            self.state.legal_action_mask[0] = False
            self.game.peek_one(self.state, self._view)
            return self._ending(rewards, True, False,
                                {agent: {"illegal_action": action, "legal_actions": legal}})
        self.game.step_one(self.state, action, self._view)
        rewards = self._view.rewards.astype(np.float64)
        mover, terminated, truncated = self._view.turn.tolist()
        if terminated or truncated:
            return self._ending(rewards, bool(terminated), bool(truncated) and not terminated)
        # the mover's reward (zero in mid-game by default), and any other seat's that is not
        given = {self.possible_agents[p]: float(rewards[p]) for p in range(len(rewards))
                 if p == player or (rewards[p] and self._acted[p])}
        nxt = self.possible_agents[mover]
        return ({nxt: self._observation(mover, live=True)}, given, {"__all__": False},
                {"__all__": False}, {})

    def render(self) -> str | None:
        """The game's text as the player to move sees it; everything once the game is over."""
        if self.render_mode is None or self.state is None:
            return None
        over = bool(self.state.terminated[0] or self.state.truncated[0])
        seat = None if over or self.game.reveal_hidden else int(self.state.current_player[0])
        return self.game.render(self.state, 0, player=seat)

    def _observation(self, seat: int, live: bool) -> dict[str, np.ndarray]:
        if live:
            self._legal[:] = self._view.mask
        mask = self._view.mask if live else np.zeros(self.game.num_actions)
        return {"observations": self.game.observe_one(self.state, seat),
                "action_mask": mask.astype(np.float32)}

    def _ending(self, rewards: np.ndarray, terminated: bool, truncated: bool,
                extra: dict[str, dict] | None = None) -> tuple[dict, dict, dict, dict, dict]:
        """The last step: every seat that moved gets its final observation, its reward and
        the final tally in its info."""
        self._legal[:] = 0
        seats = np.flatnonzero(self._acted)
        scores = self.game.scores(self.state)[0]
        winners = np.flatnonzero(self.game.winners(self.state)[0]).tolist()
        obs, rew, infos = {}, {}, {}
        for p in seats:
            a = self.possible_agents[p]
            obs[a] = self._observation(int(p), live=False)
            rew[a] = float(rewards[p])
            infos[a] = {"final_scores": scores.tolist(), "score": int(scores[p]),
                        "winners": winners, **(extra or {}).get(a, {})}
        done = {self.possible_agents[p]: terminated for p in seats}
        cut = {self.possible_agents[p]: truncated for p in seats}
        return obs, rew, {**done, "__all__": terminated}, {**cut, "__all__": truncated}, infos


def make_env(config: dict[str, Any] | None = None) -> HeistMultiAgentEnv:
    """An env from an RLlib env config: {"game": ..., "num_players": ..., options...}."""
    config = dict(config or {})
    if "game" not in config:
        raise ValueError(f"the env config needs a 'game', one of {', '.join(GAMES)}")
    return HeistMultiAgentEnv(config.pop("game"), **config)


def register(game: str) -> str:
    """Register `game` with RLlib as "heistbench/<game>" (its env config: num_players,
    illegal_action and the game's options); returns the name."""
    name = env_name(game)
    register_env(name, lambda config: make_env({**dict(config), "game": game}))
    return name


def register_all() -> list[str]:
    """Register every game; returns the names."""
    return [register(g) for g in GAMES]


def ppo_config(game: str, num_players: int = 2, hidden: Sequence[int] = (128, 128),
               train_batch: int = 2_000, minibatch: int = 250, epochs: int = 4,
               lr: float = 3e-4, env_runners: int = 0, seed: int = 0,
               **options: Any) -> PPOConfig:
    """PPO self-play on `game`: one policy, "main", plays every seat (parameter sharing) with
    RLlib's action-masking module; sizes that train on a 2-core CPU (a local env runner and
    learner; raise `env_runners` on a cluster)."""
    name = register(game)
    probe = HeistMultiAgentEnv(game, num_players, **options)  # validates the options now
    space = probe.observation_spaces[probe.possible_agents[0]]
    return (
        PPOConfig()
        .environment(name, env_config={"num_players": num_players, **options})
        .env_runners(num_env_runners=env_runners, num_envs_per_env_runner=1,
                     rollout_fragment_length="auto")
        .learners(num_learners=0)
        .multi_agent(policies={POLICY}, policy_mapping_fn=lambda agent_id, *a, **k: POLICY,
                     policies_to_train=[POLICY])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={POLICY: RLModuleSpec(
            module_class=ActionMaskingTorchRLModule, observation_space=space,
            action_space=spaces.Discrete(probe.game.num_actions),
            model_config={"head_fcnet_hiddens": list(hidden), "head_fcnet_activation": "relu",
                          "vf_share_layers": False})}))
        .training(train_batch_size_per_learner=train_batch, minibatch_size=minibatch,
                  num_epochs=epochs, lr=lr, gamma=1.0, lambda_=0.95, entropy_coeff=0.01)
        .debugging(seed=seed)
    )


class RLlibPolicy(Policy):
    """A masking RLModule (`algo.get_module("main")`) as a heistbench `Policy`: batched
    observations and masks in, greedy legal actions out."""

    def __init__(self, module: RLModule, name: str = "rllib") -> None:
        self.module = module
        self.name = name

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        mask = action_mask(mask)
        batch = {Columns.OBS: {
            "observations": torch.as_tensor(np.atleast_2d(obs), dtype=torch.float32),
            "action_mask": torch.as_tensor(mask, dtype=torch.float32)}}
        with torch.no_grad():
            logits = self.module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
        return greedy_legal(logits.numpy(), mask)


def train(game: str = "grifters", num_players: int = 2, iterations: int = 20,
          eval_games: int = 400, progress: bool = True, seed: int = 0,
          config: PPOConfig | None = None,
          **options: Any) -> tuple[Algorithm, list[EvalRow], dict[str, float]]:
    """The documented example: PPO self-play for `iterations`, then the learned policy against
    the random and heuristic bots on the project's evaluation seeds. Returns the algorithm,
    the evaluation rows and the speed: env steps sampled per second of training."""
    if not isinstance(iterations, int) or iterations < 1:
        raise ValueError(f"iterations must be a positive int, got {iterations!r}")
    config = config or ppo_config(game, num_players, seed=seed, **options)
    algo = config.build_algo()
    steps, seconds = 0, 0.0
    for i in range(iterations):
        t0 = time.perf_counter()
        result = algo.train()
        seconds += time.perf_counter() - t0
        steps = int(result["env_runners"]["num_env_steps_sampled_lifetime"])
        if progress:
            print(f"iteration {i + 1}/{iterations}: {steps:,} env steps, "
                  f"{steps / seconds:,.0f} steps/s, "
                  f"{int(result['env_runners'].get('num_episodes_lifetime', 0)):,} games",
                  flush=True)
    kernel = learner_game(game, num_players, options)
    policy = RLlibPolicy(algo.get_module(POLICY), f"RLlib PPO, {iterations} iterations")
    rows = [evaluate(kernel, policy, make_policy(bot, kernel, seed=seed), eval_games,
                     policy.name, bot) for bot in ("random", "heuristic")]
    return algo, rows, {"env_steps": steps, "seconds": seconds,
                        "steps_per_s": steps / max(seconds, 1e-9)}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m heistbench.integrations.rllib",
        description="Train RLlib PPO by self-play (one shared policy in every seat) on a "
                    "heistbench game and evaluate it against the random and heuristic bots.")
    parser.add_argument("game", help="a game: " + ", ".join(g.rsplit("_v", 1)[0] for g in GAMES))
    parser.add_argument("--players", type=int, default=2, help="number of players (default 2)")
    parser.add_argument("--iterations", type=int, default=20, help="PPO iterations")
    parser.add_argument("--eval-games", type=int, default=400, help="evaluation games per bot")
    parser.add_argument("--cpus", type=int, default=2, help="CPUs for the local Ray instance")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    import ray

    torch.set_num_threads(1)
    learner_game(args.game, args.players, {})  # a bad game or count fails before Ray starts
    if not ray.is_initialized():
        ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False)
    algo, rows, speed = train(args.game, args.players, args.iterations, args.eval_games,
                              seed=args.seed)
    algo.stop()
    print(format_rows(rows))
    print(f"learner: {speed['env_steps']:,} env steps sampled in {speed['seconds']:.1f} s of "
          f"training, {speed['steps_per_s']:,.0f} steps/s")


if __name__ == "__main__":
    main()
