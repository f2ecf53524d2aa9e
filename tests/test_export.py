"""`hunkmetrics export`: a batch's JSON Lines as one flat table, sorted by id."""

from __future__ import annotations

import csv
import io
import json
import os
import sys
from pathlib import Path

import pytest
from gitrepo import PATCHES, build_fixture_repo
from typer.testing import CliRunner

from hunkmetrics.cli.app import app
from hunkmetrics.datasets.batch import run_batch
from hunkmetrics.datasets.export import COLUMN_NAMES
from hunkmetrics.datasets.inputs import Defaults
from hunkmetrics.datasets.records import parse_result

cli = CliRunner()
EXPECTED_COLUMNS = [
    "id",
    "error",
    "patch",
    "repository",
    "commit",
    "parent",
    "date",
    "author",
    "summary",
    "hunk_count",
    "divergence",
    "lexical_mean",
    "structural_mean",
    "file_mean",
    "proximity",
    "files",
    "packages",
    "classes",
    "methods",
    "shared_package_depth",
    "located_by",
    "evidence",
    "unplaced_hunks",
    "excluded_hunks",
    "source",
    "source_side",
    "warnings",
    "warning_text",
    "profile",
    "cutoff",
    "distributed_weight",
    "hunking",
    "reverse",
    "tool_version",
    "config_fingerprint",
]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A batch over fixture patches; the manifest lists ids against their sort order."""
    root = tmp_path_factory.mktemp("export")
    repo = build_fixture_repo(root, "java-project")
    (root / "empty.diff").write_bytes(b"")
    manifest = root / "manifest.csv"
    manifest.write_text(
        "id,patch\n"
        f"zeta-near,{PATCHES / 'java_packages_near.diff'}\n"
        f"mid-one-method,{PATCHES / 'java_two_hunks_one_method.diff'}\n"
        f"beta-package,{PATCHES / 'java_several_files_one_package.diff'}\n"
        "alpha-empty,empty.diff\n",
        encoding="utf-8",
    )
    out = root / "results.jsonl"
    run_batch(
        manifest,
        out,
        defaults=Defaults(repo=repo.path, rev="base"),
        executor="local",
        jobs=2,
        chunk_size=1,
    )
    return out


def jsonl(path: Path) -> dict[str, dict]:
    return {r["id"]: r for r in map(json.loads, path.read_bytes().splitlines())}


def export(*args: str):
    return cli.invoke(app, ["export", *args])


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_csv_columns_and_values_by_hand(results, tmp_path) -> None:
    out = tmp_path / "table.csv"
    result = export(str(results), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "export: 4 rows (1 with an error)" in result.stderr
    with out.open(newline="", encoding="utf-8") as handle:
        header = next(csv.reader(handle))
    assert header == EXPECTED_COLUMNS == COLUMN_NAMES
    rows = read_csv(out)
    assert [r["id"] for r in rows] == [
        "alpha-empty",
        "beta-package",
        "mid-one-method",
        "zeta-near",
    ]  # by id, not by input or finish order
    by_id = {r["id"]: r for r in rows}
    records = jsonl(results)

    near = by_id["zeta-near"]  # three files in three packages under com.acme
    assert near["error"] == ""
    assert near["patch"] == str(PATCHES / "java_packages_near.diff")
    assert (
        near["hunk_count"],
        near["proximity"],
        near["files"],
        near["packages"],
        near["classes"],
        near["methods"],
    ) == ("3", "Sprawl", "3", "3", "3", "3")
    assert float(near["divergence"]) == pytest.approx(0.5395219469117433, abs=1e-12)
    assert float(near["lexical_mean"]) == pytest.approx(0.8869895536562203, abs=1e-12)
    assert float(near["structural_mean"]) == pytest.approx(0.7966269841269842, abs=1e-12)
    assert float(near["file_mean"]) == pytest.approx(0.43452380952380953, abs=1e-12)
    assert (
        near["located_by"],
        near["source_side"],
        near["profile"],
        near["cutoff"],
        near["reverse"],
        near["hunking"],
    ) == ("source", "pre", "default", "3", "false", "as-given")
    assert near["unplaced_hunks"] == near["excluded_hunks"] == near["warnings"] == "0"
    assert near["evidence"] == "seen/seen/seen"  # located with the sources: nothing guessed
    assert by_id["alpha-empty"]["evidence"] == ""  # an error row has no hunks
    doc = records["zeta-near"]
    assert near["divergence"] == repr(doc["divergence"]["value"])  # full precision
    assert near["config_fingerprint"] == doc["config"]["fingerprint"]
    assert near["source"] == doc["source"]["description"]
    assert near["tool_version"] == doc["tool"]["version"]

    one = by_id["mid-one-method"]  # two hunks in one method
    assert (one["hunk_count"], one["proximity"], one["files"], one["methods"]) == (
        "2",
        "Nucleus",
        "1",
        "1",
    )
    assert float(one["divergence"]) == pytest.approx(0.42679895840033666, abs=1e-12)
    assert float(one["file_mean"]) == 0.0
    package = by_id["beta-package"]
    assert (package["proximity"], package["files"], package["packages"], package["classes"]) == (
        "Orbit",
        "3",
        "1",
        "4",
    )

    empty = by_id["alpha-empty"]
    assert empty["error"].endswith("empty.diff: empty diff")
    assert empty["error"] == records["alpha-empty"]["error"]
    for column in ("hunk_count", "divergence", "proximity", "files", "source"):
        assert empty[column] == ""
    assert empty["config_fingerprint"] == records["alpha-empty"]["config"]["fingerprint"]


def test_parquet_round_trip(results, tmp_path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "table.parquet"
    result = export(str(results), "--format", "parquet", "--out", str(out))
    assert result.exit_code == 0, result.output
    table = pq.read_table(out)
    assert table.column_names == EXPECTED_COLUMNS
    assert str(table.schema.field("hunk_count").type) == "int64"
    assert str(table.schema.field("divergence").type) == "double"
    assert str(table.schema.field("reverse").type) == "bool"
    rows = table.to_pylist()
    assert [r["id"] for r in rows] == ["alpha-empty", "beta-package", "mid-one-method", "zeta-near"]
    records = jsonl(results)
    for row in rows:
        doc = records[row["id"]]
        assert row["error"] == doc["error"]
        if doc["error"] is None:
            assert row["divergence"] == doc["divergence"]["value"]  # exactly
            assert row["hunk_count"] == doc["hunk_count"]
            assert row["proximity"] == doc["proximity"]["class"]
            assert row["methods"] == doc["proximity"]["methods"]
        else:
            assert row["divergence"] is None and row["hunk_count"] is None
    # Parquet and CSV hold the same table.
    csv_out = tmp_path / "table.csv"
    assert export(str(results), "--out", str(csv_out)).exit_code == 0
    for row, text in zip(rows, read_csv(csv_out), strict=True):
        assert {
            k: ""
            if v is None
            else str(v).lower()
            if isinstance(v, bool)
            else repr(v)
            if isinstance(v, float)
            else str(v)
            for k, v in row.items()
        } == text


def test_format_from_the_extension_and_csv_to_stdout(results, tmp_path) -> None:
    pytest.importorskip("pyarrow")
    out = tmp_path / "t.parquet"
    assert export(str(results), "--out", str(out)).exit_code == 0
    assert out.read_bytes()[:4] == b"PAR1"
    result = export(str(results), "--out", "-")
    assert result.exit_code == 0
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == 4 and rows[0]["id"] == "alpha-empty"


def test_torn_and_invalid_lines_are_skipped_with_a_warning(results, tmp_path) -> None:
    damaged = tmp_path / "damaged.jsonl"
    lines = results.read_bytes().splitlines(keepends=True)
    damaged.write_bytes(
        lines[0] + b"not json\n" + b'["a list"]\n' + b"".join(lines[1:3]) + b"\n" + lines[3][:40]
    )  # a blank line, then a torn last line
    out = tmp_path / "t.csv"
    result = export(str(damaged), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "skipped 3 torn or invalid line(s)" in result.stderr
    ids = {json.loads(line)["id"] for line in lines[:3]}
    assert {r["id"] for r in read_csv(out)} == ids


def test_duplicate_ids_keep_the_last_line(results, tmp_path) -> None:
    doubled = tmp_path / "doubled.jsonl"
    first = json.loads(results.read_bytes().splitlines()[0])
    changed = {**first, "error": "a later run"}
    doubled.write_bytes(results.read_bytes() + (json.dumps(changed) + "\n").encode())
    out = tmp_path / "t.csv"
    result = export(str(doubled), "--out", str(out))
    assert result.exit_code == 0
    assert "1 id(s) appear more than once" in result.stderr
    rows = {r["id"]: r for r in read_csv(out)}
    assert len(rows) == 4 and rows[first["id"]]["error"] == "a later run"


def test_export_errors_exit_2(results, tmp_path, monkeypatch) -> None:
    missing = export(str(tmp_path / "nope.jsonl"), "--out", str(tmp_path / "t.csv"))
    assert missing.exit_code == 2 and "no such file" in missing.stderr
    same = export(str(results), "--out", str(results))
    assert same.exit_code == 2 and "would overwrite" in same.stderr
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as if pyarrow were not installed
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    no_arrow = export(str(results), "--format", "parquet", "--out", str(tmp_path / "t.pq"))
    assert no_arrow.exit_code == 2
    assert "pip install 'hunkmetrics[parquet]'" in no_arrow.stderr
    assert len(no_arrow.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "t.pq").exists()


# --------------------------------------------------------------------------- the typed reader


def test_read_results_types_every_field_export_and_report_use(tmp_path: Path) -> None:
    from hunkmetrics.datasets.records import CommitMeta, read_results

    good = {
        "id": "c0ffee",
        "commit": "c0ffee",
        "parent": "beef",
        "summary": "Fix the frobnicator",
        "date": "2024-01-09T12:00:00+00:00",
        "author": "Ada",
        "error": None,
        "patch": "p.diff",
        "profile": "birch",
        "hunk_count": 3,
        "divergence": {
            "value": 0.5,
            "means": {"lexical": 0.25, "structural": 1, "file": None},
            "excluded_hunks": [4, 5],
        },
        "proximity": {
            "class": "Orbit",
            "files": 2,
            "packages": 1,
            "classes": 2,
            "methods": 3,
            "shared_package_depth": 4,
            "located_by": "tree-sitter",
            "unplaced_hunks": [],
        },
        "source": {"description": "git revision beef", "side": "pre"},
        "warnings": ["w1", "w2", "w3"],
        "config": {"profile": "birch", "cutoff": 3, "distributed_weight": 2, "fingerprint": "f"},
        "tool": {"version": "9.9"},
    }
    odd = {
        "id": 7,  # ids are read as text
        "error": 5,  # a non-string error is still an error, given as its text
        "hunk_count": True,  # a bool is not a count
        "divergence": {"value": "0.5"},  # nor is a string a number
        "proximity": "Orbit",  # not an object: nothing in it
        "config": {"reverse": "yes", "hunking": "as-given"},
    }
    lines = [json.dumps(good), json.dumps(odd), '{"id": "torn"']
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(lines) + "\n")
    read = read_results(path)
    assert read.unreadable == (3,) and read.duplicates == 0
    first, second = read.records
    assert first.ok and first.id == "c0ffee" and first.patch == "p.diff"
    assert first.profile == "birch" and first.hunk_count == 3
    assert first.divergence.value == 0.5 and first.divergence.lexical == 0.25
    assert first.divergence.structural == 1.0 and isinstance(first.divergence.structural, float)
    assert first.divergence.file is None and first.divergence.excluded_hunks == 2
    assert first.proximity.label == "Orbit" and first.proximity.files == 2
    assert (first.proximity.packages, first.proximity.classes, first.proximity.methods) == (1, 2, 3)
    assert first.proximity.shared_package_depth == 4 and first.proximity.unplaced_hunks == 0
    assert first.proximity.located_by == "tree-sitter"
    assert (first.source, first.source_side, first.warnings) == ("git revision beef", "pre", 3)
    assert first.config.profile == "birch" and first.config.cutoff == 3
    assert first.config.distributed_weight == 2.0 and first.config.fingerprint == "f"
    assert dict(first.config.settings) == {"profile": "birch", "cutoff": 3, "distributed_weight": 2}
    assert first.tool_version == "9.9"
    assert first.commit == CommitMeta(
        "c0ffee", "beef", "Fix the frobnicator", "2024-01-09T12:00:00+00:00", "Ada"
    )
    assert second.id == "7" and second.error == "5" and not second.ok
    assert second.hunk_count is None and second.divergence.value is None
    assert second.proximity.label is None and second.commit is None
    assert second.config.reverse is None and second.config.hunking == "as-given"


def test_mine_commit_columns_and_warnings_as_text(tmp_path: Path) -> None:
    mined = {
        "id": "commons-lang@c0ffee",
        "repository": "commons-lang",
        "commit": "c0ffee",
        "parent": "beef",
        "summary": "Fix the frobnicator",
        "date": "2024-01-09T12:00:00+00:00",
        "author": "Ada",
        "error": None,
        "warnings": ["hunk 2: no source", "=file moved"],
    }
    batch = {"id": "b", "error": None, "warnings": []}  # a batch record: no commit
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(batch) + "\n" + json.dumps(mined) + "\n")
    out = tmp_path / "t.csv"
    result = cli.invoke(app, ["export", str(path), "--out", str(out)])
    assert result.exit_code == 0, result.output
    b, c = list(csv.DictReader(out.open(newline="", encoding="utf-8")))
    assert (c["repository"], c["commit"], c["parent"], c["date"], c["author"]) == (
        "commons-lang",
        "c0ffee",
        "beef",
        "2024-01-09T12:00:00+00:00",
        "Ada",
    )
    assert (c["commit"], c["parent"], c["date"], c["author"], c["summary"]) == (
        "c0ffee",
        "beef",
        "2024-01-09T12:00:00+00:00",
        "Ada",
        "Fix the frobnicator",
    )
    # joined by " | "; the cell starts with "h", so no apostrophe although a warning has "="
    assert c["warning_text"] == "hunk 2: no source | =file moved"
    assert c["warnings"] == "2"
    assert (b["commit"], b["parent"], b["date"], b["author"], b["summary"]) == ("",) * 5
    assert (b["warnings"], b["warning_text"]) == ("0", "")


def test_a_non_string_error_is_an_error_row(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text('{"id": "a", "error": 5}\n{"id": "b", "error": null}\n')
    out = tmp_path / "t.csv"
    result = cli.invoke(app, ["export", str(path), "--out", str(out)])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(out.open()))
    assert [(r["id"], r["error"]) for r in rows] == [("a", "5"), ("b", "")]
    assert "(1 with an error)" in result.stderr


def test_evidence_is_the_least_certain_basis_of_each_level() -> None:
    """Hunks seen/seen/seen, inferred/seen/unknown and seen/inferred/seen: the package is
    at best inferred somewhere, the class too, the method unknown somewhere. Items that
    are no evidence string are passed over; no hunk list, no evidence."""
    hunks = [
        {"evidence": "seen/seen/seen"},
        {"evidence": "inferred/seen/unknown"},
        {"evidence": "seen/inferred/seen"},
        {"evidence": "seen/seen"},
        {"evidence": 3},
        "seen/seen/seen",
    ]
    assert parse_result({"id": "a", "hunks": hunks}).evidence == "inferred/inferred/unknown"
    assert parse_result({"id": "b", "hunks": [{"evidence": "seen/seen/seen"}]}).evidence == (
        "seen/seen/seen"
    )
    assert parse_result({"id": "c"}).evidence is None
    assert parse_result({"id": "d", "hunks": [{"evidence": "maybe/seen/seen"}]}).evidence is None


@pytest.mark.skipif(sys.platform != "linux", reason="a file name of bytes that are not UTF-8")
def test_an_id_from_a_file_name_that_is_not_utf8_exports_to_both_formats(tmp_path) -> None:
    """A patch file named with the byte 0xFF: its id holds the lone surrogate \\udcff
    (Python's surrogateescape). Parquet's UTF-8 cannot hold it (an internal error
    before); both formats now write the escape CSV always wrote: `bad\\udcff`."""
    pq = pytest.importorskip("pyarrow.parquet")
    patches = tmp_path / "patches"
    patches.mkdir()
    (patches / "good.diff").write_bytes((PATCHES / "java_pure_addition.diff").read_bytes())
    bad = patches / os.fsdecode(b"bad\xff.diff")
    bad.write_bytes((PATCHES / "java_pure_addition.diff").read_bytes())
    results = tmp_path / "results.jsonl"
    run_batch(patches, results)
    ids = {json.loads(line)["id"] for line in results.read_text(encoding="utf-8").splitlines()}
    assert ids == {"good", "bad\udcff"}
    for name in ("t.csv", "t.parquet"):
        done = CliRunner().invoke(app, ["export", str(results), "--out", str(tmp_path / name)])
        assert done.exit_code == 0, done.output
    with open(tmp_path / "t.csv", encoding="utf-8", newline="") as handle:
        from_csv = sorted(row["id"] for row in csv.DictReader(handle))
    from_parquet = sorted(pq.read_table(tmp_path / "t.parquet").column("id").to_pylist())
    assert from_csv == from_parquet == ["bad\\udcff", "good"]
