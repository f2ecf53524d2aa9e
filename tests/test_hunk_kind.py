"""Comment-only and whitespace-only hunks (lang/hunk_kind.py): flagged in every
document, counted apart, left out with `--ignore-comment-only`."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

import hunkmetrics
from hunkmetrics.cli.app import app
from hunkmetrics.lang.selection import path_selection

runner = CliRunner()

PATH = "src/main/java/com/acme/Typos.java"
METHODS = 11
BLOCK = 14  # lines per method: a 10-line Javadoc, 3 lines of method, a blank line


def _method(i: int, word: str) -> list[str]:
    return [
        "    /**",
        f"     * Returns value number {i}.",
        "     * <p>",
        "     * More text.",
        f"     * Computes {word} value from its input.",
        "     * And more.",
        "     * <p>",
        "     * Even more.",
        "     * @return the value",
        "     */",
        f"    public int value{i}() {{",
        f"        return {i};",
        "    }",
        "",
    ]


def _source(word: str) -> str:
    lines = ["package com.acme;", "", "public class Typos {"]
    for i in range(METHODS):
        lines += _method(i, word)
    return "\n".join([*lines, "}", ""])


def _javadoc_fix() -> bytes:
    """11 hunks, one per method: line 8 + 14 i ('teh' -> 'the') with three lines of
    context each side, none of which shows the Javadoc's `/**` or `*/`."""
    out = [f"--- a/{PATH}", f"+++ b/{PATH}"]
    for i in range(METHODS):
        typo = 8 + BLOCK * i
        before = _method(i, "teh")
        out.append(f"@@ -{typo - 3},7 +{typo - 3},7 @@ public class Typos {{")
        out += [" " + line for line in before[1:4]]
        out += ["-" + before[4], "+" + _method(i, "the")[4]]
        out += [" " + line for line in before[5:8]]
    return ("\n".join(out) + "\n").encode()


MIXED = b"""--- a/src/main/java/com/acme/Calc.java
+++ b/src/main/java/com/acme/Calc.java
@@ -10,7 +10,7 @@ public class Calc {
      * Adds two numbers. This is a long
      * description of the method that goes
      * on and on.
-     * @return the sum of the to numbers
+     * @return the sum of the two numbers
      * @param a the first
      * @param b the second
      * @since 1.0
@@ -30,3 +30,3 @@ public class Calc {
     public int add(int a, int b) {
-        return a - b; // wrong
+        return a - b; // right
     }
@@ -40,3 +40,3 @@ public class Calc {
     public int sub(int a, int b) {
-        // wrong comment
+        // right comment
         return a - b;
@@ -50,3 +50,3 @@ public class Calc {
     public int mul(int a, int b) {
-        return a*b;
+        return a * b;
     }
"""


def test_mixed_kinds_by_hand() -> None:
    """Hunk 0: a Javadoc line (mid-comment) -> comment. Hunk 1: a code line with a
    trailing comment changed -> code (its first characters are code). Hunk 2: a line
    comment -> comment. Hunk 3: `a*b` -> `a * b` -> whitespace."""
    with hunkmetrics.open_workspace(MIXED) as ws:
        assert ws.kinds() == {0: "comment", 1: "code", 2: "comment", 3: "whitespace"}
        document = ws.characterize().to_dict()
    assert [h["kind"] for h in document["hunks"]] == ["comment", "code", "comment", "whitespace"]
    assert document["hunk_kinds"] == {"code": 1, "comment": 2, "whitespace": 1}
    assert document["hunk_count"] == 4
    ignored = hunkmetrics.characterize(MIXED, selection=path_selection(ignore_comment_only=True))
    assert ignored.divergence.hunk_count == 1
    assert any("hunks 0,2,3 change only comments or whitespace" in w for w in ignored.warnings)


def test_javadoc_typo_fix_is_all_comment_and_says_so(tmp_path: Path) -> None:
    patch = tmp_path / "typos.diff"
    patch.write_bytes(_javadoc_fix())
    result = runner.invoke(app, ["characterize", str(patch), "-f", "json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["hunk_count"] == 11
    assert [h["kind"] for h in document["hunks"]] == ["comment"] * 11
    assert document["hunk_kinds"] == {"code": 0, "comment": 11, "whitespace": 0}
    # Div(P) is not a silent 0: the document says the hunks change only comments.
    assert any(
        "no hunk changes code: all 11 change only comments" in w for w in document["warnings"]
    )

    ignored = runner.invoke(
        app, ["characterize", str(patch), "-f", "json", "--ignore-comment-only"]
    )
    assert ignored.exit_code == 0, ignored.output
    dropped = json.loads(ignored.stdout)
    assert dropped["hunk_count"] == 0 and dropped["divergence"]["value"] == 0.0
    assert dropped["files"][0]["excluded"] == "comment or whitespace only"
    assert dropped["config"]["selection"]["ignore_comment_only"] is True
    assert any("hunks 0,1,2,3,4,5,6,7,8,9,10 change only" in w for w in dropped["warnings"])


def test_javadoc_typo_fix_from_source(tmp_path: Path) -> None:
    """The same kinds when the whole file is parsed (the pre-image in a worktree)."""
    tree = tmp_path / "tree"
    (tree / PATH).parent.mkdir(parents=True)
    (tree / PATH).write_text(_source("teh"))
    with hunkmetrics.open_workspace(_javadoc_fix(), repo=tree) as ws:
        assert ws.sources is not None and ws.sources.side == "pre"
        assert set(ws.kinds().values()) == {"comment"}
        assert len(ws.kinds()) == 11


def test_every_document_flags_kinds(tmp_path: Path) -> None:
    patch = tmp_path / "mixed.diff"
    patch.write_bytes(MIXED)
    for command in ("hunks", "divergence", "proximity"):
        result = runner.invoke(app, [command, str(patch), "-f", "json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["hunk_kinds"] == {
            "code": 1,
            "comment": 2,
            "whitespace": 1,
        }
    table = runner.invoke(app, ["hunks", str(patch)])
    assert "2 hunk(s) change only comments, 1 only whitespace" in table.stdout


# A Javadoc cut by the hunk: opened but not closed (hunk 0), closed but not opened
# (hunk 1); and two that must stay code: a changed code line before the opening
# (hunk 2), and a line inside that is no ` * …` continuation, which the diff alone
# cannot tell from code (hunk 3).
CUT_JAVADOCS = """\
diff --git a/src/main/java/com/acme/B.java b/src/main/java/com/acme/B.java
--- a/src/main/java/com/acme/B.java
+++ b/src/main/java/com/acme/B.java
@@ -10,4 +10,4 @@ public class B {
     /**
      * Converts a String.
-     * 'y' or 'yes' gives true.
+     * 'y', 'yes' or '1' gives true.
      * Otherwise null.
@@ -40,4 +40,4 @@ public class B {
      * More words.
-     * @return teh value
+     * @return the value
      */
     public int value() {
@@ -60,3 +60,3 @@ public class B {
-    int x = 1;
+    int x = 2;
     /**
      * Some words.
@@ -80,3 +80,3 @@ public class B {
     /*
-    int old = 1;
+    int old = 2;
      * rest
"""


def test_javadoc_cut_by_the_hunk_from_the_diff_alone() -> None:
    with hunkmetrics.open_workspace(CUT_JAVADOCS) as ws:
        assert ws.kinds() == {0: "comment", 1: "comment", 2: "code", 3: "code"}
