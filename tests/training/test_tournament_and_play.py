"""Tournament tables and ratings; terminal play driven by scripted input."""

from __future__ import annotations

import numpy as np
import pytest
from heistbench.agents import make_policy
from heistbench.envs import game as make_game
from heistbench.training.human import play_human
from heistbench.training.tournament import format_standings, run_tournament, tables


def test_tables():
    assert tables(3, 2) == [[0, 1], [0, 2], [1, 2]]
    assert tables(4, 3) == [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]]
    assert tables(2, 3) == [[0, 1, 0], [1, 0, 1]]
    with pytest.raises(ValueError):
        tables(1, 2)


def test_tournament_ranks_heuristic_over_random():
    game = make_game("big_score", num_players=2, validate=False)
    pols = [make_policy("random", game, seed=1), make_policy("heuristic", game),
            make_policy("random", game, seed=2)]
    st = run_tournament(game, pols, ["r1", "h", "r2"], games_per_table=40)
    assert st[0].name == "h"
    assert all(s.games == 80 for s in st)  # two tables of 40 games each
    assert "rating" in format_standings(st)


def scripted(lines):
    it = iter(lines)

    def read(prompt):
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    return read


def test_play_rejects_bad_input_then_finishes():
    game = make_game("big_score", num_players=2)
    out = []
    answers = ["", "abc", "0", "999", "-1"] + ["1"] * 400
    scores = play_human(game, 1, [make_policy("heuristic", game)], ["heuristic"], seed=5,
                        read=scripted(answers), write=out.append)
    text = "\n".join(out)
    assert scores is not None and len(scores) == 2
    assert text.count("is not one of the choices") == 5
    assert "your legal actions:" in text and "final scores" in text
    assert "secret choice" in text  # the bot's draft picks are not shown


def test_play_quits_on_eof_and_q():
    game = make_game("grifters", num_players=3)
    bots = [make_policy("random", game, seed=s) for s in (1, 2)]
    out = []
    assert play_human(game, 0, bots, ["r", "r"], read=scripted([]), write=out.append) is None
    assert play_human(game, 2, bots, ["r", "r"], read=scripted(["q"]), write=out.append) is None
    with pytest.raises(ValueError, match="bot"):
        play_human(game, 0, bots[:1], ["r"], read=scripted([]), write=out.append)


def test_visible_moves_are_named():
    game = make_game("big_score", num_players=2)
    out = []
    play_human(game, 0, [make_policy("heuristic", game)], ["heuristic"], seed=1,
               read=scripted(["1"] * 400), write=out.append)
    named = [x for x in out if x.startswith("player_1 (heuristic): ")]
    hidden = [x for x in out if x == "player_1 (heuristic) made a secret choice"]
    assert named and hidden  # moves the view reveals are named, the others are not


def test_visibility_follows_the_observation():
    from heistbench.training.human import _visible

    game = make_game("big_score", num_players=2)
    state = game.init(np.array([0]))
    assert int(state.current_player[0]) == 0
    legal = np.flatnonzero(state.legal_action_mask[0])
    # seat 0's first secret choice cannot be told apart by seat 1 ...
    assert not _visible(game, state, 1, int(legal[0]))
    # ... but seat 0 always knows its own move
    assert _visible(game, state, 0, int(legal[0]))


def test_secret_choices_stay_secret_even_when_they_close_a_window():
    """The last bot to pick in a draft window changes the person's hand (the hands pass), but
    its pick is a secret: it must not be named."""
    game = make_game("big_score", num_players=2, boss_option_mode="cash")
    out = []
    play_human(game, 0, [make_policy("heuristic", game)], ["heuristic"], seed=3,
               read=scripted(["1"] * 400), write=out.append)
    named = [x for x in out if x.startswith("player_1 (heuristic): ")]
    assert named  # its trades are public
    assert not any("draft" in x or "assign" in x or "JoAT" in x or "vault" in x
                   for x in named), named
