"""The Big Score solo game on the compiled core: the `Game` (options, layouts, determinization,
text) over the scalar rules of `solo_rules.py`.

`big_score_v1.Game(num_players=1, scenario=...)` builds it: a single-agent game with its own
state, actions and observation, and the scenario's objective as its reward.
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
from . import solo_rules as R
from .kernel import H  # a one-hot field
from .solo_rules import (  # noqa: F401  (the ids, for the bot, the renderer and the tests)
    A_BRIBE,
    A_BUY_HD,
    A_CHOOSE,
    A_DISCARD,
    A_DONE,
    A_DRAW_ONE,
    A_FLEE,
    A_KEEP,
    A_KEEP_TOKEN,
    A_PAY_PLACE,
    A_PAY_SHUFFLE,
    A_PLACE,
    A_PLACE_JOAT,
    A_REMOVE_TOKEN,
    A_REMOVE_TYPE,
    A_REVEAL,
    A_ROB,
    A_SCOUT,
    A_TRAITOR,
    ACT2,
    BETRAY,
    BRIBE,
    BUY_HD,
    CHOOSE_TYPE,
    CREW_DOES,
    CRYPTO,
    DECISION_NAMES,
    DIAMOND_THIEF,
    HEAT,
    JOAT_SHOW,
    KEEP,
    KEEP_TOKEN,
    MANIPULATE,
    NONE,
    OVER,
    PAID,
    PAINTINGS,
    PLACE,
    PLUNDER,
    REMOVE_TOKEN,
    REMOVE_TYPE,
    REVEAL,
    ROB_FLEE,
    ROUND1,
    ROUND3,
    SCENARIOS,
    TRAITOR,
)

SCENARIO_CHOICES = (*SCENARIOS, "random")
SCENARIO_TITLES = ("The Biggest Score", "The Biggest Score ($2M)", "Diamond Thief",
                   "The 5 Magic Paintings", "The Jack of All Trades Show", "Crypto Currency",
                   "The Heat Is On", "Simultaneous Plunder", "Betray the Traitor",
                   "This Crew Does What It Takes")
OBJECTIVES = ("at least $1.5M in cash and assets", "at least $2M in cash and assets",
              "11 or more Diamonds (black market: 3 Artifacts or $250K each)",
              "5 or more Artifacts and at least $500K in cash",
              "at least $1.5M in cash and assets", "4 unlocked Hard Drives",
              "at least 8 jobs completed and more than $1.5M",
              "at least $1.5M in cash and assets", "at least $1.2M in cash and assets",
              "$800K in cash and bars, 3 Diamonds, 3 Artifacts and 3 unlocked Hard Drives")


class BigScoreSoloState(RecordState):
    """A batch of solo games: the public fields, then `solo_rules.STATE_FIELDS`."""


class BigScoreSoloGame(CompiledGame):
    """The Big Score solo game (RB › Solo Rules), one of nine scenarios per game."""

    name: ClassVar[str] = "big_score_v1"
    title: ClassVar[str] = "The Big Score (solo)"
    version: ClassVar[int] = 1
    player_counts: ClassVar[tuple[int, ...]] = (1,)
    variant: ClassVar[str] = "solo"
    score_scale: ClassVar[float] = 100.0
    GAME_OPTIONS: ClassVar[dict[str, Option]] = {
        "scenario": Option("biggest_score", "the solo scenario (RB › Solo Scenarios), or "
                           "'random': one drawn per game, shown in the observation",
                           SCENARIO_CHOICES),
        "job_table": Option("reconstructed_v1", "job cards: a table name or a CSV path",
                            check=lambda v: isinstance(v, str), allowed="a table name or path"),
    }
    STATE_FIELDS = R.STATE_FIELDS
    CONFIG_FIELDS = R.CONFIG_FIELDS
    state_cls = BigScoreSoloState
    rules_folder = R.HERE
    cache_name = "big_score_solo"

    @classmethod
    def drivers(cls) -> ModuleType:
        return R.DRIVERS

    @classmethod
    def option_spec(cls) -> dict[str, Option]:
        spec = super().option_spec()
        spec["reward"] = Option(spec["reward"].default, "terminal reward: 'win_loss' (+1 when "
                                "the scenario's objective is met, else -1), 'score' (the take "
                                "/ $1M) or 'rank' (as win_loss)", spec["reward"].choices)
        return spec

    def _setup(self) -> None:
        self.jobs = C.load_job_table(self.options["job_table"])
        self.observation_layout = build_observation_layout()
        self.action_layout = build_action_layout()

    def _configure(self, c: np.void) -> None:
        s = self.options["scenario"]
        c["scenario"] = SCENARIO_CHOICES.index(s)
        C.configure_jobs(c, self.jobs)

    def default_max_steps(self) -> int:
        """Every turn takes a card from the decks for good; the paid loops are bounded by the
        cash ($10K each), and every robbery takes a token from the bag for good."""
        return 4000

    # -- views on the tally --------------------------------------------------------------------
    def objective_met(self, state: BigScoreSoloState) -> np.ndarray:
        """bool [B]: the scenario's objective is met (meaningful once over)."""
        return self.rank_keys(state)[:, 0] > 0

    def final_info(self, s: BigScoreSoloState, b: int = 0) -> dict:
        """The scenario, whether its objective was met, the take and whether I was busted."""
        sc = int(s.scenario[b])
        return {"scenario": SCENARIOS[sc], "objective": OBJECTIVES[sc],
                "objective_met": bool(self.objective_met(s[b])[0]),
                "take": int(self.scores(s[b])[0, 0]), "busted": bool(s.busted[b]),
                "jobs_done": int(s.jobs_done[b])}

    def conserved(self, s: BigScoreSoloState) -> dict[str, np.ndarray]:
        """Crew cards (90) and vault tokens (62) are never created or destroyed."""
        i64 = np.int64
        removed = np.where(s.removed_type >= 0, 15, 0)
        # before the removal choice nothing is dealt: count the deck as it will be
        dealt = (s.deck_len.sum(1, dtype=i64) + s.hand.sum(1, dtype=i64)
                 + s.placed.sum((1, 2), dtype=i64) + s.discarded + s.aside.sum(1, dtype=i64)
                 + s.row.sum(1, dtype=i64) + removed)
        cards = np.where(s.phase == REMOVE_TYPE, C.CREW_DECK_SIZE, dealt)
        tokens = (s.bag.sum(1, dtype=i64) + s.job_tokens.sum((1, 2), dtype=i64)
                  + s.vault_pile.sum(1, dtype=i64) + s.drawn.sum(1, dtype=i64)
                  + s.cops_track + s.tokens_out + s.row_tokens.sum((1, 2), dtype=i64)
                  + ((s.pending >= 0) & (s.pending != C.COPS)))
        return {"crew cards": cards.astype(i64), "vault tokens": tokens.astype(i64)}

    # -- views ----------------------------------------------------------------------------------
    def render(self, s: BigScoreSoloState, b: int = 0, player: int | None = None) -> str:
        from .render import render_solo

        return render_solo(self, s, b)

    def resample_hidden(self, state: BigScoreSoloState, player: int | np.ndarray,
                        seeds: int | np.ndarray) -> BigScoreSoloState:
        """Redraw what the solo player cannot know: the order of the crew decks and which
        unseen cards lie in which deck (the deck sizes and the cards he shuffled in kept), the
        face-down jobs he has not scouted and the job deck (Crypto Currency: its Hard Drive
        jobs stay in the deck), and the future bag draws (a fresh key)."""
        out = state.copy()
        B = out.batch_size
        keys = np.broadcast_to(rng.seed_keys(seeds), (B,)).copy()
        for b in range(B):
            if out.terminated[b] or out.truncated[b]:
                continue
            r = np.random.default_rng(int(keys[b]))
            self._redeal_crew(out, b, r)
            self._redeal_jobs(out, b, r)
        out.key = keys
        out.bag_ptr = out.misc_ptr = 0
        out.stacked_len = out.stacked_pos = 0
        return self.refresh_masks(out)

    def _redeal_crew(self, s: BigScoreSoloState, b: int, r: np.random.Generator) -> None:
        """The unseen cards of every deck, pooled and dealt back at the same deck sizes; the
        cards he shuffled into a deck and has not drawn back stay in it."""
        lens = s.deck_len[b].astype(int)
        known = s.known[b].astype(int)
        pool = np.concatenate([s.decks[b, d, :lens[d]] for d in range(3)]).astype(int)
        counts = np.bincount(pool, minlength=6) - known.sum(0)
        unseen = np.repeat(np.arange(6), np.maximum(counts, 0))
        unseen = unseen[r.permutation(unseen.size)]
        used = 0
        for d in range(3):
            own = np.repeat(np.arange(6), known[d])
            fill = lens[d] - own.size
            deck = np.concatenate([own, unseen[used:used + fill]])
            used += fill
            s.decks[b, d, :lens[d]] = deck[r.permutation(deck.size)]

    def _redeal_jobs(self, s: BigScoreSoloState, b: int, r: np.random.Generator) -> None:
        """The jobs he has not seen: the face-down ones unscouted, the rest of the deck and
        the six left out, permuted among those places."""
        ptr = int(s.job_ptr[b])
        places = [("pos", p) for p in range(3, 6)
                  if s.jobs[b, p] >= 0 and s.face_down[b, p] and not s.scouted[b, p]]
        places += [("deck", i) for i in range(ptr, 24)]
        ids = np.array([s.jobs[b, i] if w == "pos" else s.job_deck[b, i] for w, i in places])
        in_deck = np.array([w == "pos" or i < 18 for w, i in places])
        if s.scenario[b] == CRYPTO:  # the Hard Drive jobs are in the 18
            hd = self.jobs.token[ids] == C.HARD_DRIVE
            slots = np.flatnonzero(in_deck)
            deck_hd = r.choice(slots, int(hd.sum()), replace=False)
            new = np.full(ids.size, -1)
            new[deck_hd] = r.permutation(ids[hd])
            rest = np.flatnonzero(new < 0)
            new[rest] = r.permutation(ids[~hd])
        else:
            new = ids[r.permutation(ids.size)]
        for (w, i), j in zip(places, new):
            if w == "pos":
                s.jobs[b, i] = j
            else:
                s.job_deck[b, i] = j


# == layouts =======================================================================================
def build_observation_layout() -> ObservationLayout:
    """The observation, in the column order `solo_rules.observe` writes it."""
    F = Field
    return ObservationLayout([
        H("meta.scenario", R.NUM_SCENARIOS, "the scenario: " + ", ".join(SCENARIOS)),
        H("meta.stage", 6, "setup, round 1, round 2, round 3, Act II, game over"),
        H("meta.decision", R.NUM_DECISIONS, "decision pending: " + ", ".join(DECISION_NAMES)),
        F("me.cash", 1, "cash in the supply ($10K, capped at 1)", 120),
        F("me.payout", 3, "Act I Artifacts, Diamonds, Hard Drives", 10),
        F("me.hand", 6, "crew cards in my hand per type", 15),
        F("me.kept", 6, "cards paid to keep this turn per type", 15),
        H("me.chosen_type", 6, "crew type chosen in Phase 2"),
        H("me.removed_type", 6, "crew type removed at setup"),
        F("me.joat", 1, "wildcard Jack of All Trades tokens left", 6),
        F("me.jobs_done", 1, "jobs completed", 18),
        F("me.reveals_owed", 1, "face-down jobs I may still reveal this turn", 6),
        F("me.take", 1, "my take now ($10K, capped at 1)", 300),
        F("cards.deck_size", 3, "cards in the crew decks of rounds 1..3", 90),
        F("cards.unseen", 6, "crew cards per type not drawn yet (in some deck)", 15),
        F("cards.shuffled_in", 6, "cards I shuffled into a later deck, not drawn back", 15),
        F("cards.discarded", 1, "crew cards discarded", 90),
        Block("job", 6, (
            H("status", 3, "empty, open, completed"),
            F("face_down", 1, "lies face-down"),
            F("scouted", 1, "face-down, and I looked at it"),
            F("req", 6, "crew icons per type (a job I can see)", 3),
            F("cash", 1, "cash reward ($10K)", 5),
            H("token", 3, "payout token: Artifact, Diamond, Hard Drive"),
            F("missing", 1, "icons still missing (face-up jobs)", 6),
            F("placed", 6, "crew cards on it per type", 3),
            F("joat", 1, "wildcards on it", 6),
            F("tokens", 10, "The Heat Is On: vault tokens on it per type", 2),
        ), "the job at position i+1 (1-3 dealt face-up, 4-6 face-down)"),
        F("cards.jobs_seen", 24, "job ids I have seen"),
        F("vault.bag", 10, "vault bag per token type (public by counting)", 10),
        F("vault.bag_total", 1, "tokens in the bag", 62),
        F("vault.cops_on_track", 1, "Cops on the track (capped at 1)", 5),
        F("vault.drawn", 10, "the current draw per token type", 3),
        F("vault.pile", 9, "vault loot I kept per type", 10),
        F("vault.bribe_cash", 1, "cash that may bribe ($10K, capped at 1)", 30),
        F("vault.to_bribe", 1, "Cops of this draw that may be bribed", 2),
        Block("crew_row", 6, (
            F("present", 1, "a crew card of this type is in the row"),
            F("tokens", 10, "tokens on it per type (capped at 1)", 10),
        ), "Betray the Traitor: the crew card of type i in the row"),
        F("betray.aside", 6, "crew cards set aside from completed jobs per type", 15),
        H("betray.pending", 10, "token to put on a crew card"),
        Block("traitor", 2, (H("type", 6, "crew type"),),
              "Betray the Traitor: the crew cards drawn on fleeing"),
    ])


def build_action_layout() -> ActionLayout:
    A = ActionRange
    types, loot = C.CREW_TYPES, C.TOKEN_NAMES[:C.NUM_LOOT]
    layout = ActionLayout([
        A("DISCARD_TYPE", 6, lambda i: f"pay 10K: discard every {types[i]}, draw as many",
          "Phase 1: pay $10K, discard every card of a type and draw as many"),
        A("DRAW_ONE", 1, lambda i: "pay 10K: draw one card", "Phase 1: pay $10K, draw a card"),
        A("SCOUT", 3, lambda i: f"pay 30K: look at job {i + 4}",
          "Phases 1-2: pay $30K to look at a face-down job"),
        A("DONE", 1, lambda i: "done", "end the current loop (manipulate, extras, keep, buy)"),
        A("CHOOSE_TYPE", 6, lambda i: f"assign every {types[i]}",
          "Phase 2: the type whose cards all go on jobs (the unplaceable ones are discarded)"),
        A("PLACE", 6, lambda i: f"place the chosen card on job {i + 1}",
          "Phase 2: one card of the chosen type onto a job that still needs it"),
        A("PAY_PLACE", 36, lambda i: f"pay 10K: {types[i // 6]} -> job {i % 6 + 1}",
          "id 23 + 6*type + position: pay $10K to place one more card"),
        A("PAY_SHUFFLE", 6, lambda i: f"pay 10K: shuffle a {types[i]} into the next deck",
          "pay $10K to shuffle a card into the next round's deck (rounds 1-2)"),
        A("PLACE_JOAT", 6, lambda i: f"put a Jack of All Trades on job {i + 1}",
          "a wildcard for any missing icon (JoAT Show, Simultaneous Plunder)"),
        A("KEEP", 6, lambda i: f"pay 10K: keep a {types[i]}", "pay $10K to keep a card"),
        A("REVEAL", 3, lambda i: f"reveal job {i + 4}", "a completion reveals a face-down job"),
        A("REMOVE_TYPE", 6, lambda i: f"remove every {types[i]} from the crew deck",
          "set-up of JoAT Show and Simultaneous Plunder"),
        A("ROB", 1, lambda i: "rob the vault", "Act II: draw three tokens"),
        A("FLEE", 1, lambda i: "flee the vault", "Act II: leave with the loot"),
        A("BRIBE", 3, lambda i: f"bribe {i} Cops" + ("" if i else " (none)"),
          "bribe extra Cops at $50K each"),
        A("KEEP_TOKEN", 9, lambda i: f"take the {loot[i]}", "keep one drawn token"),
        A("REMOVE_TOKEN", 9, lambda i: f"remove the {loot[i]}",
          "remove one drawn token from the game (the last goes back)"),
        A("BUY_HD", 1, lambda i: "pay 100K: buy a Hard Drive",
          "This Crew Does What It Takes, end of Act I"),
        A("TO_CREW", 6, lambda i: f"put the token on the {types[i]}",
          "Betray the Traitor: the crew card that takes the token"),
    ])
    assert layout.size == R.NUM_ACTIONS and layout.start["TO_CREW"] == R.A_TRAITOR
    return layout
