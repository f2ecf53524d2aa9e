"""`agents actions` output for one attempt or many (docs/agents.md, "Many trajectories").

One attempt (one trajectory argument holding one attempt, or `--row`): json is the list
of actions and csv has the action columns, as for a single run. Several attempts: json is
a list of per-attempt documents `{file, row, agent, bug, actions}`, csv starts each line
with `file,row`, the table comes once per attempt under its file name. jsonl is always
one action per line, with `file`, `row`, `agent` and `bug` in front of the action's own
fields. Every format is written as the attempts are read, never all held at once."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hunkmetrics.csvfiles import csv_writer, write_row

from .agents_inputs import Item
from .common import print_warnings, rich_console, styled
from .output import write_text

if TYPE_CHECKING:
    from ..agents import Action, Attempt

RowOf = Callable[["Action"], dict[str, Any]]
TableOf = Callable[["Attempt"], None]


def label(item: Item) -> str:
    """`path`, with `row N` when the file holds several attempts."""
    return f"{item.path} row {item.row}" if item.rows > 1 else str(item.path)


class ActionsWriter:
    """Writes each attempt's actions in `format` (table, json, jsonl or csv) as it comes.

    `one_argument`: the command was given one trajectory (not a directory to scan); its
    only attempt (or the `--row` one) is then written in the single-run shape."""

    def __init__(
        self,
        format: str,
        columns: tuple[str, ...],
        row_of: RowOf,
        table_of: TableOf,
        one_argument: bool,
        row_given: bool,
    ) -> None:
        self.format = format
        self.columns = columns
        self.row_of = row_of
        self.table_of = table_of
        self.one_argument = one_argument
        self.row_given = row_given
        self.single: bool | None = None  # decided by the first attempt
        self.written = 0

    def add(self, item: Item) -> None:
        if self.single is None:
            self.single = self.one_argument and (self.row_given or item.rows == 1)
        rows = [self.row_of(a) for a in item.attempt.actions]
        getattr(self, f"_{self.format}")(item, rows)
        self.written += 1
        prefix = "" if self.single else f"{label(item)}: "
        print_warnings([prefix + w for w in item.attempt.warnings])

    def close(self) -> None:
        if self.format == "json":
            if self.written == 0:
                write_text("[]\n")
            else:
                write_text("\n]\n" if not self.single else "")

    def _table(self, item: Item, rows: list[dict[str, Any]]) -> None:
        if not self.single:
            console = rich_console()
            if self.written:
                console.print()
            console.print(styled((label(item), "bold")))
        self.table_of(item.attempt)

    def _json(self, item: Item, rows: list[dict[str, Any]]) -> None:
        if self.single:
            write_text(json.dumps(rows, ensure_ascii=False, indent=2) + "\n")
            return
        document = {**_origin(item), "actions": rows}
        text = json.dumps(document, ensure_ascii=False, indent=2).replace("\n", "\n  ")
        write_text(("[\n  " if self.written == 0 else ",\n  ") + text)

    def _jsonl(self, item: Item, rows: list[dict[str, Any]]) -> None:
        origin = _origin(item)
        write_text(
            "".join(json.dumps({**origin, **row}, ensure_ascii=False) + "\n" for row in rows)
        )

    def _csv(self, item: Item, rows: list[dict[str, Any]]) -> None:
        front = () if self.single else ("file", "row")
        buf = io.StringIO()
        writer = csv_writer(buf)
        names = [*front, *self.columns]
        if self.written == 0:
            write_row(writer, names)
        for row in rows:
            full = {**row, "paths": " ".join(row["paths"]), "file": str(item.path), "row": item.row}
            write_row(writer, (full.get(name) for name in names))
        write_text(buf.getvalue())


def _origin(item: Item) -> dict[str, Any]:
    return {
        "file": str(item.path),
        "row": item.row,
        "agent": item.attempt.agent,
        "bug": item.attempt.bug_id,
    }
