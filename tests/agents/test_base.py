"""The shared random-policy sampler."""

from __future__ import annotations

import numpy as np
import pytest
from heistbench.agents import sample_legal


def test_sample_legal_picks_the_ranked_legal_action():
    """Row by row, the action of rank floor(u * #legal) among the legal ones; an empty row
    is refused by number."""
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
    with pytest.raises(ValueError, match="row 7"):
        sample_legal(mask, u)
