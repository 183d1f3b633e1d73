"""The compiled core: the scalar RNG against rng.py, the record state, threads, the cache key,
and the rules as plain Python under NUMBA_DISABLE_JIT=1."""

from __future__ import annotations

import hashlib
import inspect
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest
from heistbench.envs import game as make_game
from heistbench.envs.core import jit, rng, scalar
from heistbench.envs.core.compiled import CompiledGame
from heistbench.envs.core.game import Game
from heistbench.envs.core.options import REWARD_MODES

from heistbench import envs

# the games on the compiled core, by their registry name without the version
COMPILED = [n.rsplit("_v", 1)[0] for n in envs.GAMES if isinstance(make_game(n), CompiledGame)]


def test_scalar_rng_gives_the_streams_of_rng_py():
    gen = np.random.default_rng(0)
    keys = rng.seed_keys(np.concatenate([np.arange(-50, 50), gen.integers(-2**62, 2**62, 100)]))
    counters = np.concatenate([np.arange(20), gen.integers(0, 2**63, 20)]).astype(np.uint64)
    for stream in range(8):
        want_bits = rng.bits(keys[:, None], stream, counters[None, :])
        want_u = rng.uniform(keys[:, None], stream, counters[None, :])
        for i in range(0, len(keys), 7):
            for j in range(len(counters)):
                assert scalar.bits(keys[i], stream, counters[j]) == want_bits[i, j]
                assert scalar.uniform(keys[i], stream, counters[j]) == want_u[i, j]
        for n in (1, 5, 48):
            want = rng.permutations(keys[:20], stream, n)
            for i in range(20):
                assert scalar.permutation(keys[i], stream, n).tolist() == want[i].tolist()


def test_scalar_bag_draws_and_sorting():
    gen = np.random.default_rng(1)
    counts = gen.integers(0, 4, (300, 19))
    counts[::10] = 0  # empty bags
    u = gen.random(300)
    want = rng.draw_from_counts(counts, u)
    got = [scalar.draw_from_counts(counts[i], u[i]) for i in range(300)]
    assert got == want.tolist()
    vals = gen.integers(0, 5, 60).astype(np.uint64)  # many ties: the order must be stable
    assert scalar.stable_order(vals).tolist() == np.argsort(vals, kind="stable").tolist()


@pytest.mark.parametrize("mode", REWARD_MODES)
def test_scalar_terminal_rewards_match_the_base(mode):
    game = make_game("grifters", num_players=4, reward=mode)
    gen = np.random.default_rng(2)
    keys = gen.integers(0, 4, (200, 4))  # many ties
    scores = gen.integers(0, 60, (200, 4))
    want = Game.terminal_rewards(game, keys, scores)
    for b in range(200):
        out = np.zeros(4, np.float32)
        scalar.terminal_rewards(out, keys[b], scores[b], REWARD_MODES.index(mode),
                                game.score_scale)
        assert out.tolist() == want[b].tolist()


def test_rank_reward_ties_share_their_average_rank():
    game = make_game("grifters", num_players=4, reward="rank")
    keys = np.array([[5, 9, 9, 1], [3, 3, 3, 3], [4, 2, 3, 1]])
    want = [[-1 / 3, 2 / 3, 2 / 3, -1], [0, 0, 0, 0], [1, -1 / 3, 1 / 3, -1]]
    np.testing.assert_allclose(Game.terminal_rewards(game, keys, keys), want, atol=1e-6)
    keys = np.random.default_rng(3).integers(0, 3, (100, 4))
    assert np.abs(Game.terminal_rewards(game, keys, keys).sum(axis=1)).max() < 1e-6


@pytest.mark.parametrize("name", COMPILED)
def test_record_state_is_one_array_with_views(name):
    game = make_game(name, num_players=2)
    s = game.init(np.arange(6))
    assert s.data.dtype.names[:7] == ("current_player", "legal_action_mask", "terminated",
                                      "truncated", "rewards", "steps", "key")
    assert s.legal_action_mask.dtype == bool and s.legal_action_mask.shape == (6, game.num_actions)
    assert s.rewards.shape == (6, 2) and s.current_player.shape == (6,)
    s.rewards[1, 0] = 0.5  # views write through
    assert s.data["rewards"][1, 0] == 0.5
    sub = s[[1, 3]]
    assert sub.batch_size == 2 and sub.rewards[0, 0] == 0.5
    sub.rewards[0, 0] = 0.0
    assert s.rewards[1, 0] == 0.5  # a sub-batch is a copy
    s[[1, 3]] = sub
    assert s.rewards[1, 0] == 0.0
    both = type(s).concat([s, sub])
    assert both.batch_size == 8 and both[6] == s[1]
    again = pickle.loads(pickle.dumps(s))
    assert again == s and again.num_players == 2
    assert s.copy() == s and s.copy() is not s
    c = s.copy()
    c.steps[0] += 1  # a copy is independent
    assert c != s and c[1:] == s[1:]
    s[np.arange(6) == 0] = c[[0]]  # a bool mask writes back
    assert s == c
    other = np.zeros(2, [("current_player", np.int8)])
    with pytest.raises(ValueError, match="another game"):
        s[[0, 1]] = type(s)(other, 2)
    with pytest.raises(ValueError, match="player count"):
        type(s).concat([s, make_game(name, num_players=3).init(np.arange(2))])
    with pytest.raises(AttributeError, match="no field"):
        s.no_such_field  # noqa: B018


def _play(game: Game, seeds: np.ndarray, steps: int = 400) -> bytes:
    """Random legal play of a batch; the final state's bytes."""
    s = game.init(seeds)
    gen = np.random.default_rng(3)
    for _ in range(steps):
        if s.done.all():
            break
        m = s.legal_action_mask
        acts = np.array([gen.choice(np.flatnonzero(r)) if r.any() else 0 for r in m])
        game.step(s, acts)
    return s.data.tobytes()


@pytest.mark.parametrize("name", COMPILED)
def test_the_same_games_with_any_number_of_threads(name):
    game = make_game(name, num_players=3)
    one = _play(game, np.arange(32))
    try:
        jit.set_threads(2)
        two = _play(game, np.arange(32))
    finally:
        jit.set_threads(1)
    assert one == two


@pytest.mark.parametrize("name", COMPILED)
def test_random_playouts_finish_every_game_alone_or_in_a_batch(name):
    """`play_out_random`: one compiled call ends every game with its terminal rewards, and
    game i plays the same moves from seed i in any batch."""
    game = make_game(name, num_players=2)
    batch = game.init(np.arange(6))
    game.step(batch, batch.legal_action_mask.argmax(axis=1))  # a game under way
    alone = batch[[4]]
    game.play_out_random(batch, np.arange(100, 106))
    game.play_out_random(alone, 104)
    assert batch.done.all()
    assert batch[[4]] == alone
    np.testing.assert_array_equal(batch.rewards, game.terminal_rewards(
        game.rank_keys(batch), game.scores(batch)) * ~batch.truncated[:, None])


def test_threads_are_validated():
    with pytest.raises(ValueError, match="threads must be in 1"):
        jit.set_threads(0)


def test_the_cache_is_keyed_on_every_source_file(tmp_path, monkeypatch):
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "rules.py").write_text("x = 1\n")
    (folder / "components.py").write_text("y = 1\n")
    monkeypatch.setenv("HEISTBENCH_CACHE_DIR", str(tmp_path / "cache"))
    first = jit.cache_dir("game", folder)
    assert first.parent == tmp_path / "cache"
    (folder / "components.py").write_text("y = 2\n")  # an edit numba itself would not see
    assert jit.cache_dir("game", folder) != first


_DISABLED = """
from __future__ import annotations
import hashlib
import numpy as np
from heistbench.envs import game
{play}
for n in (2, 3, 4):
    print(hashlib.sha256(_play(game({name!r}, num_players=n), np.arange(3), 120)).hexdigest())
"""


@pytest.mark.parametrize("name", COMPILED)
def test_the_rules_run_as_plain_python_without_jit(name):
    """NUMBA_DISABLE_JIT=1 runs the very same rule functions as Python (for debugging), with
    the same games as the compiled code."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    code = _DISABLED.format(play=inspect.getsource(_play), name=name)
    out = subprocess.run([sys.executable, "-c", code],
                         env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    want = [hashlib.sha256(_play(make_game(name, num_players=n), np.arange(3), 120)).hexdigest()
            for n in (2, 3, 4)]
    assert out.stdout.split() == want


def test_the_cache_lives_outside_the_package(monkeypatch):
    """So that a read-only install still caches its compiled rules."""
    monkeypatch.delenv("HEISTBENCH_CACHE_DIR", raising=False)
    package = jit.CORE.parent.parent
    assert package not in jit.cache_root().parents
    monkeypatch.setenv("XDG_CACHE_HOME", "/somewhere")
    assert jit.cache_root() == jit.Path("/somewhere/heistbench/numba")


@pytest.mark.parametrize("name", COMPILED)
def test_the_batch_of_one_paths_match_the_batch_api(name):
    """The AEC env's `observe_one`/`step_one` give what `observe`/`step` give, errors too."""
    game = make_game(name, num_players=3)
    a, b = game.init(np.arange(1)), game.init(np.arange(1))
    for _ in range(30):
        for p in range(3):
            np.testing.assert_array_equal(game.observe_one(a, p), game.observe(b, p)[0])
        act = int(np.flatnonzero(a.legal_action_mask[0])[0])
        game.step_one(a, act)
        game.step(b, np.array([act]))
        assert a == b
    illegal = int(np.flatnonzero(~a.legal_action_mask[0])[0])
    before = a.copy()
    with pytest.raises(ValueError, match="illegal"):
        game.step_one(a, illegal)
    with pytest.raises(ValueError, match="out of range"):
        game.step_one(a, game.num_actions)
    assert a == before


@pytest.mark.parametrize("name", COMPILED)
def test_the_aec_env_observes_what_the_batch_api_does(name):
    """The AEC env takes the mover's observation from its step's view (one compiled call per
    agent step); every seat's observation, at every step, is the batch API's."""
    env = envs.module(name).raw_env(num_players=3)
    env.reset(seed=5)
    game, rng = env.game, np.random.default_rng(0)
    from_view = 0
    for _ in range(200):
        st = env.kernel_state
        from_view += env._obs_seat >= 0
        for p, agent in enumerate(env.possible_agents):
            np.testing.assert_array_equal(env.observe(agent)["observation"],
                                          game.observe(st, p)[0])
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        mask = env.observe(agent)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert from_view > 0  # the view's observation was the one compared
