"""The rulebook's worked examples as scenario tests (T-01 … T-07 of the specification)."""

from __future__ import annotations

import numpy as np
import pytest
from big_score_helpers import (
    ART,
    CM,
    COPS,
    DIA,
    DR,
    FLEE,
    GR,
    GU,
    HA,
    MU,
    PASS,
    ROB,
    SILVER,
    T20,
    T30,
    T50,
    TRAIN,
    TRASH,
    DRx,
    GUx,
    HAx,
    MUx,
    Table,
    job,
    take,
)
from heistbench.envs.big_score import components as C
from heistbench.envs.big_score import kernel as K

NIGHT_CLUB_JOBS = [12, 0, 6, 3, 8, 19]  # Night Club, Apartment, Hotel, ATM, Museum, Yacht


# -- T-01 the Night Club's crew requirement -------------------------------------------------
def night_club(hands=None, joat=1):
    t = Table(3)
    hands = hands or {0: [CM, GU, HA], 1: [DR, GR, GUx], 2: [CM, DR, MU]}
    return t, t.act1(NIGHT_CLUB_JOBS, hands, joat=[joat] * 3)


def test_night_club_masks_follow_the_icons():
    t, s = night_club()
    t.play(s, (0, job(1)), (0, job(1)))  # CM, GU to the Night Club
    assert t.legal(s) == {job(4), job(6), TRASH}  # HA: only the ATM and the Yacht show a Hacker
    t.play(s, (0, TRASH), (1, job(1)))  # seat 1: DR to the Night Club
    assert job(1) not in t.legal(s)  # GR: no Grease Man icon on the Night Club
    t.play(s, (1, TRASH))
    assert TRAIN in t.legal(s)  # GU*: an Expert card may train


def test_night_club_succeeds_without_joat():
    t, s = night_club()
    t.assign_all(s, {0: [job(1), job(1), TRASH], 1: [job(1), TRASH, job(1)],
                     2: [TRASH, TRASH, job(1)]})
    assert s.cash[0].tolist() == [25, 25, 25]
    assert s.payout[0, :, C.DIAMOND].tolist() == [1, 1, 1]
    # the round is over: its public record is in the observation until the next deal
    assert s.stage[0] == K.ROUND2 and s.phase[0] == K.DRAFT
    revealed = np.zeros(12, int)
    for k in (CM, DR, GU, GUx, MU):
        revealed[k] += 1
    assert s.crew_revealed[0].tolist() == revealed.tolist()  # trashed cards never revealed


def test_night_club_reveal_and_unattempted_jobs():
    t, s = night_club()
    t.assign_all(s, {0: [job(1), job(1), TRASH], 1: [job(1), TRASH, job(1)],
                     2: [TRASH, TRASH, job(1)]})
    assert t.at_cleanup.job_status[0].tolist() == [K.SUCCESS] + [K.UNATTEMPTED] * 5
    np.testing.assert_allclose(t.obs(t.at_cleanup, 0)["job.contrib"][0][:3] * 6, [2, 2, 1])


def test_night_club_shortfall_joat_declined():
    t, s = night_club()
    t.assign_all(s, {0: [job(1), job(1), TRASH], 1: [job(1), TRASH, job(1)],
                     2: [TRASH, TRASH, TRASH]})
    assert s.phase[0] == K.JOAT and s.missing[0] == 1  # one Muscle missing, no Inside Man
    t.play(s, (0, 20), (1, 20))
    assert s.cash[0].tolist() == [18, 18, 20]
    assert s.joat[0].tolist() == [1, 1, 1]


def test_night_club_one_joat_is_enough_and_stays_hidden():
    observations = []
    for seat0 in (20, 21):
        t, s = night_club()
        t.assign_all(s, {0: [job(1), job(1), TRASH], 1: [job(1), TRASH, job(1)],
                         2: [TRASH, TRASH, TRASH]})
        t.play(s, (0, seat0))
        observations.append(t.game.observe(s, 1))
        t.play(s, (1, 20))
        if seat0 == 21:
            assert s.cash[0].tolist() == [25, 25, 20]
            assert s.payout[0, :, C.DIAMOND].tolist() == [1, 1, 0]
            assert t.at_cleanup.joat[0].tolist() == [0, 1, 1]
    np.testing.assert_array_equal(*observations)  # seat 1 cannot see seat 0's fist


def test_night_club_excess_cards_are_all_discarded():
    t, s = night_club(hands={0: {CM: 1, DR: 1, GU: 3, MU: 1}, 1: [HA], 2: [HA]})
    t.assign_all(s, {0: [job(1)] * 6, 1: [TRASH], 2: [TRASH]})
    assert s.cash[0].tolist() == [25, 20, 20]
    assert s.crew_revealed[0].sum() == 6


def test_night_club_joat_cannot_help():
    t, s = night_club(hands={0: [CM, DR], 1: [HA], 2: [HA]})
    t.assign_all(s, {0: [job(1), job(1)], 1: [TRASH], 2: [TRASH]})
    assert s.phase[0] == K.DRAFT  # missing 3 > 1 token: no JoAT window
    assert s.cash[0].tolist() == [18, 20, 20]


# -- T-02 the Dragon trains ---------------------------------------------------------------
def dragon_round(round, dragon_hand, plan, returned=None):
    t = Table(3)
    s = t.act1(NIGHT_CLUB_JOBS, {0: dragon_hand, 1: [HA], 2: [HA]}, round=round,
               returned=returned)
    return t, s, plan


def test_dragon_round1_two_drivers_in_training_are_public():
    t = Table(3)
    s = t.act1(NIGHT_CLUB_JOBS, {0: [CM, DR, DRx, DRx, GR, GU, HA, MU], 1: [HA], 2: [HA]})
    t.play(s, (0, TRASH), (0, TRASH), (0, TRAIN))
    assert TRAIN in t.legal(s)  # the second DR*: same type, pile of 1 < 3
    t.play(s, (0, TRAIN), *[(0, TRASH)] * 4, (1, TRASH), (2, TRASH))
    o = t.obs(s, 1)  # Le Femme sees the Dragon (relative slot 2)
    assert o["player.training_type"][2].argmax() == C.DRIVER
    assert o["player.training_count"][2][0] == pytest.approx(2 / 3)


def test_dragon_round2_third_driver_and_type_rule():
    t = Table(3)
    hand = {CM: 2, DRx: 3, GU: 2, HAx: 1, MU: 2}
    s = t.act1(NIGHT_CLUB_JOBS, {0: hand, 1: [HA], 2: [HA]}, round=2,
               returned={0: {DRx: 2}})
    t.play(s, (0, TRASH), (0, TRASH))
    for _ in range(3):  # pile 0, 1, 2: legal
        assert TRAIN in t.legal(s)
        t.play(s, (0, TRAIN))
    t.play(s, (0, TRASH), (0, TRASH))
    assert s.cur_kind[0] == HAx and TRAIN not in t.legal(s)  # the pile is Driver


def test_a_fourth_expert_cannot_train():
    t = Table(3)
    s = t.act1(NIGHT_CLUB_JOBS, {0: {DRx: 4}, 1: [HA], 2: [HA]})
    t.play(s, (0, TRAIN), (0, TRAIN), (0, TRAIN))
    assert TRAIN not in t.legal(s)


def finish_act1(t, s):
    """Everyone else trashes their cards (rounds already at 3)."""
    while s.phase[0] == K.ASSIGN:
        t.play(s, (int(s.current_player[0]), TRASH))
    return s


@pytest.mark.parametrize("trained,ability", [
    ([MUx] * 3, C.MUSCLE),  # switches to Muscle: the Drivers go to jobs
    ([DRx] * 3, C.DRIVER),  # T-02b
    ([MUx] * 2, -1),  # T-02c: only two in Training
])
def test_dragon_round3_gains_the_ability_left_in_training(trained, ability):
    t = Table(3)
    s = t.act1(NIGHT_CLUB_JOBS, {0: {CM: 2, DR: 1, DRx: 3, GU: 2, MUx: 3}, 1: [HA], 2: [HA]},
               round=3, returned={0: {DRx: 3}})
    plan = [TRASH, TRASH, TRASH]  # CM, CM, DR
    drivers = [TRAIN] * 3 if trained[0] == DRx else [job(1)] * 3
    plan += drivers + [TRASH, TRASH]  # GU GU
    muscles = [TRAIN] * len([c for c in trained if c == MUx])
    plan += muscles + [TRASH] * (3 - len(muscles))
    for a in plan:
        if a == TRAIN and trained[0] == DRx and s.cur_kind[0] == MUx:
            assert TRAIN not in t.legal(s)  # T-02b: the pile is full of Drivers
            a = TRASH
        t.play(s, (0, a))
    finish_act1(t, s)
    assert s.stage[0] == K.ACT2
    assert s.ability[0, 0] == ability
    assert t.obs(s, 2)["player.ability"][1].argmax() == ability or ability == -1


def test_simple_variant_has_no_experts_and_no_training():
    t = Table(3, simple_variant=True)
    s = t.game.init(np.arange(20))
    assert (s.crew_deck % 2 == 0).all()
    while not s.done.all():
        assert not s.legal_action_mask[:, TRAIN].any()
        t.game.step(s, np.argmax(s.legal_action_mask | s.done[:, None], axis=1))
    assert (s.ability == -1).all()


# -- T-03 the Brute and the Mamba use their JoAT at the Apartment -------------------------------
APARTMENT_JOBS = [4, 0, 6, 3, 8, 19]  # the Apartment (id 0) at position 2


def apartment(brute_cash=None):
    t = Table(4)  # seats: 0 Mamba, 1 Dragon, 2 Le Femme, 3 Brute
    cash = [20, 20, 20, brute_cash if brute_cash is not None else 20]
    s = t.act1(APARTMENT_JOBS, {0: [HA, MU], 1: [DR], 2: [GR], 3: [CM, GR]}, cash=cash)
    t.assign_all(s, {0: [TRASH, job(2)], 1: [TRASH], 2: [TRASH], 3: [job(2), TRASH]})
    assert s.phase[0] == K.JOAT and s.missing[0] == 1  # one Gun Man missing
    assert s.queue[0, :2].tolist() == [0, 3]
    return t, s


def test_apartment_both_reveal():
    t, s = apartment()
    t.play(s, (0, 21), (3, 21))
    assert t.at_cleanup.joat[0].tolist() == [0, 1, 1, 0]
    assert s.cash[0].tolist() == [22, 20, 20, 22]
    assert s.payout[0, :, C.ARTIFACT].tolist() == [1, 0, 0, 1]
    o = t.obs(t.at_cleanup, 0)
    assert o["job.joat"][1][[0, 3]].tolist() == [0.5, 0.5]  # public after the reveal
    assert s.joat[0].tolist() == [1, 1, 1, 1]  # reset at the next round's setup


def test_apartment_one_reveal_pays_both():
    t, s = apartment()
    t.play(s, (0, 21), (3, 20))
    assert t.at_cleanup.joat[0].tolist() == [0, 1, 1, 1]
    assert s.cash[0].tolist() == [22, 20, 20, 22]


def test_apartment_no_reveal_fails():
    t, s = apartment()
    t.play(s, (0, 20), (3, 20))
    assert s.cash[0].tolist() == [18, 20, 20, 18]


def test_apartment_fail_penalty_needs_cash():
    t, s = apartment(brute_cash=1)
    t.play(s, (0, 20), (3, 20))
    assert s.cash[0].tolist() == [18, 20, 20, 1]


def test_spent_joat_cannot_help_a_later_job():
    t = Table(4)
    s = t.act1(APARTMENT_JOBS, {0: [HA, MU, MU], 1: [DR], 2: [GR], 3: [CM, GR]},
               joat=[0, 1, 1, 1])
    # the Mamba (JoAT spent) alone at the Apartment and the ATM, one icon short at each
    t.assign_all(s, {0: [job(4), job(2), job(4)], 1: [TRASH], 2: [TRASH], 3: [TRASH, TRASH]})
    assert s.phase[0] == K.DRAFT  # no window anywhere
    assert s.cash[0, 0] == 16


# -- T-04 the Hotel payout --------------------------------------------------------------------
def test_hotel_pays_every_participant_in_full():
    t = Table(4)  # 0 Le Femme, 1 Dragon, 2 Bull, 3 Mamba
    s = t.act1(APARTMENT_JOBS, {0: [CM], 1: [DR], 2: [CM, GR, MU], 3: [HA]})
    t.assign_all(s, {0: [job(3)], 1: [job(3)], 2: [job(3)] * 3})
    assert job(3) not in t.legal(s)  # the Mamba's Hacker has no icon on the Hotel
    t.play(s, (3, TRASH))
    assert s.cash[0].tolist() == [23, 23, 23, 20]
    assert s.payout[0, :, C.DIAMOND].tolist() == [1, 1, 1, 0]
    assert s.crew_revealed[0].sum() == 5


# -- T-05 the four-player Act II example -------------------------------------------------------
def test_act2_example_mamba_flees_the_others_are_busted():
    t = Table(4)  # 0 Mamba, 1 Dragon, 2 Le Femme, 3 Brute
    s = t.act2(payout=[[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]],
               floor=[ART, T20, T30, SILVER, DIA], draws=[T50, COPS, COPS, COPS, COPS, COPS])
    assert s.first_player[0] == 0  # the Mamba has the fewest payout tokens
    t.play(s, (0, ROB), (1, ROB), (2, ROB), (3, ROB))
    assert s.cops_track[0] == 3 and not s.busted_round[0]  # an empty track cannot bust
    assert t.legal(s) == {PASS, take(T20), take(T30), take(SILVER), take(DIA), take(ART)}
    t.play(s, (0, take(ART)))
    assert s.vault_floor[0].tolist() == [1, 1, 1, 0, 1, 0, 0, 0, 1]
    assert s.vault_pile[0, 0, ART] == 1 and s.first_player[0] == 1
    assert s.bag[0].sum() == 53 and s.bag[0, COPS] == 7
    t.play(s, (1, ROB), (2, ROB), (3, ROB), (0, FLEE))
    assert s.terminated[0]
    assert s.status[0].tolist() == [K.FLED, K.BUSTED, K.BUSTED, K.BUSTED]
    assert t.game.scores(s)[0].tolist() == [23, 23, 22, 20]
    # the Mamba and the Dragon tie at $230K; the busted Dragon loses the tie
    assert t.game.winners(s)[0].tolist() == [True, False, False, False]
    np.testing.assert_allclose(s.rewards[0], [1, -1 / 3, -1 / 3, -1 / 3], atol=1e-6)


# -- T-06 the Diamond table ----------------------------------------------------------------------
def test_diamond_table():
    assert C.diamond_value(np.arange(8)).tolist() == [0, 2, 5, 10, 20, 35, 50, 65]


def test_fourth_diamond_in_game():
    t = Table(2)  # 0 Dragon, 1 Bull
    s = t.act2(payout=[[0, 3, 0], [0, 0, 0]], floor=[T20, T20, T30, T30, SILVER], draws=[DIA])
    assert s.first_player[0] == 1
    assert t.obs(s, 0)["me.score_now"][0] * 300 == pytest.approx(30)
    t.play(s, (1, FLEE), (0, ROB))
    assert s.phase[0] == K.TRADE
    assert t.obs(s, 0)["me.score_now"][0] * 300 == pytest.approx(40)
    t.play(s, (0, PASS), (0, FLEE))
    assert t.game.scores(s)[0].tolist() == [40, 20]
    assert t.game.winners(s)[0].tolist() == [True, False]


# -- T-07 the Inside Man --------------------------------------------------------------------------
def inside_man(top):
    t = Table(2)
    s = t.act1([0, 4, 6, 3, 8, 19], {0: [CM], 1: [MU]}, crew_top=[top])
    t.assign_all(s, {0: [job(1)], 1: [job(1)]})
    return t, s


def test_inside_man_completes_the_apartment():
    t, s = inside_man(GU)
    assert s.cash[0].tolist() == [22, 22]
    assert t.at_cleanup.inside[0, 0] == C.GUN_MAN
    assert t.at_cleanup.job_status[0, 0] == K.SUCCESS
    # the Inside Man card lies face-up in the common pile with the players' cards
    assert t.at_cleanup.pile[0, 0].tolist() == [1, 0, 0, 1, 0, 1]


def test_inside_man_off_type_then_two_tokens():
    t, s = inside_man(HA)
    assert s.phase[0] == K.JOAT
    assert t.legal(s) == {20, 21, 22}
    t.play(s, (0, 22), (1, 20))
    assert t.at_cleanup.joat[0].tolist() == [0, 2]
    assert s.cash[0].tolist() == [22, 22]


def test_inside_man_not_drawn_for_an_empty_job():
    t = Table(2)
    s = t.act1([0, 4, 6, 3, 8, 19], {0: [HA], 1: [HA]}, crew_top=[GU])
    ptr = s.crew_ptr[0]
    t.assign_all(s, {0: [TRASH], 1: [TRASH]})
    assert (t.at_cleanup.inside[0] == -1).all()
    assert t.at_cleanup.job_status[0].tolist() == [K.UNATTEMPTED] * 6
    assert s.crew_revealed[0].sum() == 0
    assert s.crew_ptr[0] == ptr + 2 * 9  # only the next round's deal


# -- v1: the public record of the reveals --------------------------------------------------------
def test_the_last_rounds_reveals_stay_in_every_observation():
    """The step that resolves the round's last job, cleans up and deals round 2 keeps the
    round's reveals in every seat's observation: pile by type, cards per seat, outcome."""
    t, s = night_club()
    t.assign_all(s, {0: [job(1), job(1), TRASH], 1: [job(1), TRASH, job(1)],
                     2: [TRASH, TRASH, job(1)]})
    assert s.stage[0] == K.ROUND2 and s.phase[0] == K.DRAFT  # the next round is dealt
    for seat in range(3):
        o = t.obs(s, seat)
        status = o["last_job.status"].argmax(axis=1)
        assert status.tolist() == [K.SUCCESS] + [K.UNATTEMPTED] * 5
        # the Night Club's pile: 1 Con Man, 1 Driver, 2 Gun Man, 1 Muscle
        np.testing.assert_allclose(o["last_job.pile"][0] * 6, [1, 1, 0, 2, 0, 1])
        sent = np.array([2, 2, 1])  # seats 0, 1, 2 sent 2, 2 and 1 cards
        np.testing.assert_allclose(o["last_job.contrib"][0][:3] * 6, np.roll(sent, -seat))
        np.testing.assert_allclose(o["last_job.req"][0] * 3, [1, 1, 0, 2, 0, 1])
        assert (o["job.status"].argmax(axis=1) == K.OPEN).all()  # this round's jobs: open


def test_where_an_opponent_sent_a_card_shows_after_the_round():
    """Sending a card to job 1 or leaving it unassigned no longer looks the same to the
    others once the round is over."""
    views = []
    for last in (job(1), TRASH):
        t, s = night_club()
        t.assign_all(s, {0: [job(1), job(1), TRASH], 1: [job(1), TRASH, job(1)],
                         2: [TRASH, TRASH, last]})
        if last == TRASH:  # one Muscle short: both participants keep their JoAT fists closed
            t.play(s, (0, 20), (1, 20))
        assert s.stage[0] == K.ROUND2
        views.append(t.obs(s, 0))
    assert not np.array_equal(views[0]["last_job.contrib"], views[1]["last_job.contrib"])
    assert views[0]["last_job.status"][0].argmax() == K.SUCCESS
    assert views[1]["last_job.status"][0].argmax() == K.FAILED  # one Muscle short, no JoAT


def test_the_record_of_round_three_lasts_through_act_ii():
    t, s = night_club()
    s.stage[0] = K.ROUND3
    t.assign_all(s, {0: [job(1), job(1), TRASH], 1: [job(1), TRASH, job(1)],
                     2: [TRASH, TRASH, job(1)]})
    assert s.stage[0] == K.ACT2 and (s.jobs[0] == -1).all()
    o = t.obs(s, 2)
    assert o["last_job.status"][0].argmax() == K.SUCCESS
    np.testing.assert_allclose(o["last_job.contrib"][0][:3] * 6, [1, 2, 2])  # from seat 2
