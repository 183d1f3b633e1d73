"""The Big Score — PettingZoo AEC environment (2–6 players).

Act I: three rounds of drafting crew cards (passing left, right, left), secretly assigning
them to six face-up jobs, to Training (three Expert cards of one type grant an Expert Ability)
or leaving them unassigned, then resolving the jobs in order with Jack of All Trades fists
(and the Inside Man at 2 players). Act II: everyone robs or flees the vault at once; Cops
tokens fill the track until the vault busts; loot can be traded with the Vault Floor. The
richest boss wins (diamond table, artifact majority, unlocked hard drives, bars, cash).

Rules summary, rule decisions and reconstructed data: `envs/big_score/README.md`.

Rewards: zero at every step; at the end the winners share +1 and the others share -1
(`reward="win_loss"`, rulebook tie-breakers first), or `reward="score"` for the score margin
in $1M units. Decisions with a single legal action (the last draft card, an empty Floor, ...)
are played automatically (`auto_forced=True`).

Version History:
- v0: initial release.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .big_score.kernel import BigScoreGame as Game
from .big_score.kernel import BigScoreState as State
from .core import HeistAECEnv, make_env_fns
from .core.docs import generated_section


class raw_env(HeistAECEnv):  # noqa: N801 (PettingZoo naming)
    """The Big Score without wrappers; illegal actions raise ValueError."""

    game_cls = Game
    metadata = {"render_modes": ["human", "ansi"], "is_parallelizable": False,
                "name": "big_score_v0"}


env, _raw_env = make_env_fns(raw_env)


@lru_cache(maxsize=8)
def _game(num_players: int) -> Game:
    return Game(num_players=num_players)


def obs_fields(obs: np.ndarray, num_players: int = 4) -> dict[str, np.ndarray]:
    """Decode an observation vector (or batch) into named parts."""
    return _game(num_players).obs_fields(obs)


__doc__ += "\n" + generated_section(Game)
__all__ = ["Game", "State", "env", "obs_fields", "raw_env"]
