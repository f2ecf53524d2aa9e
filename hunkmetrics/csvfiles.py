"""CSV the one way this project reads and writes it.

Reading: UTF-8 with or without a byte-order mark, newlines left to the csv module, a
failure as one HunkmetricsError. Writing (every CSV the project writes: `export`, the
`--format csv` of `hunks` and the other document commands, `agents actions`, `agents
summary`, the report's downloads): RFC 4180 (`\r\n` line ends, so that a cell holding a
bare `\r` or `\n` is quoted and no reader splits its row), and every text cell made
inert for spreadsheets (`neutral`: docs/security.md).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

from .inputfile import open_input

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def open_csv(path: Path, what: str = "") -> TextIO:
    """`path` open for `csv.reader`; `what` names it in the error (`the manifest`)."""
    handle = open_input(path, what or "a CSV file")
    return io.TextIOWrapper(handle, newline="", encoding="utf-8-sig")


def neutral(text: str) -> str:
    """A text cell that spreadsheets will not run: one starting like a formula (=, +, -,
    @, tab or carriage return) gets a leading apostrophe, unless it is just a number."""
    if text.startswith(FORMULA_START) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def csv_cell(value: Any) -> Any:
    """A value as a CSV cell: None empty, booleans `true`/`false`, lists joined with `;`,
    text made `neutral`; numbers as they are."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        value = ";".join("" if v is None else str(v) for v in value)
    if isinstance(value, str):
        return neutral(value)
    return value


def csv_writer(handle: TextIO) -> Any:
    """A writer of RFC 4180 rows to `handle`; write rows through `write_row`."""
    return csv.writer(handle)  # the excel dialect: QUOTE_MINIMAL, \r\n line ends


def write_row(writer: Any, cells: Iterable[Any]) -> None:
    """One row, each cell through `csv_cell`."""
    writer.writerow([csv_cell(c) for c in cells])
