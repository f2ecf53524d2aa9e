"""Sources as bytes. apply_file keeps every byte outside the hunks as it was (bytes that
are not UTF-8, carriage returns, a last line without a newline), and every check fails
with the message the line-by-line reading gives; blob names are matched by either
algorithm, each worked out once per text."""

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


def test_blob_names_by_either_algorithm_each_worked_out_once() -> None:
    """`echo hello | git hash-object --stdin` gives ce01362… (SHA-1) and, in a SHA-256
    repository, 2cf8d83…; an abbreviation is matched with either, and the names worked
    out for one text are kept in `hashes` for its next check."""
    from hunkmetrics.sources.resolve import blob_matches

    data = b"hello\n"
    sha1 = "ce013625030ba8dba906f756967f9e9ca394464a"
    sha256 = "2cf8d83d9ee29543b34a87727421fdecb7e3f3a183d337639025de576db9ebb4"
    hashes: dict[str, str] = {}
    assert blob_matches(data, "ce01362", hashes) and hashes == {"sha1": sha1}
    assert blob_matches(data, "2cf8d83", hashes) and hashes == {"sha1": sha1, "sha256": sha256}
    assert blob_matches(data, sha256)  # longer than 40 digits: SHA-256 only
    assert not blob_matches(data, "0000000", hashes)
    assert not blob_matches(data, sha1 + "0")
