"""Big Deal (`big_deal_v0`): buy resources, open company branches, trade shares and launch
hostile takeovers; the richest player when the last Game Over card turns up wins.

A 2-6 player market game. Each turn a player draws a card (a share, a cash card; Game Over
cards are turned over onto the board), collects the green income of every open branch, then
takes any number of optional actions: buy and sell resources at the wheels' prices (three
each way per turn), buy and sell shares with the bank, open a branch (two shares and a full
resource set), add, withdraw or close, sell a branch to the bank (white + $50M per share),
split one, make a hostile takeover (play shares or cash cards of a rival's company and bid),
or play a cash card for a premium from up to two players. A hand holds at most 5 cards at the
end of a turn.

Rules summary
-------------
- Setup: the deck is adjusted by player count (companies removed below 5 players, 5-7
  shares each, 8 / 10 / 12 cash cards), split in two, 3 Game Over cards shuffled into the top
  half and 4 into the bottom; 5 cards each; $1000M + $150M per preceding player (2-4), $1400M
  + $150M per preceding player (5-6).
- Takeover: the attacker commits cards, opens at least at the white value per share, and
  attacker and defender raise their own per-share offers in $50M steps (any multiple) until
  one drops out. The defender bids only with the cash he holds; an attacker who cannot pay
  even after realising assets forfeits the cards played and his cash.
- End: when the 7th Game Over card is exposed, at once; every share and resource is sold at
  $150M; the most cash wins (no tie-breaker: level players share). The Shark variant hides
  money and pays $100M bonus and premium rates. Component data are partly reconstructed:
  see `envs/big_deal/README.md` for the tables and the rule decisions.

Rewards
-------
Terminal only. `reward="win_loss"` (default): the players with the most final cash share +1
and the others share -1 (an all-way tie gives 0). `reward="score"`: the final-cash margin
over the mean of the others, divided by $2000M. `reward="rank"`: (N - 1 - 2 rank) / (N - 1),
averaged over ties. Truncation (a safety net that random play never reaches) gives 0, or with
`truncation_reward="provisional"` the score margin of the game as it stands.

Version History
---------------
- v0: first release, compiled rules.
"""

from __future__ import annotations

from .big_deal.kernel import BigDealGame as Game
from .big_deal.kernel import BigDealState
from .core.aec import define_env
from .core.docs import generated_section

raw_env, env, obs_fields = define_env(Game, __name__)

__doc__ += "\n" + generated_section(Game)
__all__ = ["BigDealState", "Game", "env", "obs_fields", "raw_env"]
