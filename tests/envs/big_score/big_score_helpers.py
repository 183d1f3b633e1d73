"""Scenario helpers: put a Big Score game at a given point of the rules, script chance.

Kinds: CM 0, CM* 1, DR 2, DR* 3, GR 4, GR* 5, GU 6, GU* 7, HA 8, HA* 9, MU 10, MU* 11.
Tokens: $20K 0, $30K 1, $50K 2, $100K 3, Silver 4, Gold 5, Key 6, Artifact 7, Diamond 8, Cops 9.
Actions: ASSIGN_JOB(pos) = 11 + pos, Training 18, Unassigned 19, JOAT(n) = 20 + n, Rob 23,
Flee 24, TRADE_PASS 29, TRADE_TAKE(v) = 30 + v.
"""

from __future__ import annotations

import numpy as np
from heistbench.envs.big_score import kernel as K
from heistbench.envs.big_score_v0 import Game

CM, CMx, DR, DRx, GR, GRx, GU, GUx, HA, HAx, MU, MUx = range(12)
T20, T30, T50, T100, SILVER, GOLD, KEY, ART, DIA, COPS = range(10)
ROB, FLEE, PASS = 23, 24, 29
TRAIN, TRASH = 18, 19


def job(pos: int) -> int:
    """ASSIGN_JOB action for job position 1..6."""
    return 11 + pos


def take(v: int) -> int:
    return 30 + v


def counts(cards: list[int] | dict[int, int], size: int = 12) -> np.ndarray:
    out = np.zeros(size, np.int8)
    items = cards.items() if isinstance(cards, dict) else ((c, 1) for c in cards)
    for c, k in items:
        out[c] += k
    return out


class Table:
    """One game (batch of one) with helpers to inject a position and play scripted moves."""

    def __init__(self, n: int, **options):
        options.setdefault("auto_forced", False)
        self.game = Game(num_players=n, **options)
        self.n = n
        self._draws: list[int] = []
        original = self.game._draw

        def scripted(s, idx, loot_only=False):
            if self._draws and idx.size:
                assert idx.size == 1
                v = self._draws.pop(0)
                assert s.bag[idx[0], v] > 0, f"scripted token {v} is not in the bag"
                return np.array([v])
            return original(s, idx, loot_only)

        self.game._draw = scripted
        self.at_cleanup: K.BigScoreState | None = None
        cleanup = self.game._cleanup

        def spy(st, idx):
            if idx.size:
                self.at_cleanup = st[idx]  # the round's final position, before it is cleared
            cleanup(st, idx)

        self.game._cleanup = spy

    def script(self, draws: list[int]) -> None:
        """Token types returned by the next bag draws (Floor first, then robbers, Drivers)."""
        self._draws = list(draws)

    def act1(self, jobs, hands, round: int = 1, cash=None, joat=None, payout=None,
             train_public=None, returned=None, crew_top=None) -> K.BigScoreState:
        """The start of Phase 2 (Assign Crew) of `round` with the given jobs and hands."""
        g, n = self.game, self.n
        s = g.init(np.array([0]))
        idx = np.array([0])
        s.stage[0] = round
        s.jobs[0] = jobs
        s.job_status[0] = K.OPEN
        s.jobs_seen[0, jobs] = True
        s.hands[0] = 0
        s.picks[0] = 0
        for seat in range(n):
            s.ahand[0, seat] = counts(hands.get(seat, []))
            if returned and seat in returned:
                s.returned[0, seat] = counts(returned[seat])
        if cash is not None:
            s.cash[0] = cash
        if joat is not None:
            s.joat[0] = joat
        if payout is not None:
            s.payout[0] = payout
        if train_public:
            for seat, (t, c) in train_public.items():
                s.train_public[0, seat] = (t, c)
        if crew_top:
            s.crew_deck[0, s.crew_ptr[0]:s.crew_ptr[0] + len(crew_top)] = crew_top
        s.boss_choice[0] = 1
        g._score_act1(s, idx)
        g._open_window(s, idx, K.ASSIGN, s.ahand[idx].sum(axis=2) > 0, np.zeros(1, int))
        g._refresh(s, idx)
        return s

    def act2(self, payout=None, cash=None, ability=None, fp=None, floor=None,
             draws=()) -> K.BigScoreState:
        """The start of Act II; `ability` {seat: crew type}; `floor` the 5 Floor tokens."""
        g = self.game
        s = g.init(np.array([0]))
        idx = np.array([0])
        s.stage[0] = K.ROUND3
        s.hands[0] = s.picks[0] = s.ahand[0] = 0
        s.boss_choice[0] = 1
        if payout is not None:
            s.payout[0] = payout
        s.cash[0] = 20 if cash is None else cash
        for seat, t in (ability or {}).items():
            s.train_public[0, seat] = (t, 3)
        self.script(list(floor or []) + list(draws))
        g._act2_setup(s, idx)
        if fp is not None:
            s.first_player[0] = fp
            g._open_window(s, idx, K.ROB_FLEE, s.status[idx] == K.IN_VAULT, np.array([fp]))
        g._refresh(s, idx)
        return s

    def legal(self, s) -> set[int]:
        return set(np.flatnonzero(s.legal_action_mask[0]).tolist())

    def play(self, s, *moves: tuple[int, int]) -> K.BigScoreState:
        """Apply (seat, action) moves in order, checking who is to act."""
        for seat, action in moves:
            assert s.current_player[0] == seat, (
                f"expected player {seat} to act, got {s.current_player[0]} "
                f"(decision {K.DECISION_NAMES[s.phase[0]]})")
            self.game.step(s, np.array([action]))
        return s

    def assign_all(self, s, plan: dict[int, list[int]]) -> K.BigScoreState:
        """Seats assign their cards in seat order; plan[seat] lists actions in card order."""
        for seat in sorted(plan):
            for a in plan[seat]:
                self.play(s, (seat, a))
        return s

    def obs(self, s, seat: int) -> dict[str, np.ndarray]:
        return {k: v[0] for k, v in self.game.obs_fields(self.game.observe(s, seat)).items()}
