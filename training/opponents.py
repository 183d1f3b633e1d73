"""Opponents played inside a learner's env: who sits where, and the loop that plays them.

A learner env holds a batch of games, each seen from one learner seat: the self-play VecEnv of
training and the single-seat envs of `heistbench.integrations` are all `SeatedGames`. Every
other seat of a game is played by the policy in its slot of a `PolicySlots`: an
`OpponentPool` draws the slots of each new game from a mix (frozen snapshots, the heuristic
bot, the random policy); `FixedOpponents` puts the same policy at the same seat relative to the
learner in every game. `SeatedGames.play_opponents` steps the opponents of every game, each
policy batched over its own rows, until each game waits for the learner again. The loops run
over steps and slots, never over games.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..agents.base import Policy, RandomPolicy
from ..envs.core import BatchState, Game

OPPONENT_KINDS = ("self", "heuristic", "random")
RANDOM_SLOT, HEURISTIC_SLOT, FIRST_SNAPSHOT_SLOT = 0, 1, 2


class PolicySlots:
    """Policies by slot, each played batched over the rows that name its slot."""

    def __init__(self, slots: list[Policy | None]):
        self.slots = slots

    def seat_slots(self, seats: np.ndarray) -> np.ndarray:
        """int [k, N]: the slot of every seat of k new games whose learners sit at `seats`
        (the learner's own entry is never played)."""
        raise NotImplementedError

    def act(self, slots: np.ndarray, obs: np.ndarray, mask: np.ndarray,
            state: BatchState | None = None, games: np.ndarray | None = None) -> np.ndarray:
        """Actions of the policies in `slots` [k], each batched over its own rows; with the
        batch `state` and the k `games` of it that the rows are, a policy that searches the
        game (ISMCTS) can read it."""
        actions = np.zeros(len(slots), dtype=np.int64)
        for s in np.unique(slots):
            rows = slots == s
            if state is None:
                actions[rows] = self.slots[s].act(obs[rows], mask[rows])
            else:
                actions[rows] = self.slots[s].act_in(state, games[rows], obs[rows], mask[rows])
        return actions

    def add_snapshot(self, policy: Policy) -> None:
        """A frozen copy of the learner joins the opponents (tables with "self" seats)."""
        raise ValueError(f"{type(self).__name__} has no seat for snapshots of the learner: "
                         "give 'self' as an opponent")


class OpponentPool(PolicySlots):
    """The policies that fill the non-learner seats, by slot: random, heuristic, snapshots..."""

    def __init__(self, game: Game, mix: dict[str, float], pool_size: int = 8, seed: int = 0):
        unknown = set(mix) - set(OPPONENT_KINDS)
        if unknown:
            raise ValueError(f"unknown opponent kind {sorted(unknown)[0]!r}; "
                             f"use {', '.join(OPPONENT_KINDS)}")
        share = np.array([mix.get(k, 0.0) for k in OPPONENT_KINDS], dtype=np.float64)
        if (share < 0).any() or share.sum() <= 0:
            raise ValueError(f"opponent mix {mix!r}: shares must be >= 0 with a positive sum")
        self.share = share / share.sum()
        self.pool_size = pool_size
        self.num_players = game.num_players
        self.rng = np.random.default_rng(seed)
        heuristic: Policy | None = None
        if self.share[1] > 0:
            from ..agents import heuristic_policy

            heuristic = heuristic_policy(game, seed=seed + 1)
        super().__init__([RandomPolicy(seed=seed + 2), heuristic])
        self.snapshots_added = 0

    @property
    def num_snapshots(self) -> int:
        return len(self.slots) - FIRST_SNAPSHOT_SLOT

    def add_snapshot(self, policy: Policy) -> None:
        """A frozen learner enters the pool, replacing the oldest once the pool is full."""
        if self.num_snapshots < self.pool_size:
            self.slots.append(policy)
        else:
            self.slots[FIRST_SNAPSHOT_SLOT + self.snapshots_added % self.pool_size] = policy
        self.snapshots_added += 1

    def draw(self, n: int) -> np.ndarray:
        """Slots for n seats, drawn by the mix; "self" picks a snapshot uniformly."""
        kind = self.rng.choice(len(OPPONENT_KINDS), size=n, p=self.share)
        slot = np.where(kind == 2, RANDOM_SLOT, HEURISTIC_SLOT)
        is_self = kind == 0
        if self.num_snapshots == 0:  # before the first snapshot: random stands in
            slot[is_self] = RANDOM_SLOT
        else:
            slot[is_self] = FIRST_SNAPSHOT_SLOT + self.rng.integers(
                self.num_snapshots, size=int(is_self.sum()))
        return slot

    def seat_slots(self, seats: np.ndarray) -> np.ndarray:
        return self.draw(len(seats) * self.num_players).reshape(len(seats), self.num_players)


class LatestSnapshot(Policy):
    """The learner's latest frozen copy, the random policy until the first: a "self" seat."""

    name = "self"

    def __init__(self, game: Game | None = None, seed: int | None = 0):
        self.policy: Policy = RandomPolicy(game, seed=seed)
        self.snapshots = 0

    def update(self, policy: Policy) -> None:
        self.policy = policy
        self.snapshots += 1

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return self.policy.act(obs, mask)

    def act_in(self, state, rows: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return self.policy.act_in(state, rows, obs, mask)

    def seed(self, seed: int | None) -> None:
        self.policy.seed(seed)


class FixedOpponents(PolicySlots):
    """The same table in every game: `policies[r - 1]` plays the seat r places after the
    learner's in seat order (r = 1 .. N-1). A policy given for several seats is one slot, played
    batched over all of them."""

    def __init__(self, policies: Sequence[Policy]):
        slots: list[Policy] = []
        for p in policies:
            if not any(p is q for q in slots):
                slots.append(p)
        super().__init__(slots)
        self.num_players = len(policies) + 1
        # slot by seat relative to the learner; the learner's own entry (0) is never played
        self.by_relative = np.array([0] + [next(i for i, q in enumerate(slots) if q is p)
                                           for p in policies], dtype=np.int64)

    def seat_slots(self, seats: np.ndarray) -> np.ndarray:
        relative = (np.arange(self.num_players)[None, :] - seats[:, None]) % self.num_players
        return self.by_relative[relative]

    def add_snapshot(self, policy: Policy) -> None:
        """The "self" seats are played by `policy` from now on."""
        selves = [p for p in self.slots if isinstance(p, LatestSnapshot)]
        if not selves:
            super().add_snapshot(policy)
        for p in selves:
            p.update(policy)

    def seed(self, seed: int) -> None:
        """Restart every policy's random stream (each its own, derived from `seed`)."""
        for i, p in enumerate(self.slots):
            if isinstance(p, Policy):
                p.seed(seed + i)

    def reset(self) -> None:
        """Forget the policies' per-game memory."""
        for p in self.slots:
            if isinstance(p, Policy):
                p.reset()


class SeatedGames:
    """B games of `game`, each seen from its learner's seat (`seat` [B]); every other seat is
    played inside by the policy in its slot of `opponents` (`opp` [B, N])."""

    def __init__(self, game: Game, num_games: int, opponents: PolicySlots):
        self.game = game
        self.opponents = opponents
        self.num_games = num_games
        self.rows = np.arange(num_games)
        self.state: BatchState | None = None
        self.seat = np.zeros(num_games, dtype=np.int64)  # the learner's seat per game
        self.opp = np.zeros((num_games, game.num_players), dtype=np.int64)  # slot per seat

    def start(self, idx: np.ndarray, seeds: np.ndarray, seats: np.ndarray) -> None:
        """Fresh games at rows `idx` (every row, the first time; later in place, so that a
        loop holding the state sees them): their seeds, the learners' seats, the opponents'
        slots."""
        if self.state is None:
            self.state = self.game.init(seeds)
        else:
            self.state[idx] = self.game.init(seeds)
        self.seat[idx] = seats
        self.opp[idx] = self.opponents.seat_slots(np.asarray(seats, dtype=np.int64))

    def check_learner(self, actions: np.ndarray, rows: np.ndarray | None = None,
                      lose_illegal: bool = False) -> np.ndarray:
        """ValueError naming the game, the action and what is allowed when one of the learner's
        actions (in `rows`, default all) is out of range, in a finished game or illegal; with
        `lose_illegal`, an illegal one is no error: the rows of those come back (int [k], for
        `lose`), nothing else is checked again. Nothing changes either way."""
        rows = self.rows if rows is None else rows
        a = actions[rows]
        ok = (a >= 0) & (a < self.game.num_actions)
        ok[ok] = self.state.legal_action_mask[rows[ok], a[ok]]
        if ok.all():
            return rows[:0]
        bad = rows[~ok]
        a = actions[bad]
        wrong = (a < 0) | (a >= self.game.num_actions) | self.state.done[bad]
        if lose_illegal and not wrong.any():
            return bad
        j = int(np.flatnonzero(wrong)[0]) if wrong.any() else 0
        b = int(bad[j])
        if self.state.done[b]:
            raise ValueError(f"{self.game.name}: game {b} is over; reset it before stepping")
        err = self.game._illegal_error(self.state, b, int(a[j]))
        raise ValueError(f"{err} (the learner's action: take the legal ones from "
                         "action_masks())") from None

    def lose(self, idx: np.ndarray) -> None:
        """The games at rows `idx` end now, lost by their learners' illegal actions: -1 for the
        learner and 0 for every other seat, as PettingZoo's TerminateIllegalWrapper scores it
        in the AEC `env()`."""
        state = self.state
        state.rewards[idx] = 0.0
        state.rewards[idx, self.seat[idx]] = -1.0
        state.terminated[idx] = True
        state.truncated[idx] = False
        state.current_player[idx] = -1
        state.legal_action_mask[idx] = False

    def learner_observation(self) -> np.ndarray:
        """float32 [B, obs_size]: what each game's learner sees now."""
        return self.game.observe(self.state, self.seat)

    def play_opponents(self, reward: np.ndarray, done: np.ndarray,
                       restart: Callable[[np.ndarray], None] | None = None) -> None:
        """Opponents move until every live game waits for its learner. Each step's learner
        rewards are added to `reward` [B] except in games flagged in `done` (the caller's; a
        restart may flag more). With `restart`, finished games are handed to it (a bool [B]
        of them) to be restarted; without, they stay finished."""
        state, game = self.state, self.game
        for _ in range(game.max_steps + 2):
            if restart is not None:
                over = state.done
                if over.any():
                    restart(over)
            turn = (state.current_player != self.seat) & ~state.done
            if not turn.any():
                return
            rows = np.flatnonzero(turn)
            cp = state.current_player[rows].astype(np.int64)
            # observing a copied sub-batch beats observing every game once few remain
            obs = game.observe(state[rows] if rows.size < self.num_games else state, cp)
            actions = np.zeros(self.num_games, dtype=np.int64)
            actions[rows] = self.opponents.act(self.opp[rows, cp], obs,
                                               state.legal_action_mask[rows], state, rows)
            game.step(state, actions, where=turn)
            reward += np.where(done, 0.0, state.rewards[self.rows, self.seat])
        raise RuntimeError(f"{game.name}: opponents did not hand the turn back within "
                           f"{game.max_steps} steps")
