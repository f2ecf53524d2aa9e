"""Path safety: every path an agent names is checked before it is matched or read."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from ..sources.readers import contained

__all__ = ["MAX_ARGUMENT", "PathSet", "UnsafePath", "agent_path", "contained"]

MAX_ARGUMENT = 4096  # longer names and snippets are refused before any work


class UnsafePath(ValueError):
    """A path that names something outside the repository, or no path at all."""


def agent_path(root: Path, name: str) -> str:
    """A file name an agent gave, as a repository-relative `/` path (possibly a suffix
    such as `Foo.java`). Absolute paths must lie inside `root`; `..`, NUL bytes and
    over-long names are refused."""
    if not name or not name.strip():
        raise UnsafePath("the file name is empty")
    if "\0" in name:
        raise UnsafePath("the file name contains a NUL byte")
    if len(name) > MAX_ARGUMENT:
        raise UnsafePath(f"the file name is longer than {MAX_ARGUMENT} characters")
    text = name.strip().replace("\\", "/")
    if text.startswith("/"):
        try:
            relative = PurePosixPath(text).relative_to(root.as_posix())
        except ValueError:
            raise UnsafePath(f"{name}: absolute path outside the repository") from None
        text = relative.as_posix()
    parts = [p for p in PurePosixPath(text).parts if p != "."]
    if ".." in parts:
        raise UnsafePath(f"{name}: '..' is not allowed in a repository path")
    if not parts:
        raise UnsafePath(f"{name}: names the repository itself, not a file")
    return "/".join(parts)


class PathSet:
    """The repository's files and their directories, as a `TreeReader` for the
    language hooks that find packages (Python's `__init__.py` chain)."""

    def __init__(self, files: Iterable[str]) -> None:
        self._paths: set[str] = set()
        for path in files:
            self._paths.add(path)
            cut = path.rfind("/")
            while cut > 0 and path[:cut] not in self._paths:
                self._paths.add(path[:cut])
                cut = path.rfind("/", 0, cut)

    def exists(self, path: str) -> bool:
        return path in self._paths
