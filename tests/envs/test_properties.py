"""Properties every game in the registry must have, for every player count."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pettingzoo
import pytest
from heistbench.envs.core import observation_box, rng
from heistbench.envs.core.playthrough import golden_path, playthrough
from pettingzoo.test import api_test, seed_test
from pettingzoo.test.state_test import test_state as pz_state_check
from pettingzoo.test.state_test import test_state_space as pz_state_space_check

from heistbench import envs

# every player count, the solo game's (The Big Score at 1 player) included
CASES = [(name, n) for name in envs.GAMES for n in envs.player_counts(name)]
IDS = [f"{name}-{n}p" for name, n in CASES]
GOLDEN = Path(__file__).with_name("golden")


def random_actions(state, t: int) -> np.ndarray:
    """Legal actions that depend only on each game's own key and step: batch-independent."""
    u = rng.uniform(state.key, 77, np.full(state.batch_size, t))
    mask = state.legal_action_mask
    n = mask.sum(axis=1)
    pick = np.minimum((u * n).astype(np.int64), np.maximum(n - 1, 0))
    cum = np.cumsum(mask, axis=1)
    return np.where(n > 0, np.argmax(cum > pick[:, None], axis=1), 0)


def play_out(game, state, check=None):
    """Play random legal actions to the end; returns the summed rewards [B, N]."""
    t = 0
    total = np.zeros(state.rewards.shape)
    while not (state.terminated | state.truncated).all():
        if check:
            check(state, t)
        game.step(state, random_actions(state, t))
        total += state.rewards
        t += 1
        assert t <= game.max_steps + 1
    return total


def same_game(a, b) -> bool:
    """Equal states, ignoring `rewards` (which only holds the last step's rewards)."""
    return all(np.array_equal(x, y) for k, (x, y) in
               enumerate(zip(a.arrays().values(), b.arrays().values()))
               if list(a.arrays())[k] != "rewards")


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_pettingzoo_api(name, n):
    env = envs.make(name, num_players=n)
    api_test(env, num_cycles=300)


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_seed(name, n):
    mod = envs.module(name)
    seed_test(lambda: mod.env(num_players=n), num_cycles=200)


@pytest.mark.parametrize("name", envs.GAMES)
def test_registry_and_pettingzoo_make(name):
    base, ver = name.rsplit("_v", 1)
    env = pettingzoo.make("aec", f"heistbench/{base}-v{ver}")
    env.reset(seed=3)
    assert env.metadata["name"] == name
    assert envs.game(base).name == name
    with pytest.raises(ValueError, match="unknown game"):
        envs.make("no_such_game")


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_random_play_invariants(name, n):
    """Masks never empty for a live game (nor single-option where the kernel settles forced
    decisions itself), conserved totals conserved, games end within the step bound,
    zero-sum terminal rewards, every seat's observation finite and within the env's Box."""
    game = envs.game(name, num_players=n)
    box = envs.module(name).raw_env(num_players=n).observation_space("player_0")["observation"]
    assert box == observation_box(game.obs_size)  # the vector env declares the same bounds
    state = game.init(np.arange(48) + 1000 * n)
    start = game.conserved(state)
    total_reward = np.zeros((state.batch_size, n))

    def check(s, t):
        live = ~(s.terminated | s.truncated)
        assert s.legal_action_mask[live].any(axis=1).all(), "empty mask in a live game"
        assert not s.legal_action_mask[~live].any()
        # the compiled step plays forced decisions: one is handed out only when asked always
        forced = live & (s.legal_action_mask.sum(axis=1) == 1) & ~game.asked_always(s)
        assert not forced.any(), "forced decision left"
        for key, value in game.conserved(s).items():
            assert (value == start[key]).all(), f"{key} not conserved at step {t}"
        if t % 17 == 0:
            for seat in (s.current_player, t // 17 % n):
                obs = game.observe(s, seat)
                assert obs.shape == (s.batch_size, game.obs_size) and obs.dtype == np.float32
                assert np.isfinite(obs).all() and (obs >= box.low).all() and (obs <= box.high).all()

    t = 0
    while not (state.terminated | state.truncated).all():
        check(state, t)
        game.step(state, random_actions(state, t))
        total_reward += state.rewards
        t += 1
        assert t <= game.max_steps + 1
    assert not state.truncated.any(), "a random game hit the step bound"
    assert (state.steps <= game.max_steps).all()
    winners = game.winners(state)
    if n == 1:  # solo: +1 when the objective is met, else -1
        np.testing.assert_array_equal(total_reward, np.where(winners, 1.0, -1.0))
        return
    np.testing.assert_allclose(total_reward.sum(axis=1), 0, atol=1e-5)
    assert (np.abs(total_reward) > 0).any(axis=1).mean() > 0.5  # decisive games are common
    assert winners.any(axis=1).all()


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_batch_equals_single(name, n):
    game = envs.game(name, num_players=n)
    seeds = np.array([5, 17, 5, 99, 123456])
    batch = game.init(seeds)
    rewards = play_out(game, batch)
    for i, seed in enumerate(seeds):
        single = game.init(np.array([seed]))
        np.testing.assert_allclose(play_out(game, single)[0], rewards[i])
        assert same_game(single, batch[i]), f"game {i} (seed {seed}) differs alone and in a batch"
    assert same_game(batch[0], batch[2])  # same seed, same actions, same game


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_no_leaks_resample_hidden(name, n):
    """A player's observation is unchanged when everything hidden from him is redrawn; some
    other player's observation does change (solo: the hidden state does), so the resampling
    is not a no-op. Where the game names `private_fields`, the others' views change in those
    alone (so the critic view holds all the oracle view does)."""
    game = envs.game(name, num_players=n)
    state = game.init(np.arange(12) + 7)
    # where a game names its private fields, the rest of every other view is public to p
    public = None if game.private_columns is None else np.setdiff1d(
        np.arange(game.obs_size), game.private_columns)
    changed_other = 0
    t = 0
    while not (state.terminated | state.truncated).all() and t < 400:
        if t % 4 == 0:
            for p in range(n):
                alt = game.resample_hidden(state, p, 1000 + t)
                np.testing.assert_array_equal(game.observe(alt, p), game.observe(state, p),
                                              err_msg=f"player {p} sees resampled info")
                for r in range(1, n if public is not None else 1):
                    q = (p + r) % n
                    np.testing.assert_array_equal(
                        game.observe(alt, q)[:, public], game.observe(state, q)[:, public],
                        err_msg=f"player {q}'s view changes outside its private_fields when "
                                f"what player {p} cannot see is redrawn")
                live = ~(alt.terminated | alt.truncated)
                assert alt.legal_action_mask[live].any(axis=1).all()
                for key, value in game.conserved(state).items():
                    assert (game.conserved(alt)[key] == value).all(), key
                q = (p + 1) % n
                if n == 1:
                    changed_other += int(alt != state)
                else:
                    changed_other += int((game.observe(alt, q) != game.observe(state, q)).any())
        game.step(state, random_actions(state, t))
        t += 1
    assert changed_other > 0


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_render_and_pickle(name, n):
    env = envs.module(name).raw_env(num_players=n, render_mode="ansi")
    env.reset(seed=1)
    for _ in range(15):
        if env.terminations[env.agent_selection]:
            break
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    text = env.render()
    assert isinstance(text, str) and text.strip()
    clone = pickle.loads(pickle.dumps(env))
    clone.reset(seed=1)
    game = env.game
    state = game.init(np.arange(3))
    assert pickle.loads(pickle.dumps(state)) == state
    assert state.copy() == state and state.copy() is not state
    sub = state[[0, 2]]
    assert sub.batch_size == 2 and sub[1] == state[2]
    for p in range(n):
        assert game.render(state, 1, player=p).strip()


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_illegal_and_out_of_range_actions_raise(name, n):
    game = envs.game(name, num_players=n)
    state = game.init(np.arange(2))
    before = state.copy()
    with pytest.raises(ValueError, match="out of range"):
        game.step(state, np.array([game.num_actions, 0]))
    illegal = np.flatnonzero(~state.legal_action_mask[0])
    legal = np.flatnonzero(state.legal_action_mask[1])
    with pytest.raises(ValueError, match="illegal"):
        game.step(state, np.array([illegal[0], legal[0]]))
    with pytest.raises(ValueError, match="shape"):
        game.step(state, np.array([0, 0, 0]))
    assert state == before, "a rejected step changed the state"
    raw = envs.module(name).raw_env(num_players=n)
    raw.reset(seed=0)
    bad = int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(ValueError):
        raw.step(bad)


@pytest.mark.parametrize("name", envs.GAMES)
def test_bad_options_raise(name):
    mod = envs.module(name)
    with pytest.raises(ValueError, match="unknown option"):
        mod.Game(no_such_option=1)
    with pytest.raises(ValueError, match="num_players"):
        mod.Game(num_players=99)
    with pytest.raises(ValueError, match="reward"):
        mod.env(reward="lots")
    with pytest.raises(ValueError, match="render_mode"):
        mod.raw_env(render_mode="3d")


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_reveal_hidden_shows_every_seat(name, n):
    base = envs.game(name, num_players=n)
    oracle = envs.game(name, num_players=n, reveal_hidden=True)
    state = oracle.init(np.arange(4))
    obs = oracle.observe(state, 0)
    assert obs.shape == (4, base.obs_size * n)
    for q in range(n):
        np.testing.assert_array_equal(obs[:, q * base.obs_size:(q + 1) * base.obs_size],
                                      base.observe(state, q))


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_golden_playthrough(name, n):
    path = golden_path(GOLDEN, name, n)
    if not path.exists():
        pytest.fail(f"missing {path}: run `python -m heistbench.envs.core.playthrough {name}`")
    assert playthrough(name, n) == path.read_text(), (
        f"{name} {n}p no longer replays its golden playthrough; if the change is deliberate, "
        "bump the env version and regenerate with `python -m heistbench.envs.core.playthrough`")


@pytest.mark.parametrize("name", envs.GAMES)
def test_docs_are_generated_from_layouts(name):
    from heistbench.envs.core.docs import END, START, fill

    mod = envs.module(name)
    readme = Path(mod.__file__).with_name(name.rsplit("_v", 1)[0]) / "README.md"
    text = readme.read_text()
    assert START in text and END in text
    assert fill(text, mod.Game) == text, (
        "the generated tables are stale: run `python -m heistbench.envs.core.docs`")
    assert mod.Game().observation_layout.markdown_table() in mod.__doc__


@pytest.mark.parametrize("name", envs.GAMES)
def test_step_where_leaves_the_other_games_alone(name):
    game = envs.game(name, num_players=2)
    state = game.init(np.arange(4))
    before = state.copy()
    where = np.array([True, False, True, False])
    game.step(state, random_actions(state, 0), where=where)
    for b in (1, 3):
        assert same_game(state[b], before[b])
    assert (state.steps[where] >= 1).all()
    with pytest.raises(ValueError, match="where"):
        game.step(state, random_actions(state, 1), where=np.ones(3, bool))


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_observe_gives_finished_games_zero_rows(name, n, partly_finished):
    """`observe(state, state.current_player)` works on a batch holding finished games (seat -1):
    zero rows for them, the usual rows for the others, plain and oracle; other seats raise."""
    game = envs.game(name, num_players=n)
    state = partly_finished(game)
    over, cp = state.done, state.current_player
    live = np.flatnonzero(~over)
    for g in (game, envs.game(name, num_players=n, reveal_hidden=True)):
        obs = g.observe(state, cp)
        assert obs.shape == (state.batch_size, g.obs_size) and not obs[over].any()
        np.testing.assert_array_equal(obs[live], g.observe(state[live], cp[live]))
    for bad in (-2, n):
        with pytest.raises(ValueError, match="player must be in"):
            game.observe(state, np.where(over, -1, bad))
    with pytest.raises(ValueError, match="not over"):
        game.observe(state, -1)


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_state_is_every_seats_observation(name, n):
    """`env.state()` (PettingZoo's global state) is every seat's observation in seat order,
    inside `state_space`; with `reveal_hidden` it is player_0's observation."""
    env = envs.make(name, num_players=n)
    pz_state_space_check(env)  # PettingZoo's state checks (its state_test wants a parallel env)
    pz_state_check(env, num_cycles=20)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for t, _agent in enumerate(env.agent_iter()):
        obs, _, term, trunc, _ = env.last()
        if t % 11 == 0:
            s = env.state()
            assert s.dtype == np.float32 and env.state_space.contains(s)
            np.testing.assert_array_equal(s, np.concatenate(
                [env.observe(a)["observation"] for a in env.possible_agents]))
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    oracle = envs.make(name, num_players=n, reveal_hidden=True)
    oracle.reset(seed=3)
    np.testing.assert_array_equal(oracle.state(), oracle.observe("player_0")["observation"])


@pytest.mark.parametrize("name", envs.GAMES)
def test_human_render_prints_every_step(name, capsys):
    env = envs.make(name, render_mode="human")
    env.reset(seed=0)
    raw = env.unwrapped
    capsys.readouterr()
    for _ in range(3):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
        seat = int(raw.kernel_state.current_player[0])
        assert capsys.readouterr().out == raw.game.render(raw.kernel_state, 0, player=seat) + "\n"
