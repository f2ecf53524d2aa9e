"""A batch's JSON Lines as one flat table (CSV or Parquet): one row per patch, by id.

Rows are sorted by id, so a table never depends on the order in which a parallel run
happened to finish. Lines that are torn (a killed run not yet resumed) or not records
are skipped and counted, never fatal. Text cells that a spreadsheet would run as a
formula are written with a leading apostrophe (`neutral`; docs/security.md).
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from ..csvfiles import csv_writer, write_row
from ..errors import HunkmetricsError
from .lock import output_lock
from .records import ResultRecord, iter_results, parse_line

FORMATS = ("csv", "parquet")


Getter = Callable[[ResultRecord], str | int | float | bool | None]

WARNING_SEPARATOR = " | "


def warning_text(record: ResultRecord) -> str | None:
    """The record's warnings in one cell, joined by WARNING_SEPARATOR (None: no list)."""
    messages = record.warning_messages
    return None if messages is None else WARNING_SEPARATOR.join(messages)


def _first(*values: int | None) -> int | None:
    return next((v for v in values if v is not None), None)


# (column, type for Parquet, how to get it from a record). Keep in step with docs/batch.md.
COLUMNS: list[tuple[str, str, Getter]] = [
    ("id", "string", lambda r: r.id),
    ("error", "string", lambda r: r.error),
    ("patch", "string", lambda r: r.patch),
    ("repository", "string", lambda r: r.commit.repository if r.commit else None),
    ("commit", "string", lambda r: r.commit.commit if r.commit else None),
    ("parent", "string", lambda r: r.commit.parent if r.commit else None),
    ("date", "string", lambda r: r.commit.date if r.commit else None),
    ("author", "string", lambda r: r.commit.author if r.commit else None),
    ("summary", "string", lambda r: r.commit.summary if r.commit else None),
    ("hunk_count", "int64", lambda r: r.hunk_count),
    ("divergence", "float64", lambda r: r.divergence.value),
    ("lexical_mean", "float64", lambda r: r.divergence.lexical),
    ("structural_mean", "float64", lambda r: r.divergence.structural),
    ("file_mean", "float64", lambda r: r.divergence.file),
    ("proximity", "string", lambda r: r.proximity.label),
    ("files", "int64", lambda r: r.proximity.files),
    ("packages", "int64", lambda r: r.proximity.packages),
    ("classes", "int64", lambda r: r.proximity.classes),
    ("methods", "int64", lambda r: r.proximity.methods),
    ("shared_package_depth", "int64", lambda r: r.proximity.shared_package_depth),
    ("located_by", "string", lambda r: r.proximity.located_by),
    ("evidence", "string", lambda r: r.evidence),
    ("unplaced_hunks", "int64", lambda r: r.proximity.unplaced_hunks),
    ("excluded_hunks", "int64", lambda r: r.divergence.excluded_hunks),
    ("source", "string", lambda r: r.source),
    ("source_side", "string", lambda r: r.source_side),
    ("warnings", "int64", lambda r: r.warnings),
    ("warning_text", "string", warning_text),
    ("profile", "string", lambda r: r.profile),
    # The cutoff used (`proximity.cutoff`); without it (an error row), the one asked for.
    ("cutoff", "int64", lambda r: _first(r.proximity.cutoff, r.config.cutoff)),
    ("distributed_weight", "float64", lambda r: r.config.distributed_weight),
    ("hunking", "string", lambda r: r.config.hunking),
    ("reverse", "bool", lambda r: r.config.reverse),
    ("tool_version", "string", lambda r: r.tool_version),
    ("config_fingerprint", "string", lambda r: r.config.fingerprint),
]
COLUMN_NAMES = [name for name, _, _ in COLUMNS]

Row = dict[str, str | int | float | bool | None]


@dataclass
class _Index:
    """Pass one over a results file: where each id's last line starts, and what was
    skipped. Memory is bounded by the ids, not by the records."""

    offsets: dict[str, int] = field(default_factory=dict)
    unreadable: int = 0
    duplicates: int = 0


def _index(results: Path) -> _Index:
    index = _Index()
    for line in iter_results(results, "results file"):
        if line.record is None:
            index.unreadable += 1
        else:
            index.duplicates += line.record.id in index.offsets
            index.offsets[line.record.id] = line.offset
    return index


def read_warnings(index: _Index) -> list[str]:
    """What was skipped while reading the results, one sentence each."""
    out = []
    if index.unreadable:
        out.append(f"skipped {index.unreadable} torn or invalid line(s)")
    if index.duplicates:
        out.append(f"{index.duplicates} id(s) appear more than once: kept the last line of each")
    return out


def row(record: ResultRecord) -> Row:
    """One record's row: the columns of COLUMNS."""
    return {name: get(record) for name, _, get in COLUMNS}


def rows(records: Iterable[ResultRecord]) -> list[Row]:
    """One row per record, the columns of COLUMNS."""
    return [row(record) for record in records]


def _sorted_records(results: Path, index: _Index) -> Iterator[ResultRecord]:
    """Pass two: the records by id, each read again from its offset (one at a time)."""
    with results.open("rb") as handle:
        for key in sorted(index.offsets):
            handle.seek(index.offsets[key])
            record = parse_line(handle.readline())
            if record is not None:
                yield record


def _replace_atomically(out: Path, write: Callable[[Path], None]) -> None:
    temporary = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        write(temporary)
        os.replace(temporary, out)
    except OSError as exc:
        raise HunkmetricsError(f"{out}: cannot write ({exc.strerror or exc})") from None
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink()


class _Counted:
    """The records written, counted on the way (rows and rows with an error)."""

    def __init__(self, records: Iterable[ResultRecord]) -> None:
        self._records = records
        self.rows = 0
        self.errors = 0

    def __iter__(self) -> Iterator[Row]:
        for record in self._records:
            self.rows += 1
            self.errors += record.error is not None
            yield row(record)


def write_csv(table: Iterable[Row], out: Path | None) -> None:
    """To `out`, or to standard output when `out` is None; rows written as they come."""

    def write(target: Path) -> None:
        with target.open("w", newline="", encoding="utf-8", errors="backslashreplace") as f:
            _write_csv_to(table, f)

    if out is None:
        sys.stdout.flush()
        stream = io.TextIOWrapper(
            sys.stdout.buffer,
            encoding="utf-8",
            errors="backslashreplace",
            newline="",
            write_through=False,
        )
        try:
            _write_csv_to(table, stream)
        finally:
            stream.flush()
            stream.detach()
    else:
        _replace_atomically(out, write)


def _write_csv_to(table: Iterable[Row], handle: TextIO) -> None:
    writer = csv_writer(handle)
    write_row(writer, COLUMN_NAMES)
    for one in table:
        write_row(writer, (one[name] for name in COLUMN_NAMES))


PARQUET_BATCH = 10_000  # rows per Parquet row group written


def write_parquet(table: Iterable[Row], out: Path) -> None:
    try:
        import pyarrow as pa  # type: ignore[import-untyped]
        import pyarrow.parquet as pq  # type: ignore[import-untyped]
    except ImportError:
        raise HunkmetricsError(
            "--format parquet needs pyarrow: pip install "
            "'hunkmetrics[parquet]' (or use --format csv)"
        ) from None
    types = {
        "string": pa.string(),
        "int64": pa.int64(),
        "float64": pa.float64(),
        "bool": pa.bool_(),
    }
    schema = pa.schema([(name, types[kind]) for name, kind, _ in COLUMNS])

    def arrow(batch: list[Row]) -> Any:
        try:
            return pa.Table.from_pylist(batch, schema=schema)
        except UnicodeEncodeError:  # a file name's undecodable bytes (lone surrogates)
            return pa.Table.from_pylist([_escaped(one) for one in batch], schema=schema)

    def write(target: Path) -> None:
        with pq.ParquetWriter(target, schema) as writer:
            batch: list[Row] = []
            for one in table:
                batch.append(one)
                if len(batch) >= PARQUET_BATCH:
                    writer.write_table(arrow(batch))
                    batch = []
            writer.write_table(arrow(batch))

    _replace_atomically(out, write)


def _escaped(one: Row) -> Row:
    """The row with every text as CSV writes it (`backslashreplace`): a lone surrogate,
    which UTF-8 cannot hold, becomes its `\\udcXX` escape."""
    return {
        name: value.encode("utf-8", "backslashreplace").decode("utf-8")
        if isinstance(value, str)
        else value
        for name, value in one.items()
    }


@dataclass
class ExportSummary:
    rows: int
    errors: int
    warnings: list[str]


def guess_format(out: Path | None) -> str:
    return "parquet" if out is not None and out.suffix.lower() in (".parquet", ".pq") else "csv"


def export(results: str | Path, out: str | Path | None, format: str | None = None) -> ExportSummary:
    """Write the table of `results` (a batch's JSONL) to `out` (None: CSV on stdout).

    Two passes, so that memory holds the ids and not the records: one finds each id's
    last line, the other reads those lines again in id order and writes each row."""
    results = Path(results)
    target = Path(out) if out is not None and str(out) != "-" else None
    format = format or guess_format(target)
    if format not in FORMATS:
        raise HunkmetricsError(f"unknown export format {format!r} (use csv or parquet)")
    if target is not None and results.resolve() == target.resolve():
        raise HunkmetricsError(f"{target}: --out would overwrite the results it exports")
    if format == "parquet" and target is None:
        raise HunkmetricsError("--format parquet needs --out FILE (not standard output)")
    with output_lock(target, "export") if target is not None else contextlib.nullcontext():
        index = _index(results)
        table = _Counted(_sorted_records(results, index))
        if format == "parquet":
            assert target is not None
            write_parquet(table, target)
        else:
            write_csv(table, target)
    return ExportSummary(rows=table.rows, errors=table.errors, warnings=read_warnings(index))
