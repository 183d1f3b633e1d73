"""heistbench in the tools researchers already use: each bridge is a view on the batch kernel.

- `make_single_agent(game, seat, opponents, ...)`: one seat as a Gymnasium env, the other seats
  played inside `step`, with `action_masks()` for sb3-contrib (`single_agent`);
- `make_vector_env(game, num_envs, ...)`: many of them on one kernel batch, a Gymnasium
  VectorEnv (`vector`);
- `SnapshotCallback`, `sb3_vec_env`: self-play with stable-baselines3, every seat credited
  right, and the SB3 VecEnv on the batch kernel (`sb3`; imported on first use, with SB3).

Importing this package registers `heistbench/<game>-vs-<bots>-v<k>` with Gymnasium for every
game and bots in {random, heuristic} (v<k>: the game's env version), so that
`gymnasium.make("heistbench/grifters-vs-heuristic-v1")` works, and `gymnasium.make_vec` of the
same id gives the VectorEnv on the batch kernel. An illegal action loses the game (-1, like the
AEC `env()`) unless the env is made with `illegal_action="raise"`.
"""

from __future__ import annotations

from typing import Any

import gymnasium

from ..envs import GAMES
from .single_agent import SingleAgentEnv, make_single_agent
from .vector import SingleAgentVectorEnv, make_vector_env

REGISTERED_BOTS = ("random", "heuristic")
_SB3_NAMES = ("SnapshotCallback", "sb3_vec_env")


def env_id(game: str, bots: str) -> str:
    """The Gymnasium id of `game` (an env name, e.g. "grifters_v1") against `bots`."""
    base, version = game.rsplit("_v", 1)
    return f"heistbench/{base}-vs-{bots}-v{version}"


def register_envs() -> None:
    """Register every game against every bot in {random, heuristic} with Gymnasium."""
    for game in GAMES:
        for bots in REGISTERED_BOTS:
            name = env_id(game, bots)
            if name not in gymnasium.registry:
                gymnasium.register(name, entry_point=make_single_agent,
                                   vector_entry_point=make_vector_env,
                                   kwargs={"game": game, "opponents": bots,
                                           "illegal_action": "lose"})


def __getattr__(name: str) -> Any:
    if name in _SB3_NAMES:  # stable-baselines3 (and torch) load only when asked for
        from . import sb3

        return getattr(sb3, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


register_envs()

__all__ = ["REGISTERED_BOTS", "SingleAgentEnv", "SingleAgentVectorEnv", "SnapshotCallback",
           "env_id", "make_single_agent", "make_vector_env", "register_envs", "sb3_vec_env"]
