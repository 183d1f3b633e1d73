"""The examples of docs/integrations.md run as written, and its self-play recipe beats random."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "integrations.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)


def test_the_page_has_its_examples_and_every_client_in_its_table():
    assert len(BLOCKS) >= 6
    table = [line for line in DOC.read_text().splitlines() if line.startswith("| ")]
    rows = {line.split("|")[1].strip().split(":")[0].split(",")[0]: line for line in table[2:]}
    for client, page in (("RLlib 2", "rllib.md"), ("OpenSpiel", "openspiel.md"),
                         ("Tianshou 2", "tianshou.md")):
        assert f"]({page})" in rows[client]  # its own page, whose examples its tests run
        assert (DOC.parent / page).exists()


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_doc_block_runs(index, capsys):
    namespace: dict = {}
    exec(compile(BLOCKS[index], f"{DOC}:block{index}", "exec"), namespace)
    if "SnapshotCallback(every=4_096))\n\n# the trained policy" in BLOCKS[index]:
        row = namespace["row"]  # the self-play recipe, trained for 20k steps
        assert row.games >= 400
        assert row.win_rate >= 0.6 and row.ci_low > 0.5, row
        assert "self-play" in capsys.readouterr().out
