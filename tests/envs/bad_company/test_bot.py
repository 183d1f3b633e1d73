"""The heuristic bot beats the random policy clearly at every player count, seats rotated."""

from __future__ import annotations

import numpy as np
import pytest
from heistbench.agents import make_policy
from heistbench.envs import bad_company_v1
from heistbench.training.evaluate import evaluate


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_heuristic_beats_random(n):
    game = bad_company_v1.Game(num_players=n, validate=False)
    row = evaluate(game, make_policy("heuristic", game, seed=1), make_policy("random", game,
                                                                              seed=2),
                   games=30 * n)
    # a random seat wins 1/n of the games; the bot wins most of them at every table size
    assert row.ci_low > max(0.6, 1.5 / n), row


def test_heuristic_reads_only_its_own_view():
    plain = bad_company_v1.Game(num_players=3)
    oracle = bad_company_v1.Game(num_players=3, reveal_hidden=True)
    s = plain.init(np.arange(16))
    for _ in range(30):  # a few decisions in, with dice and tokens on the table
        a = make_policy("heuristic", plain, seed=4).act(plain.observe(s, s.current_player),
                                                         s.legal_action_mask)
        b = make_policy("heuristic", oracle, seed=4).act(oracle.observe(s, s.current_player),
                                                          s.legal_action_mask)
        assert (a == b).all() and s.legal_action_mask[np.arange(16), a].all()
        plain.step(s, a)
