"""Bad Company (`bad_company_v1`): roll, pair and activate your crew, race the police car.

A 2-6 player dice game. Each turn the chief rolls four yellow dice and the police die (paid
rerolls of any subset), pairs the yellow dice into two sums and activates both crew members
with those numbers; every other player activates one of them. Members give coins, car steps
and symbol tokens that cover heists and tasks. Then everyone, in turn, completes heists and
tasks, recruits (upgrade cards stack more symbols on a member) and plays loot cards; collars
go to the leaders in mission symbols; the police car moves; new heists are taken. A sixth
heist or a car in the red zone triggers one final round.

Rules summary
-------------
- Setup: a five-heist display (four face up plus the deck's top), the police car on the space
  of the player count, $2 each, a random crew board (left and right half) each, the first
  chief; each player drafts three heists, keeps two and puts one at the bottom of the deck.
- Activating: coins at once; wheels and the Chauffeur (12, two spaces) move the car; symbols
  cover pictograms on active heists or tasks, one decision per token (unplaceable ones are
  lost); the Fixer (2) counts one of lock, glove or mask on the crew. Control points pay $2, a
  loot card or VP unless the police car has reached them; shortcuts skip one.
- Phase 2B: complete full heists (bonus, red abilities, purple end effects) and tasks (two
  tokens: wild token, $2, car +1, loot), recruit (pay, draw three upgrades, keep one; at the
  end of the track $5 buys 3 VP), play loot cards.
- End: final round with four yellow dice, no rerolls, every player pairs them and activates
  two members, phase 2B; then the tally (see the game README). Ties: most coins, then shared.
- The card data is reconstructed: see `envs/bad_company/README.md`.

Rewards
-------
Terminal only. `reward="win_loss"` (default): the winners after the coin tie-break share +1
and the others share -1 (an all-way tie gives 0). `reward="score"`: the score margin over the
mean of the others, divided by 30. `reward="rank"`: (N - 1 - 2 rank) / (N - 1), rank 0 for the
first after the coin tie-break, tied players sharing their average rank. Truncation (a safety
net that random play never reaches) gives 0, or with `truncation_reward="provisional"` the
rewards of the tally so far.

Version History
---------------
- v0: first release, on the compiled core.
"""

from __future__ import annotations

from .bad_company.kernel import BadCompanyGame as Game
from .bad_company.kernel import BadCompanyState
from .core.aec import define_env
from .core.docs import generated_section

raw_env, env, obs_fields = define_env(Game, __name__)

__doc__ += "\n" + generated_section(Game)
__all__ = ["BadCompanyState", "Game", "env", "obs_fields", "raw_env"]
