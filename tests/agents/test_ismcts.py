"""ISMCTS: searches determinized worlds of the mover's information set, plays legal moves in
every game, keeps to its budget, and says clearly what it needs."""

from __future__ import annotations

import numpy as np
import pytest
from heistbench.agents import make_policy
from heistbench.agents.ismcts import ISMCTSPolicy, parse_spec
from heistbench.envs import GAMES, player_counts
from heistbench.envs import game as make_game
from heistbench.training.evaluate import play_matches, rotated_schedule

FAST = {"simulations": 8, "wave": 4, "rollout": "random"}


@pytest.mark.parametrize("name", GAMES)
def test_plays_whole_games_of_every_game_at_its_smallest_and_largest_count(name):
    for n in sorted({player_counts(name)[0], player_counts(name)[-1]}):
        game = make_game(name, num_players=n)
        seeds, seating = rotated_schedule([0] + [1] * (n - 1), n)
        res = play_matches(game, [make_policy("ismcts", game, **FAST),
                                  make_policy("random", game, seed=1)], seating, seeds)
        assert not res.truncated.any()  # the kernel would have raised on an illegal move


def test_moves_are_legal_and_finished_or_forced_rows_need_no_search(partly_finished):
    game = make_game("grifters", num_players=3)
    state = partly_finished(game, batch=12, seed=3)
    bot = ISMCTSPolicy(game, **FAST)
    rows = np.arange(12)
    mask = state.legal_action_mask
    acts = bot.act_in(state, rows, np.zeros((12, 1)), mask)
    live = ~state.done
    assert mask[live, acts[live]].all()
    assert (acts[~live] == 0).all()
    assert bot.searched == int((mask.sum(axis=1) > 1).sum())
    assert bot.simulated == 8 * bot.searched


def test_same_seed_same_moves():
    game = make_game("big_deal", num_players=3)
    state = game.init(np.arange(6))
    a = ISMCTSPolicy(game, seed=5, **FAST).act_in(state, np.arange(6), None,
                                                   state.legal_action_mask)
    b = ISMCTSPolicy(game, seed=5, **FAST).act_in(state, np.arange(6), None,
                                                   state.legal_action_mask)
    np.testing.assert_array_equal(a, b)


def test_search_leaves_the_true_state_alone():
    game = make_game("bad_company", num_players=4)
    state = game.init(np.arange(4))
    before = state.copy()
    ISMCTSPolicy(game, **FAST).act_in(state, np.arange(4), None, state.legal_action_mask)
    assert state == before


def test_time_budget_runs_at_least_one_wave():
    game = make_game("grifters", num_players=2)
    state = game.init(np.arange(2))
    bot = ISMCTSPolicy(game, simulations=None, time_ms=1e-3, wave=4, rollout="random")
    bot.act_in(state, np.arange(2), None, state.legal_action_mask)
    assert bot.simulated == 2 * 4


def test_search_beats_its_random_rollouts():
    """The tree adds strength over the policy its rollouts use (a small, clear case: 40
    seat-rotated 2-player Grifters games against random)."""
    game = make_game("grifters", num_players=2)
    seeds, seating = rotated_schedule([0, 1], 40)
    res = play_matches(game, [make_policy("ismcts", game, simulations=32, rollout="random"),
                              make_policy("random", game, seed=1)], seating, seeds)
    won = res.winners[np.arange(len(seeds)), (seating == 0).argmax(axis=1)]
    assert won.mean() >= 0.6  # random against random: 0.5


def test_bare_act_and_bad_options_are_refused():
    game = make_game("grifters", num_players=2)
    bot = make_policy("ismcts", game)
    with pytest.raises(TypeError, match="act_in"):
        bot.act(np.zeros((1, game.obs_size)), np.ones((1, game.num_actions), bool))
    assert parse_spec("ismcts:simulations=50,rollout=random,c=1.2") == {
        "simulations": 50, "rollout": "random", "c": 1.2}
    for spec, match in [("ismcts:sims=5", "bad ismcts option"),
                        ("ismcts:simulations=x", "must be int"),
                        ("ismcts:simulations=0", "at least 1")]:
        with pytest.raises(ValueError, match=match):
            make_policy(spec, game)
    with pytest.raises(ValueError, match="budget"):
        ISMCTSPolicy(game, simulations=None)
    with pytest.raises(ValueError, match="takes no options"):
        make_policy("random", game, simulations=5)
    with pytest.raises(ValueError, match="unknown policy"):
        ISMCTSPolicy(game, rollout="nonsense")


def test_plays_in_the_terminal_and_web_match():
    from heistbench.training.human import Match

    game = make_game("big_deal", num_players=2)
    match = Match(game, 0, [make_policy("ismcts", game, **FAST)], ["ismcts"], seed=2)
    rng = np.random.default_rng(0)
    while not match.over:
        legal = match.legal_now()
        match.play(int(legal[rng.integers(len(legal))]))
    assert match.result()["winners"]


def test_a_trained_policy_gives_the_prior_and_the_rollouts():
    game = make_game("grifters", num_players=2)
    bot = make_policy("ismcts:simulations=6,wave=3,rollout=zoo", game)
    assert bot.rollout.name == "zoo:grifters-2p"
    state = game.init(np.arange(3))
    prior = bot._priors(state, np.arange(3))
    np.testing.assert_allclose(prior.sum(axis=1), 1.0, rtol=1e-6)
    assert (prior[~state.legal_action_mask] == 0).all()
    acts = bot.act_in(state, np.arange(3), None, state.legal_action_mask)
    assert state.legal_action_mask[np.arange(3), acts].all()


@pytest.mark.parametrize("name,n,rollout,moves", [
    ("grifters", 2, "heuristic", 200),
    ("vaults", 2, "zoo:vaults-2p", 20),  # its heuristic is too slow to roll out with
    ("vaults", 4, "zoo:vaults-4p", 20),
    ("vaults", 3, "heuristic", 200),  # no entry at 3 players
])
def test_the_default_rollouts_are_the_heuristic_or_where_it_is_slow_the_zoo(name, n, rollout,
                                                                          moves):
    bot = make_policy("ismcts", make_game(name, num_players=n))
    assert (bot.rollout.name, bot.rollout_moves) == (rollout, moves)
    asked = make_policy("ismcts:rollout=heuristic", make_game(name, num_players=n))
    assert (asked.rollout.name, asked.rollout_moves) == ("heuristic", 200)
    assert make_policy("ismcts:rollout_moves=5", make_game(name, num_players=n)).rollout_moves == 5


def test_the_menu_says_which_rollouts_the_search_uses():
    from heistbench.agents import policy_choices

    def label(game):
        return dict(policy_choices(game))["ismcts"]

    assert label(make_game("vaults", num_players=2)).endswith("the trained bot's rollouts")
    assert label(make_game("vaults", num_players=3)).endswith("heuristic rollouts")
    assert label(make_game("grifters", num_players=2)).endswith("heuristic rollouts")
    assert "where one is shipped" in label("vaults_v1")  # a game by name: any count


def test_the_measuring_script_prints_a_row_per_budget():
    """scripts/measure_ismcts.py, whose rows docs/bots.md quotes, on a tiny budget."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "scripts" / "measure_ismcts.py"
    out = subprocess.run([sys.executable, str(script), "grifters", "--simulations", "4", "8",
                          "--games", "2", "--no-baseline"], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    rows = [r for r in out.stdout.splitlines() if r.startswith("| grifters |")]
    assert [r.split("|")[3].strip() for r in rows] == ["4", "8"]
    assert all("| 2 |" in r and "%" in r for r in rows)
    assert "| over heuristic |" in out.stdout  # the search's default rollouts, named
    vaults = subprocess.run([sys.executable, str(script), "vaults", "--simulations", "1",
                             "--games", "1", "--no-baseline"], capture_output=True, text=True,
                            timeout=300)
    assert vaults.returncode == 0, vaults.stderr
    assert "| over zoo:vaults-2p |" in vaults.stdout
    bad = subprocess.run([sys.executable, str(script), "grifters", "--simulations", "4", "8",
                          "--games", "2", "3", "4"], capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "one per budget" in bad.stderr
