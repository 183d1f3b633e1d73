"""The Gymnasium VectorEnv on the batch kernel: the single envs' games, batched."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from heistbench.agents.base import Policy
from heistbench.integrations import make_single_agent, make_vector_env

from heistbench import envs

CASES = [(name, n) for name in envs.GAMES
         for n in (2, max(c for c in envs.module(name).Game.player_counts if c <= 4))]
IDS = [f"{name}-{n}p" for name, n in CASES]


class Highest(Policy):
    """The highest legal action: a deterministic opponent, the same batched or alone."""

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return mask.shape[1] - 1 - mask[:, ::-1].argmax(axis=1)


def lowest(mask: np.ndarray) -> np.ndarray:
    return np.asarray(mask).argmax(axis=-1)


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_rows_play_like_single_envs_with_the_same_seeds(name, n):
    """Row i of a vector env reset with seed s is a single env reset with s + i, across
    next-step autoresets, while the opponents play deterministically."""
    B = 3
    vec = make_vector_env(name, B, opponents=Highest(), num_players=n)
    obs, infos = vec.reset(seed=40)
    singles = [make_single_agent(name, opponents=Highest(), num_players=n) for _ in range(B)]
    firsts = [env.reset(seed=40 + i) for i, env in enumerate(singles)]
    for i, (o, info) in enumerate(firsts):
        np.testing.assert_array_equal(obs[i], o)
        assert infos["seat"][i] == info["seat"]
    pending = np.zeros(B, bool)  # rows whose game ended at the last step
    restarts = np.zeros(B, int)
    for _ in range(5000):
        if (restarts >= 1).all():  # every row into its second game
            break
        restarts += pending
        actions = lowest(vec.action_masks())
        obs, rew, term, trunc, infos = vec.step(actions)
        for i, env in enumerate(singles):
            if pending[i]:  # next-step autoreset: the single env's next reset
                o, info = env.reset()
                r, te, tr = 0.0, False, False
                assert infos["_seat"][i] and infos["seat"][i] == info["seat"]
            else:
                o, r, te, tr, info = env.step(int(actions[i]))
            np.testing.assert_array_equal(obs[i], o)
            assert (rew[i], term[i], trunc[i]) == (r, te, tr)
            np.testing.assert_array_equal(infos["action_mask"][i], info["action_mask"])
        pending = term | trunc
    assert (restarts >= 1).all()
    assert vec.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP


def test_seeded_resets_replay_everything_random_opponents_included():
    a = make_vector_env("grifters", 8, opponents="random", num_players=3)
    b = make_vector_env("grifters", 8, opponents="random", num_players=3)
    runs = []
    for env, seed in ((a, 5), (b, list(range(5, 13))), (a, 5)):
        obs, _ = env.reset(seed=seed)  # an int seed s gives the rows s, s + 1, ...
        env.action_space.seed(0)
        out = [obs]
        for _ in range(120):
            out += list(env.step(env.action_space.sample())[:4])
        runs.append(out)
    for run in runs[1:]:
        for x, y in zip(runs[0], run):
            np.testing.assert_array_equal(x, y)
    other = make_vector_env("grifters", 8, opponents="random", num_players=3)
    assert not np.array_equal(other.reset(seed=6)[0], runs[0][0])


def test_masks_sampling_and_errors():
    env = make_vector_env("grifters", 16, opponents="heuristic", illegal_action="raise")
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(16, np.int64))
    obs, infos = env.reset(seed=0)
    assert obs.shape == (16, env.game.obs_size) and obs in env.observation_space
    ended = 0
    for _ in range(200):
        masks = env.action_masks()
        np.testing.assert_array_equal(masks.astype(np.int8), infos["action_mask"])
        live = masks.any(axis=1)
        assert (env.state.current_player[live] == env.seat[live]).all()
        actions = env.action_space.sample()
        assert masks[live, actions[live]].all()  # legal in every live row
        obs, rew, term, trunc, infos = env.step(actions)
        assert rew.shape == (16,) and term.dtype == bool and trunc.dtype == bool
        done = term | trunc
        ended += int(done.sum())
        if done.any():
            assert set(np.unique(rew[done])) <= {-1.0, 0.0, 1.0}
            np.testing.assert_array_equal(infos["_final_scores"], done)
            assert not env.action_masks()[done].any()
    assert ended > 20
    masks = env.action_masks()
    live = np.flatnonzero(masks.any(axis=1))
    bad = lowest(masks)
    bad[live[0]] = np.flatnonzero(~masks[live[0]])[0]
    with pytest.raises(ValueError, match=f"game {live[0]}: action .* is illegal"):
        env.step(bad)
    with pytest.raises(ValueError, match=r"shape \(16,\)"):
        env.step(np.zeros(15, np.int64))
    with pytest.raises(ValueError, match="ints of shape"):
        env.step(np.zeros(16))
    with pytest.raises(ValueError, match="seed must be None, an int or 16 ints"):
        env.reset(seed=[1, 2])
    with pytest.raises(ValueError, match="num_envs must be a positive int"):
        make_vector_env("grifters", 0)
    with pytest.raises(ValueError, match="seat must be"):
        make_vector_env("grifters", 4, seat=5)
    with pytest.raises(ValueError, match="illegal_action must be 'lose' or 'raise', got 'skip'"):
        make_vector_env("grifters", 4, illegal_action="skip")


def twins(name: str, n: int, illegal_action: str, B: int = 4, seed: int = 30):
    """A vector env and its twin (default options), reset alike, deterministic opponents."""
    pair = [make_vector_env(name, B, opponents=Highest(), num_players=n, **kw)
            for kw in ({"illegal_action": illegal_action}, {})]
    for env in pair:
        env.reset(seed=seed)
    return pair


def assert_rows_equal(a: tuple, b: tuple, rows) -> None:
    for x, y in zip(a[:4], b[:4]):
        np.testing.assert_array_equal(x[rows], y[rows])
    np.testing.assert_array_equal(a[4]["action_mask"][rows], b[4]["action_mask"][rows])


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_an_illegal_action_loses_only_its_rows_game(name, n):
    """Row 1 plays an illegal action: its game ends (terminated, -1, the info says what was
    played and what was legal) and autoresets into the next episode of its seed; every other
    row plays on as in a twin env whose row 1 played legally."""
    env, twin = twins(name, n, "lose")
    masks = env.action_masks()
    actions = lowest(masks)
    bad = actions.copy()
    bad[1] = np.flatnonzero(~masks[1])[0]
    obs, rew, term, trunc, infos = env.step(bad)
    others = [0, 2, 3]
    assert_rows_equal((obs, rew, term, trunc, infos), twin.step(actions), others)
    assert (rew[1], term[1], trunc[1]) == (-1.0, True, False)
    np.testing.assert_array_equal(infos["_illegal_action"], [False, True, False, False])
    assert infos["illegal_action"][1] == bad[1]
    assert infos["legal_actions"][1] == np.flatnonzero(masks[1]).tolist()
    assert not infos.get("_final_scores", np.zeros(4, bool))[1]
    assert not env.action_masks()[1].any() and env.state.current_player[1] == -1
    # next step: row 1 autoresets (its action ignored) into episode 1 of seed 31
    obs, rew, term, trunc, infos = env.step(lowest(env.action_masks()))
    single = make_single_agent(name, opponents=Highest(), num_players=n)
    single.reset(seed=31)
    first, info = single.reset()
    np.testing.assert_array_equal(obs[1], first)
    assert (rew[1], term[1], trunc[1]) == (0.0, False, False)
    assert infos["_seat"][1] and infos["seat"][1] == info["seat"]
    assert "_illegal_action" not in infos


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_illegal_action_raise_changes_no_row(name, n):
    """With "raise", an illegal action in one row raises, naming it, while another row waits
    for its autoreset; no row changes, nor the autoreset, so the next steps play as in the
    twin env that never saw it."""
    env, twin = twins(name, n, "raise")
    for _ in range(5000):  # to a step after which some row waits for its autoreset
        actions = lowest(env.action_masks())
        out = env.step(actions)
        assert_rows_equal(out, twin.step(actions), slice(None))
        if (out[2] | out[3]).any():
            break
    pending = out[2] | out[3]
    assert pending.any() and not pending.all()
    masks = env.action_masks()
    live = np.flatnonzero(masks.any(axis=1))
    bad = lowest(masks)
    row = int(live[0])
    bad[row] = np.flatnonzero(~masks[row])[0]
    before, episodes = env.state.copy(), env._episodes.copy()
    with pytest.raises(ValueError, match=rf"game {row}: action {bad[row]} .* is illegal .*legal"):
        env.step(bad)
    assert env.state == before and (env._episodes == episodes).all()
    np.testing.assert_array_equal(env._autoreset, pending)
    for _ in range(20):
        actions = lowest(env.action_masks())
        assert_rows_equal(env.step(actions), twin.step(actions), slice(None))


def test_malformed_and_out_of_range_actions_always_raise():
    env, twin = twins("vaults", 2, "lose")
    before = env.state.copy()
    n = env.game.num_actions
    for bad, message in [(np.full(4, n), f"game 0: action {n} is out of range"),
                         (np.array([0, 0, -1, 0]), "game 2: action -1 is out of range"),
                         (np.zeros(4), "ints of shape"), (np.zeros(3, np.int64), "ints of shape"),
                         ([True] * 4, "ints of shape")]:
        with pytest.raises(ValueError, match=message):
            env.step(bad)
        assert env.state == before
    actions = lowest(env.action_masks())
    assert_rows_equal(env.step(actions), twin.step(actions), slice(None))


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_every_game_runs_with_the_bots(name, n):
    env = make_vector_env(name, 8, seat=0, opponents=["heuristic"] + ["random"] * (n - 2),
                          num_players=n)
    env.reset(seed=1)
    assert (env.seat == 0).all()
    for _ in range(30):
        obs, rew, *_ = env.step(env.action_space.sample())
        assert np.isfinite(obs).all() and np.isfinite(rew).all()


def test_gymnasium_make_vec_gives_the_kernel_vector_env():
    import gymnasium
    from heistbench.integrations import SingleAgentVectorEnv

    envs_ = gymnasium.make_vec("heistbench/grifters-vs-random-v1", num_envs=8, num_players=3)
    assert isinstance(envs_, SingleAgentVectorEnv) and envs_.num_envs == 8
    assert envs_.game.num_players == 3 and envs_.spec.id == "heistbench/grifters-vs-random-v1"
    obs, _ = envs_.reset(seed=0)
    assert obs.shape == (8, envs_.game.obs_size)
    envs_.step(envs_.action_space.sample())
