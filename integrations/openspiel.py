"""OpenSpiel with heistbench: every game as a pyspiel game, for OpenSpiel's search bots.

Importing this module registers each game with pyspiel as `heistbench_<game>`
(`heistbench_grifters`, `heistbench_big_score`, ...), so that
`pyspiel.load_game("heistbench_grifters", {"num_players": 3})` works. A pyspiel state is a view
on the batch kernel: it holds a batch of one game (`BatchState`) and steps it with the kernel's
compiled rules; no rule is written twice.

- Game type: sequential, imperfect information, terminal rewards, zero-sum (every reward mode of
  the kernel sums to zero: win/loss, rank and score margins), chance `SAMPLED_STOCHASTIC`: the
  kernel draws its own chance from the game's seed, so there are no chance nodes.
- Parameters: `num_players` and every option of the game with the option's default; options
  whose values are not an int, float, bool or string (`None` defaults, tuples) are string
  parameters holding a Python literal (`first_player="1"`, `police_die_faces="(0, 0, 1, 1, 2,
  2)"`). `seed` (default 0) seeds the stream of deals; -1 draws the stream from the operating
  system. `validate` is always on (a move pyspiel applies is checked) and `reveal_hidden` is not
  offered (its observation is every seat's, which would make the information states lie).
- Deals: `game.new_initial_state()` starts deal 0, 1, 2, ... of the game's stream (a pure
  function of (seed, k); the clones and the states pyspiel makes for itself never draw one);
  `game.new_initial_state(s)` deals the game the AEC env deals for `reset(seed=s)`.
  `state.clone()` copies the kernel state, its future chance included: same actions, same game.
- Observations: `observation_tensor(p)` is seat p's AEC observation (float32 [obs_size], named
  pieces from the game's observation layout), `observation_string(p)` the same values as text.
  The information state is the same observation: the AEC observation is all a seat knows, but
  it is *not* perfect recall: it keeps what the game's layout keeps (its own cards, the public
  table, the counts the rules make countable, some revealed history), not the seat's whole
  sequence of observations and actions. The observer of `IIGObservationType(private_info=
  ALL_PLAYERS)` is every seat's view (the oracle view, for debugging and baselines).
- `state.resample_from_infostate(p, sampler)`: a clone whose hidden state is redrawn by the
  kernel's `resample_hidden` (what ISMCTS needs); seat p's observation stays the same.
  `resampler(rng)` gives ISMCTS a seeded one (`bot.set_resampler`), so that searches replay.
- Bots: `ismcts_bot`, `mcts_bot` (OpenSpiel's MCTS on the true state: it sees hidden cards and
  the deck's future; an oracle, not a fair player), `DeterminizedBot` (a bot searching a world
  drawn from the player's information: MCTS that does not peek), `PolicyBot` (a heistbench
  policy, e.g. the heuristic bot, as a `pyspiel.Bot`) and OpenSpiel's uniform random bot.

    python -m heistbench.integrations.openspiel grifters --bot ismcts --simulations 100 --games 40
"""

from __future__ import annotations

import argparse
import ast
import functools
import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

try:
    import pyspiel
    from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError("heistbench.integrations.openspiel needs OpenSpiel: "
                      "pip install 'heistbench[openspiel]'") from error

from ..agents import make_policy
from ..agents.base import Policy
from ..envs import GAMES, module
from ..envs.core import BatchState, Game
from ..envs.core.rng import bits, seed_keys
from ..training.evaluate import EvalRow, MatchResult, format_rows, rotated_schedule, summarize

PREFIX = "heistbench_"
# kernel options that are not pyspiel parameters (see the module's documentation)
FIXED_OPTIONS: dict[str, Any] = {"validate": True, "reveal_hidden": False}
SEED_PARAMETER = "seed"
_NATIVE = (bool, int, float, str)  # the value types of pyspiel game parameters
_DEAL_STREAM = 0  # counter-based stream of a game's deals: (seed, k) -> the seed of deal k


def short_name(game: str) -> str:
    """The pyspiel name of a game ("grifters" or "grifters_v1" -> "heistbench_grifters")."""
    return PREFIX + module(game).Game.name.rsplit("_v", 1)[0]


def parameter_specification(kernel_cls: type[Game]) -> dict[str, bool | int | float | str]:
    """pyspiel parameters and defaults of a game: its options (those of non-native values as
    Python literals in strings) and the seed of its stream of deals."""
    spec: dict[str, bool | int | float | str] = {}
    for name, option in kernel_cls.option_spec().items():
        if name not in FIXED_OPTIONS:
            default = option.default
            spec[name] = default if isinstance(default, _NATIVE) else repr(default)
    spec[SEED_PARAMETER] = 0
    return spec


def kernel_options(kernel_cls: type[Game], params: dict[str, Any]) -> dict[str, Any]:
    """The kernel's options from pyspiel parameters (literals parsed); the kernel validates
    them with its own errors."""
    options = dict(FIXED_OPTIONS)
    for name, option in kernel_cls.option_spec().items():
        if name in FIXED_OPTIONS or name not in params:
            continue
        value = params[name]
        if not isinstance(option.default, _NATIVE) and isinstance(value, str):
            try:
                value = ast.literal_eval(value)
            except (ValueError, SyntaxError):
                raise ValueError(f"{kernel_cls.name}: parameter {name!r} takes a Python literal "
                                 f"({option.describe_allowed()}), got {value!r}") from None
        options[name] = value
    return options


@functools.lru_cache(maxsize=32)
def _kernel(env_name: str, options: tuple[tuple[str, Any], ...]) -> Game:
    # a kernel is stateless between calls; building one costs up to a third of a second
    return module(env_name).Game(**dict(options))


def _frozen(options: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in options.items()))


def utility_bounds(kernel: Game) -> tuple[float, float]:
    """(min, max) of a player's return: +-1 for win/loss and rank; score margins have no bound
    in the rulebooks, so +-inf."""
    return (-math.inf, math.inf) if kernel.reward_mode == "score" else (-1.0, 1.0)


def game_type(env_name: str) -> pyspiel.GameType:
    """The pyspiel GameType of a heistbench game."""
    kernel_cls = module(env_name).Game
    return pyspiel.GameType(
        short_name=short_name(env_name),
        long_name=f"heistbench {kernel_cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(kernel_cls.player_counts),
        min_num_players=min(kernel_cls.player_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_specification(kernel_cls))


class HeistGame(pyspiel.Game):
    """A heistbench game as a pyspiel game (one subclass per game, made by `register_games`)."""

    env_name: str  # the kernel's env name, e.g. "grifters_v1"

    def __init__(self, params: dict[str, Any] | None = None):
        params = dict(params or {})
        kernel_cls = module(self.env_name).Game
        kernel = _kernel(self.env_name, _frozen(kernel_options(kernel_cls, params)))
        seed = params.get(SEED_PARAMETER, 0)
        if not isinstance(seed, int) or seed < -1:
            raise ValueError(f"{kernel.name}: parameter 'seed' must be an int >= 0, or -1 for a "
                             f"stream drawn from the operating system; got {seed!r}")
        lo, hi = utility_bounds(kernel)
        info = pyspiel.GameInfo(num_distinct_actions=kernel.num_actions, max_chance_outcomes=0,
                                num_players=kernel.num_players, min_utility=lo, max_utility=hi,
                                utility_sum=0.0, max_game_length=kernel.max_steps)
        super().__init__(game_type(self.env_name), info, params)
        self.kernel = kernel
        entropy = np.random.SeedSequence().entropy if seed == -1 else seed
        self._deal_key = seed_keys(np.int64(int(entropy) % 2**63))
        self._deals = 0  # deals drawn from the stream so far

    def new_initial_state(self, seed: int | str | None = None) -> HeistState:
        """The next deal of the game's stream, or (given a seed) the deal of that seed, the
        one the AEC env deals for `reset(seed=seed)`."""
        if seed is None:
            return HeistState(self)
        try:
            seed = int(seed)
        except ValueError:
            raise ValueError(f"{self.kernel.name}: a new state takes an int seed, got "
                             f"{seed!r}") from None
        return HeistState(self, seed)

    def next_deal(self) -> int:
        """The seed of the next deal of the stream."""
        k, self._deals = self._deals, self._deals + 1
        return int(bits(self._deal_key, _DEAL_STREAM, k).view(np.int64)[0])

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: dict[str, Any] | None = None) -> Observer:
        """The seat's own observation (the default and the information state), or with
        `private_info=ALL_PLAYERS` every seat's view."""
        if params:
            raise ValueError(f"{self.kernel.name}: observers take no parameters, got {params}")
        oracle = False
        if iig_obs_type is not None:
            if not iig_obs_type.public_info or (
                    iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE):
                raise ValueError(f"{self.kernel.name}: only observations with the public "
                                 "information and a seat's own (SINGLE_PLAYER) or every seat's "
                                 "(ALL_PLAYERS) private information are available")
            oracle = iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS
        return Observer(self.kernel, oracle)

    def __deepcopy__(self, memo: dict) -> HeistGame:
        return self  # immutable, like any pyspiel game


class _Deal:
    """A state's batch-of-one kernel state and returns; dealt on first use, so that the states
    pyspiel makes only to overwrite (`clone`, deserialization) draw no deal from the stream.
    Copying deals first: a clone and its original play the same game."""

    __slots__ = ("game", "seed", "batch", "returns")

    def __init__(self, game: HeistGame, seed: int | None = None,
                 batch: BatchState | None = None, returns: np.ndarray | None = None):
        self.game, self.seed, self.batch = game, seed, batch
        self.returns = np.zeros(game.kernel.num_players) if returns is None else returns
        if batch is None and seed is not None:
            self.batch = game.kernel.init(np.array([seed], np.int64))

    def get(self) -> BatchState:
        if self.batch is None:
            self.seed = self.game.next_deal()
            self.batch = self.game.kernel.init(np.array([self.seed], np.int64))
        return self.batch

    def __deepcopy__(self, memo: dict) -> _Deal:
        return _Deal(self.game, self.seed, self.get().copy(), self.returns.copy())

    def __reduce__(self):
        return (_restore_deal, (self.game.get_type().short_name, self.game.get_parameters(),
                                self.seed, self.get(), self.returns))


def _restore_deal(name: str, params: dict[str, Any], seed: int, batch: BatchState,
                  returns: np.ndarray) -> _Deal:
    return _Deal(pyspiel.load_game(name, params), seed, batch, returns)


class HeistState(pyspiel.State):
    """One game of a heistbench kernel as a pyspiel state."""

    def __init__(self, game: HeistGame, seed: int | None = None):
        super().__init__(game)
        self._deal = _Deal(game, seed)

    # -- what the kernel says ------------------------------------------------------------------
    @property
    def kernel(self) -> Game:
        return self._deal.game.kernel

    @property
    def batch(self) -> BatchState:
        """The batch-of-one kernel state (a view: edit a clone's, not a live one's)."""
        return self._deal.get()

    @property
    def seed(self) -> int:
        """The seed this game was dealt from."""
        self._deal.get()
        return self._deal.seed

    def current_player(self) -> int:
        b = self._deal.get()
        if b.terminated[0] or b.truncated[0]:
            return pyspiel.PlayerId.TERMINAL
        return int(b.current_player[0])

    def _legal_actions(self, player: int) -> list[int]:
        return np.flatnonzero(self._deal.get().legal_action_mask[0]).tolist()

    def _apply_action(self, action: int) -> None:
        deal = self._deal
        b = deal.get()
        deal.game.kernel.step_one(b, int(action))
        deal.returns += b.rewards[0]

    def _action_to_string(self, player: int, action: int) -> str:
        if not 0 <= action < self.kernel.num_actions:
            raise ValueError(f"{self.kernel.name}: action {action} is out of range; actions "
                             f"are 0..{self.kernel.num_actions - 1}")
        return self.kernel.action_name(action)

    def is_terminal(self) -> bool:
        b = self._deal.get()
        return bool(b.terminated[0] or b.truncated[0])

    def returns(self) -> list[float]:
        return self._deal.returns.tolist()

    def __str__(self) -> str:
        return self.kernel.render(self._deal.get(), 0)

    # -- determinization -----------------------------------------------------------------------
    def resample(self, player: int, seed: int) -> HeistState:
        """A clone whose hidden state `player` cannot see is redrawn by the kernel's
        `resample_hidden` from `seed` (its future chance too); `player` observes it the same."""
        if not 0 <= player < self.kernel.num_players:
            raise ValueError(f"{self.kernel.name}: player must be in "
                             f"0..{self.kernel.num_players - 1}, got {player!r}")
        world = self.clone()
        deal = world._deal
        deal.batch = self.kernel.resample_hidden(deal.get(), player,
                                                 np.array([seed], np.int64))
        return world

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Callable[[], float]) -> HeistState:
        """pyspiel's determinization (ISMCTS calls it): `resample` with a seed drawn from
        `probability_sampler`, a callable giving uniforms in [0, 1)."""
        return self.resample(player_id, int(probability_sampler() * 2**53))


class Observer:
    """pyspiel's Python observer: seat `player`'s AEC observation in `tensor`, its named pieces
    (the game's observation layout) in `dict`; with `oracle`, every seat's view in seat order
    starting with `player`'s."""

    def __init__(self, kernel: Game, oracle: bool = False):
        self.kernel, self.oracle = kernel, oracle
        layout = kernel.base_observation_layout
        seats = range(kernel.num_players) if oracle else [0]
        self.names = [name if not oracle else f"seat[{q}].{name}"
                      for q in seats for name, _ in layout]
        self.tensor = np.zeros(len(seats) * kernel.base_obs_size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        off = 0
        for name, (_, size) in zip(self.names, list(layout) * len(seats)):
            self.dict[name] = self.tensor[off:off + size]
            off += size
        self._field = np.repeat(np.arange(len(self.names)),
                                [size for _, size in list(layout) * len(seats)])
        self._start = np.cumsum([0] + [size for _, size in list(layout) * len(seats)])[:-1]

    def observation(self, state: HeistState, player: int) -> np.ndarray:
        """float32: what `player` sees of `state` (a finished game: its last table)."""
        if self.oracle:
            return self.kernel.oracle_view(state.batch, player)[0]
        return self.kernel.observe_one(state.batch, player)

    def set_from(self, state: HeistState, player: int) -> None:
        self.tensor[:] = self.observation(state, player)

    def string_from(self, state: HeistState, player: int) -> str:
        """The observation's nonzero entries by piece, `name[i]=value`, exact for float32
        (`.9g`), so that two observations have the same string only if they are equal."""
        obs = self.observation(state, player)
        nz = np.flatnonzero(obs)
        field = self._field[nz]
        offset = nz - self._start[field]
        names = self.names
        return f"p{player} " + " ".join(
            f"{names[f]}[{i}]={v:.9g}" for f, i, v in zip(field.tolist(), offset.tolist(),
                                                         obs[nz].tolist()))


# -- bots ------------------------------------------------------------------------------------
def resampler(rng: np.random.Generator) -> Callable[[HeistState, int], HeistState]:
    """A determinizer for `ISMCTSBot.set_resampler` drawing its seeds from `rng`, so that a
    seeded search replays (pyspiel's own sampler draws from the operating system)."""
    def resample(state: HeistState, player: int) -> HeistState:
        return state.resample(player, int(rng.integers(0, 2**62)))

    return resample


class ISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's ISMCTS bot, restartable: `evaluate_bots` restarts every bot at the start of a
    game, which OpenSpiel's own ISMCTS does not implement. Its search starts afresh at every
    move, so a restart only drops the last tree."""

    def restart_at(self, state: pyspiel.State) -> None:
        self.reset()


def ismcts_bot(game: HeistGame, simulations: int = 100, seed: int = 0, uct_c: float = 2.0,
               rollouts: int = 1) -> ISMCTSBot:
    """OpenSpiel's ISMCTS with random rollouts, its worlds drawn by `resample_hidden` from a
    stream seeded with `seed`. Its tree keys on the information state, which here is the
    observation (not perfect recall): histories that look alike share nodes."""
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=rng)
    bot = ISMCTSBot(game, evaluator, uct_c, simulations, random_state=rng,
                           final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
    bot.set_resampler(resampler(np.random.default_rng(seed)))
    return bot


def mcts_bot(game: HeistGame, simulations: int = 100, seed: int = 0, uct_c: float = 2.0,
             rollouts: int = 1) -> mcts.MCTSBot:
    """OpenSpiel's MCTS with random rollouts on the state it is given. On the true state it
    sees everything, the deck's future included (a clone has the same future): an oracle.
    Wrap it in `DeterminizedBot` for a player that searches only what it may know."""
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=rng)
    return mcts.MCTSBot(game, uct_c, simulations, evaluator, random_state=rng)


class DeterminizedBot(pyspiel.Bot):
    """A bot searching worlds drawn from the mover's information instead of the true state
    (perfect-information Monte Carlo): each move, `worlds` states resampled with
    `resample_hidden`, the inner bot's move in each, the most frequent one played (ties: the
    first world's). The worlds agree with the true state on the mover's observation and legal
    actions, so the move is legal."""

    def __init__(self, bot: pyspiel.Bot, worlds: int = 1, seed: int = 0):
        super().__init__()
        if worlds < 1:
            raise ValueError(f"worlds must be at least 1, got {worlds}")
        self.bot, self.worlds = bot, worlds
        self._resample = resampler(np.random.default_rng(seed))

    def step(self, state: HeistState) -> int:
        player = state.current_player()
        moves = [self.bot.step(self._resample(state, player)) for _ in range(self.worlds)]
        return Counter(moves).most_common(1)[0][0]

    def restart_at(self, state: HeistState) -> None:
        self.bot.restart_at(state)


class PolicyBot(pyspiel.Bot):
    """A heistbench policy ("heuristic", "random", a checkpoint or any `Policy`) as a pyspiel
    bot: it acts on the mover's observation and legal actions, as in the AEC env."""

    def __init__(self, policy: str | Policy, game: HeistGame, seed: int = 0):
        super().__init__()
        self.kernel = game.kernel
        self.policy = make_policy(policy, game.kernel, seed=seed) if isinstance(
            policy, str) else policy

    def step(self, state: HeistState) -> int:
        batch, player = state.batch, state.current_player()
        obs = self.kernel.observe_one(batch, player)[None]
        return int(self.policy.act_in(batch, np.zeros(1, np.int64), obs,
                                      batch.legal_action_mask)[0])

    def restart_at(self, state: HeistState) -> None:
        self.policy.reset()


BOTS = ("ismcts", "mcts", "determinized-mcts", "heuristic", "random")


def make_bot(name: str, game: HeistGame, player: int, simulations: int = 100,
             seed: int = 0) -> pyspiel.Bot:
    """A bot by name, one of BOTS (or a checkpoint path, played as a `PolicyBot`)."""
    if name == "ismcts":
        return ismcts_bot(game, simulations, seed)
    if name == "mcts":
        return mcts_bot(game, simulations, seed)
    if name == "determinized-mcts":
        return DeterminizedBot(mcts_bot(game, simulations, seed), seed=seed)
    if name == "random":
        return pyspiel.make_uniform_random_bot(player, seed)
    try:
        return PolicyBot(name, game, seed)
    except ValueError as e:
        if "unknown policy" not in str(e):
            raise
        raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(BOTS)} or a "
                         "checkpoint path") from None


# -- matches ---------------------------------------------------------------------------------
@dataclass
class Match:
    """A bot in one seat against copies of another bot: the evaluation row (the project's
    fixed, seat-rotated seeds), the bot's seconds per move and moves played."""

    row: EvalRow
    seconds_per_move: float
    moves: int


def play_match(game: str, bot: str = "ismcts", opponent: str = "random", games: int = 20,
               simulations: int = 100, num_players: int = 2, seed: int = 0,
               **options: Any) -> Match:
    """`bot` in one seat against `opponent` in the others over `games` games: every seat
    rotation of the project's evaluation seeds (`heistbench.training.evaluate`), played with
    OpenSpiel's `evaluate_bots`; the win rate has a 95% Wilson interval."""
    if games < 1 or simulations < 1:
        raise ValueError(f"games and simulations must be positive, got games={games}, "
                         f"simulations={simulations}")
    params = {"num_players": num_players, **{k: v if isinstance(v, _NATIVE) else repr(v)
                                             for k, v in options.items()}}
    pgame = pyspiel.load_game(short_name(game), params)
    kernel = pgame.kernel
    n = kernel.num_players
    seeds, seating = rotated_schedule([0] + [1] * (n - 1), games)
    scores, winners, keys, rewards = (np.zeros((len(seeds), n), t)
                                      for t in (np.int64, bool, np.int64, np.float64))
    truncated = np.zeros(len(seeds), bool)
    clock, moves = _MoveClock(), 0
    for g, (deal, table) in enumerate(zip(seeds.tolist(), seating)):
        bots = [make_bot(bot if who == 0 else opponent, pgame, p, simulations,
                         seed=seed + 1_000 * g + p) for p, who in enumerate(table)]
        seat = int(np.flatnonzero(table == 0)[0])
        bots[seat] = clock.wrap(bots[seat])
        state = pgame.new_initial_state(deal)
        returns = evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(seed + g))
        b = state.batch
        scores[g], winners[g], keys[g] = (kernel.scores(b)[0], kernel.winners(b)[0],
                                          kernel.rank_keys(b)[0])
        rewards[g], truncated[g] = returns, b.truncated[0]
    result = MatchResult(seating, scores, winners, keys, rewards, truncated)
    row = summarize(result, 0, bot if bot not in ("ismcts", "mcts", "determinized-mcts")
                    else f"{bot} ({simulations} sims)", opponent)
    moves = clock.moves
    return Match(row, clock.seconds / max(moves, 1), moves)


class _MoveClock:
    """Times the moves of the bots it wraps."""

    def __init__(self) -> None:
        self.seconds, self.moves = 0.0, 0

    def wrap(self, bot: pyspiel.Bot) -> pyspiel.Bot:
        clock = self

        class Timed(pyspiel.Bot):
            def step(self, state: pyspiel.State) -> int:
                t = time.perf_counter()
                action = bot.step(state)
                clock.seconds += time.perf_counter() - t
                clock.moves += 1
                return action

            def restart_at(self, state: pyspiel.State) -> None:
                bot.restart_at(state)

            def inform_action(self, state: pyspiel.State, player: int, action: int) -> None:
                bot.inform_action(state, player, action)

        return Timed()


# -- registration ----------------------------------------------------------------------------
def register_games() -> None:
    """Register every heistbench game with pyspiel (once; importing this module does it)."""
    registered = set(pyspiel.registered_names())
    for env_name in GAMES:
        name = short_name(env_name)
        if name not in registered:
            cls = type(f"HeistGame_{name}", (HeistGame,), {"env_name": env_name,
                                                            "__module__": __name__})
            pyspiel.register_game(game_type(env_name), cls)


register_games()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m heistbench.integrations.openspiel",
        description="Play an OpenSpiel bot (ISMCTS by default) against random or heuristic "
                    "bots on a heistbench game, over every seat rotation of the project's "
                    "evaluation seeds, and print its win rate (95%% Wilson interval) and its "
                    "time per move.")
    parser.add_argument("game", help="a game: big_score, grifters, vaults, bad_company, big_deal")
    parser.add_argument("--bot", default="ismcts",
                        help=f"the bot: {', '.join(BOTS)} or a checkpoint (default ismcts)")
    parser.add_argument("--vs", default="random",
                        help="the other seats: random, heuristic, any bot above or a checkpoint")
    parser.add_argument("--simulations", type=int, default=100,
                        help="simulations per move of the search bots (default 100)")
    parser.add_argument("--games", type=int, default=20,
                        help="games, rounded up to a multiple of the player count (default 20)")
    parser.add_argument("--players", type=int, default=2, help="number of players (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the bots' randomness")
    args = parser.parse_args(argv)
    try:
        match = play_match(args.game, args.bot, args.vs, args.games, args.simulations,
                           args.players, args.seed)
    except ValueError as e:
        parser.error(str(e))
    print(format_rows([match.row]))
    print(f"{args.bot}: {1000 * match.seconds_per_move:.1f} ms per move over {match.moves} moves")


if __name__ == "__main__":
    main()
