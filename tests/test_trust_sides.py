"""Side detection for plain `diff -U0` output (issue 15): without an `index` line, a
lone `@@ -0,0 +1,N @@` hunk reads as an added file and `@@ -1,N +0,0 @@` as a deleted
one (`FileDiff.status_guessed`). When the tree holds that file, git reads the hunk as
an insertion at its top (or as emptying it), and so must the side check."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

import hunkmetrics
from hunkmetrics.cli.app import app

runner = CliRunner()
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

INSERT_TOP = b"--- a/m.py\n+++ b/m.py\n@@ -0,0 +1 @@\n+import os\n"
EMPTY_ALL = b"--- a/m.py\n+++ b/m.py\n@@ -1,2 +0,0 @@\n-a = 1\n-b = 2\n"


def _tree(tmp_path: Path, text: str, patch: bytes) -> Path:
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "m.py").write_text(text)
    (tmp_path / "fix.diff").write_bytes(patch)
    return tree


def _git_accepts(tree: Path, patch: Path, *extra: str) -> bool:
    args = ["git", "apply", "--unidiff-zero", "--check", "-p1", *extra, str(patch)]
    return subprocess.run(args, cwd=tree, capture_output=True).returncode == 0


def _hunks(tree: Path, patch: Path) -> dict:
    result = runner.invoke(app, ["hunks", str(patch), "--repo", str(tree), "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_the_parser_guesses_added_and_deleted() -> None:
    (added,) = hunkmetrics.parse_patch(INSERT_TOP).files
    (deleted,) = hunkmetrics.parse_patch(EMPTY_ALL).files
    assert (added.status.value, added.status_guessed) == ("added", True)
    assert (deleted.status.value, deleted.status_guessed) == ("deleted", True)


@needs_git
def test_insertion_at_the_top_of_an_existing_file(tmp_path: Path) -> None:
    tree = _tree(tmp_path, "a = 1\nb = 2\n", INSERT_TOP)
    patch = tmp_path / "fix.diff"
    assert _git_accepts(tree, patch)
    document = _hunks(tree, patch)
    # The tree holds the pre-image: a = 1, b = 2; the post-image is import os above it.
    assert document["source"]["side"] == "pre"
    (hunk,) = document["hunks"]
    assert (hunk["old_start"], hunk["old_lines"], hunk["new_start"], hunk["new_lines"]) == (
        0,
        0,
        1,
        1,
    )
    assert (hunk["added"], hunk["removed"]) == (1, 0)


@needs_git
def test_insertion_into_an_existing_empty_file(tmp_path: Path) -> None:
    tree = _tree(tmp_path, "", INSERT_TOP)
    patch = tmp_path / "fix.diff"
    assert _git_accepts(tree, patch)
    assert _hunks(tree, patch)["source"]["side"] == "pre"


@needs_git
def test_a_file_emptied_read_at_its_post_image(tmp_path: Path) -> None:
    # The tree holds m.py after the patch: an empty file, which git's reverse
    # application (-R) accepts; the "deleted" file's pre-image is a = 1, b = 2.
    tree = _tree(tmp_path, "", EMPTY_ALL)
    patch = tmp_path / "fix.diff"
    assert _git_accepts(tree, patch, "-R")
    assert _hunks(tree, patch)["source"]["side"] == "post"


@needs_git
def test_deletion_at_the_top_of_a_longer_file(tmp_path: Path) -> None:
    # Not an emptied file: the first two lines go, c = 3 stays. The pre-image is the tree.
    tree = _tree(tmp_path, "a = 1\nb = 2\nc = 3\n", EMPTY_ALL)
    patch = tmp_path / "fix.diff"
    assert _git_accepts(tree, patch)
    assert _hunks(tree, patch)["source"]["side"] == "pre"


def test_an_added_file_still_absent_is_the_pre_image(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "other.py").write_text("x = 1\n")
    patch = tmp_path / "fix.diff"
    patch.write_bytes(INSERT_TOP)
    assert _hunks(tree, patch)["source"]["side"] == "pre"


def test_an_added_file_present_as_its_post_image(tmp_path: Path) -> None:
    tree = _tree(tmp_path, "import os\n", INSERT_TOP)
    assert _hunks(tree, tmp_path / "fix.diff")["source"]["side"] == "post"


@needs_git
def test_insertion_matching_the_first_line_is_no_added_file(tmp_path: Path) -> None:
    # m.py starts with the inserted line but has more: it cannot be the post-image of an
    # added file holding only that line, so the tree is the pre-image (as the second
    # file, changed in place, says too) and the hunk an insertion at the top. git agrees.
    patch = INSERT_TOP + b"--- a/n.py\n+++ b/n.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n"
    tree = _tree(tmp_path, "import os\nimport sys\n", patch)
    (tree / "n.py").write_text("x = 1\n")
    assert _git_accepts(tree, tmp_path / "fix.diff")
    with hunkmetrics.open_workspace(patch, repo=tree) as workspace:
        assert workspace.sources is not None
        assert workspace.sources.side == "pre"
        texts = workspace.sources.files["m.py"]
        assert texts.pre == b"import os\nimport sys\n"
        assert texts.post == b"import os\nimport os\nimport sys\n"
