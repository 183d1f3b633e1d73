"""The single-seat Gymnasium env: the checkers, masks, illegal actions, seeding, opponents,
errors, and the AEC env's game seen from one seat."""

from __future__ import annotations

import contextlib
import re
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils import passive_env_checker
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from gymnasium.utils.env_checker import data_equivalence
from heistbench.agents.base import Policy
from heistbench.integrations import REGISTERED_BOTS, env_id, make_single_agent
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from heistbench import envs

# every game at 2 players and at one other count (its largest up to 4)
CASES = [(name, n) for name in envs.GAMES
         for n in (2, max(c for c in envs.module(name).Game.player_counts if c <= 4))]
IDS = [f"{name}-{n}p" for name, n in CASES]


class Recorder(Policy):
    """Plays the lowest legal action and records who it played for and what."""

    def __init__(self):
        self.calls: list[tuple[np.ndarray, np.ndarray]] = []

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        actions = mask.argmax(axis=1)
        self.calls.append((obs.copy(), actions.copy()))
        return actions


def play(env, seed: int, episodes: int = 1, max_steps: int = 100_000):
    """Random legal play (from a seeded stream) through `episodes` episodes; the trajectory."""
    rng = np.random.default_rng(seed)
    out = []
    obs, info = env.reset(seed=seed)
    out.append((obs, info["seat"]))
    done = 0
    for _ in range(max_steps):
        legal = np.flatnonzero(env.action_masks())
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        out.append((obs, reward, terminated, truncated))
        if terminated or truncated:
            done += 1
            if done == episodes:
                return out
            obs, info = env.reset()
            out.append((obs, info["seat"]))
    raise AssertionError("the episodes did not end")


@contextlib.contextmanager
def no_warnings():
    """Fail on any warning (the checkers warn where SB3 and users would trip)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def same(a, b) -> bool:
    return len(a) == len(b) and all(
        all(np.array_equal(x, y) for x, y in zip(s, t)) for s, t in zip(a, b))


# -- the checkers ---------------------------------------------------------------------------
@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_sb3_check_env_passes(name, n):
    with no_warnings():
        sb3_check_env(make_single_agent(name, num_players=n), warn=True)


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_gymnasium_check_env_passes(name, n):
    """Gymnasium's whole check_env, on the env of a registered id (its spec lets the checker
    make it in every render mode and close it). Its step-determinism check steps an action
    sampled before its seeded reset, often illegal in the new game: the game is lost, twice
    alike."""
    env = gymnasium.make(env_id(name, "heuristic"), num_players=n, render_mode="ansi")
    with no_warnings():
        gymnasium_check_env(env.unwrapped)


@pytest.mark.parametrize("name", envs.GAMES)
def test_registered_ids_make_the_env(name):
    for bots in REGISTERED_BOTS:
        env = gymnasium.make(env_id(name, bots))
        assert env.spec.id == env_id(name, bots)
        assert env.unwrapped.game.name == name and env.unwrapped.game.num_players == 2
        assert [p.name for p in env.unwrapped.opponents.slots] == [bots]
        obs, info = env.reset(seed=0)
        assert obs in env.observation_space
        env.step(env.action_space.sample())
    assert env.unwrapped.lose_illegal  # the default, also in the spec
    assert env.spec.kwargs["illegal_action"] == "lose"
    assert not gymnasium.make(env_id(name, "random"), illegal_action="raise").unwrapped.lose_illegal
    for mode in ("ansi", "human"):  # what check_env's render check does with a spec
        env = gymnasium.make(env_id(name, "random"), render_mode=mode)
        env.reset(seed=0)
        passive_env_checker.env_render_passive_checker(env)
    three = gymnasium.make(env_id(name, "random"), num_players=3, reward="score")
    assert three.unwrapped.game.num_players == 3 and three.unwrapped.game.reward_mode == "score"
    assert env_id("grifters_v1", "heuristic") == "heistbench/grifters-vs-heuristic-v1"


# -- masks, actions and errors ----------------------------------------------------------------
@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_masks_are_the_learners_legal_actions(name, n):
    env = make_single_agent(name, num_players=n, opponents="random")
    obs, info = env.reset(seed=5)
    for _ in range(400):
        st = env.state
        assert st.current_player[0] == env.seat[0]  # the learner is always to move
        mask = env.action_masks()
        assert mask.dtype == bool and mask.any()
        np.testing.assert_array_equal(mask, st.legal_action_mask[0])
        np.testing.assert_array_equal(info["action_mask"], mask.astype(np.int8))
        np.testing.assert_array_equal(obs, env.game.observe(st, env.seat)[0])
        a = env.action_space.sample()  # a legal action, drawn by the space
        assert mask[a]
        obs, _, terminated, truncated, info = env.step(a)
        if terminated or truncated:
            assert not env.action_masks().any() and not info["action_mask"].any()
            assert info["score"] == info["final_scores"][env.seat[0]]
            obs, info = env.reset()


def test_illegal_and_malformed_actions_raise():
    env = make_single_agent("grifters", opponents="random", illegal_action="raise")
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(ValueError, match=r"illegal .*legal: .*action_masks"):
        env.step(illegal)
    with pytest.raises(ValueError, match="out of range"):
        env.step(env.game.num_actions)
    for bad in (1.0, "3", [1, 2], None, np.array([0.5])):
        with pytest.raises(ValueError, match="must be an int"):
            env.step(bad)
    legal = int(np.flatnonzero(env.action_masks())[0])
    env.step(np.array([legal]))  # a one-element integer array is an action too
    while True:
        *_, terminated, truncated, _ = env.step(env.action_space.sample())
        if terminated or truncated:
            break
    with pytest.raises(ValueError, match="is over; reset"):
        env.step(0)



def first_illegal(env) -> int:
    return int(np.flatnonzero(~env.action_masks())[0])


def replay(env, steps: int = 6) -> list:
    """`steps` steps of the lowest legal action (or to the episode's end); the transitions."""
    out = []
    for _ in range(steps):
        out.append(env.step(int(env.action_masks().argmax())))
        if out[-1][2] or out[-1][3]:
            break
    return out


def same_transitions(a: list, b: list) -> bool:
    return len(a) == len(b) and all(data_equivalence(x, y) for x, y in zip(a, b))


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_an_illegal_action_loses_the_game_by_default(name, n):
    """As in the AEC env(): the episode ends at once, terminated, -1 for the learner (0 for the
    others, in the kernel's rewards), and the info says what was played and what was legal."""
    env = make_single_agent(name, num_players=n, opponents="random")
    env.reset(seed=3)
    for _ in range(3):  # not only the first decision
        env.step(env.action_space.sample())
    legal = np.flatnonzero(env.action_masks()).tolist()
    bad, seat = first_illegal(env), int(env.seat[0])
    obs, reward, terminated, truncated, info = env.step(bad)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] == bad and info["legal_actions"] == legal
    assert "final_scores" not in info and not info["action_mask"].any()
    assert obs in env.observation_space
    np.testing.assert_array_equal(obs, env.game.observe(env.state, env.seat)[0])
    st = env.state
    assert st.terminated[0] and not st.truncated[0] and st.current_player[0] == -1
    np.testing.assert_array_equal(st.rewards[0], np.where(np.arange(n) == seat, -1.0, 0.0))
    assert not env.action_masks().any()
    with pytest.raises(ValueError, match="is over; reset"):
        env.step(legal[0])
    obs, info = env.reset()  # the next episode plays as usual
    assert env.action_masks().any() and "illegal_action" not in info
    assert len(replay(env, steps=3)) >= 1


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_illegal_action_raise_changes_nothing(name, n):
    """With illegal_action="raise" an illegal action raises, naming it and the legal ones; the
    game, the opponents' random streams and the action space are as before, so the next legal
    steps play as in a twin env that never saw it."""
    env = make_single_agent(name, num_players=n, opponents="random", illegal_action="raise")
    twin = make_single_agent(name, num_players=n, opponents="random")
    for e in (env, twin):
        e.reset(seed=8)
        e.action_space.seed(8)
        e.step(int(e.action_masks().argmax()))
    before, legal = env.state.copy(), np.flatnonzero(env.action_masks())
    bad = first_illegal(env)
    listed = ", ".join(f"{a} ({env.game.action_name(a)})" for a in legal)
    with pytest.raises(ValueError, match=rf"action {bad} \(.*\) is illegal .*; legal: "
                                         rf"{re.escape(listed)} \(the learner's action"):
        env.step(bad)
    assert env.state == before
    np.testing.assert_array_equal(env.action_space.legal, twin.action_masks().astype(np.int8))
    assert env.action_space.sample() == twin.action_space.sample()
    assert same_transitions(replay(env), replay(twin))


@pytest.mark.parametrize("illegal_action", ["lose", "raise"])
def test_malformed_and_out_of_range_actions_always_raise(illegal_action):
    """They are no moves: neither mode plays them, and nothing changes."""
    env = make_single_agent("vaults", opponents="random", illegal_action=illegal_action)
    twin = make_single_agent("vaults", opponents="random")
    env.reset(seed=2), twin.reset(seed=2)
    before = env.state.copy()
    n = env.game.num_actions
    for bad, message in [(n, rf"action {n} is out of range; actions are 0..{n - 1}"),
                         (-1, "action -1 is out of range"),
                         (np.uint64(2**63), "out of range"), (True, "must be an int"),
                         (1.0, "must be an int"), ("3", "must be an int"), (None, "must be an int"),
                         ([0, 1], "must be an int"), (np.array([0.5]), "must be an int")]:
        with pytest.raises(ValueError, match=message):
            env.step(bad)
        assert env.state == before
    assert same_transitions(replay(env), replay(twin))


def test_bad_arguments_name_what_is_allowed():
    cases = [
        (dict(game="poker"), "unknown game 'poker'; available: big_score_v1"),
        (dict(game="grifters", seat=2), r"seat must be 'random' or a seat number in 0..1"),
        (dict(game="grifters", seat="left"), "seat must be"),
        (dict(game="grifters", seat=True), "seat must be"),
        (dict(game="grifters", opponents="bogus"), r"unknown opponent 'bogus'.*'heuristic'"),
        (dict(game="grifters", opponents=3), "opponents must be 'random', 'heuristic', 'self'"),
        (dict(game="grifters", num_players=3, opponents=["random"]), "need 2 opponent"),
        (dict(game="grifters", num_players=7), "num_players"),
        (dict(game="grifters", render_mode="rgb_array"), "render_mode must be None"),
        (dict(game="grifters", illegal_action="penalize"),
         "grifters_v1: illegal_action must be 'lose' or 'raise', got 'penalize'"),
        (dict(game="grifters", illegal_action=None), "illegal_action must be 'lose' or 'raise'"),
        (dict(game="grifters", colour="red"), "colour"),
        (dict(game=envs.game("grifters", num_players=3), num_players=2), "own options"),
        (dict(game=42), "game must be a game name"),
    ]
    for kwargs, message in cases:
        with pytest.raises(ValueError, match=message):
            make_single_agent(**kwargs)
    with pytest.raises(ValueError, match="reset takes no options"):
        make_single_agent("grifters").reset(options={"seat": 1})
    with pytest.raises(FileNotFoundError, match="no checkpoint"):
        make_single_agent("grifters", opponents="runs/missing/model.zip")


# -- seeding ---------------------------------------------------------------------------------
@pytest.mark.parametrize("opponents", ["random", "heuristic"])
def test_seeded_resets_replay_everything(opponents):
    """Same seed, same learner actions: the same episodes, opponents' random draws included,
    however the env was used before; another seed, other games."""
    a = make_single_agent("grifters", num_players=3, opponents=opponents)
    b = make_single_agent("grifters", num_players=3, opponents=opponents)
    play(b, 99)  # b's history differs
    first = play(a, 7, episodes=3)
    assert same(first, play(b, 7, episodes=3))
    assert same(first, play(a, 7, episodes=3))
    assert not same(first, play(a, 8, episodes=3))
    seats = {s for s in (play(a, seed)[0][1] for seed in range(12))}
    assert seats == {0, 1, 2}  # seat="random" draws the learner's seat per episode


def test_unseeded_reset_continues_the_seeded_stream():
    a, b = make_single_agent("grifters"), make_single_agent("grifters")
    a.reset(seed=3)
    b.reset(seed=3)
    for _ in range(3):
        np.testing.assert_array_equal(a.reset()[0], b.reset()[0])
    fresh = [make_single_agent("grifters").reset()[0] for _ in range(3)]
    assert not all(np.array_equal(fresh[0], f) for f in fresh[1:])


# -- a view on the kernel: the AEC env's game from one seat -----------------------------------
@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_an_episode_is_the_aec_envs_game_seen_from_the_learners_seat(name, n):
    """Replaying the learner's and the opponents' actions in the raw AEC env seeded alike gives
    the learner's observations at its turns and, summed, its rewards."""
    recorder = Recorder()
    env = make_single_agent(name, num_players=n, seat=n - 1, opponents=recorder)
    obs, _ = env.reset(seed=11)
    rng = np.random.default_rng(0)
    learner_obs, learner_actions, total = [obs], [], 0.0
    while True:
        a = int(rng.choice(np.flatnonzero(env.action_masks())))
        learner_actions.append(a)
        obs, reward, terminated, truncated, _ = env.step(a)
        total += reward
        if terminated or truncated:
            break
        learner_obs.append(obs)
    opponent_actions = [int(a[0]) for _, a in recorder.calls]
    aec = envs.module(name).raw_env(num_players=n)
    aec.reset(seed=11)
    me = f"player_{n - 1}"
    seen, aec_total = [], 0.0
    for agent in aec.agent_iter():
        _, reward, term, trunc, _ = aec.last()
        if agent == me:
            aec_total += reward
        if term or trunc:
            aec.step(None)
        elif agent == me:
            seen.append(aec.observe(agent)["observation"])
            aec.step(learner_actions[len(seen) - 1])
        else:
            aec.step(opponent_actions.pop(0))
    assert not opponent_actions and len(seen) == len(learner_actions)
    np.testing.assert_array_equal(np.stack(seen), np.stack(learner_obs))
    assert total == pytest.approx(aec_total)


# -- opponents -------------------------------------------------------------------------------
def test_opponents_of_every_kind(tmp_path):
    from heistbench.agents.base import ObservationBot, RandomPolicy
    from heistbench.agents.model import ModelPolicy, game_signature, write_meta
    from heistbench.training.opponents import LatestSnapshot
    from heistbench.training.vec_env import SelfPlayVecEnv
    from sb3_contrib import MaskablePPO

    game = envs.game("grifters", num_players=3)
    model = MaskablePPO("MlpPolicy", SelfPlayVecEnv(game, 4), n_steps=8, batch_size=16,
                        device="cpu", policy_kwargs={"net_arch": [16]})
    model.save(tmp_path / "model.zip")
    write_meta(tmp_path / "model.zip", game_signature(game))
    first, second = Recorder(), Recorder()
    for opponents, kinds in [
            ("random", [RandomPolicy]), ("heuristic", [ObservationBot]),
            (str(tmp_path), [ModelPolicy]), (tmp_path / "model.zip", [ModelPolicy]),
            ("self", [LatestSnapshot]), (["heuristic", "random"], [ObservationBot, RandomPolicy]),
            ([first, second], [Recorder, Recorder]), ([first, first], [Recorder])]:
        env = make_single_agent("grifters", num_players=3, opponents=opponents)
        slots = env.opponents.slots
        assert len(slots) == len(kinds) and all(map(isinstance, slots, kinds)), opponents
        play(env, 1, episodes=2)
    # a list gives the seats after the learner's their policies in seat order
    env = make_single_agent("grifters", num_players=3, seat=1, opponents=[first, second])
    first.calls.clear(), second.calls.clear()
    play(env, 2)
    assert env.opponents.slots[env.opp[0, 2]] is first
    assert env.opponents.slots[env.opp[0, 0]] is second
    assert first.calls and second.calls
    # "self" seats play the latest snapshot; before the first, the random policy
    env = make_single_agent("grifters", num_players=3, opponents=["self", "heuristic"])
    snapshot = env.opponents.slots[0]
    assert isinstance(snapshot, LatestSnapshot) and isinstance(snapshot.policy, RandomPolicy)
    env.add_snapshot(ModelPolicy.from_sb3(model.policy))
    assert snapshot.snapshots == 1 and isinstance(snapshot.policy, ModelPolicy)
    play(env, 3)
    with pytest.raises(ValueError, match="give 'self'"):
        make_single_agent("grifters").add_snapshot(ModelPolicy.from_sb3(model.policy))
    with pytest.raises(ValueError, match="does not fit"):
        make_single_agent("grifters", num_players=2, opponents=str(tmp_path))


def test_an_aec_env_or_a_game_is_taken_as_it_is():
    aec = envs.make("grifters", num_players=3, reward="score")
    env = make_single_agent(aec, opponents="random")
    assert env.game is aec.unwrapped.game and env.game.reward_mode == "score"
    game = envs.game("big_deal", num_players=4)
    assert make_single_agent(game).game is game


# -- render ----------------------------------------------------------------------------------
def test_render_shows_what_the_learner_sees(capsys):
    env = make_single_agent("grifters", seat=1, opponents="random", render_mode="ansi")
    env.reset(seed=4)
    assert env.render() == env.game.render(env.state, 0, player=1)
    while True:
        *_, terminated, truncated, _ = env.step(env.action_space.sample())
        if terminated or truncated:
            break
    assert env.render() == env.game.render(env.state, 0, player=None)
    capsys.readouterr()
    human = make_single_agent("grifters", seat=0, opponents="random", render_mode="human")
    human.reset(seed=4)  # a frame at each reset and step, like the AEC env's human mode
    assert capsys.readouterr().out == human.game.render(human.state, 0, player=0) + "\n"


def test_maskable_ppo_learns_on_the_registered_env_out_of_the_box():
    """sb3-contrib finds the masks through Gymnasium's wrappers and SB3's Monitor: an illegal
    action would raise."""
    from sb3_contrib import MaskablePPO

    env = gymnasium.make("heistbench/grifters-vs-heuristic-v1", illegal_action="raise")
    model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=1, seed=0,
                        device="cpu", policy_kwargs={"net_arch": [16]})
    model.learn(256)
    assert model.num_timesteps >= 256
