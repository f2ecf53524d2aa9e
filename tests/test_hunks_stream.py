"""`hunks` without sources reads the patch as a stream (issues 22 and 24): its memory does
not grow with the diff, and what it writes is what the whole-patch workspace gives."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hunkmetrics.cli.app import app
from hunkmetrics.documents import hunks_document
from hunkmetrics.documents.streamed import streamed_hunks_document
from hunkmetrics.errors import PatchError
from hunkmetrics.hunkstream import HunkStream
from hunkmetrics.lang.selection import ALL_FILES, DEFAULT_SELECTION, PathSelection
from hunkmetrics.patch.parse import parse_patch
from hunkmetrics.patch.source import FileSource, MemorySource
from hunkmetrics.patch.stream import StreamedPatch
from hunkmetrics.workspace import open_workspace

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()

SELECTIONS = [
    DEFAULT_SELECTION,
    ALL_FILES,
    PathSelection(ignore_comment_only=True),
    PathSelection(all_files=True, exclude_tests=False, ignore_comment_only=True),
    PathSelection(exclude=("*/p1/*",)),
]


def whole(data: bytes, selection: PathSelection, reverse: bool, hunking: str) -> str:
    """The hunks document of the whole-patch workspace, as JSON text, or the error."""
    try:
        workspace = open_workspace(data, reverse=reverse, hunking=hunking, selection=selection)  # type: ignore[arg-type]
        return json.dumps(hunks_document(workspace), indent=2, ensure_ascii=False)
    except PatchError as exc:
        return f"error: {exc}"


def streamed(data: bytes, selection: PathSelection, reverse: bool, hunking: str) -> str:
    """The same document made from the patch read as a stream."""
    try:
        patch = StreamedPatch(MemorySource(data), reverse=reverse, hunking=hunking)
        document = streamed_hunks_document(HunkStream(patch, selection))
        for key in ("excluded_files", "hunks", "warnings"):
            document[key] = list(document[key])  # lazy arrays (JsonRows) made here
        return json.dumps(document, indent=2, ensure_ascii=False)
    except PatchError as exc:
        return f"error: {exc}"


# ---- diffs of every kind -----------------------------------------------------------------

NAMES = ["A.java", "p1/B.java", "p1/BTest.java", "src/été/Ça.java", "x.py", "doc/readme.md"]
JAVA_LINES = [
    "package org.example;",
    "    int a = 1;",
    "    // a comment",
    "    void f() {",
    "    }",
    "",
    "    return b;",
    "  /** doc */",
]


@st.composite
def hunk_text(draw: st.DrawFn, start: int) -> tuple[str, int]:
    """One hunk starting at pre-image line `start`, and the next free line."""
    context = draw(st.lists(st.sampled_from(JAVA_LINES), max_size=3))
    removed = draw(st.lists(st.sampled_from(JAVA_LINES), max_size=3))
    added = draw(st.lists(st.sampled_from(JAVA_LINES), min_size=0 if removed else 1, max_size=3))
    crlf = draw(st.booleans())
    end = "\r\n" if crlf else "\n"
    body = [f" {t}{end}" for t in context] + [f"-{t}{end}" for t in removed]
    body += [f"+{t}{end}" for t in added]
    if draw(st.booleans()):
        body.append("\\ No newline at end of file\n")
    old, new = len(context) + len(removed), len(context) + len(added)
    header = f"@@ -{start},{old} +{start},{new} @@ class Foo {{\n"
    return header + "".join(body), start + old + 5


@st.composite
def section(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["modify", "add", "delete", "rename", "binary", "plain", "mode"]))
    name = draw(st.sampled_from(NAMES))
    other = draw(st.sampled_from(NAMES))
    if kind == "binary":
        return (
            f"diff --git a/{name} b/{name}\nindex 1234567..89abcde 100644\n"
            f"Binary files a/{name} and b/{name} differ\n"
        )
    if kind == "mode":
        return f"diff --git a/{name} b/{name}\nold mode 100644\nnew mode 100755\n"
    hunks, start = [], 1
    for _ in range(draw(st.integers(1, 3))):
        text, start = draw(hunk_text(start))
        hunks.append(text)
    if kind == "add":
        lines = draw(st.lists(st.sampled_from(JAVA_LINES), min_size=1, max_size=4))
        body = "".join(f"+{t}\n" for t in lines)
        return (
            f"diff --git a/{name} b/{name}\nnew file mode 100644\n--- /dev/null\n"
            f"+++ b/{name}\n@@ -0,0 +1,{len(lines)} @@\n{body}"
        )
    if kind == "delete":
        lines = draw(st.lists(st.sampled_from(JAVA_LINES), min_size=1, max_size=4))
        body = "".join(f"-{t}\n" for t in lines)
        return (
            f"diff --git a/{name} b/{name}\ndeleted file mode 100644\n--- a/{name}\n"
            f"+++ /dev/null\n@@ -1,{len(lines)} +0,0 @@\n{body}"
        )
    if kind == "rename":
        return (
            f"diff --git a/{other} b/{name}\nsimilarity index 90%\nrename from {other}\n"
            f"rename to {name}\n--- a/{other}\n+++ b/{name}\n" + "".join(hunks)
        )
    if kind == "plain":
        return f"--- a/{name}\n+++ b/{name}\n" + "".join(hunks)
    return f"diff --git a/{name} b/{name}\n--- a/{name}\n+++ b/{name}\n" + "".join(hunks)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(section(), min_size=1, max_size=6),
    st.sampled_from(SELECTIONS),
    st.booleans(),
    st.sampled_from(["as-given", "regions"]),
    st.sampled_from(["", "\ufeff", "crlf", "noise"]),
)
def test_the_streamed_document_is_the_whole_patch_document(
    sections: list[str], selection: PathSelection, reverse: bool, hunking: str, wrap: str
) -> None:
    """Non-ASCII paths, CRLF lines and CRLF-converted diffs, renames (from test files
    too), binary and mode-only files, /dev/null, "\\ No newline", plain sections, a BOM,
    text around the diff, and damaged diffs (errors must match too)."""
    text = "".join(sections)
    if wrap == "crlf":
        text = text.replace("\n", "\r\n")
    elif wrap == "noise":
        text = "From: someone\nSubject: fix\n\n" + text + "-- \n2.39\n"
    data = (wrap if wrap == "\ufeff" else "").encode() + text.encode("utf-8", "surrogateescape")
    assert streamed(data, selection, reverse, hunking) == whole(data, selection, reverse, hunking)


@settings(max_examples=40, deadline=None)
@given(st.lists(section(), min_size=1, max_size=5), st.integers(0, 400))
def test_a_cut_diff_fails_alike(sections: list[str], cut: int) -> None:
    data = "".join(sections).encode()[:cut]
    assert streamed(data, DEFAULT_SELECTION, False, "as-given") == whole(
        data, DEFAULT_SELECTION, False, "as-given"
    )


GIT = "diff --git a/A.java b/A.java\n--- a/A.java\n+++ b/A.java\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
MAIL = "From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n"


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"  \n\t\r\n",
        b"just some text\n",
        (MAIL + GIT + MAIL + GIT).encode(),
        (MAIL + GIT).encode(),
        b"\xff\xfe" + GIT.encode("utf-16-le"),
        b"\xfe\xff" + GIT.encode("utf-16-be"),
        b"\xff\xfe" + GIT.encode("utf-16-le") + b"x",  # a byte short of a character
        b"\xef\xbb\xbf" + GIT.encode(),
        GIT.replace("\n", "\r\n").encode()[:-2] + b"\r",  # a CRLF diff cut before its LF
        (GIT + "\\ No newline at end of file").encode(),
        b"diff --cc A.java\n@@@ -1,1 -1,1 +1,1 @@@\n",
        (GIT + "diff --git a/B.png b/B.png\nGIT binary patch\nliteral 1\nIcmZ?l\n\n").encode(),
        (GIT + "\n\n\n@@ -9 +9 @@\n-x\n+y\n").encode(),
        (GIT + "diff --git a/C.java b/C.java\nindex 1234567..89abcde 100644\n").encode(),
    ],
)
def test_special_inputs_read_alike(data: bytes) -> None:
    """Empty, blank, no diff, mbox, UTF-16 (valid or not), BOM, CRLF, combined, binary
    patch, blank lines between hunks, a header without a hunk."""
    for selection in (DEFAULT_SELECTION, ALL_FILES):
        assert streamed(data, selection, False, "as-given") == whole(
            data, selection, False, "as-given"
        )


@pytest.mark.parametrize("kept", [0, 1, 10_000])
def test_files_left_out_and_warnings_read_again_when_many(
    kept: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past `KEPT_ENTRIES`, the files left out and the warnings are read again from the
    patch when written, not kept: the document is the same."""
    from hunkmetrics import hunkstream

    monkeypatch.setattr(hunkstream, "KEPT_ENTRIES", kept)
    data = (ROOT / "fixtures" / "patches" / "java_rename_with_edits.diff").read_bytes()
    data += b"diff --git a/x.png b/x.png\nBinary files a/x.png and b/x.png differ\n"
    data += b"diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n"
    data += b"@@ -1 +1 @@\n-a\n+b\n"
    for selection in SELECTIONS:
        assert streamed(data, selection, False, "as-given") == whole(
            data, selection, False, "as-given"
        )


@pytest.mark.parametrize("format", ["json", "csv", "table"])
def test_the_command_writes_lists_read_again_alike(
    format: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hunkmetrics import hunkstream

    diff = tmp_path / "mixed.diff"
    data = (ROOT / "fixtures" / "patches" / "java_rename_with_edits.diff").read_bytes()
    diff.write_bytes(
        data + b"diff --git a/x.png b/x.png\nBinary files a/x.png and b/x.png differ\n"
    )
    args = ["hunks", str(diff), "-f", format]
    kept = runner.invoke(app, args, env={"COLUMNS": "200"})
    monkeypatch.setattr(hunkstream, "KEPT_ENTRIES", 0)
    again = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert kept.exit_code == again.exit_code == 0, again.output
    assert (kept.stdout, kept.stderr) == (again.stdout, again.stderr)
    assert "x.png: binary, excluded from metrics" in kept.stdout + kept.stderr


def test_streamed_files_are_the_parsed_files() -> None:
    data = (ROOT / "fixtures" / "patches" / "java_rename_with_edits.diff").read_bytes()
    for reverse in (False, True):
        for hunking in ("as-given", "regions"):
            patch = parse_patch(data, reverse=reverse, hunking=hunking)
            stream = StreamedPatch(MemorySource(data), reverse=reverse, hunking=hunking)
            assert tuple(stream.files()) == patch.files
            assert tuple(stream.files()) == patch.files  # read again from the start


def test_a_path_whose_sections_disagree_is_decided_as_the_whole_patch_decides() -> None:
    """A file renamed from a test file is a test file; a later section of the same path
    (a concatenated diff) is excluded with it, as PathSelection.apply does by path."""
    first = "diff --git a/src/A.java b/src/A.java\n--- a/src/A.java\n+++ b/src/A.java\n"
    first += "@@ -1 +1 @@\n-a\n+b\n"
    moved = (
        "diff --git a/src/test/java/ATest.java b/src/A.java\nrename from src/test/java/ATest.java\n"
    )
    moved += "rename to src/A.java\n--- a/src/test/java/ATest.java\n+++ b/src/A.java\n"
    moved += "@@ -1 +1 @@\n-c\n+d\n"
    for data in ((first + moved).encode(), (moved + first).encode()):
        assert streamed(data, DEFAULT_SELECTION, False, "as-given") == whole(
            data, DEFAULT_SELECTION, False, "as-given"
        )


def test_a_file_that_changes_between_passes_is_an_error(tmp_path: Path) -> None:
    diff = tmp_path / "fix.diff"
    diff.write_bytes((ROOT / "fixtures" / "patches" / "java_lambdas.diff").read_bytes())
    with FileSource(diff) as source:
        stream = HunkStream(StreamedPatch(source))
        with diff.open("ab") as handle:
            handle.write(b"\n")
        with pytest.raises(PatchError, match="changed while it was read"):
            list(stream.located())


@pytest.mark.parametrize("format", ["json", "csv", "table"])
def test_the_command_writes_what_the_workspace_document_says(format: str) -> None:
    """The same patch from a file (streamed) and from standard input (streamed from
    memory): one output."""
    patch = ROOT / "fixtures" / "patches" / "java_several_methods_one_file.diff"
    from_file = runner.invoke(app, ["hunks", str(patch), "-f", format], env={"COLUMNS": "200"})
    assert from_file.exit_code == 0, from_file.output
    if format == "json":
        document = hunks_document(open_workspace(str(patch)))
        assert from_file.stdout == json.dumps(document, indent=2, ensure_ascii=False) + "\n"


# ---- memory ------------------------------------------------------------------------------


def mixed_diff(megabytes: float) -> str:
    """Files of short text lines (40-line hunks) with a Java file every tenth."""
    size, parts, written, k = int(megabytes * 2**20), [], 0, 0
    while written < size:
        if k % 10 == 0:
            name = f"src/main/java/org/example/p{k % 7}/Type{k}.java"
            text = (
                f"diff --git a/{name} b/{name}\n--- a/{name}\n+++ b/{name}\n"
                f"@@ -10,5 +10,5 @@ public class Type{k} {{\n     void run() {{\n"
                f'         int a = {k};\n-        log.debug("old {k}");\n'
                f'+        log.info("new {k}");\n     }}\n }}\n'
            )
        else:
            name = f"docs/d{k % 13}/notes{k}.txt"
            body = "".join(f"-{'old words ' * 5}{k} {j}\n" for j in range(20))
            body += "".join(f"+{'new words ' * 5}{k} {j}\n" for j in range(20))
            head = f"diff --git a/{name} b/{name}\n--- a/{name}\n+++ b/{name}\n"
            text = f"{head}@@ -1,20 +1,20 @@\n{body}"
        parts.append(text)
        written += len(text)
        k += 1
    return "".join(parts)


_PEAK = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
assert done.returncode == 0, done.stderr[-2000:]
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)
"""


def peak_rss(diff: Path) -> int:
    """Peak resident memory (bytes) of `hunkmetrics hunks diff --all-files -f json`."""
    env = {**os.environ, "HUNKMETRICS_MAX_PATCH_BYTES": str(1 << 40), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "hunkmetrics", "hunks", str(diff), "--all-files", "-f", "json"]
    done = subprocess.run(
        [sys.executable, "-c", _PEAK, *command],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return int(done.stdout)


@pytest.mark.skipif(
    not Path("/proc/self/status").exists(), reason="needs Linux: ru_maxrss in kilobytes"
)
def test_hunks_memory_grows_by_at_most_twice_the_diff(tmp_path: Path) -> None:
    """Goal of issues 22 and 24: memory linear in the input, at most 2 x its size. The
    whole-patch command took 2.7 x more for each added byte of these diffs (53 MB for
    2 MB, 80 MB for 12 MB); streamed, 0.2 x (49 MB, 51 MB)."""
    small, large = tmp_path / "small.diff", tmp_path / "large.diff"
    small.write_text(mixed_diff(2))
    large.write_text(mixed_diff(12))
    grown = peak_rss(large) - peak_rss(small)
    added = large.stat().st_size - small.stat().st_size
    assert grown <= 2 * added, f"{grown / added:.2f} x the added input"
