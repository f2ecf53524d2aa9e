"""What the index holds per file (shared by the index and its on-disk cache)."""

from __future__ import annotations

from dataclasses import dataclass

from ..lang import FileIndex

__all__ = ["FileRecord", "Parsed", "StatKey"]

StatKey = tuple[int, int]  # (mtime_ns, size)
Parsed = tuple[FileIndex, bytes]  # a file's lang index and its word table (occurrences)


@dataclass(frozen=True, slots=True)
class FileRecord:
    """One indexed file: its blob, how it was seen on disk, its lang index and its word
    table (`occurrences.word_table`; None until read from the on-disk cache, which
    `RepoIndex.load_words` does on first need)."""

    path: str
    blob: str
    stat: StatKey | None  # (mtime_ns, size) in a working tree; None in a revision
    index: FileIndex
    package: str | None = None  # the package the hooks gave from the tree (None: the file's)
    words: bytes | None = None
