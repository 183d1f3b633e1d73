"""`heistbench bench [GAME]`: AEC and batch-kernel throughput with peak memory."""

from __future__ import annotations

import argparse
import json
import sys


def _ints(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated integers, got {text!r}") from None


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "bench", help="measure steps per second", description="Measure, per game and player "
        "count, the AEC env's agent-steps/s and the batch kernel's agent-steps/s at several "
        "batch sizes (observation and action mask computed every step, random legal actions, "
        "finished games replaced), games/s, mean game length and peak memory.")
    p.add_argument("game", nargs="?", help="a game name (default: every game)")
    p.add_argument("--players", type=_ints, help="player counts, e.g. 2,4 (default: all)")
    p.add_argument("--batch", type=_ints, default=[1, 256, 4096],
                   help="batch sizes for the kernel (default: 1,256,4096)")
    p.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                   help="rates per wall-clock second (default) or per CPU-second of the "
                   "benchmark process, which a busy shared machine disturbs less")
    p.add_argument("--repeat", type=int, default=1, metavar="N",
                   help="run every measurement N times, in rounds over all of them, and report "
                   "the median rate with the range of the N runs (default: 1)")
    p.add_argument("--json", nargs="?", const="-", metavar="FILE",
                   help="also write the results as JSON (to FILE, or stdout)")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from heistbench.envs import GAMES, _resolve
    from heistbench.training.bench import format_table, run_benchmarks

    games = [_resolve(args.game)] if args.game else list(GAMES)
    if args.players:
        from heistbench.envs import module

        counts = {n for g in games for n in module(g).Game.player_counts}
        bad = sorted(set(args.players) - counts)
        if bad:
            raise ValueError(f"--players {bad} not played by {', '.join(games)}; "
                             f"allowed: {sorted(counts)}")
    if args.seconds <= 0:
        raise ValueError("--seconds must be positive")
    if args.repeat < 1:
        raise ValueError(f"--repeat must be at least 1, got {args.repeat}")
    results = run_benchmarks(games, args.players, args.batch, args.seconds,
                             progress=not args.no_progress, clock=args.clock, repeat=args.repeat)
    if not results:
        raise ValueError("no benchmark matched: check --players against the game's counts")
    if args.json == "-":
        json.dump([r.as_dict() for r in results], sys.stdout, indent=2)
        print()
        return 0
    print(format_table(results))
    if args.json:
        with open(args.json, "w") as f:
            json.dump([r.as_dict() for r in results], f, indent=2)
        print(f"wrote {args.json}")
    return 0
