"""A file of named byte sections, read in part on demand: how MAPLE persists its index, so
that a server keeps on its heap only what every call needs and reads the rest (word
tables, posting lists) from the file when a call asks for it.

Layout: a magic line, the sections one after another, a pickled header (the caller's
metadata and where each section lies), and a trailer giving the header's place. Reads
use `os.pread` on a descriptor held open, so a file replaced on disk meanwhile is still
read as it was opened, and threads read side by side."""

from __future__ import annotations

import os
import pickle
import struct
import threading
import weakref
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, BinaryIO, Protocol

__all__ = ["FileSections", "MemorySections", "Sections", "write_sections"]

_MAGIC = b"HMSECT1\n"
_TRAILER = struct.Struct("<QQ8s")  # header offset, header length, magic
_PREAD = hasattr(os, "pread")


class Sections(Protocol):
    """Named byte sections and the metadata written with them."""

    meta: dict[str, Any]

    def size(self, name: str) -> int:
        """The length of a section in bytes."""
        ...

    def read(self, name: str, start: int = 0, stop: int | None = None) -> bytes:
        """Bytes start..stop of a section (all of it by default)."""
        ...

    def close(self) -> None: ...


def write_sections(
    handle: BinaryIO, meta: Mapping[str, object], sections: Mapping[str, bytes | Iterable[bytes]]
) -> None:
    """Write `sections` (each bytes, or pieces of bytes written one after another) and
    `meta` to an open binary file, from its start."""
    handle.write(_MAGIC)
    where: dict[str, tuple[int, int]] = {}
    at = len(_MAGIC)
    for name, pieces in sections.items():
        start = at
        for piece in [pieces] if isinstance(pieces, bytes | bytearray | memoryview) else pieces:
            handle.write(piece)
            at += len(piece)
        where[name] = (start, at - start)
    header = pickle.dumps({"meta": dict(meta), "sections": where}, pickle.HIGHEST_PROTOCOL)
    handle.write(header)
    handle.write(_TRAILER.pack(at, len(header), _MAGIC))


class FileSections:
    """The sections of a file written by `write_sections`, read on demand."""

    def __init__(self, path: Path) -> None:
        """Open `path`; ValueError when it is not such a file or is cut short."""
        self.path = path
        self._fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
        self._lock = threading.Lock()  # for seek + read where there is no pread
        self._closer = weakref.finalize(self, os.close, self._fd)  # closed when dropped
        try:
            size = os.fstat(self._fd).st_size
            if size < len(_MAGIC) + _TRAILER.size:
                raise ValueError("too short")
            trailer = self._pread(_TRAILER.size, size - _TRAILER.size)
            offset, length, magic = _TRAILER.unpack(trailer)
            if magic != _MAGIC or offset + length + _TRAILER.size != size:
                raise ValueError("not a section file")
            if self._pread(len(_MAGIC), 0) != _MAGIC:
                raise ValueError("not a section file")
            header = pickle.loads(self._pread(length, offset))  # noqa: S301 (the user's cache)
            self.meta: dict[str, Any] = header["meta"]
            self._where: dict[str, tuple[int, int]] = header["sections"]
            if any(start + count > offset for start, count in self._where.values()):
                raise ValueError("a section lies past the header")
        except Exception:
            self._closer()
            raise

    def size(self, name: str) -> int:
        return self._where[name][1]

    def read(self, name: str, start: int = 0, stop: int | None = None) -> bytes:
        begin, count = self._where[name]
        stop = count if stop is None else min(stop, count)
        if stop <= start:
            return b""
        return self._pread(stop - start, begin + start)

    def _pread(self, count: int, offset: int) -> bytes:
        if _PREAD:
            data = os.pread(self._fd, count, offset)
        else:  # pragma: no cover - platforms without pread (Windows)
            with self._lock:
                os.lseek(self._fd, offset, os.SEEK_SET)
                data = os.read(self._fd, count)
        if len(data) != count:
            raise OSError(f"{self.path}: cut short")
        return data

    def close(self) -> None:
        self._closer()


class MemorySections:
    """Sections held in memory (an index without a cache directory)."""

    def __init__(self, meta: Mapping[str, object], sections: Mapping[str, bytes]) -> None:
        self.meta: dict[str, Any] = dict(meta)
        self._sections = dict(sections)

    def size(self, name: str) -> int:
        return len(self._sections[name])

    def read(self, name: str, start: int = 0, stop: int | None = None) -> bytes:
        data = self._sections[name]
        return data if start == 0 and stop is None else data[start:stop]

    def close(self) -> None:
        pass
