"""The harness's own view of a task: which files an agent's patch touches, and where a
gold patch's repository is found under --repos."""

from __future__ import annotations

import subprocess
from pathlib import Path

from hunkmetrics.agents.evaluate import find_repository, patch_touches, task_reference
from hunkmetrics.agents.model import TaskContext


def _diff(*paths: str) -> bytes:
    parts = []
    for path in paths:
        parts.append(
            f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -1 +1 @@\n-a\n+b\n"
        )
    return "".join(parts).encode()


def test_touches_sorts_source_tests_and_other_files() -> None:
    data = _diff(
        "src/pkg/core.py",
        "tests/conftest.py",
        "conftest.py",
        "src/pkg/test_core.py",
        "docs/usage.rst",
        "README.md",
        "ñandú/módulo.py",
    )
    assert patch_touches(data) == {
        "source": ["src/pkg/core.py", "ñandú/módulo.py"],
        "tests": ["tests/conftest.py", "conftest.py", "src/pkg/test_core.py"],
        "other": ["docs/usage.rst", "README.md"],
    }


def test_touches_of_text_that_is_no_diff_is_none() -> None:
    assert patch_touches(b"I could not fix it.\n") is None


def _git_repo(folder: Path) -> Path:
    folder.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    return folder


def test_repository_found_as_org_slash_repo_org__repo_or_repo(tmp_path: Path) -> None:
    nested = _git_repo(tmp_path / "astropy" / "astropy")
    flat = _git_repo(tmp_path / "django__django")
    short = _git_repo(tmp_path / "flask")
    assert find_repository(str(tmp_path), "astropy/astropy") == str(nested)
    assert find_repository(str(tmp_path), "django/django") == str(flat)
    assert find_repository(str(tmp_path), "pallets/flask") == str(short)
    assert find_repository(str(tmp_path), "sympy/sympy") is None
    # a folder that is not a repository does not count
    (tmp_path / "psf__requests").mkdir()
    assert find_repository(str(tmp_path), "psf/requests") is None


def test_task_reference_without_its_repository_says_it_is_diff_only(tmp_path: Path) -> None:
    task = TaskContext(
        gold_patch="diff --git a/a.py b/a.py\n", gold_source="dataset x.jsonl", repository="o/r"
    )
    warnings: list[str] = []
    reference = task_reference(task, str(tmp_path), warnings)
    assert (reference.repo, reference.rev, reference.name) == (None, None, "dataset x.jsonl")
    assert reference.data == b"diff --git a/a.py b/a.py\n"
    assert warnings == [
        f"no repository o/r under {tmp_path}: the gold patch is placed from the diff alone"
    ]


def test_task_reference_at_the_base_commit(tmp_path: Path) -> None:
    repo = _git_repo(tmp_path / "o__r")
    task = TaskContext(gold_patch="x", repository="o/r", base_commit="abc123")
    warnings: list[str] = []
    reference = task_reference(task, str(tmp_path), warnings)
    assert (reference.repo, reference.rev, warnings) == (str(repo), "abc123", [])
