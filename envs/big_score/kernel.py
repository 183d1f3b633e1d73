"""The Big Score on the compiled core: the `Game` (options, layouts, determinization, text)
over the scalar rules of `rules.py`, which read top to bottom like the rulebook.

The batch state is one structured array of `rules.STATE_FIELDS` records; `BigScoreState`
shows each field as a view with the batch axis first (`state.hands` is [B, N, 12]).
"""

from __future__ import annotations

from collections.abc import Callable
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
    variants: ClassVar[dict[str, dict]] = {"solo": {"num_players": 1}}
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
    # a JoAT window: plain replays of the round's draft drawn for one that agrees with the
    # reveals so far, then replays built to agree (README › Determinization: how often each)
    REVEAL_TRIES: ClassVar[int] = 32
    PLANT_TRIES: ClassVar[int] = 8
    STATE_FIELDS = R.STATE_FIELDS
    CONFIG_FIELDS = R.CONFIG_FIELDS
    state_cls = BigScoreState
    rules_folder = R.HERE

    def __new__(cls, **options: object) -> CompiledGame:
        """`num_players=1` is the solo game: a game of its own (`solo_kernel`)."""
        if cls is BigScoreGame and options.get("num_players") == 1:
            return cls.class_for(1)(**options)
        return super().__new__(cls)

    @classmethod
    def class_for(cls, num_players: int) -> type[CompiledGame]:
        if cls is BigScoreGame and num_players == 1:
            from .solo_kernel import BigScoreSoloGame

            return BigScoreSoloGame
        return cls

    @classmethod
    def option_spec(cls) -> dict[str, Option]:
        spec = super().option_spec()
        n = spec["num_players"]
        spec["num_players"] = Option(n.default, "number of players (1: the solo game, whose "
                                     "options are `solo_kernel.BigScoreSoloGame`'s)",
                                     choices=(1, *n.choices))
        return spec

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
        C.configure_jobs(c, self.jobs)
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
        that passed through his hands is where the draft took it, and in a JoAT window each
        opponent's cards of the round hold those he has revealed on this round's jobs so far
        (README › Determinization).
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
        if not (s.phase[b] in (DRAFT, ASSIGN, JOAT) and self._redraft(s, b, me, r)):
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
    def _packets(self, s: BigScoreState,
                 b: int) -> tuple[np.ndarray, int, int, np.ndarray] | None:
        """This round's draft as the rules played it: `content[k, t]` [n, h, 12] is the hand
        dealt to seat k as it stood at pick step t (before that step's pick), for every step
        whose hands were held (t <= last); with the pass direction, `last`, and `shown`
        [n, 12], the cards each seat has revealed on this round's jobs (none before a JoAT
        window). None if the state did not come from a dealt round (a crafted position)."""
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
        shown = np.zeros((n, 12), np.int64)
        for k in range(n):
            q = (k + d * last) % n
            if s.phase[b] == DRAFT:
                if (s.hands[b, q] != content[k, last]).any() or (s.picks[b, q] != took[q]).any():
                    return None
                continue
            shown[q] = took[q] + s.returned[b, q] - s.ahand[b, q] - s.assign[b, q].sum(axis=0)
            if (shown[q] < 0).any() or shown[q].sum() != s.contrib[b, q].sum():
                return None
        face_up = s.pile[b].sum(axis=1) - (s.inside[b] >= 0)  # the seats' cards on each job
        if (face_up != s.contrib[b, :n].sum(axis=0)).any():
            return None
        return content, d, last, shown

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
        """This round's draft replayed (`_replay`), then each opponent's cards of the round
        put back: his hand and picks while drafting, else his face-down cards (less those he
        has revealed, in a JoAT window: `_replay_to_reveals`) as the rules allow. False if
        there is no draft to replay, or no replay agrees with the reveals."""
        found = self._packets(s, b)
        if found is None:
            return False
        content, d, last, shown = found
        n, h = self.num_players, self.hand_size
        phase = int(s.phase[b])
        if phase == JOAT:
            agreed = self._replay_to_reveals(s, b, me, content, d, last, shown, r)
            if agreed is None:
                return False
            (deal, log, now, unseen), seen = agreed
        else:
            deal, log, now, unseen = self._replay(s, b, me, content, d, last, r)
            seen = np.zeros((n, 12), np.int64)
        took = self._taken(log, now, d, last)
        start = int(s.deal_ptr[b])
        s.crew_deck[b, start:start + n * h] = deal
        s.pick_log[b, :n] = log
        opp = [q for q in range(n) if q != me]
        pos = 0
        for q in opp:
            size = int(s.trash[b, q].sum())
            s.trash[b, q] = np.bincount(unseen[pos:pos + size], minlength=12)
            pos += size
        s.crew_deck[b, s.crew_ptr[b]:] = unseen[pos:]
        if phase == DRAFT:
            for k in range(n):
                q = (k + d * last) % n
                if q != me:
                    s.hands[b, q], s.picks[b, q] = now[k], took[q]
            return True
        for q in opp:
            self._replace_round(s, b, q, took[q] + s.returned[b, q] - seen[q], r)
        return True

    def _sights(self, me: int, d: int, last: int) -> list[list[int]]:
        """The pick steps up to `last` at which `me` held each hand."""
        n = self.num_players
        return [[t for t in range(last + 1) if (k + d * t) % n == me] for k in range(n)]

    def _unseen(self, s: BigScoreState, b: int, me: int, content: np.ndarray,
                sights: list[list[int]]) -> np.ndarray:
        """[12]: the crew cards `me` has not seen: the deck, the opponents' earlier face-down
        discards, and the cards of this round's deal he never held."""
        known = sum(content[k, ks[0]] for k, ks in enumerate(sights) if ks)
        opp = [q for q in range(self.num_players) if q != me]
        return (np.bincount(s.crew_deck[b, s.crew_ptr[b]:].astype(np.int64), minlength=12)
                + s.trash[b, opp].sum(axis=0) + content[:, 0].sum(axis=0) - known)

    def _replay(self, s: BigScoreState, b: int, me: int, content: np.ndarray, d: int,
                last: int, r: np.random.Generator, given: dict[tuple[int, int], int] | None = None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One draft `me` cannot tell from the true one (`content`, `d`, `last` as
        `_packets` gives them): every hand he held holds what it held; a hand before he first
        held it lost cards drawn from the unseen ones; the cards he passed on leave it one per
        step to the seats it passes, in a random order (up to the next time he holds it
        again, which fixes the set); a hand he never held is drawn whole from the unseen
        cards. Each opponent's picks are uniformly random among the cards so placed, but for
        the cards `given` {(hand, step): kind} (`_plant_reveals`). Returns the deal (kinds in
        deck order), the picks (as `pick_log`), the hands as they stand at `last` [n, 12],
        and the unseen cards left over, shuffled (the opponents' earlier discards, then the
        deck)."""
        n, h = self.num_players, self.hand_size
        given = given or {}
        holder = lambda k, t: (k + d * t) % n  # noqa: E731
        sights = self._sights(me, d, last)
        pool = self._unseen(s, b, me, content, sights)
        for (k, t), kind in given.items():
            if not sights[k] or t < sights[k][0]:
                pool[kind] -= 1  # a given card from the unseen ones
        cards = r.permutation(np.repeat(np.arange(12), pool))
        pos = 0
        log = s.pick_log[b, :n].astype(np.int64)
        deal = np.zeros(n * h, np.int64)
        now = np.zeros((n, 12), np.int64)
        for k in range(n):
            first = sights[k][0] if sights[k] else last + 1
            early = np.zeros(first if sights[k] else h, np.int64)  # before he first held it
            for t in range(early.size):
                if (k, t) in given:
                    early[t] = given[k, t]
                else:
                    early[t], pos = cards[pos], pos + 1
            hand = (content[k, first].copy() if sights[k]
                    else np.zeros(12, np.int64)) + np.bincount(early, minlength=12)
            deal[k * h:(k + 1) * h] = r.permutation(np.repeat(np.arange(12), hand))
            for t in range(last):
                q = holder(k, t)
                if q == me:
                    kind = int(log[me, t])
                elif t < first:
                    kind = int(early[t])
                elif (k, t) in given:
                    kind = given[k, t]
                else:
                    later = [u for u in sights[k] if u > t]
                    left = hand - content[k, later[0]] if later else hand.copy()
                    for u in range(t + 1, later[0] if later else last + 1):
                        if (k, u) in given:  # kept for a later seat of this stretch
                            left[given[k, u]] -= 1
                    kind = int(r.choice(12, p=left / left.sum()))
                log[q, t] = kind
                hand[kind] -= 1
            now[k] = hand
        return deal, log, now, cards[pos:]

    # -- a JoAT window: the replay must agree with the reveals so far ---------------------------
    def _replay_to_reveals(self, s: BigScoreState, b: int, me: int, content: np.ndarray,
                           d: int, last: int, shown: np.ndarray, r: np.random.Generator
                           ) -> tuple[tuple[np.ndarray, ...], np.ndarray] | None:
        """A replay of the draft (as `_replay` gives it) in which the seats can have revealed
        what this round's jobs show, with the cards each seat revealed [n, 12]: the first of
        `REVEAL_TRIES` plain replays that agrees (`_split_reveals`), else one of
        `PLANT_TRIES` built to agree (`_plant_reveals`); None if none is found."""
        n = self.num_players
        for _ in range(self.REVEAL_TRIES):
            world = self._replay(s, b, me, content, d, last, r)
            held = self._taken(world[1], world[2], d, last) + s.returned[b, :n]
            seen = self._split_reveals(s, b, me, shown, held, r)
            if seen is not None:
                return world, seen
        for _ in range(self.PLANT_TRIES):
            planted = self._plant_reveals(s, b, me, content, d, last, shown, r)
            if planted is not None:
                given, seen = planted
                return self._replay(s, b, me, content, d, last, r, given), seen
        return None

    def _share_out(self, s: BigScoreState, b: int, me: int, most: np.ndarray,
                   fits: Callable[[np.ndarray, bool], bool],
                   r: np.random.Generator) -> np.ndarray | None:
        """[n, 6]: the cards each seat revealed on this round's jobs by type, in one way that
        the public record allows (each revealed job's pile by type, less the Inside Man card,
        and how many cards each seat sent to it), each seat q at most `most[q]` [6] by type,
        `fits` as `share_piles` calls it; None if there is none. `me`'s share first: his
        cards are the best known (which of them went to which job is his memory, not the
        state's, so they are shared out with the others')."""
        n = self.num_players
        sent = s.contrib[b, :n].astype(np.int64)
        jobs = np.flatnonzero(sent.sum(axis=0))
        piles = s.pile[b, jobs].astype(np.int64)
        for i, p in enumerate(jobs):
            if s.inside[b, p] >= 0:
                piles[i, s.inside[b, p]] -= 1
        order = [me] + [q for q in range(n) if q != me]
        back = np.argsort(order)
        types = share_piles(piles, sent[order][:, jobs], most[order],
                            lambda totals, done: fits(totals[back], done), r)
        return None if types is None else types[back]

    def _split_reveals(self, s: BigScoreState, b: int, me: int, shown: np.ndarray,
                       held: np.ndarray, r: np.random.Generator) -> np.ndarray | None:
        """[n, 12]: what each seat revealed on this round's jobs in a world whose draft gave
        each opponent `held` [n, 12] this round (`me`'s row: `shown[me]`), drawn at random
        from the ways the public record allows (`_share_out`, then `share_experts`), or None
        if there is none: the piles show types per job, and the kinds revealed in all
        (`shown` summed: the face-up count grew by it and the Inside Man cards)."""
        cards = held.copy()
        cards[me] = shown[me]
        plain, expert = cards[:, 0::2], cards[:, 1::2]
        experts = shown[:, 1::2].sum(axis=0)
        types = self._share_out(s, b, me, plain + expert,
                                lambda t, done: not done or experts_fit(t, plain, expert, experts),
                                r)
        return None if types is None else share_experts(types, plain, expert, experts, r)

    def _plant_reveals(self, s: BigScoreState, b: int, me: int, content: np.ndarray, d: int,
                       last: int, shown: np.ndarray, r: np.random.Generator
                       ) -> tuple[dict[tuple[int, int], int], np.ndarray] | None:
        """The revealed cards placed into the draft first, for a replay that agrees with the
        reveals when plain replays rarely do (most cards of the round revealed). Each
        opponent's places in the draft: the steps at which a hand gave him a card, one of
        the unseen cards (before `me` first held it) or one of the cards that left it
        between two times `me` held it (or after the last). The reveals are shared out among
        the seats (`_share_out`) only as far as those places can give each his share
        (`place_cards`, by type while sharing, then by kind), less his Training cards taken
        back. Returns the cards given {(hand, step): kind} and what each seat revealed
        [n, 12]; None if no way was found."""
        n = self.num_players
        holder = lambda k, t: (k + d * t) % n  # noqa: E731
        sights = self._sights(me, d, last)
        sources = [self._unseen(s, b, me, content, sights)]
        places = []  # (hand, step, seat, source)
        for k in range(n):
            for t in range(last + 1):
                before = [u for u in sights[k] if u < t]
                if holder(k, t) == me:
                    continue
                if before and before[-1] == t - 1:  # the cards that leave hand k from now on
                    after = [u for u in sights[k] if u > t]
                    sources.append(content[k, t] - (content[k, after[0]] if after else 0))
                places.append((k, t, holder(k, t), len(sources) - 1 if before else 0))
        back = s.returned[b, :n].astype(np.int64)
        back_types = back[:, 0::2] + back[:, 1::2]
        most = back.copy()  # the most of each kind (type) each seat can have, not counting
        most_types = back_types.copy()  # that each place gives one card only
        for _k, _t, q, i in places:
            most[q] += sources[i] > 0
            most_types[q] += (sources[i][0::2] + sources[i][1::2]) > 0
        most[me], most_types[me] = shown[me], shown[me, 0::2] + shown[me, 1::2]
        by_type = [x[0::2] + x[1::2] for x in sources]
        plain, expert = most[:, 0::2], most[:, 1::2]
        experts = shown[:, 1::2].sum(axis=0)
        found = {}

        def fits(types: np.ndarray, done: bool) -> bool:
            need = np.maximum(types - back_types, 0)
            need[me] = 0
            if not done:
                return place_cards(need, places, by_type, r) is not None
            if not experts_fit(types, plain, expert, experts):
                return False
            for _ in range(self.PLANT_TRIES):
                seen = share_experts(types, plain, expert, experts, r)
                need = np.maximum(seen - back, 0)
                need[me] = 0
                given = place_cards(need, places, sources, r)
                if given is not None:
                    found["given"], found["seen"] = given, seen
                    return True
            return False

        if self._share_out(s, b, me, most_types, fits, r) is None:
            return None
        given = {(places[i][0], places[i][1]): kind for i, kind in found["given"].items()}
        return given, found["seen"]

    # -- otherwise: one pool of the unseen cards ---------------------------------------------
    def _redeal_pool(self, s: BigScoreState, b: int, me: int, r: np.random.Generator) -> None:
        """The crew cards outside a draft to replay (Act II, a crafted position, a JoAT
        window that no replay agrees with): one pool of the deck, the opponents' draft hands,
        picks, earlier face-down discards and this round's unrevealed cards, dealt back in the
        same numbers. A consistent superset (README › Determinization): it does not condition
        on the draft hands `me` saw."""
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


# == sharing out the revealed cards (resample_hidden in a JoAT window) =============================
def count_vectors(most: np.ndarray, size: int) -> list[np.ndarray]:
    """Every count vector x <= `most` (elementwise) of total `size`."""
    if most.size == 1:
        return [np.array([size])] if size <= most[0] else []
    out = []
    for x in range(min(int(most[0]), size) + 1):
        out += [np.concatenate(([x], rest)) for rest in count_vectors(most[1:], size - x)]
    return out


def share_piles(piles: np.ndarray, sent: np.ndarray, most: np.ndarray,
                fits: Callable[[np.ndarray, bool], bool],
                r: np.random.Generator) -> np.ndarray | None:
    """[n, types]: the cards each seat sent, by type, in one way to share out the job piles
    `piles` [J, types] so that seat q sent `sent[q, j]` cards to job j and `most[q]` at most
    by type in all; `fits(totals, done)` must hold for the totals so far (done: all shared).
    A depth-first search that tries each seat's shares in a random order: whether a way
    exists is exact (as far as `fits` is), the way found is random (not uniform)."""
    n, jobs = sent.shape
    dead: set[bytes] = set()  # (job, seat, pile left, totals) already searched in vain

    def search(j: int, q: int, left: np.ndarray, totals: np.ndarray) -> np.ndarray | None:
        if q == n:
            if j + 1 == jobs:
                return totals if fits(totals, True) else None
            j, q, left = j + 1, 0, piles[j + 1]
        key = bytes([j, q]) + left.tobytes() + totals.tobytes()
        if key in dead:
            return None
        shares = count_vectors(np.minimum(left, most[q] - totals[q]), int(sent[q, j]))
        for i in r.permutation(len(shares)):
            more = totals.copy()
            more[q] += shares[i]
            if sent[q, j] and not fits(more, False):
                continue
            found = search(j, q + 1, left - shares[i], more)
            if found is not None:
                return found
        dead.add(key)
        return None

    return search(0, 0, piles[0], np.zeros_like(most)) if jobs else np.zeros_like(most)


def experts_fit(types: np.ndarray, plain: np.ndarray, expert: np.ndarray,
                experts: np.ndarray) -> bool:
    """Whether `experts` [6] Expert cards of each type can be among the cards `types`
    [n, 6] the seats revealed, seat q having at most `plain[q]`, `expert[q]` [6] of each."""
    lo = np.maximum(types - plain, 0).sum(axis=0)
    hi = np.minimum(types, expert).sum(axis=0)
    return bool(((lo <= experts) & (experts <= hi)).all())


def share_experts(types: np.ndarray, plain: np.ndarray, expert: np.ndarray,
                  experts: np.ndarray, r: np.random.Generator) -> np.ndarray:
    """[n, 12]: the revealed cards `types` [n, 6] by kind, the `experts` [6] Expert cards of
    each type shared among the seats at random as `experts_fit` allows."""
    n = types.shape[0]
    out = np.zeros((n, 12), np.int64)
    for t in range(6):
        lo = np.maximum(types[:, t] - plain[:, t], 0)
        hi = np.minimum(types[:, t], expert[:, t])
        left = int(experts[t])
        for q in range(n):
            e = r.integers(max(lo[q], left - hi[q + 1:].sum()),
                           min(hi[q], left - lo[q + 1:].sum()) + 1)
            out[q, 2 * t], out[q, 2 * t + 1] = types[q, t] - e, e
            left -= e
    return out


def place_cards(need: np.ndarray, places: list[tuple[int, int, int, int]],
                sources: list[np.ndarray], r: np.random.Generator,
                budget: int = 300) -> dict[int, int] | None:
    """{place: card}: where the draft gave each seat q the cards `need[q]` [n, m] (by kind
    or by type): each card at one of q's `places` (hand, step, seat, source), each place
    giving one card, from `sources[source]` [m] while it still has one. A random
    depth-first search, the card with the fewest places first; None if it finds no way
    within `budget` steps."""
    left = [x.copy() for x in sources]
    cards = [(q, k) for q, k in zip(*np.nonzero(need)) for _ in range(need[q, k])]
    cards = [cards[i] for i in r.permutation(len(cards))]
    mine = {q: [i for i, place in enumerate(places) if place[2] == q] for q, _ in cards}
    given: dict[int, int] = {}
    steps = 0

    def search(todo: list[tuple[int, int]]) -> bool:
        nonlocal steps
        if not todo:
            return True
        steps += 1
        if steps > budget:
            return False
        free = [[i for i in mine[q] if i not in given and left[places[i][3]][k] > 0]
                for q, k in todo]
        j = min(range(len(todo)), key=lambda i: len(free[i]))
        k = int(todo[j][1])
        for i in r.permutation(free[j]):
            i = int(i)
            given[i] = k
            left[places[i][3]][k] -= 1
            if search(todo[:j] + todo[j + 1:]):
                return True
            left[places[i][3]][k] += 1
            del given[i]
        return False

    return given if search(cards) else None


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
