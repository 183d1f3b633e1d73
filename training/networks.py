"""Network pieces for the learner: a shared trunk in front of the policy and value heads."""

from __future__ import annotations

import gymnasium as gym
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor


class Trunk(BaseFeaturesExtractor):
    """One hidden layer shared by the actor and the critic.

    The observation is wide (hundreds of fields), so the first layer is most of the compute;
    sharing it halves the cost of every forward and backward pass.
    """

    def __init__(self, observation_space: gym.spaces.Box, features_dim: int = 256):
        super().__init__(observation_space, features_dim)
        self.net = torch.nn.Sequential(
            torch.nn.Linear(int(observation_space.shape[0]), features_dim), torch.nn.ReLU())

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return self.net(observations)
