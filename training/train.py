"""Self-play MaskablePPO on any heistbench game, in one readable loop.

    heistbench train big_score --config quick --eval

The learner plays one random seat of each of `num_envs` games; the other seats are filled
from an opponent pool (frozen snapshots of the learner, the heuristic bot, the random
policy). Every `snapshot_every` steps a frozen copy of the learner joins the pool; every
`eval_every` steps it is evaluated against the bots on the fixed evaluation seeds. The run
directory gets the checkpoint, meta.json, TensorBoard logs, the evaluation history and the
learning curve.
"""

from __future__ import annotations

import json
import platform
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from ..agents import make_policy
from ..agents.model import MODEL_NAME, ModelPolicy, game_signature, write_meta
from ..envs import _resolve
from ..envs import game as make_game
from ..envs.core import Game
from .config import TrainConfig, to_dict
from .evaluate import EVAL_SEEDS_VERSION, EvalRow, evaluate
from .imitation import imitate
from .networks import OracleCriticPolicy, Trunk
from .vec_env import OpponentPool, SelfPlayVecEnv


def package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("heistbench")
    except PackageNotFoundError:
        return "unknown"


def build_game(cfg: TrainConfig) -> Game:
    """The kernel a run trains on (validation off: the hot path)."""
    if cfg.game is None:
        raise ValueError("no game: give one on the command line or as 'game' in the config")
    return make_game(cfg.game, num_players=cfg.num_players, validate=False, **cfg.options)


def policy_kwargs(cfg: TrainConfig, game: Game | None = None) -> dict[str, Any]:
    """The learner's network: an optional shared trunk, then separate policy and value heads;
    with oracle_critic, a trunk each (the `game` gives the actor's width)."""
    kwargs: dict[str, Any] = {"net_arch": {"pi": list(cfg.net_arch), "vf": list(cfg.net_arch)}}
    if cfg.trunk > 0:
        kwargs.update(features_extractor_class=Trunk,
                      features_extractor_kwargs={"features_dim": cfg.trunk})
    if cfg.oracle_critic:
        if game is None:
            raise ValueError("oracle_critic: policy_kwargs needs the game (the actor's width)")
        kwargs["own_size"] = game.obs_size
    return kwargs


def policy_class(cfg: TrainConfig) -> str | type:
    """SB3's MLP policy, or the one whose critic sees the hidden state."""
    return OracleCriticPolicy if cfg.oracle_critic else "MlpPolicy"


def learning_rate(cfg: TrainConfig) -> float | Callable[[float], float]:
    """The Adam step size, or with anneal_lr its schedule over SB3's progress left (1 -> 0).
    That progress goes below 0 on the update after the budget's last rollout (a rollout is
    num_envs * n_steps steps, so a budget smaller than one is all overshoot): a negative
    rate there would undo learning, so the schedule stops at 0."""
    lr = cfg.learning_rate
    return (lambda left: max(left, 0.0) * lr) if cfg.anneal_lr else lr


def run_meta(cfg: TrainConfig, game: Game, timesteps: int) -> dict[str, Any]:
    """What a checkpoint records about how it was made (and what it can play)."""
    return {**game_signature(game), "options": {k: v for k, v in game.options.items()
                                                if k not in ("validate",)},
            "config": to_dict(cfg), "seed": cfg.seed, "timesteps": int(timesteps),
            "package_version": package_version(), "eval_seeds_version": EVAL_SEEDS_VERSION,
            "python": platform.python_version(), "torch": torch.__version__}


def evaluate_vs_bots(game: Game, policy: ModelPolicy, vs: list[str], games: int,
                     seed: int) -> list[EvalRow]:
    """The policy against each bot in `vs`, seats rotated, on the fixed evaluation seeds."""
    return [evaluate(game, policy, make_policy(v, game, seed=seed), games, name="learner",
                     opponent_name=v) for v in vs]


# the oracle critic's first layer, whose input is the critic view
ORACLE_CRITIC_INPUT = "vf_features_extractor.net.0.weight"


def load_weights(policy: Any, path: str, game: Game) -> dict[str, Any]:
    """Start the learner from a checkpoint's weights (a continued run): the checkpoint must be
    for this game and have this config's network. An oracle critic that read every seat's
    whole view (runs before the critic view) keeps the weights of the critic view's columns.
    Returns what the run's metadata records."""
    source = ModelPolicy.load(path, game)  # refuses another game, version or seat count
    weights = source.net.state_dict()
    critic = weights.get(ORACLE_CRITIC_INPUT)
    if critic is not None and critic.shape[1] == game.num_players * game.obs_size \
            != game.critic_size:  # a critic that read every whole view: keep its columns
        weights[ORACLE_CRITIC_INPUT] = critic[:, game.critic_columns]  # of the critic view
    try:
        policy.load_state_dict(weights)
    except RuntimeError as e:
        made = source.meta.get("config", {})
        raise ValueError(
            f"init_from {path!r}: its network does not match this config's; trunk, net_arch "
            f"and oracle_critic must be the checkpoint's (trunk={made.get('trunk')}, "
            f"net_arch={made.get('net_arch')}, oracle_critic={made.get('oracle_critic')}). "
            f"{str(e).splitlines()[0]}") from None
    before = source.meta.get("init_from", {}).get("timesteps_before", 0)
    return {"checkpoint": str(path),
            "timesteps_before": before + int(source.meta.get("timesteps") or 0)}


class SelfPlayCallback(BaseCallback):
    """Snapshots into the pool, periodic evaluation, throughput logging and the progress bar."""

    def __init__(self, cfg: TrainConfig, game: Game, pool: OpponentPool, run_dir: Path,
                 log: Callable[[str], None], progress: bool):
        super().__init__()
        self.cfg, self.game, self.pool, self.run_dir, self.log = cfg, game, pool, run_dir, log
        self.progress = progress
        self.history: list[dict[str, Any]] = []
        self.next_snapshot = cfg.snapshot_every
        self.next_eval = cfg.eval_every if cfg.eval_every > 0 else None
        self.eval_seconds = 0.0

    def _on_training_start(self) -> None:
        from tqdm import tqdm

        self.bar = tqdm(total=self.cfg.total_timesteps, unit="step", unit_scale=True,
                        disable=not self.progress, desc=f"train {self.game.name}")
        self.t0 = time.perf_counter()
        self.pool.add_snapshot(ModelPolicy.from_sb3(self.model.policy, seed=self.cfg.seed))
        if self.next_eval is not None:
            self.evaluate(self.cfg.eval_games)

    def _on_step(self) -> bool:
        steps = self.num_timesteps
        self.bar.update(steps - self.bar.n)
        if steps >= self.next_snapshot:
            self.pool.add_snapshot(ModelPolicy.from_sb3(self.model.policy,
                                                        seed=self.cfg.seed + steps))
            self.save_checkpoint(self.run_dir / "checkpoints" / f"step_{steps:09d}.zip")
            self.next_snapshot += self.cfg.snapshot_every
        if self.next_eval is not None and steps >= self.next_eval:
            self.evaluate(self.cfg.eval_games)
            self.next_eval += self.cfg.eval_every
        return True

    def save_checkpoint(self, path: Path) -> None:
        """An SB3 checkpoint with the run's metadata inside (loadable by ModelPolicy)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        self.model.save(path)
        write_meta(path, run_meta(self.cfg, self.game, self.num_timesteps))

    def _on_rollout_end(self) -> None:
        train_s = time.perf_counter() - self.t0 - self.eval_seconds
        sps = self.num_timesteps / max(train_s, 1e-9)
        self.logger.record("time/learner_steps_per_s", sps)
        self.logger.record("selfplay/pool_snapshots", self.pool.num_snapshots)
        self.bar.set_postfix(sps=f"{sps:,.0f}")

    def evaluate(self, games: int) -> list[EvalRow]:
        t = time.perf_counter()
        policy = ModelPolicy.from_sb3(self.model.policy, seed=self.cfg.seed)
        rows = evaluate_vs_bots(self.game, policy, self.cfg.eval_vs, games, self.cfg.seed)
        entry = {"timesteps": int(self.num_timesteps)}
        for r in rows:
            entry[r.opponent] = r.as_dict()
            self.logger.record(f"eval/win_rate_vs_{r.opponent}", r.win_rate)
            self.logger.record(f"eval/margin_vs_{r.opponent}", r.mean_margin)
        self.history.append(entry)
        if rows:
            train_s = time.perf_counter() - self.t0 - self.eval_seconds
            sps = self.num_timesteps / max(train_s, 1e-9)
            self.log(f"[eval @ {self.num_timesteps:,} steps, {sps:,.0f} steps/s] " + ", ".join(
                f"vs {r.opponent}: {100 * r.win_rate:.1f}% [{100 * r.ci_low:.1f}, "
                f"{100 * r.ci_high:.1f}]" for r in rows))
        self.eval_seconds += time.perf_counter() - t
        return rows

    def _on_training_end(self) -> None:
        self.bar.update(self.num_timesteps - self.bar.n)
        self.bar.close()


def train(cfg: TrainConfig, run_dir: str | Path, progress: bool = True,
          log: Callable[[str], None] = print) -> dict[str, Any]:
    """Run self-play training; returns the summary that is also written to the run directory."""
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    cfg.game = _resolve(cfg.game) if cfg.game else cfg.game

    # --- seeding and resources ---
    random.seed(cfg.seed)
    np.random.seed(cfg.seed)
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.torch_threads)

    # --- the game, the opponent pool and the vector env ---
    game = build_game(cfg)
    pool = OpponentPool(game, cfg.opponents, pool_size=cfg.pool_size, seed=cfg.seed)
    env = SelfPlayVecEnv(game, cfg.num_envs, pool, seed=cfg.seed, oracle=cfg.oracle_critic)
    teacher = (None if cfg.imitate is None or cfg.init_from is not None
               else make_policy(cfg.imitate, game, seed=cfg.seed))

    # --- the learner ---
    model = MaskablePPO(
        policy_class(cfg), env, n_steps=cfg.n_steps, batch_size=cfg.batch_size,
        n_epochs=cfg.n_epochs, learning_rate=learning_rate(cfg),
        gamma=cfg.gamma, gae_lambda=cfg.gae_lambda, clip_range=cfg.clip_range,
        ent_coef=cfg.ent_coef, vf_coef=cfg.vf_coef, max_grad_norm=cfg.max_grad_norm,
        policy_kwargs=policy_kwargs(cfg, game),
        tensorboard_log=str(run_dir / "tb"), seed=cfg.seed, device="cpu", verbose=0)

    # --- the start: a checkpoint's weights, or the warm start copying the teacher's play ---
    t0 = time.perf_counter()
    imitation, started = None, None
    if cfg.init_from is not None:
        started = load_weights(model.policy, cfg.init_from, game)
        log(f"the learner starts from {cfg.init_from} ({started['timesteps_before']:,} learner "
            "steps behind it)" + ("; no copy of the teacher" if cfg.imitate else ""))
    elif teacher is not None:
        imitation = imitate(model.policy, game, teacher, cfg.imitate_decisions,
                            cfg.imitate_epochs, batch_size=cfg.batch_size,
                            learning_rate=cfg.learning_rate, vf_coef=cfg.vf_coef,
                            max_grad_norm=cfg.max_grad_norm, dagger=cfg.imitate_dagger,
                            seed=cfg.seed, oracle=cfg.oracle_critic, progress=progress, log=log)
        imitation["seconds"] = round(time.perf_counter() - t0, 1)

    # --- the loop: rollouts against the pool, PPO updates, snapshots, evaluations ---
    callback = SelfPlayCallback(cfg, game, pool, run_dir, log, progress)
    t0 = time.perf_counter()
    model.learn(total_timesteps=cfg.total_timesteps, callback=callback, tb_log_name="ppo")
    wall = time.perf_counter() - t0
    train_s = wall - callback.eval_seconds
    sps = model.num_timesteps / train_s

    # --- checkpoint, final evaluation, history and curve ---
    meta = run_meta(cfg, game, model.num_timesteps)
    meta.update(train_seconds=round(train_s, 1), learner_steps_per_s=round(sps, 1))
    if imitation is not None:
        meta["imitation"] = imitation
    if started is not None:
        meta["init_from"] = started
    model.save(run_dir / MODEL_NAME)
    write_meta(run_dir / MODEL_NAME, meta)  # the checkpoint carries its own metadata
    (run_dir / "meta.json").write_text(json.dumps(meta, indent=2))
    log(f"trained {model.num_timesteps:,} learner steps in {train_s:.0f}s "
        f"({sps:,.0f} learner steps/s end to end, evaluations excluded; "
        f"{wall:.0f}s wall with evaluations)")
    if cfg.final_eval_games > 0 and cfg.eval_vs:
        callback.evaluate(cfg.final_eval_games)
        callback.history[-1]["final"] = True  # the larger evaluation of the finished run
    (run_dir / "eval_history.json").write_text(json.dumps(callback.history, indent=2))
    if callback.history:
        from .plots import plot_learning_curve

        plot_learning_curve(callback.history, run_dir / "learning_curve.png",
                            title=f"{game.name}, {game.num_players} players")
    summary = {"run_dir": str(run_dir), "timesteps": int(model.num_timesteps),
               "train_seconds": train_s, "wall_seconds": time.perf_counter() - t0,
               "learner_steps_per_s": sps, "imitation": imitation,
               "final_eval": callback.history[-1] if callback.history else None}
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    env.close()
    return summary
