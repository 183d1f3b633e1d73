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


def start(client, game="grifters", players=2, bots=("random",), seed=3, seat=0, options=None):
    r = client.post("/api/sessions", json={"game": game, "players": players, "seat": seat,
                                           "bots": list(bots), "seed": seed,
                                           "options": options or {}})
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


def test_the_solo_game_and_rule_options_through_the_api(client):
    big_score = next(g for g in client.get("/api/games").get_json()["games"]
                     if g["name"] == "big_score_v1")
    assert big_score["player_counts"][0] == 1
    scenario = next(o for o in big_score["options"] if o["name"] == "scenario")
    assert scenario["players"] == [1] and "heat_is_on" in scenario["choices"]
    reply = start(client, game="big_score", players=1, bots=(),
                  options={"scenario": "heat_is_on"}, seed=4)
    assert reply["players"] == ["player_0 (you)"] and reply["table"]["seats"] == []
    shown = {it["key"]: it.get("text") for it in reply["table"]["table"]}
    assert shown["scenario"] == "The Heat Is On" and shown["objective"]
    rng = np.random.default_rng(2)
    while not reply["over"]:
        move = reply["legal"][int(rng.integers(len(reply["legal"])))]["action"]
        r = client.post(f"/api/sessions/{reply['session']}/moves",
                        json={"action": move, "turn": reply["turn"]})
        assert r.status_code == 200, r.get_json()
        reply = r.get_json()
    assert reply["result"]["scores"] and reply["log"][-1]["text"].startswith("winner(s): ")


def test_rule_options_are_checked(client):
    reply = start(client, game="big_deal", bots=("random",), options={"shark": True})
    assert reply["session"]
    for options, words in [({"scenario": "heat_is_on"}, "takes shark"),  # solo only
                           ({"reveal_hidden": True}, "cannot be set"),  # never: a leak
                           ({"shark": "yes"}, "shark"),
                           ("shark", "must be an object")]:
        r = client.post("/api/sessions", json={"game": "big_deal", "players": 2,
                                               "options": options})
        assert r.status_code == 400 and words in r.get_json()["error"], r.get_json()


def test_idle_sessions_are_forgotten():
    from heistbench.training.web.sessions import Sessions

    now = [0.0]
    store = Sessions(capacity=8, idle_s=100, clock=lambda: now[0])
    body = {"game": "grifters", "players": 2, "bots": ["random"], "seed": 1}
    a, b = store.create(body).token, store.create(body).token
    now[0] = 60.0
    store.get(a)  # a is played at 60: b, idle since 0, goes at 100
    now[0] = 120.0
    assert store.get(a) and len(store) == 1
    with pytest.raises(KeyError):
        store.get(b)
    now[0] = 221.0
    assert len(store) == 0


@pytest.mark.parametrize("game", GAMES)
def test_the_terminal_shows_the_web_pages_log(client, game):
    """The same game (seed, seats, bots, and always the first legal move) played on the page
    and in the terminal: the terminal prints the page's log, line for line, in order."""
    from heistbench.agents import make_policy
    from heistbench.envs import game as make_game
    from heistbench.training.human import play_human

    reply = start(client, game=game, bots=("heuristic",), seed=11)
    while not reply["over"]:
        reply = client.post(f"/api/sessions/{reply['session']}/moves",
                            json={"action": reply["legal"][0]["action"],
                                  "turn": reply["turn"]}).get_json()
    web = [("    " if e["kind"] == "change" else "") + e["text"] for e in reply["log"]]
    g = make_game(game, num_players=2)
    printed: list[str] = []
    bot = make_policy("heuristic", g, seed=12)  # the server seeds the i-th bot seed + 1 + i
    play_human(g, 0, [bot], ["heuristic"], seed=11,
               read=lambda prompt: "1", write=printed.append)
    lines = iter(printed)
    missing = [line for line in web if not any(p == line for p in lines)]
    assert not missing, missing[:5]
    assert any(line.startswith("winner(s): ") for line in printed)
