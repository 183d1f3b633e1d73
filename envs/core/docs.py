"""Documentation generated from the layouts and options, so the docs cannot drift.

Each env module's docstring and each game folder's README carry the same generated tables:
the README between the markers below (rewritten by `python -m heistbench.envs.core.docs`,
checked by the tests), the module docstring at import time.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .game import Game
from .layout import OBS_BOUNDS
from .options import options_table

START, END = "<!-- generated:start -->", "<!-- generated:end -->"


def api_table(game: Game) -> str:
    n = game.num_players
    return "\n".join([
        "| | |", "|---|---|",
        f"| Import | `from heistbench.envs import {game.name}` |",
        f"| Agents | `player_0` … `player_{n - 1}` ({', '.join(map(str, game.player_counts))} "
        "players) |",
        f"| Action space | `Discrete({game.num_actions})` |",
        f"| Observation | `Dict(observation=Box({OBS_BOUNDS[0]:g}, {OBS_BOUNDS[1]:g}, "
        f"({game.obs_size},), float32), "
        f"action_mask=Box(0, 1, ({game.num_actions},), int8))` (at {n} players) |",
        f"| Step bound | {game.max_steps} agent steps (truncation safety net) |",
    ])


def generated_section(game_cls: type[Game]) -> str:
    """API, options, observation and action tables for one game (default options), then the
    same for each of its variants (a game of its own, e.g. The Big Score's solo game)."""
    parts = [_tables(game_cls(), "")]
    for variant, options in game_cls.variants.items():
        args = ", ".join(f"{k}={v!r}" for k, v in options.items())
        parts.append(f"## The {variant} game: `{game_cls.name}.Game({args})`\n\n"
                     + _tables(game_cls(**options), f"{variant}: "))
    return "\n\n".join(parts)


def _tables(game: Game, prefix: str) -> str:
    return "\n\n".join([
        f"### {prefix}API\n\n" + api_table(game),
        f"### {prefix}Options\n\n" + options_table(type(game).option_spec()),
        f"### {prefix}Observation\n\nOne float32 vector per agent; decode it by name with "
        f"`{game.name}.obs_fields(obs)`.\n\n" + game.observation_layout.markdown_table(),
        f"### {prefix}Actions\n\n" + game.action_layout.markdown_table(),
    ])


def fill(text: str, game_cls: type[Game]) -> str:
    """Replace the generated region of `text` (between the markers) with fresh tables."""
    if START not in text or END not in text:
        raise ValueError(f"no {START} … {END} region to fill")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{START}\n{generated_section(game_cls)}\n{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    """Rewrite the generated region of every game folder's README."""
    from .. import GAMES, _resolve, module

    root = Path(__file__).resolve().parents[1]
    for name in argv or GAMES:
        name = _resolve(name)
        mod = module(name)
        path = root / name.rsplit("_v", 1)[0] / "README.md"
        path.write_text(fill(path.read_text(), mod.Game))
        print(f"updated {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
