"""Rule tests beyond the spec's scenarios, and invariants of random play."""

from __future__ import annotations

import numpy as np
import pytest
from heistbench.envs import grifters_v1
from heistbench.envs.grifters import components as C
from heistbench.envs.grifters import kernel as K

from .helpers import begin, blank, cards, decision, legal, play

MM, THIEF, PP, FG, SNITCH, RECRUITER, FENCE, FIXER = range(8)
CON, FF, WHEEL, SAFE, HACKER, MIDDLE, THUG, KIDNAP, ENFORCER, BLACKMAIL, IM = range(8, 19)
STACK, PLAYER, NIGHT, PAIR, SKILL, JOB, PASS = 19, 24, 28, 31, 34, 37, 57


def test_layouts_match_the_spec():
    for n in (2, 3, 4):
        g = grifters_v1.Game(num_players=n)
        assert g.obs_size == 250 + 129 * n and g.num_actions == 58
    names = [g.action_name(a) for a in range(58)]
    assert len(set(names)) == 58 and names[22] == "job stack YELLOW" and names[57] == "pass"


def test_first_player_option():
    g = grifters_v1.Game(num_players=3, first_player=2)
    assert (g.init(np.arange(4)).current_player == 2).all()
    starts = grifters_v1.Game(num_players=3).init(np.arange(60)).current_player
    assert set(starts.tolist()) == {0, 1, 2}
    with pytest.raises(ValueError, match="first_player"):
        grifters_v1.Game(num_players=2, first_player=3)


def test_fence_swaps_completed_jobs():
    g, s = blank(2)
    s.job_owner[0, 0] = 0
    s.job_owner[0, [4, 8]] = 1
    s.hand[0, 0] = cards(FENCE)
    s.turns_taken[0, 1] = 0
    begin(g, s)
    play(g, s, FENCE)
    assert decision(s) == K.FENCE_OWN and legal(s) == {JOB + 0}
    play(g, s, JOB + 0)
    assert legal(s) == {JOB + 4, JOB + 8}
    play(g, s, JOB + 8)
    assert s.job_owner[0, [0, 4, 8]].tolist() == [1, 1, 0]


def test_fence_fizzles_without_jobs_on_both_sides():
    g, s = blank(2)
    s.job_owner[0, 4] = 1
    s.hand[0, 0] = cards(FENCE)
    begin(g, s)
    play(g, s, FENCE)
    assert s.current_player[0] == 1 and (s.night[0, 0, 0] == cards(FENCE)).all()


def test_fixer_advances_time_then_lands_in_night_one():
    g, s = blank(2)
    s.night[0, 0, 0] = cards(THIEF)  # Night Two after the turn's Advance Time
    s.hand[0, 0] = cards(FIXER)
    begin(g, s)
    play(g, s, FIXER)
    assert (s.night[0, 0, 0] == cards(FIXER)).all()
    assert (s.night[0, 0, 2] == cards(THIEF)).all()


def test_blackmailer_and_enforcer_amounts():
    g, s = blank(3)
    s.job_owner[0, [0, 1, 4]] = 2
    s.stash[0] = (0, 9, 9)
    s.hand[0, 0] = cards(BLACKMAIL)
    begin(g, s)
    play(g, s, BLACKMAIL, PLAYER + 2)
    assert s.stash[0].tolist() == [4, 9, 5]  # 1 + 3 Jobs
    g, s = blank(3)
    s.stash[0] = (0, 7, 7)
    s.hand[0, 0] = cards(ENFORCER)
    begin(g, s)
    play(g, s, ENFORCER)
    assert decision(s) == K.CHOOSE_OPP and legal(s) == {PLAYER + 1, PLAYER + 2}  # a tie
    play(g, s, PLAYER + 2)
    assert s.stash[0].tolist() == [3, 7, 4]
    g, s = blank(3)
    s.stash[0] = (0, 2, 7)
    s.hand[0, 0] = cards(ENFORCER)
    begin(g, s)
    play(g, s, ENFORCER)  # a single richest opponent: no decision
    assert s.stash[0].tolist() == [3, 2, 4] and s.current_player[0] == 1


def test_fall_guy_copies_a_hand_card_that_stays():
    g, s = blank(2)
    s.hand[0, 0] = cards(FG, SAFE, IM, MIDDLE)
    coffers = int(s.coffers[0])
    begin(g, s)
    play(g, s, FG)
    assert decision(s) == K.FALLGUY_PICK and legal(s) == {SAFE}  # never a copier
    play(g, s, SAFE)
    assert s.coffers[0] == coffers - 3 and s.hand[0, 0, SAFE] == 1
    assert (s.night[0, 0, 0] == cards(FG)).all()


def test_fall_guy_copying_thug_teams_the_partner_with_the_fall_guy():
    g, s = blank(2)
    s.hand[0, 0] = cards(FG, THUG, CON)
    s.night[0, 1, 0] = cards(SAFE)
    s.stash[0] = (3, 3)
    begin(g, s)
    play(g, s, FG, THUG, CON)
    assert (s.night[0, 0, 0] == cards(FG, CON)).all() and s.hand[0, 0, THUG] == 1
    assert s.stash[0].tolist() == [4, 2]


def test_mastermind_discards_are_public_and_keep_is_hidden():
    g, s = blank(2)
    s.hand[0, 0] = cards(MM)
    begin(g, s)
    play(g, s, MM)
    drawn = s.mm_draw[0].copy()
    keep = min(legal(s))
    obs_other = g.obs_fields(g.observe(s, 1))
    assert obs_other["mastermind_draw"].sum() == 0
    assert (g.obs_fields(g.observe(s, 0))["mastermind_draw"][0] * 3).round().sum() == 3
    play(g, s, keep)
    drawn[keep] -= 1
    assert (s.discard[0] == drawn).all() and s.known[0, 0, keep] == 0


def test_a_job_is_never_the_extra_caper():
    g, s = blank(2)
    s.hand[0, 0] = cards(FF, FG, CON, HACKER)  # BLUE's top needs 1/2/0
    begin(g, s)
    assert STACK + 1 in legal(s)
    play(g, s, FF)
    assert decision(s) == K.FF_EXTRA and legal(s) == {FG, CON, HACKER, PASS}


def test_resample_keeps_the_hand_a_team_pick_depends_on():
    g, s = blank(2)
    s.hand[0, 0] = cards(FG, CON, IM, RECRUITER)
    s.hand[0, 1] = cards(MM, THIEF, PP, SAFE, SAFE)
    s.known[0, 1] = cards(MM, THIEF, PP)
    begin(g, s)
    play(g, s, STACK + 1, FG)
    alt = g.resample_hidden(s, 1, 5)
    assert (alt.hand[0, 0] == s.hand[0, 0]).all() and legal(alt) == legal(s)
    alt = g.resample_hidden(s, 0, 5)  # P0 may know its own hand; P1's two unknown cards move
    assert (alt.hand[0, 0] == s.hand[0, 0]).all() and alt.hand[0, 1].sum() == 5
    np.testing.assert_array_equal(g.observe(alt, 0), g.observe(s, 0))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_play_invariants_per_card_type(n):
    """Every card type conserved, known <= hand, ISK conserved, games end well within the
    step bound (measured: the longest random games are far below max_steps / 3)."""
    g = grifters_v1.Game(num_players=n, auto_forced=False)
    s = g.init(np.arange(64) + 100 * n)
    r = np.random.default_rng(n)
    expected = C.SPECIALIST_COPIES.astype(np.int64).copy()
    expected[C.RINGLEADER] = n
    while not s.done.all():
        where = [s.hand.sum(1), s.night.sum((1, 2)), s.refresh.sum(1), s.staging, s.discard,
                 s.mm_draw]
        per_type = sum(w.astype(np.int64) for w in where)
        for b in range(s.batch_size):
            per_type[b] += np.bincount(s.deck[b, :s.deck_len[b]], minlength=19)
        assert (per_type == expected).all()
        assert (s.known <= s.hand).all() and (s.known >= 0).all() and (s.stash >= 0).all()
        assert ((s.job_owner >= -1).sum(1) == 4 * (n + 1)).all()  # 3, 4 or 5 stacks
        mask = s.legal_action_mask
        g.step(s, (r.random(mask.shape) * mask).argmax(1))
    assert not s.truncated.any() and s.steps.max() * 3 <= g.max_steps


def _final(g, s):
    """rank keys, winners, rewards and P0's fewest-Specialists count of a finished game."""
    assert s.terminated[0] and s.current_player[0] == -1 and s.staging[0].sum() == 0
    return g.rank_keys(s)[0], g.winners(s)[0].tolist(), s.rewards[0].tolist()


def test_a_thief_ending_the_game_counts_among_its_players_specialists():
    g, s = blank(2)
    s.hand[0, 0] = cards(MM, THIEF, PP)
    s.known[:] = s.hand
    s.coffers[0] = 1
    s.stash[0] = (2, 3)
    before = g.conserved(s)
    begin(g, s)
    play(g, s, THIEF)
    keys, win, rewards = _final(g, s)
    assert s.stash[0].tolist() == [3, 3] and g.specialists(s)[0].tolist() == [3, 3]
    assert (s.night[0, 0, 0] == cards(THIEF)).all()  # placed where the play puts it
    # a full tie after the rulebook's tie-breakers: both win, so nobody gains (v1)
    assert keys[1] == keys[0] and win == [True, True] and rewards == [0.0, 0.0]
    assert all((g.conserved(s)[k] == v).all() for k, v in before.items())
    final = g.obs_fields(g.observe(s, 0))
    assert final["player.night1"][0, 0, THIEF] * 3 == 1


def test_an_abducted_card_ending_the_game_counts_for_the_abductor():
    g, s = blank(2)
    s.night[0, 1, 1] = cards(SAFE)
    s.hand[0, 0] = cards(IM, MM, THIEF, PP)
    s.known[:] = s.hand
    s.coffers[0] = 2
    s.stash[0] = (1, 3)
    begin(g, s)
    play(g, s, IM, PLAYER + 1, NIGHT + 1, SAFE)
    keys, win, rewards = _final(g, s)
    assert s.stash[0].tolist() == [3, 3] and s.coffers[0] == 0
    assert (s.night[0, 0, 0] == cards(SAFE)).all() and (s.night[0, 1, 1] == cards(IM)).all()
    assert g.specialists(s)[0].tolist() == [4, 4]  # 3 in hand + the Safecracker each side
    assert keys[1] == keys[0] and win == [True, True] and rewards == [0.0, 0.0]


def test_a_middle_man_team_ending_the_game_counts_both_cards():
    g, s = blank(2)
    s.night[0, 0, 2] = cards(THIEF)  # reaches the Refresh Area at Advance Time
    s.hand[0, 0] = cards(MIDDLE, MM, PP)
    s.known[:] = s.hand
    s.coffers[0] = 2
    s.stash[0] = (1, 3)
    begin(g, s)
    play(g, s, MIDDLE, THIEF)
    keys, win, rewards = _final(g, s)
    assert (s.night[0, 0, 0] == cards(MIDDLE, THIEF)).all()
    assert g.specialists(s)[0].tolist() == [4, 3]
    assert keys[1] > keys[0] and win == [False, True] and rewards == [-1.0, 1.0]


def test_fall_guy_copying_a_thug_keeps_the_copied_thug_in_hand():
    def state(*hand):
        g, s = blank(2)
        s.night[0, 1, 0] = cards(PP)  # one lone brawn card
        s.stash[0] = (3, 5)
        s.hand[0, 0] = cards(FG, *hand)
        begin(g, s)
        play(g, s, FG, THUG)
        return g, s

    g, s = state(THUG)  # no partner left: fizzles like a Thug with an empty hand [D8, D11]
    assert s.current_player[0] == 1 and s.stash[0].tolist() == [3, 5]
    assert (s.night[0, 0, 0] == cards(FG)).all() and (s.hand[0, 0] == cards(THUG)).all()
    g, s = state(THUG, THIEF)
    assert decision(s) == K.THUG_PARTNER and legal(s) == {THIEF}
    g, s = state(THUG, THUG)  # a second Thug may partner; the copied one stays
    assert decision(s) == K.THUG_PARTNER and legal(s) == {THUG}
    play(g, s, THUG)
    assert s.stash[0].tolist() == [4, 4]
    assert (s.night[0, 0, 0] == cards(FG, THUG)).all() and (s.hand[0, 0] == cards(THUG)).all()


def test_a_played_thug_may_still_partner_a_thug():
    g, s = blank(2)
    s.hand[0, 0] = cards(THUG, THUG)
    begin(g, s)
    play(g, s, THUG)
    assert decision(s) == K.THUG_PARTNER and legal(s) == {THUG}


def test_drawing_with_no_cards_left_deals_nothing_and_ends():
    g, s = blank(2)
    s.deck_len[0] = 0
    s.discard[0] = 0
    s.hand[0, 0] = cards(RECRUITER)
    begin(g, s)
    play(g, s, RECRUITER)
    assert s.terminated[0] and s.hand[0, 0].sum() == 0
    assert (s.night[0, 0, 0] == cards(RECRUITER)).all() and s.deck_len[0] == 0
    g, s = blank(2)
    s.deck_len[0] = 0
    s.discard[0] = 0
    s.hand[0, 0] = cards(MM)
    begin(g, s)
    play(g, s, MM)
    assert s.terminated[0] and s.mm_draw[0].sum() == 0 and s.hand[0, 0].sum() == 0


def test_observation_shows_turns_start_player_and_active_seat():
    g, s = blank(3)
    s.turns_taken[0] = (4, 3, 3)
    s.start_player[0] = 1
    s.hand[0, 0] = cards(CON)
    begin(g, s)
    f = g.obs_fields(g.observe(s, 2))  # out of turn: blocks are P2, P0, P1
    assert f["player.turns_taken"][0, :, 0].tolist() == pytest.approx([0.03, 0.04, 0.03])
    assert f["player.start_player"][0, :, 0].tolist() == [0, 0, 1]
    assert f["player.active"][0, :, 0].tolist() == [0, 1, 0]
    assert f["decision"].sum() == 0
    s.coffers[0] = 1
    play(g, s, CON)
    assert s.terminated[0]
    assert g.obs_fields(g.observe(s, 0))["player.active"].sum() == 0
