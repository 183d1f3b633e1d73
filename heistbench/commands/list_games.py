"""`heistbench list`: the registered games with their sizes."""

from __future__ import annotations

import argparse
import json


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("list", help="list the games", description="List the registered games "
                       "with player counts, action-space and observation sizes.")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(run=run)


def rows() -> list[dict]:
    from heistbench.envs import GAMES, module

    out = []
    for name in GAMES:
        cls = module(name).Game
        games = [cls(num_players=n) for n in cls.player_counts]
        out.append({"game": name, "title": cls.title, "players": list(cls.player_counts),
                    "actions": games[0].num_actions,
                    "obs_size": {g.num_players: g.obs_size for g in games},
                    "max_steps": games[0].max_steps})
        for variant, options in cls.variants.items():  # e.g. the solo game
            g = cls(**options)
            out.append({"game": f"{name} ({variant})", "title": g.title,
                        "players": [g.num_players], "actions": g.num_actions,
                        "obs_size": {g.num_players: g.obs_size}, "max_steps": g.max_steps,
                        "options": options})
    return out


def run(args: argparse.Namespace) -> int:
    from heistbench.envs.core.render import table

    data = rows()
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        def span(values) -> str:
            lo, hi = min(values), max(values)
            return str(lo) if lo == hi else f"{lo}–{hi}"

        print(table(["game", "title", "players", "actions", "observation", "step bound"],
                    [[d["game"], d["title"], span(d["players"]), d["actions"],
                      span(d["obs_size"].values()), d["max_steps"]] for d in data]))
    return 0
