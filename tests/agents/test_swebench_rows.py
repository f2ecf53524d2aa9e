"""SWE-bench-style row files: the first row (what tells predictions from a dataset) read
from the first line of a JSON Lines file, and every file read within the input cap.

The reference for `first_row` is `read_rows` itself, the whole file parsed."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hunkmetrics.agents.swebench.rows import first_row, read_rows
from hunkmetrics.errors import HunkmetricsError

ROW = st.fixed_dictionaries(
    {"instance_id": st.text(min_size=1, max_size=12), "model_patch": st.text(max_size=30)},
    optional={
        "model_name_or_path": st.text(max_size=8),
        "nested": st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
    },
)


@st.composite
def row_files(draw: st.DrawFn) -> str:
    """A file's text in each layout SWE-bench output comes in: JSON Lines (with blank
    lines, CRLF), a JSON list, an object keyed by instance id, compact or indented."""
    rows = draw(st.lists(ROW, min_size=1, max_size=5))
    layout = draw(st.sampled_from(["jsonl", "list", "keyed", "one object"]))
    indent = draw(st.sampled_from([None, 2]))
    if layout == "jsonl":
        end = draw(st.sampled_from(["\n", "\r\n"]))
        blank = draw(st.sampled_from(["", end]))
        return "".join(json.dumps(r, ensure_ascii=draw(st.booleans())) + end + blank for r in rows)
    if layout == "list":
        return json.dumps(rows, indent=indent)
    if layout == "keyed":
        return json.dumps({f"id-{k}": r for k, r in enumerate(rows)}, indent=indent)
    return json.dumps(rows[0], indent=indent)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=row_files())
def test_the_first_row_is_the_one_the_whole_file_gives(text: str, tmp_path: Path) -> None:
    path = tmp_path / "rows.json"
    path.write_text(text, encoding="utf-8", newline="")
    expected: Any = read_rows(path)[0].data
    assert first_row(path) == expected


def test_a_large_json_lines_file_is_told_by_its_first_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the input cap the whole file cannot be read, yet its first row is known:
    only the first line was read. The whole file is refused in one line."""
    path = tmp_path / "preds.jsonl"
    line = json.dumps({"instance_id": "a__b-1", "model_patch": "x" * 1000}) + "\n"
    path.write_text(line * 50, encoding="utf-8")
    monkeypatch.setenv("HUNKMETRICS_MAX_INPUT_BYTES", str(10 * len(line)))
    assert first_row(path) == {"instance_id": "a__b-1", "model_patch": "x" * 1000}
    with pytest.raises(HunkmetricsError) as refused:
        read_rows(path)
    assert str(refused.value).startswith(f"{path}: larger than {10 * len(line):,} bytes")


def test_a_broken_later_line_is_found_when_the_rows_are_read(tmp_path: Path) -> None:
    path = tmp_path / "preds.jsonl"
    path.write_text('{"instance_id": "a"}\n{"instance_id": \n', encoding="utf-8")
    assert first_row(path) == {"instance_id": "a"}  # what the file is meant to be
    with pytest.raises(HunkmetricsError, match=r"preds.jsonl:2: not a JSON line"):
        read_rows(path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "preds.jsonl"
    os.mkfifo(fifo)
    assert first_row(fifo) is None
    with pytest.raises(HunkmetricsError, match="a device, FIFO or socket, not a regular file"):
        read_rows(fifo)


def test_a_submission_folder_is_told_and_its_predictions_read_once_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Telling what a folder is reads its predictions and lists its folders; listing its
    runs did all of that again, twice (4 readings of the predictions, 3 listings)."""
    import shutil

    from hunkmetrics.agents.runs import read_runs
    from hunkmetrics.agents.swebench import layout, predictions, rows

    source = Path(__file__).resolve().parents[2] / "fixtures/harnesses/swebench/toy-model"
    folder = tmp_path / "toy-model"
    shutil.copytree(source, folder)
    readings: list[Path] = []
    listings: list[Path] = []
    read_rows_of = rows.read_rows
    find = layout.Submission.find.__func__  # type: ignore[attr-defined]

    def counted_read(path: Path) -> list[rows.Row]:
        readings.append(path)
        return read_rows_of(path)

    def counted_find(cls: type[layout.Submission], path: Path) -> layout.Submission | None:
        listings.append(path)
        return find(cls, path)  # type: ignore[no-any-return]

    monkeypatch.setattr(rows, "read_rows", counted_read)
    monkeypatch.setattr(predictions, "read_rows", counted_read)
    monkeypatch.setattr(layout.Submission, "find", classmethod(counted_find))
    runs = read_runs(folder)
    assert len(runs) == len(read_rows_of(folder / "all_preds.jsonl"))
    assert listings == [folder]
    # the first line tells a JSON Lines file; the rows are read once
    assert readings == [folder / "all_preds.jsonl"]
