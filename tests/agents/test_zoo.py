"""The bot zoo: every shipped entry loads with no training and no torch, fits the size limit,
matches its game, and plays legal moves; bad names say what the zoo has."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from heistbench.agents import make_policy, policy_choices, zoo
from heistbench.envs import GAMES, player_counts
from heistbench.envs import game as make_game
from heistbench.training.report import game_for

# what the zoo ships: 2 players and the largest count of every game, and the solo game
EXPECTED = sorted([f"{zoo.short_name(g)}-{n}p" for g in GAMES
                   for n in {2, player_counts(g)[-1]}] + ["big_score-1p"])


def test_the_zoo_has_every_game_at_two_players_and_its_largest_count():
    assert zoo.entries() == EXPECTED


@pytest.mark.parametrize("entry", EXPECTED)
def test_entry_is_small_loads_and_plays_its_game(entry):
    assert zoo.path(entry).stat().st_size <= zoo.MAX_BYTES
    game = game_for(f"zoo:{entry}", None, None, validate=True)
    assert zoo.entry_for(game) == entry
    bot = make_policy(f"zoo:{entry}", game)
    assert bot.name == f"zoo:{entry}"
    state = game.init(np.arange(16))
    for _ in range(20):  # legal moves: the kernel (validate=True) refuses any other
        obs = game.observe(state, state.current_player)
        game.step(state, bot.act(obs, state.legal_action_mask))
    assert f"zoo:{entry}" in [s for s, _ in policy_choices(game)]
    # it plays by the mode chosen when the zoo was built, unless told otherwise
    assert bot.deterministic == (bot.meta.get("play", "sample") == "greedy")
    assert zoo.load(entry, game, deterministic=not bot.deterministic).deterministic != \
        bot.deterministic


def test_zoo_plays_without_torch():
    code = ("import sys, numpy as np; sys.modules['torch'] = None\n"
            "from heistbench.agents import make_policy\n"
            "from heistbench.envs import game\n"
            "g = game('grifters', num_players=2)\n"
            "bot = make_policy('zoo', g)\n"
            "s = g.init(np.arange(4))\n"
            "g.step(s, bot.act(g.observe(s, s.current_player), s.legal_action_mask))\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr


def test_bad_names_and_wrong_games_are_refused():
    with pytest.raises(ValueError, match="the zoo has: .*grifters-2p"):
        make_policy("zoo:grifters-9p", make_game("grifters", num_players=2))
    with pytest.raises(ValueError, match="no zoo entry 'grifters-3p'"):
        make_policy("zoo", make_game("grifters", num_players=3))
    with pytest.raises(ValueError, match="does not fit"):
        make_policy("zoo:grifters-2p", make_game("big_deal", num_players=2))
