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
                   help="checkpoints (run directory or .zip), 'heuristic' or 'random'")
    p.add_argument("--game", help="game name (default: the first checkpoint's)")
    p.add_argument("--players", type=int, help="player count (default: the first "
                   "checkpoint's, or 2)")
    p.add_argument("--games", type=int, default=200, help="games per table (rounded up to a "
                   "multiple of the player count)")
    p.add_argument("--seed", type=int, default=0, help="seed of the policies and rating order")
    p.add_argument("--json", nargs="?", const="-", metavar="FILE",
                   help="write the standings as JSON (to FILE, or stdout instead of the table)")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from heistbench.agents import make_policy
    from heistbench.training.report import game_for, is_checkpoint, policy_label
    from heistbench.training.tournament import format_standings, run_tournament

    if len(args.policies) < 2:
        raise ValueError("a tournament needs at least two policies")
    if args.games <= 0:
        raise ValueError("--games must be positive")
    first = next((s for s in args.policies if is_checkpoint(s)), args.policies[0])
    players = args.players or (None if is_checkpoint(first) else 2)
    game = game_for(first, args.game, players)
    policies = [make_policy(s, game, seed=args.seed + i) for i, s in enumerate(args.policies)]
    names = [policy_label(s) for s in args.policies]
    for i, nm in enumerate(names):  # the same label twice would be ambiguous in the table
        if names.count(nm) > 1:
            names[i] = f"{nm}#{i + 1}"
    standings = run_tournament(game, policies, names, args.games, seed=args.seed,
                               progress=not args.no_progress)
    data = {"game": game.name, "players": game.num_players,
            "standings": [s.as_dict() for s in standings]}
    if args.json == "-":
        json.dump(data, sys.stdout, indent=2)
        print()
        return 0
    print(f"{game.name}, {game.num_players} players, {args.games} games per table, seats "
          "rotated; OpenSkill Plackett-Luce")
    print(format_standings(standings))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(data, f, indent=2)
        print(f"wrote {args.json}")
    return 0
