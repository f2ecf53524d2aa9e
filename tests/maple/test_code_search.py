"""The code-search index, the result limit of a code search, and reads side by side."""

from __future__ import annotations

import threading
from array import array
from pathlib import Path

from hunkmetrics.maple import Maple
from hunkmetrics.maple.codesearch import WordPostings, snippet_words
from hunkmetrics.maple.rwlock import ReadWriteLock

from .conftest import index_of


def test_snippet_words_whole_and_at_the_ends() -> None:
    whole, ends = snippet_words(b"  String name = null;")
    assert whole == [b"name", b"null"]
    assert ends == [(b"String", True, False)]  # `null` is followed by `;`: whole
    assert snippet_words(b"getBea") == ([], [(b"getBea", True, True)])


def test_candidates_from_whole_words_and_vocabulary() -> None:
    postings = WordPostings(
        ["a", "b", "c"],
        ["1", "2", "3"],
        {
            b"toString": array("I", [0]),
            b"String": array("I", [1]),
            b"Stringify": array("I", [2]),
            b"name": array("I", [0, 1, 2]),
        },
    )
    assert postings.candidates(b"String name =") == ["a", "b"]  # ends with String
    assert postings.candidates(b"= name.Stri") == ["b", "c"]  # starts with Stri
    assert postings.candidates(b"ring") == ["a", "b", "c"]
    assert postings.candidates(b"xyzzy") == []
    assert postings.candidates(b"e") is None  # too short to narrow


def _repo(tmp_path: Path, count: int) -> Path:
    root = tmp_path / "repo"
    for i in range(count):
        path = root / f"p/C{i:02}.java"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"package p;\nclass C{i:02} {{\n    int e{i} = {i};\n}}\n")
    return root


def test_a_one_character_search_stops_at_its_limit(tmp_path: Path) -> None:
    maple = Maple(index_of(_repo(tmp_path, 120), tmp_path))
    out = maple.find_code("e")
    # each file holds "e" twice (packag-e, e<i>): 200 are found in the first 100 files,
    # and the search stops with 20 files left
    assert out.startswith(
        "Found 200 matches for the code (the search stopped at 200 matches; 20 more "
        "file(s) that may hold it were not searched)."
    )


def test_a_file_written_after_the_start_is_searched(tmp_path: Path) -> None:
    root = _repo(tmp_path, 3)
    maple = Maple(index_of(root, tmp_path))
    (root / "p/New.java").write_text("package p;\nclass New {\n    int fresh = 1;\n}\n")
    out = maple.find_code("int fresh = 1;")
    assert out.startswith("Found 1 match") and "p/New.java, line 3" in out


def test_reads_go_side_by_side_and_a_write_waits_for_them() -> None:
    lock = ReadWriteLock()
    order: list[str] = []
    reading = threading.Event()
    release = threading.Event()

    def long_read() -> None:
        with lock.read():
            reading.set()
            release.wait(30)
            order.append("long read done")

    def write() -> None:
        with lock.write():
            order.append("write")

    first = threading.Thread(target=long_read)
    first.start()
    assert reading.wait(30)
    writer = threading.Thread(target=write)
    writer.start()
    with lock.read():  # not blocked by the long read, nor by the waiting writer
        order.append("second read")
    release.set()
    first.join(30)
    writer.join(30)
    assert order == ["second read", "long read done", "write"]


def test_a_reader_may_write_and_read_again() -> None:
    lock = ReadWriteLock()
    with lock.read(), lock.write(), lock.read():
        pass
    with lock.write():  # nothing left held
        pass
