"""A heuristic Grifters bot: values every legal action in ISK and takes the best.

It reads only the observation (decoded by name with `game.obs_fields`), vectorized over the
batch. The value model follows the spec's `grifters-rule-v1` in a simplified form: money taken
counts once, money stolen counts a little more (it also hurts a rival), a card drawn is worth
more early than late, a Job adds its marginal set bonus and pays for the cards it locks away,
and taking the Coffers' last ISK is great when it wins the game and terrible when it loses it.
One addition to the spec: a leader hurries the end by valuing Coffers money more (the game's
README, "Bot and throughput").
"""

from __future__ import annotations

import numpy as np
from heistbench.envs.grifters import components as C
from heistbench.envs.grifters import kernel as K

from .base import ObservationBot

NEG = -1e9
LOCK = 0.4  # cost of each card a Job locks away for three turns
# rough value of a card's own action when no better estimate applies
BASE_VALUE = np.zeros(C.NUM_TYPES, np.float32)
BASE_VALUE[[C.FALL_GUY, C.SNITCH_T, C.FENCE_T, C.FIXER, C.WHEELMAN, C.THUG_T]] = (
    1.0, 0.2, 0.3, 0.3, 0.3, 0.8)
BASE_VALUE[[C.FEMME_FATALE, C.MIDDLE_MAN, C.INSIDE_MAN]] = (1.2, 1.0, 1.5)
COFFERS_TAKE = np.zeros(C.NUM_TYPES, np.float32)  # ISK a card takes from the Coffers
COFFERS_TAKE[[C.THIEF, C.CON_MAN, C.SAFECRACKER, C.HACKER]] = (2, 1, 3, 1)


class GriftersHeuristic(ObservationBot):
    """Greedy one-step valuation of every legal action, from the observation alone."""

    def decide(self, f: dict[str, np.ndarray], mask: np.ndarray) -> np.ndarray:
        B, N = mask.shape[0], self.n
        stash = f["player.stash"][:, :N, 0] * 75
        score = f["player.score"][:, :N, 0] * 100
        coffers = f["coffers"][:, 0] * 75
        hand = np.rint(f["my_hand"] * 3)
        draw = np.where(coffers >= 15, 1.5, 0.5)
        rival = score[:, 1:].max(axis=1)

        def steal(n: float | np.ndarray) -> np.ndarray:
            return np.minimum(n, stash[:, 1:].max(axis=1)) * (1 + 1 / (N - 1))

        # A leader wants the game over: every ISK taken from the Coffers brings the end
        # nearer by 1/coffers of what is left, and with it the lead is banked. Without this,
        # two such bots at 2 players pass the money back and forth by steals (worth twice
        # their ISK there) and the Coffers never run out.
        haste = np.maximum(score[:, 0] - rival, 0) / np.maximum(coffers, 1)

        def take(n: np.ndarray) -> np.ndarray:
            """Coffers money, with the end of the game in view when it runs out."""
            x = np.minimum(n, coffers)
            ends = n >= coffers
            wins = score[:, 0] + x > rival
            return np.where(ends, np.where(wins, 50.0, -50.0), x * (1 + haste))

        v = np.tile(BASE_VALUE, (B, 1))  # caper value of each card type [B, 19]
        for t in (C.THIEF, C.SAFECRACKER):
            v[:, t] = take(np.full(B, COFFERS_TAKE[t]))
        v[:, C.CON_MAN] = take(np.ones(B)) + steal(1)
        v[:, C.HACKER] = take(np.ones(B)) + draw
        v[:, C.PICKPOCKET] = steal(2)
        v[:, C.ENFORCER] = steal(3)
        v[:, C.BLACKMAILER] = steal(2.5)
        v[:, C.MASTERMIND] = 1.2 * draw
        v[:, C.RECRUITER] = 2 * draw
        v[:, C.KIDNAPPER] = 0.8 * draw + 0.5
        best_other = np.where(hand > 0, v, 0).max(axis=1)
        v[:, C.FEMME_FATALE] = 0.3 + 0.7 * best_other
        copyable = np.where((hand > 0) & ~C.COPIER, v, 0).max(axis=1)
        v[:, C.FALL_GUY] = copyable
        refresh = f["player.refresh"][:, 0] * 3 > 0.5
        v[:, C.MIDDLE_MAN] = np.where(refresh & ~C.COPIER, v, 0).max(axis=1) - 0.5

        scores = np.zeros(mask.shape, np.float32)
        dec = f["decision"].argmax(axis=1)
        cards = slice(K.A_CARD, K.A_CARD + C.NUM_TYPES)
        # MAIN, FF_EXTRA, FALLGUY_PICK, MM_KEEP, MIDDLEMAN_PICK, IM_CARD: the best card
        scores[:, cards] = v
        scores[:, K.A_PASS] = 1.0
        # MAIN: Complete a Job on a stack
        scores[:, K.A_STACK:K.A_STACK + C.NUM_STACKS] = self._job_values(f, take, steal, draw)
        # TEAM_PICK and THUG_PARTNER: give up the least useful card
        low = (dec == K.TEAM_PICK) | (dec == K.THUG_PARTNER)
        scores[low, cards] = -v[low]
        # a target: the leading opponent (steals, Snitch), the fullest hand (Kidnapper)
        rel = np.arange(N)
        lead = score + 0.01 * rel[None]
        lead[:, 0] = -1.0 if N > 1 else 0.0
        scores[:, K.A_PLAYER:K.A_PLAYER + N] = lead
        scores[:, K.A_NIGHT:K.A_NIGHT + 3] = (3 - np.arange(3))[None]  # Night One waits longest
        scores[:, K.A_PAIR + 1] = 1.0  # Snitch: swap Nights One and Three of the leader
        scores[:, K.A_SKILL:K.A_SKILL + 3] = self._thug_skill_counts(f)
        scores[:, K.A_JOB:K.A_JOB + C.NUM_JOBS] = self._fence_values(f, dec)
        scores = np.where(mask, scores, NEG)
        scores += self.rng.random(scores.shape) * 1e-3  # break exact ties at random
        return scores.argmax(axis=1)

    def _job_values(self, f: dict, take, steal, draw) -> np.ndarray:
        """[B, 5]: reward + marginal set bonus - cards locked, for each stack's top Job."""
        B = f["coffers"].shape[0]
        top = f["job_status"].reshape(B, C.NUM_JOBS, 4)[:, :, 2] > 0.5
        stash = f["player.stash"][:, :, 0] * 75
        mine = np.rint(f["player.jobs_by_colour"][:, 0] * 4).astype(np.int64)  # [B, 5]
        out = np.zeros((B, C.NUM_STACKS), np.float32)
        for j in range(C.NUM_JOBS):
            s = C.JOB_STACK[j]
            val = np.zeros(B, np.float32)
            for op, arg in zip(C.PROG_OP[C.JOB_PROG + j], C.PROG_ARG[C.JOB_PROG + j]):
                if op == C.COFFERS:
                    val += take(np.full(B, float(arg)))
                elif op == C.OPP:
                    val += steal(float(arg))
                elif op == C.EACH_OPP:
                    val += np.minimum(arg, stash[:, 1:]).sum(axis=1)
                elif op == C.DRAW:
                    val += arg * draw
            c = np.minimum(mine[:, s], 3)
            val += C.SET_BONUS[c + 1] - C.SET_BONUS[c] - LOCK * C.JOB_SIZE[j]
            out[:, s] = np.where(top[:, j], val, out[:, s])
        return out

    def _thug_skill_counts(self, f: dict) -> np.ndarray:
        """[B, 3]: opponents' lone Hideout cards of each skill (what a Thug would steal)."""
        B = f["coffers"].shape[0]
        total = np.zeros((B, 3), np.float32)
        for night in ("night1", "night2", "night3"):
            cards = np.rint(f[f"player.{night}"][:, 1:] * 3)  # [B, N-1, 19]
            single = cards.sum(axis=2, keepdims=True) == 1
            total += (np.where(single, cards, 0) @ C.SKILL_OH.astype(np.float32)).sum(axis=1)
        return total

    def _fence_values(self, f: dict, dec: np.ndarray) -> np.ndarray:
        """[B, 20]: Fence away a Job of my weakest colour, take one of my strongest."""
        mine = f["player.jobs_by_colour"][:, 0]  # [B, 5]
        per_job = mine[:, C.JOB_STACK]
        return np.where((dec == K.FENCE_OWN)[:, None], -per_job, per_job)
