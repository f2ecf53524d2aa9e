"""Section files and the key tables in them: what MAPLE's index is persisted as and read
from in place."""

from __future__ import annotations

from pathlib import Path

import pytest

from hunkmetrics.maple.keytable import KeyTable, number_type
from hunkmetrics.maple.sections import FileSections, MemorySections, write_sections


def _write(path: Path, meta: dict[str, object], sections: dict[str, object]) -> FileSections:
    with path.open("wb") as handle:
        write_sections(handle, meta, sections)  # type: ignore[arg-type]
    return FileSections(path)


def test_sections_are_read_whole_or_in_part(tmp_path: Path) -> None:
    pieces = (p for p in (b"one ", b"two ", b"three"))  # written as they come
    opened = _write(tmp_path / "f", {"format": "x", "n": 3}, {"a": b"0123456789", "b": pieces})
    assert opened.meta == {"format": "x", "n": 3}
    assert opened.read("a") == b"0123456789"
    assert opened.read("a", 2, 5) == b"234"
    assert opened.read("a", 8, 100) == b"89"  # cut at the section's end
    assert opened.read("a", 5, 5) == b""
    assert opened.read("b") == b"one two three"
    assert opened.size("b") == 13
    memory = MemorySections({"n": 1}, {"a": b"0123"})
    assert memory.read("a", 1, 3) == b"12" and memory.size("a") == 4


def test_a_file_replaced_on_disk_is_read_as_it_was_opened(tmp_path: Path) -> None:
    path = tmp_path / "f"
    opened = _write(path, {}, {"a": b"before"})
    replacement = tmp_path / "g"
    _write(replacement, {}, {"a": b"after!"}).close()
    replacement.replace(path)
    assert opened.read("a") == b"before"
    assert FileSections(path).read("a") == b"after!"


@pytest.mark.parametrize("damage", ["cut", "foreign", "empty"])
def test_a_damaged_file_is_refused(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "f"
    _write(path, {}, {"a": b"x" * 100}).close()
    data = path.read_bytes()
    path.write_bytes({"cut": data[:-10], "foreign": b"PK" + data[2:], "empty": b""}[damage])
    with pytest.raises(ValueError):
        FileSections(path)


@pytest.mark.parametrize("held", [True, False])
def test_a_key_table_finds_each_key_s_numbers(tmp_path: Path, held: bool) -> None:
    runs = {b"zeta": [1, 2], b"alpha": [70000], b"mid": [3, 5, 8], b"empty": []}
    meta, sections = KeyTable.write("t", runs, keep_order=True)
    table = KeyTable(_write(tmp_path / "f", meta, sections), "t", held=held)  # type: ignore[arg-type]
    assert len(table) == 4
    assert table.keys() == [b"alpha", b"empty", b"mid", b"zeta"]  # byte order
    assert table.given_keys("ascii", "strict") == ["zeta", "alpha", "mid", "empty"]  # as given
    assert [table.find(k) for k in (b"alpha", b"mid", b"zeta", b"nope", b"a", b"zz")] == [
        0,
        2,
        3,
        -1,
        -1,
        -1,
    ]
    assert list(table.get(b"mid") or ()) == [3, 5, 8]
    assert list(table.get(b"alpha") or ()) == [70000]
    empty = table.get(b"empty")
    assert empty is not None and list(empty) == []
    assert table.get(b"nope") is None
    assert table.text == b"\nalpha\nempty\nmid\nzeta\n"  # searchable as one text


def test_an_empty_key_table() -> None:
    table = KeyTable(MemorySections(*KeyTable.write("t", {})), "t")
    assert len(table) == 0 and table.keys() == [] and table.find(b"a") == -1


def test_numbers_take_the_smallest_type_that_holds_them() -> None:
    assert [number_type(n) for n in (0, 65535, 65536, 2**32 - 1, 2**32)] == [
        "H",
        "H",
        "I",
        "I",
        "Q",
    ]
