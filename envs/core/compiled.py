"""The kernel base of a game whose rules are compiled scalar functions (numba).

A game declares its state fields and config fields as data, and supplies its rule functions
(see `drivers.py`); this base builds the structured dtype, the config record and the batch
drivers, and implements the `Game` contract on them: `init`, `step(where=)`, `observe`,
`scores`, `rank_keys`, and the validate errors. No Python-level loop over games runs on any of
these paths: each is one call into compiled code for the whole batch.

Per-player axes are stored for the largest player count (see `records`), so numba compiles a
game's rules once for every count, on first use, and caches them.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from . import jit
from .buffers import BufferPool
from .game import Game, TurnView
from .options import REWARD_MODES
from .records import RecordState, record_dtype
from .rng import seed_keys

INIT, STEP, RESUME = 0, 1, 2  # the modes of the drivers' play_batch
# empty arguments of play_batch: `where` over every live game, no actions, no keys. Writable,
# C-contiguous, like the real ones: numba compiles anew for each different array type
_ALL = np.zeros(0, np.uint8)
_NO_ACTIONS = np.zeros(0, np.int64)
_NO_KEYS = np.zeros(0, np.uint64)

# config every compiled game has: (name, dtype)
CORE_CONFIG: tuple[tuple[str, Any], ...] = (
    ("num_players", np.int64), ("num_actions", np.int64), ("obs_size", np.int64),
    ("max_steps", np.int64), ("auto_forced", np.bool_), ("reward_kind", np.int64),
    ("score_scale", np.float64),
    # a truncated game's rewards: zero, or those of its tally so far (`truncation_scored`,
    # set by games that offer it)
    ("truncation_scored", np.bool_),
)


def _plain(arr: np.ndarray, dtype: type) -> np.ndarray:
    """`arr` as the drivers take it: of `dtype`, C-contiguous and writable (numba compiles anew
    for each other kind of array), copied only when it is not already."""
    if arr.dtype == dtype and arr.flags.c_contiguous and arr.flags.writeable:
        return arr
    return np.array(arr, dtype)


def _records(arr: np.ndarray) -> np.ndarray:
    """A structured array as the drivers take it: as is for compiled code; under
    NUMBA_DISABLE_JIT a recarray, whose elements allow `g.stash[o] -= x` in plain Python."""
    return arr.view(np.recarray) if jit.numba.config.DISABLE_JIT else arr


class CompiledGame(Game):
    """A `Game` stepped by compiled scalar rules over one structured array."""

    # (name, dtype, shape per game, comment); "N" in a shape is the player axis, "A" actions
    STATE_FIELDS: ClassVar[tuple[tuple[str, Any, tuple[Any, ...], str], ...]] = ()
    CONFIG_FIELDS: ClassVar[tuple[tuple[str, Any], ...]] = ()  # the game's own config
    state_cls: ClassVar[type[RecordState]]
    rules_folder: ClassVar[Path]  # the game's folder: its sources key the compiled cache
    cache_name: ClassVar[str | None] = None  # its drivers' name in `load_drivers` (None: the
    # folder's name); a second game in one folder (the Big Score solo game) has its own
    _announced: ClassVar[set[str]] = set()

    def __init__(self, **options: Any):
        super().__init__(**options)
        sizes = {"N": max(self.player_counts), "A": self.num_actions}
        self.state_dtype, bools, axes = record_dtype(self.STATE_FIELDS, sizes)
        self.state_cls.bool_fields, self.state_cls.player_axes = bools, axes
        self._cfg = np.zeros(1, list(CORE_CONFIG + self.CONFIG_FIELDS))
        self.cfg = _records(self._cfg)  # what the drivers are passed
        c = self._cfg[0]
        c["num_players"], c["num_actions"] = self.num_players, self.num_actions
        c["obs_size"], c["max_steps"] = self.base_obs_size, self.max_steps
        c["auto_forced"] = self.auto_forced  # (actions are always checked: it costs nothing)
        c["reward_kind"] = REWARD_MODES.index(self.reward_mode)
        c["score_scale"] = self.score_scale
        self._configure(c)
        none = TurnView(self)
        self._no_view = _records(none.data[:0])  # play_batch's "no AEC view"
        self._no_obs = none.obs[:0]  # ... and no observation to write
        self._action = np.zeros(1, np.int64)  # step_one's action, refilled
        # observation buffers reused once nobody holds them: a fresh one of megabytes costs
        # more in page faults than the observation itself
        self._out = BufferPool()
        self._announce_compile()

    def _configure(self, c: np.void) -> None:
        """Fill the game's own config fields (subclasses)."""

    @classmethod
    def drivers(cls) -> ModuleType:
        """The game's compiled batch drivers (subclasses return their rules' drivers)."""
        raise NotImplementedError

    def _announce_compile(self) -> None:
        """Say so, in one line, when this process must compile the game's rules."""
        name = type(self).__name__
        if name in self._announced:
            return
        self._announced.add(name)
        path = jit.cache_dir(self.cache_name or self.rules_folder.name, self.rules_folder)
        if not jit.is_cached(path) and not jit.numba.config.DISABLE_JIT:
            print(f"heistbench: compiling the rules of {self.title} for this machine, once "
                  f"(cached in {path})", file=sys.stderr)

    def warm_up(self) -> None:
        """Compile (or load from the cache) every driver, threaded ones too when threads are
        on, by playing a few steps of two games: install scripts call it once per game."""
        state = self.init(np.arange(2))
        for _ in range(4):
            self.observe(state, np.maximum(state.current_player, 0))
            acts = state.legal_action_mask.argmax(axis=1)
            self.step(state, acts, where=~state.done)
        self.resume(state)
        self.refresh_masks(state)
        self.scores(state)
        self.rank_keys(state)

    # -- the Game contract ---------------------------------------------------------------------
    def new_state(self, batch_size: int) -> RecordState:
        """A zeroed batch (for crafted states; `init` gives real games)."""
        return self.state_cls(np.zeros(batch_size, self.state_dtype), self.num_players)

    def init(self, seeds: int | np.ndarray) -> RecordState:
        """A batch of fresh games, one per seed."""
        keys = seed_keys(seeds)
        state = self.new_state(len(keys))
        self._play(state, INIT, _NO_ACTIONS, keys, _ALL)
        return state

    def _play(self, state: RecordState, mode: int, actions: np.ndarray, keys: np.ndarray,
              where: np.ndarray) -> int:
        d, data = self.drivers(), _records(state.data)
        if jit.threads() > 1 and state.batch_size > 1:
            return d.play_batch_threads(data, mode, actions, keys, where, self.cfg)
        return d.play_batch(data, mode, actions, keys, where, self.cfg, self._no_view,
                            self._no_obs)

    def step(self, state: RecordState, actions: np.ndarray | int,
             where: np.ndarray | None = None) -> RecordState:
        """Apply one action per live game (in `where`, if given); updates in place. An
        illegal action raises ValueError and changes nothing."""
        B = state.batch_size
        if type(actions) is np.ndarray and actions.shape == (B,) and actions.dtype == np.int64:
            acts = _plain(actions, np.int64)  # the common case, the AEC env's included
        else:
            acts = _plain(self._actions_array(actions, B), np.int64)
        w = _ALL if where is None else _plain(self._where_array(where, B), np.bool_).view(np.uint8)
        bad = self._play(state, STEP, acts, _NO_KEYS, w)
        if bad >= 0:
            raise self._illegal_error(state, bad, int(acts[bad]))
        return state

    def step_one(self, state: RecordState, action: int, view: TurnView | None = None) -> None:
        """The AEC env's step: one compiled call for the step and, given a view, what the env
        then reads, the next mover's observation included."""
        self._action[0] = action
        if view is None:
            rec, obs = self._no_view, self._no_obs
        else:
            rec, obs = _records(view.data), view.obs
        bad = self.drivers().play_batch(_records(state.data), STEP, self._action, _NO_KEYS, _ALL,
                                        self.cfg, rec, obs)
        if bad >= 0:
            raise self._illegal_error(state, 0, action)

    def observe_one(self, state: RecordState, seat: int) -> np.ndarray:
        if self.reveal_hidden:
            return super().observe_one(state, seat)
        out = np.empty((1, self.base_obs_size), np.float32)
        self.drivers().observe_batch(_records(state.data), self._one_seat[seat], out, self.cfg)
        return out[0]

    def resume(self, state: RecordState, where: np.ndarray | None = None) -> RecordState:
        """Automatic play up to the next decision in crafted states (tests, scenarios)."""
        w = (_ALL if where is None else
             _plain(self._where_array(where, state.batch_size), np.bool_).view(np.uint8))
        self._play(state, RESUME, _NO_ACTIONS, _NO_KEYS, w)
        return state

    def play_out_random(self, state: RecordState, seeds: int | np.ndarray) -> RecordState:
        """Play every live game to its end by uniformly random legal moves, in place, in one
        compiled call (a search's rollouts); game i's moves come from seeds[i] alone."""
        keys = np.broadcast_to(seed_keys(seeds), (state.batch_size,)).copy()
        self.drivers().playout_batch(_records(state.data), keys, self.cfg)
        return state

    def refresh_masks(self, state: RecordState) -> RecordState:
        """Recompute the pending decision's mask of every live game (after editing hidden
        state, e.g. in `resample_hidden`)."""
        self.drivers().refresh_mask_batch(_records(state.data), _ALL, self.cfg)
        return state

    def _observe(self, state: RecordState, seats: np.ndarray) -> np.ndarray:
        out = self._out.empty((state.batch_size, self.base_obs_size), np.float32)
        seats = _plain(seats, np.int64)
        d = self.drivers()
        run = (d.observe_batch_threads if jit.threads() > 1 and state.batch_size > 1
               else d.observe_batch)
        run(_records(state.data), seats, out, self.cfg)
        return out

    def scores(self, state: RecordState) -> np.ndarray:
        """The rulebook's final tally per player, int64 [B, N]."""
        out = np.zeros((state.batch_size, self.num_players), np.int64)
        self.drivers().scores_batch(_records(state.data), out, self.cfg)
        return out

    def rank_keys(self, state: RecordState) -> np.ndarray:
        """int64 [B, N]: higher ranks better after the rulebook's tie-breakers; equal = tied."""
        out = np.zeros((state.batch_size, self.num_players), np.int64)
        self.drivers().rank_keys_batch(_records(state.data), out, self.cfg)
        return out

