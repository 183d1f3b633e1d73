"""The batch drivers: loops over the games of a batch that call one game's scalar rules.

This file is loaded once per game (`jit.load_drivers`) with that game's rule functions as
module globals; a game supplies, each compiled, over one game's record `g` and the game's
config record `c`:

    setup(g, c)              a fresh game from g.key, up to its first automatic state
    resume(g, c)             automatic play up to the next decision (its mask set) or the end
    apply(g, a, c)           one decision (the drivers then call `resume`)
    refresh_mask(g, c)       recompute the mask of the pending decision (after a resample)
    asked_always(g, c)       the pending decision is put to its player even when it has one
                             legal action (optional; `load_drivers` supplies "never")
    observe(g, seat, out, c) write seat's float32 observation into the row `out`
    scores(g, out, c)        the final tally per player
    rank_keys(g, out, c)     int64 per player, higher ranks better, equal = tied

The drivers add what every game shares: validation before anything changes, forced
single-option decisions (`auto_forced`), the rewards of a finished game's tally (the rules
end a game with `scalar.game_over`), the step bound (and, where a game asks for it, the
rewards of a truncated game's tally so far), and a threaded variant of each loop.
"""

import numpy as np
from heistbench.envs.core.scalar import (
    prefetch,
    prefetch_row,
    single_legal,
    terminal_rewards,
    uniform,
)
from numba import njit, prange

# games ahead whose record a serial loop asks the cache for (`scalar.prefetch`); the
# parallel loops go without: inside numba's parallel loop it changed results, which a hint
# must never do (the thread-count test caught it), so it stays out there until understood
AHEAD = 2


@njit(cache=True, inline="always")
def settle(g, c):
    """Play forced single-option decisions (with auto_forced) unless the game asks them
    always, then apply the step bound; a game that ended by the rules in this call gets the
    rewards of its final tally."""
    if c.auto_forced:
        for _ in range(c.max_steps):
            if g.terminated or asked_always(g, c):  # noqa: F821  (injected)
                break
            a = single_legal(g.legal_action_mask)
            if a < 0:
                break
            apply(g, a, c)  # noqa: F821  (injected)
            resume(g, c)  # noqa: F821
    if g.terminated:
        tally_rewards(g, c)
    elif not g.truncated and g.steps >= c.max_steps:
        g.truncated = 1
        g.current_player = -1
        g.legal_action_mask[:] = 0
        if c.truncation_scored:  # a game's option truncation_reward="provisional"
            tally_rewards(g, c)


@njit(cache=True)
def tally_rewards(g, c):
    """The rewards of the game's tally now: its end, or a truncated game's as if it ended
    now."""
    keys = np.zeros(c.num_players, np.int64)
    sc = np.zeros(c.num_players, np.int64)
    rank_keys(g, keys, c)  # noqa: F821  (injected)
    scores(g, sc, c)  # noqa: F821
    terminal_rewards(g.rewards, keys, sc, c.reward_kind, c.score_scale)


INIT, STEP, RESUME = 0, 1, 2  # what `play_batch` does to each game


@njit(cache=True, inline="always")
def is_live(g, where, i):
    if g.terminated or g.truncated:
        return False
    return where.shape[0] == 0 or where[i] != 0


@njit(cache=True)
def first_illegal(states, actions, where, c):
    """The first live game whose action is out of range or illegal, or -1."""
    for i in range(states.shape[0]):
        g = states[i]
        if is_live(g, where, i):
            a = actions[i]
            if a < 0 or a >= c.num_actions or g.legal_action_mask[a] == 0:
                return i
    return -1


@njit(cache=True, inline="always")
def play_one(g, i, mode, actions, keys, where, c):
    """Game i of a batch: set up (INIT), one decision (STEP), or automatic play (RESUME).
    Straight-line code, no early return: it is also the body of a parallel loop."""
    if mode == STEP:
        g.rewards[:] = 0
    if mode == INIT:
        g.key = keys[i]
        setup(g, c)  # noqa: F821  (injected)
    if mode == INIT or is_live(g, where, i):
        if mode == STEP:
            apply(g, actions[i], c)  # noqa: F821
            g.steps += 1
        resume(g, c)  # noqa: F821
        settle(g, c)


@njit(cache=True, inline="always")
def look(g, view, obs, c):
    """What the AEC env reads of its game after each step, into its view record: `turn` =
    (current player, terminated, truncated), the last step's rewards and the int8 mask; and
    into `obs`, if it has a row, the observation of the player to move (the env's next
    `observe`: one compiled call per agent step instead of two)."""
    view.turn[0], view.turn[1], view.turn[2] = g.current_player, g.terminated, g.truncated
    view.rewards[:] = g.rewards
    view.mask[:] = g.legal_action_mask
    if obs.shape[0] and g.current_player >= 0:
        observe(g, g.current_player, obs[0], c)  # noqa: F821  (injected)


@njit(cache=True)
def play_batch(states, mode, actions, keys, where, cfg, view, obs):
    """Set up, step or resume every game (the live ones in `where`, if given). A step first
    checks every action: it returns the first game with an illegal one, and then nothing has
    changed; otherwise -1. With a `view` row (a batch of one: the AEC env), `look` fills it
    and `obs` afterwards, in the same call."""
    c = cfg[0]
    if mode == STEP:
        bad = first_illegal(states, actions, where, c)
        if bad >= 0:
            return bad
    n = states.shape[0]
    for i in range(n):
        if i + AHEAD < n:
            prefetch(states, i + AHEAD)
        play_one(states[i], i, mode, actions, keys, where, c)
    if view.shape[0]:
        look(states[0], view[0], obs, c)
    return -1


@njit(cache=True, parallel=True)
def play_batch_threads(states, mode, actions, keys, where, cfg):
    """`play_batch` with the games spread over threads, for batches (never the AEC env's
    batch of one: no view). The config record is read inside the loop: numba's parallel
    loops cannot take a record from outside."""
    if mode == STEP:
        bad = first_illegal(states, actions, where, cfg[0])
        if bad >= 0:
            return bad
    for i in prange(states.shape[0]):
        play_one(states[i], i, mode, actions, keys, where, cfg[0])
    return -1


PLAYOUT_STREAM = 101  # the random stream of `playout_batch`'s moves (the rules use 0..)


@njit(cache=True)
def playout_batch(states, keys, cfg):
    """Play every live game to its end by uniformly random legal moves, drawn from key
    `keys[i]` (a search's rollouts: one call for the whole batch). Each move is a step as
    `play_batch` makes it, so the last step's rewards are the game's terminal rewards."""
    c = cfg[0]
    legal = np.empty(c.num_actions, np.int64)
    for i in range(states.shape[0]):
        g = states[i]
        k = 0
        while not (g.terminated or g.truncated):
            n = 0
            for a in range(c.num_actions):
                legal[n] = a
                n += g.legal_action_mask[a] != 0
            if n == 0:
                break
            u = uniform(keys[i], PLAYOUT_STREAM, k)
            k += 1
            g.rewards[:] = 0
            apply(g, legal[min(int(u * n), n - 1)], c)  # noqa: F821  (injected)
            g.steps += 1
            resume(g, c)  # noqa: F821
            settle(g, c)


@njit(cache=True)
def observe_batch(states, seats, out, cfg):
    c = cfg[0]
    n = states.shape[0]
    for i in range(n):
        if i + AHEAD < n:
            prefetch(states, i + AHEAD)
            prefetch_row(out, i + AHEAD)
        observe(states[i], seats[i], out[i], c)  # noqa: F821


@njit(cache=True, parallel=True)
def observe_batch_threads(states, seats, out, cfg):
    for i in prange(states.shape[0]):
        observe(states[i], seats[i], out[i], cfg[0])  # noqa: F821


@njit(cache=True)
def refresh_mask_batch(states, where, cfg):
    c = cfg[0]
    for i in range(states.shape[0]):
        g = states[i]
        if is_live(g, where, i):
            refresh_mask(g, c)  # noqa: F821


@njit(cache=True)
def scores_batch(states, out, cfg):
    c = cfg[0]
    for i in range(states.shape[0]):
        scores(states[i], out[i], c)  # noqa: F821


@njit(cache=True)
def rank_keys_batch(states, out, cfg):
    c = cfg[0]
    for i in range(states.shape[0]):
        rank_keys(states[i], out[i], c)  # noqa: F821
