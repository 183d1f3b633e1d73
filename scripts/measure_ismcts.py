"""Measure the search bot: its win rate against an opponent and its speed, one row per budget.

    python scripts/measure_ismcts.py big_deal --simulations 50 200 1000 --games 20 4 4
    python scripts/measure_ismcts.py bad_company --simulations 200 --vs zoo:bad_company-2p
    python scripts/measure_ismcts.py vaults --players 4 --simulations 200 --games 8
    python scripts/measure_ismcts.py vaults --simulations 200 --rollout heuristic

The rollout policy defaults to the search's own default for the game: the zoo entry's 20 moves
in Vaults where one is shipped, the heuristic's 200 moves elsewhere.

Each row plays `games` seat-rotated games (evaluation seeds v1) of ISMCTS with the given
simulations per move against `--vs`, and reports the win share with its Wilson 95% interval,
the points it gains over its rollout policy's own result against that opponent (measured
alongside, on 2,000 games, unless --no-baseline), and the search's moves and simulations per
second over the wall time (which includes the opponent's moves).
"""

from __future__ import annotations

import argparse
import time

from heistbench.agents import make_policy, zoo
from heistbench.agents.ismcts import default_rollout
from heistbench.envs import game as make_game
from heistbench.training.evaluate import evaluate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", help="a game name, e.g. big_deal")
    ap.add_argument("--players", type=int, default=2, help="seats at the table (default 2)")
    ap.add_argument("--simulations", type=int, nargs="+", default=[50, 200, 1000],
                    help="budgets to measure, simulations per move (default 50 200 1000)")
    ap.add_argument("--games", type=int, nargs="+", default=[20],
                    help="games per budget: one number, or one per budget (default 20)")
    ap.add_argument("--vs", default="heuristic", help="the opponent (default heuristic)")
    ap.add_argument("--rollout", default=None,
                    help="ISMCTS's rollout policy and prior (default: the search's default for "
                         "the game, the zoo entry in Vaults, else the heuristic)")
    ap.add_argument("--rollout-moves", type=int, default=None,
                    help="moves the rollout policy plays before random moves finish a rollout "
                         "(default: the search's, 20 for its default zoo entry, else 200)")
    ap.add_argument("--no-baseline", action="store_true",
                    help="skip the rollout policy's own 2,000 games against the opponent")
    args = ap.parse_args()
    games = args.games * len(args.simulations) if len(args.games) == 1 else args.games
    if len(games) != len(args.simulations):
        ap.error("--games takes one number, or one per budget in --simulations")
    game = make_game(args.game, num_players=args.players)
    rollout = args.rollout or default_rollout(game)[0]  # what the search will roll out with
    if rollout == "zoo":
        rollout = "zoo:" + zoo.entry_for(game)  # the same policy, named in the table
    base = None
    if not args.no_baseline:
        base = evaluate(game, make_policy(rollout, game), make_policy(args.vs, game), 2000,
                        name=rollout, opponent_name=args.vs)
        print(f"{rollout} (the rollout policy) vs {args.vs}: {100 * base.win_rate:.1f}% "
              f"[{100 * base.ci_low:.1f}, {100 * base.ci_high:.1f}] of {base.games} games")
    print(f"| game | players | simulations | vs | games | win rate | 95% CI | over {rollout}"
          " | moves/s | simulations/s | seconds |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for sims, n in zip(args.simulations, games):
        bot = make_policy("ismcts", game, simulations=sims, rollout=args.rollout,
                          rollout_moves=args.rollout_moves)  # None: the search's defaults
        t = time.perf_counter()
        row = evaluate(game, bot, make_policy(args.vs, game), n, name="ismcts",
                       opponent_name=args.vs)
        dt = time.perf_counter() - t
        over = "" if base is None else f"{100 * (row.win_rate - base.win_rate):+.1f}"
        print(f"| {args.game} | {args.players} | {sims} | {args.vs} | {row.games} | "
              f"{100 * row.win_rate:.1f}% | [{100 * row.ci_low:.1f}, {100 * row.ci_high:.1f}] | "
              f"{over} | {bot.searched / dt:.2f} | {bot.simulated / dt:.0f} | {dt:.0f} |",
              flush=True)


if __name__ == "__main__":
    main()
