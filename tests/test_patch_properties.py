"""Properties of patches made by git itself, over wide file names and contents.

Each example writes random files into a throwaway repository, commits them, edits,
renames or deletes some, and takes `git diff` with a random context size. Names mix
non-ASCII letters, spaces, quotes, backslashes and tabs (git C-quotes the last four
kinds and, by default, every non-ASCII byte); contents mix LF and CRLF endings and
files without a final newline. Whatever git wrote must parse to the names git was
given, apply to the pre-image to give the post-image byte for byte, apply in reverse
to give the pre-image back, survive `swapped()` twice unchanged, and re-cut into
regions the same way twice.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from gitrepo import git
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from hunkmetrics import parse_patch
from hunkmetrics.patch.model import FileStatus
from hunkmetrics.patch.regions import recut_regions
from hunkmetrics.sources.apply import apply_file

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

# Letters a file system accepts on every platform we run on, plus the awkward ones.
NAME_ALPHABET = st.sampled_from(
    list("abcXYZ019_-.") + list("éßжΩ中ü") + [" ", '"', "'", "\\", "\t"]
)
COMPONENT = st.text(NAME_ALPHABET, min_size=1, max_size=8).filter(
    lambda c: c not in (".", "..") and not c.startswith(".git") and c.strip() == c
)
PATH = st.lists(COMPONENT, min_size=1, max_size=3).map("/".join)
LINE = st.sampled_from(
    ["int a = 1;", "return a;", "}", "", "    x += 1", "# ü comment", "s = 'é'", "foo(a, b);"]
)


@st.composite
def file_text(draw: st.DrawFn) -> bytes:
    lines = draw(st.lists(LINE, min_size=0, max_size=12))
    eol = draw(st.sampled_from(["\n", "\r\n"]))
    text = "".join(line + eol for line in lines)
    if lines and lines[-1] and draw(st.booleans()):
        text = text[: -len(eol)]  # no newline at end of file
    return text.encode()


@st.composite
def edited(draw: st.DrawFn, old: bytes) -> bytes:
    lines = old.decode().splitlines(keepends=True)
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(lines)))
        action = draw(st.sampled_from(["insert", "delete", "replace"]))
        new_line = draw(LINE) + "\n"
        if action == "insert" or not lines or at == len(lines):
            lines.insert(at, new_line)
        elif action == "delete":
            del lines[at]
        else:
            lines[at] = new_line
    return "".join(lines).encode()


@dataclass
class Change:
    old_path: str | None
    new_path: str | None
    old: bytes | None
    new: bytes | None


@st.composite
def changes(draw: st.DrawFn) -> list[Change]:
    paths = draw(st.lists(PATH, min_size=1, max_size=4, unique_by=lambda p: p.casefold()))
    # No path may be a directory of another.
    paths = [p for p in paths if not any(q.startswith(p + "/") for q in paths if q != p)]
    out: list[Change] = []
    for path in paths:
        old = draw(file_text())
        kind = draw(st.sampled_from(["modify", "modify", "add", "delete", "rename"]))
        if kind == "add":
            out.append(Change(None, path, None, draw(edited(b""))))
        elif kind == "delete":
            out.append(Change(path, None, old + b"int gone = 1;\n", None))
        elif kind == "rename":
            # Enough unchanged lines that git sees a rename (similarity >= 50 %).
            body = b"".join(b"keep line %d;\n" % i for i in range(12))
            out.append(Change(path, path + "-moved", body, body + b"one more;\n"))
        else:
            new = draw(edited(old))
            if new != old:
                out.append(Change(path, path, old, new))
    return out


def _write(root: Path, path: str | None, data: bytes | None) -> None:
    if path is None or data is None:
        return
    target = root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)


def _git_diff(work: Path, changes: list[Change], context: int) -> bytes:
    git(work, "init", "-q")
    for change in changes:
        _write(work, change.old_path, change.old)
    git(work, "add", "-A")
    git(work, "commit", "-q", "--allow-empty", "-m", "pre")
    for change in changes:
        if change.old_path is not None:
            (work / change.old_path).unlink()
    for change in changes:
        _write(work, change.new_path, change.new)
    git(work, "add", "-A")
    return git(work, "diff", "--cached", "-M", f"-U{context}", "--no-color", "--no-ext-diff")


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
@given(changes(), st.integers(0, 5))
def test_git_diffs_parse_apply_and_reverse(changes: list[Change], context: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        try:
            diff = _git_diff(Path(tmp), changes, context)
        except subprocess.CalledProcessError:  # a name this file system refuses
            assume(False)
            return
    patch = parse_patch(diff)
    event("quoted names" if b'"' in diff.split(b"\n", 1)[0] else "plain names")
    event("CRLF" if b"\r\n" in diff else "LF")

    by_new = {c.new_path: c for c in changes if c.new_path is not None}
    by_old = {c.old_path: c for c in changes if c.old_path is not None}
    for file_diff in patch.files:
        change = (
            by_new[file_diff.new_path]
            if file_diff.new_path is not None
            else by_old[file_diff.old_path]
        )
        # The names git was given, whatever it quoted.
        assert (file_diff.old_path, file_diff.new_path) == (change.old_path, change.new_path)
        if change.old_path is None:
            assert file_diff.status is FileStatus.ADDED
        elif change.new_path is None:
            assert file_diff.status is FileStatus.DELETED
        elif change.old_path != change.new_path:
            assert file_diff.status is FileStatus.RENAMED
        # Forward and backward application, byte for byte.
        assert apply_file(change.old or b"", file_diff) == (change.new or b"")
        assert apply_file(change.new or b"", file_diff.swapped()) == (change.old or b"")
        # swapped() is an involution.
        assert file_diff.swapped().swapped() == file_diff

    # Every changed file is in the patch (git shows a pure rename without hunks).
    assert {(f.old_path, f.new_path) for f in patch.files} == {
        (c.old_path, c.new_path) for c in changes
    }
    # Reading the diff reversed is swapping every file.
    reversed_patch = parse_patch(diff, reverse=True)
    assert reversed_patch.files == tuple(f.swapped() for f in patch.files)
    # Re-cutting into regions is idempotent, and keeps every changed line.
    regions = recut_regions(patch)
    assert recut_regions(regions) == regions
    assert _changed(regions) == _changed(patch)


def _changed(patch: object) -> list[tuple[str, int | None, int | None, str]]:
    from hunkmetrics.patch.model import LineKind, Patch

    assert isinstance(patch, Patch)
    return [
        (h.path, line.old_lineno, line.new_lineno, line.text)
        for h in patch.hunks
        for line in h.lines
        if line.kind is not LineKind.CONTEXT
    ]
