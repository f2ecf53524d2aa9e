"""The tables as text: cells, compact rate cells, turned tables, CSV and markdown."""

from __future__ import annotations

from hunkmetrics.agents.study.render import (
    compact,
    format_cell,
    readable,
    table_csv,
    table_markdown,
    transpose,
)
from hunkmetrics.agents.study.tables import TableRows

TABLE = TableRows(
    "t",
    "A table",
    ("agent", "ls", "ls_rate", "ls_ci_low", "ls_ci_high", "mean", "share"),
    (("a|b", 3, 0.75, 0.5, 1.0, 1234.5, 0.25), ("c", 0, None, None, None, None, None)),
    frozenset({"ls_rate", "ls_ci_low", "ls_ci_high", "share"}),
)


def test_format_cell() -> None:
    assert format_cell(None) == ""
    assert (format_cell(True), format_cell(False)) == ("yes", "no")
    assert format_cell(12345) == "12,345"
    assert format_cell(0.221, percent=True) == "22.1 %"
    assert format_cell(2.4731) == "2.47"
    assert format_cell(0.04494) == "0.0449"
    assert format_cell(-1919.3) == "-1,919.30"
    assert format_cell("x") == "x"


def test_compact_merges_count_rate_and_interval() -> None:
    c = compact(TABLE)
    assert c.header == ("agent", "ls", "mean", "share")
    assert c.rows[0] == ("a|b", "3 · 75.0 % [50.0, 100.0]", "1,234.50", "25.0 %")
    assert c.rows[1] == ("c", "0", "", "")


def test_transpose() -> None:
    t = transpose(compact(TABLE), keys=1)
    assert t.header == ("agent", "a|b", "c")
    assert t.rows[0] == ("ls", "3 · 75.0 % [50.0, 100.0]", "0")
    assert t.rows[2] == ("share", "25.0 %", "")
    assert readable(TABLE).header == ("agent", "ls", "mean", "share")  # narrow: not turned


def test_csv_keeps_full_precision() -> None:
    lines = table_csv(TABLE).splitlines()
    assert lines[0] == "agent,ls,ls_rate,ls_ci_low,ls_ci_high,mean,share"
    assert lines[1] == "a|b,3,0.75,0.5,1.0,1234.5,0.25"
    assert lines[2] == "c,0,,,,,"


def test_markdown_escapes_pipes() -> None:
    md = table_markdown(TABLE).splitlines()
    assert md[0] == "### A table"
    assert md[2] == "| agent | ls | mean | share |"
    assert md[4] == "| a\\|b | 3 · 75.0 % [50.0, 100.0] | 1,234.50 | 25.0 % |"
