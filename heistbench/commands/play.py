"""`heistbench play GAME --seat S --bots heuristic,...`: a person against bots in the terminal."""

from __future__ import annotations

import argparse
import random


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "play", help="play a game against bots", description="Play a game in the terminal: "
        "you see what your seat may see, pick among the legal actions by number (or name), "
        "and see the bots' moves as far as the rules let you.")
    p.add_argument("game", help="a game name, e.g. big_score")
    p.add_argument("--players", type=int, default=2, help="number of players (default 2)")
    p.add_argument("--seat", type=int, default=0, help="your seat, 0-based (default 0)")
    p.add_argument("--bots", default="heuristic", help="comma-separated bots for the other "
                   "seats in order: heuristic, random, ismcts[:simulations=N,...], zoo (the "
                   "zoo's trained bot), exported files or checkpoints; one name fills all seats")
    p.add_argument("--seed", type=int, help="seed of the deal (default: random)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from heistbench.agents import make_policy, split_specs
    from heistbench.envs import game as make_game
    from heistbench.training.human import play_human
    from heistbench.training.report import policy_label

    game = make_game(args.game, num_players=args.players)
    specs = split_specs(args.bots)
    if len(specs) == 1:
        specs = specs * (args.players - 1)
    if len(specs) != args.players - 1:
        raise ValueError(f"--bots: {args.players - 1} bot(s) needed for the other seats, "
                         f"got {len(specs)}")
    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    bots = [make_policy(s, game, seed=seed + i) for i, s in enumerate(specs)]
    try:
        play_human(game, args.seat, bots, [policy_label(s) for s in specs], seed=seed)
    except KeyboardInterrupt:
        print("\ngame abandoned")
    return 0
