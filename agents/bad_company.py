"""A heuristic Bad Company bot (the spec's `GreedyHeistBot`, §8), from the observation alone.

It values each crew member by what its rewards would do now: symbols count up to what the
active heists and tasks still need (a little beyond), coins half, car steps by how close the
police car is and whether a control point is near; the Fixer by its best symbol. Pairings,
sums, rerolls and upgrades follow from those values; tokens go where they finish a heist
soonest; phase 2B completes, plays loot, recruits and buys VP in a fixed priority.
"""

from __future__ import annotations

import numpy as np
from heistbench.envs.bad_company import components as C
from heistbench.envs.bad_company import rules as R

from .base import ObservationBot

NEG = -1e9
PAIR_IDX = R.PAIR_IDX
P2D6 = np.array([min(s - 1, 13 - s) / 36 for s in range(2, 13)], np.float32)  # members 2..12
COLLAR_PREFERENCE = np.zeros(C.NUM_MEMBERS, np.float32)  # member row -> preference
for _rank, _m in enumerate(R.COLLAR_ORDER):
    COLLAR_PREFERENCE[_m - 2] = C.NUM_MEMBERS - _rank
BYPASSED_CP = {5: 6, 11: 12, 17: 18, 22: 24}  # the control point each shortcut skips
BONUS_VALUE = np.array([0.0, 0.5, 0.5, 1.5, 1.0], np.float32)  # per unit: none, $, car, loot, wild


class BadCompanyHeuristic(ObservationBot):
    """Greedy valuation of crew members, tokens and heists; fixed priorities in phase 2B."""

    def decide(self, f: dict[str, np.ndarray], mask: np.ndarray) -> np.ndarray:
        B = mask.shape[0]
        dec = f["decision"].argmax(axis=1)
        crew = np.rint(f["player.crew"][:, 0].reshape(B, C.NUM_MEMBERS, 9) *
                       np.array([6, 4, 4, 4, 4, 4, 5, 6, 1], np.float32))
        tasks = f["player.tasks"][:, 0].reshape(B, 4, 9)
        heists = f["player.active_heists"][:, 0].reshape(B, 2, 38)
        req = np.rint(heists[:, :, 2:6] * 8) * heists[:, :, :1]
        cov = np.rint(heists[:, :, 6:10] * 8)
        task_sym = tasks[:, :, :4]
        task_free = 2 - np.rint(tasks[:, :, 8] * 2)  # [B, 4]
        need = (req - cov).sum(axis=1) + (task_sym * task_free[:, :, None]).sum(axis=1)  # [B, 4]
        abil = f["player.abilities"][:, 0] > 0.5
        money = np.rint(f["player.money"][:, 0, 0] * 30)
        car = np.rint(f["player.car"][:, 0, 0] * 28)
        police = np.rint(f["police"][:, 0] * 34) - 6
        stepv = self._step_value(car, police)
        value = self._member_values(crew, need, stepv, abil)  # [B, 11] members 2..12

        scores = np.zeros(mask.shape, np.float32)
        self._rolling(f, mask, scores, value, dec, money)
        sums = (f["pair_sums"].reshape(B, 2, 11).argmax(axis=2))  # member rows of lo, hi
        scores[:, R.A_SUM] = value[np.arange(B), sums[:, 0]]
        scores[:, R.A_SUM + 1] = value[np.arange(B), sums[:, 1]]
        counts = crew[:, 1:10, 2:5].sum(axis=1) + abil[:, 1:2]  # Fixer: L, G, M (A2 +1)
        scores[:, R.A_FIXER:R.A_FIXER + 3] = np.minimum(counts, need[:, :3]) + 0.01 * counts
        self._tokens(f, scores, req, cov, heists, tasks, task_free)
        self._shortcut(scores, car, police)
        self._phase2b(f, scores, car, police, money, abil)
        self._upgrades(f, scores, need)
        free = crew[:, :, 8] < 0.5
        scores[:, R.A_COLLAR:R.A_COLLAR + C.NUM_MEMBERS] = np.where(free, COLLAR_PREFERENCE, 0)
        self._heist_choices(f, scores)
        scores = np.where(mask, scores, NEG)
        scores += self.rng.random(scores.shape) * 1e-4  # break exact ties at random
        return scores.argmax(axis=1)

    # -- values ------------------------------------------------------------------------------------
    def _step_value(self, car: np.ndarray, police: np.ndarray) -> np.ndarray:
        """0.9 a step when the police car is close behind, else 0.4; +1 when a control point
        that the police has not reached lies within two spaces."""
        v = np.where(car - police <= 2, 0.9, 0.4).astype(np.float32)
        for cp in C.CP_POSITIONS:
            near = (cp - car >= 1) & (cp - car <= 2) & (police < cp)
            v = v + np.where(near, 1.0, 0.0)
        return v

    def _member_values(self, crew, need, stepv, abil) -> np.ndarray:
        sym = crew[:, :, 2:6]  # [B, 11, 4]
        n = need[:, None, :]
        v = (np.minimum(sym, n) + 0.3 * np.maximum(sym - n, 0)).sum(axis=2)
        v += 0.5 * crew[:, :, 0] + stepv[:, None] * crew[:, :, 1]
        counts = crew[:, 1:10, 2:5].sum(axis=1) + abil[:, 1:2]
        v[:, 0] = np.minimum(counts, need[:, :3]).max(axis=1)
        v[:, 10] = np.where(abil[:, 0], 3, 2) * stepv
        return v + crew[:, :, 8]  # a collar: 1 VP

    def _rolling(self, f, mask, scores, value, dec, money) -> None:
        """Pairings by value; a reroll of the weaker pair of the best pairing while the best is
        poor (at most twice a turn), a Free reroll card when cash runs out."""
        B = mask.shape[0]
        dice = f["yellow_dice"].reshape(B, 4, 6).argmax(axis=2) + 1
        pv = np.zeros((B, 3), np.float32)
        weak = np.zeros((B, 3), np.int64)
        for k in range(3):
            a = dice[:, PAIR_IDX[k, 0]] + dice[:, PAIR_IDX[k, 1]] - 2
            b = dice[:, PAIR_IDX[k, 2]] + dice[:, PAIR_IDX[k, 3]] - 2
            va, vb = value[np.arange(B), a], value[np.arange(B), b]
            pv[:, k] = va + vb
            bits_a = (1 << PAIR_IDX[k, 0]) | (1 << PAIR_IDX[k, 1])
            bits_b = (1 << PAIR_IDX[k, 2]) | (1 << PAIR_IDX[k, 3])
            weak[:, k] = np.where(va <= vb, bits_a, bits_b)
        legal_pairs = mask[:, R.A_PAIRING:R.A_PAIRING + 3]
        scores[:, R.A_PAIRING:R.A_PAIRING + 3] = pv
        best = np.where(legal_pairs, pv, NEG).argmax(axis=1)
        rerolls = np.rint(f["rerolls_done"][:, 0] * 10)
        want = (dec == R.CHIEF_REROLL) & (pv[np.arange(B), best] < 2.0) & (rerolls < 2)
        rows = np.flatnonzero(want)
        scores[rows, R.A_REROLL + weak[rows, best[rows]] - 1] = 2.0
        scores[:, R.A_FREE_REROLL] = np.where(want, 1.5, -1.0)
        scores[:, R.A_ACCEPT] = 1.0

    def _tokens(self, f, scores, req, cov, heists, tasks, task_free) -> None:
        """A token where it leaves a heist fewest spaces from done (higher VP first), else on a
        matching task (nearly full first); a wild token prefers flashlights."""
        wild = f["pending_token"][:, 4] > 0.5
        left = (req - cov).sum(axis=2)  # [B, 2]
        vp = heists[:, :, 10] * 10
        for h in range(2):
            for s in range(4):
                v = 10.0 - (left[:, h] - 1) + 0.1 * vp[:, h]
                if s == C.FLASHLIGHT:
                    v = v + np.where(wild, 1.0, 0.0)
                scores[:, R.A_PLACE_HEIST + 4 * h + s] = v
        scores[:, R.A_PLACE_TASK:R.A_PLACE_TASK + 4] = 3.0 - task_free
        scores[:, R.A_DISCARD] = -10.0

    def _shortcut(self, scores, car, police) -> None:
        """A shortcut when the bypassed control point is reached by the police, pays only $2,
        or the normal step would leave the car behind the police car."""
        take = np.zeros(car.shape, bool)
        for origin, cp in BYPASSED_CP.items():
            here = car == origin
            skip = (police >= cp) | (C.CONTROL_POINTS[cp] == C.CP_CASH) | (car + 1 < police)
            take |= here & skip
        scores[:, R.A_STEP] = 1.0
        scores[:, R.A_SHORTCUT] = np.where(take, 2.0, 0.0)

    def _phase2b(self, f, scores, car, police, money, abil) -> None:
        pos = f["player.recruit"][:, 0].argmax(axis=1)
        cost = np.array(C.RECRUIT_COST + (99,), np.float32)[pos]
        cost = np.where(abil[:, C.A4_HEADHUNTER - 1], np.maximum(cost - 1, 1), cost)
        scores[:, R.A_COMPLETE_HEIST:R.A_COMPLETE_HEIST + 2] = 100.0
        scores[:, R.A_COMPLETE_TASK:R.A_COMPLETE_TASK + 4] = 90.0
        scores[:, [R.A_CASH3, R.A_CAR2, R.A_WILD, R.A_FREE_RECRUIT]] = 80.0
        scores[:, R.A_RECRUIT] = np.where(money >= cost + 1, 70.0, -1.0)
        scores[:, R.A_BUY_VP] = 60.0
        close = (police <= car) & (car < police + 2)
        scores[:, R.A_HALT] = np.where(close, 50.0, -1.0)
        scores[:, R.A_END_PHASE] = 0.0

    def _upgrades(self, f, scores, need) -> None:
        B = scores.shape[0]
        up = f["upgrade_choices"].reshape(B, 3, 17)
        member = up[:, :, 1:10].argmax(axis=2)  # 0..8 = members 3..11
        sym = np.rint(up[:, :, 10:16] * 3)  # coins, wheel, L, G, M, F
        vp = np.rint(up[:, :, 16] * 3)
        v = (np.minimum(sym[:, :, 2:], need[:, None, :]).sum(axis=2) + 0.5 * sym[:, :, 0]
             + 0.5 * sym[:, :, 1] + vp + 3 * P2D6[member + 1])
        scores[:, R.A_UPGRADE:R.A_UPGRADE + 3] = v

    def _heist_choices(self, f, scores) -> None:
        """Setup: return the heist of least (VP + bonus) per space; at the end of the turn,
        take the one of most value per (weighted) space."""
        B = scores.shape[0]
        for name, first, count, sign in (("display", R.A_TAKE, 5, 1.0),
                                         ("setup_choices", R.A_SETUP, 3, -1.0)):
            h = f[name].reshape(B, count, 38)
            req = np.rint(h[:, :, 2:6] * 8)
            vp = h[:, :, 10] * 10
            bonus = BONUS_VALUE[h[:, :, 11:16].argmax(axis=2)] * np.rint(h[:, :, 16] * 3)
            if sign > 0:
                worth = (vp + 2 * (h[:, :, 17] < 0.5) + 1.5 * (h[:, :, 26] < 0.5)
                         + 0.5 * h[:, :, 33:37].sum(axis=2) + bonus)
                spaces = req[:, :, :3].sum(axis=2) + 1.5 * req[:, :, 3]
            else:
                worth = vp + bonus
                spaces = req.sum(axis=2)
            scores[:, first:first + count] = sign * worth / np.maximum(spaces, 1)
