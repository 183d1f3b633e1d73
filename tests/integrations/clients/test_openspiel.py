"""OpenSpiel through pyspiel Python games: every game registered and played legally, clones that
keep their future, determinization by `resample_hidden`, OpenSpiel's search bots and
`evaluate_bots`, ISMCTS beating random, bad input, the CLI, and docs/openspiel.md."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from heistbench.envs import GAMES, module  # noqa: E402
from heistbench.integrations import openspiel as hos  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots  # noqa: E402

from . import python_blocks  # noqa: E402

CASES = [(g, n) for g in GAMES for n in sorted({min(module(g).Game.player_counts),
                                                   max(module(g).Game.player_counts)})]


def random_playout(state, rng: np.random.Generator, moves: int | None = None):
    while not state.is_terminal() and moves != 0:
        legal = state.legal_actions()
        assert legal and state.current_player() >= 0
        state.apply_action(int(rng.choice(legal)))
        moves = None if moves is None else moves - 1
    return state


@pytest.mark.parametrize("game,n", CASES)
def test_every_game_plays_legally_as_a_pyspiel_game(game, n):
    pgame = pyspiel.load_game(hos.short_name(game), {"num_players": n})
    assert pgame.num_players() == n
    kind = pgame.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    state = random_playout(pgame.new_initial_state(3), np.random.default_rng(0))
    returns = np.asarray(state.returns())
    assert returns.shape == (n,) and abs(returns.sum()) < 1e-5 and returns.max() > 0
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert len(pgame.observation_tensor_shape()) == 1


@pytest.mark.parametrize("game", GAMES)
def test_clones_keep_their_future_and_resamples_keep_the_players_view(game):
    pgame = pyspiel.load_game(hos.short_name(game))
    state = random_playout(pgame.new_initial_state(7), np.random.default_rng(1), moves=15)
    clone = state.clone()
    before = state.observation_tensor(0)
    a = random_playout(clone, np.random.default_rng(2))
    b = random_playout(state.clone(), np.random.default_rng(2))
    assert a.returns() == b.returns() and str(a) == str(b)  # same actions, same game
    assert state.observation_tensor(0) == before and not state.is_terminal()  # untouched
    player = state.current_player()
    for k in range(3):
        world = state.resample_from_infostate(player, np.random.default_rng(k).random)
        np.testing.assert_array_equal(world.observation_tensor(player),
                                      state.observation_tensor(player))
        np.testing.assert_array_equal(world.information_state_tensor(player),
                                      state.information_state_tensor(player))
        assert world.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("game", GAMES)
def test_openspiels_bots_move_on_every_game(game):
    pgame = pyspiel.load_game(hos.short_name(game))
    state = random_playout(pgame.new_initial_state(5), np.random.default_rng(3), moves=10)
    player = state.current_player()
    for name in ("ismcts", "mcts", "determinized-mcts", "heuristic"):
        bot = hos.make_bot(name, pgame, player, simulations=3, seed=0)
        assert bot.step(state.clone()) in state.legal_actions()


def late_state(pgame, seed: int, moves_left: int):
    """The state `moves_left` moves before the end of a random game of deal `seed` (the same
    deal and actions replayed), so that a search bot finishes a game quickly."""
    rng = np.random.default_rng(seed)
    state, actions = pgame.new_initial_state(seed), []
    while not state.is_terminal():
        actions.append(int(rng.choice(state.legal_actions())))
        state.apply_action(actions[-1])
    state = pgame.new_initial_state(seed)
    for action in actions[:max(0, len(actions) - moves_left)]:
        state.apply_action(action)
    return state


@pytest.mark.parametrize("game,n", CASES)
def test_evaluate_bots_finishes_every_game_with_ismcts_mcts_and_random(game, n):
    pgame = pyspiel.load_game(hos.short_name(game), {"num_players": n})
    kinds = [hos.ismcts_bot(pgame, 2, seed=0), hos.mcts_bot(pgame, 2, seed=1)]
    bots = [kinds[p] if p < 2 else pyspiel.make_uniform_random_bot(p, p) for p in range(n)]
    state = late_state(pgame, 11, moves_left=6 * n)
    returns = evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(0))
    assert state.is_terminal() and abs(sum(returns)) < 1e-5


def test_evaluate_bots_runs_openspiels_ismcts_against_random():
    pgame = pyspiel.load_game("heistbench_grifters")
    bots = [hos.ismcts_bot(pgame, simulations=5, seed=0),
            pyspiel.make_uniform_random_bot(1, 0)]
    returns = evaluate_bots.evaluate_bots(pgame.new_initial_state(0), bots,
                                          np.random.RandomState(0))
    assert sorted(returns) == [-1.0, 1.0]


def test_ismcts_beats_random_on_grifters():
    match = hos.play_match("grifters", "ismcts", "random", games=8, simulations=20)
    assert match.row.games == 8 and match.moves > 0
    assert match.row.win_rate >= 0.75, match.row  # measured: 4 of 4 at 20 simulations


def test_bad_input_is_refused():
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("heistbench_chess")
    with pytest.raises((ValueError, pyspiel.SpielError), match="num_players|player"):
        pyspiel.load_game("heistbench_grifters", {"num_players": 9})
    with pytest.raises((ValueError, pyspiel.SpielError), match="seed"):
        pyspiel.load_game("heistbench_grifters", {"seed": -5})
    with pytest.raises(ValueError, match="unknown bot"):
        hos.make_bot("strong", pyspiel.load_game("heistbench_grifters"), 0)
    with pytest.raises(ValueError, match="games and simulations"):
        hos.play_match("grifters", games=0)


def test_the_command_line_example_runs(capsys):
    hos.main(["grifters", "--bot", "ismcts", "--simulations", "5", "--games", "2"])
    out = capsys.readouterr().out
    assert "win rate" in out and "ms per move" in out


DOC, BLOCKS = python_blocks("openspiel.md")


def test_the_doc_has_its_examples():
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_doc_block_runs(index):
    exec(compile(BLOCKS[index], f"{DOC}:block{index}", "exec"), {})
