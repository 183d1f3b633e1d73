"""The self-play run's pieces that a tiny CLI run cannot show (tests/test_cli.py runs one)."""

from __future__ import annotations

import pytest


def test_the_annealed_learning_rate_never_turns_negative():
    pytest.importorskip("torch")
    from heistbench.training.config import TrainConfig
    from heistbench.training.train import learning_rate

    schedule = learning_rate(TrainConfig(learning_rate=3e-4))
    assert schedule(1.0) == 3e-4 and schedule(0.5) == 1.5e-4
    assert schedule(-0.5) == 0.0  # the update after an overshooting last rollout
    assert learning_rate(TrainConfig(learning_rate=3e-4, anneal_lr=False)) == 3e-4
