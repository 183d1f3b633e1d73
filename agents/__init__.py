"""Policies that play any heistbench game: random, a heuristic bot per game, trained models.

`make_policy(spec, game)` builds one from the same strings the CLI takes: "random",
"heuristic", or a checkpoint path.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from .base import Policy, RandomPolicy, sample_legal

# env name -> "module:class" of its heuristic bot
HEURISTICS: dict[str, str] = {
    "big_score_v1": "heistbench.agents.big_score:BigScoreHeuristic",
    "big_score_v1 (solo)": "heistbench.agents.big_score_solo:BigScoreSoloHeuristic",
    "grifters_v1": "heistbench.agents.grifters:GriftersHeuristic",
    "vaults_v1": "heistbench.agents.vaults:VaultsHeuristic",
    "bad_company_v0": "heistbench.agents.bad_company:BadCompanyHeuristic",
    "big_deal_v0": "heistbench.agents.big_deal:BigDealHeuristic",
}


def _game_name(game: Any) -> str:
    return game if isinstance(game, str) else game.label


def heuristic_policy(game: Any, seed: int | None = 0) -> Policy:
    """The heuristic bot of `game` (a Game instance)."""
    name = _game_name(game)
    if name not in HEURISTICS:
        raise ValueError(f"no heuristic bot for {name!r}; available: {', '.join(HEURISTICS)}")
    mod, cls = HEURISTICS[name].split(":")
    return getattr(importlib.import_module(mod), cls)(game, seed=seed)


HeuristicPolicy = heuristic_policy  # the architecture's name: one heuristic bot per game


def policy_choices(game: Any) -> list[tuple[str, str]]:
    """The bots a person may pick by name for `game` (a Game): (spec for `make_policy`, what
    it is). Menus (the web page) are built from this list; a checkpoint path is taken too."""
    choices = [("random", "uniform random over the legal moves")]
    if _game_name(game) in HEURISTICS:
        choices.insert(0, ("heuristic", "the game's heuristic bot"))
    return choices


def make_policy(spec: str, game: Any, seed: int | None = 0) -> Policy:
    """"random", "heuristic" or a checkpoint path -> a batched policy for `game` (a Game)."""
    if spec == "random":
        return RandomPolicy(game, seed=seed)
    if spec == "heuristic":
        return heuristic_policy(game, seed=seed)
    if Path(spec).exists() or spec.endswith(".zip"):
        from .model import ModelPolicy

        return ModelPolicy.load(spec, game)
    raise ValueError(f"unknown policy {spec!r}: use 'random', 'heuristic' or the path of a "
                     "checkpoint (a run directory or its model .zip)")


__all__ = ["HEURISTICS", "HeuristicPolicy", "Policy", "RandomPolicy", "heuristic_policy",
           "make_policy", "policy_choices", "sample_legal"]
