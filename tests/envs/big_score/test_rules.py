"""Rule tests derived from the rulebook text and the rule decisions (R-01 … R-25)."""

from __future__ import annotations

import numpy as np
import pytest
from big_score_helpers import (
    ART,
    CM,
    COPS,
    DIA,
    FLEE,
    GOLD,
    HA,
    KEY,
    PASS,
    ROB,
    SILVER,
    T20,
    T30,
    T50,
    T100,
    TRASH,
    Table,
    job,
    take,
)
from heistbench.envs.big_score import components as C
from heistbench.envs.big_score import kernel as K
from heistbench.envs.big_score_v1 import Game

FLOOR = [T20, T30, SILVER, GOLD, ART]


@pytest.mark.parametrize("n,t", [(2, 3), (3, 4), (4, 5), (5, 6), (6, 7)])
def test_cops_to_bust_is_players_plus_one(n, t):
    assert Game(num_players=n).cops_to_bust == t
    assert Game(num_players=n, cops_to_bust=2).cops_to_bust == 2


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_empty_track_never_busts_in_one_round(n):
    t = Table(n)
    s = t.act2(floor=FLOOR, draws=[COPS] * n)
    t.play(s, *[(int(s.queue[0, j]), ROB) for j in range(n)])
    assert s.cops_track[0] == n and not s.terminated[0]


def scored(t, payout=None, pile=None, ability=None, status=None, cash=None):
    s = t.act2(payout=payout, floor=FLOOR, cash=cash)
    for seat, loot in (pile or {}).items():
        for v in loot:
            s.vault_pile[0, seat, v] += 1
    for seat, a in (ability or {}).items():
        s.ability[0, seat] = a
    if status is not None:
        s.status[0] = status
    return t.game.scores(s)[0].tolist(), s


def test_artifact_majority_bonus_needs_a_unique_leader():
    t = Table(3)
    tied, _ = scored(t, payout=[[3, 0, 0], [3, 0, 0], [1, 0, 0]])
    assert tied == [29, 29, 23]
    lead, _ = scored(t, payout=[[4, 0, 0], [3, 0, 0], [1, 0, 0]])
    assert lead == [20 + 12 + 25, 29, 23]
    nobody, _ = scored(t)
    assert nobody == [20, 20, 20]


def test_hard_drives_keys_and_the_hacker():
    t = Table(2)
    plain, _ = scored(t, payout=[[0, 0, 2], [0, 0, 2]], pile={0: [KEY], 1: [KEY]},
                      ability={1: C.HACKER})
    assert plain == [20 + 20, 20 + 20 + 5]


def test_cash_bars_and_vault_cash_count():
    t = Table(2)
    got, _ = scored(t, pile={0: [T20, T30, T50, T100, SILVER, GOLD]})
    assert got == [20 + 2 + 3 + 5 + 10 + 15 + 20, 20]


def test_tie_breakers():
    t = Table(4)
    _, s = scored(t, status=[K.BUSTED, K.FLED, K.FLED, K.FLED], cash=[30, 30, 25, 10])
    # scores 30, 30, 25, 10: the busted seat 0 loses the tie to seat 1
    assert t.game.winners(s)[0].tolist() == [False, True, False, False]
    _, s = scored(t, pile={1: [T20]}, cash=[30, 28, 10, 10])
    # equal score 30 (seat 1: 28 + $20K token): equal cash too -> co-winners
    assert t.game.winners(s)[0].tolist() == [True, True, False, False]
    np.testing.assert_allclose(t.game.terminal_rewards(t.game.rank_keys(s),
                                                       t.game.scores(s))[0],
                               [0.5, 0.5, -0.5, -0.5])


def test_first_player_marker_tie_goes_to_the_youngest():
    t = Table(4)
    s = t.act2(payout=[[1, 0, 0], [0, 0, 0], [0, 1, 0], [0, 0, 0]], floor=FLOOR)
    assert s.first_player[0] == 3
    t2 = Table(4, fp_tiebreak="lowest_seat")
    s2 = t2.act2(payout=[[1, 0, 0], [0, 0, 0], [0, 1, 0], [0, 0, 0]], floor=FLOOR)
    assert s2.first_player[0] == 1


def test_con_man_trades_an_earlier_token():
    t = Table(2)
    s = t.act2(ability={0: C.CON_MAN}, floor=[GOLD, T20, T30, T30, SILVER], fp=0,
               draws=[DIA, T50, T20, T50])
    t.play(s, (0, ROB), (1, ROB), (0, PASS), (1, PASS))  # seat 0 keeps a Diamond
    t.play(s, (0, ROB), (1, ROB))  # draws $20K
    code = 39 + 9 * DIA + GOLD
    assert code == 116 and code in t.legal(s)
    t.play(s, (0, code))
    assert s.vault_pile[0, 0].tolist() == [1, 0, 0, 0, 0, 1, 0, 0, 0]  # $20K and the Gold
    assert s.vault_floor[0, DIA] == 1 and s.ability_used[0, 0]
    t.play(s, (1, PASS), (1, ROB), (0, ROB))
    assert not (set(range(39, 120)) & t.legal(s))


def test_gun_man_steals_after_a_trade():
    t = Table(2)
    s = t.act2(ability={0: C.GUN_MAN}, floor=[SILVER, T30, T30, DIA, DIA], fp=0,
               draws=[T20, T50])
    t.play(s, (0, ROB), (1, ROB), (0, take(SILVER)))
    assert s.phase[0] == K.GUN_STEAL
    t.play(s, (0, 121 + T20))  # takes the $20K he just traded away
    assert s.vault_pile[0, 0, T20] == 1 and s.vault_pile[0, 0, SILVER] == 1
    assert s.vault_floor[0].sum() == 4 and s.ability_used[0, 0]


def test_grease_man_steals_on_fleeing_even_when_the_others_bust():
    t = Table(2)  # the vault busts at 3 Cops
    s = t.act2(ability={0: C.GREASE_MAN}, floor=[GOLD, T20, T30, T30, SILVER], fp=1,
               draws=[COPS, COPS, COPS])
    t.play(s, (1, ROB), (0, ROB))  # two Cops, nobody can trade
    t.play(s, (1, ROB), (0, FLEE))  # the third Cop busts seat 1 while seat 0 flees
    assert s.phase[0] == K.GREASE_STEAL and s.current_player[0] == 0
    t.play(s, (0, 130 + GOLD))
    assert s.terminated[0]
    assert s.status[0].tolist() == [K.FLED, K.BUSTED]
    assert s.vault_pile[0, 0, GOLD] == 1


def test_driver_keeps_loot_and_returns_cops():
    t = Table(3)
    s = t.act2(ability={0: C.DRIVER}, floor=FLOOR, fp=1, draws=[T20, T30, COPS, SILVER])
    cops_before = s.bag[0, COPS]
    t.play(s, (1, ROB), (2, ROB), (0, FLEE))
    assert s.vault_pile[0, 0, SILVER] == 1 and s.vault_pile[0, 0].sum() == 1
    assert s.bag[0, COPS] == cops_before and s.cops_track[0] == 0
    assert s.status[0, 0] == K.FLED and s.ability_used[0, 0]


def test_muscle_steals_the_marker_and_trades_first():
    t = Table(4)
    s = t.act2(ability={2: C.MUSCLE}, floor=FLOOR, fp=0, draws=[T20, COPS, T20, COPS])
    t.play(s, (0, ROB), (1, ROB), (2, ROB), (3, ROB))
    assert s.phase[0] == K.MUSCLE and s.current_player[0] == 2
    t.play(s, (2, 27))
    assert s.first_player[0] == 2
    t.play(s, (2, take(GOLD)))  # the trade passes the marker on to seat 3
    assert s.first_player[0] == 3
    t.play(s, (0, PASS))


def test_fleeing_holder_passes_the_marker_skipping_fled_players():
    t = Table(4)
    s = t.act2(floor=FLOOR, fp=0, draws=[T20, T20])
    t.play(s, (0, FLEE), (1, FLEE), (2, ROB), (3, ROB))
    assert s.first_player[0] == 2


def test_two_grease_men_act_clockwise_from_the_marker():
    t = Table(6)
    s = t.act2(ability={1: C.GREASE_MAN, 5: C.GREASE_MAN}, floor=FLOOR, fp=4,
               draws=[T30, T50, T50, T100])
    t.play(s, (4, ROB), (5, FLEE), (0, ROB), (1, FLEE), (2, ROB), (3, ROB))
    assert s.phase[0] == K.GREASE_STEAL and s.current_player[0] == 5


def test_draft_direction_and_last_card():
    game = Game(num_players=3, boss_option_mode="cash", auto_forced=False)
    s = game.init(np.array([4]))
    for rnd, direction in ((1, +1), (2, -1)):
        while s.stage[0] < rnd:
            game.step(s, np.array([np.flatnonzero(s.legal_action_mask[0])[0]]))
        assert s.phase[0] == K.DRAFT
        before = s.hands[0].copy()
        picks = []
        for _ in range(3):
            k = int(np.flatnonzero(s.legal_action_mask[0])[0])
            picks.append(k)
            game.step(s, np.array([k]))
        for seat in range(3):
            held = before[seat].copy()
            held[picks[seat]] -= 1
            assert (s.hands[0, (seat + direction) % 3] == held).all()
    # the last card is added automatically: H - 1 draft decisions per seat and round
    game2 = Game(num_players=2, boss_option_mode="cash", auto_forced=False)
    s = game2.init(np.array([1]))
    decisions = 0
    while s.phase[0] == K.DRAFT:
        decisions += 1
        game2.step(s, np.array([np.flatnonzero(s.legal_action_mask[0])[0]]))
    assert decisions == 2 * (9 - 1)
    assert s.phase[0] == K.ASSIGN and s.ahand[0].sum() == 18


def test_two_player_joat_window_skipped_when_hopeless():
    t = Table(2)
    s = t.act1([12, 4, 6, 3, 8, 19], {0: [CM], 1: [HA]}, crew_top=[HA])
    t.assign_all(s, {0: [job(1)], 1: [TRASH]})  # Night Club: 4 missing after the Inside Man
    assert s.phase[0] == K.DRAFT and s.cash[0].tolist() == [18, 20]


def test_boss_options_are_secret_until_all_chose():
    game = Game(num_players=3)
    s = game.init(np.array([0]))
    assert s.phase[0] == K.BOSS_OPTION
    obs_a = game.observe(s, 2)
    game.step(s, np.array([25]))
    obs_b = game.observe(s, 2)
    diff = game.obs_fields(obs_a - obs_b)
    changed = [k for k, v in diff.items() if np.any(v)]
    assert changed == ["player.committed"]  # only the closed fist shows
    game.step(s, np.array([26]))
    game.step(s, np.array([25]))
    assert s.phase[0] == K.DRAFT
    assert s.cash[0].tolist() == [20, 23, 20]
    assert s.payout[0].sum(axis=1).tolist() == [1, 0, 1]


def test_option_errors_name_what_is_allowed():
    with pytest.raises(ValueError, match="inside_man=True is only allowed"):
        Game(num_players=4, inside_man=True)
    with pytest.raises(ValueError, match="fp_tiebreak"):
        Game(fp_tiebreak="oldest")
    with pytest.raises(ValueError, match="job_table .* not found"):
        Game(job_table="missing_table")
    with pytest.raises(ValueError, match="abilities"):
        Game(abilities=["telepath"])


def test_job_table_constraints(tmp_path):
    table = C.load_job_table()
    assert len(table.names) == 24
    assert table.req[table.names.index("Night Club")].tolist() == [1, 1, 0, 2, 0, 1]
    assert table.req[table.names.index("Apartment")].tolist() == [1, 0, 0, 1, 0, 1]
    i = table.names.index("Hotel")
    assert (table.cash[i], table.token[i]) == (3, C.DIAMOND)
    # this reconstruction's own properties
    assert table.cash.tolist() == [2] * 6 + [3] * 6 + [5] * 12
    assert np.bincount(table.token).tolist() == [10, 10, 4]
    assert np.flatnonzero(table.token == C.HARD_DRIVE).tolist() == [2, 3, 10, 11]
    assert table.req.sum(axis=0).tolist() == [17] * 6
    assert len({tuple(r) for r in table.req}) == 24
    bad = tmp_path / "jobs.csv"
    text = (C.DATA / "jobs_reconstructed_v1.csv").read_text().replace("12,Night Club,5,D,1,1,0,2",
                                                                       "12,Night Club,5,D,1,1,1,2")
    bad.write_text(text)
    with pytest.raises(ValueError, match="Night Club"):
        C.load_job_table(str(bad))


def test_score_reward_mode_is_a_zero_sum_margin():
    game = Game(num_players=3, reward="score")
    keys = np.array([[3, 2, 1]])
    r = game.terminal_rewards(keys, np.array([[100, 40, 10]]))
    np.testing.assert_allclose(r[0], [0.75, -0.15, -0.6])
    assert abs(r.sum()) < 1e-6


def test_a_random_batch_never_leaves_the_rules():
    """Random play at every player count with abilities forced on many seats."""
    for n in (2, 4, 6):
        game = Game(num_players=n)
        s = game.init(np.arange(64))
        rng = np.random.default_rng(n)
        while not s.done.all():
            live = ~s.done
            assert s.legal_action_mask[live].any(axis=1).all()
            assert (s.cash >= 0).all() and (s.bag >= 0).all() and (s.vault_floor >= 0).all()
            a = np.argmax(np.where(s.legal_action_mask, rng.random(s.legal_action_mask.shape),
                                   -1), axis=1)
            game.step(s, a)
        assert not s.truncated.any()
        assert (s.steps < 1720).all()  # the specification's bound for 6 players


def test_views_forget_what_the_rules_set_aside():
    """The closed draft window's pick and, in Act II, the round-3 jobs leave the observation."""
    game = Game(num_players=3, boss_option_mode="cash")
    s = game.init(np.arange(8))
    rng = np.random.default_rng(0)
    seen_assign = seen_act2 = False
    while not s.done.all():
        for p in range(3):
            f = game.obs_fields(game.observe(s, p))
            in_assign = s.phase == K.ASSIGN
            assert not f["me.pending_pick"][in_assign].any()
            in_act2 = s.stage == K.ACT2
            for name in ("job.req", "job.pile", "job.contrib", "job.joat", "job.inside_man"):
                assert not f[name][in_act2].any(), name
            seen_assign |= in_assign.any()
            seen_act2 |= in_act2.any()
        a = np.argmax(np.where(s.legal_action_mask, rng.random(s.legal_action_mask.shape), -1),
                      axis=1)
        game.step(s, a)
    assert seen_assign and seen_act2


def test_env_render_shows_only_the_acting_players_cards():
    from heistbench.envs import big_score_v1

    env = big_score_v1.raw_env(num_players=3, render_mode="ansi", boss_option_mode="cash")
    env.reset(seed=2)
    text = env.render()
    me = env.agent_selection
    assert f"{me} hand" in text
    assert sum(f"player_{p} hand" in text for p in range(3)) == 1


def test_boss_options_can_be_replaced():
    opts = [("artifact", 5), ("diamond", 2), ("hard_drive", 3), ("diamond", 3),
            ("artifact", 3), ("hard_drive", 4)]
    game = Game(num_players=2, boss_options=opts)
    s = game.init(np.array([0]))
    game.step(s, np.array([26]))  # seat 0 (boss 0) takes the cash
    game.step(s, np.array([25]))  # seat 1 (boss 1) takes the token
    assert s.cash[0].tolist() == [25, 20]
    assert s.payout[0, 1].tolist() == [0, 1, 0]
    f = game.obs_fields(game.observe(s, 0))
    np.testing.assert_allclose(f["player.boss_cash"][0, :2, 0], [0.5, 0.2])
    with pytest.raises(ValueError, match="boss_options"):
        Game(boss_options=[("gold", 3)] * 6)


def test_final_infos_carry_the_score_breakdown():
    from heistbench.envs import big_score_v1

    env = big_score_v1.raw_env(num_players=2)
    env.reset(seed=5)
    rng = np.random.default_rng(1)
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            assert sum(info["score_breakdown"][env.agent_name_mapping[agent]].values()) == \
                info["score"]
            assert len(info["busted"]) == 2
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_compiled_scores_equal_the_score_breakdown():
    """The compiled tally (`scores`) and score_parts (the breakdown) agree all game long, and
    the rules' kept act1_score matches the cash and payout tokens in Act I."""
    for n in (2, 5):
        game = Game(num_players=n)
        s = game.init(np.arange(32))
        rng = np.random.default_rng(n)
        while not s.done.all():
            parts = sum(game.score_parts(s).values())
            assert (game.scores(s) == parts).all()
            act1 = ~(s.stage >= K.ACT2)
            assert (s.act1_score[act1] == parts[act1]).all()
            a = np.argmax(np.where(s.legal_action_mask, rng.random(s.legal_action_mask.shape),
                                   -1), axis=1)
            game.step(s, a)


@pytest.mark.parametrize("options,ability", [
    ({}, C.MUSCLE),
    ({"expert_abilities": False}, -1),  # D-21: Training still carries cards, no ability
    ({"abilities": ("driver",)}, -1),  # ablation: Muscle cannot be gained
])
def test_ability_switches(options, ability):
    from big_score_helpers import MUx

    t = Table(3, **options)
    s = t.act1([12, 0, 6, 3, 8, 19], {0: {MUx: 3}, 1: [HA], 2: [HA]}, round=3)
    assert 18 in t.legal(s)  # Training stays legal either way
    t.play(s, (0, 18), (0, 18), (0, 18), (1, TRASH), (2, TRASH))
    assert s.stage[0] == K.ACT2 and s.ability[0, 0] == ability


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_window_order_is_clockwise_from_the_first_seat(n):
    """A window's seats act clockwise from its first seat: the next rob-or-flee window holds
    the seats still inside, from the marker (passed left past those who fled)."""
    rng = np.random.default_rng(n)
    for _ in range(6):
        t = Table(n)
        fp = int(rng.integers(n))
        s = t.act2(floor=FLOOR, fp=fp, draws=[ART] * n)
        flee = rng.random(n) < 0.5
        flee[int(rng.integers(n))] = False  # somebody stays inside
        for seat in s.queue[0, :s.qlen[0]].tolist():
            t.play(s, (seat, FLEE if flee[seat] else ROB))
        while s.phase[0] == K.TRADE:
            t.play(s, (int(s.current_player[0]), PASS))
        assert s.phase[0] == K.ROB_FLEE
        first = next((fp + j) % n for j in range(n) if not flee[(fp + j) % n])
        assert s.first_player[0] == first
        want = [(first + j) % n for j in range(n) if not flee[(first + j) % n]]
        assert s.queue[0].tolist() == want + [-1] * (n - len(want))
        assert s.qlen[0] == len(want) and s.current_player[0] == first


def test_counts_past_their_scale_are_capped_in_the_box():
    """A job may draw more cards of one type, and from one seat, than its columns' scale (6):
    the observation stays in its Box [0, 1]."""
    GU = 6
    t = Table(3)
    s = t.act1([0, 1, 2, 3, 4, 5], {0: [GU] * 7, 1: [CM], 2: [CM]})
    t.assign_all(s, {0: [job(1)] * 7, 1: [TRASH], 2: [TRASH]})  # the Apartment: CM, GU, MU
    assert s.last_pile[0, 0, 3] == 7 or s.pile[0, 0, 3] == 7
    for seat in range(3):
        obs = t.game.observe(s, seat)
        assert (obs >= 0).all() and (obs <= 1).all()
    f = t.obs(s, 1)
    block = "last_job.pile" if s.last_pile[0, 0, 3] == 7 else "job.pile"
    assert f[block][0, 3] == 1.0


def _secret_turns(n: int, auto_forced: bool, games: int = 24) -> list[list[tuple[int, int]]]:
    """Per game, the (phase, seat) of every draft pick and assignment asked, playing the first
    legal action throughout (so both settings play the same game)."""
    game = Game(num_players=n, auto_forced=auto_forced)
    s = game.init(np.arange(games) + 100 * n)
    turns: list[list[tuple[int, int]]] = [[] for _ in range(games)]
    while not (s.terminated | s.truncated).all():
        live = ~(s.terminated | s.truncated)
        for b in np.flatnonzero(live & np.isin(s.phase, (K.DRAFT, K.ASSIGN))):
            turns[b].append((int(s.phase[b]), int(s.current_player[b])))
        game.step(s, np.where(live, s.legal_action_mask.argmax(axis=1), 0))
    return turns


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_draft_picks_and_assignments_are_asked_even_when_forced(n):
    """Whether a hand holds a single kind, or a card fits no job, is hidden: with auto_forced
    the turn order of the draft and the assignments must not show it, so those decisions are
    asked exactly as without auto_forced (D-24)."""
    asked, every = _secret_turns(n, True), _secret_turns(n, False)
    assert asked == every
    game = Game(num_players=n)
    s = game.init(np.arange(24) + 100 * n)
    forced = 0
    while not (s.terminated | s.truncated).all():
        live = ~(s.terminated | s.truncated)
        single = live & (s.legal_action_mask.sum(axis=1) == 1)
        assert (game.asked_always(s)[single]).all()
        forced += int((single & np.isin(s.phase, (K.DRAFT, K.ASSIGN))).sum())
        game.step(s, np.where(live, s.legal_action_mask.argmax(axis=1), 0))
    assert forced > 0  # the games above do reach such decisions
