"""Plain (non-git) diffs: how many leading directories their names carry.

A plain diff does not say whether `--- x/y.java` means the file `x/y.java` (`patch
-p0`) or `y.java` (`patch -p1`). Without sources hunkmetrics guesses from the names
(docs/patches.md); with a tree it tries the other readings when the guess does not fit
the tree, as `patch` looks for the files it is to change; `strip=` says it outright.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hunkmetrics import open_workspace, parse_patch
from hunkmetrics.errors import PatchError, SourceError

# One file, the same name on both sides: nothing in the names shows a prefix.
SAME_NAMES = (
    b"--- x b/Y.java\n"
    b"+++ x b/Y.java\n"
    b"@@ -2,3 +2,3 @@\n"
    b"     void m() {\n"
    b"-        a();\n"
    b"+        b();\n"
    b"     }\n"
)
Y_JAVA = b"class Y {\n    void m() {\n        a();\n    }\n}\n"


def _tree(root: Path, files: dict[str, bytes]) -> Path:
    for name, data in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return root


def test_explicit_strip_removes_that_many_directories() -> None:
    assert [f.path for f in parse_patch(SAME_NAMES).files] == ["x b/Y.java"]  # guess: kept
    assert [f.path for f in parse_patch(SAME_NAMES, strip=0).files] == ["x b/Y.java"]
    assert [f.path for f in parse_patch(SAME_NAMES, strip=1).files] == ["Y.java"]


def test_strip_longer_than_a_name_is_one_clear_error() -> None:
    with pytest.raises(PatchError, match=r"cannot strip 2 directories from 'x b/Y.java'"):
        parse_patch(SAME_NAMES, strip=2)


@pytest.mark.parametrize("bad", [-1, True, 1.0])
def test_strip_must_be_a_whole_number(bad: object) -> None:
    with pytest.raises(PatchError, match="strip must be a whole number"):
        parse_patch(SAME_NAMES, strip=bad)  # type: ignore[arg-type]


def test_git_sections_keep_their_own_prefixes() -> None:
    git = b"diff --git a/src/Y.java b/src/Y.java\n--- a/src/Y.java\n+++ b/src/Y.java\n"
    git += SAME_NAMES.split(b"\n", 2)[2]
    assert [f.path for f in parse_patch(git, strip=0).files] == ["src/Y.java"]


def test_a_tree_decides_when_the_guess_does_not_fit(tmp_path: Path) -> None:
    tree = _tree(tmp_path, {"Y.java": Y_JAVA})
    with open_workspace(SAME_NAMES, repo=tree) as workspace:
        assert [f.path for f in workspace.patch.files] == ["Y.java"]
        assert any("-p1" in warning for warning in workspace.warnings)
        (located,) = workspace.located()
        assert located.location.method is not None
        assert "m" in located.location.method


def test_the_guess_stays_when_it_fits(tmp_path: Path) -> None:
    tree = _tree(tmp_path, {"x b/Y.java": Y_JAVA})
    with open_workspace(SAME_NAMES, repo=tree) as workspace:
        assert [f.path for f in workspace.patch.files] == ["x b/Y.java"]
        assert not any("-p1" in warning or "-p0" in warning for warning in workspace.warnings)


def test_a_p0_deletion_under_a_directory_named_a(tmp_path: Path) -> None:
    # `a/b/C.java` facing /dev/null looks like git's a/ prefix; in this -p0 diff it is
    # the file's own name, and the other file's equal names show no prefix.
    diff = (
        b"--- a/b/C.java\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-class C {\n-}\n"
        b"--- lib/u.js\n+++ lib/u.js\n@@ -1 +1 @@\n-var a = 1;\n+var a = 2;\n"
    )
    assert [f.path for f in parse_patch(diff).files] == ["b/C.java", "lib/u.js"]
    tree = _tree(tmp_path, {"a/b/C.java": b"class C {\n}\n", "lib/u.js": b"var a = 1;\n"})
    with open_workspace(diff, repo=tree) as workspace:
        assert [f.path for f in workspace.patch.files] == ["a/b/C.java", "lib/u.js"]
        assert any("-p0" in warning for warning in workspace.warnings)


def test_an_explicit_strip_is_not_second_guessed(tmp_path: Path) -> None:
    tree = _tree(tmp_path, {"Y.java": Y_JAVA})
    with pytest.raises(SourceError):
        open_workspace(SAME_NAMES, repo=tree, strip=0)


def test_no_reading_fits_reports_the_guess(tmp_path: Path) -> None:
    tree = _tree(tmp_path, {"Other.java": Y_JAVA})
    with pytest.raises(SourceError, match="x b/Y.java"):
        open_workspace(SAME_NAMES, repo=tree)


def test_a_patch_file_read_again_keeps_its_name(tmp_path: Path) -> None:
    tree = _tree(tmp_path / "tree", {"Y.java": Y_JAVA})
    patch = tmp_path / "fix.diff"
    patch.write_bytes(SAME_NAMES)
    with open_workspace(patch, repo=tree) as workspace:
        assert [f.path for f in workspace.patch.files] == ["Y.java"]
        assert workspace.patch.name == str(patch)
