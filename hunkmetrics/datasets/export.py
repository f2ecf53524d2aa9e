"""A batch's JSON Lines as one flat table (CSV or Parquet): one row per patch, by id.

Rows are sorted by id, so a table never depends on the order in which a parallel run
happened to finish. Lines that are torn (a killed run not yet resumed) or not records
are skipped and counted, never fatal.
"""

from __future__ import annotations

import csv
import io
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from ..errors import HunkmetricsError
from .records import ResultRecord, ResultsFile, read_results

FORMATS = ("csv", "parquet")


Getter = Callable[[ResultRecord], str | int | float | bool | None]

# (column, type for Parquet, how to get it from a record). Keep in step with docs/batch.md.
COLUMNS: list[tuple[str, str, Getter]] = [
    ("id", "string", lambda r: r.id),
    ("error", "string", lambda r: r.error),
    ("patch", "string", lambda r: r.patch),
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
    ("unplaced_hunks", "int64", lambda r: r.proximity.unplaced_hunks),
    ("excluded_hunks", "int64", lambda r: r.divergence.excluded_hunks),
    ("source", "string", lambda r: r.source),
    ("source_side", "string", lambda r: r.source_side),
    ("warnings", "int64", lambda r: r.warnings),
    ("profile", "string", lambda r: r.profile),
    ("cutoff", "int64", lambda r: r.config.cutoff),
    ("distributed_weight", "float64", lambda r: r.config.distributed_weight),
    ("hunking", "string", lambda r: r.config.hunking),
    ("reverse", "bool", lambda r: r.config.reverse),
    ("tool_version", "string", lambda r: r.tool_version),
    ("config_fingerprint", "string", lambda r: r.config.fingerprint),
]
COLUMN_NAMES = [name for name, _, _ in COLUMNS]

Row = dict[str, str | int | float | bool | None]


def read_warnings(read: ResultsFile) -> list[str]:
    """What was skipped while reading the results, one sentence each."""
    out = []
    if read.unreadable:
        out.append(f"skipped {len(read.unreadable)} torn or invalid line(s)")
    if read.duplicates:
        out.append(f"{read.duplicates} id(s) appear more than once: kept the last line of each")
    return out


def rows(records: Iterable[ResultRecord]) -> list[Row]:
    """One row per record, the columns of COLUMNS."""
    return [{name: get(record) for name, _, get in COLUMNS} for record in records]


def _csv_cell(value: str | int | float | bool | None) -> str | int | float:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def _replace_atomically(out: Path, write: Callable[[Path], None]) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    temporary = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    try:
        write(temporary)
        os.replace(temporary, out)
    finally:
        if temporary.exists():
            temporary.unlink()


def write_csv(table: list[Row], out: Path | None) -> None:
    """To `out`, or to standard output when `out` is None."""

    def write(target: Path) -> None:
        with target.open("w", newline="", encoding="utf-8", errors="backslashreplace") as f:
            _write_csv_to(table, f)

    if out is None:
        buffer = io.StringIO()
        _write_csv_to(table, buffer)
        sys.stdout.flush()
        sys.stdout.buffer.write(buffer.getvalue().encode("utf-8", "backslashreplace"))
        sys.stdout.buffer.flush()
    else:
        _replace_atomically(out, write)


def _write_csv_to(table: list[Row], handle: TextIO) -> None:
    writer = csv.writer(handle, lineterminator="\n")
    writer.writerow(COLUMN_NAMES)
    for row in table:
        writer.writerow([_csv_cell(row[name]) for name in COLUMN_NAMES])


def write_parquet(table: list[Row], out: Path) -> None:
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
    arrow = pa.Table.from_pylist(table, schema=schema)
    _replace_atomically(out, lambda target: pq.write_table(arrow, target))


@dataclass
class ExportSummary:
    rows: int
    errors: int
    warnings: list[str]


def guess_format(out: Path | None) -> str:
    return "parquet" if out is not None and out.suffix.lower() in (".parquet", ".pq") else "csv"


def export(results: str | Path, out: str | Path | None, format: str | None = None) -> ExportSummary:
    """Write the table of `results` (a batch's JSONL) to `out` (None: CSV on stdout)."""
    target = Path(out) if out is not None and str(out) != "-" else None
    format = format or guess_format(target)
    if format not in FORMATS:
        raise HunkmetricsError(f"unknown export format {format!r} (use csv or parquet)")
    if target is not None and Path(results).resolve() == target.resolve():
        raise HunkmetricsError(f"{target}: --out would overwrite the results it exports")
    read = read_results(results)
    table = rows(sorted(read.records, key=lambda r: r.id))
    if format == "parquet":
        if target is None:
            raise HunkmetricsError("--format parquet needs --out FILE (not standard output)")
        write_parquet(table, target)
    else:
        write_csv(table, target)
    return ExportSummary(
        rows=len(table),
        errors=sum(r["error"] is not None for r in table),
        warnings=read_warnings(read),
    )
