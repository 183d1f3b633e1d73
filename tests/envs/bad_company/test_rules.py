"""Rules beyond the spec's scenarios: the rule decisions of the README, random-play invariants
at every player count, no leaks at every decision type, bad input, plain Python."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from heistbench.agents.base import sample_legal
from heistbench.envs.bad_company import components as C
from heistbench.envs.bad_company import rules as K
from heistbench.envs.bad_company_v1 import Game, raw_env

from .helpers import H, at, blank, decision, end_phase_all, legal, play

COUNTS = (2, 3, 4, 5, 6)


def test_layouts_are_sized_by_player_count():
    for n in COUNTS:
        g = Game(num_players=n)
        assert g.num_actions == 92
        assert g.obs_size == 690 + 6 * n + 283 * n  # fixed parts, seat one-hots, player blocks
    names = [Game().action_name(a) for a in range(92)]
    assert len(set(names)) == 92 and names[72] == "end phase 2B" and names[88].endswith("top heist")


@pytest.mark.parametrize("n", (2, 6))
def test_pairing_fields_follow_from_the_dice_and_the_crew(n):
    """v1's derived fields: each pairing's sums, and the observer's member at each sum."""
    game = Game(num_players=n)
    state = game.init(np.arange(32))
    rng = np.random.default_rng(0)
    rolled_seen = unrolled_seen = 0
    for _ in range(300):
        for seat in range(n):
            f = game.obs_fields(game.observe(state, seat))
            dice = f["yellow_dice"].reshape(-1, 4, 6)
            rolled = dice.sum(axis=2).min(axis=1) > 0
            faces = dice.argmax(axis=2) + 1
            crew = f["player.crew"][:, 0].reshape(-1, C.NUM_MEMBERS, 9)
            pairs = f["pairings"].reshape(-1, 6, 11)
            members = f["pairing_members"].reshape(-1, 6, 9)
            for b in np.flatnonzero(rolled):
                for k, (i0, i1, j0, j1) in enumerate(K.PAIR_IDX):
                    lo, hi = sorted((faces[b, i0] + faces[b, i1], faces[b, j0] + faces[b, j1]))
                    for j, s in enumerate((lo, hi)):
                        assert pairs[b, 2 * k + j].argmax() + 2 == s
                        assert pairs[b, 2 * k + j].sum() == 1
                        np.testing.assert_array_equal(members[b, 2 * k + j], crew[b, s - 2])
            unrolled = ~rolled
            assert not pairs[unrolled].any() and not members[unrolled].any()
            sums = f["pair_sums"].reshape(-1, 2, 11)
            chosen = f["sum_members"].reshape(-1, 2, 9)
            for b, j in zip(*np.nonzero(sums.sum(axis=2))):
                np.testing.assert_array_equal(chosen[b, j], crew[b, sums[b, j].argmax()])
            rolled_seen += rolled.sum()
            unrolled_seen += unrolled.sum()
        live = ~(state.terminated | state.truncated)
        if not live.any():
            break
        game.step(state, np.where(live, sample_legal(state.legal_action_mask,
                                                      rng.random(32)), 0))
    assert rolled_seen and unrolled_seen


def test_bad_options_say_what_is_allowed():
    with pytest.raises(ValueError, match="first_chief.*0..3"):
        Game(num_players=4, first_chief=4)
    with pytest.raises(ValueError, match="leftover_tokens.*tasks_and_heists"):
        Game(leftover_tokens="all")
    with pytest.raises(ValueError, match="final_phase_2b.*a bool"):
        Game(final_phase_2b="yes")
    assert (Game(num_players=3, first_chief=2).init(np.arange(4)).chief == 2).all()
    chiefs = Game(num_players=5).init(np.arange(80)).chief
    assert set(chiefs.tolist()) == set(range(5))  # drawn from the seed by default


def test_bad_actions_raise_and_change_nothing():
    game = Game(num_players=3)
    s = game.init(np.arange(2))
    before = s.copy()
    with pytest.raises(ValueError, match=r"action 0 \(accept roll\) is illegal.*legal: 89"):
        game.step(s, np.array([0, 89]))
    with pytest.raises(ValueError, match="out of range"):
        game.step(s, np.array([-1, 89]))
    assert s == before


def random_games(n: int, games: int, seed: int, check=None, **options):
    game = Game(num_players=n, **options)
    s = game.init(np.arange(games) + seed)
    rng = np.random.default_rng(seed)
    t = 0
    while not s.done.all():
        if check is not None:
            check(game, s, t)
        game.step(s, sample_legal(s.legal_action_mask, rng.random(games)))
        t += 1
    return game, s


OTHER_OPTIONS = dict(police_start_offset=5, police_die_faces=(2, 2, 1, 1, 0, 0),
                     canonical_pairings=False, reward="rank")


@pytest.mark.parametrize("n, options", [(n, {}) for n in COUNTS] + [(4, OTHER_OPTIONS)],
                         ids=[f"{n}p" for n in COUNTS] + ["4p-other-options"])
def test_random_play_invariants(n, options):
    """BC-T28: games end, money never negative, tokens within the spaces, collars on distinct
    members, a live mask never empty, observations inside [0, 1], zero-sum rewards (with the
    default options, and with the others at 4 players)."""
    total = np.zeros((40, n))

    def check(game, s, t):
        assert (s.money >= 0).all() and (s.task_tok <= 2).all() and (s.task_tok >= 0).all()
        req = np.where(s.active[..., None] >= 0, C.HEIST_REQ[np.maximum(s.active, 0)], 0)
        assert (s.cov <= req).all()
        live = ~s.done
        assert s.legal_action_mask[live].any(axis=1).all()
        for b in range(s.batch_size):
            placed = [(int(o), int(m)) for o, m in zip(s.collar_owner[b], s.collar_member[b])
                      if m >= 0]
            assert len(placed) == len(set(placed))
        assert (s.police >= -6).all() and (s.car <= 28).all()
        if t % 9 == 0:
            obs = game.observe(s, np.maximum(s.current_player, 0))
            assert obs.min() >= 0 and obs.max() <= 1
        total[:] += s.rewards

    game, s = random_games(n, 40, 100 * n, check, **options)
    total += s.rewards
    assert s.terminated.all() and not s.truncated.any()
    np.testing.assert_allclose(total.sum(axis=1), 0, atol=1e-5)
    assert (s.final_round & s.end_triggered).all()
    ended = (s.heists_done.max(axis=1) >= 6) | (s.car.max(axis=1) >= 25) | (s.police >= 25)
    assert ended.all()


def test_no_leaks_at_every_decision_type():
    """Resampling what a seat cannot see leaves its observation unchanged, at every decision
    type; the hidden parts (loot hands, decks, another player's draws) do change."""
    seen, changed = set(), set()

    def check(game, s, t):
        if t % 2:
            return
        for p in range(game.num_players):
            alt = game.resample_hidden(s, p, 7 + t)
            np.testing.assert_array_equal(game.observe(alt, p), game.observe(s, p))
            others = np.arange(game.num_players) != p
            if (alt.loot[:, others] != s.loot[:, others]).any():
                changed.add("loot")
            if (alt.hdeck != s.hdeck).any():
                changed.add("heist deck")
            if (alt.udeck != s.udeck).any():
                changed.add("upgrade deck")
            if (alt.setup_choice != s.setup_choice).any():
                changed.add("setup draw")
            if (alt.upg_choice != s.upg_choice).any():
                changed.add("upgrade draw")
        live = ~s.done
        seen.update(s.dec[live].tolist())

    random_games(3, 24, 5, check, auto_forced=False)
    assert seen == set(range(K.NUM_DECISIONS - 1))  # every decision but game over
    assert changed == {"loot", "heist deck", "upgrade deck", "setup draw", "upgrade draw"}


def test_own_returned_heist_stays_put_when_resampled():
    game = Game(num_players=3, first_chief=0)
    s = game.init(np.arange(6))
    game.step(s, np.full(6, K.A_SETUP))
    alt = game.resample_hidden(s, 0, 3)
    bottom = (s.hd_head.astype(int) + s.hd_len - 1) % 40
    assert (alt.hdeck[np.arange(6), bottom] == s.returned[:, 0]).all()


def test_d_bc_08_police_on_a_control_point_has_passed_it():
    """(see BC-T09 for the car) and a car on the police car's space is not behind it."""
    _, s = blank()
    s.car[0] = (10, 9)
    s.police[0] = 10
    scores = Game(num_players=2).scores(s)[0]
    assert scores.tolist() == [0, -3]


def test_d_bc_10_a_full_heist_waits_for_its_owner():
    game, s = blank()
    s.active[0, 0, 0] = H["H01"]
    s.cov[0, 0, 0] = (1, 1, 1, 0)
    at(game, s, K.PHASE2B)
    assert {K.A_COMPLETE_HEIST, K.A_END_PHASE} <= legal(s)
    end_phase_all(game, s)
    assert s.active[0, 0, 0] == H["H01"] and s.heists_done[0, 0] == 0


@pytest.mark.parametrize("final_2b", [True, False])
def test_d_bc_13_final_round_phase_2b(final_2b):
    """The final round has phase 2B by default (option final_phase_2b=False: tally at once)."""
    game, s = blank(final_phase_2b=final_2b)
    s.active[0, 0, 0] = H["H01"]
    s.cov[0, 0, 0] = (1, 1, 1, 0)
    s.heists_done[0, 1] = 6
    at(game, s, K.END_TURN)
    assert s.final_round[0]
    decisions = []
    while not s.terminated[0]:
        decisions.append(decision(s))
        play(game, s, max(legal(s) - {K.A_END_PHASE}, default=K.A_END_PHASE))
    assert (K.PHASE2B in decisions) == final_2b
    assert s.completed[0, 0, H["H01"]] == final_2b


def test_d_bc_18_empty_decks_reshuffle_their_discards():
    game, s = blank()
    s.ud_len[0] = 0
    s.udisc[0] = False
    s.udisc[0, [3, 4]] = True
    s.money[0, 0] = 9
    at(game, s, K.PHASE2B)
    play(game, s, K.A_RECRUIT)
    assert sorted(s.upg_choice[0].tolist()) == [-1, 3, 4]  # only two to draw
    play(game, s, K.A_UPGRADE + int(np.flatnonzero(s.upg_choice[0] >= 0)[0]))
    s.udisc[0] = False
    play(game, s, K.A_RECRUIT)  # nothing left: the recruiter still advances
    assert decision(s) == K.PHASE2B and s.recruit[0, 0] == 2
    s.ld_len[0] = 0
    s.ldisc[0] = 0
    s.ldisc[0, C.L_CASH3] = 1
    s.car[0, 0], s.pending_steps[0], s.ret[0] = 5, 1, K.PHASE2B
    at(game, s, K.PENDING)
    play(game, s, K.A_STEP)  # control point 6: a loot card from the reshuffled discard
    assert s.loot[0, 0, C.L_CASH3] == 1 and s.ldisc[0].sum() == 0


def test_aec_env_plays_a_game_to_the_end():
    env = raw_env(num_players=5)
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert len(info["scores"]) == 5


_DISABLED = """
import hashlib, numpy as np
from heistbench.envs.bad_company_v1 import Game
from heistbench.agents.base import sample_legal
from heistbench.envs.core.playthrough import playthrough
print(hashlib.sha256(PLAY(Game(num_players=3), 2)).hexdigest())
print(hashlib.sha256(playthrough("bad_company_v1", 3).encode()).hexdigest())
"""
GOLDEN_3P = Path(__file__).parents[1] / "golden" / "bad_company_v1_3p.txt"


def _play(game, games: int) -> bytes:
    s = game.init(np.arange(games))
    rng = np.random.default_rng(0)
    obs = []
    while not s.done.all():
        obs.append(game.observe(s, np.maximum(s.current_player, 0)))
        game.step(s, sample_legal(s.legal_action_mask, rng.random(games)))
    return s.data.tobytes() + np.concatenate(obs).tobytes()


def test_the_rules_run_as_plain_python_without_jit():
    """Two random games, and the 3-player golden game (where a player completes both heists in
    a turn and takes two: NumPy bools summed in plain Python once made that one)."""
    import inspect

    code = inspect.getsource(_play).replace("def _play", "def PLAY") + _DISABLED
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.split() == [hashlib.sha256(_play(Game(num_players=3), 2)).hexdigest(),
                                  hashlib.sha256(GOLDEN_3P.read_bytes()).hexdigest()]


def test_d_bc_14_cash_loot_pays_for_rerolls():
    game, s = blank()
    s.loot[0, 0, C.L_CASH3] = 1
    at(game, s, K.CHIEF_REROLL)
    assert legal(s) == {K.A_ACCEPT, K.A_CASH3}
    play(game, s, K.A_CASH3)
    assert s.money[0, 0] == 3 and K.A_REROLL in legal(s) and decision(s) == K.CHIEF_REROLL


def test_d_bc_01_the_display_is_public():
    game = Game(num_players=4)
    s = game.init(np.arange(3))
    for p in range(4):
        f = game.obs_fields(game.observe(s, p))
        number = np.rint(f["display"].reshape(3, 5, 38)[:, :, 1] * 40).astype(int) - 1
        top = s.hdeck[np.arange(3), s.hd_head]
        assert (number[:, :4] == s.display).all() and (number[:, 4] == top).all()


def test_each_purple_card_counts_on_its_own():
    _, s = blank()
    s.completed[0, 0, [H["H23"], H["H38"]]] = True  # two Masterminds: +2 per heist each
    s.car[0, 0], s.police[0] = 0, -6
    base = int(C.HEIST_VP[H["H23"]]) + int(C.HEIST_VP[H["H38"]])
    assert Game(num_players=2).scores(s)[0, 0] == base + 2 * 2
