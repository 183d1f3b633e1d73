"""Build the bot zoo from training runs: export each run's actor (float16) into agents/zoo,
check the 1 MB limit, and print each entry's evaluation against the bots.

    python scripts/build_zoo.py RUN_DIR [RUN_DIR ...] [--games 2000]
    python scripts/build_zoo.py zoo:ENTRY [...]     # an entry as it is: its play mode again

The entry's name comes from the run's metadata (`<game>-<n>p`), so a run of any name lands in
the right place; an existing entry is replaced. Its play mode (`--play`, recorded in the
entry) is by default whichever of sampling and greedy play wins more against the heuristic
on the selection seeds (`training.evaluate`, version 0), apart from the reported ones.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from heistbench.agents import make_policy, zoo
from heistbench.agents.export import export
from heistbench.agents.model import read_meta
from heistbench.agents.runtime import PLAY_MODES
from heistbench.training.evaluate import SELECTION_SEEDS_VERSION, evaluate
from heistbench.training.report import game_for


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", help="training run directories, or shipped entries "
                    "(zoo:NAME) to choose their play mode again")
    ap.add_argument("--games", type=int, default=2000, help="evaluation games per opponent")
    ap.add_argument("--play", choices=("best", *PLAY_MODES), default="best",
                    help="the entry's play mode (default best: the one that wins more against "
                    "the heuristic on the selection seeds; the solo entry samples)")
    args = ap.parse_args()
    print("| entry | play | size | vs | win rate | 95% CI | fair share | games | seconds |")
    print("|---|---|---|---|---|---|---|---|---|")
    for run in args.runs:
        game = game_for(run, None, None)
        play = args.play if args.play != "best" else best_play(run, game, args.games)
        if run.startswith("zoo:"):  # the shipped weights, with the play mode chosen again
            name = run[4:]
            out = set_meta(zoo.path(name), play=play)
        else:
            meta = read_meta(run)
            name = f"{zoo.short_name(meta['game'])}-{meta['num_players']}p"
            out = zoo.ZOO_DIR / f"{name}.npz"
            staged = Path(export(run, out.with_suffix(".new.npz"), play=play))
            if staged.stat().st_size > zoo.MAX_BYTES:  # the shipped entry stays as it was
                kib = staged.stat().st_size / 1024
                staged.unlink()
                raise SystemExit(f"{name}: {kib:.0f} KiB is over the zoo's 1 MB limit: train "
                                 "it with a smaller trunk")
            staged.replace(out)
        size = out.stat().st_size
        bot = zoo.load(name, game)
        n = game.num_players
        for vs in (["heuristic", "random"] if n > 1 else []):
            t = time.perf_counter()
            row = evaluate(game, bot, make_policy(vs, game, seed=1), args.games, name, vs)
            print(f"| {name} | {play} | {size / 1024:.0f} KiB | {vs} | "
                  f"{100 * row.win_rate:.1f}% | [{100 * row.ci_low:.1f}, {100 * row.ci_high:.1f}]"
                  f" | {100 / n:.1f}% | {row.games} | {time.perf_counter() - t:.0f} |", flush=True)


def set_meta(path: Path, **updates) -> Path:
    """Rewrite a zoo file's metadata with `updates`, every other array as it was."""
    with np.load(path, allow_pickle=False) as z:
        arrays = dict(z)
    arrays["meta"] = np.array(json.dumps({**json.loads(str(arrays["meta"])), **updates}))
    with open(path, "wb") as f:
        np.savez_compressed(f, **arrays)
    return path


def best_play(run: str, game, games: int) -> str:
    """Sampling or greedy play, whichever wins more against the heuristic on the selection
    seeds (the solo game: sampling)."""
    if game.num_players == 1:
        return "sample"
    heuristic = make_policy("heuristic", game, seed=1)
    rates = {}
    for play in PLAY_MODES:
        bot = make_policy(run, game)
        bot.deterministic = play == "greedy"
        rates[play] = evaluate(game, bot, heuristic, games,
                               version=SELECTION_SEEDS_VERSION).win_rate
    print(f"{run}: on the selection seeds, sampling wins {100 * rates['sample']:.1f}%, greedy "
          f"play {100 * rates['greedy']:.1f}%", flush=True)
    return max(rates, key=rates.get)


if __name__ == "__main__":
    main()
