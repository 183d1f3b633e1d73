"""The heuristic bot beats random play in >= 90% of 2-player games (seats rotated)."""

import numpy as np
from heistbench.agents import make_policy
from heistbench.envs.vaults.kernel import Vaults


def play_match(n_games: int, num_players: int, seed: int) -> np.ndarray:
    """Heuristic in seat b % N of game b, random elsewhere; True where the heuristic won."""
    game = Vaults(num_players=num_players, validate=False)
    bot, rnd = make_policy("heuristic", game, seed), make_policy("random", game, seed + 1)
    st = game.init(np.arange(n_games) + 10_000 * seed)
    seat = np.arange(n_games) % num_players
    total = np.zeros((n_games, num_players), np.float32)
    while not st.done.all():
        live = ~st.done
        cur = np.where(live, st.current_player, 0).astype(np.int64)
        obs, mask = game.observe(st, cur), st.legal_action_mask
        a = np.zeros(n_games, np.int64)
        mine = live & (cur == seat)
        other = live & ~mine
        if mine.any():
            a[mine] = bot.act(obs[mine], mask[mine])
        if other.any():
            a[other] = rnd.act(obs[other], mask[other])
        game.step(st, a)
        total += st.rewards
    assert st.terminated.all()
    return total[np.arange(n_games), seat] > 0


def test_heuristic_beats_random_two_players():
    wins = play_match(240, 2, seed=3)
    # with 240 games a true rate of 0.85 passes the 0.9 bar with probability < 1 %
    assert wins.mean() >= 0.9, wins.mean()
