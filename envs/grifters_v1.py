"""Grifters (`grifters_v1`): hire Specialists, pull Capers and complete Jobs to grow your Stash.

A 2-4 player card game of hand management. Each turn a player advances time in their Hideout
(three Night spaces), then either Performs a Caper (plays one card and resolves its action) or
Completes a Job (plays a team whose skills exactly match the top Job of a colour stack), then
takes back the cards that reached the Refresh Area. Cards played are locked away for three turns.

Rules summary
-------------
- Setup: Coffers of 50/65/75 ISK for 2/3/4 players; each player takes 3 ISK from them and the
  Ringleaders Mastermind, Thief and Pickpocket; 3 Specialists are dealt from the shuffled deck
  of 48. Job stacks: 3 colours with 2 players, 4 with 3, 5 with 4, each ordered 1 -> 4.
- Turn: Advance Time (skipped on your first turn; ISK tokens return to the Coffers), Play
  Specialists (one Caper, or one Job with an exact skill match; an Inside Man is a wild skill),
  Refresh. With an empty hand you place one ISK token from your Stash into Night One instead.
- End: immediately when the Coffers' last ISK is taken, all Jobs are completed, or deck and
  discard pile are both empty. Score = Stash + 2/4/8M per colour with 2/3/4 Jobs. Ties: most
  Jobs, then fewest Specialists; players still level share the win.
- Multi-part choices (a team for a Job, a card and its target) are sequences of decisions,
  each with its own mask. The card data is partly reconstructed: see
  `envs/grifters/README.md` for the card list, the rule decisions and what is reconstructed.

Rewards
-------
Terminal only. `reward="win_loss"` (default): the winners after the tie-breakers share +1 and
the others share -1 (an all-way tie gives 0). `reward="score"`: the score margin over the mean
of the others, divided by 25. Truncation (a safety net that random play never reaches) gives 0.

Version History
---------------
- v0: first release.
- v1: the rules run compiled (the same games as v0, step for step, before the fixes below).
  The Middle Man may take any Specialist from the Refresh Area, a Fall Guy or another Middle
  Man included; only the Inside Man is barred ("cannot be duplicated by any other card", FAQ).
  Players level after the rulebook's tie-breakers (score, most Jobs, fewest Specialists)
  share the win; the fewest-turns and later-seat keys are gone.
"""

from __future__ import annotations

from .core.aec import define_env
from .core.docs import generated_section
from .grifters.kernel import GriftersGame as Game
from .grifters.kernel import GriftersState

raw_env, env, obs_fields = define_env(Game, __name__)

__doc__ += "\n" + generated_section(Game)
__all__ = ["Game", "GriftersState", "env", "obs_fields", "raw_env"]
