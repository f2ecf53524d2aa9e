"""The birch structural term: spans, anchors, distances, S (../shared/spec/birch-exact.md).

Expected values are worked out by hand in each docstring.
"""

from __future__ import annotations

import math
import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hunkmetrics.lang.javaparser_shape import shape_java
from hunkmetrics.metrics.ast_path import (
    FileStructure,
    anchor,
    diameter,
    distance,
    hunk_span,
    post_line_count,
    structural,
)

# ---- the span ----------------------------------------------------------------------


def test_post_line_count_adds_the_end_marker() -> None:
    """ "a\\nb\\n".split("\\n") has 3 items, + 1 = 4; CRLF and CR read as LF."""
    assert post_line_count("a\nb\n") == 4
    assert post_line_count("a\r\nb\r\n") == 4
    assert post_line_count("a\rb") == 3


def test_span_of_an_ordinary_hunk_is_its_changed_lines() -> None:
    """+10,8: post lines 10-12 context, 13-14 added, 15-17 context. E = 18:
    E-3 = 15 > S+2 = 12, so end = E-4 = 14 and start = S+3 = 13."""
    assert hunk_span(10, 8, 1000) == (13, 14)
    # one changed line (C = 7): E = 17, end = 13, start = 13
    assert hunk_span(10, 7, 1000) == (13, 13)


def test_a_pure_deletion_spans_between_two_lines() -> None:
    """+10,6 (no `+` line): E = 16, end = E-4 = 12, start = S+3 = 13 = end + 1."""
    assert hunk_span(10, 6, 1000) == (13, 12)


def test_short_hunk_at_the_top_follows_the_formula_as_written() -> None:
    """+1,5 (lines 1-2 changed, 3 context after): E = 6. end: E-3 = 3 is not > S+2 = 3,
    but 0 <= S <= 3, so end = E-4 = 2. start: S+2 = 3 is not < E-3 = 3 and E = 6 is not
    within N'-3..N' of a long file, so start = E-2 = 4: an inverted span (4, 2)."""
    assert hunk_span(1, 5, 1000) == (4, 2)


def test_short_hunk_at_the_bottom() -> None:
    """A 20-line file ending in a newline: N' = 21 + 1 = 22. +17,4 (3 context lines, then
    line 20 changed, no context after): E = 21. end: 18 > 19 fails and S > 3, so
    end = S+3 = 20; start: 19 < 18 fails but 19 <= 21 <= 22, so start = S+3 = 20."""
    assert post_line_count("x\n" * 20) == 22
    assert hunk_span(17, 4, 22) == (20, 20)


# ---- anchors, distances, S ---------------------------------------------------------

TWO_IFS = """class A {
  void f() {
    if (p()) {
      a();
    }
    if (q()) {
      b();
    }
  }
}
"""


def test_header_line_of_a_multi_line_if_anchors_on_the_condition() -> None:
    """Closure_4's case, in small: the edited line is the header of a multi-line `if`.
    On line 3 the one-line nodes are the condition's MethodCallExpr and its SimpleName
    (the IfStmt and its BlockStmt run on to line 5), so the anchor is the call; likewise
    on line 6. Path: call -> IfStmt -> method BlockStmt -> IfStmt -> call = 4 edges.
    Depths: CU 0, class 1, method 2, BlockStmt 3, IfStmt 4, call 5 and the if's block 5,
    ExpressionStmt 6, call 7, SimpleName 8. The longest path joins `a` and `b` through the
    method's block: 5 + 5 = 10. S = ln 5 / ln 11."""
    tree = shape_java(TWO_IFS.encode())
    first, second = anchor(tree, 3, 3), anchor(tree, 6, 6)
    assert tree.kind_name(first) == tree.kind_name(second) == "MethodCallExpr"
    assert tree.kind_name(int(tree.parent[first])) == "IfStmt"
    assert distance(tree, first, second) == 4
    assert diameter(tree) == 10
    s = FileStructure.of(tree).pair_matrix([(3, 3), (6, 6)])
    assert s[0, 1] == pytest.approx(math.log(5) / math.log(11))


def test_inverted_spans_of_deletions() -> None:
    """Lang_5's case, in small: a pure deletion has start = end + 1, and a node is a
    candidate when begin <= start and end >= end, so any node touching either of the two
    lines qualifies. A deletion between lines 4 and 5 of TWO_IFS, span (5, 4): `a();` on
    line 4 is a one-line node, so its ExpressionStmt is the anchor (the first one-line
    node in pre-order). Between lines 8 and 9, span (9, 8): no one-line node on either
    line (both are closing braces); the second if (6-8, 2 lines) and its block tie as
    smallest, the IfStmt wins. ExpressionStmt -> block -> IfStmt -> method block ->
    IfStmt = 4 edges."""
    tree = shape_java(TWO_IFS.encode())
    statement, second_if = anchor(tree, 5, 4), anchor(tree, 9, 8)
    assert tree.kind_name(statement) == "ExpressionStmt"
    assert (int(tree.begin[statement]), int(tree.end[statement])) == (4, 4)
    assert tree.kind_name(second_if) == "IfStmt"
    assert (int(tree.begin[second_if]), int(tree.end[second_if])) == (6, 8)
    assert distance(tree, statement, second_if) == 4


def test_uncovered_span_anchors_on_the_compilation_unit() -> None:
    """Line 50 of a 10-line file: no node covers it, the anchor is the root."""
    assert anchor(shape_java(TWO_IFS.encode()), 50, 50) == 0


def test_diameter_of_a_single_node_reads_as_one() -> None:
    """An empty file is just the CompilationUnit: longest path 0, read as 1."""
    assert diameter(shape_java(b"")) == 1


def test_structural_formula() -> None:
    assert structural(0, 9) == 0.0
    assert structural(9, 9) == 1.0
    assert structural(1, 3) == pytest.approx(math.log(2) / math.log(4))


# ---- properties ----------------------------------------------------------------------

PROGRAM = """package p;
import java.util.List;
class A {
  private int x = 1;
  static { init(); }
  int f(int a, List<String> b) {
    if (a > 0) {
      for (String s : b) {
        g(s, a);
      }
    } else {
      x = a;
    }
    return x;
  }
  class B {
    void h() { f(1, null); }
  }
}
"""
LINES = PROGRAM.count("\n")
spans = st.tuples(st.integers(1, LINES + 1), st.integers(0, LINES + 1)).map(
    lambda t: (t[0], max(t[1], t[0] - 1))  # ordinary spans and deletions (start = end + 1)
)


@settings(max_examples=60, deadline=None)
@given(st.lists(spans, min_size=1, max_size=6))
def test_s_is_a_bounded_symmetric_distance(chosen: list[tuple[int, int]]) -> None:
    """S in [0, 1], S(h, h) = 0, S symmetric."""
    matrix = FileStructure.of(shape_java(PROGRAM.encode())).pair_matrix(chosen + chosen[:1])
    assert ((matrix >= 0) & (matrix <= 1)).all()
    assert (matrix == matrix.T).all()
    assert matrix[0, -1] == 0.0  # the same span twice


@settings(max_examples=40, deadline=None)
@given(
    st.lists(spans, min_size=2, max_size=5),
    st.lists(st.integers(0, 6), min_size=LINES, max_size=LINES),
)
def test_s_ignores_whitespace_that_keeps_line_numbers(
    chosen: list[tuple[int, int]], indents: list[int]
) -> None:
    """Re-indenting every line and doubling inner spaces changes no line number, so no
    anchor, distance or diameter."""
    reformatted = "".join(
        " " * indent + line.strip().replace(" ", "  ") + "\n"
        for indent, line in zip(indents, PROGRAM.splitlines(), strict=True)
    )
    before = FileStructure.of(shape_java(PROGRAM.encode())).pair_matrix(chosen)
    after = FileStructure.of(shape_java(reformatted.encode())).pair_matrix(chosen)
    assert (before == after).all()


# ---- real sources (the sample and the mirrors; skipped when absent) -------------------

MIRRORS = Path(os.environ.get("HUNKMETRICS_MIRRORS", "/work/.mirror"))
# Defects4J revision.id.fixed (framework/projects/<P>/active-bugs.csv of rjust/defects4j)
REAL = {
    "Closure_4": ("google+closure-compiler", "efefb736fccc2039b5fb079710b3f2ac82b8c6e4"),
    "Lang_5": ("apache+commons-lang", "4d46f014fb8ee44386feb5fec52509f35d0e36ea"),
}


def _post_image(bug: str, sample: Path) -> tuple[list[tuple[int, int]], bytes]:
    import hunkmetrics

    mirror, commit = REAL[bug]
    repo = MIRRORS / mirror / "repo"
    if not (repo / "HEAD").is_file():
        pytest.skip(f"{repo} is absent (fetch {mirror.replace('+', '/')} to run this)")
    found = subprocess.run(
        ["git", "--git-dir", str(repo), "cat-file", "-e", f"{commit}^{{commit}}"],
        capture_output=True,
    )
    if found.returncode != 0:
        pytest.skip(f"commit {commit} is absent from {repo}")
    ws = hunkmetrics.open_workspace(sample / "patches" / f"{bug}.diff", repo=repo, rev=commit)
    assert ws.sources is not None
    (file_diff,) = ws.patch.content_files
    texts = ws.sources.texts(file_diff)
    assert texts is not None and texts.post is not None
    lines = post_line_count(texts.post.decode("utf-8", errors="replace"))
    return [hunk_span(h.new_start, h.new_lines, lines) for h in file_diff.hunks], texts.post


def test_closure_4_published_s(sample_dir: Path) -> None:
    """Published 0.4940 = ln 5 / ln 26: 4 edges (call -> IfStmt -> BlockStmt -> IfStmt
    -> call) at diameter 25."""
    spans, post = _post_image("Closure_4", sample_dir)
    structure = FileStructure.of(shape_java(post))
    assert structure.diameter == 25
    assert f"{structure.pair_matrix(spans)[0, 1]:.4f}" == "0.4940"


def test_lang_5_published_s(sample_dir: Path) -> None:
    """Two pure deletions (inverted spans); published S 0.3333."""
    spans, post = _post_image("Lang_5", sample_dir)
    assert all(start == end + 1 for start, end in spans)
    assert f"{FileStructure.of(shape_java(post)).pair_matrix(spans)[0, 1]:.4f}" == "0.3333"
