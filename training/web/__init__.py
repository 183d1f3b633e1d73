"""Play any heistbench game against bots in a web browser (`heistbench serve`).

A Flask app: the page (plain HTML, CSS and JS in `static/`, served from the package) and a
JSON API over `sessions.Sessions`:

| request | reply |
|---|---|
| `GET /api/games` | the games, their player counts and bots |
| `POST /api/sessions` `{game, players, seat, bots, options, seed}` | 201: a new session's reply |
| `GET /api/sessions/<token>` | the session's reply (the table, legal moves, log, result) |
| `POST /api/sessions/<token>/moves` `{action, turn}` | the reply after the move |

Bad input gets 400 (404 for an unknown session, 409 for a stale move) with `{"error": ...}`
saying what was wrong and what is allowed, and changes nothing. POST bodies must be JSON
(`Content-Type: application/json`), which a page of another site cannot send here without the
browser asking first, and this server never agrees.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

STATIC = Path(__file__).with_name("static")


def create_app(capacity: int = 64, idle_s: float | None = 6 * 3600) -> Any:
    """The Flask app with a fresh session store of at most `capacity` games, each dropped
    after `idle_s` seconds unused (None: kept)."""
    from flask import Flask, jsonify, request, send_from_directory
    from werkzeug.exceptions import HTTPException

    from .sessions import BadRequest, Sessions, Stale, catalogue

    app = Flask(__name__, static_folder=str(STATIC), static_url_path="/static")
    app.json.sort_keys = False
    sessions = Sessions(capacity, idle_s)
    app.config["SESSIONS"] = sessions

    def error(status: int, message: str, **extra: Any):
        return jsonify({"error": message, **extra}), status

    def body() -> dict[str, Any]:
        if not request.is_json:
            raise BadRequest("the request body must be JSON (Content-Type: application/json)")
        data = request.get_json(silent=True)
        if not isinstance(data, dict):
            raise BadRequest("the request body must be a JSON object, e.g. "
                             '{"action": 3, "turn": 12}')
        return data

    def session(token: str):
        try:
            return sessions.get(token)
        except KeyError:
            raise LookupError("no such session (it ended if the server restarted or it was "
                              "left idle too long): start a new game") from None

    @app.errorhandler(BadRequest)
    def bad_request(e: BadRequest):
        return error(400, str(e))

    @app.errorhandler(Stale)
    def stale(e: Stale):
        return error(409, str(e))

    @app.errorhandler(LookupError)
    def not_found(e: LookupError):
        return error(404, str(e))

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):
        if request.path.startswith("/api/"):
            return error(e.code or 500, f"{e.name}: {e.description}")
        return e

    @app.get("/")
    @app.get("/play/<token>")
    def page(token: str | None = None):
        return send_from_directory(STATIC, "index.html")

    @app.get("/api/games")
    def games():
        return jsonify({"games": catalogue(),
                        "checkpoint": "or the path of a checkpoint (a run directory or its "
                                      "model .zip) made for the game and player count"})

    @app.post("/api/sessions")
    def new_session():
        reply = sessions.create(body()).reply()
        return jsonify(reply), 201

    @app.get("/api/sessions/<token>")
    def get_session(token: str):
        s = session(token)
        with s.lock:
            return jsonify(s.reply())

    @app.post("/api/sessions/<token>/moves")
    def move(token: str):
        s = session(token)
        return jsonify(s.move(body()))

    return app


def serve(host: str = "127.0.0.1", port: int = 8000, capacity: int = 64,
          idle_s: float | None = 6 * 3600) -> None:
    """Serve the app until interrupted (threaded: several games at once)."""
    from werkzeug.serving import make_server

    server = make_server(host, port, create_app(capacity, idle_s), threaded=True)
    print(f"heistbench: serving the games on http://{host}:{server.server_port}/ "
          "(Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
