"""Types and callables by bare name (the last segment of their qualifier): those of the
segment's files, looked up in its name tables, then those of files indexed since."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from ..lang import FileIndex, Scope
from .records import FileRecord, Stored
from .segment import Segment

__all__ = ["NameTable", "Names", "Symbol", "simple_name"]

_TEXT = ("utf-8", "surrogatepass")


@dataclass(frozen=True, slots=True)
class Symbol:
    """A type or callable of one file."""

    path: str
    scope: Scope

    @property
    def bare(self) -> str:
        """The last segment of its qualifier: a simple class name or a method name."""
        return simple_name(self.scope.qualifier)


def simple_name(qualified: str) -> str:
    return qualified.rsplit(".", 1)[-1]


class NameTable(Mapping[str, list[Symbol]]):
    """The symbols of one kind ("type" or "callable") by bare name, in the order their
    files were indexed. A segment's symbol counts while its file is still indexed as
    the segment holds it."""

    def __init__(self, kind: str, files: Mapping[str, FileRecord]) -> None:
        self.kind = kind
        self._files = files  # the index's records, as they change
        self._segment: Segment | None = None
        self._held: dict[str, list[Symbol]] = {}  # of files indexed since

    def rebase(self, segment: Segment | None) -> None:
        """Look names up in `segment` (whose files are all indexed as it holds them)."""
        self._segment = segment
        self._held.clear()

    def add(self, record: FileRecord) -> None:
        if isinstance(record.source, FileIndex):
            for scope in record.source.scopes:
                if scope.kind == self.kind:
                    key = simple_name(scope.qualifier)
                    self._held.setdefault(key, []).append(Symbol(record.path, scope))

    def remove(self, record: FileRecord) -> None:
        if not isinstance(record.source, FileIndex):
            return  # the segment's: no longer counted once the file is indexed again
        for key in {simple_name(s.qualifier) for s in record.source.scopes if s.kind == self.kind}:
            kept = [s for s in self._held.get(key, ()) if s.path != record.path]
            if kept:
                self._held[key] = kept
            else:
                self._held.pop(key, None)

    def __getitem__(self, key: str) -> list[Symbol]:
        found = self._stored(key)
        found.extend(self._held.get(key, ()))
        if not found:
            raise KeyError(key)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())

    def names(self) -> list[str]:
        """Every bare name that has symbols, in the order they were first indexed."""
        found: list[str] = []
        segment = self._segment
        if segment is not None:
            found = segment.scopes.names[self.kind].given_keys(*_TEXT)
            gone = self._gone(segment)
            if gone:
                found = [key for key in found if key not in gone]
        if self._held:
            known = set(found)
            found.extend(key for key in self._held if key not in known)
        return found

    def _stored(self, key: str) -> list[Symbol]:
        segment = self._segment
        if segment is None:
            return []
        run = segment.scopes.names[self.kind].get(key.encode(*_TEXT))
        if run is None:
            return []
        found = []
        for number in run:
            path = self._path(segment, number)
            if path is not None:
                found.append(Symbol(path, segment.scopes.scope(number)))
        return found

    def _path(self, segment: Segment, scope: int) -> str | None:
        """The path of the file holding scope number `scope`, when it is still indexed
        as the segment holds it."""
        number = segment.file_of(scope)
        record = self._files.get(segment.paths[number])
        source = record.source if record is not None else None
        if isinstance(source, Stored) and source.segment is segment and source.number == number:
            return segment.paths[number]
        return None

    def _gone(self, segment: Segment) -> set[str]:
        """The segment's names whose every symbol is in a file indexed again since (or
        gone)."""
        files = self._files
        maybe: set[str] = set()
        for number, path in enumerate(segment.paths):
            record = files.get(path)
            source = record.source if record is not None else None
            if not (isinstance(source, Stored) and source.segment is segment):
                index = segment.decode(number)
                maybe.update(simple_name(s.qualifier) for s in index.scopes if s.kind == self.kind)
        return {key for key in maybe if not self._stored(key)}


class Names:
    """Types and callables by bare name."""

    def __init__(self, files: Mapping[str, FileRecord]) -> None:
        self.types = NameTable("type", files)
        self.callables = NameTable("callable", files)

    def rebase(self, segment: Segment | None) -> None:
        self.types.rebase(segment)
        self.callables.rebase(segment)

    def add(self, record: FileRecord) -> None:
        self.types.add(record)
        self.callables.add(record)

    def remove(self, record: FileRecord) -> None:
        self.types.remove(record)
        self.callables.remove(record)
