"""Torch on one thread, as the training loop runs it: the small networks of these tests are
fastest so, and two test workers on two cores do not fight over threads."""

from __future__ import annotations

import torch

torch.set_num_threads(1)
