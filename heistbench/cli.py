"""The `heistbench` command line: list games, benchmark, train, evaluate, play.

Each subcommand lives in its own module with `add_parser(subparsers)` and `run(args)`.
"""

from __future__ import annotations

import argparse
import importlib
import sys

# subcommand modules, in the order `--help` lists them
COMMANDS = [
    "heistbench.commands.list_games",
    "heistbench.commands.bench",
    "heistbench.commands.compile",
    "heistbench.commands.train",
    "heistbench.commands.eval",
    "heistbench.commands.tournament",
    "heistbench.commands.export",
    "heistbench.commands.play",
    "heistbench.commands.serve",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="heistbench",
        description="Heist board games with partial information for reinforcement-learning "
        "research: PettingZoo envs on compiled batch kernels, bots, self-play training.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for path in COMMANDS:
        importlib.import_module(path).add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 0
    try:
        return int(args.run(args) or 0)
    except (ValueError, FileNotFoundError) as e:  # bad input: say what, not a traceback
        print(f"heistbench {args.command}: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
