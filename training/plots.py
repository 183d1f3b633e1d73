"""The learning curve of a run: win rate against each bot over training steps."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def plot_learning_curve(history: list[dict[str, Any]], path: str | Path,
                        title: str = "") -> Path:
    """Write a PNG of win rate (with its 95% interval) vs learner steps, one line per bot."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    opponents = sorted({k for h in history for k in h if isinstance(h[k], dict)})
    for opp in opponents:
        pts = [(h["timesteps"], h[opp]) for h in history if opp in h]
        x = [t for t, _ in pts]
        ax.plot(x, [100 * r["win_rate"] for _, r in pts], marker="o", label=f"vs {opp}")
        ax.fill_between(x, [100 * r["ci_low"] for _, r in pts],
                        [100 * r["ci_high"] for _, r in pts], alpha=0.2)
    ax.axhline(50, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("learner steps")
    ax.set_ylabel("win rate (%), seats rotated")
    ax.set_ylim(0, 100)
    ax.set_title(f"Learning curve {title}".strip())
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return Path(path)
