"""`heistbench train GAME [--config NAME|FILE] [--set key=value ...] [--eval]`: self-play PPO."""

from __future__ import annotations

import argparse
import time
from pathlib import Path


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "train", help="train a self-play agent", description="Self-play MaskablePPO on a game: "
        "the learner plays against an opponent pool (its own frozen snapshots, the heuristic "
        "bot, the random policy). Everything about the run comes from a YAML config "
        "(configs/<game>.yaml by default) and --set overrides; the run directory gets the "
        "checkpoint (model.zip), meta.json, TensorBoard logs, the evaluation history and the "
        "learning curve.")
    p.add_argument("game", help="a game name, e.g. big_score")
    p.add_argument("--players", type=int, help="seats at the table (default: the config's; "
                   "the game's largest count has a config of its own, e.g. grifters_4p)")
    p.add_argument("--config", help="a packaged config (quick, big_score, grifters_4p, ...) or "
                   "a YAML path (default: the game's own config for that player count)")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                   help="override a config key, e.g. --set total_timesteps=20000 (repeatable)")
    p.add_argument("--run-dir", help="where to write the run (default: runs/<game>-<time>)")
    p.add_argument("--eval", action="store_true",
                   help="print the evaluation table (vs the bots, with sanity rows) at the end")
    p.add_argument("--eval-games", type=int, help="games per row of that table "
                   "(default: the config's final_eval_games)")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from heistbench.envs import _resolve
    from heistbench.training.config import default_config, load_config, parse_overrides

    game = _resolve(args.game)
    base = game.rsplit("_v", 1)[0]
    overrides = parse_overrides(args.overrides)
    if args.players is not None:
        overrides.setdefault("num_players", args.players)
    cfg = load_config(args.config or default_config(game, args.players), overrides)
    if cfg.game is not None and _resolve(cfg.game) != game:
        raise ValueError(f"config is for {cfg.game!r} but the command line asks for {game!r}")
    cfg.game = game
    run_dir = Path(args.run_dir or f"runs/{base}-{time.strftime('%Y%m%d-%H%M%S')}")

    from heistbench.training.train import train

    print(f"training {game} ({cfg.num_players} players) for {cfg.total_timesteps:,} learner "
          f"steps -> {run_dir}")
    summary = train(cfg, run_dir, progress=not args.no_progress)
    print(f"checkpoint: {run_dir / 'model.zip'}")
    if args.eval:
        from heistbench.training.evaluate import format_rows
        from heistbench.training.report import evaluation_rows

        games = args.eval_games or cfg.final_eval_games or 1000
        rows = evaluation_rows(str(run_dir), game, cfg.num_players, cfg.eval_vs or ["random"],
                               games, sanity=True)
        print(format_rows(rows))
    del summary
    return 0
