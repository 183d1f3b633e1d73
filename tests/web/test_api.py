"""The web app's API: bad, illegal and stale moves change nothing; sessions are independent;
a whole game plays through the API; a reply holds nothing the person's seat may not know."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("flask")

from heistbench.envs import GAMES  # noqa: E402
from heistbench.training.web import create_app  # noqa: E402


@pytest.fixture
def client():
    app = create_app(capacity=8)
    app.testing = True
    return app.test_client()


def start(client, game="grifters", players=2, bots=("random",), seed=3, seat=0):
    r = client.post("/api/sessions", json={"game": game, "players": players, "seat": seat,
                                           "bots": list(bots), "seed": seed})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def test_the_catalogue_lists_every_game_with_its_bots(client):
    games = client.get("/api/games").get_json()["games"]
    assert [g["name"] for g in games] == list(GAMES)
    for g in games:
        specs = [b["spec"] for b in g["bots"]]
        assert {"heuristic", "ismcts", "random"} <= set(specs)


def test_illegal_out_of_range_and_stale_moves_change_nothing(client):
    reply = start(client)
    token, turn = reply["session"], reply["turn"]
    legal = {m["action"] for m in reply["legal"]}
    illegal = next(a for a in range(58) if a not in legal)
    for body, status, words in [({"action": illegal, "turn": turn}, 400, "not legal"),
                                ({"action": 9999, "turn": turn}, 400, ""),
                                ({"action": min(legal), "turn": turn + 5}, 409, "turn"),
                                ({"action": "x", "turn": turn}, 400, "action"),
                                ({"turn": turn}, 400, "action")]:
        r = client.post(f"/api/sessions/{token}/moves", json=body)
        assert r.status_code == status, (body, r.get_json())
        assert words in r.get_json()["error"]
        assert client.get(f"/api/sessions/{token}").get_json() == reply
    # a double click: the same move twice, the second refused as stale
    ok = client.post(f"/api/sessions/{token}/moves", json={"action": min(legal), "turn": turn})
    assert ok.status_code == 200
    again = client.post(f"/api/sessions/{token}/moves", json={"action": min(legal),
                                                              "turn": turn})
    assert again.status_code == 409
    assert client.get(f"/api/sessions/{token}").get_json() == ok.get_json()


def test_bad_requests_say_what_is_allowed(client):
    r = client.post("/api/sessions", json={"game": "chess"})
    assert r.status_code == 400 and "grifters" in r.get_json()["error"]
    r = client.post("/api/sessions", json={"game": "grifters", "players": 7})
    assert r.status_code == 400 and "2, 3, 4" in r.get_json()["error"]
    r = client.post("/api/sessions", json={"game": "grifters", "bots": ["nonsense"]})
    assert r.status_code == 400 and "heuristic" in r.get_json()["error"]
    r = client.post("/api/sessions", data="not json")
    assert r.status_code == 400 and "JSON" in r.get_json()["error"]
    assert client.get("/api/sessions/nope").status_code == 404


def test_sessions_are_independent_and_survive_a_reload(client):
    a, b = start(client, seed=1), start(client, seed=1)
    assert a["session"] != b["session"]
    move = a["legal"][0]["action"]
    moved = client.post(f"/api/sessions/{a['session']}/moves",
                        json={"action": move, "turn": a["turn"]}).get_json()
    assert client.get(f"/api/sessions/{b['session']}").get_json() == b
    assert client.get(f"/api/sessions/{a['session']}").get_json() == moved


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_through_the_api(client, game):
    reply = start(client, game=game, bots=("heuristic",), seed=5)
    rng = np.random.default_rng(0)
    for _ in range(5000):
        if reply["over"]:
            break
        move = reply["legal"][int(rng.integers(len(reply["legal"])))]["action"]
        r = client.post(f"/api/sessions/{reply['session']}/moves",
                        json={"action": move, "turn": reply["turn"]})
        assert r.status_code == 200, r.get_json()
        reply = r.get_json()
    assert reply["over"] and reply["result"]["winners"]
    assert any(e["kind"] == "result" for e in reply["log"])


@pytest.mark.parametrize("game", GAMES)
def test_a_reply_does_not_change_when_the_hidden_state_is_redrawn(client, game):
    """Resampling everything the person's seat cannot know leaves the reply byte for byte
    the same: the table, the legal moves and the log come from what the seat may know."""
    app = client.application
    reply = start(client, game=game, players=3 if game != "big_score" else 4,
                  bots=("heuristic",), seed=7, seat=1)
    session = app.config["SESSIONS"].get(reply["session"])
    rng = np.random.default_rng(1)
    for step in range(12):
        m = session.match
        if m.over:
            break
        before = json.dumps(session.reply(), sort_keys=True)
        true_state = m.state
        m.state = m.game.resample_hidden(true_state, m.seat, 100 + step)
        assert json.dumps(session.reply(), sort_keys=True) == before
        m.state = true_state
        legal = m.legal()
        m.play(int(legal[rng.integers(len(legal))]))
