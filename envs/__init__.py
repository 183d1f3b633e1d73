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
    "bad_company_v0": "heistbench.envs.bad_company_v0",
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


def _register() -> None:
    for name, mod in _MODULES.items():
        base, ver = name.rsplit("_v", 1)
        env_id = f"heistbench/{base}-v{ver}"
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry_point=f"{mod}:env")


_register()

__all__ = ["GAMES", "Game", "game", "make", "module"]
