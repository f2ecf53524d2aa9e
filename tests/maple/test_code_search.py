"""The code-search index, the result limit of a code search, and reads side by side."""

from __future__ import annotations

import threading
from pathlib import Path

from hunkmetrics.maple import Maple
from hunkmetrics.maple.codesearch import WordPostings, snippet_words
from hunkmetrics.maple.grambuild import build_grams, file_grams, gram_sections
from hunkmetrics.maple.grams import snippet_grams
from hunkmetrics.maple.rwlock import ReadWriteLock

from .conftest import index_of


def test_snippet_words_whole_and_at_the_ends() -> None:
    whole, ends = snippet_words(b"  String name = null;")
    assert whole == [b"name", b"null"]
    assert ends == [(b"String", True, False)]  # `null` is followed by `;`: whole
    assert snippet_words(b"getBea") == ([], [(b"getBea", True, True)])


def test_candidates_from_whole_words_and_vocabulary() -> None:
    postings = WordPostings.build(  # from each file's word table: `word count uses…`
        [
            ("a", "1", b"\ntoString 1\nname 1 0\n"),
            ("b", "2", b"\nString 1 0\nname 2\n"),
            ("c", "3", b"\nStringify 1\nname 1\n"),
        ]
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


def test_n_grams_of_files_and_snippets() -> None:
    # whitespace runs are one space; each 4 bytes is a big-endian number
    def text(codes: object) -> list[bytes]:
        return sorted(int(c).to_bytes(4, "big") for c in codes)  # type: ignore[attr-defined]

    assert text(file_grams(b"a =\n\t  b;")) == [b" = b", b"= b;", b"a = "]
    assert text(snippet_grams("  a  =  b;")) == [b" = b", b"= b;", b"a = "]
    assert snippet_grams("a b") is None  # shorter than a gram
    # a no-break space is not split on by bytes.split(): only each word counts
    assert text(snippet_grams("name\u00a0= null")) == [b"null", b"name"][::-1]


def test_the_n_gram_index_keeps_the_files_holding_every_gram() -> None:
    files = [b"String name = null;", b"String name = value;", b"int name = null;"] * 7
    files.append(b"String name = null; // once")
    grams = build_grams([file_grams(f) for f in files])
    assert grams.count == 22
    # 22 files: a bitmap is 3 bytes, smaller than a list of 2 numbers: the grams of the
    # last file's "ll; // once" are in one file (lists), the others in more (bitmaps)
    dense = set(grams.dense)
    sparse = {int(k).to_bytes(4, "big") for at, k in enumerate(grams.keys) if at not in dense}
    assert sparse == {b"ll; ", b"l; /", b"; //", b" // ", b"// o", b"/ on", b" onc", b"once"}
    assert grams.candidates(snippet_grams("String name = null") or []) == [*range(0, 21, 3), 21]
    assert grams.candidates(snippet_grams("name = value") or []) == list(range(1, 21, 3))
    assert grams.candidates(snippet_grams("null; // once") or []) == [21]
    assert grams.candidates(snippet_grams("int name = value") or []) == []
    assert grams.candidates(snippet_grams("nothing here") or []) == []
    postings = WordPostings.build(
        ((f"f{i:02}", "b", b"\nname 1\n" + (b"int 1\n" if i % 3 == 2 else b"")) for i in range(22)),
        gram_sections([file_grams(f) for f in files]),
    )
    assert postings.candidates(b"int  name =") == ["f02", "f05", "f08", "f11", "f14", "f17", "f20"]


def test_a_code_search_finds_through_the_n_gram_index(tmp_path: Path) -> None:
    root = _repo(tmp_path, 5)
    (root / "p/C03.java").write_text("package p;\nclass C03 {\n    String  name  =  null;\n}\n")
    index = index_of(root, tmp_path)
    assert index.postings is not None and index.postings.grams is not None
    assert index.code_candidates(b"String name = null") == ["p/C03.java"]
    out = Maple(index).find_code("String name = null")  # ignoring runs of spaces
    assert out.startswith("Found 1 match") and "p/C03.java, line 3" in out


def test_a_loose_search_keeps_a_line_that_holds_a_line_separator(tmp_path: Path) -> None:
    """U+2028 inside a string literal is part of its line (files end lines at "\\n"):
    the snippet, searched with other spacing, was cut there and never matched."""
    root = tmp_path / "repo"
    (root / "p").mkdir(parents=True)
    (root / "p/S.java").write_text(
        'package p;\nclass S {\n    String s = "a\u2028b";\n    int n = 1;\n}\n',
        encoding="utf-8",
    )
    maple = Maple(index_of(root, tmp_path))
    out = maple.find_code('String  s = "a\u2028b";\n  int n = 1;')  # spacing differs
    assert out.startswith("Found 1 match") and "p/S.java, lines 3-4" in out, out
