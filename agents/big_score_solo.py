"""A heuristic bot for The Big Score solo game, from the observation alone, batched.

The design specification's solo heuristic (§8.3), with what each scenario family values:
manipulate only to discard types no open job needs; assign the type that fills the most missing
icons; pay to place cards (or put a wildcard) only to complete a job worth at least $20K more
than it costs; keep up to two cards the open jobs need; never scout; in the vault, rob while the
chance of a bust times what is at risk is below the expected best of the three tokens, bribe
whenever that avoids the bust, and flee once a money objective is reached.

What a token is worth depends on the scenario ($10K units): money in The Biggest Score and its
kin, Diamonds in Diamond Thief, Artifacts and cash in The 5 Magic Paintings, drives, keys and
the Gold Bar in Crypto Currency, a bit of everything in This Crew Does What It Takes.
"""

from __future__ import annotations

import numpy as np

from ..envs.big_score import solo_kernel as K
from .base import ObservationBot, hypergeom_tail

NT = 6
# worth of a job's payout token (Artifact, Diamond, Hard Drive) per scenario
MONEY_TOKENS = (3.0, 4.0, 2.0)
JOB_TOKEN_VALUE = np.array([
    MONEY_TOKENS, MONEY_TOKENS, (4.0, 12.0, 0.0), (12.0, 0.0, 0.0), MONEY_TOKENS,
    (0.0, 0.0, 12.0), MONEY_TOKENS, MONEY_TOKENS, MONEY_TOKENS, (6.0, 6.0, 8.0)])
# worth of a vault token ($20K, $30K, $50K, $100K, Silver, Gold, Key, Artifact, Diamond)
MONEY_LOOT = (2, 3, 5, 10, 15, 20, 6, 3, 5)
LOOT_VALUE = np.array([
    MONEY_LOOT, MONEY_LOOT, (0.8, 1.2, 2, 4, 0, 0, 0, 4, 12), (2, 3, 5, 10, 0, 0, 0, 12, 0),
    MONEY_LOOT, (0, 0, 0, 0, 0, 12, 12, 0, 0), MONEY_LOOT, MONEY_LOOT, MONEY_LOOT,
    (2, 3, 5, 10, 15, 20, 8, 6, 6)], np.float64)
# the take that meets a money objective (None: the objective is not a take)
MONEY_GOAL = np.array([150, 200, 0, 0, 150, 0, 0, 150, 120, 0], np.float64)
SPARE_CASH = 8  # manipulate only with at least this much left ($10K)
KEEP_AT_MOST = 2
GOAL_RISK = 0.35  # the chance of a bust a robbery short of a money objective may run
# push short of the goal (measured better than the expected-value rule where the track busts;
# Betray the Traitor's crew row busts in other ways, and the expected value does better)
PUSH = np.array([1, 1, 0, 0, 1, 0, 0, 0, 0, 0], bool)


class BigScoreSoloHeuristic(ObservationBot):
    """Greedy rule-based play of the solo game, batched over games."""

    def decide(self, f: dict[str, np.ndarray], mask: np.ndarray) -> np.ndarray:
        return self.decide_by_rules(f, mask, self._rules)

    # -- what the table shows -----------------------------------------------------------------
    @staticmethod
    def _scenario(f: dict) -> np.ndarray:
        return f["meta.scenario"].argmax(axis=1)

    def _open(self, f: dict) -> np.ndarray:
        """bool [B, 6]: face-up open jobs."""
        return (f["job.status"][..., 1] > 0) & (f["job.face_down"][..., 0] == 0)

    def _missing(self, f: dict) -> np.ndarray:
        """[B, 6, 6] icons each open job still lacks per type."""
        req = np.rint(f["job.req"] * 3)
        placed = np.rint(f["job.placed"] * 3)
        return np.maximum(req - placed, 0) * self._open(f)[..., None]

    def _job_value(self, f: dict) -> np.ndarray:
        """[B, 6] worth of completing each job; The Heat Is On: a job with Cops pays nothing
        but keeps them off the track."""
        sc = self._scenario(f)
        tok = f["job.token"].argmax(axis=2)
        value = np.rint(f["job.cash"][..., 0] * 5) + JOB_TOKEN_VALUE[sc[:, None], tok]
        tokens = np.rint(f["job.tokens"] * 2)
        loot = (tokens[..., :9] * LOOT_VALUE[sc][:, None, :]).sum(axis=2)
        cops = tokens[..., 9]
        heat = (sc == K.HEAT)[:, None]
        return np.where(heat, np.where(cops > 0, 3.0 * cops, value + loot), value)

    def _hand(self, f: dict) -> np.ndarray:
        return np.rint(f["me.hand"] * 15)

    def _cash(self, f: dict) -> np.ndarray:
        return np.rint(f["me.cash"][:, 0] * 120)

    # -- Act I ---------------------------------------------------------------------------------
    def _remove_type(self, f: dict, mask: np.ndarray) -> np.ndarray:
        return np.full(len(mask), K.A_REMOVE_TYPE + 4)  # the Hacker: no job needs two

    def _manipulate(self, f: dict, mask: np.ndarray) -> np.ndarray:
        need = self._missing(f).sum(axis=1)
        useless = (self._hand(f) > 0) & (need == 0) & mask[:, K.A_DISCARD:K.A_DISCARD + NT]
        go = useless.any(axis=1) & (self._cash(f) >= SPARE_CASH)
        return np.where(go, K.A_DISCARD + useless.argmax(axis=1), K.A_DONE)

    def _choose(self, f: dict, mask: np.ndarray) -> np.ndarray:
        fill = np.minimum(self._hand(f), self._missing(f).sum(axis=1))
        score = np.where(mask[:, K.A_CHOOSE:K.A_CHOOSE + NT], fill * 10 - self._hand(f), -1e9)
        return K.A_CHOOSE + score.argmax(axis=1)

    def _place(self, f: dict, mask: np.ndarray) -> np.ndarray:
        """The chosen card onto the job it brings closest to completion (then the richest)."""
        left = np.rint(f["job.missing"][..., 0] * 6)
        score = np.where(mask[:, K.A_PLACE:K.A_PLACE + 6],
                         self._job_value(f) / np.maximum(left, 1), -1e9)
        return K.A_PLACE + score.argmax(axis=1)

    def _paid(self, f: dict, mask: np.ndarray) -> np.ndarray:
        """Complete a job with paid cards, then wildcards, when it is worth the price."""
        miss = self._missing(f)
        left = np.rint(f["job.missing"][..., 0] * 6)  # after wildcards already on it
        hand = self._hand(f)
        fill = np.minimum(hand[:, None, :], miss).sum(axis=2)
        cards = np.minimum(fill, left)
        wild = left - cards
        joat = np.rint(f["me.joat"][:, 0] * 6)
        worth = self._job_value(f) - cards
        ok = (left > 0) & (wild <= joat[:, None]) & (cards <= self._cash(f)[:, None]) & (
            worth >= cards + 2)
        best = np.where(ok, worth, -1e9).argmax(axis=1)
        rows = np.arange(len(mask))
        go = ok[rows, best]
        t = np.where((hand > 0) & (miss[rows, best] > 0), 1, 0).argmax(axis=1)
        place = K.A_PAY_PLACE + 6 * t + best
        use_card = cards[rows, best] > 0
        action = np.where(use_card, place, K.A_PLACE_JOAT + best)
        return np.where(go, action, K.A_DONE)

    def _keep(self, f: dict, mask: np.ndarray) -> np.ndarray:
        need = self._missing(f).sum(axis=1)
        kept = np.rint(f["me.kept"] * 15)
        want = (self._hand(f) > kept) & (need > kept) & mask[:, K.A_KEEP:K.A_KEEP + NT]
        go = want.any(axis=1) & (kept.sum(axis=1) < KEEP_AT_MOST) & (self._cash(f) >= 4)
        return np.where(go, K.A_KEEP + want.argmax(axis=1), K.A_DONE)

    def _reveal(self, f: dict, mask: np.ndarray) -> np.ndarray:
        return K.A_REVEAL + mask[:, K.A_REVEAL:K.A_REVEAL + 3].argmax(axis=1)

    def _buy_hd(self, f: dict, mask: np.ndarray) -> np.ndarray:
        drives = np.rint(f["me.payout"][:, 2] * 10)
        go = (drives < 3) & (self._cash(f) >= 10 + 30)
        return np.where(go, K.A_BUY_HD, K.A_DONE)

    # -- Act II --------------------------------------------------------------------------------
    def _loot_value(self, f: dict) -> np.ndarray:
        return LOOT_VALUE[self._scenario(f)]

    def _rob_flee(self, f: dict, mask: np.ndarray) -> np.ndarray:
        sc = self._scenario(f)
        bag = np.rint(f["vault.bag"] * 10)
        total = bag.sum(axis=1)
        cops = bag[:, 9]
        track = np.rint(f["vault.cops_on_track"][:, 0] * 5)
        need = np.where(sc == K.BETRAY, self._cops_to_bust_row(f), K.R.BUST_AT - track)
        p_bust = hypergeom_tail(total, cops, np.minimum(3, total), need)
        values = self._loot_value(f)
        risk = (np.rint(f["vault.pile"] * 10) * values).sum(axis=1)
        if (sc == K.BETRAY).any():
            on_row = np.rint(f["crew_row.tokens"][..., :9] * 10).sum(axis=1)
            risk = np.where(sc == K.BETRAY, (on_row * values).sum(axis=1), risk)
        gain = expected_best(bag[:, :9], total, values)
        take = f["me.take"][:, 0] * 300
        goal = MONEY_GOAL[sc]
        # short of a money objective fleeing loses for sure: push while a bust is unlikely;
        # once it is reached, flee
        short = PUSH[sc] & (take < goal)
        ev = (1 - p_bust) * gain > p_bust * (risk + 1)
        worth = np.where(short, p_bust <= GOAL_RISK, ev & ~((goal > 0) & (take >= goal)))
        return np.where(mask[:, K.A_ROB] & worth, K.A_ROB, K.A_FLEE)

    @staticmethod
    def _cops_to_bust_row(f: dict) -> np.ndarray:
        """Betray the Traitor: Cops that bust the row, taken as its cards without one (the
        fewest-tokens rule can bust sooner; measured, the bolder guess wins more often)."""
        row = f["crew_row.present"][..., 0] > 0
        free = row & (np.rint(f["crew_row.tokens"][..., 9] * 10) == 0)
        return np.maximum(free.sum(axis=1), 1)

    def _bribe(self, f: dict, mask: np.ndarray) -> np.ndarray:
        """The fewest bribes that avoid a bust, if I can pay them; else none."""
        k = np.rint(f["vault.to_bribe"][:, 0] * 2) + 1
        track = np.rint(f["vault.cops_on_track"][:, 0] * 5)
        b = np.maximum(track + k - (K.R.BUST_AT - 1), 0)
        ok = mask[np.arange(len(mask)), K.A_BRIBE + np.minimum(b, 2).astype(int)] & (b <= 2)
        return np.where(ok, K.A_BRIBE + np.minimum(b, 2).astype(int), K.A_BRIBE)

    def _keep_token(self, f: dict, mask: np.ndarray) -> np.ndarray:
        v = np.where(mask[:, K.A_KEEP_TOKEN:K.A_KEEP_TOKEN + 9], self._loot_value(f), -1e9)
        return K.A_KEEP_TOKEN + v.argmax(axis=1)

    def _remove_token(self, f: dict, mask: np.ndarray) -> np.ndarray:
        v = np.where(mask[:, K.A_REMOVE_TOKEN:K.A_REMOVE_TOKEN + 9], self._loot_value(f), 1e9)
        return K.A_REMOVE_TOKEN + v.argmin(axis=1)

    def _traitor(self, f: dict, mask: np.ndarray) -> np.ndarray:
        """Loot on the crew least likely to be a traitor (fewest cards of its type aside),
        Cops on the most likely one."""
        aside = np.rint(f["betray.aside"] * 15)
        cop = f["betray.pending"][:, 9] > 0
        legal = mask[:, K.A_TRAITOR:K.A_TRAITOR + NT]
        score = np.where(cop[:, None], aside, -aside)
        return K.A_TRAITOR + np.where(legal, score, -1e9).argmax(axis=1)

    _rules = {K.REMOVE_TYPE: _remove_type, K.MANIPULATE: _manipulate, K.CHOOSE_TYPE: _choose,
              K.PLACE: _place, K.PAID: _paid, K.KEEP: _keep, K.REVEAL: _reveal,
              K.BUY_HD: _buy_hd, K.ROB_FLEE: _rob_flee, K.BRIBE: _bribe,
              K.KEEP_TOKEN: _keep_token, K.REMOVE_TOKEN: _remove_token, K.TRAITOR: _traitor}


def expected_best(loot: np.ndarray, total: np.ndarray, values: np.ndarray) -> np.ndarray:
    """E[the most valuable loot token among 3 draws without replacement] (Cops count 0):
    P[best >= v] = 1 - C(N - n_v, 3) / C(N, 3), n_v the tokens worth at least v."""
    def choose3(n: np.ndarray) -> np.ndarray:
        n = np.maximum(n, 0)
        return n * (n - 1) * (n - 2) / 6.0

    order = np.argsort(-values, axis=1)
    v = np.take_along_axis(values, order, 1)
    counts = np.take_along_axis(loot, order, 1)
    at_least = np.cumsum(counts, axis=1)
    n = total[:, None]
    p_ge = 1 - choose3(n - at_least) / np.maximum(choose3(n), 1)
    p_ge = np.where(n >= 3, p_ge, at_least > 0)
    step = np.diff(np.concatenate([np.zeros((len(v), 1)), p_ge], axis=1), axis=1)
    return (step * v).sum(axis=1)


__all__ = ["BigScoreSoloHeuristic"]
