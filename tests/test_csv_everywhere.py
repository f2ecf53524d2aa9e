"""One CSV rule for every CSV the project writes (issue 24): a bare carriage return or
newline inside a cell is quoted, so a standard reader never splits the row (and the next
cell cannot start a formula), and every text cell that starts like a formula is made
inert with a leading apostrophe."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from typer.testing import CliRunner

from hunkmetrics.cli.app import app
from hunkmetrics.csvfiles import csv_cell, csv_writer, write_row
from hunkmetrics.datasets.export import export
from hunkmetrics.report.agents_stats import csv_text

cli = CliRunner()
ROOT = Path(__file__).resolve().parents[1]
INJECTION = "note\r=cmd|'calc'!A0"  # a bare CR, then what would be the next cell


def rows_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def test_the_writer_quotes_cells_with_line_breaks() -> None:
    buffer = io.StringIO(newline="")
    writer = csv_writer(buffer)
    write_row(writer, ["a", INJECTION, "tail\nline", None, True, ["x", "y"], 3, -0.5])
    assert buffer.getvalue() == ('a,"note\r=cmd|\'calc\'!A0","tail\nline",,true,x;y,3,-0.5\r\n')
    assert rows_of(buffer.getvalue()) == [
        ["a", INJECTION, "tail\nline", "", "true", "x;y", "3", "-0.5"]
    ]


def test_cells_that_start_like_formulas() -> None:
    assert csv_cell("=1+1") == "'=1+1"
    assert csv_cell("@SUM(A1)") == "'@SUM(A1)"
    assert csv_cell("\r=x") == "'\r=x"
    assert csv_cell("-2+3") == "'-2+3"  # not a number: a formula
    assert csv_cell("-2.5e3") == "-2.5e3"  # a number stays a number
    assert csv_cell(["=a", "b"]) == "'=a;b"


def test_export_keeps_a_row_whole(tmp_path: Path) -> None:
    results = tmp_path / "r.jsonl"
    results.write_text(json.dumps({"id": "a", "error": INJECTION}) + "\n")
    out = tmp_path / "t.csv"
    export(results, out)
    header, row = rows_of(out.read_bytes().decode())
    assert row[header.index("error")] == INJECTION
    assert row[header.index("id")] == "a"


def test_hunks_csv_of_a_file_named_like_a_formula(tmp_path: Path) -> None:
    name = "=HYPERLINK(1).py"
    diff = tmp_path / "f.diff"
    diff.write_text(
        f"diff --git a/{name} b/{name}\n--- a/{name}\n+++ b/{name}\n@@ -1 +1 @@\n-a\n+b\n"
    )
    result = cli.invoke(app, ["hunks", str(diff), "--format", "csv"])
    assert result.exit_code == 0, result.output
    header, row = rows_of(result.stdout)
    assert row[header.index("file")] == "'=HYPERLINK(1).py"


def test_agents_actions_csv_of_a_formula_command(tmp_path: Path) -> None:
    session = (ROOT / "fixtures" / "agents" / "claude" / "session.jsonl").read_text()
    odd = tmp_path / "s.jsonl"
    odd.write_text(session.replace("defects4j compile", "=calc x"))
    result = cli.invoke(app, ["agents", "actions", str(odd), "--format", "csv"])
    assert result.exit_code == 0, result.output
    table = rows_of(result.stdout)
    column = table[0].index("command")
    assert "'=calc x 2>&1" in [row[column] for row in table[1:]]


def test_agents_summary_csv_of_an_agent_named_like_a_formula(tmp_path: Path) -> None:
    line = {
        "id": "=evil/X_1",
        "agent": "=evil",
        "bug": "X_1",
        "error": None,
        "repaired": True,
    }
    attempts = tmp_path / "a.jsonl"
    attempts.write_text(json.dumps(line) + "\n")
    result = cli.invoke(app, ["agents", "summary", str(attempts), "-f", "csv", "--table", "table2"])
    assert result.exit_code == 0, result.output
    header, row = rows_of(result.stdout)
    assert row[header.index("agent")] == "'=evil"


def test_report_download_tables() -> None:
    text = csv_text(["agent", "n"], [["+cmd", 3], [INJECTION, None]])
    assert rows_of(text) == [["agent", "n"], ["'+cmd", "3"], [INJECTION, ""]]
