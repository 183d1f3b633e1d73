"""The heistbench games and their registry.

`GAMES` lists the registered env names; `make(name, **options)` returns the PettingZoo AEC env
(same as `<name>.env(**options)`), `game(name, **options)` the batch kernel. Importing this
package also registers every env with PettingZoo, as `heistbench/<game>-v<k>`.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import pettingzoo

from .core import Game

# env name -> module; one line per game, in the order the games were added
_MODULES: dict[str, str] = {
    "big_score_v1": "heistbench.envs.big_score_v1",
    "vaults_v1": "heistbench.envs.vaults_v1",
    "grifters_v1": "heistbench.envs.grifters_v1",
    "bad_company_v1": "heistbench.envs.bad_company_v1",
    "big_deal_v0": "heistbench.envs.big_deal_v0",
}

GAMES: tuple[str, ...] = tuple(_MODULES)


def _resolve(name: str) -> str:
    if name in _MODULES:
        return name
    alias = {n.rsplit("_v", 1)[0]: n for n in _MODULES}  # "big_score" -> "big_score_v1"
    if name in alias:
        return alias[name]
    raise ValueError(f"unknown game {name!r}; available: {', '.join(GAMES)}")


def module(name: str) -> ModuleType:
    """The env module of a game ("big_score_v1" or "big_score")."""
    return importlib.import_module(_MODULES[_resolve(name)])


def make(name: str, **options: Any):
    """The PettingZoo AEC env of `name` with the standard wrappers."""
    return module(name).env(**options)


def game(name: str, **options: Any) -> Game:
    """The batch kernel (`Game`) of `name`."""
    return module(name).Game(**options)


def player_counts(name: str) -> tuple[int, ...]:
    """Every player count of a game, its variants' included (The Big Score's solo game: 1)."""
    cls = module(name).Game
    extra = tuple(v["num_players"] for v in cls.variants.values() if "num_players" in v)
    return tuple(sorted(set(cls.player_counts + extra)))


def _register() -> None:
    for name, mod in _MODULES.items():
        base, ver = name.rsplit("_v", 1)
        env_id = f"heistbench/{base}-v{ver}"
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry_point=f"{mod}:env")


_register()


def _register_gymnasium() -> None:
    """The Big Score solo game as a Gymnasium single-agent env (`action_masks()` for
    sb3-contrib's MaskablePPO): `gymnasium.make("heistbench/BigScoreSolo-v1", scenario=...)`."""
    import gymnasium

    if SOLO_ENV_ID not in gymnasium.registry:
        gymnasium.register(SOLO_ENV_ID,
                           entry_point="heistbench.integrations.single_agent:make_single_agent",
                           kwargs={"game": "big_score", "num_players": 1, "seat": 0,
                                   "opponents": "random"})


SOLO_ENV_ID = "heistbench/BigScoreSolo-v1"
_register_gymnasium()

__all__ = ["GAMES", "SOLO_ENV_ID", "Game", "game", "make", "module", "player_counts"]
