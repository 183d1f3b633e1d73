"""Build the bot zoo from training runs: export each run's actor (float16) into agents/zoo,
check the 1 MB limit, and print each entry's evaluation against the bots.

    python scripts/build_zoo.py RUN_DIR [RUN_DIR ...] [--games 2000]

The entry's name comes from the run's metadata (`<game>-<n>p`), so a run of any name lands in
the right place; an existing entry is replaced.
"""

from __future__ import annotations

import argparse
import time

from heistbench.agents import make_policy, zoo
from heistbench.agents.export import export
from heistbench.agents.model import read_meta
from heistbench.training.evaluate import evaluate
from heistbench.training.report import game_for


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", help="training run directories")
    ap.add_argument("--games", type=int, default=2000, help="evaluation games per opponent")
    args = ap.parse_args()
    print("| entry | size | vs | win rate | 95% CI | fair share | games | seconds |")
    print("|---|---|---|---|---|---|---|---|")
    for run in args.runs:
        meta = read_meta(run)
        name = f"{zoo.short_name(meta['game'])}-{meta['num_players']}p"
        out = export(run, zoo.ZOO_DIR / f"{name}.npz")
        size = out.stat().st_size
        if size > zoo.MAX_BYTES:
            out.unlink()
            raise SystemExit(f"{name}: {size / 1024:.0f} KiB is over the zoo's 1 MB limit: "
                             "train it with a smaller trunk")
        game = game_for(f"zoo:{name}", None, None)
        bot = zoo.load(name, game)
        n = game.num_players
        for vs in (["heuristic", "random"] if n > 1 else []):
            t = time.perf_counter()
            row = evaluate(game, bot, make_policy(vs, game, seed=1), args.games, name, vs)
            print(f"| {name} | {size / 1024:.0f} KiB | {vs} | {100 * row.win_rate:.1f}% | "
                  f"[{100 * row.ci_low:.1f}, {100 * row.ci_high:.1f}] | {100 / n:.1f}% | "
                  f"{row.games} | {time.perf_counter() - t:.0f} |", flush=True)


if __name__ == "__main__":
    main()
