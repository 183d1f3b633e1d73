"""`heistbench serve [--port 8000]`: play any game against bots in a web browser."""

from __future__ import annotations

import argparse


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve", help="play the games against bots in a web browser",
        description="Start a local web app: choose a game, the players, your seat and the "
        "bots, and play on a picture of the table that shows only what your seat may see. "
        "Needs the web extra: pip install 'heistbench[web]'.")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000; "
                   "0 picks a free one)")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1, "
                   "this machine only)")
    p.add_argument("--max-sessions", type=int, default=64, help="games held at once; the "
                   "least recently used is dropped beyond (default 64)")
    p.add_argument("--idle-hours", type=float, default=6.0, help="forget a game left "
                   "unplayed this long (default 6; 0 keeps every game until dropped)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port must be in 0..65535, got {args.port}")
    if args.max_sessions < 1:
        raise ValueError(f"--max-sessions must be at least 1, got {args.max_sessions}")
    if not args.idle_hours >= 0:
        raise ValueError(f"--idle-hours must be 0 or more, got {args.idle_hours}")
    try:
        import flask  # noqa: F401
    except ImportError:
        raise ValueError("the web app needs Flask: pip install 'heistbench[web]'") from None
    from heistbench.training.web import serve

    serve(args.host, args.port, args.max_sessions, args.idle_hours * 3600 or None)
    return 0
