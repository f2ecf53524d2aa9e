"""`--max-memory` (issue 22): a patch that needs more memory than a worker may use becomes
one row that says so; the other rows are unaffected and no process is left behind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from hunkmetrics.errors import HunkmetricsError, MemoryLimitError, error_line, size_text
from hunkmetrics.memory import default_limit, machine_memory, parse_size, resolve_limit

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/statm").exists(), reason="needs Linux /proc to see worker sizes"
)

SMALL = """diff --git a/src/{name}.py b/src/{name}.py
--- a/src/{name}.py
+++ b/src/{name}.py
@@ -1,3 +1,3 @@
 def f():
-    return 1
+    return 2
 
"""


def _big(lines: int) -> str:
    """A new file of `lines` one-letter lines: a hunk of 3 million lines takes far more
    than 600 MB to read (too many lines to parse, so no tree is built)."""
    return (
        "diff --git a/src/big.py b/src/big.py\nnew file mode 100644\n--- /dev/null\n"
        f"+++ b/src/big.py\n@@ -0,0 +1,{lines} @@\n" + "+x\n" * lines
    )


def _processes_with(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if marker.encode() in environ:
            found.append(int(entry.name))
    return found


def test_a_patch_over_the_limit_is_one_row_and_nothing_is_left(tmp_path):
    patches = tmp_path / "patches"
    patches.mkdir()
    (patches / "small1.diff").write_text(SMALL.format(name="a"))
    (patches / "small2.diff").write_text(SMALL.format(name="b"))
    (patches / "big.diff").write_text(_big(3_000_000))
    out = tmp_path / "out.jsonl"
    marker = f"HUNKMETRICS_TEST_RUN={uuid.uuid4().hex}"
    key, value = marker.split("=")
    result = subprocess.run(
        [sys.executable, "-m", "hunkmetrics", "batch", str(patches), "--out", str(out)]
        + ["--jobs", "2", "--max-memory", "600M"],
        capture_output=True,
        text=True,
        env={**os.environ, key: value},
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    rows = {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert rows["small1"]["error"] is None and rows["small2"]["error"] is None
    assert rows["small1"]["hunk_count"] == rows["small2"]["hunk_count"] == 1
    error = rows["big"]["error"]
    assert error.startswith("needs more than 600 MB of memory"), error
    assert error.endswith("raise --max-memory or split it")
    assert "internal error" not in error
    assert _processes_with(marker) == []  # no worker outlived the run


def test_sizes_are_read_as_people_write_them():
    assert parse_size("4G") == 4 << 30
    assert parse_size("512M") == 512 << 20
    assert parse_size("1.5GB") == int(1.5 * (1 << 30))
    assert parse_size("700MiB") == 700 << 20
    assert parse_size("0") is None and parse_size("unlimited") is None
    with pytest.raises(HunkmetricsError, match="give a size"):
        parse_size("lots")
    with pytest.raises(HunkmetricsError, match="at least 64M"):
        parse_size("1M")
    assert size_text(9 << 30) == "9.0 GB" and size_text(300 << 20) == "300 MB"


def test_the_default_shares_three_quarters_of_the_machine():
    total = machine_memory()
    if total is None:
        pytest.skip("this platform does not say how much memory it has")
    assert default_limit(2) == int(total * 0.75 / 2)
    assert resolve_limit("auto", 4) == int(total * 0.75 / 4)
    assert resolve_limit(None, 2) is None and resolve_limit("2G", 1) == 2 << 30


def test_a_memory_error_row_says_what_to_do():
    # In a process with no limit the machine itself ran out; with one, the limit is named.
    assert "internal error" not in error_line(MemoryError())
    assert error_line(MemoryLimitError("needs more than 1.0 GB of memory")) == (
        "needs more than 1.0 GB of memory"
    )


def test_an_evaluated_run_out_of_memory_is_its_own_row(monkeypatch):
    from hunkmetrics.agents import evaluate
    from hunkmetrics.agents.runs import Run

    def exhausted(*args: object) -> object:
        raise MemoryError

    monkeypatch.setattr(evaluate, "_evaluate", exhausted)
    record = evaluate.evaluate_run(Run("claude", "Chart-1", "t.jsonl"), None, evaluate.Settings())
    assert record["id"] == "claude/Chart-1"
    assert record["error"] == error_line(MemoryError())
    assert "raise --max-memory" in record["error"] or "machine had no more" in record["error"]


def test_a_mined_commit_over_the_limit_keeps_its_counts():
    from hunkmetrics.datasets.mine import _crashed

    class Candidate:
        hunk_count = 10_498

        def meta(self) -> dict[str, object]:
            return {"id": "bc5d771a06", "error": None}

    record = _crashed(Candidate(), MemoryLimitError("needs more than 1.0 GB of memory; x"))  # type: ignore[arg-type]
    assert record == {
        "id": "bc5d771a06",
        "error": "needs more than 1.0 GB of memory; x",
        "hunk_count": 10_498,
    }
    crash = _crashed(Candidate(), RuntimeError("boom"))  # type: ignore[arg-type]
    assert crash["error"].startswith("the worker process died")
