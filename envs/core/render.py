"""Text rendering helpers shared by the games' `render` functions."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def counts_text(counts: np.ndarray | Sequence[int], names: Sequence[str],
                empty: str = "-") -> str:
    """'2 Con Man, 1 Driver' from a count vector."""
    parts = [f"{int(c)} {n}" for c, n in zip(counts, names) if int(c) > 0]
    return ", ".join(parts) if parts else empty


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain fixed-width text table."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    line = lambda r: "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()  # noqa: E731
    out = [line(cells[0]), "  ".join("-" * w for w in widths)]
    out += [line(r) for r in cells[1:]]
    return "\n".join(out)
