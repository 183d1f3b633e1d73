"""The table views: every game's view (The Big Score's solo game's included) draws from any
seat's observation at any point of play, and its counts are whole numbers (so each divisor
matches its layout field's)."""

from __future__ import annotations

import numpy as np
import pytest
from heistbench.envs import GAMES
from heistbench.envs import game as make_game
from heistbench.training.views import Rows, action_targets, table_view, view_of

CASES = [(name, 0) for name in GAMES] + [("big_score", 1)]  # (game, players; 0: the default)
IDS = [*GAMES, "big_score-solo"]


def _game(name: str, players: int):
    return make_game(name, **({"num_players": players} if players else {}))


def _count_items(items, src_of):
    """(item, vector) of every number and cards item, rows included."""
    for it in items:
        if isinstance(it, Rows):
            for row in it.rows(src_of):
                yield from _count_items(it.items, row)
        elif it.kind in ("number", "cards", "track"):
            yield it, it.vector(src_of)


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_views_draw_whole_counts_for_every_seat(name, players):
    game = _game(name, players)
    view = view_of(game)
    rng = np.random.default_rng(0)
    state = game.init(np.array([7]))
    prefix = view.seat_block + "."
    steps = 0
    while not state.terminated[0] and steps < 400:
        if steps % 7 == 0:
            for seat in range(game.num_players):
                obs = game.observe(state, seat)[0]
                tv = table_view(game, view, obs, seat)
                assert [s["seat"] for s in tv["seats"]][:1] == ([seat] if view.seat else [])
                fields = game.obs_fields(obs)
                plain = {k: v for k, v in fields.items() if not k.startswith(prefix)}
                own = {k[len(prefix):]: v[0] for k, v in fields.items() if k.startswith(prefix)}
                for items, src in ((view.table, plain), (view.mine, plain), (view.seat, own)):
                    for it, v in _count_items(items, src):
                        x = v.astype(np.float64) * it.div
                        assert np.allclose(x, np.rint(x), atol=1e-3), (it.key, x)
        legal = np.flatnonzero(state.legal_action_mask[0])
        game.step(state, np.array([rng.choice(legal)]))
        steps += 1


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_targets_name_action_ranges_and_items(name, players):
    game = _game(name, players)
    view = view_of(game)
    ranges = {r.name for r in game.action_layout.ranges}
    assert set(view.targets) <= ranges
    keys = {panel: {it.key for it in items}
            for panel, items in (("table", view.table), ("mine", view.mine),
                                 ("seat", view.seat))}
    for target, _ in action_targets(game, view).values():
        if target != "@seat":
            panel, key = target.split("/")
            assert key in keys[panel], target
