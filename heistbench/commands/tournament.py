"""`heistbench tournament P1 P2 ... --game G`: every pairing, an OpenSkill rating table."""

from __future__ import annotations

import argparse
import json
import sys


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "tournament", help="rate several policies against each other", description="Play "
        "every pairing of the policies (every table of N for N-player games), each on the "
        "evaluation seeds with the seats rotated, and print an OpenSkill (Plackett-Luce) "
        "rating table with games played.")
    p.add_argument("policies", nargs="+", metavar="POLICY",
                   help="checkpoints (run directory or .zip), exported .onnx/.npz files, zoo "
                   "entries (zoo:vaults-2p; zoo: the entry of each count), 'heuristic', "
                   "'random' or 'ismcts[:simulations=N,...]'")
    p.add_argument("--game", help="game name (default: the first checkpoint's)")
    p.add_argument("--players", help="player count, a comma-separated list or 'all' (every "
                   "count the game supports; default: the first checkpoint's, or 2)")
    p.add_argument("--games", type=int, default=200, help="games per table (rounded up to a "
                   "multiple of the player count)")
    p.add_argument("--seed", type=int, default=0, help="seed of the policies and rating order")
    p.add_argument("--json", nargs="?", const="-", metavar="FILE",
                   help="write the standings as JSON (to FILE, or stdout instead of the table)")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from heistbench.training.report import has_meta, player_counts_arg

    if len(args.policies) < 2:
        raise ValueError("a tournament needs at least two policies")
    if args.games <= 0:
        raise ValueError("--games must be positive")
    first = next((s for s in args.policies if has_meta(s)), args.policies[0])
    counts = player_counts_arg(args.players, first, args.game)
    results = [standings_at(args, first, n) for n in counts]
    blocks = [{k: v for k, v in b.items() if k != "table"} for b in results]
    data = blocks[0] if len(blocks) == 1 else {"counts": blocks}
    if args.json == "-":
        json.dump(data, sys.stdout, indent=2)
        print()
        return 0
    for block in results:
        print(f"{block['game']}, {block['players']} players, {args.games} games per table, "
              "seats rotated; OpenSkill Plackett-Luce")
        print(block["table"])
    if args.json:
        with open(args.json, "w") as f:
            json.dump(data, f, indent=2)
        print(f"wrote {args.json}")
    return 0


def standings_at(args: argparse.Namespace, first: str, players: int | None) -> dict:
    """The tournament at one player count: its standings as data and as a table."""
    from heistbench.agents import make_policy
    from heistbench.training.report import game_for, policy_label
    from heistbench.training.tournament import format_standings, run_tournament

    game = game_for(first, args.game, players)
    policies = [make_policy(s, game, seed=args.seed + i) for i, s in enumerate(args.policies)]
    names = [policy_label(s) for s in args.policies]
    for i, nm in enumerate(names):  # the same label twice would be ambiguous in the table
        if names.count(nm) > 1:
            names[i] = f"{nm}#{i + 1}"
    standings = run_tournament(game, policies, names, args.games, seed=args.seed,
                               progress=not args.no_progress)
    return {"game": game.name, "players": game.num_players,
            "standings": [s.as_dict() for s in standings],
            "table": format_standings(standings)}
