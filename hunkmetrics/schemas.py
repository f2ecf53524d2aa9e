"""JSON Schemas (draft 2020-12) of every document hunkmetrics writes.

They are generated from the documents' own shapes (hunkmetrics/documents.py). The
published copies in docs/schemas/ are written by `python -m hunkmetrics.schemas
docs/schemas`; a test keeps them equal to these."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .documents import DOCUMENT_NAMES, DRAFT, schema

NAMES = DOCUMENT_NAMES


def write_all(folder: Path) -> None:
    """Write `<name>.v1.json` for every document into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in NAMES:
        (folder / f"{name}.v1.json").write_text(json.dumps(schema(name), indent=2) + "\n")


__all__ = ["DRAFT", "NAMES", "schema", "write_all"]

if __name__ == "__main__":
    write_all(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/schemas"))
