"""The index's on-disk cache: each file's lang index by path, blob and package, and the
stat each working-tree file had, so a restart parses only what changed; in a file of
their own that a start does not read, each file's word table by path and blob; and the
code-search index, a section file (`sections`) read in place."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import logging
import os
import pickle
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..lang import FileIndex, Scope
from ..memory import no_cyclic_gc
from ..version import __version__
from .records import FileRecord, StatKey
from .sections import FileSections, Sections, write_sections

__all__ = [
    "IndexCache",
    "default_cache_base",
    "no_cyclic_gc",
    "path_digest",
    "seed_dir",
    "tree_cache_dir",
]

_SCOPE_FIELDS = tuple(f.name for f in dataclasses.fields(Scope))
_INDEX_FIELDS = tuple(f.name for f in dataclasses.fields(FileIndex))
# A cache written for other fields (another hunkmetrics) is rebuilt, not misread.
_FORMAT = f"maple-index-6/{__version__}/{','.join(_SCOPE_FIELDS + _INDEX_FIELDS)}"
log = logging.getLogger("hunkmetrics.maple")


def _reduce_scope(scope: Scope) -> tuple[type[Scope], tuple[object, ...]]:
    return Scope, tuple(getattr(scope, name) for name in _SCOPE_FIELDS)


def _reduce_index(index: FileIndex) -> tuple[type[FileIndex], tuple[object, ...]]:
    return FileIndex, tuple(getattr(index, name) for name in _INDEX_FIELDS)


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
            if d.name.startswith(prefix) and d != directory and (d / "index.pickle").is_file()
        ]
    except OSError:
        return None
    return max(siblings, key=lambda d: (d / "index.pickle").stat().st_mtime, default=None)


class IndexCache:
    """Two pickle files in a directory the user owns (never shared: pickle is code): the
    lang indexes, read at start-up, and the word tables, read on first need."""

    class Entries:
        """What a previous run saved."""

        def __init__(
            self,
            indexes: dict[tuple[str, str, str | None], FileIndex],
            stats: dict[str, tuple[StatKey, str]],
        ) -> None:
            self.indexes = indexes
            self.stats = stats

        def get(self, path: str, blob: str, package: str | None) -> FileIndex | None:
            return self.indexes.get((path, blob, package))

        def holds(self, records: Iterable[FileRecord]) -> bool:
            """Whether this cache holds exactly these records (then it need not be written)."""
            count = 0
            for record in records:
                count += 1
                key = (record.path, record.blob, record.package)
                if key not in self.indexes:
                    return False
                if record.stat is not None and self.stats.get(record.path) != (
                    record.stat,
                    record.blob,
                ):
                    return False
            return count == len(self.indexes)

        def blob_for(self, path: str, stat: StatKey) -> str | None:
            """The blob a working-tree file had when it last had this stat."""
            seen = self.stats.get(path)
            return seen[1] if seen is not None and seen[0] == stat else None

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.file = directory / "index.pickle"
        self.words_file = directory / "words.pickle"
        self.postings_file = directory / "postings.bin"
        self._former_postings = directory / "postings.pickle"  # of earlier versions

    def load(self) -> IndexCache.Entries | None:
        data = self._read(self.file)
        if data is None and self.directory.name.startswith("worktree-"):
            seed = seed_dir(self.directory)
            data = self._read(seed / "index.pickle") if seed is not None else None
        if data is None:
            return None
        return IndexCache.Entries(data["indexes"], data["stats"])

    def load_words(self) -> dict[tuple[str, str], bytes]:
        """The word tables saved, by path and blob (none when there is no word file)."""
        data = self._read(self.words_file)
        words: dict[tuple[str, str], bytes] = data["words"] if data is not None else {}
        return words

    def save(self, records: Iterable[FileRecord]) -> None:
        """Write the lang indexes and stats of these records, and the word tables of those
        that have theirs."""
        indexes: dict[tuple[str, str, str | None], FileIndex] = {}
        stats: dict[str, tuple[StatKey, str]] = {}
        words: dict[tuple[str, str], bytes] = {}
        for record in records:
            indexes[(record.path, record.blob, record.package)] = record.index
            if record.stat is not None:
                stats[record.path] = (record.stat, record.blob)
            if record.words is not None:
                words[(record.path, record.blob)] = record.words
        # The word file first: a start that finds an index file finds its word file too.
        self._write(self.words_file, {"format": _FORMAT, "words": words})
        self._write(self.file, {"format": _FORMAT, "indexes": indexes, "stats": stats})

    def save_words(self, records: Iterable[FileRecord]) -> None:
        """Write the word tables of these records (all of them must have theirs)."""
        words = {(r.path, r.blob): r.words for r in records if r.words is not None}
        self._write(self.words_file, {"format": _FORMAT, "words": words})

    def load_postings(self) -> Sections | None:
        """The code-search index saved (`codesearch.postings_sections`), if any."""
        try:
            with no_cyclic_gc():
                opened = FileSections(self.postings_file)
        except FileNotFoundError:
            return None
        except Exception as exc:  # a damaged or foreign cache is rebuilt, not fatal
            log.warning("ignoring the index cache %s: %s", self.postings_file, exc)
            return None
        if opened.meta.get("format") != _FORMAT:
            opened.close()
            return None
        return opened

    def save_postings(
        self, meta: Mapping[str, object], sections: Mapping[str, bytes]
    ) -> Sections | None:
        """Write the code-search index and open it; None when it could not be written."""
        file = self.postings_file
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
        with contextlib.suppress(OSError):
            self._former_postings.unlink()
        return self.load_postings()

    def _read(self, file: Path) -> dict[str, Any] | None:
        try:
            with file.open("rb") as handle, no_cyclic_gc():
                data = pickle.load(handle)  # noqa: S301 (the user's own cache directory)
        except FileNotFoundError:
            return None
        except Exception as exc:  # a damaged or foreign cache is rebuilt, not fatal
            log.warning("ignoring the index cache %s: %s", file, exc)
            return None
        if not isinstance(data, dict) or data.get("format") != _FORMAT:
            return None
        return data

    def _write(self, file: Path, payload: dict[str, object]) -> None:
        try:
            file.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=file.parent, suffix=".tmp")
            with os.fdopen(fd, "wb") as handle:
                pickler = pickle.Pickler(handle, protocol=pickle.HIGHEST_PROTOCOL)
                # Rebuilt through their constructors: much faster to load than the
                # default state restoring of slotted dataclasses.
                pickler.dispatch_table = {Scope: _reduce_scope, FileIndex: _reduce_index}
                pickler.dump(payload)
            os.replace(tmp, file)
        except OSError as exc:
            log.warning("could not write the index cache %s: %s", file, exc)
            with contextlib.suppress(OSError, UnboundLocalError):
                os.unlink(tmp)
