"""Divergence pairs on request (issue 15): n hunks make n(n-1)/2 pairs, so a 1,000-hunk
diff embedded 499,500 of them in every characterize document and batch record. Without
`--pairs`, `divergence.pairs` is an empty list and the config says `pairs: false`."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import jsonschema
from typer.testing import CliRunner

from hunkmetrics.cli.app import app
from hunkmetrics.datasets.batch import Settings
from hunkmetrics.documents import omit_pairs
from hunkmetrics.schemas import schema

runner = CliRunner()


def _diff(hunks: int) -> str:
    """`hunks` one-line changes at lines 1, 3, 5, … of m.py, no context."""
    out = ["--- a/m.py\n", "+++ b/m.py\n"]
    for k in range(hunks):
        out.append(f"@@ -{2 * k + 1} +{2 * k + 1} @@\n-a{k} = 1\n+a{k} = 2\n")
    return "".join(out)


def _run(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def _patch(tmp_path: Path, hunks: int = 4) -> str:
    patch = tmp_path / "four.diff"
    patch.write_text(_diff(hunks))
    return str(patch)


def test_characterize_json_leaves_pairs_out_unless_asked(tmp_path: Path) -> None:
    patch = _patch(tmp_path)
    summary = json.loads(_run("characterize", patch, "--format", "json"))
    whole = json.loads(_run("characterize", patch, "--format", "json", "--pairs"))
    # Four hunks: 4·3/2 = 6 pairs when asked, none otherwise.
    assert summary["divergence"]["pairs"] == []
    assert len(whole["divergence"]["pairs"]) == 6
    assert summary["config"]["pairs"] is False
    assert "pairs" not in whole["config"]
    assert summary["config"]["fingerprint"] != whole["config"]["fingerprint"]
    # Everything else is the same document.
    assert summary["divergence"]["value"] == whole["divergence"]["value"]
    assert summary["divergence"]["means"] == whole["divergence"]["means"]
    assert summary["hunks"] == whole["hunks"]
    for document in (summary, whole):
        jsonschema.validate(document, schema("characterize"))


def test_divergence_json_and_csv(tmp_path: Path) -> None:
    patch = _patch(tmp_path)
    summary = json.loads(_run("divergence", patch, "--format", "json"))
    assert summary["divergence"]["pairs"] == []
    assert summary["config"]["pairs"] is False
    whole = json.loads(_run("divergence", patch, "--format", "json", "--pairs"))
    assert [(p["i"], p["j"]) for p in whole["divergence"]["pairs"]] == [
        (0, 1),
        (0, 2),
        (0, 3),
        (1, 2),
        (1, 3),
        (2, 3),
    ]
    for document in (summary, whole):
        jsonschema.validate(document, schema("divergence"))
    # CSV is the pairs: a header and six rows, with or without --pairs.
    assert len(_run("divergence", patch, "--format", "csv").splitlines()) == 7


def test_table_output_still_counts_the_pairs(tmp_path: Path) -> None:
    out = _run("divergence", _patch(tmp_path))
    assert "n = 4 hunks, 6 pairs" in out


def test_batch_records_leave_pairs_out_unless_asked(tmp_path: Path) -> None:
    data = tmp_path / "in"
    data.mkdir()
    (data / "four.diff").write_text(_diff(4))
    (data / "bad.diff").write_text("not a diff\n")
    lines = {}
    for name, extra in (("summary", []), ("whole", ["--pairs"])):
        out = tmp_path / f"{name}.jsonl"
        result = runner.invoke(app, ["batch", str(data), "-o", str(out), "--jobs", "1", *extra])
        assert result.exit_code == 0, result.output
        lines[name] = {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}
        for record in lines[name].values():
            jsonschema.validate(record, schema("record"))
    assert lines["summary"]["four"]["divergence"]["pairs"] == []
    assert lines["summary"]["four"]["config"]["pairs"] is False
    assert len(lines["whole"]["four"]["divergence"]["pairs"]) == 6
    assert "pairs" not in lines["whole"]["four"]["config"]
    # An error line carries the settings it was run with, pairs included.
    assert lines["summary"]["bad"]["config"]["pairs"] is False
    assert "pairs" not in lines["whole"]["bad"]["config"]
    assert Settings().pairs is False


def test_mine_records_leave_pairs_out_unless_asked(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-c", "user.name=T", "-c", "user.email=t@example.invalid"]
    git += ["-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"]
    old = "".join(f"a{k} = 1\nb{k} = 0\n" + "c = 0\n" * 6 for k in range(3))
    (repo / "m.py").write_text(old)
    for step in (["init", "-q"], ["add", "."], ["commit", "-qm", "start"]):
        subprocess.run([*git, *step], cwd=repo, check=True, capture_output=True)
    (repo / "m.py").write_text(old.replace(" = 1", " = 2"))
    subprocess.run([*git, "commit", "-qam", "fix it"], cwd=repo, check=True, capture_output=True)
    pairs = {}
    for name, extra in (("summary", []), ("whole", ["--pairs"])):
        out = tmp_path / f"{name}.jsonl"
        result = runner.invoke(app, ["mine", str(repo), "--out", str(out), *extra])
        assert result.exit_code == 0, result.output
        (record,) = map(json.loads, out.read_text().splitlines())
        # Lines 1, 9 and 17 change, eight lines apart: three hunks, three pairs.
        assert record["hunk_count"] == 3
        pairs[name] = record["divergence"]["pairs"]
        assert record["config"].get("pairs") is (False if name == "summary" else None)
    assert pairs["summary"] == []
    assert len(pairs["whole"]) == 3


def test_a_thousand_hunks_make_a_small_document(tmp_path: Path) -> None:
    patch = tmp_path / "many.diff"
    patch.write_text(_diff(1000))
    summary = _run("characterize", str(patch), "--format", "json")
    # 1,000 hunk records of well under 600 bytes each, no pair (there would be 499,500).
    assert len(summary) < 600_000
    assert json.loads(summary)["divergence"]["pairs"] == []


def test_omit_pairs_keeps_everything_else() -> None:
    document = {
        "schema": "hunkmetrics/divergence/v1",
        "config": {
            "profile": "default",
            "distributed_weight": 2.0,
            "hunking": "as-given",
            "reverse": False,
            "fingerprint": "x",
        },
        "divergence": {"value": 1.0, "pairs": [{"i": 0, "j": 1}]},
        "warnings": [],
    }
    omitted = omit_pairs(document)
    assert omitted["divergence"] == {"value": 1.0, "pairs": []}
    assert omitted["config"]["profile"] == "default"
    assert omitted["config"]["pairs"] is False
    assert list(omitted["config"]) == [
        "profile",
        "distributed_weight",
        "hunking",
        "reverse",
        "pairs",
        "fingerprint",
    ]
    assert document["divergence"]["pairs"] == [{"i": 0, "j": 1}]  # not changed in place
