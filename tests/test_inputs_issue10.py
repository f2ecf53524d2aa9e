"""Issue 10's input cases, each checked: a merge diff, a two-commit mbox, git's quoted
names, a path with a space, a huge line number."""

from __future__ import annotations

from pathlib import Path

import pytest
from gitrepo import git

import hunkmetrics
from hunkmetrics.errors import PatchError

COMBINED = b"""diff --cc src/a.c
index 1111111,2222222..3333333
--- a/src/a.c
+++ b/src/a.c
@@@ -1,1 -1,1 +1,1 @@@
- int x = 1;
 -int x = 2;
++int x = 3;
"""


def _mail(sha: str, subject: str, path: str) -> str:
    return f"""From {sha} Mon Sep 17 00:00:00 2001
From: Ada <ada@example.org>
Date: Mon, 1 Jan 2024 12:00:00 +0000
Subject: [PATCH] {subject}

---
 {path} | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/{path} b/{path}
--- a/{path}
+++ b/{path}
@@ -1 +1 @@
-a = 1
+a = 2
--
2.43.0

"""


def test_a_merge_diff_says_how_to_make_one() -> None:
    with pytest.raises(PatchError, match=r"combined diff .*git diff <parent> <commit>"):
        hunkmetrics.parse_patch(COMBINED)


def test_a_two_commit_mbox_is_refused_one_commit_is_read() -> None:
    one = _mail("1" * 40, "one", "pkg/a.py")
    two = one + _mail("2" * 40, "two", "pkg/b.py")
    assert [f.path for f in hunkmetrics.parse_patch(one).files] == ["pkg/a.py"]
    with pytest.raises(PatchError, match="an mbox of 2 commits"):
        hunkmetrics.parse_patch(two)


def test_quoted_names_are_decoded() -> None:
    diff = b"""diff --git "a/src/caf\\303\\251.java" "b/src/caf\\303\\251.java"
--- "a/src/caf\\303\\251.java"
+++ "b/src/caf\\303\\251.java"
@@ -1 +1 @@
-int a;
+int b;
"""
    assert [f.path for f in hunkmetrics.parse_patch(diff).files] == ["src/caf\u00e9.java"]


def test_a_path_with_a_space_against_a_git_revision(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    git(repo, "init", "-q")
    (repo / "src" / "my file.py").write_text("def f():\n    return 1\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "one")
    (repo / "src" / "my file.py").write_text("def f():\n    return 2\n")
    diff = git(repo, "diff")
    with hunkmetrics.open_workspace(diff, repo=repo, rev="HEAD") as ws:
        (item,) = ws.located()
        assert ws.sources is not None and ws.sources.side == "pre"
    assert item.file.path == "src/my file.py"
    assert item.location.method is not None and item.location.method.endswith("f()")


def test_a_huge_line_number_is_a_clear_error() -> None:
    diff = b"--- a/x.py\n+++ b/x.py\n@@ -99999999,3 +1,3 @@\n a\n-b\n+c\n d\n"
    with pytest.raises(PatchError, match="99999999 in the @@ header is over"):
        hunkmetrics.parse_patch(diff)
