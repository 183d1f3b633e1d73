"""Big Deal on the compiled core: the `Game` (options, layouts, determinization, text) over
the scalar rules of `rules.py`, which read top to bottom like the rulebook.

The batch state is one structured array of `rules.STATE_FIELDS` records; `BigDealState`
shows each field as a view with the batch axis first (`state.hand` is [B, N, 11]).
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
    A_ADD,
    A_BUY_RES,
    A_BUY_SHARE,
    A_CLOSE,
    A_COMMIT_CASH,
    A_COMMIT_DONE,
    A_COMMIT_SHARE,
    A_DROP,
    A_END,
    A_FOUND,
    A_ONES,
    A_PLACE_COMPANY,
    A_PLACE_HAND,
    A_PREMIUM,
    A_PREMIUM_FINISH,
    A_SELL_BRANCH,
    A_SELL_FRESH,
    A_SELL_RES,
    A_SELL_SHARE,
    A_TAKEOVER,
    A_TENS,
    A_WITHDRAW,
    BID,
    BID_ONES,
    COMMIT,
    DECISION_NAMES,
    GAME_OVER,
    MAIN,
    NONE,
    NUM_ACTIONS,
    NUM_DECISIONS,
    PLACE,
    PREMIUM_SECOND,
    RAISE_FUNDS,
    S_RESAMPLE,
    TURN_START,
)


class BigDealState(RecordState):
    """A batch of Big Deal games: the public fields, then `rules.STATE_FIELDS` (money, hands,
    branches, the wheels, the deck and the takeover in progress), each a view [B, ...]."""


def _money_ok(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 500 <= v <= 5000 and v % 50 == 0


def _cap_ok(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 100


def _bool(v: Any) -> bool:
    return isinstance(v, bool)


MAX_RAISE = 10 * (R.BID_TENS - 1) + 9  # 59 units: the largest raise of one bid


def _increments_ok(v: Any) -> bool:
    """None, or distinct ints 1..59 (units of $50M) that include 1."""
    if v is None:
        return True
    return (isinstance(v, (tuple, list)) and len(set(v)) == len(v) and 1 in v
            and all(isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= MAX_RAISE
                    for x in v))


def raise_bits(increments: tuple[int, ...] | list[int] | None) -> int:
    """The `raises` config: bit r set when a raise of r units is allowed."""
    allowed = range(1, MAX_RAISE + 1) if increments is None else increments
    return sum(1 << int(r) for r in allowed)


class BigDealGame(CompiledGame):
    """Big Deal for 2-6 players (see the module docstring of big_deal_v0 for the rules)."""

    name: ClassVar[str] = "big_deal_v0"
    title: ClassVar[str] = "Big Deal"
    version: ClassVar[int] = 0
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4, 5, 6)
    score_scale: ClassVar[float] = 2000.0  # $M
    GAME_OPTIONS: ClassVar[dict[str, Option]] = {
        "shark": Option(False, "the Shark variant: money is secret, and the bonus on a sale "
                        "to the bank and the cash-card premium are $100M per share",
                        check=lambda v: isinstance(v, bool), allowed="a bool"),
        "max_main_actions": Option(40, "optional actions a player may take in one turn "
                                   "(the rulebook sets no limit; a game must end)",
                                   check=_cap_ok, allowed="an int 1..100"),
        "bid_cap": Option(3000, "highest per-share offer in a takeover, $M",
                          check=_money_ok, allowed="a multiple of 50 in 500..5000"),
        "bid_increments": Option(None, "the raises a bid may make, in units of $50M (the spec's "
                                 "ladder is (1, 2, 3, 4, 6, 8, 12, 20)); None: any multiple of "
                                 "$50M, as the rulebook says", check=_increments_ok,
                                 allowed="None or distinct ints 1..59 that include 1"),
        "takeover_income": Option("translator", "'translator': a takeover's special income "
                                  "at the end of the turn per branch taken over, if one of the "
                                  "company is open then (D-BD-17); 'none': no such income",
                                  ("translator", "none")),
        "liberal_fresh_sale": Option(True, "shares won this turn sell to the bank any number at "
                                     "a time, even without the resources to open the company "
                                     "(D-BD-18); False: without a resource set, all or none",
                                     check=_bool, allowed="a bool"),
        "liquidate_assigned": Option(True, "the final sale at $150M includes resources assigned "
                                     "to branches (D-BD-19); False: only unassigned ones",
                                     check=_bool, allowed="a bool"),
        "cash_card_only_takeover": Option(True, "a takeover may be launched with cash cards "
                                          "alone (D-BD-09); False: it needs a share of the "
                                          "company in hand", check=_bool, allowed="a bool"),
        "defender_shares_to": Option("choice", "where a defender who wins puts the won shares: "
                                     "'choice' (his decision, share by share, D-BD-15), "
                                     "'company', or 'hand' (while under 5 cards, then the "
                                     "company)", ("choice", "company", "hand")),
        "component_set": Option("reconstructed_v1", "the component tables (companies, wheels, "
                                "deck by player count): see 'Reconstructed data'",
                                ("reconstructed_v1",)),
        "shark_public_income_log": Option(False, "append the previous step's public cash "
                                          "transfers (income, received, paid per player) to "
                                          "the observation: what a player who keeps count "
                                          "sees in the Shark variant; changes obs_size",
                                          check=_bool, allowed="a bool"),
        "truncation_reward": Option("zero", "rewards of a game truncated by the step bound: "
                                    "'zero', or 'provisional' (the `reward` of the tally if "
                                    "the game ended now)", ("zero", "provisional")),
    }
    STATE_FIELDS = R.STATE_FIELDS
    CONFIG_FIELDS = R.CONFIG_FIELDS
    state_cls = BigDealState
    rules_folder = R.HERE

    @classmethod
    def option_spec(cls) -> dict[str, Option]:
        spec = super().option_spec()
        spec["num_players"] = Option(4, "number of players", choices=cls.player_counts)
        return spec

    @classmethod
    def drivers(cls) -> ModuleType:
        return R.DRIVERS

    def _setup(self) -> None:
        n = self.num_players
        self.shark = bool(self.options["shark"])
        self.bonus = 2 if self.shark else 1  # units per share on a sale to the bank
        self.in_game = C.in_game(n)
        self.observation_layout = _observation_layout(n, self.options["shark_public_income_log"])
        self.action_layout = _action_layout()

    def _configure(self, c: np.void) -> None:
        c["shark"] = self.shark
        c["bonus"] = self.bonus
        c["rate"] = self.bonus  # the premium rate, $50M or (Shark) $100M
        c["max_main"] = self.options["max_main_actions"]
        c["bid_cap"] = self.options["bid_cap"] // C.UNIT
        o = self.options
        c["raises"] = raise_bits(o["bid_increments"])
        c["takeover_income"] = o["takeover_income"] == "translator"
        c["liberal_fresh_sale"] = o["liberal_fresh_sale"]
        c["liquidate_assigned"] = o["liquidate_assigned"]
        c["cash_card_only"] = o["cash_card_only_takeover"]
        c["shares_to"] = ("choice", "company", "hand").index(o["defender_shares_to"])
        c["truncation_scored"] = o["truncation_reward"] == "provisional"
        c["transfer_log"] = o["shark_public_income_log"]

    def default_max_steps(self) -> int:
        return 4000  # 3.8x the longest of 20,000 uniform-random 6-player games (1056)

    # == Game End: the tallies are compiled (rules.scores, rules.rank_keys) =======================
    def conserved(self, s: BigDealState) -> dict[str, np.ndarray]:
        """Shares per company and cash cards (hands, branches, pool, waste, deck, a takeover),
        resources (wheels + players) and Game Over cards (deck + board)."""
        B = s.batch_size
        pos = np.arange(C.MAX_DECK)[None]
        in_deck = pos < s.deck_len[:, None]
        deck = np.where(in_deck, s.deck, -1)
        out = {}
        shares = (s.hand.sum(axis=1, dtype=np.int64) + s.pool + s.waste
                  + (deck[:, :, None] == np.arange(C.NUM_CO)).sum(axis=1))
        br = s.br_co.astype(np.int64)
        for co in range(C.NUM_CO):
            shares[:, co] += np.where(br == co, s.br_sh, 0).sum(axis=(1, 2))
        live = s.to_def >= 0
        shares[np.arange(B), s.to_co.astype(np.int64)] += np.where(live, s.to_sh + s.to_place,
                                                                   0)
        for co in range(C.NUM_CO):
            out[f"shares_{C.CO_LETTER[co]}"] = shares[:, co]
        out["cash_cards"] = (s.hand_cash.sum(axis=1, dtype=np.int64) + s.cash_gone
                             + (deck == C.CASH_CARD).sum(axis=1) + np.where(live, s.to_cc, 0))
        held = s.res_free.sum(axis=(1, 2), dtype=np.int64)
        req = np.concatenate([C.REQ.sum(axis=1), [0]])
        held += req[br].sum(axis=(1, 2))  # slot -1 indexes the padding 0
        out["resources"] = held + (C.WHEEL_SLOTS - s.out.astype(np.int64)).sum(axis=1)
        out["game_over_cards"] = (deck == C.GO_CARD).sum(axis=1) + s.go_revealed
        return out

    # == determinization ==========================================================================
    RESAMPLE_TRIES: ClassVar[int] = 32  # redraws of a game whose pending decision a deal breaks

    def resample_hidden(self, state: BigDealState, player: int | np.ndarray,
                        seeds: int | np.ndarray) -> BigDealState:
        """Redeal what `player` cannot know: every other player's hand (shares and cash cards,
        sizes kept; the attacker's too while he commits cards or realises assets) and the draw
        pile's order; in the Shark variant, the others' cash. The Game Over cards still in the
        pile are redrawn among the positions of their half (the halves' sizes are public),
        never on top; future chance gets a new key from `seeds`.

        What the observer sees binds the deal: cards committed to a takeover are public and
        stay out of it, fresh shares stay with the turn owner, and the pending decision must
        stay one the rules would put to its player (a commit with a card to play, realising
        assets that can still cover the debt, a defender's bid he can pay). A game whose deal
        breaks that is redrawn whole, up to `RESAMPLE_TRIES` times; then the acting player's
        hand is moved card by card towards the true one (and, last, his cash restored) until
        it holds."""
        s = state.copy()
        B, N, K = s.batch_size, self.num_players, C.NUM_CO + 1
        p = np.broadcast_to(np.asarray(player, np.int64), (B,))
        keys = np.broadcast_to(rng.seed_keys(seeds), (B,)).copy()
        b = np.arange(B)
        live = ~(s.terminated | s.truncated)
        seat = np.arange(N)[None, :]
        cur = np.maximum(s.current_player.astype(np.int64), 0)
        redeal = (seat != p[:, None]) & live[:, None]
        # fresh shares were won in view of everyone: they stay in the turn owner's hand
        known = np.zeros((B, N, K), np.int64)
        known[b, s.turn_owner.astype(np.int64), :C.NUM_CO] = s.fresh
        cards = np.concatenate([s.hand.astype(np.int64), s.hand_cash[:, :, None]], axis=2)
        cards = (cards - known) * redeal[:, :, None]  # [B, N, 12] cards to redeal
        D = C.MAX_DECK
        pos = np.arange(D)
        dlen = s.deck_len.astype(np.int64)
        in_deck = (pos[None] < dlen[:, None]) & live[:, None]
        deck = s.deck.astype(np.int64)
        is_go = in_deck & (deck == C.GO_CARD)
        non_go = in_deck & ~is_go
        deck_counts = np.zeros((B, K), np.int64)
        np.add.at(deck_counts, (np.repeat(b, D), np.where(non_go, deck, 0).ravel()),
                  non_go.ravel().astype(np.int64))
        pool = deck_counts + cards.sum(axis=1)  # [B, 12]
        M = max(int(pool.sum(axis=1).max(initial=0)), 1)
        slots = np.arange(M)
        cum = np.cumsum(pool, axis=1)
        types = np.minimum((cum[:, None, :] <= slots[None, :, None]).sum(axis=2), K - 1)
        valid = slots[None] < cum[:, -1:]
        sizes = cards.sum(axis=2)  # [B, N]
        bounds = np.cumsum(sizes, axis=1)
        seg = (slots[None, :, None] >= bounds[:, None, :]).sum(axis=2)  # [B, M]: seat or N
        # Game Over positions: within each half, uniformly, never the top card
        bottom = s.bottom_size.astype(np.int64)
        half = np.where(pos[None] < bottom[:, None], 0, 1)
        top_pos = dlen - 1
        new_go = np.zeros((B, D), bool)
        v = rng.bits(keys[:, None], S_RESAMPLE + 100, pos.astype(np.uint64)[None])
        for h in (0, 1):
            cand = in_deck & (half == h) & (pos[None] != top_pos[:, None])
            n_go = (is_go & (half == h)).sum(axis=1)
            key_h = np.where(cand, v >> np.uint64(1), np.uint64(2**63))
            rank = np.argsort(np.argsort(key_h, axis=1, kind="stable"), axis=1, kind="stable")
            new_go |= cand & (rank < n_go[:, None])
        fill = in_deck & ~new_go
        # the deck's non-Game-Over positions, top first, take the cards after the hands'
        order = np.cumsum(fill[:, ::-1], axis=1)[:, ::-1] - 1  # 0 for the topmost filled
        take = np.clip(bounds[:, -1:] + order, 0, M - 1)

        def shuffle(rows: np.ndarray, attempt: int) -> np.ndarray:
            u = rng.bits(keys[rows, None], S_RESAMPLE,
                         (slots + attempt * (1 << 16)).astype(np.uint64)[None])
            u = np.where(valid[rows], u >> np.uint64(1), np.uint64(2**63))
            return np.take_along_axis(types[rows], np.argsort(u, axis=1, kind="stable"),
                                      axis=1)

        def deal(shuffled: np.ndarray, cash: np.ndarray) -> None:
            """Hands, deck and cash of `s` from a shuffled card sequence and drawn cash."""
            counts = np.zeros((B, N + 1, K), np.int64)
            np.add.at(counts, (np.repeat(b, M), np.where(valid, seg, N).ravel(),
                               shuffled.ravel()), valid.ravel().astype(np.int64))
            new = counts[:, :N] + known
            s.hand = np.where(redeal[:, :, None], new[:, :, :C.NUM_CO], state.hand)
            s.hand_cash = np.where(redeal, new[:, :, C.NUM_CO], state.hand_cash)
            filled = np.take_along_axis(shuffled, take, axis=1)
            new_deck = np.where(fill, filled, np.where(new_go, C.GO_CARD, deck))
            s.deck = np.where(live[:, None], new_deck, deck)
            self._set_cash(s, state, cash)
            self.refresh_masks(s)

        shuffled = shuffle(b, 0)
        cash = self._draw_cash(state, p, keys, live, 0)
        need = np.minimum(2 if self.auto_forced else 1,
                          state.legal_action_mask.sum(axis=1))
        binding = live & self._decision_holds(state, need)  # crafted states may break it
        for attempt in range(1, self.RESAMPLE_TRIES + 1):
            deal(shuffled, cash)
            bad = np.flatnonzero(binding & ~self._decision_holds(s, need))
            if bad.size == 0 or attempt == self.RESAMPLE_TRIES:
                break
            shuffled[bad] = shuffle(bad, attempt)
            cash[bad] = self._draw_cash(state, p, keys, live, attempt)[bad]
        # the rare games still broken: the acting player's hand towards the true one
        bad = binding & ~self._decision_holds(s, need)
        lo = np.where(cur > 0, bounds[b, np.maximum(cur - 1, 0)], 0)
        hi = bounds[b, cur]
        in_seg = (slots[None] >= lo[:, None]) & (slots[None] < hi[:, None])
        for _ in range(int(sizes.max(initial=0))):
            if not bad.any():
                break
            now = np.zeros((B, K), np.int64)
            np.add.at(now, (np.repeat(b, M), shuffled.ravel()), (in_seg & valid).ravel()
                      .astype(np.int64))
            true = cards[b, cur]
            short, spare = (true > now) & bad[:, None], (now > true) & bad[:, None]
            move = short.any(axis=1) & spare.any(axis=1)
            if not move.any():
                break
            r = np.flatnonzero(move)
            t_in, t_out = short[r].argmax(axis=1), spare[r].argmax(axis=1)
            j = (~in_seg[r] & valid[r] & (shuffled[r] == t_in[:, None])).argmax(axis=1)
            i = (in_seg[r] & (shuffled[r] == t_out[:, None])).argmax(axis=1)
            shuffled[r, i], shuffled[r, j] = t_in, t_out
            deal(shuffled, cash)
            bad = binding & ~self._decision_holds(s, need)
        if bad.any():
            cash[bad] = state.cash[bad]
            deal(shuffled, cash)
        s.key = np.where(live, keys, s.key)
        s.rng_ctr = np.where(live, 0, s.rng_ctr)
        return s

    def _draw_cash(self, s: BigDealState, p: np.ndarray, keys: np.ndarray, live: np.ndarray,
                   attempt: int) -> np.ndarray:
        """int64 [B, N]: the cash of every player, the others' redrawn in the Shark variant.

        Secret cash is drawn uniformly between what the observation proves and, above that,
        twice the player's starting money (a search needs some prior; this one uses only what
        the observer knows). Proven: a defender who has bid holds his offer for every card
        played, and one asked to bid can raise; an attacker holds what his sales in the attempt
        raised, and one realising assets holds less than he owes."""
        cash = s.cash.astype(np.int64)
        if not self.shark:
            return cash
        B, N = cash.shape
        b = np.arange(B)
        seat = np.arange(N)[None, :]
        lo = np.zeros((B, N), np.int64)
        active = s.to_def >= 0
        y = np.maximum(s.to_def.astype(np.int64), 0)
        x = s.turn_owner.astype(np.int64)
        n_att = (s.to_sh + s.to_cc).astype(np.int64)
        pd = s.to_pd.astype(np.int64)
        dec = s.dec
        lo[b, y] = np.where(active & (s.to_bids >= 2), pd * n_att, 0)
        asked = active & (s.current_player == s.to_def) & ((dec == BID) | (dec == BID_ONES))
        t = s.to_tens.astype(np.int64)
        af = int(self.auto_forced)
        step = np.where(dec == BID_ONES, np.where(t > 0, 10 * t + af, 1 + af), af)
        lo[b, y] = np.maximum(lo[b, y], np.where(asked, (pd + step) * n_att, 0))
        raised = np.where(active, cash[b, x] - s.to_cash0.astype(np.int64), 0)
        lo[b, x] = np.maximum(lo[b, x], raised)
        hi = lo + 2 * R.START[N, :N][None].astype(np.int64)
        funds = active & (dec == RAISE_FUNDS)
        hi[b, x] = np.where(funds, s.to_owed.astype(np.int64) - 1, hi[b, x])
        hi = np.maximum(hi, lo)
        u = rng.uniform(keys[:, None], S_RESAMPLE + 200,
                        (seat + N * attempt).astype(np.uint64))
        drawn = lo + np.floor(u * (hi - lo + 1)).astype(np.int64)
        hidden = (seat != p[:, None]) & live[:, None]
        return np.where(hidden, drawn, cash)

    @staticmethod
    def _set_cash(s: BigDealState, state: BigDealState, cash: np.ndarray) -> None:
        """The drawn cash into `s`; the attacker's cash before his attempt moves with his."""
        s.cash = cash
        b = np.arange(s.batch_size)
        x = s.turn_owner.astype(np.int64)
        delta = cash[b, x] - state.cash[b, x].astype(np.int64)
        s.to_cash0 = np.where(state.to_def >= 0, state.to_cash0 + delta, state.to_cash0)

    def _decision_holds(self, s: BigDealState, need: np.ndarray) -> np.ndarray:
        """bool [B]: the pending decision is one the rules put to its player: as many legal
        actions as `need` (two with `auto_forced`: a single one would have been played), and an
        attacker realising assets can still cover his debt."""
        ok = s.legal_action_mask.sum(axis=1) >= need
        funds = s.dec == RAISE_FUNDS
        if funds.any():
            owed = s.to_owed.astype(np.int64)
            x = s.turn_owner.astype(np.int64)
            cash = s.cash[np.arange(s.batch_size), x].astype(np.int64)
            ok &= ~funds | (cash + self.max_liquidation(s, x) >= owed)
        return ok

    def max_liquidation(self, s: BigDealState, x: np.ndarray) -> np.ndarray:
        """int64 [B]: `rules.max_liquidation` of seat x[b] (the turn owner) in every game."""
        b = np.arange(s.batch_size)
        W = R.WHITE[None]
        hand = s.hand[b, x].astype(np.int64)
        fresh = s.fresh.astype(np.int64)
        total = ((hand - fresh) * W + fresh * (W + self.bonus)).sum(axis=1)
        br = s.br_co[b, x].astype(np.int64)
        white = np.concatenate([R.WHITE, [0]])[br]  # slot -1 indexes the padding 0
        total += np.where(br >= 0, s.br_sh[b, x] * (white + self.bonus), 0).sum(axis=1)
        req = np.concatenate([C.REQ, np.zeros((1, C.NUM_RES), np.int64)])
        held = s.res_free[b, x].astype(np.int64) + req[br].sum(axis=1)
        out = s.out.astype(np.int64)
        left = C.SELLS - s.sells.astype(np.int64)
        for k in range(C.SELLS):
            price = np.where(held > 0, R.PRICE[np.arange(C.NUM_RES)[None],
                                               np.maximum(out - 1, 0)], -1)
            r = price.argmax(axis=1)
            best = price[b, r]
            sold = (k < left) & (best >= 0)
            total += np.where(sold, best, 0)
            held[b, r] -= sold
            out[b, r] -= sold
        return total

    # == text =====================================================================================
    def render(self, state: BigDealState, b: int = 0, player: int | None = None) -> str:
        from .render import render_text

        return render_text(self, state, b, player)

    def final_info(self, state: BigDealState, b: int = 0) -> dict:
        """Cash before the liquidation, per player ($M)."""
        return {"cash_before_liquidation": (state.cash[b].astype(np.int64) * C.UNIT).tolist()}


# == layouts ======================================================================================
def _observation_layout(n: int, transfer_log: bool = False) -> ObservationLayout:
    per_player = (
        Field("cash", 1, "cash in $50M units / 400, capped at 1 (0 when hidden)"),
        Field("cash_hidden", 1, "1 if this cash is secret to me (Shark, another player)"),
        Field("hand_size", 1, "cards in hand (shares and cash cards) / 10"),
        Field("unassigned", C.NUM_RES, "unassigned resources L, S, E, M / 14"),
        Field("assigned", C.NUM_RES, "resources assigned to branches L, S, E, M / 14"),
        Field("branches", C.NUM_SLOTS * (C.NUM_CO + 1),
              "per branch slot 0-7: company one-hot (11), shares / 7"),
        Field("income", 1, "green value of the open branches, units / 40"),
        Field("shares_in_play", 1, "shares in branches / 20"),
    )
    return ObservationLayout([
        Field("num_players", 5, "one-hot over 2..6 players"),
        Field("decision", NUM_DECISIONS, "one-hot pending decision: none, main, commit, bid, "
              "bid ones, raise funds, premium second, place share"),
        Field("to_act", n, "one-hot relative seat of the player to act"),
        Field("turn_owner", n, "one-hot relative seat whose turn it is"),
        Field("go_revealed", C.GO_CARDS + 1, "one-hot Game Over cards on the board, 0..7"),
        Field("deck_left", 1, "cards in the draw pile / 100"),
        Field("wheels", 3 * C.NUM_RES, "per L, S, E, M: left / 14, buy price / 14, sell "
              "price / 14 (units; 0 if none)"),
        Field("pool", C.NUM_CO, "shares pool per company / 7"),
        Field("waste", C.NUM_CO, "waste heap per company / 7"),
        Field("cash_cards_gone", 1, "cash cards played or discarded / 12"),
        Field("company_table", 6 * C.NUM_CO, "per company: white / 10, green / 10 (units), "
              "resource set L, S, E, M / 3"),
        Field("company_in_game", C.NUM_CO, "1 if the company is in this player count's deck"),
        Field("shares_per_company", 1, "/ 7"),
        Field("turn_counters", 3, "optional actions / the cap, resources bought / 3, sold / 3"),
        Field("takeover_active", 1, "1 during a hostile takeover"),
        Field("takeover_company", C.NUM_CO, "one-hot company attacked"),
        Field("takeover_defender", n, "one-hot relative seat of the defender"),
        Field("takeover_slot", C.NUM_SLOTS, "one-hot defended branch slot"),
        Field("takeover_n_def", 1, "shares of the defended branch / 7"),
        Field("takeover_shares", 1, "shares the attacker committed / 7"),
        Field("takeover_cash_cards", 1, "cash cards the attacker committed / 12"),
        Field("attacker_offer", 1, "attacker's offer per defender share, units / 60 (0 none)"),
        Field("defender_offer", 1, "defender's offer per attacker card, units / 60 (0 none)"),
        Field("defender_bids", 1, "1 if the defender is to bid"),
        Field("raise_tens", 1, "tens of $50M of the raise being named / 5"),
        Field("owed", 1, "what the winning attacker owes, units / 400"),
        Field("to_place", 1, "won shares the defender still places / 7"),
        Field("takeover_wins", C.NUM_CO, "branches the turn owner took over this turn / 3"),
        Field("premium_first", n, "one-hot relative seat of the first premium target"),
        Field("variant", 2, "Shark flag, bank-sale bonus per share in units / 2"),
        Field("turn", 1, "turns begun / 200"),
        Block("player", n, per_player, "per player, clockwise from me (0 = me)"),
        Field("my_hand", C.NUM_CO, "my hand shares per company / 7"),
        Field("my_cash_cards", 1, "my cash cards / 12"),
        Field("my_fresh", C.NUM_CO, "my hand shares won in a takeover this turn / 7"),
    ] + ([Field("last_transfers", 3 * n, "the previous step's public cash transfers per "
                "player, clockwise from me: income / 40, money received / 400, money paid / "
                "400 (units)")] if transfer_log else []))


def _action_layout() -> ActionLayout:
    co = lambda i: f"{C.CO_LETTER[i]} {C.CO_NAME[i]}"  # noqa: E731
    return ActionLayout([
        ActionRange("end_turn", 1, lambda i: "end turn", "end the turn"),
        ActionRange("buy_resource", C.NUM_RES, lambda i: f"buy {C.RESOURCE_NAMES[i]}",
                    "buy a resource at the wheel's next price"),
        ActionRange("sell_resource", C.NUM_RES, lambda i: f"sell {C.RESOURCE_NAMES[i]}",
                    "sell an unassigned resource back to its wheel"),
        ActionRange("buy_share", C.NUM_CO, lambda i: f"buy share {co(i)}",
                    "buy a share from the pool at its white value"),
        ActionRange("sell_share", C.NUM_CO, lambda i: f"sell share {co(i)}",
                    "sell a hand share to the pool at its white value"),
        ActionRange("found", C.NUM_CO, lambda i: f"found {co(i)}",
                    "open a branch with 2 hand shares and a resource set"),
        ActionRange("add_share", C.NUM_SLOTS, lambda i: f"add share to branch {i}",
                    "a hand share joins an own branch"),
        ActionRange("withdraw_share", C.NUM_SLOTS, lambda i: f"withdraw share from branch {i}",
                    "a share of an own branch (3 or more) back to hand"),
        ActionRange("close_branch", C.NUM_SLOTS, lambda i: f"close branch {i}",
                    "all shares of a branch back to hand"),
        ActionRange("sell_branch", C.NUM_SLOTS, lambda i: f"sell branch {i}",
                    "sell a branch to the bank: white + bonus per share"),
        ActionRange("takeover", (R.MAXP - 1) * C.NUM_SLOTS,
                    lambda i: f"takeover player +{i // C.NUM_SLOTS + 1} branch {i % C.NUM_SLOTS}",
                    "hostile takeover of an opponent's branch (clockwise offset, slot)"),
        ActionRange("commit_share", 1, lambda i: "commit share", "takeover: play a share"),
        ActionRange("commit_cash_card", 1, lambda i: "commit cash card",
                    "takeover: play a cash card for a share"),
        ActionRange("commit_done", 1, lambda i: "commit done", "takeover: start the bidding"),
        ActionRange("raise_tens", R.BID_TENS, lambda i: f"raise {10 * i}+ x $50M",
                    "bid: the tens of the raise, in $50M"),
        ActionRange("raise_ones", 10, lambda i: f"raise +{i} x $50M",
                    "bid: the ones of the raise, in $50M"),
        ActionRange("drop", 1, lambda i: "drop out", "bid: accept the other side's offer"),
        ActionRange("premium", R.MAXP - 1, lambda i: f"premium from player +{i + 1}",
                    "cash card: demand the premium from a player (clockwise offset)"),
        ActionRange("premium_finish", 1, lambda i: "no second premium",
                    "cash card: no second player"),
        ActionRange("sell_fresh", C.NUM_CO, lambda i: f"sell fresh share {co(i)}",
                    "sell a share won this turn to the bank: white + bonus"),
        ActionRange("place_company", 1, lambda i: "won share to the company",
                    "defender: a won share joins the defended branch"),
        ActionRange("place_hand", 1, lambda i: "won share to hand",
                    "defender: a won share goes to hand (under 5 cards)"),
    ])
