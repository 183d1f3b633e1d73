"""The Big Score rules as a vectorized kernel, ordered like the rulebook.

Setup (boss options) -> Act I rounds (round setup, hire crew = draft, training pickup, assign
crew, resolve jobs with JoAT / Inside Man, cleanup) -> Act II (setup, rob or flee, the reveal
with Driver / Grease Man, Muscle, trades with Con Man / Gun Man) -> game end and scoring.

Every rule function takes the batch state and `idx`, the games that reached that point, and
forwards subsets of them to the next rule; decisions stop the chain until an agent acts.
Simultaneous secret choices (boss option, draft pick, JoAT fists, rob/flee) are windows: the
seats of a window act one after another, their choices stay hidden until it closes.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from heistbench.envs.big_score import components as C
from heistbench.envs.core import Game, Option, rng
from heistbench.envs.core.groups import groups
from heistbench.envs.core.state import BatchState
from numpy_layout import Encoder, build_action_layout, build_observation_layout

# Decision types (also the `meta.decision` one-hot of the observation).
NONE, BOSS_OPTION, DRAFT, ASSIGN, JOAT, ROB_FLEE, MUSCLE, TRADE, GUN_STEAL, GREASE_STEAL = range(10)
DECISION_NAMES = ("none", "boss_option", "draft", "assign", "joat", "rob_flee", "muscle",
                  "trade", "gun_steal", "grease_steal")
# Stages (the `meta.stage` one-hot).
SETUP, ROUND1, ROUND2, ROUND3, ACT2, OVER = range(6)
# Job status per position.
EMPTY, OPEN, SUCCESS, FAILED, UNATTEMPTED = range(5)
# Act II status per seat.
IN_VAULT, FLED, BUSTED = range(3)
# Assignment targets: job positions 0..5, then these.
TRAINING, UNASSIGNED = 6, 7

# Random streams (core.rng): each use of chance draws from its own stream.
S_CREW, S_JOBS, S_BOSS, S_BAG, S_MISC = range(5)

# Action ids (see layout.py for names).
A_DRAFT, A_ASSIGN, A_JOAT, A_ROB, A_FLEE = 0, 12, 20, 23, 24
A_BOSS_TOKEN, A_BOSS_CASH, A_MUSCLE_STEAL, A_MUSCLE_PASS = 25, 26, 27, 28
A_TRADE_PASS, A_TRADE, A_CONMAN, A_GUN_DECLINE, A_GUN, A_GREASE = 29, 30, 39, 120, 121, 130
NUM_ACTIONS = 139


@dataclasses.dataclass(eq=False)
class BigScoreState(BatchState):
    """One batch of The Big Score games; seat axes have size num_players."""

    phase: np.ndarray  # int8 [B]  pending decision type (NONE once over)
    stage: np.ndarray  # int8 [B]  SETUP, ROUND1..3, ACT2, OVER
    queue: np.ndarray  # int8 [B, N]  seats of the open window in acting order (-1 pad)
    qlen: np.ndarray  # int8 [B]
    qpos: np.ndarray  # int8 [B]  cursor into queue: the acting seat is queue[qpos]
    committed: np.ndarray  # bool [B, N]  has made its secret choice in the open window
    boss: np.ndarray  # int8 [B, N]  boss board of each seat
    boss_choice: np.ndarray  # int8 [B, N]  starting option: -1 none yet, 0 token, 1 cash
    cash: np.ndarray  # int32 [B, N]  cash tokens ($10K)
    payout: np.ndarray  # int16 [B, N, 3]  Act I Artifacts, Diamonds, Hard Drives
    act1_score: np.ndarray  # int32 [B, N]  worth of cash and payout alone (the score in Act I)
    crew_deck: np.ndarray  # int8 [B, 90]  kinds in draw order
    crew_ptr: np.ndarray  # int16 [B]  next card of the crew deck
    job_deck: np.ndarray  # int8 [B, 24]  job ids in draw order
    job_ptr: np.ndarray  # int8 [B]
    jobs: np.ndarray  # int8 [B, 6]  job id at each position (-1 none)
    job_status: np.ndarray  # int8 [B, 6]
    jobs_seen: np.ndarray  # bool [B, 24]  dealt face-up this game
    draft_step: np.ndarray  # int8 [B]  picks made this round
    hands: np.ndarray  # int8 [B, N, 12]  draft hand each seat holds now
    picks: np.ndarray  # int8 [B, N, 12]  cards drafted this round
    pick_pending: np.ndarray  # int8 [B, N]  secret pick of the open draft window
    ahand: np.ndarray  # int8 [B, N, 12]  cards still to assign
    returned: np.ndarray  # int8 [B, N, 12]  public training cards picked up this round
    assign: np.ndarray  # int8 [B, N, 8, 12]  assigned cards per target (jobs, training, trash)
    cur_kind: np.ndarray  # int8 [B]  card kind being assigned (ASSIGN), else -1
    train: np.ndarray  # int8 [B, N, 12]  training pile carried to the next round
    train_public: np.ndarray  # int8 [B, N, 2]  last revealed training pile: type (-1), count
    trash: np.ndarray  # int8 [B, N, 12]  own unassigned cards discarded face-down
    crew_revealed: np.ndarray  # int16 [B, 12]  crew cards revealed face-up (job piles, Inside Man)
    cur_job: np.ndarray  # int8 [B]  position being resolved
    missing: np.ndarray  # int8 [B]  icons still missing there (JoAT window)
    pile: np.ndarray  # int8 [B, 6, 6]  revealed pile per position per crew type
    contrib: np.ndarray  # int8 [B, N, 6]  cards each seat revealed per position
    joat_rev: np.ndarray  # int8 [B, N, 6]  JoAT tokens revealed per seat per position
    inside: np.ndarray  # int8 [B, 6]  Inside Man card type per position (-1 none)
    joat: np.ndarray  # int8 [B, N]  unused JoAT tokens
    joat_pending: np.ndarray  # int8 [B, N]  secret JoAT choice of the open window
    ability: np.ndarray  # int8 [B, N]  expert ability (crew type) or -1
    ability_used: np.ndarray  # bool [B, N]
    status: np.ndarray  # int8 [B, N]  IN_VAULT, FLED, BUSTED (Act II)
    bag: np.ndarray  # int16 [B, 10]  vault bag per token type
    bag_ptr: np.ndarray  # int32 [B]  draws made from the bag (RNG counter)
    misc_ptr: np.ndarray  # int32 [B]  other random choices (RNG counter)
    vault_floor: np.ndarray  # int8 [B, 9]
    vault_pile: np.ndarray  # int16 [B, N, 9]  Act II loot held (at risk until fled)
    drawn: np.ndarray  # int8 [B, N]  token revealed this Act II round (-1 none)
    banked: np.ndarray  # bool [B, N]  that token already joined the vault pile
    rob_pending: np.ndarray  # int8 [B, N]  secret choice: -1 none, 0 rob, 1 flee
    first_player: np.ndarray  # int8 [B]  First Player Marker (Act II)
    cops_track: np.ndarray  # int8 [B]  Cops tokens on the track
    busted_round: np.ndarray  # bool [B]  the cops arrived this round
    act2_round: np.ndarray  # int16 [B]


def _first_true(m: np.ndarray) -> np.ndarray:
    """Index of the first True along the last axis (0 where none)."""
    return m.argmax(axis=-1)


def _clockwise(start: np.ndarray, n: int) -> np.ndarray:
    """Seats clockwise from `start` [k] -> [k, n]."""
    return (start[:, None] + np.arange(n)[None, :]) % n


class BigScoreGame(Game):
    """The Big Score for 2–6 players (see the env module docstring for the user docs)."""

    name = "big_score_v0"
    title = "The Big Score"
    version = 0
    player_counts = (2, 3, 4, 5, 6)
    score_scale = 100.0
    GAME_OPTIONS = {
        "simple_variant": Option(False, "RB › Simple Variant: Expert stars ignored, no "
                                 "Training, no abilities", check=lambda v: isinstance(v, bool),
                                 allowed="a bool"),
        "expert_abilities": Option(True, "grant Expert Abilities at the end of Act I (False "
                                   "keeps Training as carry-over only)",
                                   check=lambda v: isinstance(v, bool), allowed="a bool"),
        "abilities": Option(C.ABILITY_NAMES, "abilities that can be gained (ablation)",
                            check=lambda v: set(v) <= set(C.ABILITY_NAMES)
                            and not isinstance(v, str),
                            allowed="a subset of " + ", ".join(C.ABILITY_NAMES)),
        "inside_man": Option(None, "2-player Inside Man rule (None = on exactly at 2 players; "
                             "True only allowed up to 3 players: more would exhaust the deck)",
                             choices=(None, True, False)),
        "joat_per_player": Option(None, "Jack of All Trades tokens per player (None = 2 at 2 "
                                  "players, else 1)", choices=(None, 1, 2)),
        "boss_option_mode": Option("choose", "starting option: chosen by each player (a "
                                   "secret choice), or fixed to token / cash, or random",
                                   ("choose", "token", "cash", "random")),
        "boss_options": Option(None, "starting options of the 6 boss boards: 6 pairs (token, "
                               "cash) with token 'artifact', 'diamond' or 'hard_drive' and cash "
                               "in $10K (None = the reconstructed table)",
                               check=lambda v: v is None or C.valid_boss_options(v),
                               allowed="None or 6 (token, cash) pairs"),
        "boss_assignment": Option("fixed", "seat i plays boss i ('fixed') or a random "
                                  "permutation", ("fixed", "random")),
        "job_table": Option("reconstructed_v1", "job cards: a table name or a CSV path",
                            check=lambda v: isinstance(v, str), allowed="a table name or path"),
        "cops_to_bust": Option(None, "Cops tokens that bust the vault (None = players + 1)",
                               choices=(None, *range(1, 11))),
        "fp_tiebreak": Option("youngest_last_seat", "Act II First Player Marker tie: seats are "
                              "in age order, the youngest (highest seat) gets it; or the lowest "
                              "seat; or random", ("youngest_last_seat", "lowest_seat", "random")),
    }

    # -- construction -------------------------------------------------------------------------
    def _setup(self) -> None:
        o = self.options
        n = self.num_players
        if o["inside_man"] is True and n > 3:
            raise ValueError(f"{self.name}: inside_man=True is only allowed for up to 3 players "
                             "(more Inside Man draws would exhaust the 90-card crew deck); "
                             f"got num_players={n}")
        self.jobs = C.load_job_table(o["job_table"])
        self.boss_token, self.boss_cash = C.boss_option_table(o["boss_options"])
        self.hand_size = C.HAND_SIZE[n]
        self.inside_man = (n == 2) if o["inside_man"] is None else o["inside_man"]
        self.joat_per_player = o["joat_per_player"] or (2 if n == 2 else 1)
        self.cops_to_bust = o["cops_to_bust"] or n + 1
        self.simple = o["simple_variant"]
        self.ability_on = np.array([(not self.simple) and o["expert_abilities"]
                                    and a in o["abilities"] for a in C.ABILITY_NAMES])
        self.observation_layout = build_observation_layout()
        self.action_layout = build_action_layout()
        # job tables indexed by job id, with a sentinel row for "no job" (-1)
        self.job_req = np.vstack([self.jobs.req, np.zeros((1, 6), int)]).astype(np.int16)
        # assignment targets by the kind of card: jobs showing an icon of its type [job, kind];
        # Training [kind, pile size 0..3, first kind in the pile] (one type, at most 3)
        self.job_takes = self.job_req[:, C.KIND_TYPE] > 0
        same_type = C.KIND_TYPE[:, None] == C.KIND_TYPE[None, :]
        self.trainable = ((C.KIND_EXPERT & (not self.simple))[:, None, None]
                          & (np.arange(4) < 3)[None, :, None]
                          & ((np.arange(4) == 0)[None, :, None] | same_type[:, None, :]))
        # window acting order for every (first seat, set of seats as bits): the seats of the
        # set clockwise from the first, -1 padded; and the size of each set
        self.seat_bits = 1 << np.arange(n)
        self.window_queue = np.full((n, 1 << n, n), -1, np.int8)
        for start in range(n):
            for bits in range(1 << n):
                q = [(start + j) % n for j in range(n) if bits >> ((start + j) % n) & 1]
                self.window_queue[start, bits, :len(q)] = q
        self.window_len = (self.window_queue[0] >= 0).sum(axis=1).astype(np.int8)
        # draft hands after a pass, by stage: seat i takes the hand of seat pass_from[i]
        self.pass_from = np.tile(np.arange(n), (ACT2, 1))
        for r, d in enumerate(C.PASS_DIR):
            self.pass_from[ROUND1 + r] = (np.arange(n) - d) % n
        self.job_cash = np.append(self.jobs.cash, 0).astype(np.int32)
        self.job_token = np.append(self.jobs.token, 3)
        self.job_value = (self.jobs.cash + np.where(self.jobs.token == C.HARD_DRIVE, 2, 3))

    def default_max_steps(self) -> int:
        return 5000

    # -- setup: RB › Setup ----------------------------------------------------------------------
    def _init(self, keys: np.ndarray) -> BigScoreState:
        B, n = len(keys), self.num_players
        z = lambda *shape, dt=np.int8: np.zeros((B, *shape), dt)  # noqa: E731
        order = rng.permutations(keys, S_CREW, C.CREW_DECK_SIZE)
        crew_type = order // 15
        expert = (order % 15 >= 8) & (not self.simple)
        boss = (np.broadcast_to(np.arange(n), (B, n)) if self.options["boss_assignment"] ==
                "fixed" else rng.permutations(keys, S_BOSS, 6)[:, :n])
        s = BigScoreState(
            current_player=z(), legal_action_mask=z(NUM_ACTIONS, dt=bool),
            terminated=z(dt=bool), truncated=z(dt=bool), rewards=z(n, dt=np.float32),
            steps=z(dt=np.int32), key=keys.copy(),
            phase=z(), stage=z(), queue=np.full((B, n), -1, np.int8), qlen=z(), qpos=z(),
            committed=z(n, dt=bool), boss=np.array(boss, np.int8),
            boss_choice=np.full((B, n), -1, np.int8),
            cash=np.full((B, n), C.START_CASH, np.int32), payout=z(n, 3, dt=np.int16),
            act1_score=np.full((B, n), C.START_CASH, np.int32),
            crew_deck=(2 * crew_type + expert).astype(np.int8), crew_ptr=z(dt=np.int16),
            job_deck=rng.permutations(keys, S_JOBS, 24).astype(np.int8), job_ptr=z(),
            jobs=np.full((B, 6), -1, np.int8), job_status=z(6), jobs_seen=z(24, dt=bool),
            draft_step=z(), hands=z(n, 12), picks=z(n, 12), pick_pending=np.full((B, n), -1,
                                                                                   np.int8),
            ahand=z(n, 12), returned=z(n, 12), assign=z(n, 8, 12),
            cur_kind=np.full(B, -1, np.int8), train=z(n, 12),
            train_public=np.tile(np.array([-1, 0], np.int8), (B, n, 1)), trash=z(n, 12),
            crew_revealed=z(12, dt=np.int16), cur_job=z(), missing=z(), pile=z(6, 6),
            contrib=z(n, 6), joat_rev=z(n, 6), inside=np.full((B, 6), -1, np.int8),
            joat=np.full((B, n), self.joat_per_player, np.int8), joat_pending=z(n),
            ability=np.full((B, n), -1, np.int8), ability_used=z(n, dt=bool), status=z(n),
            bag=np.tile(C.VAULT_COUNTS.astype(np.int16), (B, 1)), bag_ptr=z(dt=np.int32),
            misc_ptr=z(dt=np.int32), vault_floor=z(9), vault_pile=z(n, 9, dt=np.int16),
            drawn=np.full((B, n), -1, np.int8), banked=z(n, dt=bool),
            rob_pending=np.full((B, n), -1, np.int8),
            first_player=z(), cops_track=z(), busted_round=z(dt=bool), act2_round=z(dt=np.int16),
        )
        idx = np.arange(B)
        mode = self.options["boss_option_mode"]
        if mode == "choose":
            self._open_window(s, idx, BOSS_OPTION, np.ones((B, n), bool), np.zeros(B, int))
        else:
            if mode == "random":
                u = rng.uniform(s.key[:, None], S_MISC, np.arange(n)[None, :])
                s.misc_ptr[:] = n
                s.boss_choice[:] = (u < 0.5)
            else:
                s.boss_choice[:] = int(mode == "cash")
            self._take_boss_options(s, idx)
        self._refresh(s, idx)
        return s

    def _take_boss_options(self, s: BigScoreState, idx: np.ndarray) -> None:
        """RB › Setup 8: each player takes the token or the cash shown on his board."""
        choice = s.boss_choice[idx]
        token = self.boss_token[s.boss[idx]]
        n = self.num_players
        for p in range(n):
            took_token = choice[:, p] == 0
            s.payout[idx[took_token], p, token[took_token, p]] += 1
            s.cash[idx, p] += np.where(choice[:, p] == 1, self.boss_cash[s.boss[idx, p]], 0)
        self._score_act1(s, idx)
        self._round_setup(s, idx)

    # -- windows: simultaneous secret choices, serialized ---------------------------------------
    def _open_window(self, s: BigScoreState, idx: np.ndarray, phase: int, seats: np.ndarray,
                     start: np.ndarray) -> None:
        """Seats `seats` [k, N] act in clockwise order from `start` [k]."""
        if idx.size == 0:
            return
        bits = seats.dot(self.seat_bits)
        s.queue[idx] = self.window_queue[start, bits]
        s.qlen[idx] = self.window_len.take(bits)
        s.qpos[idx] = 0
        s.phase[idx] = phase
        s.committed[idx] = False

    def _actor(self, s: BigScoreState, idx: np.ndarray) -> np.ndarray:
        """The seat at the window's cursor (`_refresh` makes it the current player)."""
        return s.queue[idx, s.qpos[idx]]

    def _secret(self, s: BigScoreState, idx: np.ndarray, pending: np.ndarray,
                value: np.ndarray) -> np.ndarray:
        """Record the acting seat's secret choice (a closed fist over the table); returns the
        games whose window just closed, where the choices are now revealed together."""
        seat = s.current_player[idx]
        pending[idx, seat] = value
        s.committed[idx, seat] = True
        return idx[self._advance(s, idx)]

    def _advance(self, s: BigScoreState, idx: np.ndarray) -> np.ndarray:
        """Move the window cursor on; returns a bool [k]: the window is now closed."""
        s.qpos[idx] += 1
        return s.qpos[idx] >= s.qlen[idx]

    # -- the step: one handler per decision type ------------------------------------------------
    def _step(self, s: BigScoreState, idx: np.ndarray, actions: np.ndarray) -> None:
        for d, sel in groups(s.phase[idx]):
            self._handlers[d](self, s, idx[sel], actions[sel])
        self._refresh(s, idx)

    def _on_boss_option(self, s, idx, a):
        self._take_boss_options(s, self._secret(s, idx, s.boss_choice, a - A_BOSS_TOKEN))

    # -- Act I › Round Setup ------------------------------------------------------------------
    def _round_setup(self, s: BigScoreState, idx: np.ndarray) -> None:
        """Deal 6 jobs face-up and a hand to each player; reset the JoAT tokens."""
        if idx.size == 0:
            return
        n, h = self.num_players, self.hand_size
        s.stage[idx] += 1
        pos = s.job_ptr[idx, None] + np.arange(C.JOBS_PER_ROUND)
        dealt = np.take_along_axis(s.job_deck[idx], pos.astype(np.int64), axis=1)
        s.jobs[idx] = dealt
        s.jobs_seen[idx[:, None], dealt] = True
        s.job_ptr[idx] += C.JOBS_PER_ROUND
        s.job_status[idx] = OPEN
        s.pile[idx] = 0
        s.contrib[idx] = 0
        s.joat_rev[idx] = 0
        s.inside[idx] = -1
        cards = s.crew_ptr[idx, None] + np.arange(n * h)
        kinds = np.take_along_axis(s.crew_deck[idx], cards.astype(np.int64), axis=1)
        s.crew_ptr[idx] += n * h
        s.hands[idx] = (kinds.reshape(-1, n, h, 1) == np.arange(C.NUM_KINDS)).sum(axis=2)
        s.picks[idx] = 0
        s.joat[idx] = self.joat_per_player
        s.draft_step[idx] = 0
        self._open_draft(s, idx)

    # -- Act I › Phase 1 - Hire Crew ------------------------------------------------------------
    def _open_draft(self, s: BigScoreState, idx: np.ndarray) -> None:
        s.pick_pending[idx] = -1
        self._open_window(s, idx, DRAFT, np.ones((len(idx), self.num_players), bool),
                          np.zeros(len(idx), int))

    def _on_draft(self, s, idx, a):
        closed = self._secret(s, idx, s.pick_pending, a - A_DRAFT)
        if closed.size == 0:
            return
        # everyone has picked: reveal nothing, keep the picks, pass the rest of the hands
        at = closed[:, None], np.arange(self.num_players), s.pick_pending[closed]
        s.picks[at] += 1
        s.hands[at] -= 1
        s.hands[closed] = s.hands[closed[:, None], self.pass_from.take(s.stage[closed], axis=0)]
        s.draft_step[closed] += 1
        last = s.draft_step[closed] == self.hand_size - 1
        self._open_draft(s, closed[~last])
        # "When a last single card is passed, the player simply adds it to his other cards"
        done = closed[last]
        s.picks[done] += s.hands[done]
        s.hands[done] = 0
        s.pick_pending[done] = -1
        self._pickup_and_assign(s, done)

    def _pickup_and_assign(self, s: BigScoreState, idx: np.ndarray) -> None:
        """RB › Phase 1 IMPORTANT: training cards of the last round return to the hand."""
        if idx.size == 0:
            return
        s.returned[idx] = s.train[idx]
        s.ahand[idx] = s.picks[idx] + s.train[idx]
        s.train[idx] = 0
        s.picks[idx] = 0
        s.assign[idx] = 0
        has_cards = s.ahand[idx].sum(axis=2) > 0
        self._open_window(s, idx, ASSIGN, has_cards, np.zeros(len(idx), int))

    # -- Act I › Phase 2 - Assign Crew ----------------------------------------------------------
    def _on_assign(self, s, idx, a):
        seat = s.current_player[idx]
        kind = s.cur_kind[idx].astype(np.int64)
        s.assign[idx, seat, a - A_ASSIGN, kind] += 1
        s.ahand[idx, seat, kind] -= 1
        seat_done = s.ahand[idx, seat].sum(axis=1) == 0
        g = idx[seat_done]
        if g.size == 0:
            return
        closed = g[self._advance(s, g)]
        s.cur_job[closed] = 0
        self._resolve_jobs(s, closed)

    # -- Act I › Phase 3 - Resolve Jobs ---------------------------------------------------------
    def _resolve_jobs(self, s: BigScoreState, idx: np.ndarray) -> None:
        """Resolve positions cur_job.. in order until a JoAT window opens or all are done."""
        if idx.size:
            self._resolve_positions(s, idx)
            self._score_act1(s, idx)  # once the payouts of this step are all in

    def _resolve_positions(self, s: BigScoreState, idx: np.ndarray) -> None:
        """The loop of `_resolve_jobs`, one position per pass (subsets of games that take
        another branch are split off only when not empty)."""
        while idx.size:
            p = s.cur_job[idx].astype(np.int64)
            finished = p >= C.JOBS_PER_ROUND
            if finished.any():
                self._cleanup(s, idx[finished])
                idx, p = idx[~finished], p[~finished]
                if idx.size == 0:
                    return
            sent = s.assign[idx, :, p, :]  # [k, N, 12]
            per_seat = sent.sum(axis=2)
            participants = per_seat > 0
            nobody = ~participants.any(axis=1)
            skipped = idx[nobody]
            if skipped.size:
                s.job_status[skipped, p[nobody]] = UNATTEMPTED
                s.cur_job[skipped] += 1
                go = ~nobody
                idx, p, sent, per_seat, participants = (idx[go], p[go], sent[go], per_seat[go],
                                                        participants[go])
                if idx.size == 0:
                    idx = skipped
                    continue
            # the reveal: all participants' cards form a common face-up pile
            kinds = sent.sum(axis=1)
            have = kinds[:, 0::2] + kinds[:, 1::2]
            s.pile[idx, p] = have
            s.contrib[idx, :, p] = per_seat
            s.crew_revealed[idx] += kinds
            s.assign[idx, :, p, :] = 0
            req = self.job_req[s.jobs[idx, p]]
            missing = np.maximum(req - have, 0).sum(axis=1)
            if self.inside_man:
                # RB › 2-Player Rules › The Inside Man: the top crew card joins the pile
                im = np.flatnonzero(missing > 0)
                if im.size:
                    g = idx[im]
                    card = s.crew_deck[g, s.crew_ptr[g]].astype(np.int64)
                    s.crew_ptr[g] += 1
                    s.crew_revealed[g, card] += 1
                    t = C.KIND_TYPE[card]
                    s.inside[g, p[im]] = t
                    s.pile[g, p[im], t] += 1  # the card joins the common face-up pile
                    useful = req[im, t] > have[im, t]
                    missing[im] -= useful
            eligible = participants & (s.joat[idx] > 0)
            tokens = (s.joat[idx] * eligible).sum(axis=1)
            window = (missing > 0) & (missing <= tokens)
            w = idx[window]
            if w.size:
                s.missing[w] = missing[window]
                s.joat_pending[w] = 0
                self._open_window(s, w, JOAT, eligible[window], np.zeros(len(w), int))
                decided = ~window
                idx, p, participants, missing = (idx[decided], p[decided],
                                                 participants[decided], missing[decided])
            self._job_outcome(s, idx, p, participants, missing == 0)
            idx = np.concatenate([skipped, idx]) if skipped.size else idx

    def _on_joat(self, s, idx, a):
        closed = self._secret(s, idx, s.joat_pending, a - A_JOAT)
        if closed.size == 0:
            return
        # the fists open together; revealed tokens are spent whatever the outcome
        p = s.cur_job[closed].astype(np.int64)
        shown = s.joat_pending[closed]
        s.joat[closed] -= shown
        s.joat_rev[closed, :, p] = shown
        success = shown.sum(axis=1) >= s.missing[closed]
        self._job_outcome(s, closed, p, s.contrib[closed, :, p] > 0, success)
        s.joat_pending[closed] = 0
        s.missing[closed] = 0
        self._resolve_jobs(s, closed)

    def _job_outcome(self, s: BigScoreState, idx: np.ndarray, p: np.ndarray,
                     participants: np.ndarray, success: np.ndarray) -> None:
        """RB › Job Payout / Job Failure, then move on to the next position."""
        if idx.size == 0:
            return
        job = s.jobs[idx, p]
        paid = participants & success[:, None]
        s.cash[idx] += paid * self.job_cash[job][:, None]
        s.payout[idx[:, None], np.arange(self.num_players), self.job_token[job][:, None]] += paid
        # a player with less than $20K in cash ignores the penalty
        fined = participants & ~success[:, None] & (s.cash[idx] >= C.FAIL_PENALTY)
        s.cash[idx] -= fined * C.FAIL_PENALTY
        s.job_status[idx, p] = np.where(success, SUCCESS, FAILED)
        s.cur_job[idx] = p + 1

    # -- Act I › End-of-Round Cleanup -----------------------------------------------------------
    def _cleanup(self, s: BigScoreState, idx: np.ndarray) -> None:
        """Unassigned cards are discarded face-down; training piles are revealed."""
        if idx.size == 0:
            return
        s.trash[idx] += s.assign[idx, :, UNASSIGNED]
        pile = s.assign[idx, :, TRAINING]
        s.train[idx] = pile
        count = pile.sum(axis=2)
        s.train_public[idx, :, 0] = np.where(count > 0, C.KIND_TYPE[_first_true(pile > 0)], -1)
        s.train_public[idx, :, 1] = count
        s.assign[idx] = 0
        s.returned[idx] = 0
        s.cur_job[idx] = 0
        more = s.stage[idx] < ROUND3
        # Act II: the jobs and everything about them are set aside
        over = idx[~more]
        s.job_status[over] = EMPTY
        s.jobs[over] = -1
        s.pile[over] = s.contrib[over] = s.joat_rev[over] = 0
        s.inside[over] = -1
        self._round_setup(s, idx[more])
        self._act2_setup(s, idx[~more])

    # -- Act II › Set-up at the Beginning of Act II ---------------------------------------------
    def _act2_setup(self, s: BigScoreState, idx: np.ndarray) -> None:
        if idx.size == 0:
            return
        n = self.num_players
        s.stage[idx] = ACT2
        # Gaining an Expert Ability: 3 Expert cards of one type left in Training after round 3
        ttype = s.train_public[idx, :, 0].astype(np.int64)
        trained = (s.train_public[idx, :, 1] == 3) & self.ability_on[np.maximum(ttype, 0)]
        s.ability[idx] = np.where(trained, ttype, -1)
        # First Player Marker: fewest payout tokens (count, not value)
        tokens = s.payout[idx].sum(axis=2)
        tied = tokens == tokens.min(axis=1, keepdims=True)
        rule = self.options["fp_tiebreak"]
        if rule == "youngest_last_seat":
            fp = n - 1 - _first_true(tied[:, ::-1])
        elif rule == "lowest_seat":
            fp = _first_true(tied)
        else:
            u = rng.uniform(s.key[idx], S_MISC, s.misc_ptr[idx])
            s.misc_ptr[idx] += 1
            rank = np.floor(u * tied.sum(axis=1)).astype(np.int64)
            fp = _first_true(np.cumsum(tied, axis=1) > rank[:, None])
        s.first_player[idx] = fp
        s.status[idx] = IN_VAULT
        # the Vault Floor: 5 tokens, Cops drawn are put back and replaced = 5 draws of loot
        for _ in range(C.FLOOR_SIZE):
            v = self._draw(s, idx, loot_only=True)
            s.bag[idx, v] -= 1
            s.vault_floor[idx, v] += 1
        self._start_act2_round(s, idx)

    def _draw(self, s: BigScoreState, idx: np.ndarray, loot_only: bool = False) -> np.ndarray:
        """One uniform draw from each game's bag (-1 if empty); the caller removes it."""
        u = rng.uniform(s.key[idx], S_BAG, s.bag_ptr[idx])
        s.bag_ptr[idx] += 1
        counts = s.bag[idx, :C.NUM_LOOT] if loot_only else s.bag[idx]
        return rng.draw_from_counts(counts, u)

    # -- Act II › Phase 1 - Rob or Flee the Vault -----------------------------------------------
    def _start_act2_round(self, s: BigScoreState, idx: np.ndarray) -> None:
        if idx.size == 0:
            return
        s.act2_round[idx] += 1
        s.drawn[idx] = -1
        s.banked[idx] = False
        s.rob_pending[idx] = -1
        self._open_window(s, idx, ROB_FLEE, s.status[idx] == IN_VAULT, s.first_player[idx])

    def _on_rob_flee(self, s, idx, a):
        self._reveal(s, self._secret(s, idx, s.rob_pending, a - A_ROB))

    def _reveal(self, s: BigScoreState, idx: np.ndarray) -> None:
        """RB › The Reveal and Getting Busted, with the Driver's and Grease Man's flight."""
        if idx.size == 0:
            return
        k = np.arange(len(idx))
        queue = s.queue[idx].astype(np.int64)  # clockwise from the marker at the round start
        qlen = s.qlen[idx]
        for j in range(self.num_players):
            seat = queue[:, j]
            robs = (j < qlen) & (s.rob_pending[idx, seat] == 0)
            g, gs = idx[robs], seat[robs]
            if g.size == 0:
                continue
            v = self._draw(s, g)
            got = v >= 0
            s.bag[g[got], v[got]] -= 1
            s.drawn[g, gs] = v
        cops = (s.drawn[idx] == C.COPS).sum(axis=1)
        s.cops_track[idx] += cops
        bust = s.cops_track[idx] >= self.cops_to_bust
        s.busted_round[idx] = bust
        flees = (s.rob_pending[idx] == 1)
        # Driver: draws and keeps two tokens; Cops drawn go back, never on the track
        drivers = flees & (s.ability[idx] == C.DRIVER) & ~s.ability_used[idx]
        for j in range(self.num_players if drivers.any() else 0):  # (often nobody)
            seat = queue[:, j]
            drv = (j < qlen) & drivers[k, seat]
            g, gs = idx[drv], seat[drv]
            if g.size == 0:
                continue
            s.ability_used[g, gs] = True
            cops_back = np.zeros(len(g), np.int16)
            for _ in range(2):
                v = self._draw(s, g)
                got = v >= 0
                s.bag[g[got], v[got]] -= 1
                loot = got & (v != C.COPS)
                s.vault_pile[g[loot], gs[loot], v[loot]] += 1
                cops_back += v == C.COPS
            s.bag[g, C.COPS] += cops_back
        s.status[idx] = np.where(flees, FLED, s.status[idx])
        self._pass_marker_if_gone(s, idx)
        # Getting Busted: everyone still inside loses his Act II loot back into the vault
        b = idx[bust]
        if b.size:
            inside = s.status[b] == IN_VAULT
            s.bag[b, :C.NUM_LOOT] += (s.vault_pile[b] * inside[:, :, None]).sum(axis=1)
            s.vault_pile[b] *= ~inside[:, :, None]
            held = s.drawn[b]
            back = inside & (held >= 0) & (held != C.COPS)
            for p in range(self.num_players):
                r = back[:, p]
                s.bag[b[r], held[r, p]] += 1
            s.status[b] = np.where(inside, BUSTED, s.status[b])
        # Grease Man: steals a Floor token on fleeing (even in a round that busts)
        greasers = (flees & (s.ability[idx] == C.GREASE_MAN) & ~s.ability_used[idx]
                    & (s.vault_floor[idx].sum(axis=1) > 0)[:, None])
        any_g = greasers.any(axis=1)
        g = idx[any_g]
        self._open_window(s, g, GREASE_STEAL, greasers[any_g], s.queue[g, 0].astype(np.int64))
        self._after_flight(s, idx[~any_g])

    def _on_grease(self, s, idx, a):
        seat = s.current_player[idx]
        v = a - A_GREASE
        s.vault_floor[idx, v] -= 1
        s.vault_pile[idx, seat, v] += 1
        s.ability_used[idx, seat] = True
        closed = self._advance(s, idx) | (s.vault_floor[idx].sum(axis=1) == 0)
        self._after_flight(s, idx[closed])

    def _pass_marker_if_gone(self, s: BigScoreState, idx: np.ndarray) -> None:
        """A fleeing holder passes the First Player Marker left, skipping fled players."""
        fp = s.first_player[idx].astype(np.int64)
        gone = s.status[idx, fp] != IN_VAULT
        self._pass_marker(s, idx[gone])

    def _pass_marker(self, s: BigScoreState, idx: np.ndarray) -> None:
        """Marker to the next seat clockwise still in the vault (may come back to the holder)."""
        if idx.size == 0:
            return
        n = self.num_players
        order = _clockwise(s.first_player[idx].astype(np.int64) + 1, n)
        inside = np.take_along_axis(s.status[idx] == IN_VAULT, order, axis=1)
        nxt = order[np.arange(len(idx)), _first_true(inside)]
        s.first_player[idx] = np.where(inside.any(axis=1), nxt, s.first_player[idx])

    def _after_flight(self, s: BigScoreState, idx: np.ndarray) -> None:
        if idx.size == 0:
            return
        over = s.busted_round[idx] | ~(s.status[idx] == IN_VAULT).any(axis=1)
        self._game_end(s, idx[over])
        self._phase2(s, idx[~over])

    # -- Act II › Phase 2 - Trade with the Vault Floor ------------------------------------------
    def _phase2(self, s: BigScoreState, idx: np.ndarray) -> None:
        if idx.size == 0:
            return
        held = s.drawn[idx]
        traders = (s.status[idx] == IN_VAULT) & (held >= 0) & (held != C.COPS)
        some = traders.any(axis=1)
        self._start_act2_round(s, idx[~some])
        idx = idx[some]
        # Muscle: may steal the First Player Marker before the trades (decision D-10)
        fp = s.first_player[idx].astype(np.int64)
        seats = np.arange(self.num_players)[None, :]
        muscles = ((s.ability[idx] == C.MUSCLE) & ~s.ability_used[idx]
                   & (s.status[idx] == IN_VAULT) & (seats != fp[:, None]))
        m = muscles.any(axis=1)
        self._open_window(s, idx[m], MUSCLE, muscles[m], fp[m])
        self._open_trades(s, idx[~m])

    def _on_muscle(self, s, idx, a):
        seat = s.current_player[idx]
        steal = a == A_MUSCLE_STEAL
        s.first_player[idx[steal]] = seat[steal]
        s.ability_used[idx[steal], seat[steal]] = True
        closed = idx[self._advance(s, idx)]
        self._open_trades(s, closed)

    def _open_trades(self, s: BigScoreState, idx: np.ndarray) -> None:
        """Trade order: clockwise from the marker holder, fixed for this phase (D-14)."""
        if idx.size == 0:
            return
        held = s.drawn[idx]
        traders = (s.status[idx] == IN_VAULT) & (held >= 0) & (held != C.COPS)
        self._open_window(s, idx, TRADE, traders, s.first_player[idx].astype(np.int64))

    def _on_trade(self, s, idx, a):
        seat = s.current_player[idx]
        plain = (a >= A_TRADE) & (a < A_CONMAN)
        con = (a >= A_CONMAN) & (a < A_GUN_DECLINE)
        # a plain trade swaps the token just drawn for a Floor token
        g, gs, v = idx[plain], seat[plain], a[plain] - A_TRADE
        s.vault_floor[g, s.drawn[g, gs]] += 1
        s.vault_floor[g, v] -= 1
        s.drawn[g, gs] = v
        # Con Man: trades a previously drawn token instead, keeping the new one
        g, gs, code = idx[con], seat[con], a[con] - A_CONMAN
        give, take = code // C.NUM_LOOT, code % C.NUM_LOOT
        s.vault_pile[g, gs, give] -= 1
        s.vault_floor[g, give] += 1
        s.vault_floor[g, take] -= 1
        s.vault_pile[g, gs, take] += 1
        s.ability_used[g, gs] = True
        traded = plain | con
        holder = traded & (s.first_player[idx] == seat)
        self._pass_marker(s, idx[holder])
        gun = (traded & (s.ability[idx, seat] == C.GUN_MAN) & ~s.ability_used[idx, seat]
               & (s.vault_floor[idx].sum(axis=1) > 0))
        s.phase[idx[gun]] = GUN_STEAL
        self._end_trade_turn(s, idx[~gun])

    def _on_gun(self, s, idx, a):
        seat = s.current_player[idx]
        steal = a != A_GUN_DECLINE
        g, gs, v = idx[steal], seat[steal], a[steal] - A_GUN
        s.vault_floor[g, v] -= 1
        s.vault_pile[g, gs, v] += 1
        s.ability_used[g, gs] = True
        s.phase[idx] = TRADE
        self._end_trade_turn(s, idx)

    def _end_trade_turn(self, s: BigScoreState, idx: np.ndarray) -> None:
        """The (possibly swapped) drawn token joins the trader's vault pile."""
        if idx.size == 0:
            return
        seat = s.current_player[idx]
        s.vault_pile[idx, seat, s.drawn[idx, seat]] += 1
        s.banked[idx, seat] = True
        closed = idx[self._advance(s, idx)]
        self._start_act2_round(s, closed)

    # -- Game End ---------------------------------------------------------------------------------
    def _game_end(self, s: BigScoreState, idx: np.ndarray) -> None:
        if idx.size == 0:
            return
        s.stage[idx] = OVER
        s.phase[idx] = NONE
        s.committed[idx] = False
        self._finish(s, idx)

    def holdings(self, s: BigScoreState, extra: np.ndarray | None = None) -> dict:
        """Per-player holdings for scoring; `extra` [B, N, 9] adds vault loot."""
        pile = s.vault_pile if extra is None else s.vault_pile + extra
        return {"cash": s.cash + (pile * C.CASH_FACE).sum(axis=2),
                "artifacts": s.payout[..., C.ARTIFACT] + pile[..., C.V_ARTIFACT],
                "diamonds": s.payout[..., C.DIAMOND] + pile[..., C.V_DIAMOND],
                "drives": s.payout[..., C.HARD_DRIVE], "keys": pile[..., C.KEY],
                "silver": pile[..., C.SILVER], "gold": pile[..., C.GOLD]}

    def score_parts(self, s: BigScoreState, extra: np.ndarray | None = None) -> dict:
        """RB › Winning the Game: the value of everything each player holds, by component."""
        h = self.holdings(s, extra)
        art = h["artifacts"]
        top = art.max(axis=1, keepdims=True)
        bonus = (art == top) & ((art == top).sum(axis=1, keepdims=True) == 1) & (top >= 1)
        hacker = (s.ability == C.HACKER) * C.HACKER_UNPAIRED * np.abs(h["drives"] - h["keys"])
        return {"cash": h["cash"], "bars": C.SILVER_VALUE * h["silver"] + C.GOLD_VALUE * h["gold"],
                "diamonds": C.diamond_value(h["diamonds"]),
                "artifacts": C.ARTIFACT_FACE * art + C.ARTIFACT_BONUS * bonus,
                "hard_drives": C.PAIR_VALUE * np.minimum(h["drives"], h["keys"]),
                "hacker": hacker}

    def _score_act1(self, s: BigScoreState, idx: np.ndarray) -> None:
        """Keep `act1_score` (the observation's score in Act I) current where cash or payout
        tokens change."""
        s.act1_score[idx] = self.worth(s.cash[idx], s.payout[idx])

    def total_score(self, s: BigScoreState, extra: np.ndarray | None = None,
                    vault: bool = True) -> np.ndarray:
        """The sum of `score_parts` in fewer operations (it is on the observation path);
        `vault=False` when no game of the batch has Act II loot (its terms are then zero)."""
        if not vault:
            return self.worth(s.cash, s.payout)
        return self.worth(s.cash, s.payout, s.vault_pile if extra is None else
                          s.vault_pile + extra, s.ability == C.HACKER)

    def worth(self, cash: np.ndarray, payout: np.ndarray, pile: np.ndarray | None = None,
              hacker: np.ndarray | None = None) -> np.ndarray:
        """The score of holdings [B, N]: cash, payout tokens [B, N, 3] and, in Act II, vault
        loot [B, N, 9] (`hacker`: the seats with the Hacker ability)."""
        art, dia, drives = payout[..., 0], payout[..., 1], payout[..., 2]
        total = cash.astype(np.int64)
        if pile is not None:
            art = art + pile[..., C.V_ARTIFACT]
            dia = dia + pile[..., C.V_DIAMOND]
            keys = pile[..., C.KEY]
            total = (total + pile @ C.LOOT_FACE + C.PAIR_VALUE * np.minimum(drives, keys)
                     + hacker * C.HACKER_UNPAIRED * np.abs(drives - keys))
        top = art.max(axis=1, keepdims=True)
        is_top = art == top
        bonus = is_top & (is_top.sum(axis=1, keepdims=True) == 1) & (top >= 1)
        return (total + C.DIAMOND_LUT.take(dia) + C.ARTIFACT_FACE * art
                + C.ARTIFACT_BONUS * bonus)

    def scores(self, s: BigScoreState) -> np.ndarray:
        return self.total_score(s)

    def rank_keys(self, s: BigScoreState) -> np.ndarray:
        """Score, then 'a Busted player loses all ties with any player not Busted', then cash."""
        cash = self.holdings(s)["cash"].astype(np.int64)
        return (self.scores(s) << 32) + ((s.status != BUSTED).astype(np.int64) << 31) + cash

    def secret_decision(self, s: BigScoreState) -> np.ndarray:
        """Boss options, draft picks, assignments, JoAT fists and rob/flee are secret."""
        return np.isin(s.phase, (BOSS_OPTION, DRAFT, ASSIGN, JOAT, ROB_FLEE))

    def final_info(self, s: BigScoreState, b: int = 0) -> dict:
        """Each player's score by component ($10K) and who was busted."""
        parts = self.score_parts(s[b])
        return {"score_breakdown": [{k: int(v[0, p]) for k, v in parts.items()}
                                    for p in range(self.num_players)],
                "busted": (s.status[b] == BUSTED).tolist()}

    def conserved(self, s: BigScoreState) -> dict[str, np.ndarray]:
        """Crew cards (90) and vault tokens (62) are never created or destroyed."""
        cards = (C.CREW_DECK_SIZE - s.crew_ptr + s.hands.sum((1, 2)) + s.picks.sum((1, 2))
                 + s.ahand.sum((1, 2)) + s.assign.sum((1, 2, 3)) + s.train.sum((1, 2))
                 + s.trash.sum((1, 2)) + s.crew_revealed.sum(1))
        drawn = np.where(s.banked, -1, s.drawn)  # drawn this round, not yet in a pile or bag
        held = ((drawn >= 0) & (drawn != C.COPS) & (s.status != 2)).sum(1)
        tokens = (s.bag.sum(1) + s.vault_floor.sum(1) + s.vault_pile.sum((1, 2)) + held
                  + s.cops_track)
        return {"crew cards": cards.astype(np.int64), "vault tokens": tokens.astype(np.int64)}

    # -- legal actions ------------------------------------------------------------------------
    def _refresh(self, s: BigScoreState, idx: np.ndarray) -> None:
        """Recompute the acting seat and its legal actions for games `idx`."""
        live = idx[s.phase[idx] != NONE]
        mask = s.legal_action_mask
        mask[idx] = False
        s.cur_kind[idx] = -1
        if live.size == 0:
            return
        seat_all = self._actor(s, live)
        s.current_player[live] = seat_all
        for d, sel in groups(s.phase[live]):
            g, seat = live[sel], seat_all[sel]
            if d == BOSS_OPTION:
                mask[g, A_BOSS_TOKEN] = mask[g, A_BOSS_CASH] = True
            elif d == DRAFT:
                mask[g, A_DRAFT:A_DRAFT + 12] = s.hands[g, seat] > 0
            elif d == ASSIGN:
                self._assign_mask(s, g, seat)
            elif d == JOAT:
                mask[g, A_JOAT:A_JOAT + 3] = np.arange(3) <= s.joat[g, seat][:, None]
            elif d == ROB_FLEE:
                mask[g, A_ROB] = s.bag[g].sum(axis=1) > 0
                mask[g, A_FLEE] = True
            elif d == MUSCLE:
                mask[g, A_MUSCLE_STEAL] = mask[g, A_MUSCLE_PASS] = True
            elif d == TRADE:
                floor = s.vault_floor[g] > 0
                mask[g, A_TRADE_PASS] = True
                mask[g, A_TRADE:A_TRADE + 9] = floor
                con = (s.ability[g, seat] == C.CON_MAN) & ~s.ability_used[g, seat]
                pairs = (s.vault_pile[g, seat] > 0)[:, :, None] & floor[:, None, :]
                mask[g, A_CONMAN:A_GUN_DECLINE] = (pairs & con[:, None, None]).reshape(-1, 81)
            elif d == GUN_STEAL:
                mask[g, A_GUN_DECLINE] = True
                mask[g, A_GUN:A_GUN + 9] = s.vault_floor[g] > 0
            elif d == GREASE_STEAL:
                mask[g, A_GREASE:A_GREASE + 9] = s.vault_floor[g] > 0

    def _assign_mask(self, s: BigScoreState, g: np.ndarray, seat: np.ndarray) -> None:
        mask = s.legal_action_mask
        kind = _first_true(s.ahand[g, seat] > 0)
        s.cur_kind[g] = kind
        mask[g, A_ASSIGN:A_ASSIGN + 6] = self.job_takes[s.jobs[g], kind[:, None]]
        pile = s.assign[g, seat, TRAINING]
        mask[g, A_ASSIGN + TRAINING] = self.trainable[kind, pile.sum(axis=1), _first_true(pile > 0)]
        mask[g, A_ASSIGN + UNASSIGNED] = True

    _handlers = (None, _on_boss_option, _on_draft, _on_assign, _on_joat, _on_rob_flee,
                 _on_muscle, _on_trade, _on_gun, _on_grease)  # indexed by decision type

    # -- views ----------------------------------------------------------------------------------
    def _observe(self, s: BigScoreState, seats: np.ndarray) -> np.ndarray:
        if not hasattr(self, "_encoder"):
            self._encoder = Encoder(self)
        return self._encoder(s, seats)

    def render(self, s: BigScoreState, b: int = 0, player: int | None = None) -> str:
        from heistbench.envs.big_score.render import render_text

        return render_text(self, s, b, player)

    def resample_hidden(self, s: BigScoreState, player: int | np.ndarray,
                        seeds: int | np.ndarray) -> BigScoreState:
        from numpy_determinize import resample_hidden

        return resample_hidden(self, s, player, seeds)
