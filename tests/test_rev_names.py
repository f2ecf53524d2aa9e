"""Every revision name git resolves is accepted as --rev, `:/<message>` included (it runs
to the end of the name, so it cannot be peeled with `^{commit}`); a name git does not
resolve is one line."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from hunkmetrics import open_workspace
from hunkmetrics.errors import HunkmetricsError

DIFF = (
    "diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n"
    "@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n"
)


def _commit(repo: Path, text: str, message: str) -> None:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    (repo / "calc.py").write_text(text)
    for args in (["add", "calc.py"], ["commit", "-q", "-m", message]):
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@e.x", *args],
            cwd=repo,
            env=env,
            check=True,
        )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    _commit(tmp_path, "def add(a, b):\n    return a - b\n", "initial calculator")
    _commit(tmp_path, "def add(a, b):\n    return a + b\n", "fix add")
    return tmp_path


@pytest.mark.parametrize("rev", [":/initial", "HEAD~1", "HEAD^", "@~1"])
def test_names_of_the_first_commit(repo: Path, rev: str) -> None:
    with open_workspace(DIFF.encode(), repo=repo, rev=rev) as workspace:
        (item,) = workspace.located()
        assert workspace.sources is not None
        # The first commit holds the pre-image: the hunk is placed in its sources.
        assert workspace.sources.side == "pre"
        assert item.location.method == "calc.add(a,b)"


def test_a_message_no_commit_has(repo: Path) -> None:
    with pytest.raises(HunkmetricsError, match="revision ':/no such message' does not exist"):
        open_workspace(DIFF.encode(), repo=repo, rev=":/no such message")
