"""The notebooks run top to bottom with tiny budgets (set through environment variables)."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
TINY = {"HEISTBENCH_NB_BENCH_SECONDS": "0.1", "HEISTBENCH_NB_BENCH_BATCH": "32",
        "HEISTBENCH_NB_TIMESTEPS": "128", "HEISTBENCH_NB_EVAL_GAMES": "4",
        "HEISTBENCH_NB_NUM_ENVS": "8"}


@pytest.mark.parametrize("name", ["01_quickstart.ipynb", "02_train_and_evaluate.ipynb"])
def test_notebook_runs(name, tmp_path, monkeypatch):
    for key, value in {**TINY, "HEISTBENCH_NB_RUN_DIR": str(tmp_path / "run")}.items():
        monkeypatch.setenv(key, value)
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    text = "\n".join(str(o.get("text", "")) for c in nb.cells if c.cell_type == "code"
                     for o in c.outputs)
    assert "Error" not in text
    if name.startswith("02"):
        assert "win rate" in text and (tmp_path / "run" / "learning_curve.png").exists()
