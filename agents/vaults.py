"""A rule-based Vaults bot (`vaults-rule-v1`) that reads only the observation.

Plan at each of its decisions (vectorized over the batch): crack when a crew meets a target
with positive expected loot (public piles valued from the unrevealed fronts of their group,
opponents' tops known exactly), else draw while the hand is small, else strengthen the best
crew, else end the turn. Out of turn it locks down opponents' cracks when it can. Made for
env version vaults_v1.
"""

from __future__ import annotations

import numpy as np

from ..envs.vaults import components as C
from .base import ObservationBot

ENV_VERSION = "vaults_v1"
# boss preference (higher is better): 2 > 11 > 3 > 4 > 1 > 10 > 0 > 5 > 9 > 8 > 6 > 7
BOSS_ORDER = (2, 11, 3, 4, 1, 10, 0, 5, 9, 8, 6, 7)
BOSS_RANK = np.zeros(C.N_BOSS)
BOSS_RANK[list(BOSS_ORDER)] = np.arange(C.N_BOSS, 0, -1)
# what a Fail front costs, in £ (jailed members 25, tools 15, whole crew 120, lost actions 10)
FAIL_COST = np.array([0, 15, 10, 35, 25, 40, 50, 50, 120], np.float64)
CARD_VALUE = np.concatenate([np.full(C.N_BOSS, 0.5), C.SKILLS[C.N_BOSS:].sum(1),
                             np.full(C.N_DISRUPT, 10.0)])  # for discards and sacrifices
CREW_SKILL = C.SKILLS.sum(1).astype(np.float64)  # a card's skill sum
TOOL_SKILLS = C.SKILLS[C.TOOL0:].astype(np.float64)


class VaultsHeuristic(ObservationBot):
    """Heuristic Vaults player (observation only, batched)."""

    def __init__(self, game, seed: int | None = 0):
        super().__init__(game, seed)
        self.N, self.K = game.num_players, game.K
        al = game.action_layout
        self.A = {r.name: al.start[r.name] for r in al.ranges}

    # -- what the observation says --------------------------------------------------------
    def _targets(self, f: dict, B: int) -> tuple[np.ndarray, np.ndarray]:
        """Combination [B,6,3] and expected loot [B,6] of the six crack targets (nan = none)."""
        N = self.N
        combo = np.full((B, 6, 3), 99.0)
        ev = np.full((B, 6), -np.inf)
        revealed = f["revealed"] > 0.5  # [B,27]
        unrev = ~revealed
        succ_val = C.VAULT_VALUE * C.VAULT_SUCCESS
        g_u = unrev.reshape(B, 9, 3).sum(-1)
        g_val = (unrev * succ_val).reshape(B, 9, 3).sum(-1)
        g_fail = (unrev * ~C.VAULT_SUCCESS).reshape(B, 9, 3).sum(-1)
        g_ev = (g_val - g_fail * FAIL_COST) / np.maximum(g_u, 1)
        piles = f["public_piles"].reshape(B, 3, 11)
        peeks = f["my_peeks"].reshape(B, 3, 28)
        for i in range(3):
            grp = piles[:, i, 1:].argmax(1)
            some = grp < 9
            gi = np.minimum(grp, 8)
            combo[some, i] = C.GROUP_COMBO[gi[some]]
            e = g_ev[np.arange(B), gi]
            pk = peeks[:, i, :27].argmax(1)
            known = peeks[:, i, :27].max(1) > 0.5
            exact = np.where(C.VAULT_SUCCESS[pk], C.VAULT_VALUE[pk], -FAIL_COST[C.VAULT_GROUP[pk]])
            ev[some, i] = np.where(known, exact, e)[some]
        tops = f["player.top_vault"]  # [B,N,28]
        depth = np.round(f["player.vault_pile"] * 27)  # [B,N,27] place from the top, 0 absent
        for off in range(1, N):
            t = tops[:, off].argmax(1)
            some = t < 27
            tv = np.minimum(t, 26)
            combo[some, 2 + off] = C.VAULT_COMBO[tv[some]]
            gain = C.VAULT_VALUE[tv] * (1 + 1 / (N - 1))
            # a Fail top may be worth cracking to uncover a Success vault below it
            below = depth[:, off] == 2
            nxt = np.where(below.any(1), below.argmax(1), 0)
            uncover = 0.5 * np.where(below.any(1) & C.VAULT_SUCCESS[nxt], C.VAULT_VALUE[nxt], 0)
            ev[some, 2 + off] = np.where(C.VAULT_SUCCESS[tv], gain,
                                         uncover - FAIL_COST[C.VAULT_GROUP[tv]])[some]
        return combo, ev

    def _crews(self, f: dict, seat: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """exists [B,K], skills with every tool overloaded [B,K,3], card counts [B,K,44]."""
        blocks = np.stack([f[f"player.crew{k}"][:, seat] for k in range(self.K)], 1)
        exists = blocks[..., 0] > 0.5
        cards = np.concatenate([blocks[..., 1:13], blocks[..., 13:45] * 2], -1)
        tools = cards[..., C.TOOL0:] @ TOOL_SKILLS
        skills = blocks[..., 45:48] * 30 + tools
        return exists, np.round(skills), np.round(cards)

    # -- acting ---------------------------------------------------------------------------
    def decide(self, f: dict[str, np.ndarray], mask: np.ndarray) -> np.ndarray:
        B = mask.shape[0]
        A = self.A
        dec = f["decision"].argmax(1)
        score = self.rng.random(mask.shape) * 0.01  # ties broken at random
        rows = np.arange(B)
        hand = np.round(f["my_hand"] * 2)  # [B,54]
        exists, skills, cards = self._crews(f, 0)
        combo, ev = self._targets(f, B)
        reach = (skills[:, :, None, :] >= combo[:, None, :, :]).all(-1)  # [B,K,6]
        crew_ev = np.where(reach, ev[:, None, :], -np.inf).max(-1)  # [B,K]
        crew_sum = np.where(exists, skills.sum(-1), -1)
        D = C.D

        def rows_of(name: str) -> np.ndarray:
            return rows[dec == D[name]]

        # boss choice: option 0 = lower id, 1 = higher id
        r = rows_of("BOSS_CHOICE")
        if r.size:
            offer = f["my_boss_offer"][r]
            ids = np.sort(np.argsort(-offer, 1)[:, :2], 1)
            score[r, A["option"]] = BOSS_RANK[ids[:, 0]]
            score[r, A["option"] + 1] = BOSS_RANK[ids[:, 1]]
        # main
        r = rows_of("MAIN")
        if r.size:
            s = score[r]
            s[:, A["end_turn"]] += 1
            crack = crew_ev[r] > 0
            s[:, A["crack"]:A["crack"] + self.K] += np.where(crack, 100 + crew_ev[r] / 10, -50)
            hs = hand[r].sum(1)
            s[:, A["draw_deck"]] += np.where(hs < 4, 50, -50)
            s[:, A["draw_police_char"]:A["draw_police_tool"] + 1] += np.where(hs < 4, 45, -50)[:,
                                                                                             None]
            play = CREW_SKILL[None, :] + 20
            play = np.where(C.IS_BOSS[None, :], 25 + BOSS_RANK[None, np.minimum(
                np.arange(C.N_CREW_TYPES), 11)], play)
            s[:, :C.N_CREW_TYPES] += play
            s[:, C.DISRUPT0:54] -= 50
            s[:, A["move"]:A["move"] + self.K] -= 50
            score[r] = s
        # play destination: the strongest crew with room; bosses to a crew without one
        r = rows_of("PLAY_DEST")
        if r.size:
            s = score[r]
            s[:, A["crew"]:A["crew"] + self.K] += 10 + crew_sum[r]
            s[:, A["new_crew"]] += 5
            s[:, A["boss_to_police"]] += 1
            score[r] = s
        # crack target: the best expected loot among the legal ones
        r = rows_of("CRACK_TARGET")
        if r.size:
            score[r, A["pile"]:A["pile"] + 6] += np.where(np.isfinite(ev[r]), ev[r], -1e3)
        # overload only when needed; keys only when needed
        for name in ("OVERLOAD", "USE_KEY"):
            r = rows_of(name)
            if r.size:
                score[r, A["pass"]] += 100
        # responses: lock down an opponent's crack (Lockdown is effect A of Alarm/Police Raid)
        r = rows_of("RESPONSE")
        if r.size:
            s = score[r]
            s[:, A["pass"]] += 10
            opp_crack = f["active_player"][r, 0] < 0.5
            s[:, 46] += np.where(opp_crack, 20, -20)
            s[:, 47] += np.where(opp_crack, 20, -20)
            score[r] = s
        r = rows_of("DISRUPT_EFFECT")
        if r.size:
            score[r, A["option"]] += 1
        # targets: hurt opponents (never oneself by choice), help oneself with Reinforce
        r = rows_of("TARGET_PLAYER")
        if r.size:
            reinforce = f["effect"][r, C.E["D_REINFORCE"]] > 0.5
            s = score[r]
            s[:, A["player"]] += np.where(reinforce, 10, -10)
            score[r] = s
        r = rows_of("TARGET_CREW")
        if r.size:
            off = f["target_player"][r].argmax(1)
            sums = np.stack([f[f"player.crew{k}"][r, off, 45:48].sum(-1)
                             for k in range(self.K)], 1)
            score[r, A["crew"]:A["crew"] + self.K] += sums
        for name in ("TARGET_CARD", "FAIL_CARD", "DISCARD"):
            r = rows_of(name)
            if r.size:
                mine = f["target_player"][r, 0] > 0.5
                sign = np.where((dec[r] == D["TARGET_CARD"]) & ~mine, 1.0, -1.0)
                score[r, :54] += sign[:, None] * CARD_VALUE[None, :]
        r = rows_of("COPY_BOSS")
        if r.size:
            score[r, :C.N_BOSS] += BOSS_RANK[None, :]
        r = rows_of("DEST_CREW")
        if r.size:
            score[r, A["crew"]:A["crew"] + self.K] += crew_sum[r]
        score = np.where(mask, score, -np.inf)
        return score.argmax(1)


__all__ = ["VaultsHeuristic"]
