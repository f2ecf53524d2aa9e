"""The rows of a SWE-bench-style file: JSON Lines, a JSON list, a JSON object keyed by
instance id (mini-swe-agent's and SWE-agent's `preds.json`), or Parquet (with pyarrow).
Each row keeps where it came from, for one-line errors that name it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hunkmetrics.errors import HunkmetricsError
from hunkmetrics.inputfile import open_input, read_input

PARQUET_MAGIC = b"PAR1"


@dataclass(frozen=True, slots=True)
class Row:
    """One row and where it is: `path:line` (JSON Lines), `path: row N` (a list or a
    Parquet table, 0-based) or `path: key K` (an object keyed by instance id)."""

    where: str
    data: dict[str, Any]
    key: str | None = None  # the object key it sat under, when the file is keyed


WHAT = "SWE-bench rows"
#: A first line up to this long is read to tell a JSON Lines file by its first row.
FIRST_LINE_BYTES = 1 << 20


def is_parquet(path: Path) -> bool:
    with open_input(path, WHAT) as handle:
        return handle.read(4) == PARQUET_MAGIC


def read_rows(path: Path) -> list[Row]:
    """Every row of the file; a HunkmetricsError names the file (and line) at fault. A
    file that is not a regular one, or is larger than `max_input_bytes`, is refused."""
    try:
        if is_parquet(path):
            return _parquet(path)
        text = _text(read_input(path, WHAT), path)
    except OSError as exc:
        raise HunkmetricsError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return _rows(path, text)


def _text(data: bytes, path: Path) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HunkmetricsError(f"{path}: not UTF-8 text ({exc.reason})") from None


def _rows(path: Path, text: str) -> list[Row]:
    try:
        document = json.loads(text)
    except json.JSONDecodeError:
        return _lines(path, text)
    except RecursionError:
        raise HunkmetricsError(f"{path}: JSON nested too deeply") from None
    if isinstance(document, list):
        return [_row(f"{path}: row {n}", item) for n, item in enumerate(document)]
    if isinstance(document, dict):
        if all(isinstance(v, dict) for v in document.values()) and document:
            return [_row(f"{path}: key {k}", v, str(k)) for k, v in document.items()]
        return [_row(f"{path}: row 0", document)]  # a JSON Lines file of one line
    raise HunkmetricsError(f"{path}: neither rows of JSON objects nor an object of them")


def _row(where: str, item: object, key: str | None = None) -> Row:
    if not isinstance(item, dict):
        raise HunkmetricsError(f"{where}: not a JSON object")
    return Row(where, item, key)


def _lines(path: Path, text: str) -> list[Row]:
    rows = []
    # "\n" alone ends a line (JSON Lines): str.splitlines would also split at U+0085 or
    # U+2028, which a JSON string may hold as they are
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise HunkmetricsError(f"{path}:{number}: not a JSON line ({exc.msg})") from None
        rows.append(_row(f"{path}:{number}", item))
    return rows


def _parquet(path: Path) -> list[Row]:
    try:
        import pyarrow.parquet as pq  # type: ignore[import-untyped]
    except ImportError:
        raise HunkmetricsError(
            f"{path}: reading Parquet needs pyarrow: pip install 'hunkmetrics[parquet]' "
            "(or give the dataset as .jsonl)"
        ) from None
    try:
        table = pq.read_table(path)
    except Exception as exc:  # pyarrow's own errors have no common base worth naming
        raise HunkmetricsError(f"{path}: not a readable Parquet file ({exc})") from None
    records: list[dict[str, Any]] = table.to_pylist()
    return [Row(f"{path}: row {n}", item) for n, item in enumerate(records)]


def _json_or_none(line: bytes) -> Any:
    try:
        return json.loads(line.decode("utf-8"))
    except (ValueError, RecursionError):  # not one JSON value (a document's first line)
        return None


def first_row(path: Path) -> dict[str, Any] | None:
    """The first row, for telling what a file is; None when it has no JSON object rows.
    A JSON Lines file is told by its first line alone (read_rows would give the same
    row): a large file is not read whole for that."""
    try:
        with open_input(path, WHAT) as handle:
            head = handle.read(FIRST_LINE_BYTES + 1)
            line, newline, rest = head.partition(b"\n")
            more = bool(rest.strip()) or bool(handle.read(1).strip())
        if newline and more and not head.startswith(PARQUET_MAGIC):
            item = _json_or_none(line)
            if isinstance(item, dict):  # several lines, the first an object: JSON Lines
                return item
        rows = read_rows(path)
    except (HunkmetricsError, OSError):
        return None
    return rows[0].data if rows else None
