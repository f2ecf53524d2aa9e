"""The index's on-disk cache: one directory per tree served, holding two section files
(`sections`) read in place: `index.bin`, a segment of every file's record, lang index
and word table (`segment`), so a restart parses only what changed; and `postings.bin`,
the code-search index (`codesearch`)."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import logging
import os
import sys
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from ..lang import FileIndex
from ..memory import no_cyclic_gc
from ..version import __version__
from .records import FileRecord, StatKey
from .scopecodec import FIELDS
from .sections import FileSections, Sections, write_sections
from .segment import Segment

__all__ = [
    "Cached",
    "IndexCache",
    "default_cache_base",
    "no_cyclic_gc",
    "path_digest",
    "seed_dir",
    "tree_cache_dir",
]

_INDEX_FIELDS = tuple(f.name for f in dataclasses.fields(FileIndex))
# A cache written for other fields (another hunkmetrics) or another machine's byte order
# is rebuilt, not misread.
_FORMAT = f"maple-index-7/{__version__}/{sys.byteorder}/{','.join(FIELDS + _INDEX_FIELDS)}"
_INDEX = "index.bin"
_POSTINGS = "postings.bin"
_FORMER = ("index.pickle", "words.pickle", "postings.pickle")  # of earlier versions
log = logging.getLogger("hunkmetrics.maple")


def default_cache_base() -> Path:
    """`$XDG_CACHE_HOME/hunkmetrics/maple` (`~/.cache/hunkmetrics/maple`)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "hunkmetrics" / "maple"


def tree_cache_dir(base: Path, key: str) -> Path:
    """The cache directory of one tree served, under `base`."""
    return base / key


def path_digest(root: Path) -> str:
    return hashlib.sha1(str(root).encode("utf-8", "surrogateescape")).hexdigest()[:16]


def seed_dir(directory: Path) -> Path | None:
    """For a working tree's new cache entry, the most recent entry of the same working
    tree at another commit (`worktree-<path digest>-*`): its files are reused by blob."""
    prefix = directory.name.rsplit("-", 1)[0] + "-"
    try:
        siblings = [
            d
            for d in directory.parent.iterdir()
            if d.name.startswith(prefix) and d != directory and (d / _INDEX).is_file()
        ]
    except OSError:
        return None
    return max(siblings, key=lambda d: (d / _INDEX).stat().st_mtime, default=None)


class Cached:
    """What a previous run saved (a segment), looked up by path while an index is built."""

    def __init__(self, segment: Segment) -> None:
        self.segment = segment
        self._numbers = {path: n for n, path in enumerate(segment.paths)}

    def get(self, path: str, blob: str, package: str | None) -> int:
        """The file's number in the segment when it holds this blob and package, else -1."""
        number = self._numbers.get(path, -1)
        segment = self.segment
        if number < 0 or segment.blobs[number] != blob or segment.packages[number] != package:
            return -1
        return number

    def holds(self, records: Iterable[FileRecord]) -> bool:
        """Whether the segment holds exactly these records (then it need not be written)."""
        count = 0
        for record in records:
            count += 1
            number = self.get(record.path, record.blob, record.package)
            if number < 0:
                return False
            if record.stat is not None and self.segment.stats[number] != record.stat:
                return False
        return count == len(self.segment)

    def blob_for(self, path: str, stat: StatKey) -> str | None:
        """The blob a working-tree file had when it last had this stat."""
        number = self._numbers.get(path, -1)
        if number < 0 or self.segment.stats[number] != stat:
            return None
        return self.segment.blobs[number]


class IndexCache:
    """The section files of one tree, in a directory the user owns (never shared: their
    headers are pickles, and pickle is code)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.file = directory / _INDEX
        self.postings_file = directory / _POSTINGS

    def load(self) -> Segment | None:
        """The segment saved for this tree (or, for a new working-tree entry, its seed's)."""
        sections = self._open(self.file)
        if sections is None and self.directory.name.startswith("worktree-"):
            seed = seed_dir(self.directory)
            sections = self._open(seed / _INDEX) if seed is not None else None
        return Segment(sections) if sections is not None else None

    def save(
        self, meta: Mapping[str, object], sections: Mapping[str, bytes | Iterable[bytes]]
    ) -> Segment | None:
        """Write a segment (`segment.segment_sections`) and open it; None when it could
        not be written."""
        opened = self._write(self.file, meta, sections)
        for name in _FORMER:
            with contextlib.suppress(OSError):
                (self.directory / name).unlink()
        return Segment(opened) if opened is not None else None

    def load_postings(self) -> Sections | None:
        """The code-search index saved (`codesearch.postings_sections`), if any."""
        return self._open(self.postings_file)

    def save_postings(
        self, meta: Mapping[str, object], sections: Mapping[str, bytes]
    ) -> Sections | None:
        """Write the code-search index and open it; None when it could not be written."""
        return self._write(self.postings_file, meta, sections)

    def _open(self, file: Path) -> Sections | None:
        try:
            with no_cyclic_gc():
                opened = FileSections(file)
        except FileNotFoundError:
            return None
        except Exception as exc:  # a damaged or foreign cache is rebuilt, not fatal
            log.warning("ignoring the index cache %s: %s", file, exc)
            return None
        if opened.meta.get("format") != _FORMAT:
            opened.close()
            return None
        return opened

    def _write(
        self,
        file: Path,
        meta: Mapping[str, object],
        sections: Mapping[str, bytes | Iterable[bytes]],
    ) -> Sections | None:
        try:
            file.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=file.parent, suffix=".tmp")
            with os.fdopen(fd, "wb") as handle:
                write_sections(handle, {**meta, "format": _FORMAT}, sections)
            os.replace(tmp, file)
        except OSError as exc:
            log.warning("could not write the index cache %s: %s", file, exc)
            with contextlib.suppress(OSError, UnboundLocalError):
                os.unlink(tmp)
            return None
        return self._open(file)
