"""The Big Score — PettingZoo AEC environment (2–6 players, and the solo game at 1).

Act I: three rounds of drafting crew cards (passing left, right, left), secretly assigning
them to six face-up jobs, to Training (three Expert cards of one type grant an Expert Ability)
or leaving them unassigned, then resolving the jobs in order with Jack of All Trades fists
(and the Inside Man at 2 players). Act II: everyone robs or flees the vault at once; Cops
tokens fill the track until the vault busts; loot can be traded with the Vault Floor. The
richest boss wins (diamond table, artifact majority, unlocked hard drives, bars, cash).

Rules summary, rule decisions and reconstructed data: `envs/big_score/README.md`.

The solo game (RB › Solo Rules) is `env(num_players=1, scenario=...)` / `Game(num_players=1)`,
a game of its own with nine scenarios (`"random"` draws one per game): +1 when the scenario's
objective is met, -1 otherwise (`reward="score"`: the take in $1M). Its tables follow the
multiplayer game's below.

Rewards: zero at every step; at the end the winners share +1 and the others share -1
(`reward="win_loss"`, rulebook tie-breakers first), or `reward="score"` for the score margin
in $1M units. Decisions with a single legal action (an empty Floor, ...) are played
automatically (`auto_forced=True`), except draft picks and assignments, whose turn order would
show what a hand holds. The last draft card is passed by the rules, never asked.

Version History:
- v0: initial release.
- v1: the rules run compiled (the same games as v0, step for step, before the change below).
  Every seat's observation shows the public record of the reveals: for each job of the
  current round and of the last resolved round (`last_job[i]`), the cards revealed on it by
  crew type, how many each seat sent, the JoAT tokens each seat revealed, the Inside Man card
  and the outcome (paid, failed, unattempted). The step that resolves a round's last job,
  cleans up and deals the next round used to leave no trace of that round's reveals.
  `resample_hidden` re-deals the opponents' face-down assignment piles of the current round
  too (v0 kept their true contents: a search agent saw the assignments before the reveal).
  A job's pile per type, each seat's cards on it and my own assigned cards per type are capped
  at 1 once scaled (a job may draw more than 6 cards of a type): the observation stays in
  its Box; the default game's play is unchanged.
  With `auto_forced`, a draft pick from a hand of one kind, and an assignment whose only legal
  target is "unassigned", are now asked too: skipping them showed every seat, through the turn
  order, what that hand held.
  Later in v1 the solo game was added (`num_players=1`); the multiplayer game is unchanged.
"""

from __future__ import annotations

from .big_score.kernel import BigScoreGame as Game
from .big_score.kernel import BigScoreState as State
from .core.aec import define_env
from .core.docs import generated_section

raw_env, env, obs_fields = define_env(Game, __name__)

__doc__ += "\n" + generated_section(Game)
__all__ = ["Game", "State", "env", "obs_fields", "raw_env"]
