"""Where file text comes from: a working tree or a git revision."""

from __future__ import annotations

import contextlib
from pathlib import Path, PurePosixPath
from typing import Protocol

from ..errors import SourceError
from . import git


class FileReader(Protocol):
    """Reads files of one tree by their repository-relative, `/`-separated path."""

    description: str

    def read(self, path: str) -> bytes | None:
        """The file's bytes, or None when the tree has no such file."""
        ...

    def exists(self, path: str) -> bool: ...

    def close(self) -> None: ...


def _safe(path: str) -> str:
    parts = PurePosixPath(path).parts
    if path.startswith("/") or ".." in parts:
        raise SourceError(f"{path}: path leaves the repository")
    return path


class WorktreeReader:
    """Files of a directory on disk."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        if not self.root.exists():
            raise SourceError(f"{root}: no such directory")
        if not self.root.is_dir():
            raise SourceError(f"{root}: not a directory")
        self.description = f"working tree {self.root}"

    def read(self, path: str) -> bytes | None:
        target = self.root / _safe(path)
        return target.read_bytes() if target.is_file() else None

    def exists(self, path: str) -> bool:
        return (self.root / _safe(path)).exists()

    def close(self) -> None:
        pass


class GitRevisionReader:
    """Files of a git revision, read through one long-lived `git cat-file --batch`.

    Works on bare repositories and mirrors; nothing is checked out."""

    def __init__(self, repo: str | Path, rev: str) -> None:
        self.repo = Path(repo)
        if not self.repo.exists():
            raise SourceError(f"{repo}: no such repository")
        self.rev = rev
        commit = git.resolve_commit(self.repo, rev)
        if commit is None:
            raise SourceError(f"revision {rev!r} does not exist in {repo}")
        self.commit = commit
        self.description = f"git revision {rev} ({self.commit[:12]}) of {self.repo}"
        self._objects = git.CatFile(self.repo)
        self._paths: set[str] | None = None

    def read(self, path: str) -> bytes | None:
        found = self._objects.read(f"{self.commit}:{_safe(path)}")
        if found is None:
            return None
        kind, data = found
        return data if kind == b"blob" else None

    def exists(self, path: str) -> bool:
        if self._paths is None:
            self._paths = git.tree_paths(self.repo, self.commit)
        return path in self._paths

    def close(self) -> None:
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
    repo: str | Path, rev: str | None = None, path_prefix: str | None = None
) -> FileReader:
    """A working-tree reader, or a git-revision reader when `rev` is given; with
    `path_prefix`, the patch's paths are relative to that directory of the tree."""
    reader: FileReader = GitRevisionReader(repo, rev) if rev else WorktreeReader(repo)
    if path_prefix and path_prefix.strip("/"):
        return PrefixedReader(reader, path_prefix)
    return reader
