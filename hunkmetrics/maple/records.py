"""What the index holds per file (shared by the index and its on-disk cache)."""

from __future__ import annotations

from dataclasses import dataclass

from ..lang import FileIndex, Scope
from .segment import Segment, StatKey

__all__ = ["FileRecord", "Parsed", "StatKey", "Stored"]

Parsed = tuple[FileIndex, bytes]  # a file's lang index and its word table (occurrences)


@dataclass(frozen=True, slots=True)
class Stored:
    """Where a segment (the cache, read in place) holds a file: its number there."""

    segment: Segment
    number: int


@dataclass(frozen=True, slots=True)
class FileRecord:
    """One indexed file: its blob, how it was seen on disk, and where its lang index and
    word table (`occurrences.word_table`) are: held here (a file parsed since the segment
    was written), or in the segment."""

    path: str
    blob: str
    stat: StatKey | None  # (mtime_ns, size) in a working tree; None in a revision
    source: FileIndex | Stored
    package: str | None = None  # the package the hooks gave from the tree (None: the file's)
    held_words: bytes | None = None  # the word table, when held here

    @property
    def index(self) -> FileIndex:
        """The file's lang index (decoded from the segment when stored there)."""
        source = self.source
        if isinstance(source, FileIndex):
            return source
        return source.segment.file_index(source.number)

    def enclosing(self, first: int, last: int) -> list[Scope]:
        """The scopes around lines first..last, outermost first (`FileIndex.enclosing`)."""
        source = self.source
        if isinstance(source, FileIndex):
            return source.enclosing(first, last)
        return source.segment.enclosing(source.number, first, last)

    @property
    def words(self) -> bytes:
        """The file's word table (read from the segment when stored there)."""
        if self.held_words is not None:
            return self.held_words
        source = self.source
        if isinstance(source, FileIndex):
            raise LookupError(f"{self.path}: no word table")
        return source.segment.words(source.number)

    @property
    def parse_errors(self) -> int:
        source = self.source
        if isinstance(source, FileIndex):
            return source.parse_errors
        return source.segment.parse_errors(source.number)

    @property
    def scope_count(self) -> int:
        source = self.source
        if isinstance(source, FileIndex):
            return len(source.scopes)
        return source.segment.scope_count(source.number)
