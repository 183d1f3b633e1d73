"""The clients' tests; `python_blocks` reads a client's page for its runnable examples."""

import re
from pathlib import Path

DOCS = Path(__file__).resolve().parents[3] / "docs"


def python_blocks(page: str) -> tuple[Path, list[str]]:
    """A client's page under docs/ and its python code blocks, which its tests run as written."""
    doc = DOCS / page
    return doc, re.findall(r"```python\n(.*?)```", doc.read_text(), flags=re.S)
