"""Golden playthroughs: a seeded random game written out as text, replayed and diffed.

`python -m heistbench.envs.core.playthrough [GAME ...]` rewrites the files under
tests/envs/golden/ on purpose (after a deliberate rules change, with a version bump).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

import numpy as np

from . import rng

STREAM_POLICY = 99  # the playthrough's own random stream, apart from the game's


def playthrough(name: str, num_players: int, seed: int = 0, **options: object) -> str:
    """Text of one seeded game with seeded random legal actions (of the game built with
    `options`, named in the header, e.g. a solo scenario)."""
    from .. import game as make_game

    game = make_game(name, num_players=num_players, **options)
    state = game.init(np.array([seed]))
    key = rng.seed_keys(seed + 7919)
    extra = "".join(f"  {k}={v}" for k, v in options.items())
    lines = [f"# {name}  players={num_players}  seed={seed}{extra}", ""]
    t = 0
    while not (state.terminated[0] or state.truncated[0]):
        p = int(state.current_player[0])
        legal = np.flatnonzero(state.legal_action_mask[0])
        obs = game.observe(state, p)[0]
        digest = hashlib.sha1(np.round(obs, 5).tobytes()).hexdigest()[:10]
        u = rng.uniform(key, STREAM_POLICY, np.array([t]))[0]
        a = int(legal[int(u * legal.size)])
        lines.append(f"{t:4d} player_{p} obs={digest} legal={legal.size:3d} -> "
                     f"{a:3d} {game.action_name(a)}")
        game.step(state, np.array([a]))
        t += 1
    lines += ["", game.render(state, 0), "",
              f"scores: {game.scores(state)[0].tolist()}",
              f"rewards: {np.round(state.rewards[0], 4).tolist()}",
              f"truncated: {bool(state.truncated[0])}"]
    return "\n".join(lines) + "\n"


def golden_path(root: Path, name: str, num_players: int, tag: str = "") -> Path:
    """tests/envs/golden/<game>[_<tag>]_<N>p.txt (the tag names the options, e.g. a
    scenario)."""
    return root / f"{name}{'_' + tag if tag else ''}_{num_players}p.txt"


def main(argv: list[str] | None = None) -> int:
    from .. import GAMES, _resolve, player_counts

    ap = argparse.ArgumentParser(description="Rewrite the golden playthrough files.")
    ap.add_argument("games", nargs="*", help="games to rewrite (default: all)")
    ap.add_argument("--dir", default="tests/envs/golden", help="where the files live")
    args = ap.parse_args(argv)
    root = Path(args.dir)
    root.mkdir(parents=True, exist_ok=True)
    for name in [_resolve(g) for g in args.games] or GAMES:
        for n in player_counts(name):
            path = golden_path(root, name, n)
            path.write_text(playthrough(name, n))
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
