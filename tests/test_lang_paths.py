"""The path helpers of the hot paths take a path apart exactly as PurePosixPath does."""

from __future__ import annotations

from pathlib import PurePosixPath

import pytest

from hunkmetrics.lang.paths import directory_package, parent, path_parts, suffix

PATHS = [
    "",
    ".",
    "..",
    "/",
    "//",
    "A.java",
    ".gitignore",
    "archive.tar.gz",
    "trailing.",
    "src/main/java/p/A.java",
    "src/main/java/p/A.JAVA",
    "a/b/",
    "a/b/.",
    "a/./b.py",
    "a//b.py",
    "./a.py",
    "/abs/a.py",
    "//two/a.py",
    "a/../b.c",
    "a/..",
    "dir.d/file",
    "dir.d/.hidden",
    "a\\b.py",
    ".github/workflows/ci.yml",
]


@pytest.mark.parametrize("path", PATHS)
def test_as_pure_posix_path(path: str) -> None:
    pure = PurePosixPath(path)
    assert path_parts(path) == pure.parts
    assert parent(path) == str(pure.parent)
    assert suffix(path) == pure.suffix


def test_by_hand() -> None:
    assert suffix("src/A.java") == ".java" and suffix("Makefile") == ""
    assert suffix("a.tar.gz") == ".gz" and suffix(".bashrc") == ""
    assert parent("src/A.java") == "src" and parent("A.java") == "."
    assert path_parts("src/p/A.java") == ("src", "p", "A.java")
    assert directory_package("src/p/A.java") == "src/p" and directory_package("A.java") == ""
