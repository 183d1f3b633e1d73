"""Bad Company on the compiled core: the `Game` (options, layouts, determinization, text) over
the scalar rules of `rules.py`, which read top to bottom like the rulebook.

The batch state is one structured array of `rules.STATE_FIELDS` records; `BadCompanyState`
shows each field as a view with the batch axis first (`state.crew` is [B, N, 11, 6]).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from ..core import rng
from ..core.compiled import CompiledGame
from ..core.layout import ActionLayout, ActionRange, Block, Field, ObservationLayout
from ..core.options import Option
from ..core.records import RecordState
from . import components as C
from . import rules as R

# the decision and action ids, for the bots, the renderer and the tests
from .rules import (  # noqa: F401
    A_ACCEPT,
    A_BUY_VP,
    A_CAR2,
    A_CASH3,
    A_COLLAR,
    A_COMPLETE_HEIST,
    A_COMPLETE_TASK,
    A_DISCARD,
    A_END_PHASE,
    A_FIXER,
    A_FREE_RECRUIT,
    A_FREE_REROLL,
    A_HALT,
    A_PAIRING,
    A_PLACE_HEIST,
    A_PLACE_TASK,
    A_RECRUIT,
    A_REROLL,
    A_SETUP,
    A_SHORTCUT,
    A_STEP,
    A_SUM,
    A_TAKE,
    A_UPGRADE,
    A_WILD,
    CHIEF_PAIRING,
    CHIEF_REROLL,
    CHOOSE_SUM,
    COLLAR_PLACEMENT,
    DECISION_NAMES,
    FINAL_PAIRING,
    FIXER_SYMBOL,
    GAME_OVER,
    NEW_TURN,
    NEXT_2B,
    NUM_ACTIONS,
    NUM_DECISIONS,
    PENDING,
    PHASE2B,
    PLACE_TOKEN,
    S_RESAMPLE,
    SETUP_RETURN,
    SHORTCUT,
    TAKE_HEIST,
    UPGRADE_CHOICE,
)

LEFTOVER = ("tasks", "tasks_and_heists")
TRUNCATION = ("zero", "provisional")
POLICE_START_RANGE = (C.POLICE_MIN, C.RED_ZONE_START - 1)  # -6..24: before the red zone


def _int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _police_faces(v: Any) -> bool:
    return (isinstance(v, (list, tuple)) and len(v) == 6
            and all(_int(f) and int(f) in C.POLICE_DIE_VALUES for f in v))


class BadCompanyState(RecordState):
    """A batch of Bad Company games: the public fields, then `rules.STATE_FIELDS` (the boards,
    the decks and the decision context), each a view [B, ...]."""


def _seat_or_none(v: Any) -> bool:
    return v is None or (isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 6)


class BadCompanyGame(CompiledGame):
    """Bad Company for 2-6 players (see the module docstring of bad_company_v1 for the rules)."""

    name: ClassVar[str] = "bad_company_v1"
    title: ClassVar[str] = "Bad Company"
    version: ClassVar[int] = 1
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4, 5, 6)
    score_scale: ClassVar[float] = 30.0
    GAME_OPTIONS: ClassVar[dict[str, Option]] = {
        "first_chief": Option(None, "the first chief's seat; None draws it from the game seed "
                              "(the rulebook's 'last player to vandalize something')",
                              check=_seat_or_none, allowed="None or a seat 0..N-1"),
        "leftover_tokens": Option("tasks", "tokens that score a point per two at the end: on "
                                  "the tasks of the crew board only (the rulebook's 'on your "
                                  "board'), or on the active heists too", LEFTOVER),
        "final_phase_2b": Option(True, "the final round has phase 2B (complete heists and "
                                 "tasks, recruit, play loot) before the tally",
                                 check=lambda v: isinstance(v, bool), allowed="a bool"),
        "police_start_offset": Option(0, "the police car starts on road space -N + offset "
                                      "(the rulebook's space of the player count at 0)",
                                      check=_int, allowed="an int that puts the start, -N + "
                                      f"offset, on {POLICE_START_RANGE[0]}.."
                                      f"{POLICE_START_RANGE[1]} (before the red zone)"),
        "police_die_faces": Option(C.POLICE_FACES, "the six faces of the police die, each "
                                   "rolled as likely (the rulebook names the values 0, 1 and "
                                   "2)", check=_police_faces,
                                   allowed="a list or tuple of six faces, each 0, 1 or 2"),
        "canonical_pairings": Option(True, "mask a pairing of the yellow dice whose two sums "
                                     "repeat a lower-numbered pairing's (no outcome is lost); "
                                     "False leaves all three pairings legal",
                                     check=lambda v: isinstance(v, bool), allowed="a bool"),
        "truncation_reward": Option("zero", "rewards of a game cut off by the step bound: "
                                    "'zero', or 'provisional' (the `reward` of the tally so "
                                    "far, loot VP included, as if the game ended then)",
                                    TRUNCATION),
        "component_set": Option(C.COMPONENT_SETS[0], "the card and board data the game is "
                                "built from (the reconstruction; see the README)",
                                C.COMPONENT_SETS),
    }
    STATE_FIELDS = R.STATE_FIELDS
    CONFIG_FIELDS = R.CONFIG_FIELDS
    state_cls = BadCompanyState
    rules_folder = R.HERE

    @classmethod
    def drivers(cls) -> ModuleType:
        return R.DRIVERS

    def _setup(self) -> None:
        n = self.num_players
        fc = self.options["first_chief"]
        if fc is not None and fc >= n:
            raise ValueError(f"{self.name}: invalid value {fc!r} for option 'first_chief'; "
                             f"allowed: None or a seat 0..{n - 1}")
        off = self.options["police_start_offset"]
        lo, hi = POLICE_START_RANGE
        if not lo <= off - n <= hi:
            raise ValueError(f"{self.name}: invalid value {off!r} for option "
                             f"'police_start_offset'; the police car would start on "
                             f"{off - n}: allowed at {n} players: {lo + n}..{hi + n} (a start "
                             f"on {lo}..{hi}, before the red zone)")
        self.observation_layout = _observation_layout(n)
        self.action_layout = _action_layout()

    def _configure(self, c: np.void) -> None:
        fc = self.options["first_chief"]
        c["first_chief"] = -1 if fc is None else fc
        c["tokens_on_heists"] = self.options["leftover_tokens"] == "tasks_and_heists"
        c["final_2b"] = self.options["final_phase_2b"]
        c["heist_table"] = R.HEIST_TABLE
        c["police_offset"] = self.options["police_start_offset"]
        c["police_faces"] = np.array(self.options["police_die_faces"], np.int64)
        c["canonical_pairings"] = self.options["canonical_pairings"]
        c["truncation_scored"] = self.options["truncation_reward"] == "provisional"

    def default_max_steps(self) -> int:
        return 4000

    # == the final tally (compiled: rules.scores, rules.rank_keys) ================================
    def conserved(self, s: BadCompanyState) -> dict[str, np.ndarray]:
        """Heist, upgrade and loot cards: every card is somewhere."""
        heists = (s.hd_len.astype(np.int64) + (s.display >= 0).sum(axis=1)
                  + (s.active >= 0).sum(axis=(1, 2)) + s.completed.sum(axis=(1, 2))
                  + (s.setup_choice >= 0).sum(axis=1))
        upgrades = (s.ud_len.astype(np.int64) + s.udisc.sum(axis=1)
                    + s.n_upgrades.sum(axis=(1, 2), dtype=np.int64)
                    + (s.upg_choice >= 0).sum(axis=1))
        loot = (s.ld_len.astype(np.int64) + s.loot.sum(axis=(1, 2), dtype=np.int64)
                + s.ldisc.sum(axis=1, dtype=np.int64))
        return {"heists": heists, "upgrades": upgrades, "loot": loot}

    def final_info(self, state: BadCompanyState, b: int = 0) -> dict:
        return {"scores": self.scores(state[b])[0].tolist()}

    # == determinization ===========================================================================
    def resample_hidden(self, state: BadCompanyState, player: int | np.ndarray,
                        seeds: int | np.ndarray) -> BadCompanyState:
        """Redraw what `player` cannot know: the other players' loot cards (same counts) and
        the loot deck, the upgrade deck and another player's upgrade draw, the heist deck below
        its visible top (the player's own returned card stays) and another drafter's three
        heists; future chance gets a new key from `seeds`."""
        s = state.copy()
        B, N = s.batch_size, self.num_players
        p = np.broadcast_to(np.asarray(player, np.int64), (B,))
        keys = np.broadcast_to(rng.seed_keys(seeds), (B,)).copy()
        cur = s.current_player.astype(np.int64)
        other_acts = (cur != p) & ~s.terminated & ~s.truncated
        # heists: the ring below the top, and another drafter's three cards
        ring = (np.arange(C.NUM_HEISTS)[None] - s.hd_head[:, None].astype(np.int64)) % C.NUM_HEISTS
        own_back = s.returned[np.arange(B), p].astype(np.int64)
        in_deck = (ring >= 1) & (ring < s.hd_len[:, None]) & (s.hdeck != own_back[:, None])
        drafting = other_acts & (s.dec == SETUP_RETURN)
        vals = np.concatenate([s.hdeck, s.setup_choice], axis=1).astype(np.int64)
        valid = np.concatenate([in_deck, drafting[:, None] & (s.setup_choice >= 0)], axis=1)
        vals = _shuffle_among(vals, valid, keys, 0)
        s.hdeck = vals[:, :C.NUM_HEISTS]
        s.setup_choice = vals[:, C.NUM_HEISTS:]
        # upgrades: the deck and another player's draw
        choosing = other_acts & (s.dec == UPGRADE_CHOICE)
        vals = np.concatenate([s.udeck, s.upg_choice], axis=1).astype(np.int64)
        valid = np.concatenate([np.arange(C.NUM_UPGRADES)[None] < s.ud_len[:, None],
                                choosing[:, None] & (s.upg_choice >= 0)], axis=1)
        vals = _shuffle_among(vals, valid, keys, 1)
        s.udeck = vals[:, :C.NUM_UPGRADES]
        s.upg_choice = vals[:, C.NUM_UPGRADES:]
        # loot: the deck and the other players' hands (as many cards each)
        L, T = C.NUM_LOOT, C.NUM_LOOT_TYPES
        slot = np.arange(L)
        cum = np.cumsum(s.loot.astype(np.int64), axis=2)  # [B, N, T]
        hand_types = (cum[:, :, None, :] <= slot[None, None, :, None]).sum(axis=3)  # [B, N, L]
        others = np.arange(N)[None] != p[:, None]  # [B, N]
        hand_valid = (slot[None, None] < cum[:, :, -1:]) & others[:, :, None]
        vals = np.concatenate([s.ldeck.astype(np.int64), hand_types.reshape(B, N * L)], axis=1)
        valid = np.concatenate([slot[None] < s.ld_len[:, None], hand_valid.reshape(B, N * L)],
                               axis=1)
        vals = _shuffle_among(vals, valid, keys, 2)
        s.ldeck = vals[:, :L]
        new_hands = vals[:, L:].reshape(B, N, L)
        counts = ((new_hands[..., None] == np.arange(T)) & hand_valid[..., None]).sum(axis=2)
        s.loot = np.where(others[:, :, None], counts, s.loot)
        s.key = keys
        s.rng_ctr[:] = 0
        return self.refresh_masks(s)

    # == text ======================================================================================
    def render(self, state: BadCompanyState, b: int = 0, player: int | None = None) -> str:
        from .render import render_text

        return render_text(self, state, b, player)


def _shuffle_among(vals: np.ndarray, valid: np.ndarray, keys: np.ndarray,
                   part: int) -> np.ndarray:
    """Each row's valid entries in a random order (from its key), at the valid positions."""
    B, M = vals.shape
    u = rng.bits(keys[:, None], int(S_RESAMPLE) * 8 + part, np.arange(M, dtype=np.uint64)[None])
    u = np.where(valid, u >> np.uint64(1), np.uint64(2**63))
    picked = np.take_along_axis(vals, np.argsort(u, axis=1, kind="stable"), axis=1)
    rank = np.maximum(np.cumsum(valid, axis=1) - 1, 0)
    return np.where(valid, np.take_along_axis(picked, rank, axis=1), vals)


# == layouts =======================================================================================
HEIST_FIELDS = "present, number/40, req L G M F /8, covered L G M F /8, base VP/10, " \
    "bonus one-hot (none $ car loot wild), bonus amount/3, red box one-hot (none A1..A8), " \
    "purple box one-hot (none P1..P6), missions D B A $, uncovered/8"


def _observation_layout(n: int) -> ObservationLayout:
    per_player = (
        Field("money", 1, "coins / 30, capped at 1"),
        Field("vp_track", 1, "score track / 80"),
        Field("car", 1, "car position / 28"),
        Field("car_onehot", 29, "car position 0..28", onehot=True),
        Field("behind_police", 1, "1 if the car is behind the police car"),
        Field("recruit", 9, "recruiter space 0..8", onehot=True),
        Field("loot_count", 1, "loot cards held / 10"),
        Field("heists_done", 1, "completed heists / 6"),
        Field("mission_counts", 4, "mission symbols D, B, A, $ on completed heists / 8"),
        Field("mission_top", 4, "highest completed heist number with that symbol / 40"),
        Field("abilities", 8, "red-box abilities A1..A8"),
        Field("purple", 6, "purple-box cards P1..P6 held / 2"),
        Field("crew", 99, "members 2..12 x (coins/6, wheel, lock, glove, mask, flashlight /4, "
              "upgrades/5, upgrade VP/6, collar)"),
        Field("tasks", 36, "4 tasks x (symbol one-hot L G M F, bonus one-hot wild $2 car loot, "
              "tokens/2)"),
        Field("active_heists", 76, f"2 active heists x ({HEIST_FIELDS})"),
        Field("heist_vp", 1, "base VP of completed heists / 60"),
        Field("public_score", 1, "the final tally without loot VP / 100, clipped to [0, 1]"),
        Field("collars", 4, "collars held D, B, A, $"),
    )
    return ObservationLayout([
        Field("decision", NUM_DECISIONS, "pending decision (the spec's phases; game over last)",
              onehot=True),
        Field("final_round", 1, "1 in the final round"),
        Field("end_triggered", 1, "1 once the end of the game is triggered"),
        Field("turn", 1, "turns started / 60, capped at 1"),
        Field("chief", n, "the chief, seat offset clockwise from me", onehot=True),
        Field("actor", n, "the player to act, seat offset from me", onehot=True),
        Field("num_players", 5, "2..6 players", onehot=True),
        Field("yellow_dice", 24, "4 dice x one-hot 1..6 (zeros before the roll)"),
        Field("black_die", 3, "police die 0/1/2 (zeros in the final round)", onehot=True),
        Field("dice_rolled", 1, "1 once the dice are rolled this turn"),
        Field("pair_sums", 22, "lower and higher pair sum, one-hot 2..12 each"),
        Field("pairings", 66, "the pairings 01|23, 02|13, 03|12 x (lower, higher) sum, one-hot "
              "2..12 each (zeros before the roll)"),
        Field("pairing_members", 54, "my crew member at each of those six sums (the crew "
              "field's 9 columns each)"),
        Field("sum_members", 18, "my crew member at the lower and the higher pair sum"),
        Field("police", 1, "police position + 6, / 34"),
        Field("police_onehot", 35, "police position -6..28", onehot=True),
        Field("cp_passed", 8, "the police has reached control point 3, 6, ..., 24"),
        Field("display", 190, f"5 display heists (slot 4 = the deck's top) x ({HEIST_FIELDS})"),
        Field("decks", 3, "heist deck / 40, upgrade deck / 45, loot deck / 30"),
        Field("collar_owner", 4 * (n + 1), "collars D, B, A, $ x holder (seat offset, or none)"),
        Field("police_halt", 1, "1 if a Police halt was played this turn"),
        Field("upgrade_discard", C.NUM_UPGRADES, "upgrade cards in the discard pile"),
        Field("loot_discard", C.NUM_LOOT_TYPES, "loot cards played, per type / 6"),
        Block("player", n, per_player, "per player, clockwise from me (0 = me)"),
        Field("pending_token", 5, "token to place: L, G, M, F, wild (mine only)", onehot=True),
        Field("tokens_left", 1, "my tokens still to place / 10"),
        Field("steps_left", 1, "my car steps still to move / 4"),
        Field("is_actor", 1, "1 if I am to act"),
        Field("upgrade_choices", 51, "3 drawn upgrades x (present, member one-hot 3..11, "
              "coins, wheel, lock, glove, mask, flashlight, VP, each / 3) while I choose"),
        Field("setup_choices", 114, "my 3 drafted heists while I choose which to return"),
        Field("loot_hand", C.NUM_LOOT_TYPES, "my loot cards per type / 4"),
        Field("reroll_credits", 1, "my free rerolls this turn / 3"),
        Field("rerolls_done", 1, "rerolls this turn / 10"),
        Field("own_loot_vp", 1, "VP of my loot cards / 20"),
    ])


def _action_layout() -> ActionLayout:
    def reroll(i: int) -> str:
        dice = [f"y{k}" for k in range(4) if (i + 1) & (1 << k)] + (
            ["black"] if (i + 1) & 16 else [])
        return "reroll " + "+".join(dice)

    sym = ("L", "G", "M", "F")
    return ActionLayout([
        ActionRange("accept_roll", 1, lambda i: "accept roll", "end the reroll loop"),
        ActionRange("reroll", R.NUM_REROLLS, reroll, "$1: reroll a non-empty subset of dice "
                    "(bits y0 y1 y2 y3 black)"),
        ActionRange("pairing", 3, lambda i: ("pairing 01|23", "pairing 02|13",
                                             "pairing 03|12")[i], "pair the yellow dice"),
        ActionRange("choose_sum", 2, lambda i: ("activate lower sum", "activate higher sum")[i],
                    "a non-chief activates one sum"),
        ActionRange("fixer", 3, lambda i: f"fixer counts {C.TOKEN_NAMES[i]}",
                    "Fixer: the symbol to count"),
        ActionRange("place_heist", 8, lambda i: f"token on heist {i // 4} {sym[i % 4]}",
                    "cover a pictogram on an active heist"),
        ActionRange("place_task", 4, lambda i: f"token on task {i}", "cover a task space"),
        ActionRange("discard_token", 1, lambda i: "token lost", "the token fits nowhere"),
        ActionRange("step", 1, lambda i: "step normally", "the car's next space"),
        ActionRange("shortcut", 1, lambda i: "take the shortcut", "jump past a control point"),
        ActionRange("complete_heist", 2, lambda i: f"complete heist {i}", "phase 2B"),
        ActionRange("complete_task", 4, lambda i: f"complete task {i}", "phase 2B"),
        ActionRange("recruit", 1, lambda i: "recruit", "phase 2B: pay and advance the recruiter"),
        ActionRange("choose_upgrade", 3, lambda i: f"keep upgrade {i}", "one of the drawn three"),
        ActionRange("buy_vp", 1, lambda i: "buy 3 VP for $5", "phase 2B at the track's end"),
        ActionRange("play_cash3", 1, lambda i: "play loot $3",
                    "phase 2B or the chief's reroll loop"),
        ActionRange("play_car2", 1, lambda i: "play loot car +2", "phase 2B"),
        ActionRange("play_wild", 1, lambda i: "play loot wild token", "phase 2B"),
        ActionRange("play_free_recruit", 1, lambda i: "play loot free recruit", "phase 2B"),
        ActionRange("play_free_reroll", 1, lambda i: "play loot free reroll",
                    "the chief's reroll loop"),
        ActionRange("play_police_halt", 1, lambda i: "play loot police halt", "phase 2B"),
        ActionRange("end_phase", 1, lambda i: "end phase 2B", "phase 2B: done"),
        ActionRange("place_collar", 11, lambda i: f"collar on member {i + 2}",
                    "a member without a collar"),
        ActionRange("take_heist", 5, lambda i: f"take display heist {i}" if i < 4
                    else "take the deck's top heist", "end of turn: a new heist"),
        ActionRange("setup_return", 3, lambda i: f"return drafted heist {i}",
                    "setup: the heist put back at the bottom"),
    ])
