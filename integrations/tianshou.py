"""Tianshou 2 with heistbench: its own PettingZoo wrapper on the AEC env, and bots in its seats.

Tianshou's `PettingZooEnv` wraps any heistbench AEC env: the action mask becomes
`obs.mask`, which Tianshou's `DQN` respects, and its `MultiAgentOffPolicyAlgorithm` gives every
seat an algorithm of its own. This module adds what a user would otherwise write by hand:

- `pettingzoo_env(game, num_players, **options)`: the wrapped AEC env, with the winners in its
  final infos as a flag per seat, the fixed shape Tianshou's buffer stores;
- `BotAlgorithm(spec, game)`: a heistbench policy (`"heuristic"`, `"random"`, a checkpoint, any
  `Policy`) playing a Tianshou seat; it learns nothing;
- `dqn(env)`: a masked DQN learner sized for a game;
- `TianshouPolicy(policy)`: a trained Tianshou policy as a heistbench `Policy`, so that
  `heistbench.training.evaluate` scores it on the project's fixed, seat-rotated seeds;
- `single_seat_env(game, opponents=...)`: one seat as a Gymnasium env whose observation is
  `{"obs", "mask"}`, the form Tianshou's masked algorithms read, the other seats played inside
  `step` (`heistbench.integrations.make_single_agent`);
- `train(...)`: the documented example, a DQN against bots through either env, evaluated before
  and after.

    python -m heistbench.integrations.tianshou grifters --steps 30000 --vs random
    python -m heistbench.integrations.tianshou grifters --steps 30000 --vs random --env single-seat

Credit in a turn-based game: through the PettingZoo wrapper, Tianshou's buffer keeps every seat's
moves in turn order, and each seat's algorithm reads its own column of the reward vector. The
end-of-game reward of every seat sits on the game's last move, so it reaches a seat's earlier move
only through an n-step return that spans the moves in between, and the bootstrap of that return
is taken on whoever moves next. `dqn` therefore uses a long horizon (`n_step=8`) and a discount
of 1, and learns slowly. The single-seat env credits the learner exactly: each transition goes
from one of its decisions to its next, the opponents' moves in between.
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

try:
    import torch
    from tianshou.algorithm import DQN
    from tianshou.algorithm.algorithm_base import OffPolicyAlgorithm, TrainingStats
    from tianshou.algorithm.algorithm_base import Policy as TianshouBasePolicy
    from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
    from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.data import Batch, Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv, PettingZooEnv
    from tianshou.trainer import OffPolicyTrainerParams
    from tianshou.utils.net.common import Net
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError("heistbench.integrations.tianshou needs Tianshou 2: "
                      "pip install 'heistbench[tianshou]'") from error

from ..agents import make_policy
from ..agents.base import Policy, action_mask, greedy_legal
from ..envs import make, module
from ..envs.core import Game
from ..training.evaluate import EvalRow, evaluate, format_rows
from .single_agent import make_single_agent


def winner_flags(info: dict, num_players: int) -> dict:
    """The info with its `winners` (a list of seats, one per co-winner) as one flag per seat:
    Tianshou's buffer stores each step's info in fixed-shape arrays, and a shared win would
    not fit the shape of a game with one winner."""
    if "winners" not in info:
        return info
    return {**info, "winners": np.isin(np.arange(num_players), info["winners"])}


class HeistPettingZooEnv(PettingZooEnv):
    """Tianshou's `PettingZooEnv` with infos its buffer can store (`winner_flags`)."""

    def reset(self, *args: Any, **kwargs: Any) -> tuple[dict, dict]:
        obs, info = super().reset(*args, **kwargs)
        return obs, winner_flags(info, len(self.agents))

    def step(self, action: Any) -> tuple[dict, list[int], bool, bool, dict]:
        obs, rewards, terminated, truncated, info = super().step(action)
        return obs, rewards, terminated, truncated, winner_flags(info, len(self.agents))


def pettingzoo_env(game: str, num_players: int = 2, raw: bool = False,
                   **options: Any) -> HeistPettingZooEnv:
    """The game's AEC env (`raw=True`: without PettingZoo's wrappers, so that an illegal action
    raises instead of losing the game) in Tianshou's `PettingZooEnv` (`HeistPettingZooEnv`)."""
    aec = module(game).raw_env(num_players=num_players, **options) if raw else make(
        game, num_players=num_players, **options)
    return HeistPettingZooEnv(aec)


class MaskedObservation(gymnasium.ObservationWrapper):
    """A single-seat env's observation as `{"obs", "mask"}`: Tianshou's DQN reads `obs.mask` to
    act and to bootstrap on legal actions only. Tianshou's buffer stores each step's info in
    fixed-shape arrays, so the info keeps its fixed-shape keys and gives the winners as one flag
    per seat (`winner_flags`)."""

    # the fixed-shape keys, and the winners (made one flag per seat by `winner_flags`)
    KEEP = ("action_mask", "final_scores", "score", "illegal_action", "winners")

    def __init__(self, env: gymnasium.Env) -> None:
        super().__init__(env)
        self.observation_space = gymnasium.spaces.Dict({
            "obs": env.observation_space,
            "mask": gymnasium.spaces.MultiBinary(int(env.action_space.n))})

    def observation(self, observation: np.ndarray) -> dict[str, np.ndarray]:
        return {"obs": observation, "mask": self.env.unwrapped.action_masks().astype(np.int8)}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict]:
        obs, reward, terminated, truncated, info = super().step(action)
        kept = {k: np.asarray(v) for k, v in info.items() if k in self.KEEP}
        return obs, reward, terminated, truncated, winner_flags(
            kept, self.env.unwrapped.game.num_players)


def single_seat_env(game: str, num_players: int = 2, opponents: Any = "random",
                    seat: int | str = "random", **options: Any) -> MaskedObservation:
    """One seat of `game` against `opponents` (see `make_single_agent`), observed as
    `{"obs", "mask"}` for Tianshou."""
    return MaskedObservation(make_single_agent(game, seat=seat, opponents=opponents,
                                               num_players=num_players, **options))


class BotAlgorithm(OffPolicyAlgorithm):
    """A heistbench policy in a Tianshou seat: it acts on the seat's observation and mask, and
    its update learns nothing (like Tianshou's own masked random algorithm)."""

    class Policy(TianshouBasePolicy):
        def __init__(self, bot: Policy, action_space: Any) -> None:
            super().__init__(action_space=action_space)
            self.bot = bot

        def forward(self, batch: Any, state: Any = None, **kwargs: Any) -> Batch:
            obs = np.asarray(batch.obs.obs, dtype=np.float32)
            return Batch(act=self.bot.act(obs, np.asarray(batch.obs.mask, dtype=bool)))

    def __init__(self, bot: str | Policy, game: Game, action_space: Any,
                 seed: int | None = 0) -> None:
        policy = make_policy(bot, game, seed=seed) if isinstance(bot, str) else bot
        super().__init__(policy=self.Policy(policy, action_space))

    def _update_with_batch(self, batch: Any) -> TrainingStats:
        return TrainingStats()


def dqn(env: PettingZooEnv | MaskedObservation, hidden: Sequence[int] = (256, 256),
        lr: float = 5e-4, eps_training: float = 0.1, n_step: int | None = None,
        target_update_freq: int = 250) -> DQN:
    """A masked DQN for one seat of `env`. `n_step` defaults to 8 through the PettingZoo wrapper
    and 1 on a single-seat env (see the module's note on credit)."""
    multi = isinstance(env, PettingZooEnv)
    space = env.observation_space["observation" if multi else "obs"]
    n_step = n_step if n_step is not None else (8 if multi else 1)
    net = Net(state_shape=space.shape, action_shape=int(env.action_space.n),
              hidden_sizes=list(hidden))
    policy = DiscreteQLearningPolicy(model=net, action_space=env.action_space,
                                     observation_space=space, eps_training=eps_training,
                                     eps_inference=0.0)
    return DQN(policy=policy, optim=AdamOptimizerFactory(lr=lr), gamma=1.0,
               n_step_return_horizon=n_step, target_update_freq=target_update_freq)


class TianshouPolicy(Policy):
    """A Tianshou policy (a trained `DQN`'s `.policy`) as a heistbench `Policy`: batched
    observations and masks in, greedy legal actions out."""

    def __init__(self, policy: TianshouBasePolicy, name: str = "tianshou") -> None:
        self.policy = policy
        self.name = name

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        mask = action_mask(mask)
        batch = Batch(obs=Batch(obs=np.asarray(obs, dtype=np.float32), mask=mask), info=Batch())
        self.policy.eval()
        with torch.no_grad():
            values = self.policy(batch).logits
        return greedy_legal(np.asarray(values), mask)


ENVS = ("pettingzoo", "single-seat")


def train(game: str = "grifters", num_players: int = 2, steps: int = 30_000,
          opponents: str = "random", envs: int = 8, eval_games: int = 400, seed: int = 0,
          progress: bool = True, env: str = "pettingzoo",
          **options: Any) -> tuple[DQN, list[EvalRow]]:
    """The documented example: a DQN against `opponents`, evaluated against the same bots before
    and after training, on the project's fixed, seat-rotated seeds.

    env="pettingzoo": Tianshou's PettingZoo wrapper, the DQN in seat 0 and bots in the others
    (`BotAlgorithm`); `steps` counts every seat's moves. env="single-seat": `single_seat_env`, a
    seat drawn per game; `steps` counts the learner's moves only. Returns the learner and the
    two evaluation rows."""
    if steps < 1 or envs < 1:
        raise ValueError(f"steps and envs must be positive, got steps={steps}, envs={envs}")
    if env not in ENVS:
        raise ValueError(f"unknown env {env!r}: choose one of {', '.join(ENVS)}")
    torch.manual_seed(seed)
    np.random.seed(seed)  # Tianshou's exploration draws from NumPy's global stream
    kernel = module(game).Game(num_players=num_players, **options)
    bot = make_policy(opponents, kernel, seed=seed)
    if env == "pettingzoo":
        def make_env() -> gymnasium.Env:
            return pettingzoo_env(game, num_players, **options)

        probe = make_env()
        learner = dqn(probe)
        algorithm = MultiAgentOffPolicyAlgorithm(algorithms=[learner] + [
            BotAlgorithm(opponents, kernel, probe.action_space, seed=seed + i)
            for i in range(1, num_players)], env=probe)
        reduction: dict[str, Any] = {"multi_agent_return_reduction": lambda r: r[:, 0]}
    else:
        def make_env() -> gymnasium.Env:
            return single_seat_env(game, num_players, opponents, **options)

        learner = algorithm = dqn(make_env())
        reduction = {}
    train_envs = DummyVectorEnv([make_env for _ in range(envs)])
    train_envs.seed([seed * 1_000 + i for i in range(envs)])
    collector = Collector(algorithm, train_envs, VectorReplayBuffer(50_000, envs),
                          exploration_noise=True)
    collector.reset()
    rows = [evaluate(kernel, TianshouPolicy(learner.policy, "DQN, untrained"), bot, eval_games,
                     "DQN, untrained", opponents)]
    epochs = max(1, steps // 10_000)
    algorithm.run_training(OffPolicyTrainerParams(
        training_collector=collector, max_epochs=epochs, epoch_num_steps=-(-steps // epochs),
        collection_step_num_env_steps=16 * envs, update_step_num_gradient_steps_per_sample=0.125,
        batch_size=128, test_in_training=False, verbose=False, show_progress=progress,
        **reduction))
    name = f"DQN ({env}), {steps:,} steps"
    rows.append(evaluate(kernel, TianshouPolicy(learner.policy, name), bot, eval_games, name,
                         opponents))
    return learner, rows


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m heistbench.integrations.tianshou",
        description="Train Tianshou's masked DQN in one seat of a heistbench game against bots, "
                    "through Tianshou's PettingZoo wrapper or a single-seat env, and evaluate it "
                    "before and after on the project's fixed, seat-rotated seeds.")
    parser.add_argument("game", help="a game: big_score, grifters, vaults, bad_company, big_deal")
    parser.add_argument("--players", type=int, default=2, help="number of players (default 2)")
    parser.add_argument("--steps", type=int, default=30_000,
                        help="environment steps of training: every seat's moves through the "
                             "PettingZoo wrapper, the learner's on a single-seat env")
    parser.add_argument("--env", choices=ENVS, default="pettingzoo",
                        help="pettingzoo: Tianshou's PettingZoo wrapper, bots in the other "
                             "seats; single-seat: one seat, the others played inside step, "
                             "credited exactly (default pettingzoo)")
    parser.add_argument("--vs", default="random",
                        help="the other seats: random, heuristic or a checkpoint path")
    parser.add_argument("--envs", type=int, default=8, help="parallel training envs")
    parser.add_argument("--eval-games", type=int, default=400, help="evaluation games")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    # Tianshou warns at every collect that a multi-agent return (one column per seat) is not 1-D
    logging.getLogger("tianshou.data.stats").setLevel(logging.ERROR)
    _, rows = train(args.game, args.players, args.steps, args.vs, args.envs, args.eval_games,
                    args.seed, env=args.env)
    print(format_rows(rows))


if __name__ == "__main__":
    main()
