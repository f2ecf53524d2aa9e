"""The command line: documents, exit codes, one-line errors."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hunkmetrics.cli.app import app

DIFF = b"""diff --git a/src/main/java/com/acme/Foo.java b/src/main/java/com/acme/Foo.java
index 1111111..2222222 100644
--- a/src/main/java/com/acme/Foo.java
+++ b/src/main/java/com/acme/Foo.java
@@ -3,7 +3,7 @@ public class Foo {
     private int count;
 
     public int bump(int by) {
-        count += by;
+        count += 2 * by;
         return count;
     }
 
@@ -20,6 +20,7 @@ public class Foo {
     }
 
     public void reset() {
+        log("reset");
         count = 0;
     }
 }
"""

runner = CliRunner()


def invoke(*args: str, input: bytes | None = None):
    return runner.invoke(app, list(args), input=input)


def test_json_document_from_stdin() -> None:
    result = invoke("hunks", "-", "--format", "json", input=DIFF)
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["schema"] == "hunkmetrics/hunks/v1"
    assert document["tool"]["name"] == "hunkmetrics"
    first, second = document["hunks"]
    required = {
        "index",
        "file",
        "old_start",
        "old_lines",
        "new_start",
        "new_lines",
        "added",
        "removed",
        "language",
        "package",
        "class",
        "method",
        "located_by",
    }
    assert required <= set(first)
    assert (first["index"], first["old_start"], first["added"], first["removed"]) == (0, 3, 1, 1)
    # Diff alone: the method declaration is visible in the hunk's context.
    assert first["package"] == "com.acme"
    assert first["class"] == "com.acme.Foo"
    assert first["method"] == "com.acme.Foo.bump(int)"
    assert first["located_by"] == "diff" and first["placed"] is True
    assert second["method"] == "com.acme.Foo.reset()"
    assert second["changed_lines"] == [22]


def test_csv_has_a_header_and_a_row_per_hunk() -> None:
    result = invoke("hunks", "-", "--format", "csv", input=DIFF)
    assert result.exit_code == 0
    lines = result.stdout.strip().splitlines()
    assert lines[0].startswith("index,file,old_start")
    assert len(lines) == 3


def test_table_names_the_methods() -> None:
    result = invoke("hunks", "-", input=DIFF)
    assert result.exit_code == 0
    assert "bump(int)" in result.stdout and "reset()" in result.stdout


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["hunks", "/nonexistent/x.diff"], None, "no such file"),
        (["hunks", "-"], b"", "empty diff"),
        (["hunks", "-"], b"not a diff at all\n", "no file changes found"),
        (["hunks", "-", "--repo", "/nonexistent-dir"], DIFF, "no such"),
        (["hunks", "-", "--repo", ".", "--rev", "no-such-revision-xyz"], DIFF, "does not exist"),
        # a directory of the source tree, and no tree: it was ignored in silence
        *(
            ([command, "-", "--path-prefix", "src"], DIFF, "--path-prefix is a directory inside")
            for command in ("hunks", "divergence", "proximity", "characterize")
        ),
        (
            ["localization", "--reference", "-", "--candidate", "-", "--path-prefix", "src"],
            DIFF,
            "give --repo (or --rev) too",
        ),
    ],
)
def test_bad_input_exits_2_with_one_line(args, stdin, message) -> None:
    result = invoke(*args, input=stdin)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_usage_error_exits_2() -> None:
    result = invoke("hunks", "-", "--hunks", "sideways", input=DIFF)
    assert result.exit_code == 2


def test_internal_error_exits_1_with_hint(monkeypatch) -> None:
    import hunkmetrics.documents.streamed as streamed

    def broken(*_a, **_k):
        raise RuntimeError("boom")

    # `hunks` without sources makes its document as a stream
    monkeypatch.setattr(streamed, "streamed_hunks_document", broken)
    result = invoke("hunks", "-", input=DIFF)
    assert result.exit_code == 1
    assert "internal error: RuntimeError: boom" in result.stderr
    assert "--debug" in result.stderr
    debug = invoke("--debug", "hunks", "-", input=DIFF)
    assert isinstance(debug.exception, RuntimeError)


def test_help_documents_exit_codes() -> None:
    result = invoke("--help")
    assert result.exit_code == 0
    assert "Exit codes" in result.stdout


def test_console_script_runs(tmp_path: Path) -> None:
    patch = tmp_path / "p.diff"
    patch.write_bytes(DIFF)
    done = subprocess.run(
        [sys.executable, "-m", "hunkmetrics", "hunks", str(patch), "--format", "json"],
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hunks"][0]["method"] == "com.acme.Foo.bump(int)"


def test_library_imports_without_cli_dependencies() -> None:
    code = (
        "import sys; sys.modules['typer'] = None; sys.modules['rich'] = None\n"
        "import hunkmetrics\n"
        "from hunkmetrics import parse_patch, open_workspace\n"
        "print('ok')"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "ok", done.stderr


def test_readme_main_command_runs() -> None:
    """The README's first command (after `pip install … &&`) works on the bundled
    fixture and prints the divergence and its pairs."""
    import shlex

    root = Path(__file__).resolve().parents[1]
    line = next(
        ln.strip()
        for ln in (root / "README.md").read_text().splitlines()
        if ln.strip().startswith("pip install") and "&& hunkmetrics " in ln
    )
    args = shlex.split(line.split("&& hunkmetrics ", 1)[1])
    args = [str(root / a) if (root / a).exists() else a for a in args]
    result = runner.invoke(app, [*args, "--format", "json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    # Three hunks in three files of three packages: 3 pairs, all with g = 2; each
    # printed d must be L·(S + g·F)/(1 + g) and Div(P) = ln 3 · mean(d).
    pairs = document["divergence"]["pairs"]
    assert [(p["i"], p["j"], p["gamma"]) for p in pairs] == [(0, 1, 2), (0, 2, 2), (1, 2, 2)]
    for p in pairs:
        expected = p["lexical"] * (p["structural"] + 2 * p["file"]) / 3
        assert p["value"] == pytest.approx(expected, abs=1e-12)
    mean = sum(p["value"] for p in pairs) / 3
    assert document["divergence"]["value"] == pytest.approx(math.log(3) * mean, abs=1e-12)
    # The file term by hand (docs/metrics.md): src/main/java/com/acme/core/Inventory.java
    # (7 segments) vs src/main/java/com/acme/core/util/Strings.java (8): m = 8, the first
    # 6 segments equal → c = 5, F = 1 - 5/8.
    assert pairs[0]["file"] == pytest.approx(1 - 5 / 8)


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (["batch", "{patches}", "--out", "-"], "'-' is no file: this output is resumed from"),
        (["mine", "{repo}", "--out", "-"], "'-' is no file: this output is resumed from"),
        (["report", "{results}", "--out", "-"], "'-' is no file: name the file to write"),
    ],
)
def test_an_output_that_must_be_a_file_refuses_dash(
    args: list[str], why: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--out -` made a file named `-` in the working directory (and mine and batch then
    refused the next run: "- exists")."""
    patches = tmp_path / "patches"
    patches.mkdir()
    (patches / "a.diff").write_bytes(DIFF)
    results = tmp_path / "results.jsonl"
    results.write_text("")
    monkeypatch.chdir(tmp_path)
    filled = [
        a.format(patches=patches, repo=Path(__file__).resolve().parents[1], results=results)
        for a in args
    ]
    result = invoke(*filled)
    assert result.exit_code == 2, result.output
    assert why in " ".join(result.output.replace("│", " ").split())  # out of its box
    assert not (tmp_path / "-").exists()


def test_agents_evaluate_writes_dash_to_standard_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    log = Path(__file__).resolve().parents[1] / "fixtures/harnesses/inspect/toy.json"
    result = invoke("agents", "evaluate", str(log), "--out", "-")
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 2 and all(r["schema"] == "hunkmetrics/attempt/v1" for r in lines)
    assert not (tmp_path / "-").exists()
