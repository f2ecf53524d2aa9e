"""The toy repository of fixtures/harnesses/inspect/swe.eval, written again here: its files
and its commit with fixed names and dates, so that the commit has the id the log names as
`base_commit` (fixtures/harnesses/make_inspect_log.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path

CALC = """def add(a, b):
    return a - b


def double(x):
    return x * 2


def triple(x):
    return x * 3


def scale(values, k):
    return [v + k for v in values]
"""
TESTS = """from calc import add, scale


def test_add():
    assert add(2, 3) == 5


def test_scale():
    assert scale([1, 2], 3) == [3, 6]
"""
GOLD = (
    "diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n"
    "@@ -1,5 +1,5 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n \n \n"
    " def double(x):\n"
    "@@ -11,4 +11,4 @@ def triple(x):\n \n \n def scale(values, k):\n"
    "-    return [v + k for v in values]\n+    return [v * k for v in values]\n"
)
WHEN = "2026-01-01T00:00:00+00:00"
COMMIT_ENV = {
    "GIT_AUTHOR_NAME": "toy",
    "GIT_AUTHOR_EMAIL": "toy@example.com",
    "GIT_AUTHOR_DATE": WHEN,
    "GIT_COMMITTER_NAME": "toy",
    "GIT_COMMITTER_EMAIL": "toy@example.com",
    "GIT_COMMITTER_DATE": WHEN,
}


def git(folder: Path, *args: str) -> str:
    env = {"PATH": "/usr/bin:/bin:/usr/local/bin", "HOME": str(folder), **COMMIT_ENV}
    done = subprocess.run(
        ["git", *args], cwd=folder, env=env, check=True, capture_output=True, text=True
    )
    return done.stdout.strip()


def commit(folder: Path, files: dict[str, str]) -> str:
    """`files` committed as a new repository in `folder`; the commit's id."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    git(folder, "init", "-q")
    git(folder, "add", "-A")
    git(folder, "commit", "-qm", "toy")
    return git(folder, "rev-parse", "HEAD")


def toy_repository(folder: Path) -> str:
    """The toy repository (calc.py, test_calc.py) in `folder`; its commit's id."""
    return commit(folder, {"calc.py": CALC, "test_calc.py": TESTS})
