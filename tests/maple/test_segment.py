"""The segment: files' lang indexes packed in columns and their names in key tables, read
back exactly as they were indexed."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path

from hunkmetrics.lang import FileIndex, Scope
from hunkmetrics.maple import open_index
from hunkmetrics.maple.names import Symbol
from hunkmetrics.maple.scopecodec import FIELDS
from hunkmetrics.maple.sections import MemorySections
from hunkmetrics.maple.segment import Segment, segment_sections

from .conftest import INVENTORY, index_of, project


@dataclasses.dataclass(frozen=True)
class _Entry:
    path: str
    blob: str
    stat: tuple[int, int] | None
    package: str | None
    index: FileIndex
    words: bytes


def _segment(entries: list[_Entry]) -> Segment:
    meta, sections = segment_sections(entries, lambda e: e.index, lambda e: e.words)
    held = {k: v if isinstance(v, bytes) else b"".join(v) for k, v in sections.items()}
    return Segment(MemorySections(meta, held))


def test_every_field_of_a_scope_is_stored() -> None:
    assert tuple(f.name for f in dataclasses.fields(Scope)) == FIELDS


def test_scopes_come_back_as_they_went_in() -> None:
    odd = (
        Scope("namespace", "top", "top", 1, 40, 0),  # no dot in the qualifier
        Scope("type", "a.b.Outer", "a.b.Outer", 2, 30, 1, header_error=True),
        Scope("callable", "a.b.Outer.m(int[],String)", "a.b.Outer.m", 3, 9, 2, "a.b.Outer"),
        Scope("type", "a.b.Outer$1", "a.b.Outer$1", 4, 8, 3, anonymous=True),
        Scope("callable", "lambda@5", "a.b.Outer.m.x", 5, 5, 3, "elsewhere"),  # not extending
        Scope("callable", "é.ü(ß)", "é.ü", 10, 12, 2, "é"),
        Scope("callable", "s.\udcff()", "s.\udcff", 13, 13, 2),  # a lone surrogate
        Scope("callable", ".dot()", ".dot", 70000, 70001, 300, ""),  # big numbers
    )
    first = FileIndex("p/A.java", "java", "a.b", odd, parse_errors=2, line_count=70002)
    second = FileIndex("p/B.py", "python", None, (), parse_errors=0, line_count=1)
    entries = [
        _Entry("p/A.java", "blob-a", (1, 2), None, first, b"\nx 1 0\n"),
        _Entry("p/B.py", "blob-b", None, "pkg", second, b""),
    ]
    segment = _segment(entries)
    assert len(segment) == 2
    assert segment.decode(0) == first and segment.file_index(0) == first
    assert segment.decode(1) == second
    assert segment.paths == ["p/A.java", "p/B.py"] and segment.blobs == ["blob-a", "blob-b"]
    assert segment.stats == [(1, 2), None] and segment.packages == [None, "pkg"]
    assert [segment.words(0), segment.words(1)] == [b"\nx 1 0\n", b""]
    assert [segment.scope_count(0), segment.parse_errors(0)] == [8, 2]
    assert [segment.file_of(n) for n in range(8)] == [0] * 8
    callables = segment.scopes.names["callable"]
    assert callables.keys() == [b"dot", b"m", b"x", b"\xc3\xbc", b"\xed\xb3\xbf"]
    assert list(callables.get(b"m") or ()) == [2]
    assert list(segment.scopes.names["type"].get(b"Outer$1") or ()) == [3]


def test_an_index_read_from_its_segment_is_the_one_parsed(tmp_path: Path) -> None:
    for name in ("java-project", "python-project"):
        root = project(tmp_path, name)
        parsed = open_index(root, use_cache=False, jobs=1)  # held in memory
        cold = index_of(root, tmp_path)
        warm = index_of(root, tmp_path)
        assert warm.parsed == 0
        for path, record in parsed.files.items():
            assert warm.files[path].index == record.index == cold.files[path].index
            assert warm.files[path].words == record.words


def test_names_are_those_of_the_files_as_indexed_now(tmp_path: Path) -> None:
    root = project(tmp_path, "java-project")
    index = index_of(root, tmp_path)

    def symbols(kind: str) -> dict[str, list[Symbol]]:
        found: dict[str, list[Symbol]] = {}
        for path, record in index.files.items():
            for scope in record.index.scopes:
                if scope.kind == kind:
                    found.setdefault(scope.qualifier.rsplit(".", 1)[-1], []).append(
                        Symbol(path, scope)
                    )
        return found

    def table(names: Mapping[str, list[Symbol]]) -> dict[str, set[Symbol]]:
        return {key: set(found) for key, found in names.items()}

    assert dict(index.names.callables) == symbols("callable")  # in the order indexed
    assert dict(index.names.types) == symbols("type")
    path = root / INVENTORY
    path.write_text(path.read_text().replace("public int add(", "public int adding("))
    index.ensure_current(max_age=0.0)
    assert "adding" in index.names.callables
    assert all(s.path != INVENTORY for s in index.names.callables.get("add", []))
    assert table(index.names.callables) == table(symbols("callable"))
    path.unlink()
    index.ensure_current(max_age=0.0)
    assert "Inventory" not in index.names.types
    assert table(index.names.types) == table(symbols("type"))
    assert table(index.names.callables) == table(symbols("callable"))


def test_the_scopes_around_lines_are_the_lang_index_s(tmp_path: Path) -> None:
    for name in ("java-project", "python-project"):
        root = project(tmp_path, name)
        index_of(root, tmp_path)
        warm = index_of(root, tmp_path)  # read from the segment
        for record in warm.files.values():
            lang = record.index
            for first in range(0, lang.line_count + 2):
                for last in (first, first + 3):
                    assert record.enclosing(first, last) == lang.enclosing(first, last)
