"""`heistbench eval POLICY --vs heuristic,random`: win rates with confidence intervals."""

from __future__ import annotations

import argparse
import json
import sys
import time


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "eval", help="evaluate a policy against the bots", description="Play POLICY (a "
        "checkpoint, 'heuristic' or 'random') against each opponent on the fixed, versioned "
        "evaluation seeds, every seed once per seat rotation, and print win rate with a 95% "
        "Wilson interval, mean score margin and mean reward, plus sanity rows (random vs "
        "heuristic, heuristic vs heuristic).")
    p.add_argument("policy", help="a checkpoint (run directory or .zip), an exported .onnx/.npz, "
                   "a zoo entry (zoo:vaults-2p, or zoo: the entry of each count), 'heuristic', "
                   "'random' or 'ismcts[:simulations=N,rollout=...]'")
    p.add_argument("--game", help="game name (default: the checkpoint's)")
    p.add_argument("--players", help="player count, a comma-separated list, or 'all' (every "
                   "count the game supports; a checkpoint plays only its own). Default: the "
                   "checkpoint's, or 2")
    p.add_argument("--vs", default="heuristic,random",
                   help="comma-separated opponents: heuristic, random, ismcts, zoo or "
                   "checkpoints")
    p.add_argument("--games", type=int, default=2000,
                   help="games per row, rounded up to a multiple of the player count")
    p.add_argument("--seeds-version", type=int, default=None,
                   help="evaluation seed set (default: the current version)")
    p.add_argument("--scenarios", default="all",
                   help="solo game (--players 1): comma-separated scenarios to play, or 'all' "
                   "(default); each gets a row whose win rate is how often its objective is met")
    p.add_argument("--no-sanity", action="store_true", help="skip the sanity rows")
    p.add_argument("--json", nargs="?", const="-", metavar="FILE",
                   help="write the rows as JSON (to FILE, or stdout instead of the table)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from heistbench.training.evaluate import EVAL_SEEDS_VERSION
    from heistbench.training.report import evaluation_rows, game_for, player_counts_arg

    if args.games <= 0:
        raise ValueError("--games must be positive")
    from heistbench.agents import split_specs

    vs = split_specs(args.vs)
    if not vs:
        raise ValueError("--vs needs at least one opponent")
    version = args.seeds_version or EVAL_SEEDS_VERSION
    blocks = []
    for players in player_counts_arg(args.players, args.policy, args.game):
        game = game_for(args.policy, args.game, players)
        t0 = time.perf_counter()
        rows = evaluation_rows(args.policy, game, None, vs, args.games,
                               sanity=not args.no_sanity, version=version,
                               scenarios=args.scenarios.split(","))
        blocks.append({"game": game.name, "players": game.num_players, "seeds_version": version,
                       "seconds": round(time.perf_counter() - t0, 2),
                       "rows": [r.as_dict() for r in rows]})
        if args.json != "-":
            print_block(game, version, rows, blocks[-1]["seconds"])
    data = blocks[0] if len(blocks) == 1 else {"counts": blocks}
    if args.json == "-":
        json.dump(data, sys.stdout, indent=2)
        print()
    elif args.json:
        with open(args.json, "w") as f:
            json.dump(data, f, indent=2)
        print(f"wrote {args.json}")
    return 0


def print_block(game, version: int, rows, seconds: float) -> None:
    from heistbench.training.evaluate import format_rows

    if game.num_players == 1:
        print(f"{game.name}, solo, evaluation seeds v{version}; win = the scenario's objective "
              "met (vs = the scenario), score margin = the take ($10K)")
    else:
        print(f"{game.name}, {game.num_players} players, evaluation seeds v{version}, seats "
              f"rotated; win = share of the win (ties split); fair share "
              f"{100 / game.num_players:.1f}%")
    print(format_rows(rows))
    print(f"({sum(r.games for r in rows):,} games in {seconds:.1f}s)")
