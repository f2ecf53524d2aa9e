"""Nothing outside the repository is read, whatever the agent names."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hunkmetrics.maple import Maple, MapleError

from .conftest import index_of, project

SECRET = "class Secret { void leak() {} }\n"


@pytest.fixture
def guarded(tmp_path: Path) -> Maple:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "Secret.java").write_text(SECRET)
    root = project(tmp_path, "java-project")
    os.symlink(outside / "Secret.java", root / "Linked.java")  # a file link out of the tree
    os.symlink(outside, root / "linkdir")  # a directory link out of the tree
    inner = root / "src/main/java/com/acme/core/Order.java"
    os.symlink(inner, root / "Alias.java")  # a link inside the tree is fine
    return Maple(index_of(root, tmp_path))


@pytest.mark.parametrize(
    "name",
    [
        "../outside/Secret.java",
        "src/../../outside/Secret.java",
        "/etc/passwd",
        "Secret.java\0.java",
        "x" * 5000,
        "",
    ],
)
def test_bad_file_names_are_refused(guarded: Maple, name: str) -> None:
    with pytest.raises(MapleError):
        guarded.find_method_in_file("leak", name)
    with pytest.raises(MapleError):
        guarded.extract_class_skeleton(name)


def test_absolute_path_outside_is_refused_inside_is_accepted(guarded: Maple) -> None:
    outside = str(guarded.index.root.parent / "outside" / "Secret.java")
    with pytest.raises(MapleError, match="outside the repository"):
        guarded.find_class_in_file("Secret", outside)
    inside = str(guarded.index.root / "src/main/java/com/acme/core/Order.java")
    assert "class com.acme.core.Order" in guarded.find_class_in_file("Order", inside)


def test_symlinks_out_of_the_tree_are_never_indexed(guarded: Maple) -> None:
    assert "Linked.java" not in guarded.index.files
    assert not any(p.startswith("linkdir/") for p in guarded.index.files)
    assert "Alias.java" in guarded.index.files
    with pytest.raises(MapleError):
        guarded.find_class("Secret")
    with pytest.raises(MapleError):
        guarded.find_code("void leak()")
    with pytest.raises(MapleError, match="No source file matches"):
        guarded.extract_class_skeleton("Linked.java")


def test_a_link_swapped_to_point_outside_is_not_read(guarded: Maple) -> None:
    alias = guarded.index.root / "Alias.java"
    alias.unlink()
    os.symlink(guarded.index.root.parent / "outside" / "Secret.java", alias)
    with pytest.raises(MapleError):
        guarded.find_class("Secret")
    assert "Alias.java" not in guarded.index.files
