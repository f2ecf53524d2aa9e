"""Hunk divergence, checked against numbers worked out by hand from the spec
(../shared/spec/metrics.md, "Hunk divergence", profiles `default` and `birch`).

Every expected value below is derived in the test's docstring or comments: token lists,
Levenshtein distances (counted as longer length - LCS, with an alignment that reaches that
bound), edit bags, sum-min/sum-max, path segments, AST path lengths and the final
ln(n) * mean. Nothing is copied from the code's output.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from pathlib import Path

import pytest
from gitrepo import build_fixture_repo, worktree_at
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

import hunkmetrics
from hunkmetrics import open_workspace
from hunkmetrics.lang.javaparser_shape import shape_java
from hunkmetrics.metrics.ast_path import FileStructure, distance
from hunkmetrics.metrics.divergence import counted_hunks
from hunkmetrics.metrics.features import SEPARATOR, HunkFeatures, edit_bag, patch_features
from hunkmetrics.metrics.filelevel import file_distance
from hunkmetrics.metrics.lexical import (
    bleu_tokens,
    ngram_profile,
    sentence_bleu4,
    token_distance_matrix,
)
from hunkmetrics.metrics.punkt import punkt_word_tokenize
from hunkmetrics.metrics.structural import bag_distance_matrix

SEP = SEPARATOR
LN2, LN3 = math.log(2), math.log(3)


# ---- helpers ---------------------------------------------------------------------------


def features(
    diff: bytes, source: str | Path | None = None, profile: str = "default"
) -> tuple[list[HunkFeatures], list[str]]:
    """Per-hunk tokens and edit bags as the divergence computation sees them."""
    with open_workspace(diff, repo=source, selection=hunkmetrics.ALL_FILES) as ws:
        hunks, _ = counted_hunks(ws.patch, profile)
        found = patch_features(ws.patch, hunks, ws.sources, ws.cache)
        return found.hunks, found.warnings


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """A plain working tree holding `files`."""
    for name, text in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return root


def pair_map(result) -> dict[tuple[int, int], hunkmetrics.PairScore]:
    return {(p.i, p.j): p for p in result.pairs()}


# ---- the running example: three hunks, two files ----------------------------------------

CALC = "src/main/java/com/acme/Calc.java"
FMT = "src/main/java/com/acme/util/Fmt.java"

CALC_PRE = """\
package com.acme;

class Calc {
    int price, count, tax;

    long total() {
        int total = price * count; // gross
        return total;
    }

    int net() {
        int total = price;
        return total;
    }
}
"""
FMT_PRE = """\
package com.acme.util;

class Fmt {
    int pad(int a, int b) {
        return a;
    }
}
"""

# Hunk 0 changes a line that carries a comment, and also its spacing.
THREE_HUNKS = b"""\
diff --git a/src/main/java/com/acme/Calc.java b/src/main/java/com/acme/Calc.java
--- a/src/main/java/com/acme/Calc.java
+++ b/src/main/java/com/acme/Calc.java
@@ -6,3 +6,3 @@ class Calc {
     long total() {
-        int total = price * count; // gross
+        long total = price  *  count + tax; // net of tax
         return total;
@@ -12,3 +12,3 @@ class Calc {
         int total = price;
-        return total;
+        return total + tax;
     }
diff --git a/src/main/java/com/acme/util/Fmt.java b/src/main/java/com/acme/util/Fmt.java
--- a/src/main/java/com/acme/util/Fmt.java
+++ b/src/main/java/com/acme/util/Fmt.java
@@ -4,3 +4,3 @@ class Fmt {
     int pad(int a, int b) {
-        return a;
+        return a + b;
     }
"""

# Tree-sitter leaves of the changed lines, comments dropped, whitespace gone:
TOKENS_0 = (
    "int",
    "total",
    "=",
    "price",
    "*",
    "count",
    ";",
    SEP,  # 7 + 1
    "long",
    "total",
    "=",
    "price",
    "*",
    "count",
    "+",
    "tax",
    ";",
)  # + 9 = 17
TOKENS_1 = ("return", "total", ";", SEP, "return", "total", "+", "tax", ";")  # 9
TOKENS_2 = ("return", "a", ";", SEP, "return", "a", "+", "b", ";")  # 9

# Edit bags, from the named tree-sitter-java nodes starting on the changed lines:
#   hunk 0 removed: local_variable_declaration, integral_type(int), variable_declarator,
#                   binary_expression, identifier x3 (total, price, count)
#          added:   local_variable_declaration, integral_type(long), variable_declarator,
#                   binary_expression x2, identifier x4 (total, price, count, tax)
#          A-B = {}, B-A = {binary_expression, identifier},
#          leaves paired in order: integral_type int/long differ -> ~integral_type,
#          identifier (total,price,count) vs (total,price,count,tax) -> no difference.
#   hunk 1 removed: return_statement, identifier(total)
#          added:   return_statement, binary_expression, identifier x2 (total, tax)
#          B-A = {binary_expression, identifier}; identifier total/total equal.
#   hunk 2 the same shape as hunk 1 with a, b.
BAG_0 = {"+binary_expression": 1, "+identifier": 1, "~integral_type": 1}
BAG_1 = {"+binary_expression": 1, "+identifier": 1}
BAG_2 = {"+binary_expression": 1, "+identifier": 1}


@pytest.fixture
def calc_tree(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "tree", {CALC: CALC_PRE, FMT: FMT_PRE})


# ---- F: file level ----------------------------------------------------------------------


def test_file_distance_same_file_is_zero() -> None:
    assert file_distance(CALC, CALC) == 0.0
    assert file_distance("X.java", "X.java", capped=False) == 0.0


def test_file_distance_sibling_directories() -> None:
    """src/a/X.java vs src/b/Y.java: m = 3, equal leading segments 1 (src), c = 0,
    F = 1 - 0/3 = 1."""
    assert file_distance("src/a/X.java", "src/b/Y.java") == pytest.approx(1.0)
    assert file_distance("src/a/X.java", "src/b/Y.java", capped=False) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        # same directory: a,b,C.java / a,b,D.java: m = 3, equal 2, c = 1 -> 1 - 1/3
        ("a/b/C.java", "a/b/D.java", 2 / 3),
        # Calc (6 segments) vs util/Fmt (7): equal src,main,java,com,acme = 5, c = 4 -> 1 - 4/7
        (CALC, FMT, 3 / 7),
        # Inventory (7) vs util/Retry (8): equal 6 (… core), c = 5 -> 1 - 5/8
        (
            "src/main/java/com/acme/core/Inventory.java",
            "src/main/java/com/acme/core/util/Retry.java",
            3 / 8,
        ),
        # org/other/Telemetry (6) vs com/acme/core/Inventory (7): equal 3, c = 2 -> 1 - 2/7
        (
            "src/main/java/org/other/Telemetry.java",
            "src/main/java/com/acme/core/Inventory.java",
            5 / 7,
        ),
        # segments compare whole: ab vs abc differ; equal 1 (src), c = 0, m = 3 -> 1
        ("src/ab/X.java", "src/abc/X.java", 1.0),
    ],
)
def test_file_distance_deeper(a: str, b: str, expected: float) -> None:
    assert file_distance(a, b) == pytest.approx(expected)
    assert file_distance(b, a) == pytest.approx(expected)
    assert file_distance(a, b, capped=False) == pytest.approx(expected)  # all are <= 1


@pytest.mark.parametrize(
    ("a", "b", "uncapped"),
    [
        ("lib/X.java", "src/Y.java", 1 + 1 / 2),  # m = 2, equal 0, c = -1 -> 1 + 1/2
        ("X.java", "Y.java", 1 + 1 / 1),  # m = 1 -> 2
        ("lib/x/X.java", "src/Y.java", 1 + 1 / 3),  # m = 3 -> 4/3
    ],
)
def test_file_distance_no_common_first_segment(a: str, b: str, uncapped: float) -> None:
    """c = 0 - 1 = -1, so 1 - c/m = 1 + 1/m: birch keeps it, default caps at 1."""
    assert file_distance(a, b, capped=False) == pytest.approx(uncapped)
    assert file_distance(a, b) == 1.0


def test_birch_file_component_is_uncapped_default_capped() -> None:
    """Two .txt hunks in lib/x.txt and src/y.txt: m = 2, c = -1, birch F = 1.5,
    default F = 1."""
    diff = b"""\
--- a/lib/x.txt
+++ b/lib/x.txt
@@ -1 +1 @@
-alpha beta
+alpha gamma
--- a/src/y.txt
+++ b/src/y.txt
@@ -1 +1 @@
-delta
+epsilon
"""
    birch = hunkmetrics.divergence(diff, profile="birch", selection=hunkmetrics.ALL_FILES)
    default = hunkmetrics.divergence(diff, selection=hunkmetrics.ALL_FILES)
    (bp,), (dp,) = list(birch.pairs()), list(default.pairs())
    assert bp.file == pytest.approx(1.5) and bp.gamma == 2.0
    assert dp.file == pytest.approx(1.0) and dp.gamma == 2.0


# ---- L: default, token edit distance -----------------------------------------------------


def test_token_distance_matrix_small_cases() -> None:
    """[] vs [] -> 0 (both empty); [a b c] vs [a c]: one deletion, / 3;
    [a b c] vs [] -> 3/3; [x y] vs [y x]: two substitutions (LCS 1 but no shorter
    script), / 2."""
    matrix = token_distance_matrix([[], ["a", "b", "c"], ["a", "c"], ["x", "y"], ["y", "x"]])
    assert matrix[0, 0] == 0.0
    assert matrix[1, 2] == pytest.approx(1 / 3)
    assert matrix[1, 0] == pytest.approx(1.0)
    assert matrix[3, 4] == pytest.approx(2 / 2)
    # tokens are compared whole, never by character: "ab" vs "a" is one substitution
    assert token_distance_matrix([["ab"], ["a"]])[0, 1] == pytest.approx(1.0)


def test_lexical_tokens_drop_comments_and_whitespace() -> None:
    """Hunk 0 removes `int total = price * count; // gross` and adds
    `long total = price  *  count + tax; // net of tax`: the comments are gone and the
    doubled spaces leave no trace."""
    found, _ = features(THREE_HUNKS)
    assert [f.tokens for f in found] == [TOKENS_0, TOKENS_1, TOKENS_2]


def test_lexical_default_two_hunks_by_hand() -> None:
    """Hunks 0 and 1 of THREE_HUNKS.

    tokens_0 = int total = price * count ; SEP long total = price * count + tax ;  (17)
    tokens_1 = return total ; SEP return total + tax ;                            (9)
    LCS = total ; SEP total + tax ; = 7 (tokens_1's two `return` do not occur in tokens_0),
    so Levenshtein >= 17 - 7 = 10, reached by: int->return, keep total, delete = price *
    count (4), keep ; SEP, long->return, keep total, delete = price * count (4), keep + tax ;
    = 2 substitutions + 8 deletions = 10.  L = 10 / max(17, 9) = 10/17.
    """
    result = hunkmetrics.divergence(THREE_HUNKS)
    assert pair_map(result)[0, 1].lexical == pytest.approx(10 / 17)


def test_lexical_ignores_whitespace_and_comment_edits() -> None:
    """The same two hunks written with other spacing and other (or no) comments give the
    same token lists, hence the same L = 10/17."""
    respaced = b"""\
--- a/src/main/java/com/acme/Calc.java
+++ b/src/main/java/com/acme/Calc.java
@@ -6,3 +6,3 @@ class Calc {
     long total() {
-        int   total=price*count;
+        long total=price*count+tax; /* a block comment */
         return total;
@@ -12,3 +12,3 @@ class Calc {
         int total = price;
-        return total; // old
+        return   total   +   tax ;
     }
"""
    found, _ = features(respaced)
    assert [f.tokens for f in found] == [TOKENS_0, TOKENS_1]
    (pair,) = list(hunkmetrics.divergence(respaced).pairs())
    assert pair.lexical == pytest.approx(10 / 17)


def test_lexical_other_pairs_by_hand() -> None:
    """L(0,2): tokens_2 = return a ; SEP return a + b ; (9). Of its tokens only ; SEP + ;
    occur in tokens_0, in that order, so LCS = 4 and Levenshtein >= 17 - 4 = 13, reached
    by substituting int, total, long, total, tax -> return, a, return, a, b (5) and deleting
    the other 8 (= price * count twice). L = 13/17.
    L(1,2): tokens_1 vs tokens_2 align one to one, total->a twice and tax->b: 3/9 = 1/3.
    """
    pairs = pair_map(hunkmetrics.divergence(THREE_HUNKS))
    assert pairs[0, 2].lexical == pytest.approx(13 / 17)
    assert pairs[1, 2].lexical == pytest.approx(1 / 3)


def test_generic_tokenizer_for_a_language_without_grammar() -> None:
    """Ruby has no grammar: identifiers, numbers, string literals and operators.
    hunk 0: total = price * 3 | SEP | total = price * 4 + fee          (5 + 1 + 7 = 13)
    hunk 1: name = "a b" | SEP | name = 'a b'                          (3 + 1 + 3 = 7)
    LCS = = SEP = (3), so Levenshtein >= 13 - 3 = 10, reached by total->name,
    price->"a b", delete * 3, total->name, price->'a b', delete * 4 + fee:
    4 substitutions + 6 deletions. L = 10/13."""
    diff = b"""\
--- a/lib/shop.rb
+++ b/lib/shop.rb
@@ -2,3 +2,3 @@ def cost
   x = 0
-  total = price * 3
+  total = price * 4 + fee
   x
@@ -9,3 +9,3 @@ def label
   y = 0
-  name = "a b"
+  name = 'a b'
   y
"""
    found, warnings = features(diff)
    assert found[0].tokens == (
        "total",
        "=",
        "price",
        "*",
        "3",
        SEP,
        "total",
        "=",
        "price",
        "*",
        "4",
        "+",
        "fee",
    )
    assert found[1].tokens == ("name", "=", '"a b"', SEP, "name", "=", "'a b'")
    result = hunkmetrics.divergence(diff, selection=hunkmetrics.ALL_FILES)
    (pair,) = list(result.pairs())
    assert pair.lexical == pytest.approx(10 / 13)
    # Never a silent zero: the hunks differ, so does the pair.
    assert 0.0 <= pair.structural <= 1.0
    assert pair.gamma == 0.0 and pair.value == pytest.approx(pair.lexical * pair.structural)
    assert result.value > 0.0
    assert any("no grammar" in w and ".rb" in w and "hunks 0,1" in w for w in warnings)
    assert any("no grammar" in w and "hunks 0,1" in w for w in result.warnings)


# ---- S: default, edit-bag distance ---------------------------------------------------


def test_edit_bag_from_counters() -> None:
    """A = {x:2, y:1, leaf:1}, B = {x:1, z:1, leaf:1}: A-B = {x:1, y:1}, B-A = {z:1};
    leaves paired in order: leaf 'p'/'q' differ (1), 'r' has no partner (ignored),
    word 'same'/'same' equal."""
    bag = edit_bag(
        Counter({"x": 2, "y": 1, "leaf": 2, "word": 1}),
        Counter({"x": 1, "z": 1, "leaf": 2, "word": 1}),
        {"leaf": [b"p", b"r"], "word": [b"same"]},
        {"leaf": [b"q", b"r"], "word": [b"same"]},
    )
    assert bag == {"-x": 1, "-y": 1, "+z": 1, "~leaf": 1}
    only_one_side = edit_bag(Counter({"a": 1}), Counter(), {"a": [b"1"]}, {})
    assert only_one_side == {"-a": 1}


def test_edit_bags_by_hand_without_and_with_source(calc_tree: Path) -> None:
    """The bags derived above (BAG_0..2) come out the same whether the trees are the full
    files or the hunks' own lines parsed as fragments."""
    no_source, warnings = features(THREE_HUNKS)
    assert [f.bag for f in no_source] == [BAG_0, BAG_1, BAG_2]
    assert {f.built_from for f in no_source} == {"diff"}
    assert any("no source given" in w and "hunks 0,1,2" in w for w in warnings)

    with_source, warnings = features(THREE_HUNKS, source=calc_tree)
    assert [f.bag for f in with_source] == [BAG_0, BAG_1, BAG_2]
    assert {f.built_from for f in with_source} == {"source"}
    assert not any("no source" in w for w in warnings)


def test_structural_weighted_jaccard_by_hand() -> None:
    """S(0,1): keys +binary_expression min 1 max 1, +identifier min 1 max 1,
    ~integral_type min 0 max 1 -> sum min 2, sum max 3 -> S = 1 - 2/3 = 1/3.
    S(0,2) the same (BAG_2 == BAG_1); S(1,2) = 1 - 2/2 = 0."""
    matrix = bag_distance_matrix([BAG_0, BAG_1, BAG_2], ["java"] * 3)
    assert matrix[0, 1] == pytest.approx(1 / 3)
    assert matrix[0, 2] == pytest.approx(1 / 3)
    assert matrix[1, 2] == pytest.approx(0.0)
    pairs = pair_map(hunkmetrics.divergence(THREE_HUNKS))
    assert pairs[0, 1].structural == pytest.approx(1 / 3)
    assert pairs[0, 2].structural == pytest.approx(1 / 3)
    assert pairs[1, 2].structural == pytest.approx(0.0)


def test_every_updated_leaf_counts() -> None:
    """`foo(a, b);` -> `foo(c, d);`: the same node types on both sides; identifier leaves
    (foo, a, b) vs (foo, c, d) paired in order: two differ -> {~identifier: 2}.
    Against `foo(a);` -> `foo(e);` ({~identifier: 1}): sum min 1, sum max 2 -> S = 1/2."""
    diff = b"""\
--- a/src/A.java
+++ b/src/A.java
@@ -2,3 +2,3 @@ class A {
     void f() {
-        foo(a, b);
+        foo(c, d);
     }
@@ -6,3 +6,3 @@ class A {
     void g() {
-        foo(a);
+        foo(e);
     }
"""
    found, _ = features(diff)
    assert [f.bag for f in found] == [{"~identifier": 2}, {"~identifier": 1}]
    (pair,) = list(hunkmetrics.divergence(diff).pairs())
    assert pair.structural == pytest.approx(1 / 2)


def test_structural_counts_multiplicities() -> None:
    """{+a:3, -b:1} vs {+a:1, ~c:2}: sum min = min(3,1) = 1; sum max = 3 + 1 + 2 = 6;
    S = 1 - 1/6 = 5/6."""
    matrix = bag_distance_matrix([{"+a": 3, "-b": 1}, {"+a": 1, "~c": 2}], ["java", "java"])
    assert matrix[0, 1] == pytest.approx(5 / 6)
    assert matrix[1, 0] == pytest.approx(5 / 6)


def test_structural_empty_bags() -> None:
    """Both empty -> 0; one empty, the other not -> sum min 0, sum max > 0 -> 1."""
    matrix = bag_distance_matrix([{}, {}, {"+x": 2}], ["java"] * 3)
    assert matrix[0, 1] == 0.0
    assert matrix[0, 2] == pytest.approx(1.0)


def test_comment_and_spacing_only_hunks_have_empty_bags() -> None:
    """`x = 1; // one` -> `x  =  1; // uno`: the same named nodes and leaf texts on both
    sides, the comment dropped: empty bag; both hunks alike, so L = 0, S = 0, d = 0."""
    diff = b"""\
--- a/src/A.java
+++ b/src/A.java
@@ -2,3 +2,3 @@ class A {
     void f() {
-        x = 1; // one
+        x  =  1; // uno
     }
@@ -6,3 +6,3 @@ class A {
     void g() {
-        x = 1; // one
+        x = 1;
     }
"""
    found, _ = features(diff)
    assert [f.bag for f in found] == [{}, {}]
    assert found[0].tokens == found[1].tokens == ("x", "=", "1", ";", SEP, "x", "=", "1", ";")
    result = hunkmetrics.divergence(diff)
    (pair,) = list(result.pairs())
    assert (pair.lexical, pair.structural, pair.value) == (0.0, 0.0, 0.0)
    assert result.value == 0.0


def test_structural_different_languages_is_one() -> None:
    """Java `foo(a);` -> `foo(b);` and Python `foo(a)` -> `foo(b)` both have the bag
    {~identifier: 1} (expression_statement, method_invocation/call, identifier foo,
    argument_list, identifier a|b: only the leaf a/b differs). Same bag, but different
    languages: S = 1.
    L: Java foo ( a ) ; SEP foo ( b ) ; (11) vs Python foo ( a ) SEP foo ( b ) (9):
    delete the two `;` -> 2/11.
    F: src/Main.java vs src/main.py: m = 2, equal 1, c = 0 -> 1; g = 2.
    d = 2/11 * (1 + 2*1) / 3 = 2/11; Div = ln 2 * 2/11."""
    diff = b"""\
--- a/src/Main.java
+++ b/src/Main.java
@@ -2,3 +2,3 @@ class Main {
     void run() {
-        foo(a);
+        foo(b);
     }
--- a/src/main.py
+++ b/src/main.py
@@ -1,2 +1,2 @@
 import os
-foo(a)
+foo(b)
"""
    found, _ = features(diff)
    assert [f.bag for f in found] == [{"~identifier": 1}, {"~identifier": 1}]
    assert [f.language for f in found] == ["java", "python"]
    assert bag_distance_matrix([f.bag for f in found], ["java", "java"])[0, 1] == 0.0
    result = hunkmetrics.divergence(diff)
    (pair,) = list(result.pairs())
    assert pair.structural == 1.0
    assert pair.lexical == pytest.approx(2 / 11)
    assert pair.file == pytest.approx(1.0) and pair.gamma == 2.0
    assert pair.value == pytest.approx(2 / 11)
    assert result.value == pytest.approx(LN2 * 2 / 11)


# ---- Div(P): the combination ------------------------------------------------------------


def test_divergence_three_hunks_two_files_by_hand(calc_tree: Path) -> None:
    """L and S from the tests above: L01 = 10/17, L02 = 13/17, L12 = 1/3;
    S01 = S02 = 1/3, S12 = 0.
    F: hunks 0, 1 in Calc.java -> F01 = 0, g01 = 0; hunk 2 in util/Fmt.java:
    F02 = F12 = 1 - 4/7 = 3/7, g = 2.
    d01 = L01 * S01 = 10/17 * 1/3 = 10/51
    d02 = 13/17 * (1/3 + 2 * 3/7) / 3 = 13/17 * 25/21 / 3 = 325/1071
    d12 = 1/3 * (0 + 6/7) / 3 = 2/21
    sum = (210 + 325 + 102)/1071 = 637/1071 = 91/153; mean = 91/459;
    Div = ln 3 * 91/459 (about 0.2178)."""
    expected = {
        (0, 1): (10 / 17, 1 / 3, 0.0, 0.0, 10 / 51),
        (0, 2): (13 / 17, 1 / 3, 3 / 7, 2.0, 325 / 1071),
        (1, 2): (1 / 3, 0.0, 3 / 7, 2.0, 2 / 21),
    }
    for source in (None, calc_tree):
        result = hunkmetrics.divergence(THREE_HUNKS, source=source)
        assert result.hunk_count == 3 and result.hunk_indices == (0, 1, 2)
        pairs = pair_map(result)
        assert sorted(pairs) == sorted(expected)
        for key, (lex, struct, fil, gamma, value) in expected.items():
            got = pairs[key]
            assert got.lexical == pytest.approx(lex), key
            assert got.structural == pytest.approx(struct), key
            assert got.file == pytest.approx(fil), key
            assert got.gamma == gamma, key
            assert got.value == pytest.approx(value), key
        assert result.value == pytest.approx(LN3 * 91 / 459)
        assert result.value == pytest.approx(0.2178, abs=1e-4)
        assert result.means["lexical"] == pytest.approx((10 / 17 + 13 / 17 + 1 / 3) / 3)
        assert result.means["structural"] == pytest.approx((1 / 3 + 1 / 3 + 0) / 3)
        assert result.means["file"] == pytest.approx(2 * 3 / 7 / 3)
        document = result.to_dict()
        assert document["value"] == pytest.approx(result.value)
        assert len(document["pairs"]) == 3


def test_distributed_weight_zero_and_two() -> None:
    """g = 0 everywhere: d = L * S: d01 = 10/51, d02 = 13/17 * 1/3 = 13/51, d12 = 1/3 * 0
    = 0; mean = 23/153, Div = ln 3 * 23/153.
    g = 2 explicitly: as the default, ln 3 * 91/459."""
    zero = hunkmetrics.divergence(THREE_HUNKS, distributed_weight=0.0)
    assert [p.gamma for p in zero.pairs()] == [0.0, 0.0, 0.0]
    assert [p.value for p in zero.pairs()] == pytest.approx([10 / 51, 13 / 51, 0.0])
    assert zero.value == pytest.approx(LN3 * 23 / 153)
    two = hunkmetrics.divergence(THREE_HUNKS, distributed_weight=2.0)
    assert [p.gamma for p in two.pairs()] == [0.0, 2.0, 2.0]
    assert two.value == pytest.approx(LN3 * 91 / 459)


@pytest.mark.parametrize("weight", [math.nan, math.inf, -math.inf, -0.5])
def test_a_weight_that_is_not_a_finite_number_at_least_zero_is_refused(weight: float) -> None:
    """NaN passes a `< 0` check and gave Div(P) = NaN, written as `NaN` (not JSON)."""
    from hunkmetrics.datasets.batch import Settings
    from hunkmetrics.errors import ArgumentError

    expected = f"the distributed weight must be a finite number ≥ 0, not {weight}"
    with pytest.raises(ArgumentError) as refused:
        hunkmetrics.divergence(THREE_HUNKS, distributed_weight=weight)
    assert str(refused.value) == expected
    with pytest.raises(ArgumentError) as refused:  # a batch: before its first row
        Settings(distributed_weight=weight)
    assert str(refused.value) == expected


@pytest.mark.parametrize("command", ["divergence", "characterize", "batch"])
@pytest.mark.parametrize(
    ("weight", "why"),
    [
        ("nan", "nan is not a finite number"),
        ("inf", "inf is not a finite number"),
        ("-inf", "-inf is not in the range x>=0.0"),
    ],
)
def test_the_commands_refuse_a_weight_that_is_not_finite(
    command: str, weight: str, why: str, tmp_path: Path
) -> None:
    from typer.testing import CliRunner

    from hunkmetrics.cli.app import app

    patch = str(
        Path(__file__).resolve().parents[1] / "fixtures/patches/java_anonymous_classes.diff"
    )
    args = [command, patch, "--distributed-weight", weight]
    if command == "batch":
        manifest = tmp_path / "bugs.csv"
        manifest.write_text(f"id,patch\nb1,{patch}\n", encoding="utf-8")
        args = [command, str(manifest), "--out", str(tmp_path / "out.jsonl"), *args[2:]]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 2, done.output
    assert why in done.output
    assert not (tmp_path / "out.jsonl").exists()


def test_single_hunk_patch_has_no_pairs() -> None:
    diff = b"""\
--- a/x.txt
+++ b/x.txt
@@ -1 +1 @@
-one
+two
"""
    for profile in ("default", "birch"):
        result = hunkmetrics.divergence(diff, profile=profile, selection=hunkmetrics.ALL_FILES)
        assert result.hunk_count == 1 and result.value == 0.0
        assert list(result.pairs()) == [] and result.means["lexical"] is None


# ---- birch: L = 1 - BLEU ------------------------------------------------------------------


def _random_pair(rng: random.Random) -> tuple[list[str], list[str]]:
    vocab = rng.choice(
        [["a", "b"], list("abcde"), list("abcdefghijklmno"), ["(", ")", ";", "x", "=", "return"]]
    )

    def sentence(length: int) -> list[str]:
        return [rng.choice(vocab) for _ in range(length)]

    shape = rng.randrange(6)
    ref = sentence(rng.choice([0, 1, 2, 3, 4, 5, 8, 13, 21]))
    if shape == 0:  # unrelated
        hyp = sentence(rng.choice([0, 1, 2, 3, 4, 6, 9, 15]))
    elif shape == 1:  # shared prefix, other tail
        keep = rng.randint(0, len(ref))
        hyp = ref[:keep] + sentence(rng.randint(0, 6))
    elif shape == 2:  # identical
        hyp = list(ref)
    elif shape == 3:  # one repeated token
        hyp = [rng.choice(vocab)] * rng.randint(0, 9)
    elif shape == 4:  # a few edits
        hyp = list(ref)
        for _ in range(rng.randint(1, 3)):
            if hyp and rng.random() < 0.5:
                hyp[rng.randrange(len(hyp))] = rng.choice(vocab)
            else:
                hyp.insert(rng.randint(0, len(hyp)), rng.choice(vocab))
    else:  # length 0/1 on either side
        ref, hyp = sentence(rng.randint(0, 1)), sentence(rng.randint(0, 3))
        if rng.random() < 0.5:
            ref, hyp = hyp, ref
    return ref, hyp


def test_sentence_bleu4_equals_nltk_method4() -> None:
    """NLTK is the reference: 3,500 generated pairs, including empty and one-token
    sentences, repeated tokens and shared prefixes, agree to 1e-9."""
    rng = random.Random(20250101)
    smoothing = SmoothingFunction().method4
    lengths = Counter()
    for _ in range(3500):
        ref, hyp = _random_pair(rng)
        lengths[min(len(ref), 2), min(len(hyp), 2)] += 1
        expected = sentence_bleu([ref], hyp, smoothing_function=smoothing)
        got = sentence_bleu4(ngram_profile(ref), ngram_profile(hyp))
        assert got == pytest.approx(expected, abs=1e-9), (ref, hyp)
    # the generator did reach the edge cases
    assert all(lengths[a, b] > 0 for a in range(3) for b in range(3)), lengths


def test_sentence_bleu4_by_hand() -> None:
    """identical, length 4: p1..p4 = 1, BP = 1 -> BLEU 1.
    ref a b c d, hyp a b c e: p1 = 3/4, p2 = 2/3, p3 = 1/2, p4 = 0/1 smoothed (method 4,
    first zero): 1 / (2^1 * 5 / ln 4) / 1 = ln4/10; BP = 1 (equal lengths);
    BLEU = (3/4 * 2/3 * 1/2 * ln4/10)^(1/4).
    ref a b c d e f, hyp a b c d: all precisions 1, BP = exp(1 - 6/4) = exp(-1/2).
    ref a b c d, hyp a b c d e f: p = 4/6, 3/5, 2/4, 1/3, BP = 1 ->
    (24/360)^(1/4) = (1/15)^(1/4)."""

    def bleu(ref: str, hyp: str) -> float:
        return sentence_bleu4(ngram_profile(ref.split()), ngram_profile(hyp.split()))

    assert bleu("a b c d", "a b c d") == pytest.approx(1.0)
    assert bleu("a b c d", "a b c e") == pytest.approx(
        (0.75 * 2 / 3 * 0.5 * math.log(4) / 10) ** 0.25
    )
    assert bleu("a b c d e f", "a b c d") == pytest.approx(math.exp(-0.5))
    assert bleu("a b c d", "a b c d e f") == pytest.approx((1 / 15) ** 0.25)
    assert bleu("a b", "c d") == 0.0  # no unigram in common
    assert bleu("a b c", "") == 0.0


def test_bleu_tokens_are_nltk_word_tokenize_with_punkt() -> None:
    """The study's `word_tokenize(text)`: Punkt sentences, then Treebank words (the
    line-preserving variant is in test_punkt.py)."""
    text = '    if (x.size() > 0) {\n        return "a, b"; // done.\n    } Done. Next'
    assert bleu_tokens(text) == punkt_word_tokenize(text)
    assert bleu_tokens("a b c\nd e f") == ["a", "b", "c", "d", "e", "f"]
    assert bleu_tokens("return x;") == ["return", "x", ";"]


BLEU_DIFF = b"""\
--- a/docs/x.txt
+++ b/docs/x.txt
@@ -1 +1 @@
-a b c
+d e f
--- a/docs/y.txt
+++ b/docs/y.txt
@@ -1 +1 @@
-a b
+c d
"""


def test_birch_lexical_reference_is_hunk_i() -> None:
    """Texts: hunk 0 'a b c\\nd e f' -> a b c d e f (6), hunk 1 'a b\\nc d' -> a b c d (4).
    Reference hunk 0, candidate hunk 1: BLEU = exp(-1/2) (see above), L = 1 - exp(-1/2);
    the other way round it would be 1 - (1/15)^(1/4).
    F: docs/x.txt vs docs/y.txt: m = 2, equal 1, c = 0 -> 1; S = 1 (different files);
    g = 2: d = L * (1 + 2) / 3 = L; Div = ln 2 * L."""
    result = hunkmetrics.divergence(BLEU_DIFF, profile="birch", selection=hunkmetrics.ALL_FILES)
    (pair,) = list(result.pairs())
    lexical = 1 - math.exp(-0.5)
    assert pair.lexical == pytest.approx(lexical)
    assert pair.lexical != pytest.approx(1 - (1 / 15) ** 0.25)
    assert (pair.structural, pair.file, pair.gamma) == (1.0, 1.0, 2.0)
    assert pair.value == pytest.approx(lexical)
    assert result.value == pytest.approx(LN2 * lexical)


def test_birch_identical_hunks_in_two_files() -> None:
    """Both texts `return a;\\nreturn b;` -> return a ; return b ; (6 tokens): BLEU 1,
    L = 0, so d = 0 whatever S and F are."""
    diff = b"""\
--- a/src/P.java
+++ b/src/P.java
@@ -2,3 +2,3 @@ class P {
     int f() {
-        return a;
+        return b;
     }
--- a/src/Q.java
+++ b/src/Q.java
@@ -2,3 +2,3 @@ class Q {
     int f() {
-        return a;
+        return b;
     }
"""
    result = hunkmetrics.divergence(diff, profile="birch")
    (pair,) = list(result.pairs())
    assert pair.lexical == pytest.approx(0.0, abs=1e-12)
    assert pair.structural == 1.0 and pair.gamma == 2.0
    assert result.value == pytest.approx(0.0, abs=1e-12)


# ---- birch: S = AST path distance ---------------------------------------------------------


TWO_METHODS = """\
class A {
    void f() {
        int x = 1;
    }
    void g() {
        int y = 2;
    }
}
"""
TWO_METHODS_DIFF = b"""\
--- a/A.java
+++ b/A.java
@@ -3 +3 @@ class A {
-        int x = 1;
+        int x = 10;
@@ -6 +6 @@ class A {
-        int y = 2;
+        int y = 20;
"""


def test_birch_tree_of_two_methods_by_hand() -> None:
    """TWO_METHODS in JavaParser's shape, with depths: CompilationUnit 0 (lines 1-8),
    ClassOrInterfaceDeclaration 1, SimpleName A 2, then per method: MethodDeclaration 2,
    VoidType 3, SimpleName 3, BlockStmt 3, ExpressionStmt 4, VariableDeclarationExpr 5,
    VariableDeclarator 6, PrimitiveType / SimpleName / IntegerLiteralExpr 7: 3 + 2 * 10 =
    23 nodes. Line 3's one-line nodes are ExpressionStmt .. the literal; the first in
    pre-order is the ExpressionStmt (depth 4); likewise line 6. dist = stmt -> block ->
    method f -> class -> method g -> block -> stmt = 6; diameter = a depth-7 leaf of f to
    one of g through the class (depth 1): 6 + 6 = 12."""
    tree = shape_java(TWO_METHODS.encode())
    assert len(tree) == 23
    structure = FileStructure.of(tree)
    assert structure.diameter == 12
    a, b = structure.anchors([(3, 3), (6, 6)])
    assert (tree.kind_name(a), tree.kind_name(b)) == ("ExpressionStmt", "ExpressionStmt")
    assert (tree.depth[a], tree.depth[b]) == (4, 4)
    assert distance(tree, a, b) == 6


def test_birch_same_file_with_source_by_hand(tmp_path: Path) -> None:
    """The -U0 hunks' spans are their own lines, 3-3 and 6-6 (post-image: 1 -> 10 and
    2 -> 20 keep the lines), so S = ln 7 / ln 13 (above); F = 0, g = 0 (same file).
    L = 1 - BLEU(ref = int x = 1 ; int x = 10 ;, hyp = int y = 2 ; int y = 20 ;):
    p1: hyp unigrams int2 y2 =2 2 ;2 20, clipped by ref int2 x2 =2 1 ;2 10 -> 6/10;
    p2: 9 hyp bigrams, only (; int) in ref -> 1/9;  p3: 0/8;  p4: 0/7;
    method 4: p3 = 1/(2^1 * 5/ln 10)/8 = ln10/80, p4 = 1/(2^2 * 5/ln 10)/7 = ln10/140;
    BP = 1 (10 = 10). BLEU = (6/10 * 1/9 * ln10/80 * ln10/140)^(1/4).
    d = L * S; Div = ln 2 * d."""
    tree = write_tree(tmp_path / "tree", {"A.java": TWO_METHODS})
    result = hunkmetrics.divergence(TWO_METHODS_DIFF, profile="birch", source=tree)
    (pair,) = list(result.pairs())
    ln10 = math.log(10)
    bleu = (0.6 / 9 * ln10 / 80 * ln10 / 140) ** 0.25
    structural = math.log(7) / math.log(13)
    assert pair.lexical == pytest.approx(1 - bleu)
    assert pair.structural == pytest.approx(structural)
    assert (pair.file, pair.gamma) == (0.0, 0.0)
    assert pair.value == pytest.approx((1 - bleu) * structural)
    assert result.value == pytest.approx(LN2 * (1 - bleu) * structural)
    assert not any("needs the file's source" in w for w in result.warnings)


PURE_ADDITION_DIFF = b"""\
--- a/A.java
+++ b/A.java
@@ -3,0 +4 @@ class A {
+        int z = 3;
@@ -6 +7 @@ class A {
-        int y = 2;
+        int y = 20;
"""


def test_pure_addition_anchors_at_its_insertion_point(tmp_path: Path) -> None:
    """Hunk 0 only adds `int z = 3;` as post-image line 4 (span 4-4, its ExpressionStmt
    in f); hunk 1 changes post-image line 7 (g's statement). The post-image's tree is
    TWO_METHODS' with one more statement in f (diameter still 12), the anchors are 6
    edges apart: birch S = ln 7 / ln 13 as in the test above.
    birch L: ref = int z = 3 ; (5), hyp = int y = 2 ; int y = 20 ; (10):
    p1 = clipped int1 =1 ;1 -> 3/10; p2 = 0/9, p3 = 0/8, p4 = 0/7 smoothed in turn:
    ln10/(2*5*9), ln10/(4*5*8), ln10/(8*5*7); BP = 1 (10 > 5).
    default: bag 0 = +local_variable_declaration +integral_type +variable_declarator
    +identifier +decimal_integer_literal (all 1); bag 1 = {~decimal_integer_literal: 1}
    (2 -> 20; int/int and y/y equal): no common key, S = 1.
    tokens 0 = SEP int z = 3 ; (6); tokens 1 = int y = 2 ; SEP int y = 20 ; (11);
    LCS = SEP int = ; (4) -> >= 7, reached by inserting int y = 2 ; (5) and z->y, 3->20:
    L = 7/11; d = L * S = 7/11 (same file); Div = ln 2 * 7/11."""
    tree = write_tree(tmp_path / "tree", {"A.java": TWO_METHODS})
    birch = hunkmetrics.divergence(PURE_ADDITION_DIFF, profile="birch", source=tree)
    (pair,) = list(birch.pairs())
    ln10 = math.log(10)
    bleu = (3 / 10 * ln10 / 90 * ln10 / 160 * ln10 / 280) ** 0.25
    assert pair.structural == pytest.approx(math.log(7) / math.log(13))
    assert pair.lexical == pytest.approx(1 - bleu)

    found, _ = features(PURE_ADDITION_DIFF, source=tree)
    assert found[0].bag == {
        "+local_variable_declaration": 1,
        "+integral_type": 1,
        "+variable_declarator": 1,
        "+identifier": 1,
        "+decimal_integer_literal": 1,
    }
    assert found[1].bag == {"~decimal_integer_literal": 1}
    default = hunkmetrics.divergence(PURE_ADDITION_DIFF, source=tree)
    (pair,) = list(default.pairs())
    assert (pair.lexical, pair.structural) == (pytest.approx(7 / 11), 1.0)
    assert default.value == pytest.approx(LN2 * 7 / 11)


def test_birch_same_file_without_source_says_so() -> None:
    result = hunkmetrics.divergence(TWO_METHODS_DIFF, profile="birch")
    assert any("hunks 0,1" in w and "source" in w for w in result.warnings), result.warnings
    (pair,) = list(result.pairs())
    assert 0.0 <= pair.structural <= 1.0


# ---- birch: which hunks count --------------------------------------------------------------

WHOLE_FILE = b"""\
diff --git a/src/Old.java b/src/Old.java
deleted file mode 100644
index 1234567..0000000
--- a/src/Old.java
+++ /dev/null
@@ -1,3 +0,0 @@
-class Old {
-    int v = 1;
-}
diff --git a/src/Keep.java b/src/Keep.java
index 89abcde..fedcba9 100644
--- a/src/Keep.java
+++ b/src/Keep.java
@@ -2,3 +2,3 @@ class Keep {
     int f() {
-        return 1;
+        return 2;
     }
@@ -10,3 +10,3 @@ class Keep {
     int g() {
-        return 3;
+        return 4;
     }
"""


@pytest.mark.parametrize("reverse", [False, True])
def test_birch_leaves_out_whole_file_sections(reverse: bool) -> None:
    """Hunk 0 deletes src/Old.java (an added file after --reverse): default counts
    3 hunks (3 pairs), birch 2 (hunks 1, 2: one pair), naming hunk 0 as excluded."""
    default = hunkmetrics.divergence(WHOLE_FILE, reverse=reverse)
    assert default.hunk_count == 3 and default.excluded_hunks == ()
    assert [(p.i, p.j) for p in default.pairs()] == [(0, 1), (0, 2), (1, 2)]
    birch = hunkmetrics.divergence(WHOLE_FILE, profile="birch", reverse=reverse)
    assert birch.hunk_count == 2 and birch.hunk_indices == (1, 2)
    assert birch.excluded_hunks == (0,)
    assert [(p.i, p.j) for p in birch.pairs()] == [(1, 2)]
    assert any("hunks 0" in w and "not counted" in w for w in birch.warnings)
    assert birch.to_dict()["excluded_hunks"] == [0]


# ---- warnings ---------------------------------------------------------------------------


def test_no_grammar_warning_names_the_hunks() -> None:
    """Hunk 0 (Java) has a grammar, hunks 1 and 2 (.txt) do not. None of the three pairs
    is zero: every pair's token lists differ (L > 0), and so do the structures (hunk 0's
    Java bag {~decimal_integer_literal: 1} shares no key with the .txt hunks', hunk 2
    adds a number that hunk 1 does not)."""
    diff = b"""\
--- a/src/A.java
+++ b/src/A.java
@@ -2,3 +2,3 @@ class A {
     int f() {
-        return 1;
+        return 2;
     }
--- a/notes.txt
+++ b/notes.txt
@@ -1 +1 @@
-first draft
+second draft
@@ -5 +5 @@
-see above
+see page 3
"""
    result = hunkmetrics.divergence(diff, selection=hunkmetrics.ALL_FILES)
    grammar = [w for w in result.warnings if "no grammar" in w]
    assert len(grammar) == 1 and "hunks 1,2" in grammar[0] and ".txt" in grammar[0]
    assert any("no source given" in w and "hunks 0" in w for w in result.warnings)
    # the hunks differ: no pair is a silent zero
    assert all(p.lexical > 0 for p in result.pairs())
    assert all(p.value > 0 for p in result.pairs())


def test_no_source_warning_and_never_silent_zero() -> None:
    result = hunkmetrics.divergence(THREE_HUNKS)
    assert any(
        "no source given" in w and "hunks 0,1,2" in w and "hunks' own lines" in w
        for w in result.warnings
    )
    assert any(p.value > 0 for p in result.pairs()) and result.value > 0


def test_with_source_no_source_warning(calc_tree: Path) -> None:
    result = hunkmetrics.divergence(THREE_HUNKS, source=calc_tree)
    assert not any("no source" in w for w in result.warnings)


# ---- with real sources: the Java fixture project ------------------------------------------

STEM = "java_packages_far"


@pytest.fixture(scope="module")
def java_repo(tmp_path_factory: pytest.TempPathFactory):
    return build_fixture_repo(tmp_path_factory.mktemp("divergence"), "java-project")


def test_fixture_patch_with_git_revision(java_repo) -> None:
    """java_packages_far: hunk 0 in com/acme/core/util/Retry.java, hunks 1, 2 in
    org/other/Telemetry.java.
    F(0, 1) = F(0, 2): src,main,java,com,acme,core,util,Retry.java (8) vs
    src,main,java,org,other,Telemetry.java (6): equal 3, c = 2, F = 1 - 2/8 = 3/4
    (below 1, so birch = default). Different files: birch S = 1, g = 2;
    same file (1, 2): g = 0, F = 0, birch S a path distance in (0, 1] (two methods).
    Birch L does not depend on the source."""
    patch = java_repo.patches[STEM]
    birch = hunkmetrics.divergence(patch, profile="birch", source=(java_repo.path, "base"))
    default = hunkmetrics.divergence(patch, source=(java_repo.path, "base"))
    no_source = hunkmetrics.divergence(patch, profile="birch")
    assert birch.hunk_count == default.hunk_count == 3
    for result in (birch, default):
        pairs = pair_map(result)
        for key in ((0, 1), (0, 2)):
            assert pairs[key].file == pytest.approx(0.75) and pairs[key].gamma == 2.0
        assert pairs[1, 2].file == 0.0 and pairs[1, 2].gamma == 0.0
        for p in pairs.values():
            assert p.value == pytest.approx(
                p.lexical * (p.structural + p.gamma * p.file) / (1 + p.gamma)
            )
        assert result.value == pytest.approx(LN3 * sum(p.value for p in pairs.values()) / 3)
    birch_pairs = pair_map(birch)
    assert birch_pairs[0, 1].structural == birch_pairs[0, 2].structural == 1.0
    assert 0.0 < birch_pairs[1, 2].structural <= 1.0
    assert [p.lexical for p in birch.pairs()] == [p.lexical for p in no_source.pairs()]
    assert all(0.0 <= p.structural <= 1.0 for p in default.pairs())
    assert not any(
        "no source" in w or "needs the file's source" in w
        for w in birch.warnings + default.warnings
    )


def test_fixture_post_image_worktree_equals_base_revision(java_repo, tmp_path: Path) -> None:
    """A worktree of fix/<stem> holds the post-image; the other side is derived, so every
    number equals the one computed from `base` (the pre-image)."""
    patch = java_repo.patches[STEM]
    post = worktree_at(java_repo.path, java_repo.branch(STEM), tmp_path / "post")
    for profile in ("birch", "default"):
        from_rev = hunkmetrics.divergence(patch, profile=profile, source=(java_repo.path, "base"))
        from_tree = hunkmetrics.divergence(patch, profile=profile, source=post)
        assert from_tree.to_dict() == from_rev.to_dict()
        assert from_tree.warnings == from_rev.warnings


# ---- profiles are pluggable ------------------------------------------------------------


def test_a_profile_with_its_own_components() -> None:
    """A component is a function of the counted hunks: a profile built around constant
    components gives the number the formula gives by hand. Two files, one hunk each
    (a/X.java, b/Y.java: no common first segment, m = 2): with L = S = 1 and g = 2,
    d = 1·(1 + 2F)/3; capped F = 1 → d = 1; uncapped F = 1 - (0 - 1)/2 = 1.5 → d = 4/3.
    Div = ln 2 · d."""
    import dataclasses

    import numpy as np

    from hunkmetrics.metrics.profiles import PairInputs, profile

    def ones(inputs: PairInputs) -> np.ndarray:
        n = len(inputs.hunks)
        return np.ones((n, n))

    diff = (
        b"--- a/a/X.java\n+++ b/a/X.java\n@@ -1 +1 @@\n-int x = 1;\n+int x = 2;\n"
        b"--- a/b/Y.java\n+++ b/b/Y.java\n@@ -1 +1 @@\n-int y = 1;\n+int y = 2;\n"
    )
    capped = dataclasses.replace(profile("default"), lexical=ones, structural=ones)
    assert hunkmetrics.divergence(diff, profile=capped).value == pytest.approx(LN2)
    uncapped = dataclasses.replace(capped, file_capped=False)
    assert hunkmetrics.divergence(diff, profile=uncapped).value == pytest.approx(LN2 * 4 / 3)
    # g = 0: d = L·S = 1 wherever the hunks are.
    flat = hunkmetrics.divergence(diff, profile=uncapped, distributed_weight=0.0)
    assert flat.value == pytest.approx(LN2)
