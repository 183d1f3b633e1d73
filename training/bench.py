"""Throughput benchmarks: the AEC env and the batch kernel, per game and player count.

Every figure comes from random legal play with the observation of the acting player and the
action mask computed at each step, finished games being replaced by fresh ones (as in
training), so the batch stays full; the batch kernel is timed on games of every age.

The AEC env is measured as users get it (`env()`, with PettingZoo's standard wrappers) next to
the floor: a do-nothing env with the same spaces, wrappers and game length, driven by the same
loop in alternating slices of time, so that each game's figure reads as a fraction of what
PettingZoo itself allows on the machine at that moment. Compiled kernels are also timed with
threads switched on, and `compile_times` measures a cold compile and a warm start in fresh
processes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from functools import cache

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..agents.base import sample_legal
from ..envs import game as make_game
from ..envs import make as make_env
from ..envs.core import BatchState, Game, jit
from ..envs.core.aec import standard_wrappers


@dataclass
class BenchResult:
    game: str
    players: int
    mode: str  # "aec", "floor" (the do-nothing env) or "batch"
    batch: int  # games stepped together (1 for the AEC env)
    agent_steps_per_s: float
    games_per_s: float
    mean_game_length: float  # agent steps per finished game
    peak_mb: float  # peak traced memory of a short run (batch mode), MB
    runs: list[float] = field(default_factory=list)  # agent-steps/s of each repeat
    threads: int = 1  # threads the compiled kernel ran on
    of_floor: float = float("nan")  # AEC: agent-steps/s as a fraction of the floor's
    floor_ratios: list[float] = field(default_factory=list)  # AEC: that fraction per slice
    obs_bytes: int = 0  # bytes of one agent step's observation (float32)

    def as_dict(self) -> dict:
        return asdict(self) | {"obs_gb_per_s": self.obs_gb_per_s}

    @classmethod
    def median_of(cls, results: list[BenchResult]) -> BenchResult:
        """One result from repeats of the same measurement: the median rate (games/s at that
        rate), every repeat's rate in `runs`, the largest peak memory."""
        rates = [r.agent_steps_per_s for r in results]
        rate = float(np.median(rates))
        first = results[0]
        length = float(np.mean([r.mean_game_length for r in results]))
        ratios = [x for r in results for x in r.floor_ratios]
        return cls(first.game, first.players, first.mode, first.batch, rate, rate / length,
                   length, max(r.peak_mb for r in results), rates, first.threads,
                   float(np.median(ratios)) if ratios else float("nan"), ratios, first.obs_bytes)

    @property
    def obs_gb_per_s(self) -> float:
        """Observation bytes written per second (GB/s), to set beside `write_bandwidth`."""
        return self.agent_steps_per_s * self.obs_bytes / 1e9


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
                seed: int = 0, clock: str = "wall", threads: int = 1) -> BenchResult:
    """Batch kernel with observation + mask each step, random legal actions, auto-reset, timed
    on games of every age (`spread_ages` over one mean game length), on `threads` threads."""
    game = make_game(name, num_players=players, validate=False)
    jit.set_threads(threads)
    try:
        result = _bench_batch(game, name, players, batch, seconds, seed, CLOCKS[clock])
    finally:
        jit.set_threads(1)
    result.threads = threads
    return result


def _bench_batch(game: Game, name: str, players: int, batch: int, seconds: float, seed: int,
                 now: Callable[[], float]) -> BenchResult:
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
    return BenchResult(name, players, "batch", batch, rate, rate / length, length, peak,
                       obs_bytes=4 * game.obs_size)


def write_bandwidth(mb: int = 128, repeat: int = 5) -> float:
    """This machine's memory write bandwidth in GB/s now: the best of `repeat` copies
    (`np.copyto`) of `mb` MB, far more than any cache, counting the bytes written."""
    src = np.ones(mb * 2**20 // 8)
    dst = np.empty_like(src)
    np.copyto(dst, src)  # fault the pages in first
    best = min(_timed(lambda: np.copyto(dst, src)) for _ in range(repeat))
    return dst.nbytes / best / 1e9


def _timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


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


def aec_loop(env: AECEnv, seconds: float, seed: int, now: Callable[[], float]
             ) -> tuple[int, int, float, list[int]]:
    """Whole games of the usual agent_iter loop with random legal actions, for `seconds`:
    (agent steps, games, elapsed, game lengths)."""
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
    return steps, games, now() - t0, lengths


class NullEnv(AECEnv):
    """The floor of the AEC benchmark: an env with a game's spaces that does nothing.

    Its observation is one fixed zero array with an all-legal mask (nothing is computed), its
    step only passes the turn in seat order, and its games last `length` agent steps. Behind
    the standard wrappers and driven by `aec_loop`, it times what PettingZoo's API, the wrappers
    and the loop cost by themselves: a game's AEC rate as a fraction of it is the share of the
    step left to the game."""

    metadata = {"render_modes": [], "name": "null_v0", "is_parallelizable": False}

    def __init__(self, players: int, observation_space: spaces.Dict,
                 action_space: spaces.Discrete, length: int):
        super().__init__()
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.length = max(int(length), 1)
        self.observation_spaces = {a: observation_space for a in self.possible_agents}
        self.action_spaces = {a: action_space for a in self.possible_agents}
        box = observation_space["observation"]
        self._obs = {"observation": np.zeros(box.shape, box.dtype),
                     "action_mask": np.ones(int(action_space.n), np.int8)}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self.moves = 0

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self._obs

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.moves += 1
        if self.moves >= self.length:
            self.terminations = {a: True for a in self.agents}
        i = self.agents.index(agent)
        self.agent_selection = self.agents[(i + 1) % len(self.agents)]


def bench_aec(name: str, players: int, seconds: float = 2.0, seed: int = 0,
              clock: str = "wall", slices: int = 10) -> tuple[BenchResult, BenchResult]:
    """The PettingZoo AEC env as users make it (`env()`, with the standard wrappers) and its
    floor, the do-nothing env with the same spaces and mean game length wrapped alike: (floor,
    aec). They run in turns, `slices` of `seconds / slices` each (whole games), so that a slow
    spell of a shared machine falls on both alike; the AEC result's `of_floor` is the median
    of the slices' ratios. The env is timed after a warm-up game: the first one of a process
    loads the compiled rules."""
    now = CLOCKS[clock]
    env = make_env(name, num_players=players)
    agent = env.possible_agents[0]
    length = round(mean_game_length(name, players, seed))
    floor = standard_wrappers(NullEnv(players, env.observation_space(agent),
                                      env.action_space(agent), length))
    aec_loop(env, 1e-3, seed, now)  # one whole game: loads and warms the drivers
    runs = {"floor": [], "aec": []}  # each slice's (steps, games, elapsed, lengths)
    for k in range(slices):
        for mode, e in (("floor", floor), ("aec", env)):
            runs[mode].append(aec_loop(e, seconds / slices, seed + k, now))

    def result(mode: str) -> BenchResult:
        steps, games, elapsed = (sum(r[i] for r in runs[mode]) for i in range(3))
        lengths = [n for r in runs[mode] for n in r[3]]
        return BenchResult(name, players, mode, 1, steps / elapsed, games / elapsed,
                           float(np.mean(lengths)), float("nan"))

    floor_result, aec = result("floor"), result("aec")
    aec.floor_ratios = [(a[0] / a[2]) / (f[0] / f[2]) for f, a in zip(runs["floor"], runs["aec"])]
    aec.of_floor = float(np.median(aec.floor_ratios))
    return floor_result, aec


# what a fresh process times of a compiled game: import + build + init + first step, then the
# rest of `warm_up` (every driver compiled, or loaded from the cache)
START_PROBE = """
import json, time
t0 = time.perf_counter()
import numpy as np
from heistbench import envs
g = envs.game({name!r})
s = g.init(np.arange(2))
g.step(s, s.legal_action_mask.argmax(axis=1))
first = time.perf_counter() - t0
g.warm_up()
print(json.dumps({{"first_step_s": first, "warm_up_s": time.perf_counter() - t0}}))
"""


def timed_process(code: str, cache: str, timeout: float = 1800) -> tuple[float, dict]:
    """Wall seconds of `python -c code` in a fresh process with `cache` as the compiled cache
    (HEISTBENCH_CACHE_DIR), and the JSON object its last line of output prints."""
    env = {**os.environ, "HEISTBENCH_CACHE_DIR": cache}
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=timeout)
    wall = time.perf_counter() - t0
    if out.returncode:
        raise RuntimeError(f"the start-up probe failed ({out.returncode}):\n{out.stderr[-2000:]}")
    return wall, json.loads(out.stdout.strip().splitlines()[-1])


def compile_times(name: str, code: str | None = None) -> dict[str, float]:
    """Start-up seconds of a compiled game, each in a fresh process running `code` (default:
    `START_PROBE`), first into a fresh empty cache (cold: the compile), then again from it
    (warm): `*_s` is the whole process, `*_start_s` import + build + init + first step inside
    it."""
    code = START_PROBE.format(name=name) if code is None else code
    times = {}
    with tempfile.TemporaryDirectory(prefix="heistbench-cache-") as cache:
        for run in ("cold", "warm"):  # the cold run fills the cache the warm one starts from
            wall, inside = timed_process(code, cache)
            times |= {f"{run}_s": wall, f"{run}_start_s": inside["first_step_s"]}
    return times


def measure_compile(games: Iterable[str], progress: bool = True) -> dict[str, dict[str, float]]:
    """`compile_times` of every game, with a progress bar."""
    from tqdm import tqdm

    return {name: compile_times(name)
            for name in tqdm(list(games), desc="compile", disable=not progress, unit="game")}


def thread_notes(games: Iterable[str], batches: Iterable[int], threads: Iterable[int]
                 ) -> list[str]:
    """Why some (batch, threads) measurements asked for are not in the results."""
    many = sorted({t for t in threads if t > 1})
    if not many:
        return []
    games, counts = list(games), ",".join(map(str, many))
    if 1 in batches and games:
        return [f"B = 1 always runs on one thread: --threads {counts} skipped for it"]
    return []


def run_benchmarks(games: Iterable[str], players: Iterable[int] | None, batches: Iterable[int],
                   seconds: float, progress: bool = True, clock: str = "wall", repeat: int = 1,
                   threads: Iterable[int] = (1,)) -> list[BenchResult]:
    """Every (game, player count): the AEC env with its floor (`bench_aec`), then the kernel at
    each batch size
    and thread count (more than one only where B > 1; see
    `thread_notes`). With clock="cpu" rates are
    per CPU-second of this process (steadier on a shared machine). With `repeat` > 1 every
    measurement runs that many times, in rounds over all of them (so that a slow spell of a
    shared machine does not fall on one alone), and each reports its median."""
    from tqdm import tqdm

    from ..envs import player_counts

    if repeat < 1:
        raise ValueError(f"repeat must be at least 1, got {repeat}")
    jobs = []
    for name in games:
        counts = player_counts(name)  # the solo game's 1 included
        for n in (counts if players is None else [p for p in players if p in counts]):
            jobs += [(name, n, "aec", 1, 1)]  # with its floor
            jobs += [(name, n, "batch", b, t) for b in batches for t in threads
                     if t == 1 or b > 1]
    runs: dict[tuple, list[BenchResult]] = {}
    for job in tqdm(jobs * repeat, desc="bench", disable=not progress, unit="run"):
        name, n, mode, b, t = job
        if mode == "aec":
            floor, aec = bench_aec(name, n, seconds, clock=clock)
            runs.setdefault((name, n, "floor", 1, 1), []).append(floor)
            runs.setdefault(job, []).append(aec)
        else:
            runs.setdefault(job, []).append(bench_batch(name, n, b, seconds, clock=clock,
                                                        threads=t))
    return [BenchResult.median_of(r) for r in runs.values()]


def format_table(results: list[BenchResult], bandwidth: float | None = None) -> str:
    """The results as a table; repeated measurements add the range of their rates, and a
    measured write bandwidth (GB/s) the batch runs' observation bytes as a share of it."""
    from ..envs.core.render import table

    spread = any(len(r.runs) > 1 for r in results)
    head = ["game", "players", "mode", "B", "threads",
            "agent-steps/s (median)" if spread else "agent-steps/s"]
    head += ["range"] * spread + ["% of floor", "games/s", "mean length", "peak MB"]
    head += ["obs GB/s (% of write bandwidth)"] * (bandwidth is not None)
    rows = []
    for r in results:
        row = [r.game, r.players, r.mode, r.batch, r.threads, f"{r.agent_steps_per_s:,.0f}"]
        if spread:
            row.append(f"{min(r.runs):,.0f}-{max(r.runs):,.0f}")
        row += ["-" if r.of_floor != r.of_floor else f"{100 * r.of_floor:.1f}%",
                f"{r.games_per_s:,.1f}", f"{r.mean_game_length:.0f}",
                "-" if r.peak_mb != r.peak_mb else f"{r.peak_mb:,.0f}"]
        if bandwidth is not None:
            row.append(f"{r.obs_gb_per_s:.2f} ({100 * r.obs_gb_per_s / bandwidth:.0f}%)"
                       if r.mode == "batch" and r.batch > 1 else "-")
        rows.append(row)
    return table(head, rows)


COMPILE_COLUMNS = {"cold_s": "cold compile s", "cold_start_s": "of which to first step",
                   "warm_start_s": "warm start s (import, build, first step)",
                   "warm_s": "warm process s"}


def format_compile_table(times: dict[str, dict[str, float]]) -> str:
    """`compile_times` per game as a table."""
    from ..envs.core.render import table

    rows = [[name, *(f"{t[k]:.2f}" for k in COMPILE_COLUMNS)] for name, t in times.items()]
    return table(["game", *COMPILE_COLUMNS.values()], rows)
