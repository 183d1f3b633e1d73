"""The heuristic bot beats the random policy clearly, playing every seat."""

from __future__ import annotations

import numpy as np
from heistbench.agents import make_policy
from heistbench.envs import grifters_v1

GAMES = 400


def win_rate(num_players: int, games: int = GAMES) -> float:
    """Heuristic in seat b % N of game b, random elsewhere; fraction of games it wins."""
    game = grifters_v1.Game(num_players=num_players, validate=False)
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


def test_heuristic_beats_random_two_players():
    # 400 games over both seats: a bot no better than random (50%) reaches 90% with
    # probability far below 1e-50
    assert win_rate(2) >= 0.9


def test_heuristic_beats_random_four_players():
    assert win_rate(4, 200) >= 0.5  # random would win 25%
