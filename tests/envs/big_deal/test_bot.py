"""The heuristic bot beats the random policy clearly at every player count, playing every seat."""

from __future__ import annotations

import numpy as np
import pytest
from heistbench.agents import make_policy
from heistbench.envs import big_deal_v0


def win_rate(num_players: int, games: int, **options) -> float:
    """Heuristic in seat b % N of game b, random elsewhere; fraction of games it wins."""
    game = big_deal_v0.Game(num_players=num_players, validate=False, **options)
    bot, rand = make_policy("heuristic", game, seed=1), make_policy("random", game, seed=2)
    state = game.init(np.arange(games) + 5000)
    seat = np.arange(games) % num_players
    while not state.done.all():
        live = np.flatnonzero(~state.done)
        cur = state.current_player[live].astype(np.int64)
        obs = game.observe(state[live], cur)
        mask = state.legal_action_mask[live]
        mine = cur == seat[live]
        act = np.zeros(games, np.int64)
        if mine.any():
            act[live[mine]] = bot.act(obs[mine], mask[mine])
        if (~mine).any():
            act[live[~mine]] = rand.act(obs[~mine], mask[~mine])
        game.step(state, act)
    return float(game.winners(state)[np.arange(games), seat].mean())


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_heuristic_beats_random(n):
    # random would win 1/n; at 120 games a bot no better than random reaches 3/n (capped at
    # 0.8) with a vanishing probability
    assert win_rate(n, 120) >= min(0.8, 3 / n)


def test_heuristic_beats_random_in_the_shark_variant():
    assert win_rate(4, 80, shark=True) >= 0.6
