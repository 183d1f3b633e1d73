"""The policy interface every agent implements, and the uniform random policy."""

from __future__ import annotations

import numpy as np

from ..envs.core.sampling import sample_legal_batch


class Policy:
    """Plays any seat of a game, batched: `act(obs [B, D], mask [B, A]) -> actions [B]`.

    A row of a finished game (an all-False mask) gets some action (0), so that a batch loop
    may pass every game of its batch; the kernel ignores the actions of finished games."""

    name: str = "policy"
    rng: np.random.Generator | None = None  # the stream of a policy that draws at random

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def act_in(self, state, rows: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """`act` for the games `rows` of a batch `state` whose players to move see `obs`: the
        entry point of every match loop. A policy that searches the game (ISMCTS) overrides
        it to read the state; the others only look at the observation."""
        return self.act(obs, mask)

    def reset(self) -> None:
        """Forget per-game memory (policies that keep none need not override)."""

    def seed(self, seed: int | None) -> None:
        """Restart the policy's random stream, so that a seeded env replays its opponents'
        moves too (policies that draw nothing at random have none to restart)."""
        if self.rng is not None:
            self.rng = np.random.default_rng(seed)


def action_mask(mask: np.ndarray, num_actions: int | None = None,
                rows: int | None = None) -> np.ndarray:
    """bool [B, A] from a mask or one row; any other shape (or A other than `num_actions`, B
    other than the `rows` of the observations) is refused here rather than deep in a policy."""
    m = np.asarray(mask, dtype=bool)
    m = m[None] if m.ndim == 1 else m
    if (m.ndim != 2 or (num_actions is not None and m.shape[1] != num_actions)
            or (rows is not None and m.shape[0] != rows)):
        want = f"[{'B' if rows is None else rows}, {num_actions or 'A'}]"
        raise ValueError(f"the action mask must be bool {want} (or one row), got shape "
                         f"{np.shape(mask)}")
    return m


def greedy_legal(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """int64 [B]: each row's legal action of highest value (a network's logits or Q-values);
    0 for a row with none (a finished game), whose values are all -inf."""
    return np.where(action_mask(mask), values, -np.inf).argmax(axis=1).astype(np.int64)


def choose_from_logits(logits: np.ndarray, mask: np.ndarray, rng: np.random.Generator,
                       deterministic: bool = False) -> np.ndarray:
    """int64 [B]: a legal action per row, sampled from softmax(logits) over the legal ones
    (Gumbel-max), or the best one when `deterministic`; 0 for a row with none (a finished
    game: all -inf). The choice rule of every network policy (torch or NumPy)."""
    z = np.where(mask, logits, -np.inf)
    if not deterministic:
        z = z - np.log(-np.log(rng.random(z.shape)))
    return z.argmax(axis=1).astype(np.int64)


def sample_legal(mask: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The action of rank floor(u * #legal) among each row's legal actions; 0 for a row with
    none (a finished game). Compiled: one pass over the batch's mask."""
    mask = action_mask(mask)
    u = np.asarray(u, dtype=np.float64)
    if u.shape != (mask.shape[0],):
        raise ValueError(f"one uniform per mask row is needed: {mask.shape[0]}, got shape "
                         f"{u.shape}")
    return sample_legal_batch(mask, u)


class ObservationBot(Policy):
    """Base of the heuristic bots: rules over the acting seat's own observation, batched."""

    name = "heuristic"

    def __init__(self, game, seed: int | None = 0):
        self.game = game
        self.n = game.num_players
        self.rng = np.random.default_rng(seed)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The bot's `decide` on the rows of live games; 0 for those of finished games."""
        obs = np.atleast_2d(obs)
        mask = action_mask(mask, self.game.num_actions, obs.shape[0])
        live = mask.any(axis=1)
        if live.all():
            return self.decide(self.fields(obs), mask)
        out = np.zeros(mask.shape[0], np.int64)
        if live.any():
            out[live] = self.decide(self.fields(obs[live]), mask[live])
        return out

    def fields(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        """The acting seat's own view by field name (the first block of an oracle
        observation, so a bot never uses what the rules hide)."""
        return self.game.base_observation_layout.decode(obs[:, :self.game.base_obs_size])

    def decide(self, f: dict[str, np.ndarray], mask: np.ndarray) -> np.ndarray:
        """Actions [B] from the decoded views and a bool mask [B, A] with a legal action in
        every row (subclasses)."""
        raise NotImplementedError

    def decide_by_rules(self, f: dict[str, np.ndarray], mask: np.ndarray,
                        rules: dict) -> np.ndarray:
        """`decide` by a table {decision id: rule(self, fields, mask) -> actions} over the
        `meta.decision` one-hot: each rule plays the rows of its decision; a row no rule
        covers, or whose rule proposes an illegal action, plays a random legal one."""
        decision = f["meta.decision"].argmax(axis=1)
        out = sample_legal(mask, self.rng.random(len(mask)))
        for d, rule in rules.items():
            sel = np.flatnonzero(decision == d)
            if sel.size:
                sub = {k: v[sel] for k, v in f.items()}
                a = rule(self, sub, mask[sel])
                ok = mask[sel, a]
                out[sel[ok]] = a[ok]
        return out


def win_shares(winners: np.ndarray) -> np.ndarray:
    """float64 [B, N]: each seat's share of the win, 1 / (number of co-winners) or 0 (the
    credit of the evaluation, the tournaments and the search's results)."""
    w = np.asarray(winners, np.float64)
    return w / np.maximum(w.sum(axis=1, keepdims=True), 1.0)


def play_out(game, state, policies, seating: np.ndarray | None = None,
             max_steps: int | None = None, min_live: int = 1) -> np.ndarray:
    """Play the games of `state` to their end, in place: seat s of game g is played by
    `policies[seating[g, s]]` (one policy: every seat), each policy batched over its rows.
    Returns the float64 [B, N] rewards collected on the way. The loop of every match and of
    a search's rollouts; those stop after `max_steps` steps, or once fewer than `min_live`
    games are left (a batched call costs about the same for a few rows as for many)."""
    if isinstance(policies, Policy):
        policies = [policies]
    B = state.batch_size
    total = np.zeros((B, game.num_players), dtype=np.float64)
    actions = np.zeros(B, dtype=np.int64)
    for _ in range((game.max_steps if max_steps is None else max_steps) + 1):
        rows = np.flatnonzero(~(state.terminated | state.truncated))
        if rows.size < max(min_live, 1):
            break
        cp = state.current_player[rows].astype(np.int64)
        obs = game.observe(state if rows.size == B else state[rows], cp)
        mask = state.legal_action_mask[rows]
        who = np.zeros(rows.size, np.int64) if seating is None else seating[rows, cp]
        actions[:] = 0
        for p in np.unique(who):
            sel = who == p
            actions[rows[sel]] = policies[p].act_in(state, rows[sel], obs[sel], mask[sel])
        game.step(state, actions)
        total += state.rewards
    return total


class RandomPolicy(Policy):
    """Uniform over the legal actions."""

    name = "random"

    def __init__(self, game=None, seed: int | None = 0):
        self.num_actions = None if game is None else game.num_actions
        self.rng = np.random.default_rng(seed)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        mask = action_mask(mask, self.num_actions)
        return sample_legal(mask, self.rng.random(mask.shape[0]))


def hypergeom_tail(total: np.ndarray, good: np.ndarray, draws: np.ndarray,
                    need: np.ndarray) -> np.ndarray:
    """P[at least `need` of `draws` draws without replacement are `good`], vectorized."""
    b = len(total)
    kmax = int(draws.max(initial=0))
    dist = np.zeros((b, kmax + 1))
    dist[:, 0] = 1.0
    for i in range(kmax):
        live = i < draws
        left = np.maximum(total - i, 1)[:, None]
        x = np.arange(kmax + 1)[None, :]
        p = np.clip((good[:, None] - x) / left, 0, 1)
        step = np.zeros_like(dist)
        step[:, 1:] += dist[:, :-1] * p[:, :-1]
        step += dist * (1 - p)
        dist = np.where(live[:, None], step, dist)
    x = np.arange(kmax + 1)[None, :]
    return (dist * (x >= need[:, None])).sum(axis=1)
