"""Writing documents: JSON and CSV to stdout, tables through Rich."""

from __future__ import annotations

import csv
import io
import json
import sys
from typing import Any


def write_text(text: str) -> None:
    """Write to stdout; bytes that were not UTF-8 in the input come out escaped."""
    sys.stdout.flush()
    sys.stdout.buffer.write(text.encode("utf-8", "backslashreplace"))
    sys.stdout.buffer.flush()


def write_json(document: dict[str, Any]) -> None:
    write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n")


def write_csv(rows: list[dict[str, Any]], columns: list[str]) -> None:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, extrasaction="ignore",
                            lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: _cell(row.get(k)) for k in columns})
    write_text(buffer.getvalue())


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return ";".join(str(v) for v in value)
    return value
