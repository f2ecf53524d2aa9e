"""Writing documents: JSON and CSV to stdout, tables through Rich."""

from __future__ import annotations

import io
import json
import sys
import uuid
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from hunkmetrics.csvfiles import csv_writer, write_row

from ..jsonrows import JsonRows

if TYPE_CHECKING:
    from ..metrics.divergence import PairRows


def write_text(text: str) -> None:
    """Write to stdout; bytes that were not UTF-8 in the input come out escaped."""
    sys.stdout.flush()
    sys.stdout.buffer.write(text.encode("utf-8", "backslashreplace"))
    sys.stdout.buffer.flush()


#: JSON text gathered before it is written: the document is never one string.
JSON_CHUNK = 1 << 20


def write_json(document: dict[str, Any]) -> None:
    """Write a document with indent 2, as `json.dumps` would, piece by piece (never as
    one string). Lazy pair lists (PairRows) are streamed in place, one pair a line, so
    millions of pairs never sit in memory as dicts or one string; so are lazy arrays
    (JsonRows), item by item, as `json.dumps` would write them."""
    streams: dict[str, PairRows | JsonRows] = {}
    mark = uuid.uuid4().hex

    def default(node: Any) -> Any:
        if not isinstance(node, JsonRows):
            # A document holds PairRows only when divergence.py made it: never a new import.
            from ..metrics.divergence import PairRows

            if not isinstance(node, PairRows):
                raise TypeError(f"Object of type {type(node).__name__} is not JSON serializable")
        token = f"\x00pairs{mark}{len(streams)}\x00"
        streams[json.dumps(token, ensure_ascii=False)] = node
        return token

    encoder = json.JSONEncoder(indent=2, ensure_ascii=False, default=default)
    pending: list[str] = []
    size = 0
    line = ""  # the text written since the last line break
    for chunk in encoder.iterencode(document):
        rows = streams.pop(chunk, None) if chunk.startswith('"\\u0000pairs') else None
        if rows is not None:
            write_text("".join(pending))
            pending, size = [], 0
            _write_pairs(rows, " " * (len(line) - len(line.lstrip(" "))))
            line = " " * (len(line) - len(line.lstrip(" "))) + "]"
            continue
        pending.append(chunk)
        size += len(chunk)
        cut = chunk.rfind("\n")
        line = chunk[cut + 1 :] if cut >= 0 else line + chunk
        if size >= JSON_CHUNK:
            write_text("".join(pending))
            pending, size = [], 0
    pending.append("\n")
    write_text("".join(pending))


def _write_pairs(rows: PairRows | JsonRows, indent: str) -> None:
    """A lazy list in place of its token (pairs one a line), `indent` deep."""
    if not len(rows):
        write_text("[]")
        return
    inner = indent + "  "
    write_text("[\n" + inner)
    for chunk in rows.json_chunks(indent=inner):
        write_text(chunk)
    write_text("\n" + indent + "]")


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
