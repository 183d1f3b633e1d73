"""The Big Score on the compiled core: the `Game` (options, layouts, determinization, text)
over the scalar rules of `rules.py`, which read top to bottom like the rulebook.

The batch state is one structured array of `rules.STATE_FIELDS` records; `BigScoreState`
shows each field as a view with the batch axis first (`state.hands` is [B, N, 12]).
"""

from __future__ import annotations

from types import ModuleType
from typing import ClassVar

import numpy as np

from ..core import rng
from ..core.compiled import CompiledGame
from ..core.layout import ActionLayout, ActionRange, Block, Field, ObservationLayout
from ..core.options import Option
from ..core.records import RecordState
from . import components as C
from . import rules as R

# the decision, stage and action ids, for the bots, the renderer and the tests
from .rules import (  # noqa: F401
    A_ASSIGN,
    A_BOSS_CASH,
    A_BOSS_TOKEN,
    A_CONMAN,
    A_DRAFT,
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
    ACT2,
    ACT2_SETUP,
    ASSIGN,
    BOSS_OPTION,
    BUSTED,
    DECISION_NAMES,
    DRAFT,
    EMPTY,
    FAILED,
    FLED,
    GREASE_STEAL,
    GUN_STEAL,
    IN_VAULT,
    JOAT,
    MUSCLE,
    NONE,
    NUM_ACTIONS,
    OPEN,
    OVER,
    RESOLVE_JOBS,
    ROB_FLEE,
    ROUND1,
    ROUND2,
    ROUND3,
    SETUP,
    SUCCESS,
    TRADE,
    TRAINING,
    UNASSIGNED,
    UNATTEMPTED,
)

SLOTS = R.SLOTS  # relative seats in every observation, whatever the player count


class BigScoreState(RecordState):
    """A batch of The Big Score games: the public fields, then `rules.STATE_FIELDS`, each a
    view [B, ...] whose seat axes have size num_players."""


class BigScoreGame(CompiledGame):
    """The Big Score for 2–6 players (see the env module docstring for the user docs)."""

    name: ClassVar[str] = "big_score_v1"
    title: ClassVar[str] = "The Big Score"
    version: ClassVar[int] = 1
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4, 5, 6)
    score_scale: ClassVar[float] = 100.0
    GAME_OPTIONS: ClassVar[dict[str, Option]] = {
        "simple_variant": Option(False, "RB › Simple Variant: Expert stars ignored, no "
                                 "Training, no abilities", check=lambda v: isinstance(v, bool),
                                 allowed="a bool"),
        "expert_abilities": Option(True, "grant Expert Abilities at the end of Act I (False "
                                   "keeps Training as carry-over only)",
                                   check=lambda v: isinstance(v, bool), allowed="a bool"),
        "abilities": Option(C.ABILITY_NAMES, "abilities that can be gained (ablation)",
                            check=lambda v: not isinstance(v, str)
                            and set(v) <= set(C.ABILITY_NAMES),
                            allowed="a subset of " + ", ".join(C.ABILITY_NAMES)),
        "inside_man": Option(None, "2-player Inside Man rule (None = on exactly at 2 players; "
                             "True only allowed up to 3 players: more would exhaust the deck)",
                             choices=(None, True, False)),
        "joat_per_player": Option(None, "Jack of All Trades tokens per player (None = 2 at 2 "
                                  "players, else 1)", choices=(None, 1, 2)),
        "boss_option_mode": Option("choose", "starting option: chosen by each player (a "
                                   "secret choice), or fixed to token / cash, or random",
                                   R.BOSS_MODES),
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
                              "seat; or random", R.FP_RULES),
    }
    STATE_FIELDS = R.STATE_FIELDS
    CONFIG_FIELDS = R.CONFIG_FIELDS
    state_cls = BigScoreState
    rules_folder = R.HERE

    @classmethod
    def drivers(cls) -> ModuleType:
        return R.DRIVERS

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

    def _configure(self, c: np.void) -> None:
        """The options and the job and boss tables as the compiled rules read them; row 24
        of the job tables is "no job" (a position's job id -1)."""
        o = self.options
        c["hand_size"], c["inside_man"] = self.hand_size, self.inside_man
        c["joat_per_player"], c["cops_to_bust"] = self.joat_per_player, self.cops_to_bust
        c["simple"], c["ability_on"] = self.simple, self.ability_on
        c["abilities_on"] = bool(self.ability_on.any())
        c["boss_mode"] = R.BOSS_MODES.index(o["boss_option_mode"])
        c["boss_random"] = o["boss_assignment"] == "random"
        c["fp_rule"] = R.FP_RULES.index(o["fp_tiebreak"])
        c["job_req"][:24] = self.jobs.req
        c["job_cash"][:24] = self.jobs.cash
        c["job_token"][:24] = self.jobs.token
        c["job_token"][24] = 3
        c["boss_token"], c["boss_cash"] = self.boss_token, self.boss_cash

    def default_max_steps(self) -> int:
        return 5000

    # -- scoring (the tallies are compiled: rules.scores, rules.rank_keys) --------------------
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

    def secret_decision(self, s: BigScoreState) -> np.ndarray:
        """Boss options, draft picks, assignments, JoAT fists and rob/flee are secret."""
        return np.isin(s.phase, (BOSS_OPTION, DRAFT, ASSIGN, JOAT, ROB_FLEE))

    def asked_always(self, s: BigScoreState) -> np.ndarray:
        """Draft picks and assignments, even with one legal action (`rules.asked_always`)."""
        return np.isin(s.phase, (DRAFT, ASSIGN))

    def final_info(self, s: BigScoreState, b: int = 0) -> dict:
        """Each player's score by component ($10K) and who was busted."""
        parts = self.score_parts(s[b])
        return {"score_breakdown": [{k: int(v[0, p]) for k, v in parts.items()}
                                    for p in range(self.num_players)],
                "busted": (s.status[b] == BUSTED).tolist()}

    def conserved(self, s: BigScoreState) -> dict[str, np.ndarray]:
        """Crew cards (90) and vault tokens (62) are never created or destroyed."""
        i64 = np.int64
        cards = (C.CREW_DECK_SIZE - s.crew_ptr.astype(i64) + s.hands.sum((1, 2), dtype=i64)
                 + s.picks.sum((1, 2), dtype=i64) + s.ahand.sum((1, 2), dtype=i64)
                 + s.assign.sum((1, 2, 3), dtype=i64) + s.train.sum((1, 2), dtype=i64)
                 + s.trash.sum((1, 2), dtype=i64) + s.crew_revealed.sum(1, dtype=i64))
        drawn = np.where(s.banked, -1, s.drawn)  # drawn this round, not yet in a pile or bag
        held = ((drawn >= 0) & (drawn != C.COPS) & (s.status != BUSTED)).sum(1)
        tokens = (s.bag.sum(1, dtype=i64) + s.vault_floor.sum(1, dtype=i64)
                  + s.vault_pile.sum((1, 2), dtype=i64) + held + s.cops_track)
        return {"crew cards": cards, "vault tokens": tokens.astype(i64)}

    # -- views ----------------------------------------------------------------------------------
    def render(self, s: BigScoreState, b: int = 0, player: int | None = None) -> str:
        from .render import render_text

        return render_text(self, s, b, player)

    def resample_hidden(self, state: BigScoreState, player: int | np.ndarray,
                        seeds: int | np.ndarray) -> BigScoreState:
        """Redraw everything `player` cannot know, keeping everything he can.

        Kept: all public state (the jobs, every revealed card, how many cards each player
        holds, has drafted and has still to assign, the Training piles, the bag's contents),
        the player's own cards and choices, and what he saw of this round's draft: every hand
        that passed through his hands is where the draft took it (README › Determinization).
        Redrawn: the crew cards he has not seen (the deck order, the opponents' earlier
        face-down discards, the parts of this round's hands he never held, and which opponent
        took which of the cards he passed on), where the opponents' cards of this round lie
        face down (re-placed as the rules allow), the order of the unseen jobs, the
        opponents' pending secret choices, the future bag draws (a fresh key)."""
        out = state.copy()
        B = out.batch_size
        seats = np.broadcast_to(np.asarray(player, dtype=np.int64), (B,))
        keys = np.broadcast_to(rng.seed_keys(seeds), (B,)).copy()
        for b in range(B):
            if out.terminated[b] or out.truncated[b]:
                continue
            self._redeal(out, b, int(seats[b]), np.random.default_rng(int(keys[b])))
        out.key = keys
        out.bag_ptr = 0
        out.stacked_len = out.stacked_pos = 0  # a stacked bag is no knowledge of the player's
        return self.refresh_masks(out)

    def _redeal(self, s: BigScoreState, b: int, me: int, r: np.random.Generator) -> None:
        """`resample_hidden` for game b: the crew cards (this round's draft replayed where it
        is known, else one pool), the unseen jobs, the pending secret choices."""
        if not (s.phase[b] in (DRAFT, ASSIGN) and self._redraft(s, b, me, r)):
            self._redeal_pool(s, b, me, r)
        jp = int(s.job_ptr[b])
        s.job_deck[b, jp:] = r.permutation(s.job_deck[b, jp:])
        phase = int(s.phase[b])
        for q in range(self.num_players):
            if q == me or not s.committed[b, q]:
                continue
            if phase == DRAFT:
                s.pick_pending[b, q] = r.choice(np.flatnonzero(s.hands[b, q]))
            elif phase == JOAT:
                s.joat_pending[b, q] = r.integers(0, s.joat[b, q] + 1)
            elif phase == ROB_FLEE:
                s.rob_pending[b, q] = r.integers(0, 2) if s.bag[b].sum() else 1
            elif phase == BOSS_OPTION:
                s.boss_choice[b, q] = r.integers(0, 2)

    # -- the draft of this round, replayed as the player saw it ----------------------------------
    def _packets(self, s: BigScoreState, b: int) -> tuple[np.ndarray, int, int] | None:
        """This round's draft as the rules played it: `content[k, t]` [n, h, 12] is the hand
        dealt to seat k as it stood at pick step t (before that step's pick), for every step
        whose hands were held (t <= last); with the pass direction and `last`. None if the
        state did not come from a dealt round (a crafted position)."""
        n, h = self.num_players, self.hand_size
        stage = int(s.stage[b])
        if not ROUND1 <= stage <= ROUND3:
            return None
        d = C.PASS_DIR[stage - ROUND1]
        last = int(s.draft_step[b]) if s.phase[b] == DRAFT else h - 1
        start = int(s.deal_ptr[b])
        deal = s.crew_deck[b, start:start + n * h].astype(np.int64).reshape(n, h)
        content = np.zeros((n, h, 12), np.int64)
        for k in range(n):
            content[k, 0] = np.bincount(deal[k], minlength=12)
            for t in range(1, last + 1):
                kind = int(s.pick_log[b, (k + d * (t - 1)) % n, t - 1])
                if kind < 0 or content[k, t - 1, kind] == 0:
                    return None
                content[k, t] = content[k, t - 1]
                content[k, t, kind] -= 1
        took = self._taken(s.pick_log[b, :n].astype(np.int64), content[:, last], d, last)
        for k in range(n):
            q = (k + d * last) % n
            if s.phase[b] == DRAFT:
                if (s.hands[b, q] != content[k, last]).any() or (s.picks[b, q] != took[q]).any():
                    return None
            elif (s.ahand[b, q] + s.assign[b, q].sum(axis=0)
                  != took[q] + s.returned[b, q]).any():
                return None
        return content, d, last

    def _taken(self, log: np.ndarray, held: np.ndarray, d: int, last: int) -> np.ndarray:
        """[n, 12]: the cards each seat has drafted by step `last`, from the picks `log` and
        the hands `held` [n, 12] as they stand at `last` (the draft over: the last card of
        each, kept automatically)."""
        n, h = held.shape[0], self.hand_size
        took = np.zeros((n, 12), np.int64)
        for q in range(n):
            for t in range(last):
                took[q, log[q, t]] += 1
        if last == h - 1:
            for k in range(n):
                took[(k + d * last) % n] += held[k]
        return took

    def _redraft(self, s: BigScoreState, b: int, me: int, r: np.random.Generator) -> bool:
        """Replay this round's draft in a world `me` cannot tell from the true one: every hand
        he held holds what it held; a hand before he first held it lost cards drawn from the
        unseen ones; the cards he passed on leave it one per step to the seats it passes, in a
        random order (up to the next time he holds it again, which fixes the set); a hand he
        never held is drawn whole from the unseen cards. Each opponent's picks are uniformly
        random among the cards so placed. False if there is no draft to replay."""
        found = self._packets(s, b)
        if found is None:
            return False
        content, d, last = found
        n, h = self.num_players, self.hand_size
        holder = lambda k, t: (k + d * t) % n  # noqa: E731
        sights = [[t for t in range(last + 1) if holder(k, t) == me] for k in range(n)]
        known = sum(content[k, ks[0]] for k, ks in enumerate(sights) if ks)
        opp = [q for q in range(n) if q != me]
        pool = (np.bincount(s.crew_deck[b, s.crew_ptr[b]:].astype(np.int64), minlength=12)
                + s.trash[b, opp].sum(axis=0) + content[:, 0].sum(axis=0) - known)
        cards = r.permutation(np.repeat(np.arange(12), pool))
        pos = 0
        log = s.pick_log[b, :n].astype(np.int64)
        start = int(s.deal_ptr[b])
        now = np.zeros((n, 12), np.int64)
        for k in range(n):
            first = sights[k][0] if sights[k] else last + 1
            early = cards[pos:pos + (first if sights[k] else h)]  # before he first held it
            pos += early.size
            hand = (content[k, first].copy() if sights[k]
                    else np.zeros(12, np.int64)) + np.bincount(early, minlength=12)
            s.crew_deck[b, start + k * h:start + (k + 1) * h] = r.permutation(
                np.repeat(np.arange(12), hand))
            for t in range(last):
                q = holder(k, t)
                if q == me:
                    kind = int(log[me, t])
                elif t < first:
                    kind = int(early[t])
                else:
                    later = [u for u in sights[k] if u > t]
                    left = hand - content[k, later[0]] if later else hand
                    kind = int(r.choice(12, p=left / left.sum()))
                log[q, t] = kind
                hand[kind] -= 1
            now[k] = hand
        s.pick_log[b, :n] = log
        for q in opp:
            s.trash[b, q] = np.bincount(cards[pos:pos + s.trash[b, q].sum()], minlength=12)
            pos += int(s.trash[b, q].sum())
        s.crew_deck[b, s.crew_ptr[b]:] = cards[pos:]
        took = self._taken(log, now, d, last)
        for k in range(n):
            q = holder(k, last)
            if q == me:
                continue
            if s.phase[b] == DRAFT:
                s.hands[b, q], s.picks[b, q] = now[k], took[q]
        if s.phase[b] == ASSIGN:
            for q in opp:
                self._replace_round(s, b, q, took[q] + s.returned[b, q], r)
        return True

    # -- otherwise: one pool of the unseen cards ---------------------------------------------
    def _redeal_pool(self, s: BigScoreState, b: int, me: int, r: np.random.Generator) -> None:
        """The crew cards outside a draft to replay (a JoAT window, Act II, a crafted
        position): one pool of the deck, the opponents' draft hands, picks, earlier face-down
        discards and this round's unrevealed cards, dealt back in the same numbers. A
        consistent superset (README › Determinization): it does not condition on the draft
        hands `me` saw."""
        opp = [q for q in range(self.num_players) if q != me]
        pool = np.bincount(s.crew_deck[b, s.crew_ptr[b]:].astype(np.int64), minlength=12)
        fixed, sizes = {}, {}
        for q in opp:
            mine = s.ahand[b, q].astype(np.int64) + s.assign[b, q].sum(axis=0)
            fixed[q] = self._returned_unrevealed(s, b, q)
            parts = {"hands": s.hands[b, q], "picks": s.picks[b, q], "trash": s.trash[b, q],
                     "round": mine - fixed[q]}
            sizes[q] = {k: int(v.sum()) for k, v in parts.items()}
            pool = pool + sum(parts.values())
        cards = np.repeat(np.arange(12), pool)
        r.shuffle(cards)
        pos = 0
        for q in opp:
            dealt = {}
            for k, size in sizes[q].items():
                dealt[k] = np.bincount(cards[pos:pos + size], minlength=12)
                pos += size
            s.hands[b, q], s.picks[b, q], s.trash[b, q] = dealt["hands"], dealt["picks"], \
                dealt["trash"]
            self._replace_round(s, b, q, fixed[q] + dealt["round"], r)
        s.crew_deck[b, s.crew_ptr[b]:] = cards[pos:]

    def _returned_unrevealed(self, s: BigScoreState, b: int, q: int) -> np.ndarray:
        """[12]: the Training cards q picked up this round (public) that are surely still face
        down or in his hand: all but as many of their type as he may have revealed on this
        round's jobs (his count there, at most the pile's cards of that type). From public
        facts only: how many he truly still holds is his secret."""
        back = s.returned[b, q].astype(np.int64)
        if not back.any():
            return back
        shown = np.zeros(6, np.int64)
        for p in np.flatnonzero(s.contrib[b, q]):
            shown += np.minimum(int(s.contrib[b, q, p]), s.pile[b, p].astype(np.int64))
        return np.maximum(back - shown[C.KIND_TYPE], 0)

    def _replace_round(self, s: BigScoreState, b: int, q: int, cards: np.ndarray,
                       r: np.random.Generator) -> None:
        """Seat q's unrevealed cards of this round `cards` [12] back in place: cards are
        assigned lowest kind first, so the highest ones are those still to assign (as many
        as before: that count is public); the others go, one by one, to a random target the
        rules allow: a job not yet revealed showing the card's icon, Training (Expert, one
        type, at most 3) or unassigned."""
        left = int(s.ahand[b, q].sum())
        order = np.repeat(np.arange(12), cards)  # ascending kinds
        placed, kept = order[:len(order) - left], order[len(order) - left:]
        s.ahand[b, q] = np.bincount(kept, minlength=12)
        s.assign[b, q] = 0
        if placed.size == 0:
            return
        # the jobs still face down: from the one after the JoAT window's, else all of them
        first = int(s.cur_job[b]) + (1 if s.phase[b] == JOAT else 0)
        req = np.vstack([self.jobs.req, np.zeros((1, 6), np.int64)])[s.jobs[b]]  # [6, types]
        for k in placed:
            t = C.KIND_TYPE[k]
            targets = [p for p in range(first, 6) if s.job_status[b, p] == OPEN
                       and req[p, t] > 0]
            pile = s.assign[b, q, TRAINING]
            if (C.KIND_EXPERT[k] and not self.simple and pile.sum() < 3
                    and (pile.sum() == 0 or C.KIND_TYPE[np.flatnonzero(pile)[0]] == t)):
                targets.append(int(TRAINING))
            targets.append(int(UNASSIGNED))
            s.assign[b, q, targets[r.integers(len(targets))], k] += 1


# == layouts =======================================================================================
def H(name: str, size: int, doc: str) -> Field:
    """A one-hot field."""
    return Field(name, size, doc, onehot=True)


JOB_FIELDS = (  # one job position (rules.job_block)
    Field("req", 6, "crew icons per type", 3),
    Field("cash", 1, "cash reward ($10K)", 5),
    H("token", 4, "reward token: Artifact, Diamond, Hard Drive, none"),
    H("status", 5, "empty, open, success (paid), failed, unattempted"),
    Field("pile", 6, "revealed pile per crew type (with the Inside Man card; capped at 1)", 6),
    Field("contrib", SLOTS, "cards revealed per relative seat (capped at 1)", 6),
    Field("joat", SLOTS, "JoAT tokens revealed per relative seat", 2),
    H("inside_man", 6, "crew type of the Inside Man card"),
)


def build_observation_layout() -> ObservationLayout:
    """The observation, in the column order `rules.observe` writes it."""
    F = Field

    return ObservationLayout([
        H("meta.num_players", 6, "player count 1..6"),
        F("meta.flags", 3, "simple variant, expert abilities on, Inside Man on"),
        F("meta.pass_left", 1, "1 if this round's draft passes left (rounds 1 and 3)"),
        F("meta.draft_step", 1, "picks made this round", 8),
        F("meta.missing_icons", 1, "icons still missing on the job being resolved", 6),
        F("meta.act2_round", 1, "Act II round (clipped at 30)", 30),
        H("meta.stage", 6, "setup, round 1, round 2, round 3, Act II, game over"),
        H("meta.decision", R.NUM_DECISIONS, "decision pending for this agent: none, "
          "boss_option, draft, assign, joat, rob_flee, muscle, trade, gun_steal, grease_steal"),
        H("meta.resolving_job", 6, "job position being resolved (JoAT window)"),
        Block("job", 6, JOB_FIELDS, "the job at position i+1 this round"),
        Block("last_job", 6, JOB_FIELDS, "the job at position i+1 of the last resolved round: "
              "the public record of its reveal (status = its outcome), kept until the next "
              "round's jobs are resolved"),
        Block("player", SLOTS, (
            F("present", 1, "slot occupied"),
            F("first_player", 1, "holds the First Player Marker"),
            F("cash", 1, "cash tokens ($10K)", 100),
            F("payout", 3, "Act I Artifacts, Diamonds, Hard Drives", 10),
            H("boss_token", 3, "payout token of the boss board's starting option"),
            F("boss_cash", 1, "cash of the boss board's starting option ($10K)", 10),
            H("boss_choice", 2, "starting option taken: token, cash"),
            F("joat", 1, "unused JoAT tokens", 2),
            H("training_type", 6, "crew type of the last revealed Training pile"),
            F("training_count", 1, "its size", 3),
            F("hand_size", 1, "cards held now (draft hand or cards to assign)", 12),
            F("picks", 1, "cards drafted this round", 9),
            H("ability", 6, "Expert Ability"),
            F("ability_used", 1, "once-per-game ability spent"),
            H("act2_status", 3, "in the vault, fled, busted (none before Act II)"),
            F("vault_pile", 9, "Act II loot held per token type", 10),
            H("last_draw", 10, "token revealed this Act II round (9 loot types, Cops)"),
            F("committed", 1, "has made its secret choice in the open window"),
        ), "relative seat i (0 = me, 1 = the player on my left, ...)"),
        F("vault.cops_on_track", 1, "Cops tokens on the track", 7),
        F("vault.cops_to_bust", 1, "Cops tokens still needed to bust", 7),
        F("vault.floor", 9, "Vault Floor per loot type", 5),
        F("vault.bag", 10, "vault bag per token type (public by counting)", 10),
        F("vault.bag_total", 1, "tokens in the bag", 62),
        F("vault.p_cop", 1, "chance that one draw is a Cops token"),
        F("cards.crew_revealed", 12, "crew cards revealed face-up this game per kind", 15),
        F("cards.jobs_seen", 24, "job ids dealt face-up so far"),
        F("cards.crew_deck_left", 1, "cards left in the crew deck", 90),
        H("me.current_card", 12, "kind I am assigning now"),
        F("me.hand", 12, "my hand per kind (draft hand held, or cards still to assign)", 9),
        F("me.picks", 12, "my picks this round per kind", 9),
        H("me.pending_pick", 12, "kind I picked in the open draft window"),
        F("me.assign_job", 36, "my cards assigned [position x crew type] (capped at 1)", 6),
        F("me.assign_training", 6, "my Training pile this round per type", 3),
        F("me.assign_unassigned", 6, "my Unassigned pile per type (capped at 1)", 9),
        F("me.returned", 12, "training cards that came back to my hand this round", 3),
        H("me.pending_rob_flee", 2, "my secret choice this round: rob, flee"),
        H("me.pending_joat", 3, "my secret JoAT choice: 0, 1, 2"),
        F("me.score_now", 1, "my score ($10K) if the game ended now, all Act II loot safe",
          300),
        F("me.value_at_risk", 1, "what my Act II loot adds to that score", 300),
    ])


def _draft_label(k: int) -> str:
    return f"draft {C.KIND_NAMES[k]}"


def build_action_layout() -> ActionLayout:
    R_ = ActionRange
    loot = C.TOKEN_NAMES[:C.NUM_LOOT]
    return ActionLayout([
        R_("DRAFT_PICK", 12, _draft_label, "take one card of this kind from the hand I hold"),
        R_("ASSIGN_JOB", 6, lambda i: f"assign card -> job {i + 1}",
           "send the current card to job position 1..6 (its type's icon must be on the job)"),
        R_("ASSIGN_TRAINING", 1, lambda i: "assign card -> training",
           "current Expert card to Training (same type, at most 3)"),
        R_("ASSIGN_UNASSIGNED", 1, lambda i: "assign card -> unassigned",
           "current card left unassigned (discarded face-down at cleanup)"),
        R_("JOAT_REVEAL", 3, lambda i: f"reveal {i} JoAT", "reveal 0, 1 or 2 JoAT tokens"),
        R_("ROB", 1, lambda i: "rob the vault", "draw one token from the vault"),
        R_("FLEE", 1, lambda i: "flee the vault", "leave with my loot"),
        R_("BOSS_TOKEN", 1, lambda i: "take the boss board's token", "starting option: token"),
        R_("BOSS_CASH", 1, lambda i: "take the boss board's cash", "starting option: cash"),
        R_("MUSCLE_STEAL", 1, lambda i: "Muscle: steal the marker",
           "take the First Player Marker"),
        R_("MUSCLE_PASS", 1, lambda i: "Muscle: don't steal", "keep the ability"),
        R_("TRADE_PASS", 1, lambda i: "keep the drawn token", "no trade this round"),
        R_("TRADE_TAKE", 9, lambda i: f"trade for {loot[i]}",
           "swap the token just drawn for a Floor token of this type"),
        R_("CONMAN_TRADE", 81, lambda i: f"Con Man: give {loot[i // 9]}, take {loot[i % 9]}",
           "id 39 + 9*give + take: trade an earlier vault token instead"),
        R_("GUN_DECLINE", 1, lambda i: "Gun Man: don't steal", "keep the ability"),
        R_("GUN_STEAL", 9, lambda i: f"Gun Man: steal {loot[i]}", "take a Floor token"),
        R_("GREASE_STEAL", 9, lambda i: f"Grease Man: steal {loot[i]}",
           "on fleeing, take a Floor token"),
    ])
