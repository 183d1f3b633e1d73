"""The Vaults rules as the NumPy kernel they were before the compiled core: the reference of
the side-by-side harness (`test_port.py`), kept until the port is checked.

The original description follows. The Vaults rules as a vectorized kernel, ordered like the
rulebook.

Setup (dealer, bosses, vault piles) -> the turn (draw/bailout, planning, jobs, hideout) with
its actions (draw, play, move, crack) -> abilities, vault fronts and disrupt cards -> the end
of the turn (hand limit) -> the end of the game. Every decision is one small choice from the
flat action space (see `components.DECISIONS`); effects that need several choices are kept on
a small per-game stack. Disrupt cards played out of turn go through the core's response
windows (`envs.core.windows`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np
from heistbench.envs.core import (
    ActionLayout,
    ActionRange,
    Block,
    Field,
    Game,
    ObservationLayout,
    Option,
    rng,
)
from heistbench.envs.core import windows as win
from heistbench.envs.core.game import single_option
from heistbench.envs.core.groups import groups, kinds
from heistbench.envs.vaults import components as C
from heistbench.envs.vaults.components import D, E

NONE = 0
SKILL_NAMES = ("physical", "mechanical", "explosives")
WIN_CRACK, WIN_ACTION = 1, 2  # window kinds
RESUME_NONE, RESUME_FLIP = 0, 1
STACK = 8
# rng streams
S_BOSS, S_VAULT, S_DISRUPT, S_DECK, S_RESHUFFLE, S_PICK = range(1, 7)

# -- targeting tables derived from components.TARGETING --------------------------------------
OP_NONE, OP_JAIL, OP_RETURN, OP_STEAL, OP_STEAL_HERE, OP_MOD, OP_FAIL, OP_PICK, OP_RESET = \
    range(9)
WHO_ANY, WHO_OPP, WHO_BACKFIRE, WHO_SELF = range(4)
_OPS = {"jail": OP_JAIL, "return": OP_RETURN, "steal": OP_STEAL, "steal_here": OP_STEAL_HERE,
        "mod": OP_MOD, "fail": OP_FAIL}
_WHO = {"any": WHO_ANY, "opp": WHO_OPP, "backfire": WHO_BACKFIRE, "self": WHO_SELF}
OP = np.zeros(C.N_EFFECTS, np.int8)
WHO = np.zeros(C.N_EFFECTS, np.int8)
for _n, (_op, _cls, _who) in C.TARGETING.items():
    OP[E[_n]], WHO[E[_n]] = _OPS[_op], _WHO[_who]
OP[E["B_PICKPOCKET"]] = OP[E["D_PICKPOCKET"]] = OP_PICK
WHO[E["B_PICKPOCKET"]] = WHO[E["D_PICKPOCKET"]] = WHO_OPP
OP[E["D_RESET"]] = OP_RESET
_SKILLS_F = C.SKILLS.astype(np.float32)  # float tables: matrix products use BLAS
_SKILLS_TWICE = _SKILLS_F * np.where(C.IS_TOOL, 2, 1)[:, None].astype(np.float32)
_SLOT_TYPE = np.repeat(np.arange(C.N_CREW_TYPES), 2)  # Police slots: two per card type
_SLOT_COPY = (np.arange(2 * C.N_CREW_TYPES) % 2)[None, :]
_PILE_BASE = np.arange(3) * C.PILE_SIZE  # public pile offsets in a game's flat [3,9] piles
# crew statistics in one matrix product: skills with every tool counted twice (the most an
# overload can give), bosses, members, tools
_STATS = np.concatenate([_SKILLS_TWICE, np.stack([C.IS_BOSS, C.IS_MEMBER, C.IS_TOOL], 1)],
                        1).astype(np.float32)
ST_SK2, ST_BOSS, ST_MEM, ST_TOOL = slice(0, 3), 3, 4, 5
# every vault's combination, then one no crew meets: indexed by a target's top vault, an
# empty pile (-1) picks the last row; a Master Key meets every other combination
_COMBO_OR_EMPTY = np.concatenate([C.VAULT_COMBO, np.full((1, 3), 999, np.int16)])
_COMBO_BY_SKILL = _COMBO_OR_EMPTY.T.copy()  # [3,28]: a gather with it comes out batch-last
_KEY_SKILLS = np.int16(998)
_CLASS_CAP = C.CLASS_CAP[:, None, None]  # against batch-last counts [3,K,n]
_OPTIONS_KEPT = 1 << 14  # class counts whose crew options a batch of one keeps
MOD_SIGN = np.zeros(C.N_EFFECTS, np.int8)
MOD_SIGN[E["D_SABOTAGE"]], MOD_SIGN[E["D_REINFORCE"]] = -2, 2

# the parts of each vault's Fail front, in resolution order (0 = none)
_FAIL_STACK = np.zeros((C.N_VAULTS, 3), np.int8)
for _v in range(C.N_VAULTS):
    _name = C.EFFECTS[C.VAULT_EFFECT[_v]]
    for _j, _part in enumerate(C.FAIL_PARTS.get(_name, ()) if not C.VAULT_SUCCESS[_v] else ()):
        _FAIL_STACK[_v, _j] = E[_part]
_DRAWS = set(np.flatnonzero(C.DRAW_COUNT).tolist())
_ACTIONS = set(np.flatnonzero(C.GAIN_ACTION).tolist())
_DISRUPTS = set(np.flatnonzero(C.GAIN_DISRUPT).tolist())
_TARGETED = set(np.flatnonzero(OP != OP_NONE).tolist()) | set(
    C.PEEK_EFFECTS + C.BAIL_EFFECTS + (E["D_BURY"], E["B_COPY"]))

# the card classes (boss, member, tool) each effect may take: targets are whole classes
_CLASS_MASKS = np.stack([C.IS_BOSS, C.IS_MEMBER, C.IS_TOOL])  # [3,44]
TARGET_CLASSES = (C.TARGET_CLASS[:, None, :] & _CLASS_MASKS).any(2)  # [N_EFFECTS,3]
assert (TARGET_CLASSES @ _CLASS_MASKS == C.TARGET_CLASS).all()

IS_TARGETED = np.zeros(C.N_EFFECTS, bool)
IS_TARGETED[list(_TARGETED)] = True
IS_PEEK = np.zeros(C.N_EFFECTS, bool)
IS_PEEK[list(C.PEEK_EFFECTS)] = True
IS_BAIL = np.zeros(C.N_EFFECTS, bool)
IS_BAIL[list(C.BAIL_EFFECTS)] = True

# disrupt usability by context [RB "Disrupts"; spec §2.9]: 0 MAIN (active), 1 crack window,
# active player's slot, 2 crack window, other players, 3 action window (other players only)
CTX_MAIN, CTX_CRACK_ACTIVE, CTX_CRACK_OTHER, CTX_ACTION = range(4)
ALLOWED = np.zeros((4, C.N_EFFECTS), bool)
_GENERIC = ("D_DRAW", "D_JAIL_TOOL", "D_TIPOFF", "D_SABOTAGE", "D_REINFORCE", "D_BAIL",
            "D_SCOUT", "D_PICKPOCKET", "D_BURY")
for _n in _GENERIC:
    ALLOWED[:, E[_n]] = True
ALLOWED[CTX_MAIN, [E["D_ACTION"], E["D_RESET"]]] = True
ALLOWED[CTX_CRACK_ACTIVE, [E["D_KEY"], E["D_ACTION"]]] = True
ALLOWED[CTX_CRACK_OTHER, E["D_LOCKDOWN"]] = True


@dataclasses.dataclass(eq=False)
class VaultsState(win.WindowState):
    """Fixed-shape arrays of a batch of Vaults games (P players, K crew slots)."""

    hand: np.ndarray  # int8 [B,P,54]  cards in hand by type
    known: np.ndarray  # int8 [B,P,54]  of those, cards everyone knows are there
    crew: np.ndarray  # int8 [B,P,K,44]  cards in each crew slot by type
    cstats: np.ndarray  # int16 [B,P,K,6]  per crew (kept in step with crew): skills with its
    #                     tools counted twice (the most overloads give), bosses, members, tools
    spent: np.ndarray  # bool [B,P,K]  the crew flipped a vault this turn
    blocked: np.ndarray  # bool [B,P,K]  the crew's crack was cancelled this turn
    mods: np.ndarray  # int8 [B,P,K,3]  Sabotage/Reinforce modifiers until the end of the turn
    #                    (spent, blocked and mods are clear in every slot without a crew)
    deck: np.ndarray  # int8 [B,76]  main deck, top at deck_len-1
    deck_len: np.ndarray  # int16 [B]
    ddeck: np.ndarray  # int8 [B,20]  disrupt deck (disrupt index 0-9), top at ddeck_len-1
    ddeck_len: np.ndarray  # int16 [B]
    dused: np.ndarray  # int8 [B,10]  used disrupt cards by type
    pchar: np.ndarray  # int8 [B,52]  Police station character pile, top at pc_len-1
    pc_len: np.ndarray  # int16 [B]
    police_count: np.ndarray  # int8 [B,44]  cards in the Police station by type
    ptool: np.ndarray  # int8 [B,24]  Police station tool pile
    pt_len: np.ndarray  # int16 [B]
    vpub: np.ndarray  # int8 [B,3,9]  public vault piles, top at vpub_len-1
    vpub_len: np.ndarray  # int16 [B,3]
    vpriv: np.ndarray  # int8 [B,P,27]  private vault piles
    vpriv_len: np.ndarray  # int16 [B,P]
    tops: np.ndarray  # int8 [B,7]  top vault of each public pile, then of seats 0-3's piles
    #                   (-1: empty, or no such seat); kept in step with the piles
    loot: np.ndarray  # int16 [B,P]
    revealed: np.ndarray  # bool [B,27]  front is public (cracked)
    known_face: np.ndarray  # bool [B,P,27]  fronts a player looked at secretly
    boss_offer: np.ndarray  # int8 [B,P,2]  the two bosses offered at setup (low, high)
    boss_pick: np.ndarray  # int8 [B,P]  chosen boss, -1 before the choice
    first_player: np.ndarray  # int8 [B]
    active: np.ndarray  # int8 [B]  whose turn it is
    phase: np.ndarray  # int8 [B]  1 draw/bailout, 2 planning, 3 jobs, 4 hideout
    actions: np.ndarray  # int8 [B]  actions left this turn
    can_draw: np.ndarray  # bool [B]  the turn started with fewer than five cards
    draw_source: np.ndarray  # int8 [B]  0 none yet, 1 main deck, 2 Police station
    turns_taken: np.ndarray  # int16 [B,P]
    turns_total: np.ndarray  # int16 [B]
    dec: np.ndarray  # int8 [B]  pending decision (components.DECISIONS)
    owner: np.ndarray  # int8 [B]  who makes the pending decision / resolves the effect
    card_in_play: np.ndarray  # int8 [B]  card being played or whose effect resolves, -1
    effect: np.ndarray  # int8 [B]  effect being resolved (components.EFFECTS)
    stack: np.ndarray  # int8 [B,8]  effects still to resolve, top at slen-1
    slen: np.ndarray  # int8 [B]
    tgt_player: np.ndarray  # int8 [B]  chosen player (absolute seat)
    tgt_crew: np.ndarray  # int8 [B]  chosen crew slot
    src_crew: np.ndarray  # int8 [B]  crew a card moves from
    move_card: np.ndarray  # int8 [B]  card type being moved
    crack_crew: np.ndarray  # int8 [B]  crew slot of the active player's declared crack
    crack_target: np.ndarray  # int8 [B]  0-2 public pile, 3.. opponent at offset +1.., -1
    over: np.ndarray  # int8 [B,12]  tools overloaded for the declared crack
    key_used: np.ndarray  # bool [B]  a Master Key was played on the declared crack
    resume: np.ndarray  # int8 [B]  what the closing window resumes (RESUME_*)
    game_over: np.ndarray  # bool [B]  ended by the rules during this step
    rng_counter: np.ndarray  # uint64 [B]


# NumPy reduces a short last axis element by element, which is slow for a large batch: there
# the helpers below combine the columns instead (a batch of one keeps the single reduction).
# Control-flow tests read np.count_nonzero(x): several times cheaper than x.any() on the small
# arrays a step deals in.
SMALL_BATCH = 64


def _any_last(a: np.ndarray) -> np.ndarray:
    """a.any(-1) for a short last axis."""
    if a.shape[0] <= SMALL_BATCH:
        return a.any(-1)
    out = a[..., 0] | a[..., 1]
    for j in range(2, a.shape[-1]):
        out |= a[..., j]
    return out


def _among(g: np.ndarray, arr: np.ndarray, value: int) -> tuple:
    """(the games of g where arr[g] == value, the others); a batch of one by a scalar test."""
    if g.size == 1:
        return (g, g[:0]) if arr[g[0]] == value else (g[:0], g)
    m = arr[g] == value
    return g[m], g[~m]


def _meets(skills: np.ndarray, combo: np.ndarray) -> np.ndarray:
    """bool: skills [...,3] meet a combination [...,3] (broadcast) in every skill."""
    if skills.shape[0] <= SMALL_BATCH:
        return (skills >= combo).all(-1)
    return ((skills[..., 0] >= combo[..., 0]) & (skills[..., 1] >= combo[..., 1])
            & (skills[..., 2] >= combo[..., 2]))


def _seat_rows(arr: np.ndarray, g: np.ndarray, p: np.ndarray) -> np.ndarray:
    """arr[g, p] of a per-seat array [B,P,...], to read only: a batch of one gets a view (no
    fancy indexing), a large batch one take over the flattened seats (several times faster
    than fancy indexing with two index arrays)."""
    if g.size == 1:
        return arr[g[0], p[0]][None]
    if g.size <= SMALL_BATCH:
        return arr[g, p]
    return arr.reshape((-1,) + arr.shape[2:]).take(g * arr.shape[1] + p, axis=0)


def _crew_exists(cstats: np.ndarray) -> np.ndarray:
    """bool: crews (their `cstats` [...,6]) that exist: a crew holds a boss or a member."""
    return (cstats[..., ST_BOSS] + cstats[..., ST_MEM]) > 0


def _tool_room(cstats: np.ndarray) -> np.ndarray:
    """bool: crews (their `cstats` [...,6]) that exist and can take another tool."""
    return _crew_exists(cstats) & (cstats[..., ST_TOOL] < C.MAX_TOOLS)


_KEYS = slice(C.KEY_CARDS[0], C.KEY_CARDS[-1] + 1)
assert _KEYS.stop - _KEYS.start == len(C.KEY_CARDS)  # neighbours in the hand


def _holds_key(hand: np.ndarray) -> np.ndarray:
    """bool [n]: hands [n,54] that hold a disrupt with the Master Key."""
    return hand[:, _KEYS].any(1)


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


def _offset_label(i: int) -> str:
    return "player +0 (self)" if i == 0 else f"player +{i}"


class Vaults(Game):
    """Vaults for 2-4 players (see the module docs of `vaults_v0`)."""

    name = "vaults_v0"
    title = "Vaults"
    version = 0
    player_counts = (2, 3, 4)
    score_scale = 400.0
    settles_forced = True  # `_refresh` plays forced decisions inside the step
    GAME_OPTIONS = {
        "goal": Option(400, "loot goal that ends the game at once (rulebook: £400-800 for 2 "
                       "players, £400-700 for 3, £400-600 for 4)",
                       check=lambda v: isinstance(v, int) and 100 <= v <= C.TOTAL_LOOT,
                       allowed=f"an int in 100..{C.TOTAL_LOOT}"),
        "first_player": Option(None, "seat of the first player (the dealer sits before it); "
                               "None = drawn from the seed",
                               check=lambda v: v is None or (isinstance(v, int) and 0 <= v < 4),
                               allowed="None or a seat index"),
        "max_crews": Option(6, "crew slots per player (the rulebook sets no limit)",
                            check=lambda v: isinstance(v, int) and 2 <= v <= 8,
                            allowed="an int in 2..8"),
        "response_windows": Option("crack", "when other players may play disrupts: after each "
                                   "crack declaration, after every action, or never",
                                   ("crack", "every_action", "none")),
        "max_turns": Option(1000, "stall guard: the game ends as at deck exhaustion after this "
                            "many turns in total",
                            check=lambda v: isinstance(v, int) and v >= 100,
                            allowed="an int >= 100"),
    }

    @classmethod
    def option_spec(cls) -> dict[str, Option]:
        """As the base, with 2 players by default [spec §6]."""
        spec = super().option_spec()
        spec["num_players"] = dataclasses.replace(spec["num_players"], default=2)
        return spec

    # -- layouts ---------------------------------------------------------------------------
    def _setup(self) -> None:
        o = self.options
        if o["first_player"] is not None and o["first_player"] >= o["num_players"]:
            raise ValueError(f"{self.name}: invalid value {o['first_player']!r} for option "
                             f"'first_player'; allowed: None or 0..{o['num_players'] - 1}")
        N, K = self.num_players, o["max_crews"]
        self.K = K
        self._options_seen: dict[bytes, tuple] = {}  # `_class_options` for a batch of one
        # crack target columns of `tops` seen from each active seat: the public piles, then
        # the opponents' piles by offset (seats beyond N stand for the unused targets)
        self._target_cols = np.array([[0, 1, 2] + [3 + (a + r) % N if r < N else 3 + r
                                                   for r in range(1, 4)] for a in range(N)])
        self.goal = o["goal"]
        self.max_turns = o["max_turns"]
        self.windows = o["response_windows"]
        names = C.CARD_NAMES
        self.action_layout = ActionLayout([
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
            ActionRange("skill", 3, lambda i: f"skill {SKILL_NAMES[i]}",
                        "a skill"),
            ActionRange("option", 2, lambda i: f"option {i}", "boss choice low/high, disrupt "
                        "effect A/B, Police pile characters/tools"),
            ActionRange("pass", 1, lambda i: "pass", "pass / finish"),
        ])
        al = self.action_layout
        self.A_MOVE, self.A_CRACK = al.start["move"], al.start["crack"]
        self.A_DRAW = al.start["draw_deck"]
        self.A_END = al.start["end_turn"]
        self.A_CREW, self.A_NEW = al.start["crew"], al.start["new_crew"]
        self.A_POLICE = al.start["boss_to_police"]
        self.A_PLAYER, self.A_PILE = al.start["player"], al.start["pile"]
        self.A_SKILL, self.A_OPT = al.start["skill"], al.start["option"]
        self.A_PASS = al.start["pass"]
        # what a MAIN action does: an index into _MAIN_ACTIONS (0 also for actions MAIN never
        # offers)
        kind = np.zeros(al.size, np.int64)
        kind[C.DISRUPT0:54] = 1
        kind[self.A_MOVE:self.A_MOVE + K] = 2
        kind[self.A_CRACK:self.A_CRACK + K] = 3
        kind[self.A_DRAW:self.A_END] = 4
        kind[self.A_END] = 5
        self._main_kind = kind
        crew_fields = tuple(Field(f"crew{k}", 53, f"crew slot {k}: exists, boss one-hot (12), "
                                  "member counts/2 (20), tool counts/2 (12), skills/30 (3), "
                                  "spent, blocked, modifiers (m+6)/12 (3)") for k in range(K))
        self.observation_layout = ObservationLayout([
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
        self._layout = self.observation_layout  # one seat's view (reveal_hidden wraps it)

    def default_max_steps(self) -> int:
        # random play (10 000 games per player count, README) never exceeded 3 000 decisions;
        # the bound also stays above what the 1000-turn stall guard allows in practice
        return 30000

    # -- helpers -------------------------------------------------------------------------------
    def _rand(self, st: VaultsState, g: np.ndarray, n: int, stream: int) -> np.ndarray:
        """Uniforms [len(g), n] from each game's own counter (then advanced)."""
        c = st.rng_counter[g]
        u = rng.uniform(st.key[g][:, None], stream,
                        c[:, None] * np.uint64(128) + np.arange(n, dtype=np.uint64)[None, :])
        st.rng_counter[g] = c + np.uint64(1)
        return u

    def _push(self, st: VaultsState, g: np.ndarray, codes: np.ndarray | int) -> None:
        if g.size == 0:
            return
        if isinstance(codes, (int, np.integer)):
            if codes <= 0:
                return
        else:
            keep = codes > 0
            g, codes = g[keep], codes[keep]
        st.stack[g, st.slen[g]] = codes
        st.slen[g] += 1

    def _push_rows(self, st: VaultsState, g: np.ndarray, codes: np.ndarray) -> None:
        """Push codes [n,m] of each game in column order (zeros skipped): as m `_push`es."""
        keep = codes > 0
        pos = st.slen[g][:, None] + np.cumsum(keep, 1, dtype=np.int8) - 1
        r, c = np.nonzero(keep)
        st.stack[g[r], pos[r, c]] = codes[r, c]
        st.slen[g] += keep.sum(1, dtype=np.int8)

    def exists(self, st: VaultsState, g: np.ndarray | slice = slice(None)) -> np.ndarray:
        """bool [n,P,K]: which crew slots of games g hold a crew."""
        return _crew_exists(st.cstats[g])

    def _crew_stats(self, cr: np.ndarray) -> np.ndarray:
        """`cstats` [...,6] of crews cr [...,44]: a seat's crews [n,K,44] multiply as a stack
        of small products, the single crews of a move, a play or a burn [n,44] as one product
        (see "Speed" in the README)."""
        return (cr.astype(np.float32) @ _STATS).astype(np.int16)

    def _skills(self, crew: np.ndarray, mods: np.ndarray, tools_twice: bool) -> np.ndarray:
        """Crew skills [...,3]: cards (+ every tool again if `tools_twice`) + modifiers >= 0."""
        table = _SKILLS_TWICE if tools_twice else _SKILLS_F
        s = crew.astype(np.float32) @ table
        return np.maximum(s.astype(np.int16) + mods, 0)

    def _crack_skills(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        """Current skills [n,3] of the declared crack's crew, with its overloads."""
        a, k = st.active[g], st.crack_crew[g]
        cr = st.crew[g, a, k]
        over = np.minimum(st.over[g], cr[:, C.TOOL0:]).astype(np.int16)
        return np.maximum(cr.astype(np.int16) @ C.SKILLS + over @ C.SKILLS[C.TOOL0:]
                          + st.mods[g, a, k], 0)

    def _target_tops(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        """Top vault id [n,6] of each crack target seen from the active player, -1 if none."""
        cols = self._target_cols.take(st.active[g], axis=0)
        if g.size == 1:
            return st.tops[g[0]].take(cols)
        return st.tops.reshape(-1).take(g[:, None] * st.tops.shape[1] + cols)

    def _crack_top(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        """Top vault id [n] of the declared crack's target, -1 if its pile is empty."""
        cols = self._target_cols[st.active[g], st.crack_target[g]]
        return st.tops.reshape(-1).take(g * st.tops.shape[1] + cols)

    def _sync_tops(self, st: VaultsState, g: np.ndarray) -> None:
        """Recompute `tops` of games g from their piles (after the piles changed)."""
        N = self.num_players
        pl = st.vpub_len[g]  # [n,3]
        t = st.vpub.reshape(-1).take(g[:, None] * 27 + _PILE_BASE + np.maximum(pl - 1, 0))
        st.tops[g, :3] = np.where(pl > 0, t, -1)
        ql = st.vpriv_len[g]  # [n,N]
        t = st.vpriv.reshape(-1).take((g[:, None] * N + np.arange(N)) * 27 + np.maximum(ql - 1, 0))
        st.tops[g, 3:3 + N] = np.where(ql > 0, t, -1)

    def _leave_hand(self, st: VaultsState, g: np.ndarray, p: np.ndarray, t: np.ndarray) -> None:
        """A card leaves a hand: one fewer, and at most one fewer known (public view)."""
        st.hand[g, p, t] -= 1
        st.known[g, p, t] = np.maximum(st.known[g, p, t] - 1, 0)

    def _to_police(self, st: VaultsState, g: np.ndarray, t: np.ndarray) -> None:
        """Put one card per game on top of its Police pile (characters or tools)."""
        if g.size == 0:
            return
        t = np.asarray(t, np.int64)
        st.police_count[g, t] += 1
        ch = t < C.TOOL0
        gc, gt = g[ch], g[~ch]
        st.pchar[gc, st.pc_len[gc]] = t[ch]
        st.pc_len[gc] += 1
        st.ptool[gt, st.pt_len[gt]] = t[~ch]
        st.pt_len[gt] += 1

    def _to_police_counts(self, st: VaultsState, g: np.ndarray, counts: np.ndarray) -> None:
        """Put counts [n,44] of cards (or [n,12] of tools only) on the Police piles, in type
        order (bosses, members by type, then tools by type) [spec §2.12]."""
        keep = counts.any(1)
        if not keep.all():
            g, counts = g[keep], counts[keep]
        if g.size == 0:
            return
        first = C.N_CREW_TYPES - counts.shape[1]  # the type of counts' first column
        st.police_count[g, first:] += counts.astype(np.int8)
        for pile, plen, lo, hi in ((st.pchar, st.pc_len, 0, C.TOOL0),
                                   (st.ptool, st.pt_len, C.TOOL0, C.N_CREW_TYPES)):
            if hi <= first:
                continue
            part = counts[:, max(lo - first, 0):hi - first]
            if not np.count_nonzero(part):
                continue
            v = _SLOT_COPY[:, :2 * part.shape[1]] < part[:, _SLOT_TYPE[:2 * part.shape[1]]]
            r, c = np.nonzero(v)  # two slots per type, the second used by a second copy
            rank = np.arange(r.size) - np.searchsorted(r, r)  # of each card in its game's row
            pile[g[r], plen[g[r]] + rank] = lo + _SLOT_TYPE[c]
            plen[g] += v.sum(1, dtype=plen.dtype)

    def _draw_main(self, st: VaultsState, g: np.ndarray, p: np.ndarray) -> None:
        """Draw the main deck's top into p's hand; the last card ends the game."""
        if g.size == 0:
            return
        ok = st.deck_len[g] > 0
        g, p = g[ok], p[ok]
        st.deck_len[g] -= 1
        top = st.deck[g, st.deck_len[g]]
        st.hand[g, p, top] += 1
        st.game_over[g[st.deck_len[g] == 0]] = True

    def _gain_disrupt(self, st: VaultsState, g: np.ndarray, p: np.ndarray) -> None:
        """Draw a disrupt; an empty deck is first rebuilt from the used pile, shuffled."""
        if g.size == 0:
            return
        empty = g[st.ddeck_len[g] == 0]
        if empty.size:
            used = st.dused[empty]
            copy = np.arange(C.DISRUPT_DECK_SIZE) % 2
            valid = copy[None, :] < used[:, C.DISRUPT_TYPES]
            u = self._rand(st, empty, C.DISRUPT_DECK_SIZE, S_RESHUFFLE)
            order = np.argsort(np.where(valid, u, 2.0), axis=1, kind="stable")
            st.ddeck[empty] = C.DISRUPT_TYPES[order]
            st.ddeck_len[empty] = valid.sum(axis=1)
            st.dused[empty] = 0
        ok = st.ddeck_len[g] > 0
        g, p = g[ok], p[ok]
        st.ddeck_len[g] -= 1
        d = st.ddeck[g, st.ddeck_len[g]]
        st.hand[g, p, C.DISRUPT0 + d] += 1

    def _can_gain_disrupt(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        return (st.ddeck_len[g] > 0) | st.dused[g].any(1)

    def _normalize(self, st: VaultsState, g: np.ndarray, p: np.ndarray) -> None:
        """After seat p's crews changed (one seat per game): tools left without a boss or
        member return to hand (known), except the declared crack's overloaded tools, which go
        to the Police station; empty crews clear; `cstats` follows."""
        if g.size == 0:
            return
        cr = _seat_rows(st.crew, g, p)  # [n,K,44]
        was = _seat_rows(st.cstats, g, p)  # the stats before the change
        stats = self._crew_stats(cr)
        ex = _crew_exists(stats)
        dissolved = ~ex & _crew_exists(was)
        orphan = ~ex & (stats[..., ST_TOOL] > 0)  # [n,K]
        if np.count_nonzero(orphan):
            back = (cr[..., C.TOOL0:] * orphan[..., None]).sum(axis=1)  # [n,12]
            # the cracking crew's overloaded tools go to the Police station even when the crew
            # dissolves before they are burned [RB "Tools"; spec §2.7 step 5]; copies that left
            # the crew earlier count as the non-overloaded ones (as in `_burn_overloads`)
            r = np.flatnonzero(st.over[g].any(1) & (st.active[g] == p))
            if r.size:
                k = st.crack_crew[g[r]].astype(np.int64)
                r, k = r[orphan[r, k]], k[orphan[r, k]]
                burn = np.minimum(st.over[g[r]], cr[r, k, C.TOOL0:])
                back[r] -= burn
                st.over[g[r]] -= burn
                self._to_police_counts(st, g[r], burn)
            st.hand[g, p, C.TOOL0:C.DISRUPT0] += back
            st.known[g, p, C.TOOL0:C.DISRUPT0] += back
            st.crew[g, p, :, C.TOOL0:] = cr[..., C.TOOL0:] * ex[..., None]
            stats *= ex[..., None]  # the orphans are empty now
        st.cstats[g, p] = stats
        if np.count_nonzero(dissolved):
            r, k = np.nonzero(dissolved)
            self._dissolve(st, g[r], p[r], k)

    def _dissolve(self, st: VaultsState, g: np.ndarray, p: np.ndarray, k: np.ndarray) -> None:
        """Crews k of seats p that no longer exist lose their flags and modifiers: a slot
        without a crew holds none, so a crew formed there starts unspent, unblocked and
        unmodified."""
        st.spent[g, p, k] = False
        st.blocked[g, p, k] = False
        st.mods[g, p, k] = 0

    # -- setup [RB "Starting the game"] ------------------------------------------------------
    def _init(self, keys: np.ndarray) -> VaultsState:
        B, N, K = len(keys), self.num_players, self.K
        z = lambda *s, dt=np.int8: np.zeros((B, *s), dt)  # noqa: E731
        st = VaultsState(
            current_player=z(), legal_action_mask=z(self.num_actions, dt=bool),
            terminated=z(dt=bool), truncated=z(dt=bool), rewards=z(N, dt=np.float32),
            steps=z(dt=np.int32), key=keys.astype(np.uint64), **win.window_arrays(B),
            hand=z(N, 54), known=z(N, 54), crew=z(N, K, 44),
            cstats=z(N, K, len(_STATS.T), dt=np.int16), spent=z(N, K, dt=bool),
            blocked=z(N, K, dt=bool), mods=z(N, K, 3), deck=z(76), deck_len=z(dt=np.int16),
            ddeck=z(20), ddeck_len=z(dt=np.int16), dused=z(10), pchar=z(52),
            pc_len=z(dt=np.int16), police_count=z(44), ptool=z(24), pt_len=z(dt=np.int16),
            vpub=z(3, 9), vpub_len=z(3, dt=np.int16), vpriv=z(N, 27),
            vpriv_len=z(N, dt=np.int16), tops=np.full((B, 7), -1, np.int8),
            loot=z(N, dt=np.int16), revealed=z(27, dt=bool), known_face=z(N, 27, dt=bool),
            boss_offer=z(N, 2), boss_pick=np.full((B, N), -1, np.int8), first_player=z(),
            active=z(), phase=z(), actions=z(), can_draw=z(dt=bool), draw_source=z(),
            turns_taken=z(N, dt=np.int16), turns_total=z(dt=np.int16), dec=z(), owner=z(),
            card_in_play=np.full(B, -1, np.int8), effect=z(), stack=z(STACK), slen=z(),
            tgt_player=z(), tgt_crew=z(), src_crew=z(), move_card=z(), crack_crew=z(),
            crack_target=np.full(B, -1, np.int8), over=z(12), key_used=z(dt=bool),
            resume=z(), game_over=z(dt=bool), rng_counter=z(dt=np.uint64))
        g = np.arange(B)
        # dealer and first player [RB "Dealer", "Who goes first?"]
        if self.options["first_player"] is None:
            fp = (self._rand(st, g, 1, S_BOSS)[:, 0] * N).astype(np.int8)
        else:
            fp = np.full(B, self.options["first_player"], np.int8)
        st.first_player[:] = fp
        # two bosses to each player, dealt in seat order from the first player
        bosses = np.argsort(self._rand(st, g, C.N_BOSS, S_BOSS), axis=1).astype(np.int8)
        for i in range(N):
            p = (fp.astype(np.int64) + i) % N
            st.boss_offer[g, p] = np.sort(bosses[:, 2 * i:2 * i + 2], axis=1)
        # the vault piles: 27 shuffled vaults in 3 public piles of 9
        st.vpub[:] = np.argsort(self._rand(st, g, C.N_VAULTS, S_VAULT), axis=1).reshape(B, 3, 9)
        st.vpub_len[:] = C.PILE_SIZE
        self._sync_tops(st, g)
        # the disrupt deck
        order = np.argsort(self._rand(st, g, C.DISRUPT_DECK_SIZE, S_DISRUPT), axis=1)
        st.ddeck[:] = C.DISRUPT_TYPES[order]
        st.ddeck_len[:] = C.DISRUPT_DECK_SIZE
        st.dec[:] = D["BOSS_CHOICE"]
        st.owner[:] = fp
        st.active[:] = fp
        self._refresh(st, g)
        return st

    def _boss_choice(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        """A secret boss choice; after the last one, crews, main deck and hands are made."""
        N = self.num_players
        p = st.owner[g].astype(np.int64)
        st.boss_pick[g, p] = st.boss_offer[g, p, a - self.A_OPT]
        nxt = (p + 1) % N
        done = nxt == st.first_player[g]
        st.owner[g[~done]] = nxt[~done]
        d = g[done]
        if d.size == 0:
            return
        n = d.size
        picks = st.boss_pick[d].astype(np.int64)  # [n,N]
        rows = np.arange(n)[:, None]
        st.crew[d[:, None], np.arange(N)[None, :], 0, picks] = 1
        st.cstats[d] = self._crew_stats(st.crew[d])
        # the unchosen bosses are shuffled with members and tools into the main deck
        taken = np.zeros((n, C.DECK_SIZE), bool)
        taken[rows, picks] = True  # bosses are single copies at deck positions 0-11
        u = self._rand(st, d, C.DECK_SIZE, S_DECK)
        order = np.argsort(np.where(taken, 2.0, u), axis=1, kind="stable")
        st.deck[d] = C.DECK_TYPES[order]
        size = C.DECK_SIZE - N
        # four cards each, dealt from the top in seat order
        fp = st.first_player[d].astype(np.int64)
        j = np.arange(C.START_HAND * N)
        cards = st.deck[d[:, None], size - 1 - j]  # [n, 4N] in dealing order
        np.add.at(st.hand, (d[:, None], (fp[:, None] + j) % N, cards), 1)
        st.deck_len[d] = size - C.START_HAND * N
        st.dec[d] = NONE
        self._start_turn(st, d, fp)

    # -- the turn [RB "Action Management & Hand Size", "Game Turns"] -----------------------
    def _start_turn(self, st: VaultsState, g: np.ndarray, p: np.ndarray) -> None:
        if g.size == 0:
            return
        st.active[g] = p
        st.owner[g] = p
        st.actions[g] = C.ACTIONS_PER_TURN
        st.phase[g] = 1
        st.draw_source[g] = 0
        st.can_draw[g] = _seat_rows(st.hand, g, p).sum(1, dtype=np.int16) < C.HAND_LIMIT

    def _end_turn(self, st: VaultsState, g: np.ndarray) -> None:
        """Hand limit first (DISCARD decisions), then the next player's turn."""
        if g.size == 0:
            return
        a = st.active[g].astype(np.int64)
        big = _seat_rows(st.hand, g, a).sum(1, dtype=np.int16) > C.HAND_LIMIT
        st.dec[g[big]] = D["DISCARD"]
        st.owner[g[big]] = a[big]
        self._next_turn(st, g[~big])

    def _next_turn(self, st: VaultsState, g: np.ndarray) -> None:
        if g.size == 0:
            return
        a = st.active[g].astype(np.int64)
        # modifiers and spent/blocked flags last until the end of the turn [RB "Turn"]
        st.mods[g] = 0
        st.spent[g] = False
        st.blocked[g] = False
        st.turns_taken[g, a] += 1
        st.turns_total[g] += 1
        st.dec[g] = NONE
        st.game_over[g[st.turns_total[g] >= self.max_turns]] = True
        self._start_turn(st, g, (a + 1) % self.num_players)

    # -- the step: dispatch by decision, then advance to the next decision ---------------------
    def _step(self, st: VaultsState, idx: np.ndarray, actions: np.ndarray) -> None:
        # resolve effects up to the next decisions; forced ones leave games to resolve again.
        # In a large batch, the chosen actions are taken decision type by decision type in one
        # pass with the forced choices they open, so that the games this leaves with nothing
        # pending resolve with the rest in one pass (and a decision type taken by some players
        # and forced on others takes one handler call); MAIN decisions wait until no forced
        # chain is left elsewhere, so that their (costly) mask is computed in one call rather
        # than once per round.
        waiting = []
        large = self.auto_forced and idx.size > SMALL_BATCH
        if large:
            idx = self._refresh(st, idx, True, chosen=actions)
        else:
            for d, sel in groups(st.dec[idx]):
                self._HANDLERS[d](self, st, idx[sel], actions[sel])
        while idx.size or waiting:
            if idx.size:
                self._advance(st, idx)
                over, idx = _among(idx, st.game_over, True)
                if over.size:
                    st.game_over[over] = False
                    self._finish(st, over)
                if large:
                    main = st.dec[idx] == D["MAIN"]
                    waiting.append(idx[main])
                    idx = idx[~main]
            if idx.size == 0 and waiting:
                idx, waiting = np.concatenate(waiting), []
            idx = self._refresh(st, idx, self.auto_forced)

    def _advance(self, st: VaultsState, idx: np.ndarray) -> None:
        """Resolve queued effects, windows and turn changes until a decision is pending.

        In a batch, games with nothing queued wait while others still resolve effects, so
        that one `_continue` call takes them all, not one per round of effects."""
        g, idle = idx, []  # idle: games with nothing queued, waiting for the others
        for _ in range(400):  # a guard against effects that never settle
            # a game with a decision pending keeps it until the next step
            if g.size == 1 and not idle:  # a batch of one: scalar tests
                b = g[0]
                if st.dec[b] != NONE or st.game_over[b]:
                    return
                if st.slen[b] > 0:
                    self._start_effects(st, g)
                else:
                    self._continue(st, g)
                continue
            g = g[(st.dec[g] == NONE) & ~st.game_over[g]]
            has = st.slen[g] > 0
            if np.count_nonzero(has):
                idle.append(g[~has])
                g = g[has]
                self._start_effects(st, g)
                continue
            if idle:
                g, idle = np.concatenate([*idle, g]), []
            if g.size == 0:
                return
            self._continue(st, g)
        raise RuntimeError("vaults: effect resolution did not settle")

    def _continue(self, st: VaultsState, g: np.ndarray) -> None:
        """Nothing queued: the window goes on, the crack flips, or the active player acts."""
        N = self.num_players
        _, w = _among(g, st.win_kind, win.NO_WINDOW)
        if w.size:
            can = st.hand[w, :, C.DISRUPT0:].any(2)
            act = st.win_kind[w] == WIN_ACTION
            can[np.flatnonzero(act), st.active[w[act]]] = False
            seat = win.next_responder(st, w, can, N)
            ask = seat >= 0
            st.dec[w[ask]] = D["RESPONSE"]
            st.owner[w[ask]] = seat[ask]
            g = _among(g, st.dec, NONE)[0]  # closed windows go on at once
        flip, g = _among(g, st.resume, RESUME_FLIP)
        if flip.size:
            st.resume[flip] = RESUME_NONE
            self._flip(st, flip)
        if g.size:
            a = st.active[g]
            st.owner[g] = a
            st.card_in_play[g] = -1
            st.effect[g] = NONE
            st.dec[g] = D["MAIN"]
            idle = _among(g, st.actions, 0)[0]  # no action left: only a disrupt could be played
            if idle.size:
                stuck = idle[~st.hand[idle, st.active[idle], C.DISRUPT0:].any(1)]
                self._end_turn(st, stuck)

    # -- MAIN -------------------------------------------------------------------------------
    def _main(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        st.dec[g] = NONE
        for k, sel in groups(self._main_kind[a]):
            self._MAIN_ACTIONS[k](self, st, g[sel], a[sel])

    def _play_card(self, st: VaultsState, g: np.ndarray, c: np.ndarray) -> None:
        """Play a boss, member or tool from hand: its ability first, then the destination."""
        self._leave_hand(st, g, st.active[g], c)
        st.actions[g] -= 1
        st.phase[g] = np.where(st.phase[g] <= 2, 2, 4)
        st.draw_source[g] = 0
        st.card_in_play[g] = c
        if self.windows == "every_action":
            self._push(st, g, E["ACTION_WINDOW"])
        self._push(st, g, E["PLAY_CARD"])
        self._push(st, g, C.PLAY_ABILITY[c])  # members only: bosses act on a Success

    def _main_disrupt(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        """Play a disrupt: free; its effect is chosen next."""
        self._play_disrupt(st, g, st.active[g], a)

    def _declare_move(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        st.src_crew[g] = a - self.A_MOVE
        st.dec[g] = D["MOVE_CARD"]

    def _declare_crack(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        st.crack_crew[g] = a - self.A_CRACK
        st.phase[g] = 3  # declared: no going back [RB FAQ]
        st.dec[g] = D["CRACK_TARGET"]

    def _main_draw(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        self._draw_action(st, g, st.active[g].astype(np.int64), a - self.A_DRAW)

    def _main_end(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        self._end_turn(st, g)

    def _play_disrupt(self, st: VaultsState, g: np.ndarray, p: np.ndarray, a: np.ndarray) -> None:
        if g.size == 0:
            return
        self._leave_hand(st, g, p, a)
        st.dused[g, a - C.DISRUPT0] += 1
        st.card_in_play[g] = a
        st.owner[g] = p
        st.dec[g] = D["DISRUPT_EFFECT"]

    def _draw_action(self, st: VaultsState, g: np.ndarray, p: np.ndarray, src: np.ndarray) -> None:
        """1. Draw/Bailout: one card per action from one source [RB]."""
        if g.size == 0:
            return
        st.actions[g] -= 1
        deck = src == 0
        self._draw_main(st, g[deck], p[deck])
        st.draw_source[g[deck]] = 1
        pol = g[~deck]
        if pol.size:
            self._bail(st, pol, p[~deck], src[~deck] - 1)
            st.draw_source[pol] = 2
        if self.windows == "every_action":
            self._push(st, g, E["ACTION_WINDOW"])

    def _bail(self, st: VaultsState, g: np.ndarray, p: np.ndarray, pile: np.ndarray) -> None:
        """Take the top of a Police pile (0 characters, 1 tools) into hand, face up."""
        if g.size == 0:
            return
        ch = pile == 0
        gc, pc = g[ch], p[ch]
        st.pc_len[gc] -= 1
        t = st.pchar[gc, st.pc_len[gc]]
        st.hand[gc, pc, t] += 1
        st.known[gc, pc, t] += 1
        st.police_count[gc, t] -= 1
        gt, pt = g[~ch], p[~ch]
        st.pt_len[gt] -= 1
        t = st.ptool[gt, st.pt_len[gt]]
        st.hand[gt, pt, t] += 1
        st.known[gt, pt, t] += 1
        st.police_count[gt, t] -= 1

    # -- playing a card: destination [RB "Forming Crews"] ------------------------------------
    def _new_slot(self, st: VaultsState, g: np.ndarray, p: np.ndarray) -> np.ndarray:
        """Lowest free crew slot of p (K if none)."""
        cs = _seat_rows(st.cstats, g, p)
        free = ~_crew_exists(cs)
        return np.where(free.any(axis=1), free.argmax(axis=1), self.K)

    def _dest_slot(self, st: VaultsState, g: np.ndarray, p: np.ndarray, a: np.ndarray,
                   new: np.ndarray) -> np.ndarray:
        """The crew slot a crew action `a` names, or p's lowest free slot where `new`."""
        k = a - self.A_CREW
        return np.where(new, self._new_slot(st, g, p), k) if np.count_nonzero(new) else k

    def _play_dest(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        p = st.active[g]
        c = st.card_in_play[g]
        st.dec[g] = NONE
        st.card_in_play[g] = -1
        pol = a == self.A_POLICE
        if np.count_nonzero(pol):
            self._to_police(st, g[pol], c[pol])
            self._gain_disrupt(st, g[pol], p[pol])
        new = a == self.A_NEW
        k = self._dest_slot(st, g, p, a, new)
        put = ~pol
        gp, pp, kp = g[put], p[put], k[put]
        st.crew[gp, pp, kp, c[put]] += 1
        # (a new crew's slot holds no flags: see `_dissolve`)
        st.cstats[gp, pp, kp] = self._crew_stats(st.crew[gp, pp, kp])

    # -- moving cards between crews [RB "Forming Crews", FAQ "refreshed"] -------------------
    def _move_class_ok(self, cnt: np.ndarray, ex: np.ndarray, room: np.ndarray) -> np.ndarray:
        """bool [3,K,n]: a card of each class in each crew (batch last: counts cnt [3,K,n];
        crews that exist ex [K,n]; room in each class room [3,K,n]) could move.

        A tool needs another crew (a move, or a swap if it is full). A boss or member needs
        another crew that is full in its class (a swap), or one with room while the source
        crew stays valid (keeps a boss/member, or has no tools), or a free slot for a new crew
        while the source keeps a boss/member [RB "Forming Crews"; spec §2.6]."""
        bm = cnt[0] + cnt[1]
        # other crews with room, and other crews at all (those without room are full)
        n_room = room.sum(1, keepdims=True, dtype=np.int16) - room
        n_ex = ex.sum(0, keepdims=True, dtype=np.int16) - ex
        keeps = bm >= 2
        valid_after = keeps | (cnt[2] == 0)
        ok = (n_ex > n_room) | (valid_after & (n_room > 0)) | (keeps & ~ex.all(0, keepdims=True))
        ok[2] = n_ex > 0  # a tool moves to any other crew (or swaps)
        return ok & (cnt > 0)

    def _class_options(self, cs: np.ndarray) -> tuple:
        """What a seat's crews (their `cstats` rows cs [n,K,6]) allow, from their cards per
        class: which card types can be played (dest [n,44]: a crew with room for the card's
        class, or a free slot for a boss or member; the Police station is not counted), which
        crews exist (ex [n,K]), which crews have a card that can move (movable [n,K]), and
        which cards can move by class and crew (ok [3,K,n], batch last: whole planes per
        operation for large batches). A batch of one looks the answers up by the class counts
        (read-only arrays kept per counts): a game meets the same crews over and over, and the
        AEC env asks in every MAIN step."""
        cnt = cs[..., ST_BOSS:].T.copy()  # [3,K,n]
        if cnt.shape[-1] != 1:
            return self._class_options_of(cnt)
        key = cnt.tobytes()
        got = self._options_seen.get(key)
        if got is None:
            if len(self._options_seen) >= _OPTIONS_KEPT:
                self._options_seen.clear()
            got = self._options_seen[key] = self._class_options_of(cnt)
            for a in got:
                a.flags.writeable = False
        return got

    def _class_options_of(self, cnt: np.ndarray) -> tuple:
        """`_class_options` worked out from the class counts cnt [3,K,n]."""
        ex = (cnt[0] + cnt[1]) > 0
        room = ex & (cnt < _CLASS_CAP)
        dest = room.any(1)  # [3,n]
        dest[:2] |= ~ex.all(0)
        ok = self._move_class_ok(cnt, ex, room)
        return dest.T[:, C.CLASS_OF], ex.T, ok.any(0).T, ok  # (take is slow on dest.T)

    def _move_card_ok(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        """bool [n,44]: cards of the active player's source crew that have a legal
        destination (the class test needs every crew, the cards only the source's)."""
        p, src = st.active[g], st.src_crew[g]
        ok = self._class_options(_seat_rows(st.cstats, g, p))[3][:, src, np.arange(g.size)]
        return (st.crew[g, p, src] > 0) & ok[C.CLASS_OF].T

    def _move_dests(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        """bool [n,K+1]: destinations (crew k, or a new crew last) of the card being moved."""
        K = self.K
        p = st.active[g]
        rows = np.arange(g.size)
        src = st.src_crew[g]
        cls = C.CLASS_OF[st.move_card[g]]
        cnt = _seat_rows(st.cstats, g, p)[..., ST_BOSS:]  # [n,K,3]
        bm = cnt[..., 0] + cnt[..., 1]
        ex = bm > 0
        room = cnt[rows, :, cls] < C.CLASS_CAP[cls][:, None]  # [n,K]
        keeps = bm[rows, src] - 1 >= 1
        valid_after = (cls == 2) | keeps | (cnt[rows, src, 2] == 0)
        out = np.zeros((g.size, K + 1), bool)
        out[:, :K] = ex & ((room & valid_after[:, None]) | ~room)
        out[rows, src] = False
        out[:, K] = (cls < 2) & keeps & (~ex).any(1)
        return out

    def _move_card(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        st.move_card[g] = a
        st.dec[g] = D["MOVE_DEST"]

    def _move_dest(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        p = st.active[g]
        src = st.src_crew[g]
        x = st.move_card[g]
        new = a == self.A_NEW
        k = self._dest_slot(st, g, p, a, new)
        cls = C.CLASS_OF[x]
        full = (st.cstats[g, p, k, ST_BOSS + cls] >= C.CLASS_CAP[cls]) & ~new
        st.tgt_crew[g] = k
        swap = g[full]
        st.dec[swap] = D["SWAP_CARD"]
        if np.count_nonzero(full):
            mv = ~full
            g, p, src, k, x = g[mv], p[mv], src[mv], k[mv], x[mv]
        st.crew[g, p, src, x] -= 1
        st.crew[g, p, k, x] += 1
        self._moved(st, g, p, src, k)

    def _swap_card(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        p = st.active[g].astype(np.int64)
        src, k = st.src_crew[g].astype(np.int64), st.tgt_crew[g].astype(np.int64)
        x = st.move_card[g].astype(np.int64)
        st.crew[g, p, src, x] -= 1
        st.crew[g, p, k, x] += 1
        st.crew[g, p, k, a] -= 1
        st.crew[g, p, src, a] += 1
        self._moved(st, g, p, src, k)

    def _moved(self, st: VaultsState, g: np.ndarray, p: np.ndarray, src: np.ndarray,
               k: np.ndarray) -> None:
        """A card moved from crew src to crew k of seat p (or two swapped): both crews' stats
        follow, and a source left without a boss or member dissolves. A legal move never
        leaves a tool without one (`_move_dests`), so no other crew changes (the generic
        `_normalize` would look at all of them)."""
        if g.size == 0:
            return
        st.actions[g] -= 1
        st.phase[g] = np.maximum(st.phase[g], 2)
        st.dec[g] = NONE
        st.cstats[g, p, k] = self._crew_stats(st.crew[g, p, k])
        left = self._crew_stats(st.crew[g, p, src])
        st.cstats[g, p, src] = left
        gone = ~_crew_exists(left)
        if np.count_nonzero(gone):
            self._dissolve(st, g[gone], p[gone], src[gone])
        if self.windows == "every_action":
            self._push(st, g, E["ACTION_WINDOW"])

    # -- cracking a vault [RB "Crack phase", "Vaults", "Tools", "The Master Key"] -------------
    def _crack_targets(self, st: VaultsState, g: np.ndarray, maxs: np.ndarray,
                       key: np.ndarray) -> np.ndarray:
        """bool [...,6,n]: targets whose combination the skills maxs [3,...,n] meet, or any
        target with a key (key bool [n]); batch last."""
        # [3,6,n], contiguous; an empty pile (-1) wraps to the last column
        cmb = _COMBO_BY_SKILL.take(self._target_tops(st, g).T, axis=1, mode="wrap")
        cmb = cmb.reshape(cmb.shape[:1] + (1,) * (maxs.ndim - 2) + cmb.shape[1:])  # [3,...,6,n]
        sk = np.where(key, _KEY_SKILLS, maxs) if np.count_nonzero(key) else maxs
        sk = sk[..., None, :]  # [3,...,1,n]
        return np.logical_and.reduce(sk >= cmb)  # every skill: one comparison, one reduction

    def _crack_target(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        st.crack_target[g] = a - self.A_PILE
        st.over[g] = 0
        st.key_used[g] = False
        p = st.active[g].astype(np.int64)
        has_tools = st.crew[g, p, st.crack_crew[g], C.TOOL0:].any(1)
        st.dec[g[has_tools]] = D["OVERLOAD"]
        self._after_overload(st, g[~has_tools])

    def _overload(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        t = a < C.DISRUPT0
        st.over[g[t], a[t] - C.TOOL0] += 1
        self._after_overload(st, g[~t])

    def _after_overload(self, st: VaultsState, g: np.ndarray) -> None:
        if g.size == 0:
            return
        key = _holds_key(_seat_rows(st.hand, g, st.active[g]))
        st.dec[g[key]] = D["USE_KEY"]
        self._declared(st, g[~key])

    def _use_key(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        k = a < 54
        gk = g[k]
        self._leave_hand(st, gk, st.active[gk].astype(np.int64), a[k])
        st.dused[gk, a[k] - C.DISRUPT0] += 1
        st.key_used[gk] = True
        self._declared(st, g)

    def _declared(self, st: VaultsState, g: np.ndarray) -> None:
        """The crack is declared: the crack window opens before the flip."""
        if g.size == 0:
            return
        st.dec[g] = NONE
        st.resume[g] = RESUME_FLIP
        if self.windows != "none":
            win.open_window(st, g, WIN_CRACK, st.active[g])

    def _combo_met(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        tops = self._crack_top(st, g)
        return _meets(self._crack_skills(st, g), _COMBO_OR_EMPTY[tops])

    def _burn_overloads(self, st: VaultsState, g: np.ndarray) -> None:
        """Overloaded tools go to the Police station, even on a failed crack [RB "Tools"]."""
        if g.size == 0:
            return
        a, k = st.active[g].astype(np.int64), st.crack_crew[g].astype(np.int64)
        have = st.crew[g, a, k, C.TOOL0:]
        burn = np.minimum(st.over[g], have)
        st.crew[g, a, k, C.TOOL0:] = have - burn
        self._to_police_counts(st, g, burn)
        st.over[g] = 0
        st.key_used[g] = False
        # burning tools dissolves no crew and leaves no tool without one
        st.cstats[g, a, k] = self._crew_stats(st.crew[g, a, k])

    def _abort(self, st: VaultsState, g: np.ndarray) -> None:
        """Cancelled (Lockdown) or no longer possible: no flip, no action spent [RB FAQ]."""
        if g.size == 0:
            return
        a, k = st.active[g].astype(np.int64), st.crack_crew[g].astype(np.int64)
        st.blocked[g, a, k] = _crew_exists(st.cstats[g, a, k])  # a crew jailed meanwhile: none
        self._burn_overloads(st, g)
        st.crack_target[g] = -1

    def _flip(self, st: VaultsState, g: np.ndarray) -> None:
        if g.size == 0:
            return
        N = self.num_players
        a, k = st.active[g].astype(np.int64), st.crack_crew[g].astype(np.int64)
        tops = self._crack_top(st, g)
        met = _meets(self._crack_skills(st, g), C.VAULT_COMBO[np.maximum(tops, 0)])
        ok = st.crew[g, a, k, :C.TOOL0].any(1) & (st.key_used[g] | met) & (tops >= 0)
        self._abort(st, g[~ok])
        g, a, k, v = g[ok], a[ok], k[ok], tops[ok].astype(np.int64)
        if g.size == 0:
            return
        tgt = st.crack_target[g].astype(np.int64)
        st.actions[g] -= 1  # spent on the actual flip [RB FAQ]
        pub = tgt < 3
        gp = g[pub]
        st.vpub_len[gp, tgt[pub]] -= 1
        opp = ~pub
        q = (a[opp] + tgt[opp] - 2) % N
        go = g[opp]
        st.vpriv_len[go, q] -= 1
        st.loot[go, q] -= C.VAULT_VALUE[v[opp]] * C.VAULT_SUCCESS[v[opp]]
        st.revealed[g, v] = True
        st.vpriv[g, a, st.vpriv_len[g, a]] = v
        st.vpriv_len[g, a] += 1
        self._sync_tops(st, g)
        st.spent[g, a, k] = True
        st.crack_target[g] = -1
        succ = C.VAULT_SUCCESS[v]
        st.loot[g, a] += np.where(succ, C.VAULT_VALUE[v], 0)
        st.game_over[g[succ & (st.loot[g, a] >= self.goal)]] = True
        st.owner[g] = a
        # pushed in this order (the last on top): [the action window], burn overloads;
        # Success: the crew boss's ability, then the vault's bonus on top; Fail: the front's
        # parts, first part on top
        n = g.size
        codes = np.zeros((n, 7), np.int8)
        if self.windows == "every_action":
            codes[:, 0] = E["ACTION_WINDOW"]
        codes[:, 1] = E["BURN_OVERLOADS"]
        boss = st.crew[g, a, k, :C.N_BOSS]
        codes[:, 2] = np.where(boss.any(1) & succ, C.SUCCESS_ABILITY[boss.argmax(1)], 0)
        codes[:, 3] = np.where(succ, C.VAULT_EFFECT[v], 0)
        codes[:, 4:] = np.where(succ[:, None], 0, _FAIL_STACK[v][:, ::-1])
        self._push_rows(st, g, codes)

    # -- effects: abilities, vault fronts, disrupts ------------------------------------------
    def _start_effects(self, st: VaultsState, g: np.ndarray) -> None:
        """Pop one effect per game and apply it, or open its first target decision."""
        st.slen[g] -= 1
        e = st.stack[g, st.slen[g]].astype(np.int64)
        st.effect[g] = e
        owner = st.owner[g].astype(np.int64)
        present = set(kinds(e))

        # immediate effects
        if present & _DRAWS:
            nd = C.DRAW_COUNT[e]
            for r in range(2):
                m = nd > r
                self._draw_main(st, g[m], owner[m])
        if present & _ACTIONS:
            st.actions[g] += C.GAIN_ACTION[e]
        if present & _DISRUPTS:
            m = C.GAIN_DISRUPT[e]
            self._gain_disrupt(st, g[m], owner[m])
        if E["B_REFRESH"] in present:
            m = e == E["B_REFRESH"]
            st.spent[g[m], owner[m], st.crack_crew[g[m]]] = False
        if E["D_KEY"] in present:
            st.key_used[g[e == E["D_KEY"]]] = True
        if E["D_LOCKDOWN"] in present:
            gm = g[e == E["D_LOCKDOWN"]]
            win.close_window(st, gm)
            st.resume[gm] = RESUME_NONE
            self._abort(st, gm)
        if E["F_LOSE_ACTIONS"] in present:
            st.actions[g[e == E["F_LOSE_ACTIONS"]]] = 0
        if E["FP_ALL_TOOLS"] in present or E["FP_CREW"] in present:
            m = (e == E["FP_ALL_TOOLS"]) | (e == E["FP_CREW"])
            self._jail_crack_crew(st, g[m], e[m] == E["FP_CREW"])
        if E["BURN_OVERLOADS"] in present:
            gm = g[e == E["BURN_OVERLOADS"]]
            self._burn_overloads(st, gm[st.over[gm].any(1)])
            st.key_used[gm] = False
        if E["ACTION_WINDOW"] in present:
            gm = g[e == E["ACTION_WINDOW"]]
            win.open_window(st, gm, WIN_ACTION, st.active[gm])
        if E["PLAY_CARD"] in present:
            st.dec[g[e == E["PLAY_CARD"]]] = D["PLAY_DEST"]
        if E["FP_BOSS_OR_MEMBER"] in present:  # the boss goes if there is one
            gm = g[e == E["FP_BOSS_OR_MEMBER"]]
            a, k = st.active[gm].astype(np.int64), st.crack_crew[gm].astype(np.int64)
            boss = st.crew[gm, a, k, :C.N_BOSS]
            hb = boss.any(1)
            gb = gm[hb]
            st.crew[gb, a[hb], k[hb], boss[hb].argmax(1)] = 0
            self._to_police(st, gb, boss[hb].argmax(1))
            self._normalize(st, gb, a[hb])
            st.effect[gb] = NONE
        # targeted effects: a decision if some target exists, else the effect fizzles
        if present & _TARGETED:
            self._open_target(st, g[IS_TARGETED[st.effect[g]]])

    def _jail_crack_crew(self, st: VaultsState, g: np.ndarray, whole: np.ndarray) -> None:
        if g.size == 0:
            return
        a, k = st.active[g].astype(np.int64), st.crack_crew[g].astype(np.int64)
        cr = st.crew[g, a, k].copy()
        keep = np.where(whole[:, None], False, ~C.IS_TOOL[None, :])
        jail = np.where(keep, 0, cr)
        st.crew[g, a, k] = cr - jail
        self._to_police_counts(st, g, jail)
        self._normalize(st, g, a)

    def _crew_ok(self, st: VaultsState, g: np.ndarray, counts: np.ndarray,
                 opp: np.ndarray) -> np.ndarray:
        """bool [n,...,K]: of the crews (their cards per class, counts [n,...,K,3]) of seats
        that are (opp [n,...]) the effect owner's opponents or not, those holding a card the
        pending effect may take. Targets are whole classes and every other condition is one
        of the crew or of the game, so the class counts decide (`_mask_target_card`
        picks the cards)."""
        e = st.effect[g].astype(np.int64)
        lead = (slice(None),) + (None,) * (counts.ndim - 3)  # [n] -> [n,...]
        cls = TARGET_CLASSES[e][lead + (None,)]  # [n,...,1,3]
        ok = (((counts[..., 0] > 0) & cls[..., 0]) | ((counts[..., 1] > 0) & cls[..., 1])
              | ((counts[..., 2] > 0) & cls[..., 2]))
        op = OP[e]
        # stealing needs a destination: own crew with a boss/member and < 3 tools (not the source)
        steal = op == OP_STEAL
        if np.count_nonzero(steal):
            room = _tool_room(_seat_rows(st.cstats, g, st.owner[g].astype(np.int64)))  # [n,K]
            nroom = room.sum(1)
            okq = np.where(opp[..., None], nroom[lead][..., None] >= 1,
                           (nroom[:, None] - room)[lead] >= 1)  # [n,...,K]
            ok &= np.where(steal[lead][..., None], okq, True)
        here = op == OP_STEAL_HERE
        if np.count_nonzero(here):
            a, k = st.active[g].astype(np.int64), st.crack_crew[g].astype(np.int64)
            fits = _tool_room(st.cstats[g, a, k])
            ok &= (fits | ~here)[lead][..., None]
        return ok

    def _eligible(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        """bool [n,P,K]: crews with a card the pending card-targeting effect may choose."""
        e = st.effect[g].astype(np.int64)
        owner = st.owner[g].astype(np.int64)
        n, N, K = g.size, self.num_players, self.K
        op, who = OP[e], WHO[e]
        opp = np.arange(N)[None, :] != owner[:, None]  # [n,N]
        el = self._crew_ok(st, g, st.cstats[g][..., ST_BOSS:], opp)
        pmask = np.ones((n, N), bool)
        pmask = np.where((who == WHO_OPP)[:, None], opp, pmask)
        opp_any = (el & opp[..., None]).any((1, 2))
        pmask = np.where((who == WHO_BACKFIRE)[:, None], np.where(opp_any[:, None], opp, ~opp),
                         pmask)
        el &= pmask[..., None]
        fail = op == OP_FAIL
        if np.count_nonzero(fail):
            only = np.zeros((n, N, K), bool)
            only[np.arange(n), st.active[g], st.crack_crew[g]] = True
            el &= np.where(fail[:, None, None], only, True)
        return el

    def _chosen_eligible(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        """bool [n,K]: `_eligible` of the chosen player's crews only. That player passed
        the player mask (or is the cracking player of a Fail, checked when it opened), so the
        choice of players, which needs every seat's cards, holds for them."""
        q = st.tgt_player[g].astype(np.int64)
        counts = _seat_rows(st.cstats, g, q)[..., ST_BOSS:]
        return self._crew_ok(st, g, counts, q != st.owner[g])

    def _open_target(self, st: VaultsState, g: np.ndarray) -> None:
        """Set the first decision of a targeted effect, or let it fizzle."""
        if g.size == 0:
            return
        e = st.effect[g].astype(np.int64)
        owner = st.owner[g].astype(np.int64)
        op = OP[e]
        card = (op >= OP_JAIL) & (op <= OP_FAIL)
        if np.count_nonzero(card):
            gc = g[card]
            any_ = self._eligible(st, gc).any((1, 2))
            isfail = op[card] == OP_FAIL
            st.dec[gc[any_ & ~isfail]] = D["TARGET_PLAYER"]
            gf = gc[any_ & isfail]
            st.tgt_player[gf] = st.active[gf]
            st.tgt_crew[gf] = st.crack_crew[gf]
            st.dec[gf] = D["FAIL_CARD"]
        m = op == OP_PICK
        if np.count_nonzero(m):
            gm = g[m]
            hs = st.hand[gm].any(2)
            hs[np.arange(gm.size), owner[m]] = False
            st.dec[gm[hs.any(1)]] = D["TARGET_PLAYER"]
        m = op == OP_RESET
        if np.count_nonzero(m):
            gm = g[m]
            st.tgt_player[gm] = owner[m]
            st.dec[gm] = D["TARGET_CREW"]  # usable only when a spent crew exists
        m = IS_PEEK[e]
        if np.count_nonzero(m):
            ok = self._peek_piles(st, g[m], owner[m]).any(1)
            st.dec[g[m][ok]] = D["TARGET_PILE"]
        m = e == E["D_BURY"]
        if np.count_nonzero(m):
            ok = self._bury_piles(st, g[m]).any(1)
            st.dec[g[m][ok]] = D["TARGET_PILE"]
        m = IS_BAIL[e]
        if np.count_nonzero(m):
            gm = g[m]
            ok = (st.pc_len[gm] + st.pt_len[gm]) > 0
            st.dec[gm[ok]] = D["TARGET_POLICE_PILE"]
        m = e == E["B_COPY"]
        if np.count_nonzero(m):
            ok = self._copy_options(st, g[m]).any(1)
            st.dec[g[m][ok]] = D["COPY_BOSS"]

    def _peek_piles(self, st: VaultsState, g: np.ndarray, p: np.ndarray) -> np.ndarray:
        tops = st.tops[g, :3]
        return (tops >= 0) & ~st.known_face[g[:, None], p[:, None], tops]

    def _bury_piles(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        ok = st.vpub_len[g] >= 2
        pend = (st.resume[g] == RESUME_FLIP) & (st.crack_target[g] >= 0) & (st.crack_target[g] < 3)
        ok[np.flatnonzero(pend), st.crack_target[g[pend]]] = False
        return ok

    def _copy_options(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        """Bosses in any crew in play, except Patricia herself [RB FAQ]."""
        inplay = st.crew[g, :, :, :C.N_BOSS].any((1, 2))
        inplay[:, 0] = False
        return inplay

    def _target_player(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        owner = st.owner[g].astype(np.int64)
        q = (owner + a - self.A_PLAYER) % self.num_players
        st.tgt_player[g] = q
        op = OP[st.effect[g].astype(np.int64)]
        pick = op == OP_PICK
        st.dec[g[~pick]] = np.where(op[~pick] == OP_NONE, NONE, D["TARGET_CREW"])
        if np.count_nonzero(pick):
            self._pickpocket(st, g[pick], owner[pick], q[pick])

    def _pickpocket(self, st: VaultsState, g: np.ndarray, p: np.ndarray, q: np.ndarray) -> None:
        """A random card of q's hand (type order, uniform over cards) goes to p, revealed."""
        if g.size == 0:
            return
        u = self._rand(st, g, 1, S_PICK)[:, 0]
        t = rng.draw_from_counts(st.hand[g, q].astype(np.int64), u)
        self._leave_hand(st, g, q, t)
        st.hand[g, p, t] += 1
        st.known[g, p, t] += 1
        st.dec[g] = NONE

    def _target_crew(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        k = a - self.A_CREW
        st.tgt_crew[g] = k
        op = OP[st.effect[g].astype(np.int64)]
        st.dec[g] = np.where(op == OP_MOD, D["TARGET_SKILL"],
                             np.where(op == OP_RESET, NONE, D["TARGET_CARD"]))
        r = op == OP_RESET
        st.spent[g[r], st.tgt_player[g[r]], k[r]] = False

    def _target_skill(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        s = a - self.A_SKILL
        sign = MOD_SIGN[st.effect[g].astype(np.int64)]
        st.mods[g, st.tgt_player[g], st.tgt_crew[g], s] += sign
        st.dec[g] = NONE

    def _target_card(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        """Apply a card-targeting effect to card `a` in the chosen crew."""
        q, k = st.tgt_player[g].astype(np.int64), st.tgt_crew[g].astype(np.int64)
        op = OP[st.effect[g].astype(np.int64)]
        st.dec[g] = NONE
        st.move_card[g] = a
        steal = op == OP_STEAL
        st.dec[g[steal]] = D["DEST_CREW"]
        rest = ~steal
        g, q, k, a, op = g[rest], q[rest], k[rest], a[rest], op[rest]
        st.crew[g, q, k, a] -= 1
        jail = (op == OP_JAIL) | (op == OP_FAIL)
        self._to_police(st, g[jail], a[jail])
        ret = op == OP_RETURN
        st.hand[g[ret], q[ret], a[ret]] += 1
        st.known[g[ret], q[ret], a[ret]] += 1
        here = op == OP_STEAL_HERE
        gh = g[here]
        st.crew[gh, st.active[gh], st.crack_crew[gh], a[here]] += 1
        self._normalize(st, g, q)
        self._normalize(st, gh, st.active[gh])

    def _dest_crew(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        q, k = st.tgt_player[g].astype(np.int64), st.tgt_crew[g].astype(np.int64)
        t = st.move_card[g].astype(np.int64)
        st.crew[g, q, k, t] -= 1
        st.crew[g, st.owner[g], a - self.A_CREW, t] += 1
        st.dec[g] = NONE
        self._normalize(st, g, q)
        self._normalize(st, g, st.owner[g])

    def _target_pile(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        i = a - self.A_PILE
        st.dec[g] = NONE
        e = st.effect[g]
        ln = st.vpub_len[g, i].astype(np.int64)
        bury = e == E["D_BURY"]
        gp = g[~bury]
        top = st.vpub[gp, i[~bury], ln[~bury] - 1]
        st.known_face[gp, st.owner[gp], top] = True
        gb, ib, lb = g[bury], i[bury], ln[bury]
        if gb.size:
            pile = st.vpub[gb, ib].copy()  # [n,9]
            j = np.arange(C.PILE_SIZE)[None, :]
            src = np.where(j == 0, lb[:, None] - 1, np.where(j < lb[:, None], j - 1, j))
            st.vpub[gb, ib] = np.take_along_axis(pile, src, axis=1)
            self._sync_tops(st, gb)

    def _target_police(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        self._bail(st, g, st.owner[g].astype(np.int64), a - self.A_OPT)
        st.dec[g] = NONE

    def _copy_boss(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        st.dec[g] = NONE
        self._push(st, g, C.SUCCESS_ABILITY[a])

    def _fail_card(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        self._target_card(st, g, a)

    # -- disrupt cards and response windows [RB "Disrupts"] -----------------------------------
    def _response(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        ps = a == self.A_PASS
        win.record_pass(st, g[ps])
        st.dec[g[ps]] = NONE
        r = ~ps
        if np.count_nonzero(r):
            win.record_response(st, g[r])
            self._play_disrupt(st, g[r], st.owner[g[r]].astype(np.int64), a[r])

    def _disrupt_effect(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        d = st.card_in_play[g].astype(np.int64) - C.DISRUPT0
        e = C.DISRUPT_EFFECTS[d, a - self.A_OPT]
        st.dec[g] = NONE
        self._push(st, g, e)

    def _disrupt_context(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        kind = st.win_kind[g]
        own = st.owner[g] == st.active[g]
        return np.where(kind == WIN_CRACK, np.where(own, CTX_CRACK_ACTIVE, CTX_CRACK_OTHER),
                        np.where(kind == WIN_ACTION, CTX_ACTION, CTX_MAIN))

    def _effect_usable(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        """bool [n,N_EFFECTS]: disrupt effects the decision owner may use now."""
        n = g.size
        p = st.owner[g].astype(np.int64)
        ok = ALLOWED[self._disrupt_context(st, g)]
        # bosses, members and tools anywhere in play [3,n] (from batch-last crew stats); a
        # crew exists somewhere iff a boss or a member is in play
        boss, mem, tool = st.cstats[g].reshape(n, -1, 6)[..., ST_BOSS:].T.copy().any(1)
        own = _seat_rows(st.cstats, g, p)
        own_ex = _crew_exists(own)  # [n,K]
        ok[:, E["D_KEY"]] &= ~st.key_used[g]
        ok[:, E["D_DRAW"]] &= st.deck_len[g] > 0
        ok[:, E["D_JAIL_TOOL"]] &= tool
        ok[:, E["D_TIPOFF"]] &= mem | tool
        ok[:, E["D_SABOTAGE"]] &= boss | mem
        ok[:, E["D_REINFORCE"]] &= boss | mem
        ok[:, E["D_BAIL"]] &= (st.pc_len[g] + st.pt_len[g]) > 0
        ok[:, E["D_RESET"]] &= (_seat_rows(st.spent, g, p) & own_ex).any(1)
        ok[:, E["D_SCOUT"]] &= self._peek_piles(st, g, p).any(1)
        hs = st.hand[g].any(2)
        hs[np.arange(n), p] = False
        ok[:, E["D_PICKPOCKET"]] &= hs.any(1)
        ok[:, E["D_BURY"]] &= self._bury_piles(st, g).any(1)
        return ok

    def _discard(self, st: VaultsState, g: np.ndarray, a: np.ndarray) -> None:
        """Hand limit: excess cards go to the Police station (disrupts to the used pile)."""
        p = st.active[g].astype(np.int64)
        self._leave_hand(st, g, p, a)
        dis = a >= C.DISRUPT0
        st.dused[g[dis], a[dis] - C.DISRUPT0] += 1
        self._to_police(st, g[~dis], a[~dis])
        done = _seat_rows(st.hand, g, p).sum(1, dtype=np.int16) <= C.HAND_LIMIT
        st.dec[g[done]] = NONE
        self._next_turn(st, g[done])

    # -- legal actions ------------------------------------------------------------------------
    def _refresh(self, st: VaultsState, g: np.ndarray, forced: bool = False,
                 chosen: np.ndarray | None = None) -> np.ndarray:
        """current_player and legal_action_mask of games g from their pending decision.

        With `forced`, a decision with a single legal action is taken at once, as the core's
        auto_forced would take it. With `chosen` (an action per game of g), the games take
        those instead of a mask, in the same handler call as the choices forced on others at
        the same decision type. Decisions go lowest code first, and a game whose choice opens
        another decision joins the queue, so a chain of forced choices (a card, then its
        destination, then a swap) takes one pass. Returns the games that a choice left with
        nothing pending (to resolve again)."""
        if g.size == 1 and chosen is None:
            return self._refresh_one(st, g, forced)
        masks: dict[int, list[np.ndarray]] = {}  # decision -> games whose mask it needs
        taken: dict[int, tuple] = {}  # decision -> (games, their chosen actions)
        if chosen is None:
            self._queue(st, masks, g)
        else:
            taken = {d: (g[sel], chosen[sel]) for d, sel in groups(st.dec[g])}
        again = []
        while masks or taken:
            d = min(masks.keys() | taken.keys())
            f, a = taken.pop(d, (None, None))
            sel = masks.pop(d, None)
            if sel is not None:
                sel = sel[0] if len(sel) == 1 else np.concatenate(sel)
                mask = self._MASKS[d](self, st, sel)
                st.legal_action_mask[sel] = mask
                if forced:
                    single = single_option(mask)
                    one, a1 = sel[single], mask[single].argmax(1)
                    if one.size:
                        f, a = (one, a1) if f is None else (np.concatenate([f, one]),
                                                            np.concatenate([a, a1]))
            if f is None:
                continue
            self._HANDLERS[d](self, st, f, a)
            open_ = (st.dec[f] != NONE) & ~st.game_over[f]
            self._queue(st, masks, f[open_])
            again.append(f[~open_])
        st.current_player[g] = st.owner[g]
        return np.concatenate(again) if again else g[:0]

    def _refresh_one(self, st: VaultsState, g: np.ndarray, forced: bool) -> np.ndarray:
        """`_refresh` of a single game (the AEC env's case): scalar tests, no queue."""
        b, left = g[0], g[:0]
        while True:
            d = int(st.dec[b])
            mask = self._MASKS[d](self, st, g)
            st.legal_action_mask[b] = mask[0]
            if not forced or np.count_nonzero(mask) != 1:
                break
            self._HANDLERS[d](self, st, g, mask[0].nonzero()[0])
            if st.dec[b] == NONE or st.game_over[b]:
                left = g
                break
        st.current_player[b] = st.owner[b]
        return left

    @staticmethod
    def _queue(st: VaultsState, masks: dict[int, list[np.ndarray]], g: np.ndarray) -> None:
        """Add games g to the `_refresh` queue of masks by their pending decision."""
        if g.size == 1:
            masks.setdefault(int(st.dec[g[0]]), []).append(g)
        elif g.size:
            for d, sel in groups(st.dec[g]):
                masks.setdefault(d, []).append(g[sel])

    def _blank(self, g: np.ndarray) -> np.ndarray:
        return np.zeros((g.size, self.num_actions), bool)

    def _mask_boss_choice(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        m = self._blank(g)
        m[:, self.A_OPT:self.A_OPT + 2] = True
        return m

    def _mask_main(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        m = self._blank(g)
        m[:, self.A_END] = True
        K = self.K
        p = st.active[g]
        hand = _seat_rows(st.hand, g, p)  # [n,54]
        cs = _seat_rows(st.cstats, g, p)  # [n,K,6]
        act = st.actions[g] > 0
        live = act[:, None]
        # a card can be played if its class has a destination: a crew with room, a new crew
        # (bosses, members), the Police station (bosses, while a disrupt can be had)
        dest, ex, movable, _ = self._class_options(cs)
        if np.count_nonzero(dest[:, 0]) < g.size:
            dest = dest.copy()
            dest[:, :C.N_BOSS] |= self._can_gain_disrupt(st, g)[:, None]
        m[:, :C.DISRUPT0] = (hand[:, :C.DISRUPT0] > 0) & dest & live
        # disrupts usable now
        held = hand[:, C.DISRUPT0:] > 0
        if np.count_nonzero(held):  # usability matters only to holders of disrupts
            h = held.any(1).nonzero()[0]
            use = self._effect_usable(st, g[h])
            m[h, C.DISRUPT0:54] = held[h] & _any_last(use[:, C.DISRUPT_EFFECTS])
        if not np.count_nonzero(act):
            return m
        m[:, self.A_MOVE:self.A_MOVE + K] = movable & live
        phase = st.phase[g]
        # cracks: an unspent, unblocked crew that meets some target (or a key is held)
        can = (ex & ~(_seat_rows(st.spent, g, p) | _seat_rows(st.blocked, g, p))
               & live & (phase <= 3)[:, None])  # [n,K]
        if np.count_nonzero(can):
            skills = cs[..., ST_SK2] + _seat_rows(st.mods, g, p)
            maxs = np.maximum(skills, 0).T.copy()  # [3,K,n]
            tg = self._crack_targets(st, g, maxs, _holds_key(hand)).any(1)  # [K,n]
            m[:, self.A_CRACK:self.A_CRACK + K] = can & tg.T
        # draws: phase 1 only, one source, not with five cards at the start of the turn
        dr = act & (phase == 1) & st.can_draw[g]
        if np.count_nonzero(dr):
            src = st.draw_source[g]
            m[:, self.A_DRAW] = dr & (src != 2) & (st.deck_len[g] > 0)
            police = dr & (src != 1)
            m[:, self.A_DRAW + 1] = police & (st.pc_len[g] > 0)
            m[:, self.A_DRAW + 2] = police & (st.pt_len[g] > 0)
        return m

    def _mask_play_dest(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        m = self._blank(g)
        K = self.K
        p = st.active[g].astype(np.int64)
        c = st.card_in_play[g].astype(np.int64)
        cnt = _seat_rows(st.cstats, g, p)[..., ST_BOSS:]  # [n,K,3]
        ex = (cnt[..., 0] + cnt[..., 1]) > 0
        cls = C.CLASS_OF[c]
        room = ex & (cnt[np.arange(g.size), :, cls] < C.CLASS_CAP[cls][:, None])
        m[:, self.A_CREW:self.A_CREW + K] = room
        m[:, self.A_NEW] = (cls < 2) & (~ex).any(1)
        m[:, self.A_POLICE] = (cls == 0) & self._can_gain_disrupt(st, g)
        return m

    def _mask_target_player(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        m = self._blank(g)
        N = self.num_players
        owner = st.owner[g].astype(np.int64)
        op = OP[st.effect[g].astype(np.int64)]
        if np.count_nonzero(op == OP_PICK):
            elig = st.hand[g].any(2)
            elig[np.arange(g.size), owner] = False
        else:
            elig = np.zeros((g.size, N), bool)
        card = op != OP_PICK
        if np.count_nonzero(card):
            el = self._eligible(st, g[card]).any(2)
            mod = op[card] == OP_MOD
            ex = self.exists(st, g[card]).any(2)
            elig[card] = np.where(mod[:, None], ex, el)
        seats = (owner[:, None] + np.arange(N)) % N  # by offset from the owner
        m[:, self.A_PLAYER:self.A_PLAYER + N] = np.take_along_axis(elig, seats, 1)
        return m

    def _mask_target_crew(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        m = self._blank(g)
        K = self.K
        q = st.tgt_player[g].astype(np.int64)
        op = OP[st.effect[g].astype(np.int64)]
        ex = _crew_exists(_seat_rows(st.cstats, g, q))  # [n,K] of the chosen player only
        el = self._chosen_eligible(st, g)
        ok = np.where((op == OP_MOD)[:, None], ex,
                      np.where((op == OP_RESET)[:, None], ex & st.spent[g, q], el))
        m[:, self.A_CREW:self.A_CREW + K] = ok
        return m

    def _mask_target_card(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        m = self._blank(g)
        k = st.tgt_crew[g]
        ok = self._chosen_eligible(st, g)[np.arange(g.size), k]  # the chosen crew qualifies
        cards = st.crew[g, st.tgt_player[g], k] > 0
        m[:, :C.N_CREW_TYPES] = cards & C.TARGET_CLASS[st.effect[g].astype(np.int64)] & ok[:, None]
        return m

    def _mask_target_skill(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        m = self._blank(g)
        m[:, self.A_SKILL:self.A_SKILL + 3] = True
        return m

    def _mask_target_pile(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        m = self._blank(g)
        bury = st.effect[g] == E["D_BURY"]
        ok = np.where(bury[:, None], self._bury_piles(st, g),
                      self._peek_piles(st, g, st.owner[g].astype(np.int64)))
        m[:, self.A_PILE:self.A_PILE + 3] = ok
        return m

    def _mask_police(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        m = self._blank(g)
        m[:, self.A_OPT] = st.pc_len[g] > 0
        m[:, self.A_OPT + 1] = st.pt_len[g] > 0
        return m

    def _mask_dest_crew(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        m = self._blank(g)
        p = st.owner[g].astype(np.int64)
        room = _tool_room(_seat_rows(st.cstats, g, p))
        same = st.tgt_player[g] == p
        room[np.flatnonzero(same), st.tgt_crew[g[same]]] = False
        m[:, self.A_CREW:self.A_CREW + self.K] = room
        return m

    def _mask_move_card(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        m = self._blank(g)
        m[:, :C.N_CREW_TYPES] = self._move_card_ok(st, g)
        return m

    def _mask_move_dest(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        m = self._blank(g)
        d = self._move_dests(st, g)
        m[:, self.A_CREW:self.A_CREW + self.K] = d[:, :self.K]
        m[:, self.A_NEW] = d[:, self.K]
        return m

    def _mask_swap_card(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        m = self._blank(g)
        p = st.active[g].astype(np.int64)
        cr = st.crew[g, p, st.tgt_crew[g]]
        cls = C.CLASS_OF[st.move_card[g].astype(np.int64)]
        m[:, :C.N_CREW_TYPES] = (cr > 0) & (C.CLASS_OF[None, :] == cls[:, None])
        return m

    def _mask_crack_target(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        m = self._blank(g)
        p = st.active[g].astype(np.int64)
        k = st.crack_crew[g].astype(np.int64)
        maxs = np.maximum(st.cstats[g, p, k, ST_SK2] + st.mods[g, p, k], 0)
        key = _holds_key(_seat_rows(st.hand, g, p))
        m[:, self.A_PILE:self.A_PILE + 6] = self._crack_targets(st, g, maxs.T, key).T
        return m

    def _mask_overload(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        m = self._blank(g)
        p = st.active[g].astype(np.int64)
        have = st.crew[g, p, st.crack_crew[g], C.TOOL0:]
        m[:, C.TOOL0:C.DISRUPT0] = st.over[g] < have
        m[:, self.A_PASS] = self._combo_met(st, g) | _holds_key(_seat_rows(st.hand, g, p))
        return m

    def _mask_use_key(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        m = self._blank(g)
        p = st.active[g].astype(np.int64)
        m[:, 44] = st.hand[g, p, 44] > 0
        m[:, 45] = st.hand[g, p, 45] > 0
        m[:, self.A_PASS] = self._combo_met(st, g)
        return m

    def _mask_response(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        m = self._blank(g)
        p = st.owner[g].astype(np.int64)
        use = self._effect_usable(st, g)
        m[:, C.DISRUPT0:54] = ((st.hand[g, p, C.DISRUPT0:] > 0)
                               & _any_last(use[:, C.DISRUPT_EFFECTS]))
        m[:, self.A_PASS] = True
        return m

    def _mask_disrupt_effect(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        m = self._blank(g)
        use = self._effect_usable(st, g)
        d = st.card_in_play[g].astype(np.int64) - C.DISRUPT0
        m[:, self.A_OPT:self.A_OPT + 2] = np.take_along_axis(use, C.DISRUPT_EFFECTS[d], axis=1)
        return m

    def _mask_discard(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        m = self._blank(g)
        m[:, :54] = _seat_rows(st.hand, g, st.active[g]) > 0
        return m

    def _mask_copy(self, st: VaultsState, g: np.ndarray) -> np.ndarray:
        m = self._blank(g)
        m[:, :C.N_BOSS] = self._copy_options(st, g)
        return m

    _MAIN_ACTIONS = (_play_card, _main_disrupt, _declare_move, _declare_crack, _main_draw,
                     _main_end)  # by `_main_kind` of the action
    _HANDLERS = {
        D["BOSS_CHOICE"]: _boss_choice, D["MAIN"]: _main, D["PLAY_DEST"]: _play_dest,
        D["TARGET_PLAYER"]: _target_player, D["TARGET_CREW"]: _target_crew,
        D["TARGET_CARD"]: _target_card, D["TARGET_SKILL"]: _target_skill,
        D["TARGET_PILE"]: _target_pile, D["TARGET_POLICE_PILE"]: _target_police,
        D["DEST_CREW"]: _dest_crew, D["MOVE_CARD"]: _move_card, D["MOVE_DEST"]: _move_dest,
        D["SWAP_CARD"]: _swap_card, D["CRACK_TARGET"]: _crack_target, D["OVERLOAD"]: _overload,
        D["USE_KEY"]: _use_key, D["RESPONSE"]: _response, D["DISRUPT_EFFECT"]: _disrupt_effect,
        D["FAIL_CARD"]: _fail_card, D["DISCARD"]: _discard, D["COPY_BOSS"]: _copy_boss,
    }
    _MASKS = {
        D["BOSS_CHOICE"]: _mask_boss_choice, D["MAIN"]: _mask_main,
        D["PLAY_DEST"]: _mask_play_dest, D["TARGET_PLAYER"]: _mask_target_player,
        D["TARGET_CREW"]: _mask_target_crew, D["TARGET_CARD"]: _mask_target_card,
        D["TARGET_SKILL"]: _mask_target_skill, D["TARGET_PILE"]: _mask_target_pile,
        D["TARGET_POLICE_PILE"]: _mask_police, D["DEST_CREW"]: _mask_dest_crew,
        D["MOVE_CARD"]: _mask_move_card, D["MOVE_DEST"]: _mask_move_dest,
        D["SWAP_CARD"]: _mask_swap_card, D["CRACK_TARGET"]: _mask_crack_target,
        D["OVERLOAD"]: _mask_overload, D["USE_KEY"]: _mask_use_key,
        D["RESPONSE"]: _mask_response, D["DISRUPT_EFFECT"]: _mask_disrupt_effect,
        D["FAIL_CARD"]: _mask_target_card, D["DISCARD"]: _mask_discard, D["COPY_BOSS"]: _mask_copy,
    }

    def secret_decision(self, state: VaultsState) -> np.ndarray:
        """The bosses chosen at setup stay hidden until everybody has chosen."""
        return state.dec == D["BOSS_CHOICE"]

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

    # -- the end of the game [RB "The Goals"] ----------------------------------------------
    def scores(self, state: VaultsState) -> np.ndarray:
        return state.loot.astype(np.int64)

    def rank_keys(self, state: VaultsState) -> np.ndarray:
        """Loot, then Success vaults in pile, then fewer turns, then the later seat [DEC V12]."""
        N = self.num_players
        succ = np.zeros(state.loot.shape, np.int64)
        pos = np.arange(27)[None, None, :] < state.vpriv_len[..., None]
        succ = (pos & C.VAULT_SUCCESS[state.vpriv.astype(np.int64)]).sum(-1)
        order = (np.arange(N)[None, :] - state.first_player[:, None].astype(np.int64)) % N
        return (((state.loot.astype(np.int64) * 32 + succ) * 8192
                 + (8191 - np.minimum(state.turns_taken, 8191))) * 8 + order)

    # -- observation [spec §4] ---------------------------------------------------------------
    def _observe(self, st: VaultsState, seats: np.ndarray) -> np.ndarray:
        enc = self.__dict__.get("_encoder")
        if enc is None:
            from .numpy_encoder import Encoder

            enc = self.__dict__["_encoder"] = Encoder(self)
        return enc(st, seats)

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
        self._sync_tops(s, np.arange(B))
        self._refresh(s, np.flatnonzero(~(s.terminated | s.truncated)))
        return s

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
        from heistbench.envs.vaults.render import render_text

        return render_text(self, state, b, player)
