"""Large documents stream: the CLI writes pairs straight from the result's arrays, and what
it writes parses to exactly the library's document."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import hunkmetrics
from hunkmetrics.cli.app import app
from hunkmetrics.metrics.divergence import PAIR_KEYS, PairRows

PATCHES = Path(__file__).resolve().parents[1] / "fixtures" / "patches"
runner = CliRunner()


@pytest.mark.parametrize(
    "stem", ["java_overloads", "java_hunk_spans_two_methods", "java_several_methods_one_file"]
)
@pytest.mark.parametrize("command", ["divergence", "characterize"])
def test_streamed_json_equals_the_library_document(stem: str, command: str) -> None:
    """java_hunk_spans_two_methods has one hunk: its pairs stream as an empty list."""
    patch = str(PATCHES / f"{stem}.diff")
    result = runner.invoke(app, [command, patch, "--pairs", "--format", "json"])
    assert result.exit_code == 0, result.output
    streamed = json.loads(result.stdout)
    library = (
        hunkmetrics.characterize(patch).to_dict()
        if command == "characterize"
        else {"divergence": hunkmetrics.divergence(patch).to_dict()}
    )
    assert streamed["divergence"] == library["divergence"]


def test_pair_rows_is_a_sequence_of_the_same_dicts() -> None:
    result = hunkmetrics.divergence(str(PATCHES / "java_packages_near.diff"))
    rows = PairRows(result)
    plain = result.to_dict()["pairs"]
    assert len(rows) == len(plain) == 3  # 3 hunks → 3 pairs
    assert list(rows) == plain
    assert rows[0] == plain[0] and rows[-1] == plain[-1]
    assert rows[1:] == plain[1:] and rows[::2] == plain[::2]
    with pytest.raises(IndexError):
        rows[3]
    chunks = "".join(rows.json_chunks())
    assert json.loads("[" + chunks + "]") == plain
    # Byte for byte what json.dumps writes, keys in the PAIR shape's order.
    assert chunks == ",\n".join(json.dumps(row) for row in plain)
    assert all(list(row) == list(PAIR_KEYS) for row in plain)


def test_streamed_csv_has_a_row_per_pair() -> None:
    result = runner.invoke(
        app, ["divergence", str(PATCHES / "java_packages_near.diff"), "--format", "csv"]
    )
    assert result.exit_code == 0
    lines = result.stdout.strip().splitlines()
    assert lines[0] == "i,j,lexical,structural,file,gamma,value"
    assert [line.split(",")[:2] for line in lines[1:]] == [["0", "1"], ["0", "2"], ["1", "2"]]
