"""The bot zoo: small trained policies shipped in the package, played without torch.

Each entry is `<game>-<n>p.npz` (the solo game: `big_score-1p.npz`) in the zoo format of
`agents.runtime`: the actor of a self-play checkpoint, its weights in float16, at most 1 MB,
with the checkpoint's metadata (game, env version, player count, observation and action
sizes), which is checked against the game it is asked to play. `zoo/README.md` lists how each
was trained and how it plays. Load one with `make_policy("zoo:vaults-2p", game)`, or
`make_policy("zoo", game)` for the entry of the game's own player count.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

ZOO_DIR = Path(__file__).parent
MAX_BYTES = 1 << 20  # the size limit of an entry


def short_name(game: Any) -> str:
    """The zoo's name of a game: its registry name without the version ("vaults")."""
    name = game if isinstance(game, str) else game.name
    return name.rsplit("_v", 1)[0] if "_v" in name else name


def entries() -> list[str]:
    """The names of the shipped entries, e.g. ["bad_company-2p", ...]."""
    return sorted(p.stem for p in ZOO_DIR.glob("*.npz"))


def entry_for(game: Any) -> str:
    """The entry that plays `game` (a Game) at its player count."""
    return f"{short_name(game)}-{game.num_players}p"


def path(name: str) -> Path:
    """The file of entry `name` ("vaults-2p"); a clear error naming the entries if absent."""
    p = ZOO_DIR / f"{name}.npz"
    if not p.is_file():
        raise ValueError(f"no zoo entry {name!r}; the zoo has: {', '.join(entries()) or 'none'}")
    return p


def load(name: str | None, game: Any, seed: int | None = 0, deterministic: bool | None = None):
    """Entry `name` (None: the one for `game`'s player count) as a policy for `game`, playing
    by the entry's own play mode (sampled or greedy: whichever won more when the zoo was
    built) unless `deterministic` says."""
    from ..runtime import NumpyPolicy

    name = name or entry_for(game)
    return NumpyPolicy.load(path(name), game, seed=seed, deterministic=deterministic,
                            name=f"zoo:{name}")
