"""Vaults' table: the public vault piles, the Police station, every seat's crews, vault pile and
loot, and the viewer's hand and pending crack (divisors from the layout's docs)."""

from __future__ import annotations

from ...envs.vaults import components as C
from ...envs.vaults.kernel import SKILL_NAMES
from . import Item, Rows, View, chunk_rows, field_rows

CARDS = C.CARD_NAMES
BOSSES, MEMBERS, TOOLS = CARDS[:C.MEMBER0], CARDS[C.MEMBER0:C.TOOL0], CARDS[C.TOOL0:C.DISRUPT0]
VAULTS = tuple(f"vault {v}: G{int(C.VAULT_GROUP[v])} "
               + (f"£{int(C.VAULT_VALUE[v])}" if C.VAULT_SUCCESS[v] else "Fail")
               for v in range(len(C.VAULT_GROUP)))
GROUPS = tuple(f"G{g}" for g in range(9))
DECISIONS = ("", *(d.lower().replace("_", " ") for d in C.DECISIONS[1:]))
EFFECTS = ("", *(e.lower().replace("_", " ") for e in C.EFFECTS[1:]))
CRACK_TARGETS = ("public pile 1", "public pile 2", "public pile 3", "your pile",
                 "pile of seat +1", "pile of seat +2", "pile of seat +3")
CHARS, TOOL_TOP = len(BOSSES) + len(MEMBERS) + 1, len(TOOLS) + 1  # one-hots with "empty"


def _crew_items() -> list[Item]:
    return [
        Item("boss", "boss", "", "choice", part=(1, 12), names=BOSSES, log=True),
        Item("members", "members", "", "cards", 2, MEMBERS, part=(13, 20), log=True),
        Item("tools", "tools", "", "cards", 2, TOOLS, part=(33, 12), log=True),
        Item("skills", "skills", "", "cards", 30, SKILL_NAMES, part=(45, 3)),
        Item("spent", "spent", "", "flag", part=(48, 1)),
        Item("blocked", "blocked", "", "flag", part=(49, 1), log=True),
    ]


def view(game) -> View:
    K = C.MAX_CREWS
    police_tops = [Item(f"police_char{i}", f"Police characters, card {i + 1}", "police_tops",
                        "choice", part=(CHARS * i, CHARS), names=(*BOSSES, *MEMBERS, ""))
                   for i in range(3)]
    police_tops += [Item(f"police_tool{i}", f"Police tools, card {i + 1}", "police_tops",
                         "choice", part=(3 * CHARS + TOOL_TOP * i, TOOL_TOP),
                         names=(*TOOLS, "")) for i in range(3)]
    return View(
        table=[
            Item("goal", "goal", "goal", div=1430, fmt="£{}"),
            Item("turn", "turn", "turn", div=300),
            Item("active", "to act", "active_player", "seat"),
            Item("first", "first player", "first_player", "seat"),
            Item("phase", "phase", "phase", "choice", names=("1", "2", "3", "4")),
            Item("actions_left", "actions left", "actions_left", div=6),
            Item("can_draw", "may draw", "can_draw", "flag"),
            Item("draw_source", "drawing from", "draw_source", "choice",
                 names=("", "main deck", "Police station")),
            Item("main_deck", "main deck", "main_deck", div=76),
            Item("disrupt_deck", "disrupt deck", "disrupt_deck", div=20),
            Rows("public_piles", "public pile", chunk_rows("public_piles", 3), [
                Item("count", "vaults", "", part=(0, 1), div=9, log=True),
                Item("top", "top group", "", "choice", part=(1, 10), names=(*GROUPS, "")),
            ]),
            Item("revealed", "vault fronts seen", "revealed", "cards", 1, VAULTS),
            Item("unrevealed", "unrevealed vaults", "unrevealed_by_group", "cards", 3, GROUPS),
            Item("police", "Police station", "police_counts", "cards", 2, CARDS[:C.DISRUPT0],
                 log=True),
            *police_tops,
            Item("disrupt_used", "disrupts used", "disrupt_used", "cards", 2,
                 CARDS[C.DISRUPT0:], log=True),
            Item("card_in_play", "card in play", "card_in_play", "choice", names=CARDS),
            Item("effect", "resolving", "effect", "choice", names=EFFECTS),
            Item("target_player", "chosen player", "target_player", "seat"),
            Item("crack_target", "crack on", "crack_target", "choice", names=CRACK_TARGETS),
            Item("crack_skills", "cracking skills", "crack_skills", "cards", 30, SKILL_NAMES),
            Item("crack_combo", "combination", "crack_combo", "cards", 10, SKILL_NAMES),
            Item("overloads", "overloaded tools", "overloads", "cards", 2, TOOLS, log=True),
            Item("key_used", "Master Key on the crack", "key_used", "flag", log=True),
        ],
        seat=[
            Item("hand_size", "cards in hand", "hand_size", div=10),
            Item("disrupts", "disrupt cards", "disrupts", div=5, log=True),
            Item("known_hand", "known hand cards", "known_hand", "cards", 2, CARDS),
            Item("loot", "loot", "loot", "percent", fmt="{}% of the goal", log=True),
            Item("vault_count", "vaults won", "vault_count", div=27, log=True),
            Item("top_vault", "top vault", "top_vault", "choice", names=(*VAULTS, "")),
            Item("fails", "Fail vaults", "fails", div=8, log=True),
            Item("turns", "turns taken", "turns_taken", div=300),
            Rows("crews", "crew", field_rows([f"crew{k}" for k in range(K)]), _crew_items(),
                 present=("", 0)),
        ],
        mine=[
            Item("decision", "your decision", "decision", "choice", names=DECISIONS),
            Item("hand", "your hand", "my_hand", "cards", 2, CARDS),
            Item("hand_known", "of it known to all", "my_hand_known", "cards", 2, CARDS),
            Item("boss_offer", "bosses offered", "my_boss_offer", "cards", 1, BOSSES),
        ],
        targets={"card": "mine/hand", "crack": "seat/crews", "player": "@seat",
                 "pile": "table/public_piles"},
    )
