"""The shared random-policy sampler, and every policy on batches holding finished games."""

from __future__ import annotations

import numpy as np
import pytest
from heistbench.agents import make_policy, sample_legal

from heistbench import envs


def test_sample_legal_picks_the_ranked_legal_action():
    """Row by row, the action of rank floor(u * #legal) among the legal ones; 0 for an empty
    row (a finished game); a mask of the wrong shape is refused."""
    rng = np.random.default_rng(3)
    mask = rng.random((200, 37)) < 0.2
    mask[np.arange(200), rng.integers(0, 37, 200)] = True
    u = rng.random(200)
    u[:2] = 0.0, np.nextafter(1.0, 0.0)
    picked = sample_legal(mask, u)
    for row, action, x in zip(mask, picked, u):
        legal = np.flatnonzero(row)
        assert action == legal[int(x * legal.size)]
    mask[7] = False
    again = sample_legal(mask, u)
    assert again[7] == 0 and (np.delete(again, 7) == np.delete(picked, 7)).all()
    assert (sample_legal(np.zeros((3, 5), bool), u[:3]) == 0).all()
    with pytest.raises(ValueError, match="action mask must be"):
        sample_legal(np.ones((2, 3, 4), bool), u[:2])
    strided = np.zeros((200, 2, 37), bool)  # a view into records, as a state's mask is
    strided[:, 1] = mask
    assert (sample_legal(strided[:, 1], u) == again).all()
    with pytest.raises(ValueError, match="one uniform per mask row"):
        sample_legal(mask, u[:5])


@pytest.mark.parametrize("name", envs.GAMES)
def test_policies_take_rows_of_finished_games(name, partly_finished):
    """act() on every game of a batch: 0 for the finished ones (all-False mask rows), a legal
    action for the others; a mask of the wrong width is refused."""
    game = envs.game(name, num_players=2)
    state = partly_finished(game)
    obs, mask, over = game.observe(state, state.current_player), state.legal_action_mask, state.done
    for spec in ("random", "heuristic"):
        policy = make_policy(spec, game)
        a = policy.act(obs, mask)
        assert a.shape == (state.batch_size,) and (a[over] == 0).all()
        assert mask[~over, a[~over]].all()
        assert (policy.act(obs[over], mask[over]) == 0).all()
        with pytest.raises(ValueError, match="action mask must be"):
            policy.act(obs, mask[:, :-1])


@pytest.mark.parametrize("spec", ["random", "heuristic"])
def test_seed_restarts_a_policys_random_stream(spec):
    game = envs.game("big_score", num_players=3)
    state = game.init(np.arange(64))
    obs, mask = game.observe(state, state.current_player), state.legal_action_mask
    policy = make_policy(spec, game, seed=1)
    policy.seed(5)
    first = [policy.act(obs, mask) for _ in range(3)]
    policy.seed(5)
    np.testing.assert_array_equal(first, [policy.act(obs, mask) for _ in range(3)])


def test_greedy_legal_takes_the_best_legal_action_and_0_for_a_finished_row():
    from heistbench.agents.base import greedy_legal

    values = np.array([[5.0, 1.0, 2.0], [5.0, 1.0, 2.0], [0.0, 9.0, 1.0]])
    mask = np.array([[False, True, True], [False, False, False], [True, True, False]])
    np.testing.assert_array_equal(greedy_legal(values, mask), [2, 0, 1])
    with pytest.raises(ValueError, match="action mask"):
        greedy_legal(values, np.ones((3, 3, 1), bool))
