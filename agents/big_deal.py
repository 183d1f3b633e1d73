"""A heuristic Big Deal bot (the spec's `TycoonBot`, §8, simplified): values every legal action
in $50M units and takes the best, ending the turn when nothing is worth more than nothing.

It reads only the observation (decoded by name with `game.obs_fields`), vectorized over the
batch. The plan: open branches whose income over the turns left pays for their resources,
buy the missing resources and the pairing share, take over rival branches when it holds a
share and the defender is too poor to counter, charge premiums with spare cash cards, sell
fresh shares it cannot use, keep the hand within the limit, and cash out what the final
liquidation ($150M a piece) values less than a sale once the end is near.
"""

from __future__ import annotations

import numpy as np
from heistbench.envs.big_deal import components as C
from heistbench.envs.big_deal import kernel as K

from .base import ObservationBot

NEG = -1e9
NCO, NR, NS = C.NUM_CO, C.NUM_RES, C.NUM_SLOTS
W = C.WHITE.astype(np.float32)
G = C.GREEN.astype(np.float32)
REQ = C.REQ.astype(np.float32)
LIQ = float(C.LIQUIDATION)
RESERVE = 6.0  # cash kept back when buying resources ($300M)


class BigDealHeuristic(ObservationBot):
    """Greedy valuation of every legal action, from the observation alone."""

    def decide(self, f: dict[str, np.ndarray], mask: np.ndarray) -> np.ndarray:
        B, N = mask.shape[0], self.n
        v = np.zeros(mask.shape, np.float32)
        cash = f["player.cash"][:, 0, 0] * 400
        hand = np.rint(f["my_hand"] * 7)
        fresh = np.rint(f["my_fresh"] * 7)
        free = np.rint(f["player.unassigned"][:, 0] * 14)  # [B, 4]
        wheels = f["wheels"].reshape(B, NR, 3)
        buy_price = np.rint(wheels[:, :, 1] * 14)
        sell_price = np.rint(wheels[:, :, 2] * 14)
        counters = f["turn_counters"]
        buys_left = 3 - np.rint(counters[:, 1] * 3)
        bonus = np.rint(f["variant"][:, 1] * 2)
        shark = f["variant"][:, 0] > 0.5
        br = f["player.branches"].reshape(B, N, NS, NCO + 1)
        br_co = np.where(br[..., :NCO].max(axis=3) > 0.5, br[..., :NCO].argmax(axis=3), -1)
        br_sh = np.rint(br[..., NCO] * 7)
        hand_size = np.rint(f["player.hand_size"][:, 0, 0] * 10)

        # turns left for me: the non-Game-Over cards expected before the last one, shared out
        g = 7 - f["go_revealed"].argmax(axis=1)
        deck = np.rint(f["deck_left"][:, 0] * 100)
        T = np.maximum(deck - g, 0) * g / (g + 1) / N
        end = T < 1.5
        gt = G[None] * T[:, None]  # [B, 11] income a branch would still earn

        # -- companies I could open: two shares in hand, the missing resources affordable ----
        missing = np.maximum(REQ[None] - free[:, None, :], 0)  # [B, 11, 4]
        n_missing = missing.sum(axis=2)
        cost = (missing * buy_price[:, None, :]).sum(axis=2)  # a lower bound: prices rise
        pairs = hand >= 2
        openable = (pairs & (n_missing <= buys_left[:, None]) & (cost <= cash[:, None] - RESERVE)
                    & (gt > cost - LIQ * n_missing) & ~end[:, None])
        goal_value = np.where(openable, gt - cost, NEG)
        goal = goal_value.argmax(axis=1)
        has_goal = goal_value.max(axis=1) > NEG / 2
        needed = np.where(has_goal[:, None], missing[np.arange(B), goal], 0)  # [B, 4]

        v[:, K.A_END] = 0.0
        v[:, K.A_FOUND:K.A_FOUND + NCO] = np.where(end[:, None], -1.0, 10.0 + gt)
        v[:, K.A_BUY_RES:K.A_BUY_RES + NR] = np.where(needed > 0, 5.0, -1.0)
        # a share from the pool that makes a pair worth opening
        pool = np.rint(f["pool"] * 7)
        pair_up = (hand == 1) & (pool > 0) & (gt > W[None] - LIQ) & ~end[:, None]
        pair_up &= (cost + W[None]) <= cash[:, None] - RESERVE
        v[:, K.A_BUY_SHARE:K.A_BUY_SHARE + NCO] = np.where(pair_up, 2.0, -1.0)

        # -- sales: what the liquidation values less, late; what cannot be used, any time ----
        keep_res = needed + (REQ[None] * pairs[:, :, None]).max(axis=1)
        surplus = free > keep_res
        v[:, K.A_SELL_RES:K.A_SELL_RES + NR] = np.where(
            end[:, None], sell_price - LIQ, np.where(surplus & (sell_price >= LIQ + 2),
                                                     sell_price - LIQ - 1.5, -1.0))
        over = hand_size + 0 > C.HAND_LIMIT  # hand-limit: sell rather than lose at random
        useless = np.where(hand >= 2, 0.0, 3.0 + (W[None] - G[None]) * 0.1)
        v[:, K.A_SELL_SHARE:K.A_SELL_SHARE + NCO] = np.where(
            end[:, None], W[None] - LIQ, np.where(over[:, None], useless, -1.0))
        fresh_keep = np.where((hand - fresh < 2) & openable, 2 - (hand - fresh), 0)
        sell_fresh = W[None] + bonus[:, None] - LIQ + 1.0
        v[:, K.A_SELL_FRESH:K.A_SELL_FRESH + NCO] = np.where(
            (fresh > fresh_keep) | end[:, None], sell_fresh, -1.0)
        my_co, my_sh = br_co[:, 0], br_sh[:, 0]
        idx = np.maximum(my_co, 0)
        branch_sale = my_sh * (W[idx] + bonus[:, None] - LIQ) - G[idx] * T[:, None]
        v[:, K.A_SELL_BRANCH:K.A_SELL_BRANCH + NS] = np.where(end[:, None] & (branch_sale > 0),
                                                                branch_sale, -5.0)
        v[:, K.A_ADD:K.A_ADD + NS] = -1.0
        v[:, K.A_WITHDRAW:K.A_WITHDRAW + NS] = -2.0
        v[:, K.A_CLOSE:K.A_CLOSE + NS] = -5.0

        # -- takeovers: rival branches whose owner cannot counter much -------------------------
        opp_cash = f["player.cash"][:, :, 0] * 400  # [B, N]
        liquid = (hand * W[None]).sum(axis=1)
        for k in range(1, N):
            co, n_def = br_co[:, k], br_sh[:, k]  # [B, 8]
            c = np.maximum(co, 0)
            mine = hand[np.arange(B)[:, None], c]
            n_att = np.where(mine > 0, mine, 1.0)
            y_cash = np.where(shark, 10.0, opp_cash[:, k])[:, None]
            price = np.maximum(W[c], np.floor(y_cash / n_att) + 1)
            gain = ((W[c] + bonus[:, None]) * (n_def + n_att) - price * n_def - W[c] * n_att
                    + 0.5 * G[c] * T[:, None])
            ok = (co >= 0) & (price * n_def <= cash[:, None]) & ~end[:, None]
            ids = K.A_TAKEOVER + NS * (k - 1) + np.arange(NS)
            v[:, ids] = np.where(ok & (gain > 1), 4.0 + gain, -3.0)
        # premium: the richest charge in shares in play and unassigned resources
        count = (np.rint(f["player.shares_in_play"][:, :, 0] * 20)
                 + np.rint(f["player.unassigned"] * 14).sum(axis=2))
        charge = np.where(shark[:, None], count * bonus[:, None] * 0.6,
                          np.minimum(opp_cash, count * bonus[:, None]))
        charge[:, 0] = NEG
        v[:, K.A_PREMIUM:K.A_PREMIUM + N - 1] = np.where(charge[:, 1:] >= 3, charge[:, 1:], -1.0)
        v[:, K.A_PREMIUM_FINISH] = 0.0

        # -- sub-decisions ---------------------------------------------------------------------
        dec = f["decision"].argmax(axis=1)
        tco = f["takeover_company"].argmax(axis=1)
        tw, tg = W[tco], G[tco]
        t_def = np.rint(f["takeover_n_def"][:, 0] * 7)
        t_sh = np.rint(f["takeover_shares"][:, 0] * 7)
        t_cc = np.rint(f["takeover_cash_cards"][:, 0] * 12)
        t_att = np.maximum(t_sh + t_cc, 1)
        v[:, K.A_COMMIT_SHARE] = 2.0
        v[:, K.A_COMMIT_CASH] = np.where((t_sh + t_cc == 0) & (hand[np.arange(B), tco] == 0),
                                         1.0, -1.0)
        v[:, K.A_COMMIT_DONE] = 0.5
        pa = np.rint(f["attacker_offer"][:, 0] * 60)
        pd = np.rint(f["defender_offer"][:, 0] * 60)
        defending = f["defender_bids"][:, 0] > 0.5
        # attacker: one unit more while the branch is still worth the price
        a_next = np.where(pa > 0, pa + 1, tw)
        a_raise = ((a_next * t_def <= cash + 0.5 * liquid)
                   & (a_next * t_def < (tw + bonus) * (t_def + t_att) + tg * T))
        # defender: one unit more while keeping the branch beats the attacker's offer
        d_next = np.where(pd > 0, pd + 1, tw)
        d_raise = tg * T + (tw + bonus) * (t_def + t_att) - d_next * t_att > pa * t_def
        want = np.where(defending, d_raise, a_raise)
        v[:, K.A_TENS] = np.where(want, 1.0, -1.0)
        v[:, K.A_TENS + 1:K.A_TENS + K.R.BID_TENS] = -2.0
        v[:, K.A_DROP] = 0.0
        v[:, K.A_ONES:K.A_ONES + 10] = -np.arange(10, dtype=np.float32)[None]  # the least raise
        v[:, K.A_PLACE_COMPANY] = 1.0
        v[:, K.A_PLACE_HAND] = 0.0
        # realising assets: the best resource sales, then fresh shares, hand shares, branches
        raising = dec == K.RAISE_FUNDS
        v[raising, K.A_SELL_RES:K.A_SELL_RES + NR] = 100 + sell_price[raising]
        v[raising, K.A_SELL_FRESH:K.A_SELL_FRESH + NCO] = 60 + W[None]
        v[raising, K.A_SELL_SHARE:K.A_SELL_SHARE + NCO] = 40 + W[None] - G[None]
        v[raising, K.A_SELL_BRANCH:K.A_SELL_BRANCH + NS] = 10 - G[idx[raising]]

        v = np.where(mask, v, NEG)
        v += self.rng.random(v.shape, dtype=np.float32) * 1e-3  # break exact ties at random
        return v.argmax(axis=1)
