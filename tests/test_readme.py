"""The README's Python examples run as written."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_blocks_run():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert len(blocks) >= 2
    for code in blocks:
        exec(compile(code, str(README), "exec"), {})


def test_readme_games_table_matches_the_registry():
    from heistbench import envs

    text = README.read_text()
    for name in envs.GAMES:
        cls = envs.module(name).Game
        row = next(line for line in text.splitlines() if f"`{name}`" in line and "|" in line)
        cells = [c.strip() for c in row.strip("|").split("|")]
        sizes = [cls(num_players=n).obs_size for n in cls.player_counts]
        assert cells[3] == str(cls().num_actions), row
        assert str(min(sizes)) in cells[4] and str(max(sizes)) in cells[4], row
        assert cells[2] == f"{cls.player_counts[0]}–{cls.player_counts[-1]}", row
