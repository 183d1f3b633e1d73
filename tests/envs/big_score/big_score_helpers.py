"""Scenario helpers: put a Big Score game at a given point of the rules, script chance.

Kinds: CM 0, CM* 1, DR 2, DR* 3, GR 4, GR* 5, GU 6, GU* 7, HA 8, HA* 9, MU 10, MU* 11.
Tokens: $20K 0, $30K 1, $50K 2, $100K 3, Silver 4, Gold 5, Key 6, Artifact 7, Diamond 8, Cops 9.
Actions: ASSIGN_JOB(pos) = 11 + pos, Training 18, Unassigned 19, JOAT(n) = 20 + n, Rob 23,
Flee 24, TRADE_PASS 29, TRADE_TAKE(v) = 30 + v.
"""

from __future__ import annotations

import numpy as np
from heistbench.envs.big_score import kernel as K
from heistbench.envs.big_score_v1 import Game

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


def open_window(s, b: int, phase: int, seats, start: int) -> None:
    """Open a window of game b in a crafted state as the rules do: the seats `seats` (bools
    per seat) act clockwise from `start`."""
    n = s.num_players
    q = [(start + j) % n for j in range(n) if seats[(start + j) % n]]
    s.queue[b] = q + [-1] * (n - len(q))
    s.qlen[b], s.qpos[b], s.phase[b] = len(q), 0, phase
    s.committed[b] = False


class Table:
    """One game (batch of one) with helpers to inject a position and play scripted moves."""

    def __init__(self, n: int, **options):
        options.setdefault("auto_forced", False)
        self.game = Game(num_players=n, **options)
        self.n = n
        self.last: K.BigScoreState | None = None
        self.joat_start = np.full(n, self.game.joat_per_player)

    def script(self, s, draws: list[int]) -> None:
        """Token types the next bag draws take (Floor first, then robbers, Drivers): stacked
        on top of the bag."""
        for v in draws:
            assert s.bag[0, v] > 0, f"scripted token {v} is not in the bag"
        s.stacked[0] = 0
        s.stacked[0, :len(draws)] = draws
        s.stacked_len[0], s.stacked_pos[0] = len(draws), 0

    @property
    def at_cleanup(self) -> K.BigScoreState:
        """The last position played, as it was when its round was cleaned up: the round's
        jobs, piles, JoAT tokens and outcomes from the rules' record of the last round."""
        st = self.last.copy()
        st.jobs, st.job_status, st.pile = st.last_jobs, st.last_status, st.last_pile
        st.contrib, st.joat_rev, st.inside = st.last_contrib, st.last_joat_rev, st.last_inside
        st.joat = self.joat_start - st.last_joat_rev.sum(axis=2)
        st.stage = st.stage - 1 if st.stage[0] <= K.ROUND3 else K.ROUND3
        return st

    def act1(self, jobs, hands, round: int = 1, cash=None, joat=None, payout=None,
             train_public=None, returned=None, crew_top=None) -> K.BigScoreState:
        """The start of Phase 2 (Assign Crew) of `round` with the given jobs and hands."""
        g, n = self.game, self.n
        s = g.init(np.array([0]))
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
            self.joat_start = np.array(joat)
        if payout is not None:
            s.payout[0] = payout
        if train_public:
            for seat, (t, c) in train_public.items():
                s.train_public[0, seat] = (t, c)
        if crew_top:
            s.crew_deck[0, s.crew_ptr[0]:s.crew_ptr[0] + len(crew_top)] = crew_top
        s.boss_choice[0] = 1
        s.act1_score[0] = g.scores(s)[0]
        open_window(s, 0, K.ASSIGN, s.ahand[0].sum(axis=1) > 0, 0)
        g.refresh_masks(s)
        self.last = s
        return s

    def act2(self, payout=None, cash=None, ability=None, fp=None, floor=None,
             draws=()) -> K.BigScoreState:
        """The start of Act II; `ability` {seat: crew type}; `floor` the 5 Floor tokens."""
        g = self.game
        s = g.init(np.array([0]))
        s.stage[0] = K.ROUND3
        s.hands[0] = s.picks[0] = s.ahand[0] = 0
        s.boss_choice[0] = 1
        if payout is not None:
            s.payout[0] = payout
        s.cash[0] = 20 if cash is None else cash
        for seat, t in (ability or {}).items():
            s.train_public[0, seat] = (t, 3)
        self.script(s, list(floor or []) + list(draws))
        s.phase[0] = K.ACT2_SETUP
        g.resume(s)
        if fp is not None:
            s.first_player[0] = fp
            open_window(s, 0, K.ROB_FLEE, s.status[0] == K.IN_VAULT, fp)
        g.refresh_masks(s)
        self.last = s
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
        self.last = s
        return s

    def assign_all(self, s, plan: dict[int, list[int]]) -> K.BigScoreState:
        """Seats assign their cards in seat order; plan[seat] lists actions in card order."""
        for seat in sorted(plan):
            for a in plan[seat]:
                self.play(s, (seat, a))
        return s

    def obs(self, s, seat: int) -> dict[str, np.ndarray]:
        return {k: v[0] for k, v in self.game.obs_fields(self.game.observe(s, seat)).items()}
