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
        "count, the AEC env's agent-steps/s (with PettingZoo's standard wrappers, as env() "
        "makes it) next to the floor, a do-nothing env with the same spaces, wrappers and game "
        "length, the two timed in turns in the same run ('%% of floor': the median ratio of the "
        "turns), and the batch kernel's agent-steps/s at "
        "several batch sizes and thread counts (observation and action mask computed every "
        "step, random legal actions, finished games replaced), games/s, mean game length, "
        "peak memory and the observation bytes written per second next to this machine's "
        "memory write bandwidth measured in the same run; --compile adds cold-compile and "
        "warm-start times.")
    p.add_argument("game", nargs="?", help="a game name (default: every game)")
    p.add_argument("--players", type=_ints, help="player counts, e.g. 2,4 (default: all, the "
                   "solo game's 1 included)")
    p.add_argument("--batch", type=_ints, default=[1, 256, 4096],
                   help="batch sizes for the kernel (default: 1,256,4096)")
    p.add_argument("--threads", type=_ints, default=[1], metavar="N[,M]",
                   help="thread counts: every batch measurement runs once per count, e.g. 1,2 "
                   "(default: 1); B = 1 runs on one thread only, so its other counts are "
                   "skipped with a note. Use the wall "
                   "clock: the CPU clock adds up every thread's time")
    p.add_argument("--compile", action="store_true",
                   help="also time the start-up of each compiled game in fresh processes that "
                   "import heistbench.envs, build the game and warm it up: cold, into a fresh "
                   "empty cache (the whole process: the compile, about half a minute per game; "
                   "and of it import + build + init + first step), then warm, from the cache "
                   "the cold one filled (import + build + first step, and the whole process)")
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
    from heistbench.envs.core import jit
    from heistbench.training import bench

    games = [_resolve(args.game)] if args.game else list(GAMES)
    if args.players:
        from heistbench.envs import player_counts

        counts = {n for g in games for n in player_counts(g)}
        bad = sorted(set(args.players) - counts)
        if bad:
            raise ValueError(f"--players {bad} not played by {', '.join(games)}; "
                             f"allowed: {sorted(counts)}")
    if args.seconds <= 0:
        raise ValueError("--seconds must be positive")
    if args.repeat < 1:
        raise ValueError(f"--repeat must be at least 1, got {args.repeat}")
    limit = jit.numba.config.NUMBA_NUM_THREADS
    if any(not 1 <= t <= limit for t in args.threads):
        raise ValueError(f"--threads must be in 1..{limit}, got {args.threads}")
    bandwidth = bench.write_bandwidth() if any(b > 1 for b in args.batch) else None
    results = bench.run_benchmarks(games, args.players, args.batch, args.seconds,
                                   progress=not args.no_progress, clock=args.clock,
                                   repeat=args.repeat, threads=args.threads)
    if not results:
        raise ValueError("no benchmark matched: check --players against the game's counts")
    times = bench.measure_compile(games, progress=not args.no_progress) if args.compile else {}
    report = [r.as_dict() for r in results] + [
        {"mode": "bandwidth", "write_gb_per_s": bandwidth}] * (bandwidth is not None) + [
        {"game": g, "mode": "compile", "compiled": bool(t), **t} for g, t in times.items()]
    notes = bench.thread_notes(games, args.batch, args.threads)
    if args.json == "-":
        json.dump(report, sys.stdout, indent=2)
        print()
        if notes:
            print("\n".join(notes), file=sys.stderr)
        return 0
    print(bench.format_table(results, bandwidth))
    if bandwidth is not None:
        print(f"memory write bandwidth: {bandwidth:.2f} GB/s (np.copyto of 128 MB, best of 5)")
    if notes:
        print("\n".join(notes))
    if times:
        print()
        print(bench.format_compile_table(times))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
        print(f"wrote {args.json}")
    return 0
