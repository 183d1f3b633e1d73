"""Network pieces for the learner: a shared trunk in front of the policy and value heads, and
the policy whose critic sees the hidden state (an asymmetric actor-critic)."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor


class Trunk(BaseFeaturesExtractor):
    """One hidden layer in front of the policy and value heads, shared by both (unless the
    critic has a trunk of its own: `OracleCriticPolicy`).

    The observation is wide (hundreds of fields), so the first layer is most of the compute;
    sharing it halves the cost of every forward and backward pass. `columns` reads only the
    first columns of the input: the seat's own view inside an oracle observation.
    """

    def __init__(self, observation_space: gym.spaces.Box, features_dim: int = 256,
                 columns: int | None = None):
        super().__init__(observation_space, features_dim)
        self.columns = int(columns or observation_space.shape[0])
        self.net = torch.nn.Sequential(torch.nn.Linear(self.columns, features_dim),
                                       torch.nn.ReLU())

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return self.net(observations[:, :self.columns])


class OracleCriticPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's policy with a critic that sees every seat's view while the actor sees its
    own (the asymmetric actor-critic of Pinto et al. 2018; AlphaStar's critic saw the
    opponent's observations too).

    The observation is the kernel's `critic_view`: the seat's own view, then what each other
    seat sees that it does not (their hands, say), or, where a game names no private fields,
    their whole views (`oracle_view`). The actor's trunk reads the first `own_size` columns, so
    the actor plays from the own view alone (a `ModelPolicy`, an export, a snapshot in the
    pool), and only the critic, which is training-only, reads the rest. Knowing the hidden
    cards, the critic predicts the outcome with less noise, and so the advantages that train
    the actor have less noise too.
    """

    def __init__(self, *args: Any, own_size: int, **kwargs: Any):
        self.own_size = int(own_size)
        kwargs["share_features_extractor"] = False
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule: Any) -> None:
        """The actor's trunk over the own columns; the critic keeps the full-width one."""
        kwargs = {**self.features_extractor_kwargs, "columns": self.own_size}
        self.pi_features_extractor = Trunk(self.observation_space, **kwargs)
        self.features_extractor = self.pi_features_extractor
        super()._build(lr_schedule)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        return {**super()._get_constructor_parameters(), "own_size": self.own_size}
