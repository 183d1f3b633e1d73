"""Policies that play any heistbench game: random, a heuristic bot per game, trained models.

`make_policy(spec, game)` builds one from the same strings the CLI takes: "random",
"heuristic", "ismcts" (with options: "ismcts:simulations=1000,rollout=random"), a bot of
the shipped zoo ("zoo:vaults-2p", or "zoo" for the game's own player count), an exported
.onnx/.npz file (played in NumPy), or a checkpoint path.
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
    "bad_company_v1": "heistbench.agents.bad_company:BadCompanyHeuristic",
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


def _rollouts(game: Any) -> str:
    """The search's default rollouts in words (a game by name: for whatever count is chosen)."""
    from . import zoo
    from .ismcts import ZOO_ROLLOUTS, default_rollout

    if isinstance(game, str):
        return ("the trained bot's rollouts where one is shipped, else the heuristic's"
                if zoo.short_name(game) in ZOO_ROLLOUTS else "heuristic rollouts")
    return "the trained bot's rollouts" if default_rollout(game)[0] == "zoo" \
        else "heuristic rollouts"


def policy_choices(game: Any) -> list[tuple[str, str]]:
    """The bots a person may pick by name for `game` (a Game): (spec for `make_policy`, what
    it is). Menus (the web page) are built from this list; a checkpoint path is taken too."""
    choices = [("random", "uniform random over the legal moves")]
    if _game_name(game) in HEURISTICS:
        choices.insert(0, ("heuristic", "the game's heuristic bot"))
        choices.insert(1, ("ismcts", f"search: 200 simulations per move, {_rollouts(game)}"))
    from . import zoo

    shipped = [e for e in zoo.entries() if e.startswith(zoo.short_name(game) + "-")]
    if isinstance(game, str):  # a game by name: the entry of whatever count is chosen
        if shipped:
            choices.insert(0, ("zoo", "the shipped trained bot (" + ", ".join(
                e.rpartition("-")[2] for e in shipped) + ")"))
    elif zoo.entry_for(game) in shipped:
        choices.insert(0, (f"zoo:{zoo.entry_for(game)}", "the shipped trained bot"))
    return choices


def make_policy(spec: str, game: Any, seed: int | None = 0, **options: Any) -> Policy:
    """"random", "heuristic", "ismcts[:options]" or a checkpoint path -> a batched policy
    for `game` (a Game). `options` go to the search bot (simulations=, time_ms=, rollout=)."""
    if options and not spec.startswith("ismcts"):
        raise ValueError(f"policy {spec!r} takes no options (got {', '.join(options)}); only "
                         "ismcts does")
    if spec == "random":
        return RandomPolicy(game, seed=seed)
    if spec == "heuristic":
        return heuristic_policy(game, seed=seed)
    if spec == "ismcts" or spec.startswith("ismcts:"):
        from .ismcts import ISMCTSPolicy, parse_spec

        return ISMCTSPolicy(game, seed=seed, **{**parse_spec(spec), **options})
    if spec == "zoo" or spec.startswith("zoo:"):
        from . import zoo

        return zoo.load(spec.partition(":")[2] or None, game, seed=seed)
    if spec.endswith((".onnx", ".npz")):
        from .runtime import NumpyPolicy

        return NumpyPolicy.load(spec, game, seed=seed)
    if Path(spec).exists() or spec.endswith(".zip"):
        from .model import ModelPolicy

        return ModelPolicy.load(spec, game)
    raise ValueError(f"unknown policy {spec!r}: use 'random', 'heuristic', 'ismcts' (or "
                     "'ismcts:simulations=N,rollout=...'), 'zoo' or 'zoo:<game>-<n>p', an "
                     "exported .onnx/.npz file, or the path of a checkpoint (a run directory "
                     "or its model .zip)")


NAMED = ("random", "heuristic", "ismcts", "zoo")  # policy specs that are names, not files


def is_named(spec: str) -> bool:
    """Whether `spec` names a bot ("heuristic", "ismcts:...", "zoo:vaults-2p") rather than a
    file (a checkpoint or an exported policy)."""
    return spec.partition(":")[0] in NAMED


def split_specs(text: str) -> list[str]:
    """A comma-separated list of policy specs (the CLI's --vs and --bots), where a search
    bot's own options may follow it: "heuristic,ismcts:simulations=50,rollout=random,random"
    -> ["heuristic", "ismcts:simulations=50,rollout=random", "random"]."""
    specs: list[str] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        head = part.partition("=")[0]
        if specs and "=" in part and ":" not in head and specs[-1].startswith("ismcts:"):
            specs[-1] += "," + part  # another option of the search bot before it
        else:
            specs.append(part)
    return specs


def policy_meta(spec: str) -> dict[str, Any] | None:
    """The metadata (game, player count, sizes, ...) a policy spec carries: a checkpoint's,
    an exported file's or a zoo entry's; None for the bots that play any game."""
    if spec.startswith("zoo:"):
        from . import runtime, zoo

        return runtime.load_npz(zoo.path(spec[4:]))[1]
    if is_named(spec):
        return None
    if spec.endswith((".onnx", ".npz")):
        from .runtime import NumpyPolicy

        return NumpyPolicy.load(spec).meta
    from .model import read_meta

    return read_meta(spec)


__all__ = ["HEURISTICS", "NAMED", "HeuristicPolicy", "Policy", "RandomPolicy", "heuristic_policy",
           "is_named", "make_policy", "policy_choices", "policy_meta", "sample_legal",
           "split_specs"]
