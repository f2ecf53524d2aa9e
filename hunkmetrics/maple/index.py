"""MAPLE's repository index: every source file of a known language, parsed once with the
lang index, persisted by blob hash and kept current while the working tree changes."""

from __future__ import annotations

import logging
import multiprocessing
import os
import stat as stat_module
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import AbstractContextManager
from dataclasses import replace
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TypeVar

from ..errors import SourceError
from ..inputfile import max_source_bytes
from ..lang import FileIndex, build_index, default_languages
from ..sources import blob_hash, git
from ..sources.readers import WorktreeReader
from .cache import Cached, IndexCache, default_cache_base, no_cyclic_gc, path_digest, tree_cache_dir
from .codesearch import WordPostings, postings_sections
from .lines import Lines
from .names import Names
from .occurrences import word_table
from .paths import PathSet, contained
from .recent import Recent
from .records import FileRecord, Parsed, StatKey, Stored
from .rwlock import ReadWriteLock
from .sections import MemorySections
from .segment import Segment, segment_sections

__all__ = [
    "SKIP_DIRS",
    "FileRecord",
    "RepoIndex",
    "open_index",
]

log = logging.getLogger("hunkmetrics.maple")

# Directories never indexed (MAPLE's list plus VCS and virtualenv folders), matched by
# whole name, not by substring.
SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".idea",
        ".vscode",
        ".gradle",
        ".venv",
        ".tox",
        ".mypy_cache",
        "__pycache__",
        "node_modules",
        "build",
        "target",
        "bin",
        "out",
    }
)
_PARALLEL_MIN = 64  # fewer files than this are parsed in-process
_TEXT_HELD = 4 << 20  # bytes of file text (and line starts) kept: the most recently read
_STALE_POSTINGS = 0.2  # the code-search index is rebuilt when more files changed since
_Item = TypeVar("_Item")
_Result = TypeVar("_Result")


def _start_method() -> str:
    """Fork while this process runs one thread (start-up: fast, and no `__main__` guard
    needed in a script); spawn once the server runs threads, which a fork would copy
    mid-flight."""
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return "fork"
    return "spawn"


def _index_one(item: tuple[str, bytes, str | None]) -> Parsed:
    path, data, package = item
    language = default_languages().for_path(path)
    assert language is not None
    tree = language.parser().parse(data)
    index = build_index(data, language, path, package=package, tree=tree)
    return index, word_table(data, tree, language)


def _run_batch(job: tuple[Callable[[_Item], _Result], list[_Item]]) -> list[_Result]:
    one, batch = job
    return [one(item) for item in batch]


class _Tree:
    """Where files come from: a working tree on disk or a git revision."""

    description: str

    def listing(self) -> dict[str, tuple[StatKey | None, str | None]]:
        """Every candidate file: its stat key and its blob when known without reading."""
        raise NotImplementedError

    def cache_key(self) -> str:
        """The name of this tree's entry in the index cache."""
        raise NotImplementedError

    def read(self, path: str, blob: str | None) -> bytes | None:
        raise NotImplementedError

    def close(self) -> None:
        pass


class _Worktree(_Tree):
    def __init__(self, root: Path) -> None:
        self.root = root
        self.description = f"working tree {root}"
        self._files = WorktreeReader(root)

    def cache_key(self) -> str:
        """`worktree-<path digest>-<HEAD's tree id>` (`-nogit` outside git): a checkout of
        another commit gets an entry of its own, seeded from the last one."""
        done = git.run(self.root, "rev-parse", "--verify", "--quiet", "HEAD^{tree}")
        head = done.stdout.decode().strip()[:16] if done.returncode == 0 else ""
        return f"worktree-{path_digest(self.root)}-{head or 'nogit'}"

    def listing(self) -> dict[str, tuple[StatKey | None, str | None]]:
        found: dict[str, tuple[StatKey | None, str | None]] = {}
        languages = default_languages()
        pending = [(str(self.root), "")]
        while pending:
            directory, prefix = pending.pop()
            try:
                entries = list(os.scandir(directory))
            except OSError:
                continue
            for entry in entries:
                try:
                    if entry.is_dir(follow_symlinks=False):
                        if entry.name not in SKIP_DIRS:
                            pending.append((entry.path, prefix + entry.name + "/"))
                        continue
                    if languages.for_path(entry.name) is None:
                        continue
                    if entry.is_symlink():
                        stat = self.stat(Path(entry.path))
                    else:
                        st = entry.stat(follow_symlinks=False)
                        regular = stat_module.S_ISREG(st.st_mode)
                        stat = (st.st_mtime_ns, st.st_size) if regular else None
                except OSError:
                    continue
                if stat is not None:
                    found[prefix + entry.name] = stat, None
        return found

    def stat(self, full: Path) -> StatKey | None:
        """(mtime_ns, size) of a regular file inside the tree; None for anything else
        (a symlink leading out of the tree, a directory, a vanished file)."""
        try:
            st = os.lstat(full)
            if stat_module.S_ISLNK(st.st_mode):
                if not contained(self.root, full):
                    return None
                st = os.stat(full)
        except OSError:
            return None
        if not stat_module.S_ISREG(st.st_mode):
            return None
        return (st.st_mtime_ns, st.st_size)

    def read(self, path: str, blob: str | None) -> bytes | None:
        """The file's bytes as every source reader reads them (inside the tree, a regular
        file, at most `HUNKMETRICS_MAX_SOURCE_BYTES`); None for what it refuses."""
        try:
            return self._files.read(path)
        except (SourceError, OSError):
            return None


class _Revision(_Tree):
    def __init__(self, repo: Path, rev: str) -> None:
        commit = git.resolve_commit(repo, rev)
        if commit is None:
            raise SourceError(f"revision {rev!r} does not exist in {repo}")
        self.repo = repo
        self.commit = commit
        self.description = f"git revision {rev} ({commit[:12]}) of {repo}"
        self._objects = git.CatFile(repo)

    def cache_key(self) -> str:
        """`tree-<tree id>`: what the revision holds, whatever repository or name."""
        tree = git.output(self.repo, "rev-parse", f"{self.commit}^{{tree}}").decode().strip()
        return f"tree-{tree}"

    def listing(self) -> dict[str, tuple[StatKey | None, str | None]]:
        out = git.output(self.repo, "ls-tree", "-r", "-z", "--full-tree", self.commit)
        languages = default_languages()
        found: dict[str, tuple[StatKey | None, str | None]] = {}
        for entry in out.split(b"\0"):
            if not entry:
                continue
            meta, _, raw_path = entry.partition(b"\t")
            mode, kind, blob = meta.split()
            path = raw_path.decode("utf-8", "surrogateescape")
            if kind != b"blob" or mode == b"120000" or languages.for_path(path) is None:
                continue  # submodules and symlinks are not source files
            if any(part in SKIP_DIRS for part in path.split("/")[:-1]):
                continue
            found[path] = (None, blob.decode())
        return found

    def read(self, path: str, blob: str | None) -> bytes | None:
        try:  # a blob over the source cap is read past, never held, as by every reader
            found = self._objects.read(blob or f"{self.commit}:{path}", max_source_bytes())
        except git.ObjectTooLarge:
            return None
        return found[1] if found is not None and found[0] == b"blob" else None

    def close(self) -> None:
        self._objects.close()


class RepoIndex:
    """Every type and callable of a repository, by file and by bare name.

    Tool calls read it side by side (`reading()`, a shared lock); updates (a rescan, a
    re-indexed file) take it alone. Its caches of file text have a lock of their own."""

    def __init__(
        self,
        root: str | Path,
        rev: str | None = None,
        *,
        cache_dir: str | Path | None = None,
        use_cache: bool = True,
        jobs: int = 2,
        rescan_interval: float = 2.0,
    ) -> None:
        self.root = Path(root).resolve()
        if not self.root.is_dir():
            raise SourceError(f"{root}: no such directory")
        self.rev = rev
        self._tree: _Tree = _Revision(self.root, rev) if rev else _Worktree(self.root)
        self.description = self._tree.description
        self.jobs = max(1, jobs)
        self.rescan_interval = rescan_interval
        self.files: dict[str, FileRecord] = {}
        self.names = Names(self.files)
        self._segment: Segment | None = None  # what the records stored there read from
        self.warnings: list[str] = []
        self.parsed = 0  # files parsed since start (cache misses)
        self._warned: dict[tuple[str, str], None] = {}  # (path, message), in order
        self._texts: Recent[Lines] = Recent(_TEXT_HELD)
        self._order: list[str] | None = None  # sorted paths, while no file comes or goes
        self._paths = PathSet(())
        self._last_scan = 0.0
        self._rw = ReadWriteLock()
        self._small = threading.Lock()  # the object reader
        self.postings: WordPostings | None = None  # the code-search index
        self._generation = 0  # counts changes of `files`
        self._dirty: tuple[int, list[str]] = (-1, [])  # files the postings do not cover
        self._watcher: threading.Thread | None = None
        self._stop = threading.Event()
        base = Path(cache_dir) if cache_dir else default_cache_base()
        self._cache_base = base
        self._in_child = False  # building for a parent (`_build_cache`)
        self.cache_dir = tree_cache_dir(base, self._tree.cache_key()) if use_cache else None
        self._cache = IndexCache(self.cache_dir) if self.cache_dir is not None else None

    def reading(self) -> AbstractContextManager[None]:
        """Hold while reading several parts of the index at once (shared with other
        readers; an update waits for it)."""
        return self._rw.read()

    # -- building -------------------------------------------------------------------

    def build(self) -> RepoIndex:
        """Index every file, parsing only those the on-disk cache does not hold. With a
        cache that holds nothing yet, the index is built and saved by a child process
        (whose memory goes when it ends), then read from the cache."""
        with self._rw.write():
            segment = self._cache.load() if self._cache else None
            if segment is None and self._cache is not None:
                built = self._build_apart()
                segment = self._cache.load() if built is not None else None
                if segment is not None and built is not None:  # what it did counts as ours
                    parsed, warnings = built
                    self.parsed += parsed
                    for path, message in warnings:
                        self._warn(path, message)
            self._build(segment)
        return self

    def _build_apart(self) -> tuple[int, list[tuple[str, str]]] | None:
        """Build what the cache lacks (the index, the code-search index) in a child
        process and save it there; how many files it parsed and what it warned of, or
        None when it could not."""
        if self._cache is None or self._in_child:
            return None
        context = (
            multiprocessing.get_context("fork")
            if _start_method() == "fork"
            else multiprocessing.get_context("spawn")
        )
        receive, send = context.Pipe(duplex=False)
        arguments = (send, str(self.root), self.rev, str(self._cache_base), self.jobs)
        child = context.Process(target=_build_cache, args=arguments, name="maple-build")
        child.start()
        send.close()
        try:
            built: tuple[int, list[tuple[str, str]]] = receive.recv()
        except EOFError:  # it ended without a word: built here instead
            return None
        finally:
            receive.close()
            child.join()
        return built if child.exitcode == 0 else None

    def _build(self, segment: Segment | None) -> None:
        """`build` from what `segment` holds (None: parse everything)."""
        with self._rw.write():
            cached = Cached(segment) if segment is not None else None
            self._rebase(segment)
            listing = self._tree.listing()
            with no_cyclic_gc():
                changed = self._update(listing, cached)
            files = self.files  # the same paths with the records' strings (the listing's go)
            self._paths = PathSet(r.path if (r := files.get(p)) else p for p in listing)
            self._last_scan = time.monotonic()
            if changed or cached is None or not cached.holds(self.files.values()):
                self.save()
            self._load_postings()

    def _load_postings(self) -> None:
        """Read the code-search index from the cache, or build it (and save it) when
        there is none or too many files changed since it was built."""
        if self._fresh_postings() or (self._build_apart() is not None and self._fresh_postings()):
            return  # read from the cache (after a child process built it there)
        from .grambuild import file_grams, gram_sections  # numpy: only to build

        records = sorted(self.files.items())
        grams = gram_sections([file_grams(self._read(p, r.blob)) for p, r in records])
        with no_cyclic_gc():
            meta, built = postings_sections(((p, r.blob, r.words) for p, r in records), grams)
        del grams
        opened = self._cache.save_postings(meta, built) if self._cache is not None else None
        self._set_postings(WordPostings(opened or MemorySections(meta, built), self.files))
        self._generation += 1

    def _fresh_postings(self) -> bool:
        """Read the code-search index from the cache; whether it covers enough files."""
        sections = self._cache.load_postings() if self._cache is not None else None
        if sections is None or not sections.meta.get("grams"):
            return False
        self._set_postings(WordPostings(sections, self.files))
        return len(self._uncovered()) <= _STALE_POSTINGS * max(1, len(self.files))

    def _set_postings(self, postings: WordPostings) -> None:
        old, self.postings = self.postings, postings
        self._dirty = (-1, [])  # which files it covers: found again
        if old is not None:
            old.close()

    @property
    def generation(self) -> int:
        """A number that changes whenever a file is indexed again, comes or goes."""
        return self._generation

    def _uncovered(self) -> list[str]:
        """The indexed files the code-search index does not cover (new or changed since)."""
        postings = self.postings
        if postings is None:
            return self.ordered_paths()
        generation, found = self._dirty
        if generation != self._generation:
            blob_of = postings.blob_of
            found = [p for p, r in self.files.items() if blob_of.get(p) != r.blob]
            self._dirty = (self._generation, found)
        return found

    def code_candidates(self, snippet: bytes) -> list[str]:
        """The indexed paths that may hold `snippet` (all when its words do not narrow
        the search), sorted."""
        postings = self.postings
        found = postings.candidates(snippet) if postings is not None else None
        if postings is None or found is None:
            return self.ordered_paths()
        files = self.files
        kept = {
            p for p in found if (r := files.get(p)) is not None and r.blob == postings.blob_of[p]
        }
        kept.update(self._uncovered())
        return sorted(kept)

    def word_candidates(self, word: str) -> list[str]:
        """The indexed paths whose word table may hold `word`, sorted."""
        postings = self.postings
        if postings is None:
            return self.ordered_paths()
        files = self.files
        kept = {
            p
            for p in postings.files_with(word.encode())
            if (r := files.get(p)) is not None and r.blob == postings.blob_of[p]
        }
        kept.update(self._uncovered())
        return sorted(kept)

    def save(self) -> None:
        """Write the index as a new segment of the on-disk cache (held in memory without
        one) and read the files stored there from it."""
        with self._rw.write():
            records = list(self.files.values())
            meta, sections = segment_sections(records, _lang_index, _words)
            if self._cache is not None:
                segment = self._cache.save(meta, sections)
            else:
                held = {k: v if isinstance(v, bytes) else b"".join(v) for k, v in sections.items()}
                segment = Segment(MemorySections(meta, held))
            if segment is None:
                return  # not written: the records stay where they are
            for number, record in enumerate(records):
                self.files[record.path] = replace(
                    record, source=Stored(segment, number), held_words=None
                )
            self._rebase(segment)

    def _rebase(self, segment: Segment | None) -> None:
        """Read the files stored in a segment from `segment` (closing the one before)."""
        old, self._segment = self._segment, segment
        self.names.rebase(segment)
        if old is not None and old is not segment:
            old.close()

    def words(self, path: str) -> bytes:
        """The file's word table (`occurrences.word_table`)."""
        return self.files[path].words

    def _update(
        self,
        listing: dict[str, tuple[StatKey | None, str | None]],
        cached: Cached | None,
    ) -> list[str]:
        """Bring `self.files` in line with `listing`; the paths that changed."""
        # Files that came or went can change other files' packages (a new __init__.py).
        paths_changed = listing.keys() != self.files.keys()
        if paths_changed:
            self._paths = PathSet(listing)
        changed = [p for p in self.files if p not in listing]
        for path in changed:
            self._drop(path)
        todo: list[tuple[str, bytes, str | None]] = []
        seen: dict[str, tuple[StatKey | None, str, str | None]] = {}
        for path, (stat, blob) in listing.items():
            current = self.files.get(path)
            if (
                current is not None
                and (
                    (stat is not None and current.stat == stat)
                    or (blob is not None and current.blob == blob)
                )
                and (not paths_changed or current.package == self._package(path))
            ):
                continue
            if blob is None and cached is not None and stat is not None:
                blob = cached.blob_for(path, stat)
            data: bytes | None = None
            if blob is None:
                data = self._tree.read(path, None)
                if data is None:
                    self._warn(path, "could not be read")
                    continue
                blob = blob_hash(data)
            package = self._package(path)
            if current is not None and current.blob == blob and current.package == package:
                self._put(FileRecord(path, blob, stat, current.source, package, current.held_words))
                continue
            found = cached.get(path, blob, package) if cached is not None else -1
            if cached is not None and found >= 0:  # read from the segment as asked
                segment = cached.segment  # (its strings: the listing's are dropped)
                where = Stored(segment, found)
                self._put(
                    FileRecord(segment.paths[found], segment.blobs[found], stat, where, package)
                )
                continue
            if data is None:
                data = self._tree.read(path, blob)
                if data is None:
                    self._warn(path, "could not be read")
                    continue
            seen[path] = (stat, blob, package)
            todo.append((path, data, package))
            changed.append(path)
        for (path, _, _), (index, words) in zip(todo, self._parse(todo), strict=True):
            stat, blob, package = seen[path]
            self._put(FileRecord(path, blob, stat, index, package, words))
        return changed

    def _parse(self, todo: list[tuple[str, bytes, str | None]]) -> Iterator[Parsed]:
        self.parsed += len(todo)
        return self._in_parallel(_index_one, todo)

    def _in_parallel(self, one: Callable[[_Item], _Result], todo: list[_Item]) -> Iterator[_Result]:
        """`one` of each item, in order, in `jobs` processes when there are many."""
        if self.jobs == 1 or len(todo) < _PARALLEL_MIN:
            yield from (one(item) for item in todo)
            return
        size = max(4, len(todo) // (self.jobs * 32))  # small batches balance big files
        batches = [(one, todo[i : i + size]) for i in range(0, len(todo), size)]
        context = multiprocessing.get_context(_start_method())
        with ProcessPoolExecutor(max_workers=self.jobs, mp_context=context) as pool:
            for result in pool.map(_run_batch, batches):
                yield from result

    def _package(self, path: str) -> str | None:
        language = default_languages().for_path(path)
        assert language is not None
        return language.hooks.source_package(path, self._paths, language.source_roots)

    def _put(self, record: FileRecord) -> None:
        old = self.files.get(record.path)
        if old is not None:
            self.names.remove(old)
        else:
            self._order = None
        self.files[record.path] = record
        self._generation += 1
        self.names.add(record)
        self._forget_text(record.path)
        if record.parse_errors:
            self._warn(record.path, f"{record.parse_errors} syntax error(s); indexed what parses")

    def _drop(self, path: str) -> None:
        old = self.files.pop(path, None)
        self._generation += 1
        if old is not None:
            self.names.remove(old)
            self._order = None
        self._forget_text(path)

    def _forget_text(self, path: str) -> None:
        self._texts.forget(path)

    def _warn(self, path: str, message: str) -> None:
        if (path, message) not in self._warned:
            self._warned[(path, message)] = None
            self.warnings.append(f"{path}: {message}")
            log.warning("%s: %s", path, message)

    # -- keeping current ------------------------------------------------------------

    def ensure_current(self, max_age: float | None = None) -> list[str]:
        """Rescan the working tree when the last scan is older than `max_age` (default:
        the rescan interval; never while a watcher scans in the background) for new,
        deleted and changed files; the paths re-indexed. A revision never changes."""
        if not isinstance(self._tree, _Worktree):
            return []
        if max_age is None and self._watcher is not None:
            return []
        age = self.rescan_interval if max_age is None else max_age
        if time.monotonic() - self._last_scan < age:
            return []
        listing = self._tree.listing()  # the slow part, without holding the lock
        with self._rw.write():
            changed = self._update(listing, None)
            self._last_scan = time.monotonic()
            return changed

    def watch(self) -> None:
        """Rescan the working tree every rescan interval in a background thread, so that
        answers do not wait for it (they still check their own files, and a miss still
        rescans at once)."""
        if self._watcher is not None or not isinstance(self._tree, _Worktree):
            return
        self._watcher = threading.Thread(target=self._watch, name="maple-rescan", daemon=True)
        self._watcher.start()

    def _watch(self) -> None:
        while not self._stop.wait(max(self.rescan_interval, 0.05)):
            try:
                self.ensure_current(max_age=self.rescan_interval)
            except Exception:  # a bad moment on disk must not end the watching
                log.exception("rescan failed")

    def refresh(self, paths: Iterable[str]) -> bool:
        """Re-index any of these files whose mtime or size changed (or that vanished);
        whether any did."""
        tree = self._tree
        if not isinstance(tree, _Worktree):
            return False
        wanted = set(paths)
        with self._rw.read():
            stale = any(
                (r := self.files.get(p)) is None or r.stat != tree.stat(self.root / p)
                for p in wanted
            )
        if not stale:
            return False
        with self._rw.write():
            listing: dict[str, tuple[StatKey | None, str | None]] = {}
            for path in wanted:
                stat = tree.stat(self.root / path)
                if stat is not None:
                    listing[path] = (stat, None)
            full: dict[str, tuple[StatKey | None, str | None]] = {
                p: (r.stat, None) for p, r in self.files.items()
            }
            full.update(listing)
            for path in wanted - set(listing):
                full.pop(path, None)
            self._update(full, None)
            return True

    # -- reading --------------------------------------------------------------------

    def data(self, path: str, keep: bool = True) -> bytes:
        """The indexed bytes of a file (the most recently read are held; with `keep`
        false, a file not held is read without being kept: a search reading many)."""
        blob = self.files[path].blob
        held = self._texts.get(path, blob)
        if held is not None:
            return held.data
        data = self._read_tree(path, blob)
        if keep:
            held = Lines(data)
            self._texts.put(path, blob, held, held.nbytes)
        return data

    def hold(self, path: str, data: bytes) -> None:
        """Keep a file's bytes, read with `data(path, keep=False)`, among the most recently
        read (a file a search found the snippet in: the next search may too)."""
        record = self.files.get(path)
        if record is not None and self._texts.get(path, record.blob) is None:
            held = Lines(data)
            self._texts.put(path, record.blob, held, held.nbytes)

    def _read(self, path: str, blob: str) -> bytes:
        """A file's bytes, without keeping them (empty when it cannot be read)."""
        held = self._texts.get(path, blob)
        if held is not None:
            return held.data
        with self._small:
            return self._tree.read(path, blob) or b""

    def _read_tree(self, path: str, blob: str) -> bytes:
        with self._small:
            data = self._tree.read(path, blob)
        if data is None:
            raise SourceError(f"{path}: could not be read")
        return data

    def lines(self, path: str) -> Lines:
        """The file's lines (`Lines`: cut at `\\n` only, as tree-sitter counts rows); those
        of the most recently asked files are held."""
        blob = self.files[path].blob
        held = self._texts.get(path, blob)
        if held is None:
            held = Lines(self._read_tree(path, blob))
            self._texts.put(path, blob, held, held.nbytes)
        return held

    def ordered_paths(self) -> list[str]:
        """Every indexed path, sorted."""
        order = self._order
        if order is None:
            order = self._order = sorted(self.files)
        return order

    def all_texts(self, only: set[str] | None = None) -> Iterator[tuple[str, bytes]]:
        """Every indexed file's bytes (or those of `only`), by path order."""
        with self._rw.read():
            paths = self.ordered_paths() if only is None else sorted(only & self.files.keys())
            for path in paths:
                yield path, self.data(path, keep=False)

    def close(self) -> None:
        self._stop.set()
        if self._watcher is not None:
            self._watcher.join(timeout=5)
        self._tree.close()
        with self._rw.write():
            if self.postings is not None:
                self.postings.close()
            if self._segment is not None:
                self._segment.close()

    def held_bytes(self) -> dict[str, int]:
        """The bytes of the index's tables held in memory, by part: the segment's columns
        and name tables, the code-search index's vocabulary and grams, the recent texts
        (not the records' Python objects)."""
        held = {"segment": self._segment.nbytes if self._segment is not None else 0}
        postings = self.postings
        held["words"] = postings.words.nbytes if postings is not None else 0
        held["grams"] = postings.grams.nbytes if postings and postings.grams else 0
        held["texts"] = self._texts.held
        return held

    def status(self) -> str:
        """One line: what is indexed, and how many files had syntax errors."""
        scopes = sum(r.scope_count for r in self.files.values())
        broken = sum(1 for r in self.files.values() if r.parse_errors)
        line = (
            f"{self.description}: {len(self.files)} files, {scopes} types and callables, "
            f"{self.parsed} parsed, {max(0, len(self.files) - self.parsed)} from cache"
        )
        line += f"; {broken} file(s) with syntax errors" if broken else ""
        return line + (f"; cache {self.cache_dir}" if self.cache_dir is not None else "")


def _build_cache(send: Connection, root: str, rev: str | None, cache_dir: str, jobs: int) -> None:
    """In a child process: build the index of `root` (at `rev`) into its cache and send
    back how many files it parsed and what it warned of (the parent reports them)."""
    logging.getLogger("hunkmetrics.maple").setLevel(logging.ERROR)
    index = RepoIndex(root, rev, cache_dir=cache_dir, jobs=jobs)
    index._in_child = True
    index.build()
    index.close()
    send.send((index.parsed, list(index._warned)))
    send.close()


def _lang_index(record: FileRecord) -> FileIndex:
    """A record's lang index, decoded from its segment without being kept."""
    source = record.source
    return source if isinstance(source, FileIndex) else source.segment.decode(source.number)


def _words(record: FileRecord) -> bytes:
    return record.words


def open_index(
    root: str | Path,
    rev: str | None = None,
    *,
    cache_dir: str | Path | None = None,
    use_cache: bool = True,
    jobs: int = 2,
    rescan_interval: float = 2.0,
) -> RepoIndex:
    """Build (or load from its cache) the index of a working tree or a git revision."""
    return RepoIndex(
        root,
        rev,
        cache_dir=cache_dir,
        use_cache=use_cache,
        jobs=jobs,
        rescan_interval=rescan_interval,
    ).build()
