"""`batch --published-artifacts` and the manifest's `published_artifacts` column: the
study's bug table is rebuilt in one batch run, each line the same as `characterize` gives
for that patch with the same artifacts (issue 24)."""

from __future__ import annotations

import difflib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hunkmetrics.cli.app import app

cli = CliRunner()


def _twelve_hunks() -> str:
    """One Java file whose 12 methods each change in their own hunk, each change shaped
    differently (so the structural distances S are not 0). With 12 hunks the study's
    HashMap key order loses the pairs (1, 11) … (10, 11): their S becomes 0."""
    old, new = ["package p;", "", "public class A {"], ["package p;", "", "public class A {"]
    for k in range(12):
        expr = "x"
        for j in range(k):
            expr = f"({expr} * {j + 2})"
        body = (
            f"        if (x > {k}) {{ return {expr}; }}"
            if k % 2
            else f"        for (int i = 0; i < {k}; i++) {{ x += i; }} return {expr};"
        )
        head = [f"    int m{k}(int x) {{"]
        old += [*head, "        return x;", "    }", *[""] * 8]
        new += [*head, body, "    }", *[""] * 8]
    old += ["}"]
    new += ["}"]
    diff = difflib.unified_diff(
        [f"{line}\n" for line in old],
        [f"{line}\n" for line in new],
        "a/src/p/A.java",
        "b/src/p/A.java",
    )
    return "".join(diff)


@pytest.fixture
def patches(tmp_path: Path) -> Path:
    folder = tmp_path / "patches"
    folder.mkdir()
    (folder / "twelve.diff").write_text(_twelve_hunks())
    return folder


def _document(*args: str) -> dict:
    result = cli.invoke(app, ["characterize", *args, "--profile", "birch", "-f", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _lines(out: Path) -> dict[str, dict]:
    return {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}


def test_batch_gives_the_artifact_values_of_characterize(patches: Path, tmp_path: Path) -> None:
    out = tmp_path / "bugs.jsonl"
    args = ["batch", str(patches), "--profile", "birch", "--out", str(out)]
    result = cli.invoke(app, [*args, "--published-artifacts", "key-order"])
    assert result.exit_code == 0, result.output
    (line,) = _lines(out).values()
    patch = str(patches / "twelve.diff")
    with_artifact = _document(patch, "--published-artifacts", "key-order")
    intended = _document(patch)
    assert line["config"]["published_artifacts"] == ["key-order"]
    assert line["hunk_count"] == 12
    assert line["divergence"]["value"] == with_artifact["divergence"]["value"]
    # The artifact changes the number: the 10 pairs (i, 11) lose their S.
    assert line["divergence"]["value"] < intended["divergence"]["value"]


def test_a_manifest_row_names_its_own_artifacts(patches: Path, tmp_path: Path) -> None:
    manifest = tmp_path / "bugs.csv"
    patch = patches / "twelve.diff"
    manifest.write_text(
        f"id,patch,published_artifacts\nplain,{patch},\nstudy,{patch},key-order;lexical-hunks\n"
    )
    out = tmp_path / "bugs.jsonl"
    result = cli.invoke(app, ["batch", str(manifest), "--profile", "birch", "--out", str(out)])
    assert result.exit_code == 0, result.output
    lines = _lines(out)
    assert "published_artifacts" not in lines["plain"]["config"]
    assert lines["study"]["config"]["published_artifacts"] == ["key-order", "lexical-hunks"]
    both = _document(str(patch), "--published-artifacts", "key-order",
                     "--published-artifacts", "lexical-hunks")  # fmt: skip
    assert lines["study"]["divergence"]["value"] == both["divergence"]["value"]
    assert lines["plain"]["divergence"]["value"] == _document(str(patch))["divergence"]["value"]


def test_artifacts_need_the_birch_profile(patches: Path, tmp_path: Path) -> None:
    out = tmp_path / "bugs.jsonl"
    result = cli.invoke(
        app, ["batch", str(patches), "--out", str(out), "--published-artifacts", "key-order"]
    )
    assert result.exit_code == 2
    assert "use --profile birch" in result.output
    manifest = tmp_path / "bad.csv"
    manifest.write_text(f"id,patch,published_artifacts\nx,{patches / 'twelve.diff'},key-oder\n")
    result = cli.invoke(app, ["batch", str(manifest), "--profile", "birch", "--out", str(out)])
    assert result.exit_code == 2
    assert "unknown published artifact(s) key-oder" in result.output
