"""The evaluation table behind `heistbench eval` and `heistbench train --eval`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..agents import is_named, make_policy, policy_meta
from ..envs import game as make_game
from ..envs.core import Game
from .evaluate import EVAL_SEEDS_VERSION, EvalRow, evaluate


def is_checkpoint(spec: str) -> bool:
    """Whether `spec` is a file (a checkpoint or an exported policy), not a named bot."""
    return not is_named(spec)


def has_meta(spec: str) -> bool:
    """Whether `spec` says which game and player count it plays (a file or a zoo entry)."""
    return is_checkpoint(spec) or spec.startswith("zoo:")


def policy_label(spec: str) -> str:
    """A short name for a policy spec (a run directory's name for checkpoints)."""
    if is_named(spec):
        return spec
    p = Path(spec)
    return p.parent.name if p.name == "model.zip" else p.stem if p.suffix == ".zip" else p.name


def player_counts_arg(value: str | None, policy: str, game: str | None) -> list[int | None]:
    """--players: one count, a list, or 'all' (the game's counts); None: the policy's own."""
    from ..envs import _resolve, player_counts

    if value is None:
        return [None if has_meta(policy) else 2]
    if value == "all":
        if has_meta(policy):  # a trained policy plays its own count
            return [None]
        if game is None:
            raise ValueError("--players all needs --game (or a policy that names its game)")
        if policy == "zoo":  # the counts the zoo has an entry for
            from ..agents import zoo

            return [n for n in player_counts(game)
                    if f"{zoo.short_name(_resolve(game))}-{n}p" in zoo.entries()]
        return list(player_counts(game))
    try:
        return [int(v) for v in value.split(",") if v]
    except ValueError:
        raise ValueError(f"--players must be a count, a comma-separated list or 'all', got "
                         f"{value!r}") from None


def game_for(spec: str, game: str | None, players: int | None, **options: Any) -> Game:
    """The Game to evaluate `spec` on: from the arguments, else from the metadata of a
    checkpoint, an exported policy or a zoo entry."""
    meta = policy_meta(spec) if game is None or players is None else None
    if meta is not None:
        from ..envs import _resolve

        if game is None or _resolve(game) == meta["game"]:  # its own game: its own options
            options = {**{k: v for k, v in meta.get("options", {}).items()
                          if k not in ("num_players", "validate")}, **options}
        game = game or meta["game"]
        players = players or meta["num_players"]
    if game is None:
        raise ValueError("--game is required unless POLICY is a checkpoint, an exported "
                         "policy or a zoo entry (zoo:<game>-<n>p)")
    kwargs = {"num_players": players} if players else {}
    return make_game(game, **{"validate": False, **options, **kwargs})


def evaluation_rows(spec: str, game: str | Game | None, players: int | None, vs: list[str],
                    games: int, sanity: bool = True, seed: int = 0,
                    version: int = EVAL_SEEDS_VERSION,
                    scenarios: list[str] | None = None) -> list[EvalRow]:
    """`spec` against each of `vs`, then the sanity rows (random and heuristic vs heuristic).
    A solo game has no opponents: a row per scenario instead (`solo_rows`)."""
    g = game if isinstance(game, Game) else game_for(spec, game, players)
    if g.num_players == 1:
        return solo_rows(spec, g, games, scenarios, sanity, seed, version)
    name = policy_label(spec)
    # a fresh policy per row: a stochastic policy's row is then the same whatever rows
    # come before it (the same seed, the same draws)
    rows = [evaluate(g, make_policy(spec, g, seed=seed), make_policy(v, g, seed=seed + 1),
                     games, name=name, opponent_name=v, version=version) for v in vs]
    if sanity:
        for a, b in (("random", "heuristic"), ("heuristic", "heuristic")):
            rows.append(evaluate(g, make_policy(a, g, seed=seed + 2),
                                 make_policy(b, g, seed=seed + 3), games,
                                 name=f"{a} (sanity)", opponent_name=b, version=version))
    return rows


def solo_scenarios(game: Game) -> tuple[str, ...]:
    """The scenarios of a solo game (its `scenario` option's choices, "random" aside)."""
    option = type(game).option_spec().get("scenario")
    if option is None or option.choices is None:
        return ()
    return tuple(c for c in option.choices if c != "random")


def solo_rows(spec: str, game: Game, games: int, scenarios: list[str] | None = None,
              sanity: bool = True, seed: int = 0,
              version: int = EVAL_SEEDS_VERSION) -> list[EvalRow]:
    """`spec` on each scenario of a solo game (default: every one), the win rate being how
    often the objective is met; with `sanity`, the heuristic's and random play's rows too."""
    known = solo_scenarios(game)
    scenarios = list(known) if scenarios in (None, ["all"]) else scenarios
    bad = [s for s in scenarios if s not in known]
    if bad:
        raise ValueError(f"{game.name}: unknown scenario(s) {', '.join(bad)}; allowed: "
                         f"{', '.join(known)} or 'all'")
    specs = [(spec, policy_label(spec))]
    if sanity:
        specs += [(s, f"{s} (sanity)") for s in ("heuristic", "random") if s != spec]
    options = {k: v for k, v in game.options.items() if k not in ("scenario", "validate")}
    rows = []
    for scenario in scenarios:
        g = make_game(game.name, **{**options, "scenario": scenario, "validate": False})
        for policy_spec, name in specs:
            rows.append(evaluate(g, make_policy(policy_spec, g, seed=seed),
                                 make_policy("random", g, seed=seed + 1), games, name=name,
                                 opponent_name=scenario, version=version))
    return rows

