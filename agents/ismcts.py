"""Information-set Monte Carlo tree search over the kernel's determinizations.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): one tree per move, over the
mover's information set. Each simulation draws a world that agrees with everything the mover
knows (`game.resample_hidden`), walks the tree down the actions legal in that world (PUCT:
the rollout policy's prior guides the first visits, the results then take over), adds one
node, plays the world to its end with the rollout policy and credits each node with the
result of the player who chose its action.

Simulations run in waves: a wave draws `wave` worlds for every game of the batch at once, so
the worlds are one kernel batch, and every step of the walk and of the rollouts is one
batched call of the compiled rules (and of the rollout policy). Only the choice at each tree
node is Python. Virtual loss (a visit counted when a node is chosen, its result added after
the rollout) spreads the simulations of one wave over the tree.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from .base import Policy, RandomPolicy, action_mask, play_out, win_shares

PRIOR_TRUST = 0.5  # the prior's weight on a bot's own move (the rest: uniform over legal)
TAIL = 0.05  # rollouts by a bot stop when this share of a wave's worlds is left (random ends)
EPS_PRIOR = 1e-3  # the prior of a move legal in this world but not where the node was made
ROLLOUT_MOVES = 200  # the moves a rollout policy plays unless told otherwise (then random ones)
# games whose heuristic is too slow to roll out with, and the moves their zoo entry plays in a
# rollout in its place (Vaults: 0.2 searched moves/s with the heuristic's rollouts; with 20
# moves of its 2-player entry, 2.2 moves/s and 100% of 20 games against the heuristic)
ZOO_ROLLOUTS = {"vaults": 20}


def default_rollout(game: Any) -> tuple[str, int]:
    """The rollout policy and its moves where none is asked for: the heuristic's ROLLOUT_MOVES,
    or, in a game of ZOO_ROLLOUTS, its zoo entry for this player count where one is shipped."""
    from . import zoo

    moves = ZOO_ROLLOUTS.get(zoo.short_name(game))
    if moves is not None and zoo.entry_for(game) in zoo.entries():
        return "zoo", moves
    return "heuristic", ROLLOUT_MOVES


class Node:
    """An action's node: visits, the summed results of the player who chose it, and the
    prior over the moves from it (set when a walk first reaches it)."""

    __slots__ = ("children", "n", "w", "prior")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.n = 0
        self.w = 0.0
        self.prior: np.ndarray | None = None


class ISMCTSPolicy(Policy):
    """Searches each move of the games it is given; plays the most visited root action.

    `simulations` per move, or a `time_ms` budget per call (both: whichever ends first; at
    least one wave runs). `rollout` is the policy that plays the worlds out: "heuristic",
    "random", a checkpoint or zoo name, or a Policy (by default the heuristic, 200 moves; in
    Vaults the zoo entry, 20: `default_rollout`); it plays `rollout_moves` moves at most,
    and uniformly random moves (compiled, fast) finish the game, as they finish the last
    TAIL of a wave's worlds: two bots that stall each other (a heuristic against itself can)
    cannot make a rollout run to the step bound, nor a few long games hold up a wave. The
    same policy gives the tree's priors. A result is the player's share of the win
    (1 / co-winners, 0 for a loss; a solo game: its objective met), so `c` is scaled for
    results in [0, 1].

    It needs the game state (it calls `act_in`, as every match loop of the project does); a
    bare `act(obs, mask)` has no state to search and is refused."""

    name = "ismcts"

    def __init__(self, game: Any, simulations: int | None = 200, time_ms: float | None = None,
                 rollout: str | Policy | None = None, wave: int = 25, c: float = 1.0,
                 rollout_moves: int | None = None, seed: int | None = 0):
        if rollout is None:
            rollout, moves = default_rollout(game)
            rollout_moves = moves if rollout_moves is None else rollout_moves
        elif rollout_moves is None:
            rollout_moves = ROLLOUT_MOVES
        if simulations is None and time_ms is None:
            raise ValueError("ismcts needs a budget: simulations, time_ms or both")
        if simulations is not None and int(simulations) < 1:
            raise ValueError(f"ismcts: simulations must be at least 1, got {simulations}")
        if time_ms is not None and float(time_ms) <= 0:
            raise ValueError(f"ismcts: time_ms must be positive, got {time_ms}")
        if int(wave) < 1:
            raise ValueError(f"ismcts: wave must be at least 1, got {wave}")
        if int(rollout_moves) < 0:
            raise ValueError(f"ismcts: rollout_moves must be non-negative, got {rollout_moves}")
        if float(c) < 0:
            raise ValueError(f"ismcts: c must be non-negative, got {c}")
        from . import make_policy  # the package's policy names, for the rollout policy

        self.game = game
        self.simulations = None if simulations is None else int(simulations)
        self.time_ms = None if time_ms is None else float(time_ms)
        self.wave, self.c, self.rollout_moves = int(wave), float(c), int(rollout_moves)
        self.rollout = make_policy(rollout, game, seed=seed) if isinstance(rollout, str) \
            else rollout
        self.rng = np.random.default_rng(seed)
        self.searched = 0  # moves searched and simulations run (for moves-per-second figures)
        self.simulated = 0

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)
        self.rollout.seed(None if seed is None else seed + 1)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        raise TypeError("ismcts searches the game state, which an observation does not hold: "
                        "call act_in(state, rows, obs, mask) (the project's match loops, envs "
                        "and play do)")

    def act_in(self, state, rows: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The searched action of each game `rows` of `state`; a move with one legal action
        is played without a search, a finished game gets 0."""
        rows = np.asarray(rows, np.int64)
        mask = action_mask(mask, self.game.num_actions, rows.size)
        legal = mask.sum(axis=1)
        out = mask.argmax(axis=1).astype(np.int64)  # the only legal action, or 0
        hard = np.flatnonzero(legal > 1)
        if hard.size:
            roots = state[rows[hard]]
            roots.legal_action_mask[:] = mask[hard]  # the moves the caller offers
            out[hard] = self.search(roots)
        return out

    # -- the search ---------------------------------------------------------------------------
    def search(self, roots) -> np.ndarray:
        """The action of each root (a batch of live games), by the visits of its tree."""
        game, B = self.game, roots.batch_size
        seats = roots.current_player.astype(np.int64)
        trees = [Node() for _ in range(B)]
        start, done = time.perf_counter(), 0
        while True:
            w = self.wave if self.simulations is None else min(self.wave,
                                                               self.simulations - done)
            if w <= 0 or (self.time_ms is not None and done
                          and (time.perf_counter() - start) * 1e3 >= self.time_ms):
                break
            idx = np.repeat(np.arange(B), w)
            worlds = game.resample_hidden(roots[idx], seats[idx],
                                          self.rng.integers(0, 2**62, size=idx.size))
            paths = self._walk(worlds, [trees[b] for b in idx])
            if not isinstance(self.rollout, RandomPolicy):
                play_out(game, worlds, self.rollout, max_steps=self.rollout_moves,
                         min_live=math.ceil(TAIL * idx.size))
            # the random rollouts, and the end of long ones: one compiled call for them all
            game.play_out_random(worlds, self.rng.integers(0, 2**62, size=idx.size))
            share = win_shares(game.winners(worlds))
            for i, path in enumerate(paths):
                for node, mover in path:
                    node.w += share[i, mover]
            done += w
        self.searched += B
        self.simulated += B * done
        out = np.empty(B, np.int64)
        for b, root in enumerate(trees):
            legal = np.flatnonzero(roots.legal_action_mask[b])
            out[b] = max(legal, key=lambda a: (root.children[a].n, root.children[a].w)
                         if a in root.children else (-1, 0.0))
        return out

    def _priors(self, worlds, rows: np.ndarray) -> np.ndarray:
        """float [k, A]: the rollout policy's prior over the legal moves of worlds `rows`:
        a network's softmax; for any other policy, PRIOR_TRUST on its move and the rest
        spread over the legal ones (uniform for the random policy)."""
        mask = worlds.legal_action_mask[rows]
        legal = mask / np.maximum(mask.sum(axis=1, keepdims=True), 1)
        if isinstance(self.rollout, RandomPolicy):
            return legal
        obs = self.game.observe(worlds[rows], worlds.current_player[rows].astype(np.int64))
        if hasattr(self.rollout, "logits"):
            z = np.where(mask, self.rollout.logits(obs), -np.inf)
            e = np.exp(z - z.max(axis=1, keepdims=True))
            return e / e.sum(axis=1, keepdims=True)
        moves = self.rollout.act_in(worlds, rows, obs, mask)
        prior = (1 - PRIOR_TRUST) * legal
        prior[np.arange(rows.size), moves] += PRIOR_TRUST
        return prior

    def _walk(self, worlds, nodes: list[Node]) -> list[list[tuple[Node, int]]]:
        """Walk every world down its tree, stepping the worlds (batched) as the walk goes,
        until each has added a node or ended; returns each walk's (node, chooser) pairs.
        The choice at a node is PUCT over the moves legal in that world: the mean result
        (the fair share 1/N before any), plus c * prior * sqrt(visits) / (1 + its visits)."""
        game, c = self.game, self.c
        q0 = 1.0 / game.num_players
        D = len(nodes)
        paths: list[list[tuple[Node, int]]] = [[] for _ in range(D)]
        walking = np.ones(D, bool)
        actions = np.zeros(D, np.int64)
        while True:
            walking &= ~(worlds.terminated | worlds.truncated)
            at = np.flatnonzero(walking)
            if at.size == 0:
                return paths
            fresh = [i for i in at.tolist() if nodes[i].prior is None]
            if fresh:  # the nodes first reached: their priors, batched
                for i, p in zip(fresh, self._priors(worlds, np.array(fresh, np.int64))):
                    if nodes[i].prior is None:  # (two walks of a wave may share a node)
                        nodes[i].prior = p
            masks = worlds.legal_action_mask[at]
            movers = worlds.current_player[at].tolist()
            for j, i in enumerate(at.tolist()):
                node = nodes[i]
                kids, prior = node.children, node.prior
                legal = np.flatnonzero(masks[j]).tolist()
                total = 0
                for a in legal:
                    k = kids.get(a)
                    if k is not None:
                        total += k.n
                root_n = math.sqrt(total + 1)
                best, a = -1.0, legal[0]
                for x in legal:
                    k = kids.get(x)
                    n = 0 if k is None else k.n
                    q = k.w / n if n else q0
                    u = q + c * (prior[x] or EPS_PRIOR) * root_n / (1 + n)
                    if u > best:
                        best, a = u, x
                child = kids.get(a)
                if child is None:  # a new node: the walk ends, the rollout starts
                    child = kids[a] = Node()
                    walking[i] = False
                child.n += 1  # virtual loss until the rollout's result comes back
                paths[i].append((child, movers[j]))
                nodes[i] = child
                actions[i] = a
            where = np.zeros(D, bool)
            where[at] = True
            game.step(worlds, actions, where=where)


def parse_spec(spec: str) -> dict[str, Any]:
    """"ismcts" or "ismcts:simulations=1000,rollout=random" -> the keyword arguments."""
    _, _, rest = spec.partition(":")
    kwargs: dict[str, Any] = {}
    allowed = {"simulations": int, "time_ms": float, "rollout": str, "wave": int, "c": float,
               "rollout_moves": int}
    for part in filter(None, rest.split(",")):
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or key not in allowed:
            raise ValueError(f"bad ismcts option {part!r} in {spec!r}: use "
                             f"ismcts:key=value,... with keys {', '.join(allowed)}")
        try:
            kwargs[key] = allowed[key](value.strip())
        except ValueError:
            raise ValueError(f"ismcts option {key} must be {allowed[key].__name__}, got "
                             f"{value!r}") from None
    return kwargs
