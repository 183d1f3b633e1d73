"""The spec's scenario tests (§7): the rulebook's example and every FAQ answer, as action
scripts on crafted states with the expected results."""

from __future__ import annotations

import numpy as np
import pytest
from heistbench.envs.grifters import components as C
from heistbench.envs.grifters import kernel as K

from .helpers import begin, blank, cards, decision, legal, play

MM, THIEF, PP, FG, SNITCH, RECRUITER, FENCE, FIXER = range(8)
CON, FF, WHEEL, SAFE, HACKER, MIDDLE, THUG, KIDNAP, ENFORCER, BLACKMAIL, IM = range(8, 19)
STACK, PLAYER, NIGHT, PAIR, SKILL, JOB, PASS = 19, 24, 28, 31, 34, 37, 57


def test_g1_dave_hack_credit_system():
    """Dave completes Hack Credit System with Thief, Con Man and Middle Man; texts ignored."""
    g, s = blank(3)
    s.hand[0, 0] = cards(MM, THIEF, PP, CON, MIDDLE)
    s.stash[0] = 3
    s.coffers[0] = 56
    begin(g, s)
    assert s.stack_top[0, 3] == 0 and (STACK + 3) in legal(s)  # YELLOW's top: job 12
    play(g, s, STACK + 3)
    assert legal(s) == {THIEF}  # Pickpocket or Con Man first could not finish the team
    play(g, s, THIEF)
    assert legal(s) == {PP, CON}
    play(g, s, CON)
    assert legal(s) == {MIDDLE}  # Pickpocket is below the last pick
    play(g, s, MIDDLE)
    assert decision(s) == K.CHOOSE_OPP and legal(s) == {PLAYER + 1, PLAYER + 2}
    play(g, s, PLAYER + 1)  # Jake
    assert (s.night[0, 0, 0] == cards(THIEF, CON, MIDDLE)).all()
    assert (s.hand[0, 0] == cards(MM, PP)).all()
    assert s.stash[0].tolist() == [5, 1, 3] and s.coffers[0] == 56
    assert s.job_owner[0, 12] == 0 and s.stack_top[0, 3] == 1
    assert s.turns_taken[0, 0] == 2 and s.current_player[0] == 1


def test_g1_negative_one_speed_is_not_enough():
    g, s = blank(3)
    s.hand[0, 0] = cards(MM, THIEF, PP, MIDDLE)
    begin(g, s)
    assert STACK + 3 not in legal(s)


def test_g2_middle_man_teams_up_with_a_refresh_card():
    g, s = blank(2)
    s.night[0, 0, 2] = cards(THIEF)
    s.hand[0, 0] = cards(MIDDLE, MM)
    s.coffers[0] = 40
    stash = int(s.stash[0, 0])
    begin(g, s)
    assert (s.refresh[0, 0] == cards(THIEF)).all()
    assert THIEF not in legal(s)  # the Refresh Area is not the hand [FAQ]
    play(g, s, MIDDLE)
    assert decision(s) == K.MIDDLEMAN_PICK and legal(s) == {THIEF}
    play(g, s, THIEF)
    assert s.coffers[0] == 38 and s.stash[0, 0] == stash + 2
    assert (s.night[0, 0, 0] == cards(MIDDLE, THIEF)).all()
    assert s.hand[0, 0, THIEF] == 0 and s.current_player[0] == 1


def test_g3_con_man():
    g, s = blank(3)
    s.hand[0, 0] = cards(CON)
    s.stash[0] = (3, 3, 3)
    coffers = int(s.coffers[0])
    begin(g, s)
    play(g, s, CON, PLAYER + 2)
    assert s.coffers[0] == coffers - 1 and s.stash[0].tolist() == [5, 3, 2]


def test_g4_no_hand_limit():
    g, s = blank(2)
    s.hand[0, 0] = cards(MM, *([RECRUITER] * 3), *([HACKER] * 3), *([SAFE] * 3),
                         *([CON] * 3), FG, FIXER)
    assert s.hand[0, 0].sum() == 15
    begin(g, s)
    play(g, s, MM)
    assert decision(s) == K.MM_KEEP and s.mm_draw[0].sum() == 3
    discard = int(s.discard[0].sum())
    play(g, s, min(legal(s)))
    assert s.hand[0, 0].sum() == 15 and s.discard[0].sum() == discard + 2
    assert s.current_player[0] == 1  # no discard decision ever appears


def test_g5_refresh_cards_cannot_be_played_and_come_back_known():
    g, s = blank(2)
    s.night[0, 0, 2] = cards(SAFE)
    s.hand[0, 0] = cards(THIEF)
    begin(g, s)
    assert SAFE not in legal(s) and legal(s) == {THIEF}
    play(g, s, THIEF)
    assert s.hand[0, 0, SAFE] == 1 and s.known[0, 0, SAFE] >= 1


@pytest.mark.parametrize("card", [SNITCH, WHEEL, IM])
def test_g6_refresh_area_is_not_in_the_hideout(card):
    """With only a Con Man in the Refresh Area, Snitch, Wheelman and Inside Man fizzle."""
    g, s = blank(2)
    s.night[0, 0, 2] = cards(CON)
    s.hand[0, 0] = cards(SNITCH, WHEEL, IM)
    begin(g, s)
    assert (s.refresh[0, 0] == cards(CON)).all() and s.night[0, 0].sum() == 0
    play(g, s, card)
    assert s.current_player[0] == 1, "the effect should fizzle with no decision"
    assert (s.night[0, 0, 0] == cards(card)).all()
    assert s.hand[0, 0, CON] == 1  # back at Refresh, not through the Wheelman


def test_g7a_reshuffle_the_discard_pile():
    g, s = blank(2)
    s.deck_len[0] = 0
    s.discard[0] = cards(HACKER, HACKER, SNITCH)
    s.hand[0, 0] = cards(RECRUITER)
    begin(g, s)
    play(g, s, RECRUITER)
    assert s.deck_len[0] == 1 and s.discard[0].sum() == 0 and not s.terminated[0]
    assert s.hand[0, 0].sum() == 2 and s.hand[0, 0, [HACKER, SNITCH]].sum() == 2


def test_g7b_no_cards_left_ends_the_game():
    g, s = blank(2)
    s.deck_len[0] = 1
    s.deck[0, 0] = FIXER
    s.discard[0] = 0
    s.hand[0, 0] = cards(HACKER)
    coffers = int(s.coffers[0])
    begin(g, s)
    play(g, s, HACKER)
    assert s.coffers[0] == coffers - 1 and s.hand[0, 0, FIXER] == 1
    assert s.terminated[0] and s.rewards[0].sum() == 0 and (s.rewards[0] != 0).any()


def test_g8_steal_only_what_is_there():
    g, s = blank(2)
    s.hand[0, 0] = cards(PP)
    s.stash[0] = (3, 1)
    begin(g, s)
    play(g, s, PP, PLAYER + 1)
    assert s.stash[0].tolist() == [4, 0]


def test_g9_a_team_is_two_or_more_cards_in_one_night():
    """Wheelman may take back a lone card only; Thug ignores cards in Teams (G-11)."""
    g, s = blank(2)
    s.night[0, 0, 0] = cards(SAFE)  # becomes Night Two after Advance Time
    s.night[0, 0, 1] = cards(RECRUITER, THIEF)  # becomes Night Three, a Team
    s.hand[0, 0] = cards(WHEEL)
    begin(g, s)
    play(g, s, WHEEL)
    assert decision(s) == K.WHEELMAN_NIGHT and legal(s) == {NIGHT + 1}
    play(g, s, NIGHT + 1)
    assert s.hand[0, 0, SAFE] == 1 and s.known[0, 0, SAFE] == 1


def _femme_fatale_state():
    g, s = blank(2)
    s.night[0, 0, 0] = cards(HACKER)
    s.night[0, 0, 1] = cards(RECRUITER)
    s.night[0, 0, 2] = cards(THIEF)
    s.hand[0, 0] = cards(FF, SAFE, MM)
    begin(g, s)
    assert (s.refresh[0, 0] == cards(THIEF)).all()
    assert (s.night[0, 0, 2] == cards(RECRUITER)).all()
    assert (s.night[0, 0, 1] == cards(HACKER)).all()
    return g, s


def test_g10_femme_fatale_second_caper_advances_time_again():
    g, s = _femme_fatale_state()
    coffers = int(s.coffers[0])
    play(g, s, FF)
    assert decision(s) == K.FF_EXTRA and legal(s) == {MM, SAFE, PASS}
    play(g, s, SAFE)
    assert s.coffers[0] == coffers - 3
    assert (s.night[0, 0, 0] == cards(SAFE)).all()
    assert (s.night[0, 0, 1] == cards(FF)).all()  # "the Femme Fatale card will be Night Two"
    assert (s.night[0, 0, 2] == cards(HACKER)).all()
    assert s.hand[0, 0, THIEF] == 1 and s.hand[0, 0, RECRUITER] == 1  # both refreshed


def test_g10_femme_fatale_pass():
    g, s = _femme_fatale_state()
    play(g, s, FF, PASS)
    assert (s.night[0, 0, 0] == cards(FF)).all()
    assert (s.night[0, 0, 1] == cards(HACKER)).all()
    assert (s.night[0, 0, 2] == cards(RECRUITER)).all()
    assert s.hand[0, 0, THIEF] == 1 and s.hand[0, 0, RECRUITER] == 0


def _thug_state():
    g, s = blank(3)
    s.night[0, 1, 0] = cards(CON)
    s.night[0, 1, 1] = cards(THIEF, HACKER, PP)
    s.night[0, 1, 2] = cards(IM)
    s.night[0, 2, 0] = cards(SAFE)
    s.night[0, 2, 1] = cards(RECRUITER)
    s.stash[0] = (3, 5, 5)
    s.hand[0, 0] = cards(THUG, THIEF, IM)
    begin(g, s)
    play(g, s, THUG)
    assert decision(s) == K.THUG_PARTNER
    return g, s


def test_g11_thug_steals_per_lone_matching_card():
    g, s = _thug_state()
    play(g, s, THIEF)
    assert s.stash[0].tolist() == [6, 3, 4]
    assert (s.night[0, 0, 0] == cards(THUG, THIEF)).all()


def test_g11_thug_with_an_inside_man_partner_chooses_its_skill():
    g, s = _thug_state()
    play(g, s, IM)
    assert decision(s) == K.THUG_SKILL and legal(s) == {SKILL, SKILL + 1, SKILL + 2}
    play(g, s, SKILL + 1)
    assert s.stash[0].tolist() == [6, 3, 4]
    g, s = _thug_state()
    play(g, s, IM, SKILL + 0)  # brain: P1's Inside Man, P2's Recruiter
    assert s.stash[0].tolist() == [5, 4, 4]


def test_g12a_inside_man_abducts_and_acts():
    g, s = blank(2)
    s.night[0, 1, 1] = cards(PP)
    s.night[0, 1, 2] = cards(CON)
    s.hand[0, 0] = cards(IM)
    s.coffers[0] = 30
    s.stash[0] = (3, 4)
    s.turns_taken[0, 1] = 0  # so that P1's Hideout stays put on its next turn
    begin(g, s)
    play(g, s, IM, PLAYER + 1)
    assert decision(s) == K.IM_NIGHT and legal(s) == {NIGHT + 2}  # Night Two: a Ringleader
    play(g, s, NIGHT + 2)
    assert decision(s) == K.IM_CARD and legal(s) == {CON}
    play(g, s, CON)
    assert decision(s) == K.CHOOSE_OPP
    play(g, s, PLAYER + 1)
    assert (s.night[0, 1, 2] == cards(IM)).all()
    assert (s.night[0, 0, 0] == cards(CON)).all()
    assert s.coffers[0] == 29 and s.stash[0].tolist() == [5, 3]


def test_g12b_inside_man_is_a_wild_skill_in_a_team():
    g, s = blank(2)
    s.hand[0, 0] = cards(FG, CON, IM)  # BLUE's top: Skim Tax Collections, 1/2/0
    begin(g, s)
    assert STACK + 1 in legal(s)
    play(g, s, STACK + 1, FG, CON, IM)
    assert s.job_owner[0, 4] == 0 and (s.night[0, 0, 0] == cards(FG, CON, IM)).all()


def test_g12c_inside_man_cannot_be_duplicated():
    g, s = blank(2)
    s.hand[0, 0] = cards(FG, IM)
    begin(g, s)
    play(g, s, FG)
    assert s.current_player[0] == 1  # FALLGUY_PICK had no legal action: fizzled
    g, s = blank(2)
    s.night[0, 0, 2] = cards(IM)
    s.hand[0, 0] = cards(MIDDLE)
    begin(g, s)
    play(g, s, MIDDLE)
    assert s.current_player[0] == 1 and s.hand[0, 0, IM] == 1


def test_g13_snitch_switches_whole_nights():
    g, s = blank(2)
    s.night[0, 1, 0] = cards(HACKER)
    s.night[0, 1, 2] = cards(THIEF, CON)
    s.hand[0, 0] = cards(SNITCH)
    s.turns_taken[0, 1] = 0  # so that P1's Hideout stays put on its next turn
    begin(g, s)
    play(g, s, SNITCH)
    assert decision(s) == K.SNITCH_PLAYER and legal(s) == {PLAYER + 1}
    play(g, s, PLAYER + 1)
    assert legal(s) == {PAIR, PAIR + 1, PAIR + 2}
    play(g, s, PAIR + 1)  # One-Three
    assert (s.night[0, 1, 0] == cards(THIEF, CON)).all()
    assert (s.night[0, 1, 2] == cards(HACKER)).all()


def test_g14_kidnapper_returns_a_ringleader():
    g, s = blank(2)
    s.hand[0, 0] = cards(KIDNAP)
    s.hand[0, 1] = cards(MM)
    s.known[0, 1] = cards(MM)
    begin(g, s)
    before = s.copy()
    play(g, s, KIDNAP, PLAYER + 1)
    assert (s.hand[0, 1] == cards(MM)).all() and s.known[0, 1, MM] == 1
    assert (s.night[0, 0, 0] == cards(KIDNAP)).all()
    assert (s.stash == before.stash).all()


def test_g14_kidnapper_takes_a_specialist_publicly():
    taken = 0
    for seed in range(20):
        g, s = blank(2, seed=seed)
        s.hand[0, 0] = cards(KIDNAP)
        s.hand[0, 1] = cards(MM, HACKER)
        s.known[0, 1] = cards(MM)
        begin(g, s)
        play(g, s, KIDNAP, PLAYER + 1)
        if s.hand[0, 1, HACKER] == 0:
            taken += 1
            assert s.hand[0, 0, HACKER] == 1 and s.known[0, 0, HACKER] == 1
        else:
            assert (s.hand[0, 1] == cards(MM, HACKER)).all()
    assert 0 < taken < 20  # a uniform pick of one card out of two


@pytest.mark.parametrize("n,coffers,deck", [(2, 44, 42), (3, 56, 39), (4, 63, 36)])
def test_g15_setup_per_player_count(n, coffers, deck):
    g = K.GriftersGame(num_players=n)
    s = g.init(np.arange(5))
    assert (s.coffers == coffers).all() and (s.deck_len == deck).all()
    assert (s.stash == 3).all()
    assert (s.hand[:, :, :3] == 1).all() and (s.hand.sum(axis=2) == 6).all()
    in_play = np.array(C.STACK_MIN_PLAYERS) <= n
    assert ((s.stack_top == 0) == in_play).all()
    assert ((s.job_owner == -1) == in_play[C.JOB_STACK]).all()
    assert (s.job_owner[:, ~in_play[C.JOB_STACK]] == -2).all()


def test_g16_empty_hand_places_an_isk_token():
    g, s = blank(2)
    s.stash[0] = (2, 3)
    s.coffers[0] = 20
    begin(g, s)
    assert s.stash[0, 0] == 1 and s.night_isk[0, 0, 0] == 1
    assert s.current_player[0] == 1  # no decision for P0
    g, s = blank(2)
    s.night_isk[0, 0, 2] = 1
    s.stash[0] = (1, 3)
    s.coffers[0] = 20
    begin(g, s)
    assert s.coffers[0] == 21 and s.stash[0, 0] == 0  # the old token is back, a new one out
    g, s = blank(2)
    s.stash[0] = (0, 3)
    before = s.copy()
    begin(g, s)
    assert s.night_isk.sum() == 0 and (s.stash == before.stash).all()
    assert s.current_player[0] == 1


def test_g17_last_isk_ends_the_game_at_once():
    g, s = blank(2)
    s.hand[0, 0] = cards(CON)
    s.coffers[0] = 1
    s.stash[0] = (3, 3)
    begin(g, s)
    play(g, s, CON)
    assert s.terminated[0] and s.coffers[0] == 0 and s.stash[0].tolist() == [4, 3]
    assert s.rewards[0].tolist() == [1.0, -1.0]


def test_g18_last_job_pays_then_ends():
    g, s = blank(2)
    s.job_owner[0, :11] = np.arange(11) % 2
    s.stack_top[0, :3] = (4, 4, 3)
    s.hand[0, 0] = cards(FG, CON, HACKER, THUG, KIDNAP, ENFORCER)  # 1/2/3 for job 11
    s.stash[0] = (3, 3)
    coffers = int(s.coffers[0])
    begin(g, s)
    play(g, s, STACK + 2, FG, CON, HACKER, THUG, KIDNAP, ENFORCER)
    assert s.terminated[0] and s.job_owner[0, 11] == 0
    assert s.stash[0].tolist() == [7, 1] and s.coffers[0] == coffers - 2


def test_g19a_set_bonus():
    g, s = blank(2)
    s.job_owner[0, [0, 1, 2, 4, 5]] = 0
    s.stash[0] = (10, 10)
    assert g.scores(s)[0].tolist() == [16, 10]
    s.job_owner[0, [3, 6, 7]] = 0  # RED x4, BLUE x4
    assert g.scores(s)[0, 0] == 10 + 8 + 8


def _tied(jobs1: int = 4, specs: tuple[int, int] = (6, 6), turns: tuple[int, int] = (9, 9)):
    g, s = blank(2)
    s.job_owner[0, [0, 1, 2, 4, 5]] = 0  # P0: 5 Jobs, bonus 4 + 2
    s.job_owner[0, [8, 9, 10, 11][:jobs1]] = 1  # P1: GREEN, bonus 8 with 4
    s.stash[0] = (10, 16 - int(C.SET_BONUS[jobs1]))
    s.hand[0, 0] = cards(*range(specs[0]))
    s.hand[0, 1] = cards(*range(specs[1]))
    s.turns_taken[0] = turns
    return g, s


def test_g19b_tie_breakers():
    g, s = _tied()
    assert g.scores(s)[0].tolist() == [16, 16]
    assert g.winners(s)[0].tolist() == [True, False]  # most Jobs
    g._finish(s, np.array([0]))
    assert s.rewards[0].tolist() == [1.0, -1.0]
    g, s = _tied(jobs1=4)
    s.job_owner[0, 5] = -1  # equal Jobs, 4 each; P0 still scores 16 (12 + RED x3)
    s.stash[0, 0] = 16 - 4
    assert g.scores(s)[0].tolist() == [16, 16]
    s.hand[0, 0] = cards(*range(5))  # fewer Specialists wins
    assert g.winners(s)[0].tolist() == [True, False]
    s.hand[0, 0] = cards(*range(6))  # level after the rulebook's tie-breakers: both win
    s.turns_taken[0] = (10, 9)  # turns taken do not count (v1)
    assert g.winners(s)[0].tolist() == [True, True]
    g._finish(s, np.array([0]))
    assert s.rewards[0].tolist() == [0.0, 0.0]  # an all-way tie: nobody gains


def test_g19c_tied_winners_share_the_win():
    g, s = blank(3)
    s.stash[0] = (9, 9, 5)
    for p in range(3):
        s.hand[0, p] = cards(MM, THIEF, PP)
    assert g.winners(s)[0].tolist() == [True, True, False]
    g._finish(s, np.array([0]))
    assert s.rewards[0].tolist() == [0.5, 0.5, -1.0]  # +1 split by the winners


def test_g2b_middle_man_may_take_a_fall_guy_or_a_middle_man_but_not_an_inside_man():
    """FAQ: only the Inside Man "cannot be duplicated by any other card" (v1)."""
    g, s = blank(2)
    s.night[0, 0, 2] = cards(FG, MIDDLE, IM, THIEF)
    s.hand[0, 0] = cards(MIDDLE, SAFE)
    s.coffers[0] = 40
    stash = int(s.stash[0, 0])
    begin(g, s)
    play(g, s, MIDDLE)
    assert decision(s) == K.MIDDLEMAN_PICK and legal(s) == {FG, MIDDLE, THIEF}
    play(g, s, MIDDLE)  # the second Middle Man takes another Refresh card
    assert decision(s) == K.MIDDLEMAN_PICK and legal(s) == {FG, THIEF}
    play(g, s, FG)  # which copies a hand card (the Safecracker stays in hand)
    assert decision(s) == K.FALLGUY_PICK and legal(s) == {SAFE}
    play(g, s, SAFE)
    assert s.stash[0, 0] == stash + 3 and s.hand[0, 0, SAFE] == 1
    assert (s.night[0, 0, 0] == cards(MIDDLE, MIDDLE, FG)).all()
    assert (s.hand[0, 0] == cards(SAFE, IM, THIEF)).all()  # Refresh: the rest back to hand
    assert s.current_player[0] == 1


def test_g20_first_turn_has_no_advance_time():
    g, s = blank(2)
    s.turns_taken[0, 0] = 0
    s.night[0, 0, 0] = cards(THIEF)
    s.hand[0, 0] = cards(PP)
    begin(g, s)
    assert (s.night[0, 0, 0] == cards(THIEF)).all() and s.refresh[0, 0].sum() == 0
