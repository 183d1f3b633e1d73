"""The constructor options of the spec (§5, §6; D-BC-04, D-BC-16): each is validated, and each
changes what it should while the layouts stay the same."""

from __future__ import annotations

import numpy as np
import pytest
from heistbench.agents.base import sample_legal
from heistbench.envs.bad_company import components as C
from heistbench.envs.bad_company import rules as K
from heistbench.envs.bad_company_v1 import Game, raw_env

from .helpers import at, blank, legal, play

PAIR0, PAIR1, PAIR2 = 32, 33, 34
NON_DEFAULT = dict(police_start_offset=2, police_die_faces=(2, 1, 0, 2, 1, 0),
                   canonical_pairings=False, reward="rank", truncation_reward="provisional",
                   component_set="reconstructed_v1")


@pytest.mark.parametrize("n", [2, 6])
def test_options_keep_the_layouts(n):
    base, other = Game(num_players=n), Game(num_players=n, **NON_DEFAULT)
    assert other.obs_size == base.obs_size and other.num_actions == base.num_actions
    assert [f for f in other.observation_layout] == [f for f in base.observation_layout]


def test_bad_option_values_say_what_is_allowed():
    with pytest.raises(ValueError, match=r"police_start_offset.*start on -7.*-2\.\.28"):
        Game(num_players=4, police_start_offset=-3)
    with pytest.raises(ValueError, match=r"police_start_offset.*start on 25.*0\.\.30"):
        Game(num_players=6, police_start_offset=31)
    with pytest.raises(ValueError, match="police_start_offset.*an int"):
        Game(police_start_offset=1.5)
    for faces in ((0, 1, 2), (0, 0, 0, 1, 1, 3), (0, 0, 0, 1, 1, -1), "000112",
                  (0, 0, 0, 1, 1, True)):
        with pytest.raises(ValueError, match="police_die_faces.*six faces, each 0, 1 or 2"):
            Game(police_die_faces=faces)
    with pytest.raises(ValueError, match="canonical_pairings.*a bool"):
        Game(canonical_pairings=0)
    with pytest.raises(ValueError, match="truncation_reward.*'zero', 'provisional'"):
        Game(truncation_reward="margin")
    with pytest.raises(ValueError, match="component_set.*'reconstructed_v1'"):
        Game(component_set="published")
    with pytest.raises(ValueError, match="reward.*'win_loss', 'score', 'rank'"):
        Game(reward="ranking")


@pytest.mark.parametrize("n, offset, start", [(4, 0, -4), (4, 3, -1), (2, -4, -6), (6, 30, 24)])
def test_police_start_offset_moves_the_police_start(n, offset, start):
    game = Game(num_players=n, police_start_offset=offset)
    s = game.init(np.arange(3))
    assert (s.police == start).all()
    f = game.obs_fields(game.observe(s, 0))
    assert (f["police_onehot"].argmax(axis=1) == start + 6).all()


def police_moves(game: Game, games: int) -> np.ndarray:
    """How far the police car moved at the end of the first turn of `games` seeded games: the
    chief accepts the first roll, nobody plays a Police halt, everything else is random."""
    s = game.init(np.arange(games))
    rng = np.random.default_rng(1)
    start = s.police.copy()
    while (s.turn < 2).any():
        mask = s.legal_action_mask.copy()
        mask[:, K.A_HALT] = False
        rolling = s.dec == K.CHIEF_REROLL
        mask[rolling] = False
        mask[rolling, K.A_ACCEPT] = True
        game.step(s, sample_legal(mask, rng.random(games)), where=(s.turn < 2) & ~s.done)
    return (s.police - start).astype(int)


@pytest.mark.parametrize("faces", [C.POLICE_FACES, (0, 1, 1, 2, 2, 2), (2, 2, 2, 2, 2, 2)])
def test_police_die_faces_change_the_police_moves(faces):
    game = Game(num_players=3, police_die_faces=faces)
    moves = police_moves(game, 1500)
    want = np.bincount(faces, minlength=3) / 6
    got = np.bincount(moves, minlength=3) / moves.size
    assert got.shape == (3,) and np.abs(got - want).max() < 0.04, (got, want)


def test_police_die_faces_are_what_a_reroll_rolls():
    game, s = blank(police_die_faces=[1] * 6)
    s.money[0, 0], s.black[0] = 1, 0
    at(game, s, K.CHIEF_REROLL)
    play(game, s, K.A_REROLL + 15)  # id 16: the police die alone
    assert s.black[0] == 1


def test_canonical_pairings_false_leaves_every_pairing_legal():
    game, s = blank(canonical_pairings=False)
    s.dice[0] = (2, 2, 5, 5)
    at(game, s, K.CHIEF_PAIRING)
    assert legal(s) == {PAIR0, PAIR1, PAIR2}  # 34 repeats 33's (7, 7) and stays legal
    play(game, s, PAIR2)
    assert tuple(s.sums[0]) == (7, 7)
    for canonical, asked in ((True, False), (False, True)):
        game, s = blank(auto_forced=True, canonical_pairings=canonical)
        s.dice[0] = 3
        at(game, s, K.CHIEF_PAIRING)
        assert (s.dec[0] == K.CHIEF_PAIRING) == asked  # one canonical pairing is auto-applied
        if asked:
            assert legal(s) == {PAIR0, PAIR1, PAIR2}


def finished(vp: list[int], money: list[int], **options):
    """A game over after the tally of crafted score tracks and coins (nothing else scores)."""
    game, s = blank(len(vp), **options)
    s.vp[0], s.money[0] = vp, money
    at(game, s, K.GAME_OVER)
    assert s.terminated[0] and game.scores(s)[0].tolist() == vp
    return game, s


def test_rank_reward_ties_share_their_average_rank():
    _, s = finished([10, 20, 20, 5], [0, 0, 0, 0], reward="rank")
    # ranks 2, 0.5, 0.5, 3 of N = 4: (3 - 2 rank) / 3
    np.testing.assert_allclose(s.rewards[0], [-1 / 3, 2 / 3, 2 / 3, -1], atol=1e-6)
    _, s = finished([10, 20, 20, 5], [0, 3, 0, 0], reward="rank")  # coins break the tie
    np.testing.assert_allclose(s.rewards[0], [-1 / 3, 1, 1 / 3, -1], atol=1e-6)
    _, s = finished([7, 7, 7], [1, 1, 1], reward="rank")
    np.testing.assert_allclose(s.rewards[0], [0, 0, 0], atol=1e-6)
    _, s = finished([9, 4], [0, 0], reward="rank")  # two players: as win_loss
    np.testing.assert_allclose(s.rewards[0], [1, -1], atol=1e-6)
    game, s = finished([10, 20, 20, 5], [0, 0, 0, 0], reward="win_loss")
    np.testing.assert_allclose(s.rewards[0], [-0.5, 0.5, 0.5, -0.5], atol=1e-6)


def truncated_rewards(**options) -> tuple[Game, np.ndarray, np.ndarray]:
    """Random games cut off after 60 agent steps: the rewards of the truncating step, and the
    tally's ranks and scores then."""
    game = Game(num_players=3, max_steps=60, **options)
    B = 40
    s = game.init(np.arange(B))
    rng = np.random.default_rng(2)
    rewards = np.full((B, 3), np.nan, np.float32)
    while not s.done.all():
        live = ~s.done
        game.step(s, sample_legal(s.legal_action_mask, rng.random(B)), where=live)
        now = live & s.done
        rewards[now] = s.rewards[now]
    assert s.truncated.all()
    want = game.terminal_rewards(game.rank_keys(s), game.scores(s))
    return game, rewards, want


@pytest.mark.parametrize("reward", ["win_loss", "score", "rank"])
def test_truncation_reward(reward):
    _, zero, _ = truncated_rewards(reward=reward)
    assert (zero == 0).all()  # the default
    _, got, want = truncated_rewards(reward=reward, truncation_reward="provisional")
    np.testing.assert_allclose(got, want, atol=1e-6)
    assert (got != 0).any() and np.abs(got.sum(axis=1)).max() < 1e-5  # zero-sum, not zero


def test_truncation_reward_reaches_the_aec_agents():
    env = raw_env(num_players=2, max_steps=40, reward="score", truncation_reward="provisional")
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    st, game = env.kernel_state, env.game
    assert st.truncated[0] and not st.terminated[0]
    want = game.terminal_rewards(game.rank_keys(st), game.scores(st))[0]
    np.testing.assert_allclose(list(total.values()), want, atol=1e-6)
    assert np.abs(want).max() > 0
