"""Writing documents: JSON and CSV to stdout, tables through Rich."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterable
from typing import Any

from hunkmetrics.csvfiles import csv_writer, write_row

from ..metrics.divergence import PairRows


def write_text(text: str) -> None:
    """Write to stdout; bytes that were not UTF-8 in the input come out escaped."""
    sys.stdout.flush()
    sys.stdout.buffer.write(text.encode("utf-8", "backslashreplace"))
    sys.stdout.buffer.flush()


def write_json(document: dict[str, Any]) -> None:
    """Write a document with indent 2. Lazy pair lists (PairRows) are streamed in place,
    one pair a line, so millions of pairs never sit in memory as dicts or one string."""
    streams: dict[str, PairRows] = {}

    def swap(node: Any) -> Any:
        if isinstance(node, PairRows):
            token = f"\x00pairs{len(streams)}\x00"
            streams[token] = node
            return token
        if isinstance(node, dict):
            return {key: swap(value) for key, value in node.items()}
        if isinstance(node, list):
            return [swap(value) for value in node]
        return node

    text = json.dumps(swap(document), indent=2, ensure_ascii=False) + "\n"
    for token, rows in streams.items():
        quoted = json.dumps(token)
        before, text = text.split(quoted, 1)
        line_start = before.rfind("\n") + 1
        indent = " " * (len(before[line_start:]) - len(before[line_start:].lstrip(" ")))
        write_text(before)
        if not len(rows):
            write_text("[]")
            continue
        inner = indent + "  "
        write_text("[\n" + inner)
        for chunk in rows.json_chunks(indent=inner):
            write_text(chunk)
        write_text("\n" + indent + "]")
    write_text(text)


CSV_ROWS = 20_000  # rows written at a time: a million pairs never sit in one string


def write_csv(rows: Iterable[dict[str, Any]], columns: list[str]) -> None:
    buffer = io.StringIO()
    writer = csv_writer(buffer)
    write_row(writer, columns)
    for count, row in enumerate(rows, 1):
        write_row(writer, (row.get(k) for k in columns))
        if count % CSV_ROWS == 0:
            write_text(buffer.getvalue())
            buffer.seek(0)
            buffer.truncate()
    write_text(buffer.getvalue())
