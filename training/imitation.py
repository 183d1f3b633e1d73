"""A warm start for self-play: before PPO, the learner copies a bot (behaviour cloning).

From a random start, PPO meets a strong heuristic as an opponent that wins almost every game,
so most of its games end in the same loss and it learns little beyond beating random play
(Big Deal: 0.6% against the heuristic after 2M steps; Bad Company: 17.6%). Copying the bot
first gives PPO a learner that already plays as well as the bot, and a critic that already
knows what the bot's positions are worth, so self-play starts where the bot stops.

The bot plays every seat of batches of games (seeds far from the training and evaluation
seeds). A share `KEEP` of its decisions is kept: the mover's observation, its legal moves,
the bot's move and the mover's return from there to the end. The actor is fitted to the
moves (cross-entropy over the legal moves, as MaskablePPO masks them) and the critic to the
returns, a round of games at a time, so that memory holds one round (Vaults observations are
6,502-12,244 floats). For a critic that sees the hidden state (`networks.OracleCriticPolicy`)
the kept observation is the mover's `critic_view`, whose first columns are its own view.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..agents.base import Policy, play_out
from ..envs.core import Game

KEEP = 0.25  # share of the bot's decisions kept: neighbouring positions of a game are alike
ROUND_GAMES = 256  # games played per round at most: a round's samples are fitted, then dropped
ROUND_BYTES = 1 << 29  # a round's observations, about: rounds shrink for wide observations
SEED_BASE = 1 << 42  # bot-game seeds: a block per run seed, apart from training and evaluation


@dataclass
class Round:
    """The kept decisions of one round of the bot's games."""

    obs: np.ndarray  # float32 [K, D]  the mover's observation (or its critic view)
    mask: np.ndarray  # bool [K, A]  its legal moves
    action: np.ndarray  # int64 [K]  the bot's move
    ret: np.ndarray  # float32 [K]  the mover's reward from this decision to the game's end


class _Recorder(Policy):
    """Plays every seat of one round inside `play_out`: the bot names its move for each
    mover, `player` (or else the bot) moves, and a share `keep` of the non-forced decisions
    is kept with the reward the mover had collected before it (and where `view` is given,
    the mover's `view(state, seat)`, e.g. its critic view, in place of its observation)."""

    def __init__(self, bot: Policy, player: Policy | None, rng: np.random.Generator,
                 keep: float, shape: tuple[int, int],
                 view: Callable[[Any, np.ndarray], np.ndarray] | None = None):
        self.bot, self.player, self.rng, self.keep = bot, player, rng, keep
        self.view = view
        self.got = np.zeros(shape)  # rewards collected so far, per game and seat
        self.kept: list[tuple[np.ndarray, ...]] = []

    def act_in(self, state, rows: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        self.got += state.rewards  # play_out asks once a step: the last step's rewards
        labels = self.bot.act_in(state, rows, obs, mask)
        k = (self.rng.random(rows.size) < self.keep) & (mask.sum(axis=1) > 1)
        if k.any():  # a forced move teaches nothing
            seat = state.current_player[rows[k]].astype(np.int64)
            seen = obs[k] if self.view is None else self.view(state[rows[k]], seat)
            self.kept.append((seen, mask[k], labels[k], rows[k], seat, self.got[rows[k], seat]))
        return labels if self.player is None else self.player.act_in(state, rows, obs, mask)


def bot_rounds(game: Game, bot: Policy, seed: int, keep: float = KEEP,
               games: int = ROUND_GAMES,
               driver: Callable[[], Policy | None] | None = None,
               oracle: bool = False) -> Iterator[Round]:
    """Endless rounds of games of `bot` against itself; each yields the kept decisions once
    its games have ended (their returns are known then). Where `driver()` gives a policy
    for a round, that policy plays the round's moves in every seat and the bot only names
    its own move in each position (DAgger's labels); with `oracle` the rounds keep the
    movers' critic views. A round has `games` games at most, fewer where their observations
    would pass ROUND_BYTES (a 1,000-move Vaults game keeps about 7 MB): the first round has
    32 at most, the next are sized by it."""
    rng = np.random.default_rng(seed)
    next_seed = SEED_BASE + (seed % (1 << 20)) * (1 << 32)
    cap, games = games, min(games, 32)
    while True:
        rec = _Recorder(bot, None if driver is None else driver(), rng, keep,
                        (games, game.num_players), game.critic_view if oracle else None)
        bot.reset()
        state = game.init(np.arange(next_seed, next_seed + games, dtype=np.int64))
        next_seed += games
        total = play_out(game, state, rec)
        kept = sum(len(part[2]) for part in rec.kept)
        nbytes = sum(part[0].nbytes for part in rec.kept)  # the observations kept
        games = int(np.clip(ROUND_BYTES // (max(nbytes, 1) / games), 1, cap))
        if not kept:
            continue
        obs, mask, act, row, seat, before = (np.concatenate(c) for c in zip(*rec.kept))
        yield Round(obs.astype(np.float32, copy=False), mask, act,
                    (total[row, seat] - before).astype(np.float32))


def fit_figures(sb3_policy: Any, rnd: Round, n: int | None = None) -> tuple[float, float]:
    """How well an SB3 policy fits the first `n` decisions of a round: the share where its
    most likely move is the bot's, and its critic's mean squared error on the returns."""
    import torch

    n = len(rnd.action) if n is None else n
    obs, act = torch.as_tensor(rnd.obs[:n]), torch.as_tensor(rnd.action[:n])
    with torch.no_grad():
        values = sb3_policy.predict_values(obs).flatten()
        dist = sb3_policy.get_distribution(obs, action_masks=rnd.mask[:n])
        agree = (dist.distribution.probs.argmax(dim=1) == act).float().mean()
        mse = ((values - torch.as_tensor(rnd.ret[:n])) ** 2).mean()
    return float(agree), float(mse)


def imitate(sb3_policy: Any, game: Game, bot: Policy, decisions: int, epochs: int = 2,
            batch_size: int = 2048, learning_rate: float = 3e-4, vf_coef: float = 0.5,
            max_grad_norm: float = 0.5, dagger: float = 0.0, seed: int = 0,
            oracle: bool = False, progress: bool = True,
            log: Callable[[str], None] = print) -> dict[str, float]:
    """Fit an SB3 MaskablePPO policy to `bot`'s play, in place: `decisions` kept decisions,
    each seen `epochs` times. The last `dagger` share of them comes from games the policy
    plays itself, the bot naming its move in each position (DAgger, Ross et al. 2011): a
    copy's small errors lead it where the bot never goes, and there it learns the way back.
    Returns the last round's figures: the agreement of the policy's most likely move with
    the bot's on the round before it was fitted (held out), and the critic's mean squared
    error on it. `oracle`: the policy is an `OracleCriticPolicy`, fitted on critic views."""
    import torch
    from tqdm import tqdm

    from ..agents.model import ModelPolicy

    if decisions <= 0 or epochs <= 0:
        raise ValueError(f"imitate needs positive decisions and epochs, got {decisions} "
                         f"and {epochs}")
    if not 0.0 <= dagger <= 1.0:
        raise ValueError(f"imitate: dagger is a share of the decisions, in [0, 1]; got {dagger}")
    params = [p for p in sb3_policy.parameters() if p.requires_grad]
    opt = torch.optim.Adam(params, lr=learning_rate)
    sb3_policy.set_training_mode(True)
    seen, agree, value_mse = 0, math.nan, math.nan
    bar = tqdm(total=decisions, unit="move", unit_scale=True, disable=not progress,
               desc=f"imitate {bot.name}")
    gen = torch.Generator().manual_seed(seed)

    def driver() -> Policy | None:
        """The policy itself, once the bot's own games have given their share."""
        if seen < (1.0 - dagger) * decisions:
            return None
        return ModelPolicy.from_sb3(sb3_policy, seed=seed + seen)

    for rnd in bot_rounds(game, bot, seed, driver=driver, oracle=oracle):
        n = min(len(rnd.action), decisions - seen)
        obs = torch.as_tensor(rnd.obs[:n])
        act = torch.as_tensor(rnd.action[:n])
        ret = torch.as_tensor(rnd.ret[:n])
        mask = rnd.mask[:n]
        agree, value_mse = fit_figures(sb3_policy, rnd, n)  # held out: not fitted yet
        for _ in range(epochs):
            for idx in torch.randperm(n, generator=gen).split(batch_size):
                values, logp, _ = sb3_policy.evaluate_actions(obs[idx], act[idx],
                                                              action_masks=mask[idx.numpy()])
                loss = -logp.mean() + vf_coef * ((values.flatten() - ret[idx]) ** 2).mean()
                opt.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(params, max_grad_norm)
                opt.step()
        seen += n
        bar.update(n)
        bar.set_postfix(agree=f"{agree:.3f}", value_mse=f"{value_mse:.3f}")
        if seen >= decisions:
            break
    bar.close()
    sb3_policy.set_training_mode(False)
    log(f"imitated {bot.name} on {seen:,} decisions: the policy's first choice is the bot's "
        f"move in {100 * agree:.1f}% of unseen positions; critic MSE {value_mse:.3f}")
    return {"decisions": float(seen), "agreement": agree, "value_mse": value_mse}
