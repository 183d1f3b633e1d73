"""Learner steps per second of each bridge, beside the project's own training loop.

    python -m heistbench.integrations.bench grifters --players 2 [--clock cpu]

Env rows: a random legal learner stepping the env (`action_space.sample()` for the Gymnasium
envs, `sample_legal` of `action_masks()` for the SB3 VecEnvs), every step including the
opponents' moves up to the learner's next turn. Training rows: MaskablePPO end to end (rollouts
and updates): the documented self-play recipe on one single-seat env, MaskablePPO on
`sb3_vec_env` with the game's training config, and `heistbench train` with the same config
(its opponent pool, evaluations off). Torch runs on one thread in every row.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from ..agents.base import sample_legal
from ..envs import _resolve
from ..training.bench import CLOCKS


def rate(step: Callable[[], int], seconds: float, clock: Callable[[], float],
         repeat: int = 3) -> float:
    """Median learner steps/s of `repeat` runs of `seconds` each; `step` returns its steps."""
    rates = []
    for _ in range(repeat):
        t0, n = clock(), 0
        while (dt := clock() - t0) < seconds:
            n += step()
        rates.append(n / dt)
    return float(np.median(rates))


def env_rows(game: str, players: int, batch: int, seconds: float,
             clock: Callable[[], float]) -> list[dict[str, Any]]:
    """The envs alone, a random legal learner against the heuristic bot (the single env also
    against the random policy; the training VecEnv against its config's opponent pool)."""
    from ..training.config import load_config
    from ..training.train import build_game
    from ..training.vec_env import OpponentPool, SelfPlayVecEnv
    from . import make_single_agent, make_vector_env, sb3_vec_env

    rows = []
    for opponents in ("heuristic", "random"):
        single = make_single_agent(game, num_players=players, opponents=opponents)
        single.reset(seed=0)

        def single_step(single=single) -> int:
            *_, terminated, truncated, _ = single.step(single.action_space.sample())
            if terminated or truncated:
                single.reset()
            return 1

        rows.append({"client": "Gymnasium single-seat env", "envs": 1, "opponents": opponents,
                     "steps_per_s": rate(single_step, seconds, clock)})
    vector = make_vector_env(game, batch, num_players=players, opponents="heuristic")
    vector.reset(seed=0)

    def vector_step() -> int:
        vector.step(vector.action_space.sample())
        return batch

    rows.append({"client": "Gymnasium vector env", "envs": batch, "opponents": "heuristic",
                 "steps_per_s": rate(vector_step, seconds, clock)})
    cfg = load_config(_resolve(game).rsplit("_v", 1)[0], {"num_players": players})
    kernel = build_game(cfg)
    for name, env, opponents in [
            ("SB3 VecEnv (sb3_vec_env)", sb3_vec_env(game, batch, num_players=players),
             "heuristic"),
            ("heistbench train's VecEnv", SelfPlayVecEnv(kernel, batch, OpponentPool(
                kernel, cfg.opponents, seed=0)), "its pool")]:
        env.reset()
        rng = np.random.default_rng(0)

        def sb3_step(env=env, rng=rng) -> int:
            env.step_async(sample_legal(env.action_masks(), rng.random(batch)))
            env.step_wait()
            return batch

        rows.append({"client": name, "envs": batch, "opponents": opponents,
                     "steps_per_s": rate(sb3_step, seconds, clock)})
    return rows


def training_rows(game: str, players: int, batch: int, steps: int, recipe_steps: int,
                  clock: Callable[[], float]) -> list[dict[str, Any]]:
    """MaskablePPO end to end: the single-env recipe, sb3_vec_env, and `heistbench train`."""
    import torch
    from sb3_contrib import MaskablePPO

    from ..training.config import load_config
    from ..training.train import policy_kwargs, train
    from . import SnapshotCallback, make_single_agent, sb3_vec_env

    torch.set_num_threads(1)
    rows = []
    env = make_single_agent(game, num_players=players, seat="random", opponents="self")
    model = MaskablePPO("MlpPolicy", env, n_steps=1024, batch_size=256, n_epochs=4, seed=0,
                        device="cpu", policy_kwargs={"net_arch": [64]})
    t0 = clock()
    model.learn(recipe_steps, callback=SnapshotCallback(every=4096))
    rows.append({"client": "MaskablePPO on the single-seat env (self-play recipe)", "envs": 1,
                 "opponents": "self", "steps_per_s": model.num_timesteps / (clock() - t0)})
    cfg = load_config(_resolve(game).rsplit("_v", 1)[0], {
        "num_players": players, "num_envs": batch, "total_timesteps": steps, "eval_every": 0,
        "final_eval_games": 0, "snapshot_every": steps})
    vec = sb3_vec_env(game, cfg.num_envs, num_players=players, opponents="heuristic")
    model = MaskablePPO("MlpPolicy", vec, n_steps=cfg.n_steps, batch_size=cfg.batch_size,
                        n_epochs=cfg.n_epochs, seed=0, device="cpu",
                        policy_kwargs=policy_kwargs(replace(cfg, oracle_critic=False)))
    t0 = clock()
    model.learn(steps)
    rows.append({"client": "MaskablePPO on sb3_vec_env (training config)", "envs": batch,
                 "opponents": "heuristic", "steps_per_s": model.num_timesteps / (clock() - t0)})
    with tempfile.TemporaryDirectory() as run_dir:
        t0 = clock()  # the whole run: setup and saving too, evaluations off
        summary = train(cfg, run_dir, progress=False, log=lambda _: None)
        seconds = clock() - t0
    rows.append({"client": "heistbench train (the project's loop)", "envs": batch,
                 "opponents": "its pool", "steps_per_s": summary["timesteps"] / seconds})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m heistbench.integrations.bench",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="?", default="grifters")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--batch", type=int, default=512, help="games of the vector envs")
    parser.add_argument("--seconds", type=float, default=3.0, help="per env measurement")
    parser.add_argument("--train-steps", type=int, default=65_536,
                        help="learner steps of the two vector-env training rows")
    parser.add_argument("--recipe-steps", type=int, default=8_192,
                        help="learner steps of the single-env recipe row")
    parser.add_argument("--clock", choices=tuple(CLOCKS), default="wall",
                        help="rates per wall-clock second (default) or per CPU-second of this "
                        "process, which a busy shared machine disturbs less")
    parser.add_argument("--no-training", action="store_true", help="the env rows only")
    parser.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    args = parser.parse_args(argv)
    game = _resolve(args.game)
    clock = CLOCKS[args.clock]
    rows = env_rows(game, args.players, args.batch, args.seconds, clock)
    if not args.no_training:
        rows += training_rows(game, args.players, args.batch, args.train_steps,
                              args.recipe_steps, clock)
    from ..envs.core.render import table

    print(f"{game}, {args.players} players: learner steps per {args.clock}-clock second")
    print(table(["client", "envs", "opponents", "learner steps/s"],
                [[r["client"], r["envs"], r["opponents"], f"{r['steps_per_s']:,.0f}"]
                 for r in rows]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"game": game, "players": args.players, "clock": args.clock,
                       "rows": rows}, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
