"""Where file text comes from: a working tree or a git revision."""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path, PurePosixPath
from typing import Protocol, runtime_checkable

from ..errors import SourceError
from ..inputfile import max_source_bytes, read_capped, source_too_large
from . import git

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # opening a FIFO must not wait for a writer


@runtime_checkable
class LinkReader(Protocol):
    """A reader that can also give a symbolic link's own target."""

    def read_link(self, path: str) -> bytes | None: ...


class FileReader(Protocol):
    """Reads files of one tree by their repository-relative, `/`-separated path."""

    description: str

    def read(self, path: str) -> bytes | None:
        """The file's bytes, or None when the tree has no such file."""
        ...

    def exists(self, path: str) -> bool: ...

    def close(self) -> None: ...


def _safe(path: str) -> str:
    if "\0" in path:
        raise SourceError(f"{path!r}: a path with a NUL byte names no file")
    # `..` is a segment of the path exactly when it is one of PurePosixPath's parts
    if path.startswith("/") or ".." in path.split("/"):
        raise SourceError(f"{path}: path leaves the repository")
    return path


def contained(root: Path, path: Path) -> bool:
    """Whether `path`, with every symbolic link resolved, lies inside `root` (itself
    resolved): the one containment rule of the working-tree reader and of MAPLE."""
    try:
        real = Path(os.path.realpath(path))
    except (OSError, ValueError):
        return False
    return real == root or real.is_relative_to(root)


class WorktreeReader:
    """Files of a directory on disk, never outside it.

    Every path is resolved (symbolic links included) before it is read: one that leads
    outside the root, through a link anywhere on the way, is a SourceError naming it.
    Only regular files are read (not a FIFO or a device); a symbolic link inside the
    tree is followed, and `read_link` gives a link's own target, as git stores it."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        if not self.root.exists():
            raise SourceError(f"{root}: no such directory")
        if not self.root.is_dir():
            raise SourceError(f"{root}: not a directory")
        self._real_root = self.root.resolve()
        self.description = f"working tree {self.root}"

    def _inside(self, path: str) -> Path:
        """The real location of `path`, checked to be inside the root."""
        real = (self._real_root / _safe(path)).resolve()
        if not contained(self._real_root, real):
            raise SourceError(
                f"{path}: a symbolic link leads outside the {self.description}; "
                "hunkmetrics reads nothing outside the repository"
            )
        return real

    def read(self, path: str) -> bytes | None:
        """The file's bytes; one larger than `max_source_bytes` is a SourceError."""
        real = self._inside(path)
        try:
            fd = os.open(real, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | _NONBLOCK)
        except OSError:  # missing, or swapped for a link since it was resolved
            return None
        with os.fdopen(fd, "rb") as handle:
            status = os.fstat(fd)
            if not stat.S_ISREG(status.st_mode):
                return None  # a directory, FIFO, socket or device: not a source file
            cap = max_source_bytes()
            data = read_capped(handle, cap, status.st_size)
            if len(data) > cap:
                raise SourceError(
                    source_too_large(path, max(status.st_size, len(data)), self.description, cap)
                )
            return data

    def read_link(self, path: str) -> bytes | None:
        """The target of the symbolic link `path` (what git stores as its content), or
        None when `path` is not a link. The target is not followed."""
        target = self._inside(str(PurePosixPath(path).parent)) / PurePosixPath(path).name
        try:
            return os.fsencode(os.readlink(target))
        except OSError:
            return None

    def exists(self, path: str) -> bool:
        try:
            return self._inside(path).exists()
        except SourceError:
            return False  # outside the root: not part of this tree

    def close(self) -> None:
        pass


class GitRevisionReader:
    """Files of a git revision, read through one long-lived `git cat-file --batch`.

    Works on bare repositories and mirrors; nothing is checked out. The revision is
    resolved through the same process. With `objects` (a worker's process for this
    repository, `git.CatFilePool`), that process is shared and outlives the reader;
    without, the reader starts its own and `close` ends it. A path read twice in a row
    (a modified file's old and new path) is read from git once."""

    def __init__(self, repo: str | Path, rev: str, objects: git.CatFile | None = None) -> None:
        self.repo = Path(repo)
        if not self.repo.exists():
            raise SourceError(f"{repo}: no such repository")
        self.rev = rev
        self._owns_objects = objects is None
        self._objects = objects if objects is not None else git.CatFile(self.repo)
        commit = self._objects.resolve(rev)
        if commit == git.UNAVAILABLE or (commit is None and rev.startswith(":/")):
            commit = git.resolve_commit(self.repo, rev)  # says why (not a repository...)
        if commit is None:
            self.close()
            raise SourceError(f"revision {rev!r} does not exist in {repo}")
        self.commit = commit
        self.description = f"git revision {rev} ({self.commit[:12]}) of {self.repo}"
        self._paths: set[str] | None = None
        self._last: tuple[str, tuple[bytes, bytes] | None] | None = None

    def _object(self, path: str) -> tuple[bytes, bytes] | None:
        name = f"{self.commit}:{_safe(path)}"
        if self._last is not None and self._last[0] == name:
            return self._last[1]
        cap = max_source_bytes()
        try:
            found = self._objects.read(name, limit=cap)
        except git.ObjectTooLarge as exc:
            raise SourceError(source_too_large(path, exc.size, self.description, cap)) from None
        self._last = (name, found)
        return found

    def read(self, path: str) -> bytes | None:
        found = self._object(path)
        if found is None:
            return None
        kind, data = found
        return data if kind == b"blob" else None

    def read_link(self, path: str) -> bytes | None:
        """The target of the symbolic link `path` (its blob), or None when not a link."""
        found = self._object(path)
        if found is None or found[0] != b"blob" or self._mode(path) != "120000":
            return None
        return found[1]

    def _mode(self, path: str) -> str | None:
        listed = git.run(self.repo, "ls-tree", "-z", self.commit, "--", path)
        fields = listed.stdout.split(b" ", 1)
        return fields[0].decode() if listed.returncode == 0 and len(fields) == 2 else None

    def exists(self, path: str) -> bool:
        if self._paths is None:
            self._paths = git.tree_paths(self.repo, self.commit)
        return path in self._paths

    def close(self) -> None:
        self._last = None
        if self._owns_objects:
            self._objects.close()

    def __del__(self) -> None:  # a forgotten reader must not leave a zombie
        with contextlib.suppress(Exception):
            self.close()


class PrefixedReader:
    """Another reader's files under a directory: the patch's path `p` is read as
    `prefix/p` (a patch made relative to a subdirectory, a monorepo's project, or
    Defects4J's Joda-Time patches for commits whose sources sit under `JodaTime/`)."""

    def __init__(self, inner: FileReader, prefix: str) -> None:
        self.inner = inner
        self.prefix = _safe(prefix.strip("/"))
        self.description = f"{inner.description}, paths under {self.prefix}/"

    def read(self, path: str) -> bytes | None:
        return self.inner.read(f"{self.prefix}/{_safe(path)}")

    def exists(self, path: str) -> bool:
        return self.inner.exists(f"{self.prefix}/{_safe(path)}")

    def close(self) -> None:
        self.inner.close()


def open_reader(
    repo: str | Path,
    rev: str | None = None,
    path_prefix: str | None = None,
    *,
    objects: git.CatFilePool | None = None,
) -> FileReader:
    """A working-tree reader, or a git-revision reader when `rev` is given; with
    `path_prefix`, the patch's paths are relative to that directory of the tree. With
    `objects`, a git-revision reader uses the pool's process for `repo`."""
    reader: FileReader
    if rev:
        shared = objects.get(repo) if objects is not None and Path(repo).exists() else None
        reader = GitRevisionReader(repo, rev, shared)
    else:
        reader = WorktreeReader(repo)
    if path_prefix and path_prefix.strip("/"):
        return PrefixedReader(reader, path_prefix)
    return reader
