"""apply_file works on the bytes: every byte outside the hunks is kept as it was (bytes
that are not UTF-8, carriage returns, a last line without a newline), and every check
fails with the message the line-by-line reading gives."""

from __future__ import annotations

import pytest

from hunkmetrics.errors import SourceError
from hunkmetrics.patch.model import FileDiff
from hunkmetrics.patch.parse import parse_patch
from hunkmetrics.sources.apply import apply_file


def _file(diff: str) -> FileDiff:
    return parse_patch(diff.encode()).files[0]


def test_undecodable_bytes_and_carriage_returns_outside_the_hunk_are_kept() -> None:
    pre = b"caf\xe9\r\nkeep\r\nold\nlast"
    diff = "--- a/f\n+++ b/f\n@@ -3 +3,2 @@\n-old\n+new\n+more\n"
    assert apply_file(pre, _file(diff)) == b"caf\xe9\r\nkeep\r\nnew\nmore\nlast"


def test_a_context_line_without_newline_followed_by_added_lines_gets_one() -> None:
    # `b` is the file's last line, without a newline; the hunk keeps it and adds `c`
    pre = b"a\nb"
    diff = "--- a/f\n+++ b/f\n@@ -1,2 +1,3 @@\n a\n b\n+c\n"
    assert apply_file(pre, _file(diff)) == b"a\nb\nc\n"


def test_an_insertion_after_the_last_line_and_one_at_the_top() -> None:
    pre = b"x\ny\n"
    assert apply_file(pre, _file("--- a/f\n+++ b/f\n@@ -2,0 +3 @@\n+z\n")) == b"x\ny\nz\n"
    assert apply_file(pre, _file("--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+w\n")) == b"w\nx\ny\n"


def test_a_removed_line_that_differs_is_named() -> None:
    pre = b"one\ntwo\n"
    diff = "--- a/f\n+++ b/f\n@@ -2 +2 @@\n-TWO\n+2\n"
    with pytest.raises(SourceError, match="line 2 differs from the diff's removed line"):
        apply_file(pre, _file(diff))
    with pytest.raises(SourceError, match=r"line 2 is past the end of the file \(1 lines\)"):
        apply_file(b"one\n", _file(diff))
