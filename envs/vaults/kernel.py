"""Vaults on the compiled core: the `Game` (options, layouts, determinization, text) over the
scalar rules of `rules.py`, which read top to bottom like the rulebook.

The batch state is one structured array of `rules.STATE_FIELDS` records; `VaultsState` shows
each field as a view with the batch axis first (`state.crew` is [B, N, 52, 44]: a slot for
every crew a seat could ever form, `components.MAX_CREWS`; `state.crews_used` bounds the slots
in use). Crafted states may write crews directly: `resume` and `refresh_masks` set the bound
from them first.
"""

from __future__ import annotations

import dataclasses
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
from .components import D
from .rules import NONE, WIN_ACTION, WIN_CRACK  # noqa: F401  (for the bots and tests)

SKILL_NAMES = ("physical", "mechanical", "explosives")


class VaultsState(RecordState):
    """A batch of Vaults games: the public fields, then `rules.STATE_FIELDS` (hands, crews,
    decks, Police station, vault piles, turn and decision context), each a view [B, ...]."""


def _offset_label(i: int) -> str:
    return "player +0 (self)" if i == 0 else f"player +{i}"


def _redeal(s: VaultsState, b: int, owners: list[int], cards: slice, deck: np.ndarray,
            length: int, perm: Callable[[int], np.ndarray]) -> None:
    """Shuffle a deck's `length` cards of game b together with the `cards` its owners hold
    unknown to others, and deal them back: each owner keeps his count, the deck its size."""
    unknown = {q: (s.hand[b, q, cards] - s.known[b, q, cards]).astype(int) for q in owners}
    pool = list(deck[b, :length].astype(int))
    for q in owners:
        pool += list(np.repeat(np.arange(unknown[q].size), unknown[q]))
    pool = np.array(pool, np.int64)[perm(len(pool))]
    i = 0
    for q in owners:
        n = int(unknown[q].sum())
        s.hand[b, q, cards] -= unknown[q]
        np.add.at(s.hand[b, q, cards], pool[i:i + n], 1)
        i += n
    deck[b, :length] = pool[i:i + length]


class Vaults(CompiledGame):
    """Vaults for 2-4 players (see the module docs of `vaults_v1`)."""

    name: ClassVar[str] = "vaults_v1"
    title: ClassVar[str] = "Vaults"
    version: ClassVar[int] = 1
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4)
    score_scale: ClassVar[float] = 400.0
    # what only a seat sees: its hand (twice: the own block's known hand is the whole hand),
    # its peeks at the public piles and its boss offer
    private_fields: ClassVar[tuple[str, ...]] = ("my_hand", "my_peeks", "my_boss_offer",
                                                 "player[0].known_hand")
    GAME_OPTIONS: ClassVar[dict[str, Option]] = {
        "goal": Option(400, "loot goal that ends the game at once (rulebook: £400-800 for 2 "
                       "players, £400-700 for 3, £400-600 for 4)",
                       check=lambda v: isinstance(v, int) and 100 <= v <= C.TOTAL_LOOT,
                       allowed=f"an int in 100..{C.TOTAL_LOOT}"),
        "first_player": Option(None, "seat of the first player (the dealer sits before it); "
                               "None = drawn from the seed",
                               check=lambda v: v is None or (isinstance(v, int) and 0 <= v < 4),
                               allowed="None or a seat index"),
        "response_windows": Option("every_action", "when other players may play disrupts: after "
                                   "every action and crack declaration (the rulebook's 'at any "
                                   "time'), after crack declarations only, or never",
                                   R.WINDOW_NAMES[::-1]),
        "max_turns": Option(1000, "stall guard: the game ends as at deck exhaustion after this "
                            "many turns in total",
                            check=lambda v: isinstance(v, int) and v >= 100,
                            allowed="an int >= 100"),
    }
    # action ids (the layout's range starts), for the bots and tests
    A_MOVE, A_CRACK, A_DRAW, A_END, A_CREW = R.A_MOVE, R.A_CRACK, R.A_DRAW, R.A_END, R.A_CREW
    A_NEW, A_POLICE, A_PLAYER, A_PILE = R.A_NEW, R.A_POLICE, R.A_PLAYER, R.A_PILE
    A_SKILL, A_OPT, A_PASS = R.A_SKILL, R.A_OPT, R.A_PASS
    STATE_FIELDS = R.STATE_FIELDS
    CONFIG_FIELDS = R.CONFIG_FIELDS
    state_cls = VaultsState
    rules_folder = R.HERE

    def __init__(self, **options: object):
        if "max_crews" in options:
            raise ValueError(f"{self.name}: option 'max_crews' is gone: the rulebook sets no "
                             "limit on the number of crews, so every seat has "
                             f"{C.MAX_CREWS} crew slots, one per boss and member card")
        super().__init__(**options)

    @classmethod
    def option_spec(cls) -> dict[str, Option]:
        """As the base, with 2 players by default [spec §6]."""
        spec = super().option_spec()
        spec["num_players"] = dataclasses.replace(spec["num_players"], default=2)
        return spec

    @classmethod
    def drivers(cls) -> ModuleType:
        return R.DRIVERS

    # -- layouts ---------------------------------------------------------------------------
    def _setup(self) -> None:
        o = self.options
        if o["first_player"] is not None and o["first_player"] >= o["num_players"]:
            raise ValueError(f"{self.name}: invalid value {o['first_player']!r} for option "
                             f"'first_player'; allowed: None or 0..{o['num_players'] - 1}")
        self.K = R.K
        self.goal = o["goal"]
        self.max_turns = o["max_turns"]
        self.windows = o["response_windows"]
        self.score_scale = float(self.goal)  # reward="score": the margin over the goal [spec §5]
        self.action_layout = _action_layout(R.K)
        assert self.action_layout.start == R.ACTION_START
        self.observation_layout = _observation_layout(self.num_players, R.K)

    def _configure(self, c: np.void) -> None:
        fp = self.options["first_player"]
        c["first_player"] = -1 if fp is None else fp
        c["goal"], c["max_turns"] = self.goal, self.max_turns
        c["windows"] = R.WINDOW_NAMES.index(self.windows)

    def default_max_steps(self) -> int:
        # random play (10 000 games per player count, README) never exceeded 3 000 decisions;
        # the bound also stays above what the 1000-turn stall guard allows in practice
        return 30000

    # -- views for the tests, the bots and the text --------------------------------------------
    def exists(self, st: VaultsState) -> np.ndarray:
        """bool [B,N,K]: which crew slots hold a crew (a boss or a member)."""
        return st.crew[:, :, :, :C.TOOL0].any(-1)

    def crew_bounds(self, st: VaultsState) -> np.ndarray:
        """uint8 [B,N]: one past each seat's highest slot holding a crew, what the rules keep
        in `crews_used` (their loops over a seat's crews stop there)."""
        ex = self.exists(st)
        return np.where(ex.any(-1), R.K - ex[..., ::-1].argmax(-1), 0).astype(np.uint8)

    def resume(self, state: VaultsState, where: np.ndarray | None = None) -> VaultsState:
        """As the base, with `crews_used` first set from the crews (crafted states write them
        directly)."""
        state.crews_used[:] = self.crew_bounds(state)
        return super().resume(state, where)

    def refresh_masks(self, state: VaultsState) -> VaultsState:
        """As the base, with `crews_used` first set from the crews (crafted states write them
        directly)."""
        state.crews_used[:] = self.crew_bounds(state)
        return super().refresh_masks(state)

    def crew_skills(self, crew: np.ndarray, mods: np.ndarray) -> np.ndarray:
        """Skills [..., 3] of crews [..., 44] with their modifiers, never below 0."""
        return np.maximum(crew.astype(np.int64) @ C.SKILLS + mods, 0)

    def secret_decision(self, state: VaultsState) -> np.ndarray:
        """The bosses chosen at setup stay hidden until everybody has chosen."""
        return state.dec == D["BOSS_CHOICE"]

    def asked_always(self, state: VaultsState) -> np.ndarray:
        """A disrupt holder's response is asked even when only passing is legal [spec §2.9]."""
        return state.dec == D["RESPONSE"]

    def conserved(self, state: VaultsState) -> dict[str, np.ndarray]:
        """76 crew cards, 20 disrupts and 27 vaults, wherever they are (the main deck is
        built after the boss choice, so setup counts as complete)."""
        crew = (state.deck_len + state.hand[:, :, :C.DISRUPT0].sum((1, 2), dtype=np.int64)
                + state.crew.sum((1, 2, 3), dtype=np.int64) + state.pc_len + state.pt_len
                + ((state.card_in_play >= 0) & (state.card_in_play < C.DISRUPT0)))
        crew = np.where(state.dec == D["BOSS_CHOICE"], C.DECK_SIZE, crew)
        dis = (state.ddeck_len + state.hand[:, :, C.DISRUPT0:].sum((1, 2), dtype=np.int64)
               + state.dused.sum(1, dtype=np.int64))
        vaults = state.vpub_len.sum(1) + state.vpriv_len.sum(1)
        return {"crew_cards": crew.astype(np.int64), "disrupts": dis.astype(np.int64),
                "vaults": vaults.astype(np.int64)}

    # -- determinization [spec §4.4] -----------------------------------------------------------
    def resample_hidden(self, state: VaultsState, player: int | np.ndarray,
                        seeds: int | np.ndarray) -> VaultsState:
        """Redeal what `player` cannot know: opponents' unknown hand cards and the main deck,
        opponents' disrupts and the disrupt deck, unknown vault fronts in the public piles
        (each top keeps its group), other players' boss offers during setup; future chance gets
        a new key from `seeds`. A loop over games: this is analysis code, not the step path."""
        s = state.copy()
        B = s.batch_size
        ps = np.broadcast_to(np.asarray(player, np.int64), (B,))
        keys = np.broadcast_to(rng.seed_keys(seeds), (B,)).copy()
        for b in range(B):
            if s.terminated[b] or s.truncated[b]:
                continue
            self._resample_one(s, b, int(ps[b]), keys[b:b + 1])
        s.key[:] = rng.seed_keys(np.asarray(keys.view(np.int64)) ^ 0x5DEECE66D)
        s.rng_counter[:] = 0
        return self.refresh_masks(s)

    def _resample_one(self, s: VaultsState, b: int, p: int, key: np.ndarray) -> None:
        N = self.num_players
        counter = [0]

        def perm(n: int) -> np.ndarray:
            counter[0] += 1
            u = rng.uniform(key, 100 + counter[0], np.arange(max(n, 1), dtype=np.uint64))
            return np.argsort(u[:n], kind="stable")

        others = [q for q in range(N) if q != p]
        setup = s.dec[b] == D["BOSS_CHOICE"]
        if setup:  # no hands or main deck yet: the offers, then disrupts and vaults below
            used = {int(x) for x in s.boss_offer[b, p]}
            pool = [t for t in range(C.N_BOSS) if t not in used]
            pool = [pool[i] for i in perm(len(pool))]
            for q in others:
                pair = sorted(pool[:2])
                pool = pool[2:]
                old_pick = int(s.boss_pick[b, q])
                if old_pick >= 0:
                    idx = int(np.flatnonzero(s.boss_offer[b, q] == old_pick)[0])
                    s.boss_pick[b, q] = pair[idx]
                s.boss_offer[b, q] = pair
        else:
            # crew cards: main deck + opponents' unknown crew cards
            _redeal(s, b, others, slice(0, C.N_CREW_TYPES), s.deck, int(s.deck_len[b]), perm)
        # disrupts: disrupt deck + opponents' unknown disrupts (a player declaring a crack
        # keeps his: whether he holds a Master Key shapes his pending decision)
        declaring = s.dec[b] in (D["CRACK_TARGET"], D["OVERLOAD"], D["USE_KEY"])
        dis_others = [q for q in others if not (declaring and q == int(s.owner[b]))]
        _redeal(s, b, dis_others, slice(C.DISRUPT0, None), s.ddeck, int(s.ddeck_len[b]), perm)
        # vault fronts p does not know; tops keep their (visible) group
        positions = [(j, t) for j in range(3) for t in range(int(s.vpub_len[b, j]))]
        known = s.known_face[b, p] | s.revealed[b]
        free = [(j, t) for j, t in positions if not known[s.vpub[b, j, t]]]
        if not free:
            return
        old = {pos: int(s.vpub[b, pos[0], pos[1]]) for pos in free}
        flags = {pos: s.known_face[b, :, old[pos]].copy() for pos in free}
        pool = [old[pos] for pos in free]
        pool = [pool[i] for i in perm(len(pool))]
        new: dict[tuple[int, int], int] = {}
        for j, t in free:
            if t == int(s.vpub_len[b, j]) - 1:  # a top: same group
                grp = C.VAULT_GROUP[old[(j, t)]]
                pick = next(x for x in pool if C.VAULT_GROUP[x] == grp)
                pool.remove(pick)
                new[(j, t)] = pick
        for pos in free:
            if pos not in new:
                new[pos] = pool.pop(0)
        for pos in free:
            s.known_face[b, :, old[pos]] = False
        for pos in free:
            s.vpub[b, pos[0], pos[1]] = new[pos]
            s.known_face[b, :, new[pos]] = flags[pos]
            s.known_face[b, p, new[pos]] = False

    def render(self, state: VaultsState, b: int = 0, player: int | None = None) -> str:
        from .render import render_text

        return render_text(self, state, b, player)


# == layouts =======================================================================================
def _action_layout(K: int) -> ActionLayout:
    names = C.CARD_NAMES
    return ActionLayout([
        ActionRange("card", 54, lambda i: f"card {names[i]}", "a hand type (play, move, "
                    "target, overload, key, respond, discard, copy)"),
        ActionRange("move", K, lambda i: f"move from crew {i}", "move a card out of crew k"),
        ActionRange("crack", K, lambda i: f"crack with crew {i}", "declare a crack"),
        ActionRange("draw_deck", 1, lambda i: "draw main deck", "draw from the main deck"),
        ActionRange("draw_police_char", 1, lambda i: "draw police characters",
                    "draw the top of the character Police pile"),
        ActionRange("draw_police_tool", 1, lambda i: "draw police tools",
                    "draw the top of the tool Police pile"),
        ActionRange("end_turn", 1, lambda i: "end turn", "end the turn"),
        ActionRange("crew", K, lambda i: f"crew {i}", "a crew slot (destination/target)"),
        ActionRange("new_crew", 1, lambda i: "new crew", "form a new crew"),
        ActionRange("boss_to_police", 1, lambda i: "boss to police (gain disrupt)",
                    "send the boss in play to the Police station for a disrupt"),
        ActionRange("player", 4, _offset_label, "a seat offset from the deciding player"),
        ActionRange("pile", 6, lambda i: (f"pile public {i + 1}" if i < 3
                                          else f"pile opponent +{i - 2}"),
                    "a public vault pile or an opponent's vault pile"),
        ActionRange("skill", 3, lambda i: f"skill {SKILL_NAMES[i]}", "a skill"),
        ActionRange("option", 2, lambda i: f"option {i}", "boss choice low/high, disrupt "
                    "effect A/B, Police pile characters/tools"),
        ActionRange("pass", 1, lambda i: "pass", "pass / finish"),
    ])


def _observation_layout(N: int, K: int) -> ObservationLayout:
    crew_fields = tuple(Field(f"crew{k}", 53, f"crew slot {k}: exists, boss one-hot (12), "
                              "member counts/2 (20), tool counts/2 (12), skills/30 (3), "
                              "spent, blocked, modifiers (m+6)/12 (3)") for k in range(K))
    return ObservationLayout([
        Field("num_players", 3, "one-hot of 2, 3, 4"),
        Field("goal", 1, "goal / 1430"),
        Field("main_deck", 1, "cards / 76"),
        Field("disrupt_deck", 1, "cards / 20"),
        Field("turn", 1, "min(1, turns / 300)"),
        Field("active_player", 4, "one-hot seat offset of the active player"),
        Field("first_player", 4, "one-hot seat offset of the first player (tie-breaks)"),
        Field("phase", 4, "one-hot phase 1-4"),
        Field("actions_left", 1, "min(1, actions / 6)"),
        Field("can_draw", 1, "the active turn started with < 5 cards"),
        Field("draw_source", 3, "one-hot none / main deck / Police station"),
        Field("my_hand", 54, "my cards by type / 2"),
        Field("my_hand_known", 54, "those of my cards everyone knows are there / 2"),
        Field("my_peeks", 84, "per public pile: one-hot of the top vault if I know its "
              "front, else slot 27"),
        Field("my_boss_offer", 12, "bosses offered to me at setup (until chosen)"),
        Block("player", N, (
            Field("hand_size", 1, "min(1, cards / 10)"),
            Field("disrupts", 1, "min(1, disrupt cards / 5)"),
            Field("known_hand", 54, "publicly known cards in hand / 2"),
            Field("loot", 1, "min(1, loot / goal)"),
            Field("vault_count", 1, "vaults in pile / 27"),
            Field("top_vault", 28, "one-hot vault id of the pile top (27 = empty)"),
            Field("fails", 1, "Fail vaults in pile / 8"),
            Field("vault_pile", 27, "per vault id, its place in the pile counted from the "
                  "top / 27 (top 1/27, 0 = not there; their fronts are all face up)"),
            Field("turns_taken", 1, "min(1, turns taken / 300)"),
        ) + crew_fields, "seat offset r from me (0 = me)"),
        Field("public_piles", 33, "per pile: count / 9, one-hot top group G0-G8 or empty"),
        Field("revealed", 27, "vault fronts that are public"),
        Field("unrevealed_by_group", 9, "unrevealed vaults per group / 3"),
        Field("police_counts", 44, "Police station cards by type / 2"),
        Field("police_tops", 138, "top 3 character cards (33 each), top 3 tools (13 each)"),
        Field("disrupt_used", 10, "used disrupts by type / 2"),
        Field("decision", len(C.DECISIONS), "one-hot pending decision (mine only)"),
        Field("card_in_play", 54, "one-hot card being played / resolving"),
        Field("effect", C.N_EFFECTS, "one-hot effect being resolved"),
        Field("target_player", 4, "one-hot seat offset of the chosen player (while a "
              "chosen crew, card, skill or steal destination is pending)"),
        Field("target_crew", K, "one-hot chosen crew slot (while a card, skill, steal "
              "destination or swap is pending)"),
        Field("crack_crew", K, "one-hot crew slot of the declared crack"),
        Field("crack_target", 7, "one-hot crack target: public pile 1-3, then the "
              "target pile owner's seat offset from me (0-3)"),
        Field("crack_skills", 3, "current skills of the cracking crew / 30"),
        Field("crack_combo", 3, "combination of the target / 10"),
        Field("overloads", 12, "overloaded tools / 2"),
        Field("key_used", 1, "a Master Key is on the declared crack"),
        Field("window", 3, "window open (crack / action), passes in a row / N"),
    ])

