"""Lines of a `batch` results file fit docs/schemas/record.v1.json; a bare characterize
document does not pass for a record, and a record does not pass for a document."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
from typer.testing import CliRunner

from hunkmetrics.cli.app import app
from hunkmetrics.schemas import schema

PATCHES = Path(__file__).resolve().parents[1] / "fixtures" / "patches"


def test_batch_lines_success_and_error_fit_the_record_schema(tmp_path: Path) -> None:
    folder = tmp_path / "patches"
    folder.mkdir()
    shutil.copy(PATCHES / "java_packages_near.diff", folder)
    (folder / "broken.diff").write_text("this is not a diff\n")
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(app, ["batch", str(folder), "--out", str(out)])
    assert result.exit_code == 0, result.output
    records = {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert set(records) == {"java_packages_near", "broken"}
    assert records["broken"]["error"] and records["java_packages_near"]["error"] is None

    record = jsonschema.Draft202012Validator(schema("record"))
    for line in records.values():
        assert list(record.iter_errors(line)) == []

    # The success line minus id/error is exactly a characterize document, and not more.
    document = jsonschema.Draft202012Validator(schema("characterize"))
    ok = dict(records["java_packages_near"])
    assert not document.is_valid(ok)
    del ok["id"], ok["error"]
    assert list(document.iter_errors(ok)) == []
    assert not record.is_valid(ok)  # no id: not a record
