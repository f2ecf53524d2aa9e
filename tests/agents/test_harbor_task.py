"""The gold patch of a Harbor trial's task (`readers/harbor_task.py`): where the task is
found and which patch in its `solution/` is the fix, on tasks written here as harbor
0.26.0's adapters write them (SWE-bench: a heredoc in solve.sh; Multi-SWE-bench: a
patch file; SWE-smith: the bug's patch applied with --reverse)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("tree_sitter_bash", reason="solve.sh is read with the shell parser")

from hunkmetrics.agents.readers.harbor_task import find_task, task_context  # noqa: E402
from hunkmetrics.patch.parse import parse_patch  # noqa: E402

FIX = """\
diff --git a/m.py b/m.py
--- a/m.py
+++ b/m.py
@@ -1,2 +1,2 @@
 def f():
-    return 1
+    return 2
"""
# The same change as SWE-smith keeps it: the patch that brings the bug in.
BUG = """\
diff --git a/m.py b/m.py
--- a/m.py
+++ b/m.py
@@ -1,2 +1,2 @@
 def f():
-    return 2
+    return 1
"""
# BUG reversed: each side's name and line swapped, as `git apply -R` reads it
BUG_REVERSED = """\
diff --git a/m.py b/m.py
--- b/m.py
+++ a/m.py
@@ -1,2 +1,2 @@
 def f():
-    return 1
+    return 2
"""


def make_task(root: Path, solution: dict[str, str], toml: str = "") -> Path:
    (root / "solution").mkdir(parents=True)
    (root / "task.toml").write_text(toml or 'schema_version = "1.4"\n')
    for name, text in solution.items():
        (root / "solution" / name).write_text(text)
    return root


def local(path: str) -> dict[str, object]:
    return {"task_id": {"path": path}, "config": {"task": {"path": path}}}


def hunks_of(text: str, reverse: bool = False) -> list[tuple[object, ...]]:
    """A patch's hunks as (file, ranges, lines), as measuring against it reads them."""
    return [
        (f.path, h.old_start, h.old_lines, h.new_start, h.new_lines,
         [(line.kind.value, line.text) for line in h.lines])
        for f in parse_patch(text, reverse=reverse).files
        for h in f.hunks
    ]  # fmt: skip


def context(tmp_path: Path, solution: dict[str, str], toml: str = ""):
    make_task(tmp_path / "tasks" / "t", solution, toml)
    warnings: list[str] = []
    found = task_context(tmp_path / "jobs" / "j" / "t__1", local("tasks/t"), warnings)
    return found, warnings


def heredoc(target: str, body: str, apply: str) -> str:
    return (
        f"#!/bin/bash\ncat > {target} << '__SOLUTION__'\n{body.rstrip()}\n__SOLUTION__\n{apply}\n"
    )


def test_a_heredoc_applied_with_patch(tmp_path):
    script = heredoc("/testbed/p.diff", FIX, "cd /testbed\npatch --fuzz=5 -p1 -i /testbed/p.diff")
    found, warnings = context(tmp_path, {"solve.sh": script})
    assert found is not None and warnings == []
    assert found.gold_patch == FIX
    assert found.gold_source == "harbor task t/solution/solve.sh (heredoc __SOLUTION__)"


def test_a_heredoc_applied_in_reverse_is_the_fix_reversed(tmp_path):
    apply = "git apply --verbose --reject --reverse /testbed/bug_patch.diff"
    found, _ = context(tmp_path, {"solve.sh": heredoc("/testbed/bug_patch.diff", BUG, apply)})
    assert found is not None and found.gold_patch == BUG and found.reverse
    # read in reverse, the bug's patch is the fix worked out by hand below
    assert hunks_of(BUG, reverse=True) == hunks_of(BUG_REVERSED)
    assert found.gold_source == (
        "harbor task t/solution/solve.sh (heredoc __SOLUTION__), reversed (solve.sh applies "
        "it with --reverse)"
    )


def test_a_patch_file_applied_with_minus_r_from_stdin(tmp_path):
    solve = "#!/bin/bash\ncd /app && patch -R -p1 < /solution/bug.patch\n"
    found, _ = context(tmp_path, {"solve.sh": solve, "bug.patch": BUG})
    assert found is not None and found.gold_patch == BUG and found.reverse
    # read in reverse, the bug's patch is the fix worked out by hand below
    assert hunks_of(BUG, reverse=True) == hunks_of(BUG_REVERSED)
    assert found.gold_source.startswith("harbor task t/solution/bug.patch, reversed")


def test_of_several_patch_files_the_one_solve_sh_applies(tmp_path):
    solve = "#!/bin/bash\ngit apply /solution/fix.diff\n"
    found, _ = context(tmp_path, {"solve.sh": solve, "fix.diff": FIX, "other.patch": BUG})
    assert found is not None and found.gold_patch == FIX
    assert found.gold_source == "harbor task t/solution/fix.diff"


def test_no_gold_patch_is_said(tmp_path):
    found, warnings = context(tmp_path, {"a.diff": FIX, "b.diff": BUG})
    assert found is None
    assert warnings == [
        "harbor task t: no gold patch (2 diffs in solution/ and solve.sh applies none of them)"
    ]
    found, warnings = context(tmp_path / "x", {"solve.sh": "#!/bin/bash\necho 42 > /app/out\n"})
    assert found is None
    assert warnings == [
        "harbor task t: no gold patch (no .diff/.patch in solution/ and no diff in "
        "solution/solve.sh)"
    ]


def test_repository_and_base_commit(tmp_path):
    toml = '[metadata]\nrepository = "o/r"\n'
    make_task(tmp_path / "tasks" / "t", {"fix.diff": FIX}, toml)
    (tmp_path / "tasks" / "t" / "tests").mkdir()
    # a SWE-bench instance as the adapters keep it: task.toml's repository comes first
    (tmp_path / "tasks" / "t" / "tests" / "config.json").write_text(
        '{"repo": "other/repo", "base_commit": "abc123", "patch": "..."}'
    )
    found = task_context(tmp_path / "j" / "t__1", local("tasks/t"), [])
    assert found is not None
    assert (found.repository, found.base_commit) == ("o/r", "abc123")


def test_where_a_task_is_looked_for(tmp_path):
    make_task(tmp_path / "run" / "tasks" / "t", {"fix.diff": FIX})
    trial = tmp_path / "elsewhere" / "j" / "t__1"
    # next to the job: not there; where Harbor ran (trial_uri less trials_dir/<trial>): there
    result = local("tasks/t") | {
        "trial_uri": (tmp_path / "run" / "jobs" / "j" / "t__1").as_uri(),
        "config": {"task": {"path": "tasks/t"}, "trials_dir": "jobs/j"},
    }
    assert find_task(trial, result).folder == tmp_path / "run" / "tasks" / "t"
    # an absolute path as recorded
    absolute = local(str(tmp_path / "run" / "tasks" / "t"))
    assert find_task(trial, absolute).folder == tmp_path / "run" / "tasks" / "t"
    # a git task: in its download_dir, else not here
    git = {
        "task_id": {"git_url": "https://example.org/r.git", "git_commit_id": "c0", "path": "x/t"},
        "config": {"task": {"path": "x/t", "download_dir": str(tmp_path / "run" / "tasks")}},
    }
    assert find_task(trial, git).folder == tmp_path / "run" / "tasks" / "t"
    del git["config"]
    lookup = find_task(trial, git)
    assert lookup.folder is None
    assert lookup.named == "git task https://example.org/r.git@c0 x/t"
    warnings: list[str] = []
    assert task_context(trial, git, warnings) is None
    assert warnings == [
        "harbor git task https://example.org/r.git@c0 x/t is not here: no gold patch from "
        "its solution/ (name one with --reference)"
    ]
