"""The index's files as its cache holds them, read in place: each file's path, blob, stat
and package, its lang index (scopes in columns, `scopecodec`), the names of its types
and callables, and its word table. Everything but the word tables is read into memory
when a segment is opened (a few bytes per scope); a word table is read from the file
when a search asks for it. Files indexed since are held by the index itself."""

from __future__ import annotations

import bisect
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Protocol, TypeVar

from ..lang import FileIndex, Scope
from .keytable import number_type, packed, read_array
from .scopecodec import ScopeColumns, ScopeWriter
from .sections import Sections

__all__ = ["FileEntry", "Segment", "StatKey", "segment_sections"]

StatKey = tuple[int, int]  # (mtime_ns, size)

_RECENT_SCOPES = 4096  # scopes of the most recently decoded files kept decoded


class FileEntry(Protocol):
    """What a segment keeps of a file besides its lang index and word table."""

    @property
    def path(self) -> str: ...
    @property
    def blob(self) -> str: ...
    @property
    def stat(self) -> StatKey | None: ...
    @property
    def package(self) -> str | None: ...


_Entry = TypeVar("_Entry", bound=FileEntry)


def segment_sections(
    files: Sequence[_Entry],
    index_of: Callable[[_Entry], FileIndex],
    words_of: Callable[[_Entry], bytes],
) -> tuple[dict[str, object], dict[str, bytes | Iterable[bytes]]]:
    """The metadata and sections of a segment of these files (their word tables as
    pieces, read from `words_of` while they are written)."""
    scopes = ScopeWriter()
    first = [0]
    parse_errors: list[int] = []
    line_counts: list[int] = []
    languages: list[str] = []
    index_packages: list[str | None] = []
    for entry in files:
        index = index_of(entry)
        if index.path != entry.path:
            raise ValueError(f"{entry.path}: its lang index is of {index.path}")
        for scope in index.scopes:
            scopes.add(scope)
        first.append(len(scopes))
        parse_errors.append(index.parse_errors)
        line_counts.append(index.line_count)
        languages.append(sys.intern(index.language))  # interned: each stored once
        index_packages.append(sys.intern(index.package) if index.package is not None else None)
    meta, sections = scopes.sections()
    types = {
        "first": number_type(first[-1]),
        "parse_errors": number_type(max(parse_errors, default=0)),
        "line_counts": number_type(max(line_counts, default=0)),
    }
    meta["files"] = {
        "paths": [e.path for e in files],
        "blobs": [e.blob for e in files],
        "stats": [e.stat for e in files],
        "packages": [sys.intern(e.package) if e.package is not None else None for e in files],
        "index_packages": index_packages,
        "languages": languages,
        "types": types,
    }
    out: dict[str, bytes | Iterable[bytes]] = dict(sections)
    out["files.first"] = packed(types["first"], first)
    out["files.parse_errors"] = packed(types["parse_errors"], parse_errors)
    out["files.line_counts"] = packed(types["line_counts"], line_counts)
    word_at = [0]
    out["words"] = _words(files, words_of, word_at)
    out["words.at"] = _after(lambda: packed("Q", word_at))  # once the tables are written
    return meta, out


def _words(
    files: Sequence[_Entry], words_of: Callable[[_Entry], bytes], at: list[int]
) -> Iterator[bytes]:
    for entry in files:
        table = words_of(entry)
        at.append(at[-1] + len(table))
        yield table


def _after(make: Callable[[], bytes]) -> Iterator[bytes]:
    yield make()


class Segment:
    """The files of one segment, by number (their order when it was written)."""

    def __init__(self, sections: Sections) -> None:
        files = sections.meta["files"]
        types = files["types"]
        self.sections = sections
        self.paths: list[str] = files["paths"]
        self.blobs: list[str] = files["blobs"]
        self.stats: list[StatKey | None] = files["stats"]
        self.packages: list[str | None] = files["packages"]
        self._index_packages: list[str | None] = files["index_packages"]
        self._languages: list[str] = files["languages"]
        self._first = read_array(sections, "files.first", types["first"])
        self._parse_errors = read_array(sections, "files.parse_errors", types["parse_errors"])
        self._line_counts = read_array(sections, "files.line_counts", types["line_counts"])
        self._word_at = read_array(sections, "words.at", "Q")
        self.scopes = ScopeColumns(sections)
        self._recent: OrderedDict[int, FileIndex] = OrderedDict()
        self._recent_scopes = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.paths)

    def file_index(self, number: int) -> FileIndex:
        """The lang index of file `number` (the most recently asked are kept decoded)."""
        with self._lock:
            found = self._recent.get(number)
            if found is not None:
                self._recent.move_to_end(number)
                return found
        found = self.decode(number)
        with self._lock:
            if number not in self._recent:
                self._recent[number] = found
                self._recent_scopes += len(found.scopes)
                while self._recent_scopes > _RECENT_SCOPES and len(self._recent) > 1:
                    _, dropped = self._recent.popitem(last=False)
                    self._recent_scopes -= len(dropped.scopes)
        return found

    def decode(self, number: int) -> FileIndex:
        """The lang index of file `number`, decoded (not kept)."""
        scope = self.scopes.scope
        return FileIndex(
            self.paths[number],
            self._languages[number],
            self._index_packages[number],
            tuple(scope(n) for n in range(self._first[number], self._first[number + 1])),
            parse_errors=self._parse_errors[number],
            line_count=self._line_counts[number],
        )

    def enclosing(self, number: int, first: int, last: int) -> list[Scope]:
        """File `number`'s scopes around lines first..last, outermost first (as
        `FileIndex.enclosing`), without decoding the others."""
        scopes = range(self._first[number], self._first[number + 1])
        return self.scopes.enclosing(scopes, first, last)

    def scope_count(self, number: int) -> int:
        return self._first[number + 1] - self._first[number]

    def parse_errors(self, number: int) -> int:
        return self._parse_errors[number]

    def file_of(self, scope: int) -> int:
        """The number of the file holding scope number `scope`."""
        return bisect.bisect_right(self._first, scope) - 1

    def words(self, number: int) -> bytes:
        """The word table of file `number`, read from the segment's file."""
        return self.sections.read("words", self._word_at[number], self._word_at[number + 1])

    def close(self) -> None:
        self.sections.close()

    @property
    def nbytes(self) -> int:
        """The bytes of its columns held in memory (not its lists of paths and blobs)."""
        arrays = (self._first, self._parse_errors, self._line_counts, self._word_at)
        return self.scopes.nbytes + sum(a.itemsize * len(a) for a in arrays)
