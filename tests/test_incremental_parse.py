"""Incremental re-parsing of a post-image from its pre-image's tree (lang/incremental.py,
ParseCache.derive): the edits come from the hunks, checked against both texts, and the
tree is the one a fresh parse gives."""

from __future__ import annotations

from pathlib import Path

import pytest
import tree_sitter as ts

import hunkmetrics
from hunkmetrics.lang.incremental import Edit, hunk_edits
from hunkmetrics.lang.index import ParseCache
from hunkmetrics.lang.languages import rules_for_path
from hunkmetrics.patch.model import Hunk

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
PATCHES = FIXTURES / "patches"


def _hunks(diff: str) -> tuple[Hunk, ...]:
    return hunkmetrics.parse_patch(diff.encode()).files[0].hunks


def test_one_replaced_line_becomes_one_edit() -> None:
    """a/b/c -> a/X/Y/c, hunk -1,3 +1,4: the hunk's lines are bytes 0..6 of the old text
    (a\\nb\\nc\\n) and 0..8 of the new one (a\\nX\\nY\\nc\\n); rows 0..3 and 0..4."""
    old, new = b"a\nb\nc\n", b"a\nX\nY\nc\n"
    diff = "--- a/f.java\n+++ b/f.java\n@@ -1,3 +1,4 @@\n a\n-b\n+X\n+Y\n c\n"
    assert hunk_edits(old, new, _hunks(diff)) == [Edit(0, 6, 8, (0, 0), (3, 0), (4, 0))]


def test_later_hunks_are_placed_after_the_earlier_edits() -> None:
    """Two one-line hunks (-2,1 +2,2 and -5,1 +6,0 in a 6-line file, U0). The first edit
    is bytes 2..4 -> 2..8 ("b\\n" -> "b1\\nb2\\n"); the second sits after new line 5
    (row 5, byte 12 of a\\nb1\\nb2\\nc\\nd\\n), removing "e\\n": old end 14, new end 12."""
    old = b"a\nb\nc\nd\ne\nf\n"
    new = b"a\nb1\nb2\nc\nd\nf\n"
    diff = "--- a/f.java\n+++ b/f.java\n@@ -2,1 +2,2 @@\n-b\n+b1\n+b2\n@@ -5,1 +5,0 @@\n-e\n"
    assert hunk_edits(old, new, _hunks(diff)) == [
        Edit(2, 4, 8, (1, 0), (2, 0), (3, 0)),
        Edit(12, 14, 12, (5, 0), (6, 0), (5, 0)),
    ]


def test_a_last_line_without_newline() -> None:
    """ "x\\ny" -> "x\\nz\\n": the hunk -2,1 +2,1 covers byte 2..3 of the old text (its
    last line, no newline) and 2..4 of the new one; the old end is row 1, column 1."""
    old, new = b"x\ny", b"x\nz\n"
    diff = "--- a/f.java\n+++ b/f.java\n@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n+z\n"
    assert hunk_edits(old, new, _hunks(diff)) == [Edit(0, 3, 4, (0, 0), (1, 1), (2, 0))]


def test_hunks_that_do_not_describe_the_texts_give_no_edits() -> None:
    """Bytes outside the hunk differ (line 3, c vs C), or the hunk lies past the end:
    no edits (the cache then parses afresh)."""
    diff = "--- a/f.java\n+++ b/f.java\n@@ -1,1 +1,1 @@\n-a\n+A\n"
    assert hunk_edits(b"a\nb\nc\n", b"A\nb\nC\n", _hunks(diff)) is None
    beyond = "--- a/f.java\n+++ b/f.java\n@@ -9,1 +9,1 @@\n-a\n+A\n"
    assert hunk_edits(b"a\n", b"A\n", _hunks(beyond)) is None


def _shape(tree: ts.Tree) -> list[tuple[object, ...]]:
    """Every node of the tree in pre-order with its field, type, ranges and flags."""
    out: list[tuple[object, ...]] = []
    cursor = tree.walk()
    while True:
        node = cursor.node
        assert node is not None
        out.append(
            (
                cursor.field_name,
                node.type,
                node.start_byte,
                node.end_byte,
                tuple(node.start_point),
                tuple(node.end_point),
                node.is_missing,
                node.is_error,
            )
        )
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return out


FIXTURE_PATCHES = sorted(p.stem for p in PATCHES.glob("*.diff"))


@pytest.mark.parametrize("stem", FIXTURE_PATCHES)
def test_incremental_tree_equals_a_fresh_parse_on_the_fixtures(stem: str) -> None:
    """Each fixture file with both images: the post-image tree the workspace's cache
    gives after the pre-image's (incremental) has the s-expression and every node range
    of a fresh parse."""
    project = FIXTURES / ("java-project" if stem.startswith("java") else "python-project")
    with hunkmetrics.open_workspace(PATCHES / f"{stem}.diff", repo=project) as ws:
        assert ws.sources is not None
        for file_diff in ws.patch.content_files:
            texts = ws.sources.texts(file_diff)
            rules = rules_for_path(file_diff.path)
            if texts is None or texts.pre is None or texts.post is None or rules is None:
                continue
            ws.cache.tree(rules, texts.pre)
            before = ws.cache.incremental_parses
            tree = ws.cache.tree(rules, texts.post)
            fresh = rules.parser().parse(texts.post)
            if not fresh.root_node.has_error:
                assert ws.cache.incremental_parses == before + 1
            assert str(tree.root_node) == str(fresh.root_node)
            assert _shape(tree) == _shape(fresh)
            # the other way round: the post-image first, the pre-image from its tree
            cache = ParseCache()
            cache.derive(texts.pre, texts.post, file_diff.hunks)
            cache.tree(rules, texts.post)
            back = cache.tree(rules, texts.pre)
            fresh_pre = rules.parser().parse(texts.pre)
            assert cache.incremental_parses == (0 if fresh_pre.root_node.has_error else 1)
            assert _shape(back) == _shape(fresh_pre)


def test_a_java_file_edited_in_three_places() -> None:
    """A class whose method bodies change in three hunks (one of them adds a method):
    the incremental tree is the fresh one, and the cache counted it as incremental;
    likewise from the post-image to the pre-image."""
    old = (
        b"class A {\n"
        b"    int f() {\n        return 1;\n    }\n"
        b"    int g() {\n        return 2;\n    }\n"
        b"    int h() {\n        return 3;\n    }\n"
        b"}\n"
    )
    new = (
        b"class A {\n"
        b"    int f() {\n        return 10;\n    }\n"
        b"    int g() {\n        return 2;\n    }\n"
        b"    int g2() {\n        return g() * 2;\n    }\n"
        b"    int h() {\n        if (f() > 1) { return 0; }\n        return 3;\n    }\n"
        b"}\n"
    )
    diff = (
        "--- a/A.java\n+++ b/A.java\n"
        "@@ -3 +3 @@\n-        return 1;\n+        return 10;\n"
        "@@ -7,0 +8,3 @@\n+    int g2() {\n+        return g() * 2;\n+    }\n"
        "@@ -8,0 +12 @@\n+        if (f() > 1) { return 0; }\n"
    )
    rules = rules_for_path("A.java")
    assert rules is not None
    cache = ParseCache()
    cache.derive(old, new, _hunks(diff))
    cache.tree(rules, old)
    tree = cache.tree(rules, new)
    assert cache.incremental_parses == 1 and cache.parses == 2
    fresh = rules.parser().parse(new)
    assert _shape(tree) == _shape(fresh)
    # parsed the other way round, the pre-image comes from the post-image's tree
    cache = ParseCache()
    cache.derive(old, new, _hunks(diff))
    cache.tree(rules, new)
    back = cache.tree(rules, old)
    assert cache.incremental_parses == 1 and cache.parses == 2
    assert _shape(back) == _shape(rules.parser().parse(old))
