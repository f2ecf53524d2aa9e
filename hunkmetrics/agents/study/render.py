"""The study's tables as text: cells formatted for reading (`format_cell`), CSV (every
value at full precision) and markdown; and the whole summary as a JSON object."""

from __future__ import annotations

import io
import math
from typing import Any

from hunkmetrics.agents.study.summary import StudySummary
from hunkmetrics.agents.study.tables import Cell, TableRows
from hunkmetrics.bootstrap import LEVEL
from hunkmetrics.csvfiles import csv_writer, write_row

__all__ = [
    "compact",
    "format_cell",
    "readable",
    "summary_json",
    "table_csv",
    "table_markdown",
    "transpose",
]


def format_cell(value: Cell, percent: bool = False) -> str:
    """A cell for reading: empty for None, `yes`/`no`, integers as they are, shares as
    percentages with one decimal, numbers below 1 with three significant digits, other
    numbers with two decimals (thousands separated)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}" if not percent else f"{100 * value:.1f} %"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if percent:
            return f"{100 * value:.1f} %"
        if 0 < abs(value) < 1:
            return f"{value:.3g}"  # r, p-values, divergences: three significant digits
        return f"{value:,.2f}"
    return value


def compact(table: TableRows) -> TableRows:
    """The table for reading: each count with its rate and interval (`X, X_rate,
    X_ci_low, X_ci_high`) as one text column `X` (`238 · 64.0 % [59.4, 68.8]`), other
    cells formatted (`format_cell`)."""
    header = table.header
    index = {h: i for i, h in enumerate(header)}
    merged = {h for h in header if f"{h}_rate" in index}
    parts = {f"{h}{s}" for h in merged for s in ("_rate", "_ci_low", "_ci_high")}
    keep = [h for h in header if h not in parts]
    rows = []
    for row in table.rows:
        cells: list[Cell] = []
        for h in keep:
            value = row[index[h]]
            if h in merged:
                cells.append(
                    _rate_text(
                        value,
                        *(
                            row[index[p]] if p in index else None
                            for p in (f"{h}_rate", f"{h}_ci_low", f"{h}_ci_high")
                        ),
                    )
                )
            else:
                cells.append(format_cell(value, h in table.percent))
        rows.append(tuple(cells))
    return TableRows(table.name, table.title, tuple(keep), tuple(rows))


def transpose(table: TableRows, keys: int = 2) -> TableRows:
    """A wide table turned: one column per row (named by its first `keys` cells), one
    row per other column (Table 8's categories as rows, as the study prints it). Give it
    `compact` cells: shares are marked per column, and columns become rows here."""
    labels = tuple(" ".join(str(c) for c in row[:keys]) for row in table.rows)
    rows = tuple(
        (name, *(row[i] for row in table.rows)) for i, name in enumerate(table.header) if i >= keys
    )
    return TableRows(table.name, table.title, (" / ".join(table.header[:keys]), *labels), rows)


def _rate_text(count: Cell, rate: Cell, low: Cell, high: Cell) -> str:
    text = format_cell(count)
    if isinstance(rate, float):
        text += f" · {100 * rate:.1f} %"
    if isinstance(low, float) and isinstance(high, float):
        text += f" [{100 * low:.1f}, {100 * high:.1f}]"
    return text


def _plain(value: Cell) -> str | int | float:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def table_csv(table: TableRows) -> str:
    """The table as CSV: a header line, then the rows (None as an empty cell, shares as
    fractions at full precision)."""
    buffer = io.StringIO()
    writer = csv_writer(buffer)
    write_row(writer, table.header)
    for row in table.rows:
        write_row(writer, (_plain(c) for c in row))
    return buffer.getvalue()


WIDE = 12  # columns beyond which a table is shown turned (`transpose`)


def readable(table: TableRows) -> TableRows:
    """The table as shown to a reader: `compact` cells, turned when wider than `WIDE`."""
    shown = compact(table)
    return transpose(shown) if len(shown.header) > WIDE and len(shown.rows) > 0 else shown


def table_markdown(table: TableRows) -> str:
    """The table as a markdown section: its title as a heading, then a pipe table of
    its `readable` form."""
    table = readable(table)

    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    lines = [f"### {table.title}", ""]
    lines.append("| " + " | ".join(cell(h) for h in table.header) + " |")
    lines.append("|" + "|".join("---" for _ in table.header) + "|")
    for row in table.rows:
        cells = (format_cell(v, h in table.percent) for h, v in zip(table.header, row, strict=True))
        lines.append("| " + " | ".join(cell(c) for c in cells) + " |")
    return "\n".join(lines) + "\n"


def summary_json(summary: StudySummary, per_bug: bool = False) -> dict[str, Any]:
    """The summary as one JSON object: the settings, counts, warnings, and every table
    as a list of row objects (keys from its header, shares as fractions); the per-attempt
    table too with `per_bug`."""
    s = summary.settings
    return {
        "settings": {
            "top_k": s.top_k,
            "windows": list(s.windows),
            "bootstrap_resamples": s.resamples,
            "bootstrap_seed": s.seed,
            "confidence_level": LEVEL,
            "min_runtime_s": s.min_runtime_s,
        },
        "attempts": summary.attempts,
        "skipped_errors": summary.skipped,
        "agents": list(summary.groups),
        "warnings": list(summary.warnings),
        "tables": {
            t.name: {
                "title": t.title,
                "rows": [dict(zip(t.header, row, strict=True)) for row in t.rows],
            }
            for t in summary.tables(per_bug)
        },
    }
