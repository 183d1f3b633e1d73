"""Vaults — PettingZoo AEC environment (2–4 players).

Crime lords recruit crews (a boss, up to four members, up to three tools) and crack the
vaults of three public piles. Each turn has three actions, spent on drawing (main deck or
Police station, not both), playing cards, moving cards between crews and cracking vaults,
in four phases that may be skipped but never revisited: draw/bailout, planning, jobs,
hideout. A crack needs the crew's physical/mechanical/explosives skills to meet the vault's
public combination (or a Master Key); tools may be Overloaded for double skill and are then
jailed. The vault's hidden front says Success (loot, the boss ability) or Fail (a penalty);
cracked vaults are kept either way, and the top one can be cracked again by an opponent.
Disrupt cards may be played at any time: on one's own turn, and in response windows that
open after every action and every crack declaration (option `response_windows`); a player
holding disrupts is always asked there, even when he can only pass. The first to reach the
loot goal wins at once; otherwise the richest when the main deck runs out.

Rules summary, rule decisions, reconstructed card data and the measured game length:
`envs/vaults/README.md`.

Rewards: zero at every step; at the end the unique winner gets +1 and the others share −1
(`reward="win_loss"`; ties at deck exhaustion go to the most Success vaults, then the fewest
turns, then the later seat), or `reward="score"` for the loot margin over the others' mean,
divided by the goal. Decisions with a single legal action are played automatically
(`auto_forced=True`), except a disrupt holder's response.

Version History:
- v1: out-of-turn disrupts after every action by default (`response_windows="every_action"`);
  a disrupt holder is asked in a window even when only passing is legal, whatever
  `auto_forced` says; at most three draws in the Draw/bailout phase, even with gained
  actions; the declared crack's crew is in the observation from the declaration on;
  `reward="score"` divides the margin by the goal; no cap on the number of crews (52 slots
  per seat, one per boss and member card; the `max_crews` option is gone). Rules on the
  compiled core.
- v0: initial release.
"""

from __future__ import annotations

from .core.aec import define_env
from .core.docs import generated_section
from .vaults.kernel import Vaults as Game
from .vaults.kernel import VaultsState as State

raw_env, env, obs_fields = define_env(Game, __name__)

__doc__ += "\n" + generated_section(Game)
__all__ = ["Game", "State", "env", "obs_fields", "raw_env"]
