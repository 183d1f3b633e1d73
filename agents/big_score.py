"""A heuristic bot for The Big Score that plays from the observation alone.

Sensible greedy play: draft toward the open jobs' needs, join jobs it expects to succeed (one
card is enough to share the full payout), avoid jobs that will fail, train toward one Expert
Ability, use JoAT tokens only when they surely complete a job, and push its luck in the vault
from the cops track and the bag's known contents. Vectorized over the batch.
"""

from __future__ import annotations

import numpy as np

from ..envs.big_score import components as C
from ..envs.big_score.kernel import (
    A_ASSIGN,
    A_BOSS_CASH,
    A_BOSS_TOKEN,
    A_CONMAN,
    A_FLEE,
    A_GREASE,
    A_GUN,
    A_GUN_DECLINE,
    A_JOAT,
    A_MUSCLE_PASS,
    A_MUSCLE_STEAL,
    A_ROB,
    A_TRADE,
    A_TRADE_PASS,
    ASSIGN,
    BOSS_OPTION,
    DRAFT,
    GREASE_STEAL,
    GUN_STEAL,
    JOAT,
    MUSCLE,
    ROB_FLEE,
    TRADE,
)
from .base import ObservationBot, hypergeom_tail

TOKEN_VALUE = np.array([3.0, 3.0, 2.0])  # worth of a job's Artifact, Diamond, Hard Drive ($10K)
# Expert Ability preference when the Expert cards held do not decide (the Gun Man's extra
# Floor token and the Con Man's trade are worth most to a greedy vault player)
ABILITY_PREFERENCE = np.array([C.GUN_MAN, C.CON_MAN, C.GREASE_MAN, C.DRIVER, C.MUSCLE,
                               C.HACKER])
PREF_RANK = np.argsort(ABILITY_PREFERENCE)  # type -> rank (0 = most preferred)
ALPHA = 1.0 / 6.0  # share of an opponent's hand expected on any one job
CAUTION = 1.0  # lambda of the rob rule: 0 = risk-neutral


def _steal(base: int):
    """Gun Man / Grease Man: take the Floor token worth most to me."""

    def rule(self: BigScoreHeuristic, f: dict, mask: np.ndarray) -> np.ndarray:
        d = np.where(mask[:, base:base + 9], self._deltas(f), -np.inf)
        return base + d.argmax(axis=1)

    return rule


class BigScoreHeuristic(ObservationBot):
    """Greedy rule-based play of The Big Score, batched over games."""

    def decide(self, f: dict[str, np.ndarray], mask: np.ndarray) -> np.ndarray:
        return self.decide_by_rules(f, mask, self._rules)

    # -- setup --------------------------------------------------------------------------------
    def _boss(self, f: dict, mask: np.ndarray) -> np.ndarray:
        token = f["player.boss_token"][:, 0].argmax(axis=1)
        cash = f["player.boss_cash"][:, 0, 0] * 10
        # an Artifact or a Diamond is worth at least its face value of $30K (a Diamond more
        # with the next ones); a locked Hard Drive is worth nothing without a Key
        value = np.where(token == C.HARD_DRIVE, 0, 3)
        return np.where(value >= cash, A_BOSS_TOKEN, A_BOSS_CASH)

    # -- Act I --------------------------------------------------------------------------------
    def _job_needs(self, f: dict) -> tuple[np.ndarray, np.ndarray]:
        """Icons per type of the open jobs, weighted by payout per icon; and job values."""
        req = np.rint(f["job.req"] * 3)  # [b, 6, 6]
        cash = f["job.cash"][..., 0] * 5
        tokval = (f["job.token"][..., :3] * TOKEN_VALUE).sum(axis=2)
        value = (cash + tokval) * (f["job.status"][..., 1] > 0)  # open jobs only
        icons = np.maximum(req.sum(axis=2), 1)
        need = (req * (value / icons)[..., None]).sum(axis=1)
        return need, value

    def _target_type(self, f: dict) -> np.ndarray:
        """The crew type of the Expert Ability to train toward."""
        hand = np.rint(f["me.hand"] * 9) + np.rint(f["me.picks"] * 9)
        experts = hand[:, 1::2].copy()
        tcount = np.rint(f["player.training_count"][:, 0, 0] * 3)
        ttype = f["player.training_type"][:, 0].argmax(axis=1)
        has_pile = f["player.training_type"][:, 0].any(axis=1)
        rows = np.flatnonzero(has_pile)
        experts[rows, ttype[rows]] += tcount[rows]
        experts += np.rint(f["me.assign_training"] * 3)
        key = experts * 10 - PREF_RANK[None, :]
        return key.argmax(axis=1), experts.max(axis=1)

    def _draft(self, f: dict, mask: np.ndarray) -> np.ndarray:
        need, _ = self._job_needs(f)
        have = (np.rint(f["me.picks"] * 9)[:, 0::2] + np.rint(f["me.picks"] * 9)[:, 1::2])
        target, _ = self._target_type(f)
        abilities_on = f["meta.flags"][:, 1] > 0
        round3 = f["meta.stage"][:, 3] > 0
        score = np.repeat(need / (1 + have), 2, axis=1)  # per kind
        expert_bonus = 1.5 * (1 + round3) * abilities_on
        score[np.arange(len(score)), 2 * target + 1] += expert_bonus
        score += 0.01 * self.rng.random(score.shape)
        score = np.where(mask[:, :12], score, -np.inf)
        return score.argmax(axis=1)

    def _assign_plan(self, f: dict) -> tuple[np.ndarray, np.ndarray]:
        """Plan the whole hand: cards per (position, type) for jobs, and Training per type."""
        b = len(f["me.hand"])
        hand = np.rint(f["me.hand"] * 9)
        jobs_done = np.rint(f["me.assign_job"] * 6).reshape(b, 6, 6)
        train_done = np.rint(f["me.assign_training"] * 3)
        trash_done = np.rint(f["me.assign_unassigned"] * 9)
        full = (hand[:, 0::2] + hand[:, 1::2] + jobs_done.sum(axis=1) + train_done
                + trash_done)  # all my cards this round, per type
        experts = hand[:, 1::2] + train_done
        target, _ = self._target_type(f)
        ar = np.arange(b)
        abilities = f["meta.flags"][:, 1] > 0
        training_ok = f["meta.flags"][:, 0] == 0
        round3 = f["meta.stage"][:, 3] > 0
        plan_train = np.zeros((b, 6))
        go = training_ok & round3 & abilities & (experts[ar, target] >= 3)
        plan_train[ar[go], target[go]] = 3
        free = full - plan_train
        # what the others will probably send, per type
        revealed = np.rint(f["cards.crew_revealed"] * 15)
        others_train = (f["player.training_type"][:, 1:] *
                        np.rint(f["player.training_count"][:, 1:] * 3)).sum(axis=1)
        unseen = np.maximum(15 - full - (revealed[:, 0::2] + revealed[:, 1::2]) - others_train,
                            0)
        others_cards = np.rint(f["player.hand_size"][:, 1:, 0] * 12).sum(axis=1)
        e_hat = ALPHA * others_cards[:, None] * unseen / np.maximum(unseen.sum(1, keepdims=True),
                                                                    1)
        joat = np.rint(f["player.joat"][:, 0, 0] * 2)
        req = np.rint(f["job.req"] * 3)
        _, value = self._job_needs(f)
        plan_jobs = np.zeros((b, 6, 6))
        for p in np.argsort(-value, axis=1, kind="stable").T:  # jobs by value, per game
            m = req[ar, p] * (value[ar, p] > 0)[:, None]
            alone = np.maximum(m - free, 0).sum(axis=1) <= joat
            take = np.minimum(m, free) * alone[:, None]
            # otherwise one card of the type others are least likely to bring
            gap = np.where((m > 0) & (free > 0), m - e_hat, -np.inf)
            t = gap.argmax(axis=1)
            shortfall = np.maximum(m - np.eye(6)[t] - e_hat, 0).sum(axis=1)
            one = ~alone & np.isfinite(gap[ar, t]) & (shortfall <= 0.5 + joat)
            take[ar[one], t[one]] = 1
            plan_jobs[ar, p] = take
            free -= take
        # rounds 1-2: target-type Experts that would be thrown away go to Training instead
        spare = np.minimum(np.minimum(free[ar, target], experts[ar, target]), 3)
        carry = training_ok & ~round3 & abilities
        plan_train[ar[carry], target[carry]] = spare[carry]
        return plan_jobs, plan_train

    def _assign(self, f: dict, mask: np.ndarray) -> np.ndarray:
        b = len(mask)
        ar = np.arange(b)
        kind = f["me.current_card"].argmax(axis=1)
        t = kind // 2
        plan_jobs, plan_train = self._assign_plan(f)
        jobs_done = np.rint(f["me.assign_job"] * 6).reshape(b, 6, 6)
        train_done = np.rint(f["me.assign_training"] * 3)
        want_train = (kind % 2 == 1) & (plan_train[ar, t] > train_done[ar, t])
        room = (plan_jobs[ar, :, t] > jobs_done[ar, :, t]) & mask[:, A_ASSIGN:A_ASSIGN + 6]
        pos = room.argmax(axis=1)
        action = np.where(room.any(axis=1), A_ASSIGN + pos, A_ASSIGN + 7)
        return np.where(want_train & mask[:, A_ASSIGN + 6], A_ASSIGN + 6, action)

    def _joat(self, f: dict, mask: np.ndarray) -> np.ndarray:
        missing = np.rint(f["meta.missing_icons"][:, 0] * 6).astype(int)
        mine = np.rint(f["player.joat"][:, 0, 0] * 2).astype(int)
        return A_JOAT + np.where(missing <= mine, missing, 0)

    # -- Act II -------------------------------------------------------------------------------
    def _deltas(self, f: dict) -> np.ndarray:
        """Marginal value to me of one more vault token of each loot type [b, 9]."""
        b = len(f["me.hand"])
        pay = np.rint(f["player.payout"] * 10)  # [b, 6, 3]
        pile = np.rint(f["player.vault_pile"] * 10)  # [b, 6, 9]
        art = pay[..., 0] + pile[..., C.V_ARTIFACT]
        mine_art, others = art[:, 0], art[:, 1:].max(axis=1)
        dia = (pay[:, 0, 1] + pile[:, 0, C.V_DIAMOND]).astype(int)
        drives, keys = pay[:, 0, 2], pile[:, 0, C.KEY]
        hacker = f["player.ability"][:, 0, C.HACKER] > 0
        d = np.zeros((b, C.NUM_LOOT))
        d[:, :6] = C.LOOT_FACE[:6]
        d[:, C.KEY] = 20 * (drives > keys) + 5 * hacker * np.where(drives > keys, -1, 1)
        bonus_now = mine_art > others
        d[:, C.V_ARTIFACT] = 3 + 25 * ((mine_art + 1 > others) & ~bonus_now)
        d[:, C.V_DIAMOND] = C.DIAMOND_LUT[dia + 1] - C.DIAMOND_LUT[dia]
        return d

    def _rob_flee(self, f: dict, mask: np.ndarray) -> np.ndarray:
        bag = np.rint(f["vault.bag"] * 10)
        total = bag.sum(axis=1)
        cops = bag[:, C.COPS]
        need = np.rint(f["vault.cops_to_bust"][:, 0] * 7)
        in_vault = f["player.act2_status"][..., 0] > 0
        draws = in_vault.sum(axis=1)  # me and the others still inside, all assumed to rob
        p_bust = hypergeom_tail(total, cops, draws, need)
        loot = bag[:, :C.NUM_LOOT]
        gain = (loot * self._deltas(f)).sum(axis=1) / np.maximum(total, 1)
        risk = f["me.value_at_risk"][:, 0] * 300
        ev = (1 - p_bust) * gain - p_bust * risk
        rob = (ev > CAUTION * risk / 10) & mask[:, A_ROB]
        return np.where(rob, A_ROB, A_FLEE)

    def _my_draw_value(self, f: dict, d: np.ndarray) -> np.ndarray:
        drawn = f["player.last_draw"][:, 0, :C.NUM_LOOT]
        return (drawn * d).sum(axis=1)

    def _trade(self, f: dict, mask: np.ndarray) -> np.ndarray:
        d = self._deltas(f)
        floor_ok = mask[:, A_TRADE:A_TRADE + 9]
        gain = np.where(floor_ok, d - self._my_draw_value(f, d)[:, None], -np.inf)
        best = gain.argmax(axis=1)
        best_gain = gain[np.arange(len(gain)), best]
        action = np.where(best_gain > 0, A_TRADE + best, A_TRADE_PASS)
        # Con Man: give an earlier token, take a Floor token, keep the new draw
        con_ok = mask[:, A_CONMAN:A_GUN_DECLINE].reshape(-1, 9, 9)
        con_gain = np.where(con_ok, d[:, None, :] - d[:, :, None], -np.inf).reshape(-1, 81)
        c = con_gain.argmax(axis=1)
        cg = con_gain[np.arange(len(c)), c]
        few_left = f["vault.bag_total"][:, 0] * 62 < 10
        use_con = (cg >= 10) | ((cg >= best_gain + 5) & few_left & np.isfinite(cg))
        return np.where(use_con & np.isfinite(cg), A_CONMAN + c, action)

    def _muscle(self, f: dict, mask: np.ndarray) -> np.ndarray:
        n = self.n
        mine = f["player.last_draw"][:, :n, :C.NUM_LOOT].any(axis=2)
        inside = f["player.act2_status"][:, :n, 0] > 0
        fp = f["player.first_player"][:, :n, 0].argmax(axis=1)
        slots = np.arange(n)[None, :]
        before_me = (slots >= fp[:, None]) & (fp[:, None] > 0)  # clockwise from the marker
        rivals = (mine & inside & before_me).any(axis=1)
        d = self._deltas(f)
        floor = np.rint(f["vault.floor"] * 5) > 0
        best = np.where(floor, d, -np.inf).max(axis=1) - self._my_draw_value(f, d)
        steal = mine[:, 0] & rivals & (best >= 5)
        return np.where(steal, A_MUSCLE_STEAL, A_MUSCLE_PASS)

    _rules = {BOSS_OPTION: _boss, DRAFT: _draft, ASSIGN: _assign, JOAT: _joat,
              ROB_FLEE: _rob_flee, TRADE: _trade, MUSCLE: _muscle,
              GUN_STEAL: _steal(A_GUN), GREASE_STEAL: _steal(A_GREASE)}


__all__ = ["BigScoreHeuristic"]
