"""V-22: invariants under random play for every player count and window option."""

import numpy as np
import pytest
from heistbench.envs.vaults.kernel import Vaults

from .helpers import check_invariants, random_play


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("windows", ["crack", "every_action", "none"])
def test_random_play_invariants(n, windows):
    game = Vaults(num_players=n, response_windows=windows)
    st = random_play(game, np.arange(12) + 100 * n, check_every=7)
    check_invariants(game, st)
    assert st.terminated.all() and not st.truncated.any()
    r = st.rewards  # the last step's rewards are only those of the last games to end
    assert np.allclose(r.sum(1), 0, atol=1e-6)


def test_unforced_play_invariants():
    game = Vaults(num_players=3, auto_forced=False)
    st = random_play(game, np.arange(6), check_every=5)
    assert st.terminated.all()
