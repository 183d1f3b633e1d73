"""The `Game` contract every game's kernel implements (ARCHITECTURE's public API).

`compiled.CompiledGame` implements the stepping on a game's compiled rules. This base holds
what does not depend on how a game steps: option validation, the observation entry point
(finished games' rows, the oracle `reveal_hidden` view), winners, the errors of bad actions,
terminal rewards in NumPy (tests check the compiled ones against them) and layout-derived
helpers.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from .layout import ActionLayout, Block, Field, ObservationLayout
from .options import COMMON_OPTIONS, Option, resolve_options
from .records import RecordState as BatchState


class TurnView:
    """What the AEC env reads of its game after each step, refilled in place: `turn` =
    (current player, terminated, truncated), the step's `rewards` and the int8 `mask`. They
    are views of one record, `data`, so that a compiled step fills them in the same call; a
    compiled step also writes the observation of the player to move into `obs` (one row;
    none when the game observes with `reveal_hidden`, whose view is not the seat's own)."""

    def __init__(self, game: Game):
        self.data = np.zeros(1, [("turn", np.int64, (3,)),
                                 ("rewards", np.float32, (max(game.player_counts),)),
                                 ("mask", np.int8, (game.num_actions,))])
        self.turn = self.data["turn"][0]
        self.rewards = self.data["rewards"][0, : game.num_players]
        self.mask = self.data["mask"][0]
        self.obs = np.zeros((0 if game.reveal_hidden else 1, game.base_obs_size), np.float32)


class Game:
    """Rules of one game as a kernel over a batch of independent games."""

    name: ClassVar[str]  # registry / PettingZoo name, e.g. "big_score_v1"
    title: ClassVar[str]  # human name, e.g. "The Big Score"
    version: ClassVar[int] = 0  # bumped by any change that alters learning
    player_counts: ClassVar[tuple[int, ...]]
    GAME_OPTIONS: ClassVar[dict[str, Option]] = {}
    score_scale: ClassVar[float] = 100.0  # divides score margins for reward="score"
    # games of their own behind this class, by name -> the options that build one (The Big
    # Score's solo game: {"solo": {"num_players": 1}}); listed and compiled with the game
    variants: ClassVar[dict[str, dict[str, Any]]] = {}
    variant: ClassVar[str] = ""  # set by such a game of its own: "solo"
    # the fields of a seat's own view that no other seat sees (expanded layout names, e.g.
    # "player[0].known_hand"): the rest of any view follows from what each seat sees, so an
    # oracle critic needs only these of the other seats (`critic_view`); None: not named
    private_fields: ClassVar[tuple[str, ...] | None] = None

    observation_layout: ObservationLayout  # set by subclasses in __init__ (the base view)
    action_layout: ActionLayout

    # -- construction -----------------------------------------------------------------------
    def __init__(self, **options: Any):
        spec = self.option_spec()
        self.options = resolve_options(self.name, spec, options)
        self.num_players: int = self.options["num_players"]
        self.validate: bool = self.options["validate"]
        self.auto_forced: bool = self.options["auto_forced"]
        self.reveal_hidden: bool = self.options["reveal_hidden"]
        self.reward_mode: str = self.options["reward"]
        self._setup()
        self.max_steps: int = self.options["max_steps"] or self.default_max_steps()
        self.num_actions = self.action_layout.size
        self.base_obs_size = self.observation_layout.size
        self.base_observation_layout = self.observation_layout
        if self.reveal_hidden:
            base = self.observation_layout
            self.observation_layout = ObservationLayout([Block(
                "seat", self.num_players,
                tuple(Field(n, s) for n, s in base),
                "every seat's own view, relative to the observer (0 = self)")])
        self.obs_size = self.observation_layout.size
        self.private_columns = self._private_columns()
        self.critic_size = self.base_obs_size + (self.num_players - 1) * (
            self.base_obs_size if self.private_columns is None else self.private_columns.size)
        # the seat arrays of a batch of one (the AEC env's observe), made once
        self._one_seat = [np.full(1, p, np.int64) for p in range(self.num_players)]

    @property
    def label(self) -> str:
        """The registry name, with the variant if any: "big_score_v1 (solo)"."""
        return f"{self.name} ({self.variant})" if self.variant else self.name

    @classmethod
    def option_spec(cls) -> dict[str, Option]:
        counts = cls.player_counts
        spec = {"num_players": Option(counts[min(2, len(counts) - 1)] if len(counts) > 2
                                      else counts[0], "number of players", choices=counts)}
        spec.update(cls.GAME_OPTIONS)
        spec.update(COMMON_OPTIONS)
        return spec

    @classmethod
    def class_for(cls, num_players: int) -> type[Game]:
        """The class that plays `num_players`: this one, unless a variant is a game of its own
        (The Big Score's solo game), whose rule options (`GAME_OPTIONS`) are its own."""
        return cls

    def _setup(self) -> None:
        """Build layouts and tables from self.options (subclasses)."""
        raise NotImplementedError

    def default_max_steps(self) -> int:
        raise NotImplementedError

    # -- the public kernel API ----------------------------------------------------------------
    def init(self, seeds: int | np.ndarray) -> BatchState:
        """A batch of fresh games, one per seed."""
        raise NotImplementedError

    def step(self, state: BatchState, actions: np.ndarray | int,
             where: np.ndarray | None = None) -> BatchState:
        """Apply one action per game (games already over ignore theirs); updates in place.

        `where` (bool [B]) limits the step to those games: the others, and their actions, are
        left alone (a self-play env steps only the games whose opponents are to move)."""
        raise NotImplementedError

    def observe(self, state: BatchState, player: int | np.ndarray) -> np.ndarray:
        """float32 [B, obs_size]: what `player` (an int or one seat per game) may know; a seat
        of -1 (a finished game's current player) gives a zero row, so that
        `observe(state, state.current_player)` works on any batch."""
        B = state.batch_size
        if isinstance(player, (int, np.integer)):  # no reductions for the AEC env's case
            lo = hi = int(player)
            seats = self._one_seat[lo] if B == 1 and 0 <= lo < self.num_players else np.full(
                B, lo, np.int64)
        else:
            seats = np.broadcast_to(np.asarray(player, dtype=np.int64), (B,))
            lo, hi = (int(seats.min()), int(seats.max())) if B else (0, 0)
        view = self.oracle_view if self.reveal_hidden else self._observe
        if lo >= 0 and hi < self.num_players:  # the common case: no finished game asked for
            return view(state, seats)
        if lo < -1 or hi >= self.num_players:
            raise ValueError(f"{self.name}: player must be in 0..{self.num_players - 1} "
                             f"(or -1 for a finished game), got {player!r}")
        live = np.flatnonzero((seats < 0) & ~(state.terminated | state.truncated))
        if live.size:
            raise ValueError(f"{self.name}: game {int(live[0])}: player -1 stands for a "
                             "finished game, but this game is not over")
        out = np.zeros((B, self.obs_size), np.float32)
        rows = np.flatnonzero(seats >= 0)
        if rows.size:
            out[rows] = view(state[rows], seats[rows])
        return out

    def oracle_view(self, state: BatchState, seats: int | np.ndarray) -> np.ndarray:
        """float32 [B, N * base_obs_size]: every seat's own view, starting at `seats` (valid
        seats only): the `reveal_hidden` observation, and in seat order the global state."""
        seats = np.broadcast_to(np.asarray(seats, dtype=np.int64), (state.batch_size,))
        return np.concatenate([self._observe(state, (seats + q) % self.num_players)
                               for q in range(self.num_players)], axis=1)

    def critic_view(self, state: BatchState, seats: int | np.ndarray) -> np.ndarray:
        """float32 [B, critic_size]: the seat's own view, then, from the next seat on, what each
        other seat sees that it does not: their `private_fields`. An oracle critic's input: it
        holds every bit of the hidden state the oracle view holds, without the public columns
        that every seat's view repeats (a game that names no private fields: the oracle view)."""
        if self.private_columns is None:
            return self.oracle_view(state, seats)
        seats = np.broadcast_to(np.asarray(seats, dtype=np.int64), (state.batch_size,))
        return np.concatenate(
            [self._observe(state, seats)]
            + [self._observe(state, (seats + q) % self.num_players)[:, self.private_columns]
               for q in range(1, self.num_players)], axis=1)

    @property
    def critic_columns(self) -> np.ndarray:
        """int64 [critic_size]: the oracle view's columns that make the critic view
        (`critic_view(s, p) == oracle_view(s, p)[:, critic_columns]`)."""
        D = self.base_obs_size
        private = np.arange(D) if self.private_columns is None else self.private_columns
        return np.concatenate([np.arange(D)] + [q * D + private
                                                for q in range(1, self.num_players)])

    def _private_columns(self) -> np.ndarray | None:
        """The columns of `private_fields` in a seat's own view (None: not named)."""
        if self.private_fields is None:
            return None
        spans, off = {}, 0
        for name, size in self.base_observation_layout:
            spans[name] = range(off, off + size)
            off += size
        unknown = sorted(set(self.private_fields) - set(spans))
        if unknown:
            raise ValueError(f"{self.name}: private_fields {unknown} are not observation fields "
                             f"(the expanded names, e.g. {next(iter(spans))!r})")
        return np.array(sorted(c for name in self.private_fields for c in spans[name]), np.int64)

    # -- a batch of one (the AEC env's hot path: a valid seat, no checks of a user's input) ---
    def observe_one(self, state: BatchState, seat: int) -> np.ndarray:
        """float32 [obs_size]: seat's view of game 0 of a batch of one (seat is valid)."""
        if self.reveal_hidden:
            return self.oracle_view(state, self._one_seat[seat])[0]
        return self._observe(state, self._one_seat[seat])[0]

    def step_one(self, state: BatchState, action: int, view: TurnView | None = None) -> None:
        """`step` of a batch of one with a Python int action (the AEC env's hot path: no
        argument checks), then, if `view` is given, `peek_one` into it and the observation of
        the player to move into `view.obs` (when it has a row and someone is to move)."""
        raise NotImplementedError

    def peek_one(self, state: BatchState, view: TurnView) -> None:
        """Copy what the AEC env reads after each step of game 0 into `view`."""
        view.turn[:] = state.current_player[0], state.terminated[0], state.truncated[0]
        view.rewards[:] = state.rewards[0]
        view.mask[:] = state.legal_action_mask[0]

    def obs_fields(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        """Decode an observation (or a batch) into named parts."""
        return self.observation_layout.decode(obs)

    def action_name(self, action: int) -> str:
        return self.action_layout.name(action)

    def legal_actions(self, state: BatchState, b: int = 0) -> list[int]:
        return np.flatnonzero(state.legal_action_mask[b]).tolist()

    def scores(self, state: BatchState) -> np.ndarray:
        """The rulebook's final tally per player, int [B, N] (meaningful once over)."""
        raise NotImplementedError

    def rank_keys(self, state: BatchState) -> np.ndarray:
        """int64 [B, N]: higher ranks better after the rulebook's tie-breakers; equal = tied."""
        raise NotImplementedError

    def winners(self, state: BatchState) -> np.ndarray:
        """bool [B, N]: the (co-)winners of finished games; a solo game is won when its rank
        key is positive (its objective met)."""
        keys = self.rank_keys(state)
        if self.num_players == 1:
            return keys > 0
        return keys == keys.max(axis=1, keepdims=True)

    def secret_decision(self, state: BatchState) -> np.ndarray:
        """bool [B]: the pending decision is a secret choice (a draft pick, a closed fist),
        which nobody else may see when it is made; the rules reveal it later, or never."""
        return np.zeros(state.batch_size, bool)

    def asked_always(self, state: BatchState) -> np.ndarray:
        """bool [B]: the pending decision is put to its player even when it has a single legal
        action (with `auto_forced` too): a response whose skipping would tell the others what
        the player holds. None by default."""
        return np.zeros(state.batch_size, bool)

    def final_info(self, state: BatchState, b: int = 0) -> dict:
        """Extra end-of-game facts for game b (the AEC env adds them to every agent's info),
        e.g. a score breakdown."""
        return {}

    def conserved(self, state: BatchState) -> dict[str, np.ndarray]:
        """Totals that the rules conserve (cards, tokens, money), int [B] each; the property
        tests check they never change during play."""
        return {}

    def render(self, state: BatchState, b: int = 0, player: int | None = None) -> str:
        raise NotImplementedError

    def resample_hidden(self, state: BatchState, player: int | np.ndarray,
                        seeds: int | np.ndarray) -> BatchState:
        raise NotImplementedError

    # -- for subclasses -----------------------------------------------------------------------
    def _observe(self, state: BatchState, seats: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def _finish(self, state: BatchState, idx: np.ndarray) -> None:
        """Mark games `idx` over by the rules and hand out the terminal rewards."""
        if idx.size == 0:
            return
        state.terminated[idx] = True
        state.current_player[idx] = -1
        state.legal_action_mask[idx] = False
        sub = state[idx]
        state.rewards[idx] = self.terminal_rewards(self.rank_keys(sub), self.scores(sub))

    def terminal_rewards(self, keys: np.ndarray, scores: np.ndarray) -> np.ndarray:
        """float32 [B, N] zero-sum rewards from rank keys (win_loss, rank) or scores (score)."""
        n = keys.shape[1]
        if n == 1:  # solo: the objective (rank key > 0) wins; score: the score itself
            if self.reward_mode == "score":
                return (scores / self.score_scale).astype(np.float32)
            return np.where(keys > 0, 1.0, -1.0).astype(np.float32)
        if self.reward_mode == "score":
            s = scores.astype(np.float64)
            others = (s.sum(axis=1, keepdims=True) - s) / (n - 1)
            return ((s - others) / self.score_scale).astype(np.float32)
        if self.reward_mode == "rank":  # rank 0 = first; tied players share their average rank
            above = (keys[:, None, :] > keys[:, :, None]).sum(axis=2)
            tied = (keys[:, None, :] == keys[:, :, None]).sum(axis=2)
            rank = above + (tied - 1) / 2
            return ((n - 1 - 2 * rank) / (n - 1)).astype(np.float32)
        win = keys == keys.max(axis=1, keepdims=True)
        k = win.sum(axis=1, keepdims=True)
        losers = n - k
        r = np.where(win, 1.0 / k, -1.0 / np.maximum(losers, 1))
        r[(losers == 0)[:, 0]] = 0.0
        return r.astype(np.float32)

    # -- internals ----------------------------------------------------------------------------
    def _actions_array(self, actions: np.ndarray | int, B: int) -> np.ndarray:
        """int64 [B] actions from an int or an int array of shape (B,), or a clear error."""
        acts = np.asarray(actions)
        if acts.ndim == 0 and acts.dtype.kind in "iu":
            return np.full(B, int(acts), np.int64)
        if acts.shape != (B,) or acts.dtype.kind not in "iu":
            raise ValueError(f"{self.name}: actions must be an int array of shape ({B},), "
                             f"got {acts.dtype} {acts.shape}")
        return np.ascontiguousarray(acts, np.int64)

    def _where_array(self, where: np.ndarray, B: int) -> np.ndarray:
        """A step's `where`: bool [B], or a clear error."""
        where = np.asarray(where)
        if where.shape != (B,) or where.dtype != bool:
            raise ValueError(f"{self.name}: where must be a bool array of shape ({B},), "
                             f"got {where.dtype} {where.shape}")
        return where

    def _illegal_error(self, state: BatchState, b: int, act: int) -> ValueError:
        """The error of game b's action `act`: out of range, or illegal with what is legal."""
        if not 0 <= act < self.num_actions:
            return ValueError(f"{self.name}: game {b}: action {act} is out of range; "
                              f"actions are 0..{self.num_actions - 1}")
        legal = [f"{i} ({self.action_name(i)})" for i in self.legal_actions(state, b)]
        return ValueError(f"{self.name}: game {b}: action {act} ({self.action_name(act)}) is "
                          f"illegal for player {int(state.current_player[b])}; legal: "
                          f"{', '.join(legal)}")
