"""Throughput benchmarks: the AEC env and the batch kernel, per game and player count.

Every figure comes from random legal play with the observation of the acting player and the
action mask computed at each step, finished games being replaced by fresh ones (as in
training), so the batch stays full; the batch kernel is timed on games of every age.
"""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from functools import cache

import numpy as np

from ..agents.base import sample_legal
from ..envs import game as make_game
from ..envs import make as make_env
from ..envs.core import BatchState, Game


@dataclass
class BenchResult:
    game: str
    players: int
    mode: str  # "aec" or "batch"
    batch: int  # games stepped together (1 for the AEC env)
    agent_steps_per_s: float
    games_per_s: float
    mean_game_length: float  # agent steps per finished game
    peak_mb: float  # peak traced memory of a short run (batch mode), MB
    runs: list[float] = field(default_factory=list)  # agent-steps/s of each repeat

    def as_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def median_of(cls, results: list[BenchResult]) -> BenchResult:
        """One result from repeats of the same measurement: the median rate (games/s at that
        rate), every repeat's rate in `runs`, the largest peak memory."""
        rates = [r.agent_steps_per_s for r in results]
        rate = float(np.median(rates))
        first = results[0]
        length = float(np.mean([r.mean_game_length for r in results]))
        return cls(first.game, first.players, first.mode, first.batch, rate, rate / length,
                   length, max(r.peak_mb for r in results), rates)


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def replace_finished(state: BatchState, fresh: Callable[[int], BatchState]) -> None:
    """Replace the finished games of `state` by `fresh(k)` ones, as training does, so that the
    batch stays full."""
    done = np.flatnonzero(state.terminated | state.truncated)
    if done.size:
        state[done] = fresh(done.size)


def spread_ages(game: Game, state: BatchState, span: int, rng: np.random.Generator,
                fresh: Callable[[int], BatchState]) -> None:
    """Play `state` at random for `span` steps, each game joining the play at a random one of
    them: its games are then of every age, as in a long training run, where a fresh batch has
    them all in step (and, while they stay so, fewer decision types per step to resolve)."""
    start = rng.integers(0, span, state.batch_size)
    for t in range(span):
        actions = sample_legal(state.legal_action_mask, rng.random(state.batch_size))
        game.step(state, actions, where=start <= t)
        replace_finished(state, fresh)


def bench_batch(name: str, players: int, batch: int, seconds: float = 2.0,
                seed: int = 0, clock: str = "wall") -> BenchResult:
    """Batch kernel with observation + mask each step, random legal actions, auto-reset, timed
    on games of every age (`spread_ages` over one mean game length)."""
    now = CLOCKS[clock]
    game = make_game(name, num_players=players, validate=False)
    rng = np.random.default_rng(seed)
    length = mean_game_length(name, players, seed)
    next_seed = seed * 1_000_003

    def fresh(k: int) -> BatchState:
        nonlocal next_seed
        seeds = np.arange(next_seed, next_seed + k)
        next_seed += k
        return game.init(seeds)

    def run(state: BatchState, duration: float, max_steps: int | None = None
            ) -> tuple[int, float]:
        steps = 0
        t0 = now()
        k = 0
        while True:
            obs = game.observe(state, np.maximum(state.current_player, 0))
            actions = sample_legal(state.legal_action_mask, rng.random(batch))
            del obs
            steps += batch
            game.step(state, actions)
            replace_finished(state, fresh)
            k += 1
            elapsed = now() - t0
            if (max_steps and k >= max_steps) or (not max_steps and elapsed >= duration):
                return steps, elapsed

    state = fresh(batch)
    spread_ages(game, state, max(int(length), 1), rng, fresh)
    run(state, 0.2)  # warm-up (caches, buffers)
    steps, elapsed = run(state, seconds)
    tracemalloc.start()
    run(fresh(batch), 0, max_steps=20)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    rate = steps / elapsed
    return BenchResult(name, players, "batch", batch, rate, rate / length, length, peak)


@cache
def mean_game_length(name: str, players: int, seed: int = 0, games: int = 128) -> float:
    """Mean agent steps of random games played to the end (a short run may finish none)."""
    game = make_game(name, num_players=players, validate=False)
    state = game.init(np.arange(games) + 10_000 * (seed + 1))
    rng = np.random.default_rng(seed)
    while not (state.terminated | state.truncated).all():
        mask = state.legal_action_mask | (state.terminated | state.truncated)[:, None]
        game.step(state, sample_legal(mask, rng.random(games)))
    return float(state.steps.mean())


def bench_aec(name: str, players: int, seconds: float = 2.0, seed: int = 0,
              clock: str = "wall") -> BenchResult:
    """The PettingZoo AEC env (raw_env), random legal actions, the usual agent_iter loop."""
    now = CLOCKS[clock]
    env = make_env(name, num_players=players).unwrapped
    rng = np.random.default_rng(seed)
    steps = games = 0
    lengths = []
    t0 = now()
    while now() - t0 < seconds:
        env.reset(seed=seed + games)
        n = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.integers(legal.size)])
                n += 1
            env.step(action)
        steps += n
        games += 1
        lengths.append(n)
    elapsed = now() - t0
    return BenchResult(name, players, "aec", 1, steps / elapsed, games / elapsed,
                       float(np.mean(lengths)), float("nan"))


def run_benchmarks(games: Iterable[str], players: Iterable[int] | None, batches: Iterable[int],
                   seconds: float, progress: bool = True, clock: str = "wall", repeat: int = 1
                   ) -> list[BenchResult]:
    """Every (game, player count): the AEC env, then the kernel at each batch size. With
    clock="cpu" rates are per CPU-second of this process (steadier on a shared machine). With
    `repeat` > 1 every measurement runs that many times, in rounds over all of them (so that a
    slow spell of a shared machine does not fall on one alone), and each reports its median."""
    from tqdm import tqdm

    from ..envs import module

    if repeat < 1:
        raise ValueError(f"repeat must be at least 1, got {repeat}")
    jobs = []
    for name in games:
        counts = module(name).Game.player_counts
        for n in (counts if players is None else [p for p in players if p in counts]):
            jobs.append((name, n, "aec", 1))
            jobs += [(name, n, "batch", b) for b in batches]
    runs: dict[tuple, list[BenchResult]] = {job: [] for job in jobs}
    for job in tqdm(jobs * repeat, desc="bench", disable=not progress, unit="run"):
        name, n, mode, b = job
        runs[job].append(bench_aec(name, n, seconds, clock=clock) if mode == "aec"
                         else bench_batch(name, n, b, seconds, clock=clock))
    return [BenchResult.median_of(r) for r in runs.values()]


def format_table(results: list[BenchResult]) -> str:
    """The results as a table; repeated measurements add the range of their rates."""
    from ..envs.core.render import table

    spread = any(len(r.runs) > 1 for r in results)
    head = ["game", "players", "mode", "B", "agent-steps/s (median)" if spread else "agent-steps/s"]
    head += ["range"] * spread + ["games/s", "mean length", "peak MB"]
    rows = []
    for r in results:
        row = [r.game, r.players, r.mode, r.batch, f"{r.agent_steps_per_s:,.0f}"]
        if spread:
            row.append(f"{min(r.runs):,.0f}-{max(r.runs):,.0f}")
        rows.append(row + [f"{r.games_per_s:,.1f}", f"{r.mean_game_length:.0f}",
                           "-" if r.peak_mb != r.peak_mb else f"{r.peak_mb:,.0f}"])
    return table(head, rows)
