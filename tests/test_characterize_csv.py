"""`characterize --format csv`: one row per hunk, the patch's numbers on each row."""

from __future__ import annotations

import csv
import io

from typer.testing import CliRunner

from hunkmetrics.cli.app import app

# Two one-line changes in one method of one file, and a Javadoc-only change.
DIFF = b"""\
diff --git a/src/main/java/org/ex/A.java b/src/main/java/org/ex/A.java
--- a/src/main/java/org/ex/A.java
+++ b/src/main/java/org/ex/A.java
@@ -3,3 +3,3 @@ class A {
     void m() {
-        a();
+        b();
     }
@@ -20,3 +20,3 @@ class A {
     /**
-     * Old words.
+     * New words.
      */
"""


def test_one_row_per_hunk_with_the_patch_numbers() -> None:
    result = CliRunner().invoke(app, ["characterize", "-", "--format", "csv"], input=DIFF)
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [row["index"] for row in rows] == ["0", "1"]
    assert {row["file"] for row in rows} == {"src/main/java/org/ex/A.java"}
    assert [row["kind"] for row in rows] == ["code", "comment"]
    assert [(row["old_start"], row["added"], row["removed"]) for row in rows] == [
        ("3", "1", "1"),
        ("20", "1", "1"),
    ]
    # The patch's own cells repeat on every row.
    assert {(row["patch"], row["profile"]) for row in rows} == {("<stdin>", "default")}
    assert len({(row["divergence"], row["proximity"]) for row in rows}) == 1


def test_without_the_comment_hunk_one_hunk_has_no_divergence_and_no_class() -> None:
    args = ["characterize", "-", "--format", "csv", "--ignore-comment-only"]
    result = CliRunner().invoke(app, args, input=DIFF)
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    # One hunk counted: fewer than two hunks give Div = 0 and no proximity class
    # (docs/metrics.md); the dropped hunk is no row of the metrics' table.
    assert [(row["index"], row["kind"]) for row in rows] == [("0", "code")]
    assert (float(rows[0]["divergence"]), rows[0]["proximity"]) == (0.0, "")


def test_hunks_say_how_each_level_was_found() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["hunks", "-", "--format", "csv"], input=DIFF)
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    # Hunk 0 from the diff alone: the package only from the path (inferred), the class
    # from the `@@ … @@ class A {` heading and the method from its own `void m() {` line
    # (both seen). Hunk 1 sits in a Javadoc whose member the diff does not show.
    assert rows[0]["evidence"] == "inferred/seen/seen"
    assert rows[1]["evidence"].endswith("/unknown")
    table = runner.invoke(app, ["hunks", "-"], input=DIFF, env={"COLUMNS": "200"}).stdout
    assert "~org.ex " in table  # the inferred package, marked
    assert "~ inferred: a guess from the diff alone" in table
