"""Where file text comes from: a working tree or a git revision."""

from __future__ import annotations

import contextlib
import subprocess
from pathlib import Path, PurePosixPath
from typing import Protocol

from ..errors import SourceError


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
        commit = self._git(
            "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"
        )
        if commit is None:
            raise SourceError(f"revision {rev!r} does not exist in {repo}")
        self.commit = commit.strip()
        self.description = f"git revision {rev} ({self.commit[:12]}) of {self.repo}"
        self._proc: subprocess.Popen[bytes] | None = None
        self._paths: set[str] | None = None

    def _git(self, *args: str) -> str | None:
        try:
            done = subprocess.run(
                ["git", "-C", str(self.repo), *args], capture_output=True, check=False
            )
        except FileNotFoundError:
            raise SourceError("git is not installed or not on PATH") from None
        if done.returncode != 0:
            if b"not a git repository" in done.stderr:
                raise SourceError(f"{self.repo}: not a git repository")
            return None
        return done.stdout.decode("utf-8", "replace")

    def _batch(self) -> subprocess.Popen[bytes]:
        if self._proc is None:
            self._proc = subprocess.Popen(
                ["git", "-C", str(self.repo), "cat-file", "--batch"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        return self._proc

    def read(self, path: str) -> bytes | None:
        proc = self._batch()
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(f"{self.commit}:{_safe(path)}\n".encode())
        proc.stdin.flush()
        header = proc.stdout.readline().split()
        if len(header) != 3:  # "<spec> missing" or "ambiguous"
            return None
        _sha, kind, size = header
        data = proc.stdout.read(int(size))
        proc.stdout.read(1)  # the newline after the object
        return data if kind == b"blob" else None

    def exists(self, path: str) -> bool:
        if self._paths is None:
            listing = self._git("ls-tree", "-r", "-t", "--name-only", "-z", self.commit) or ""
            self._paths = set(listing.split("\0"))
        return path in self._paths

    def close(self) -> None:
        if self._proc is not None:
            if self._proc.stdin:
                self._proc.stdin.close()
            self._proc.wait(timeout=10)
            self._proc = None

    def __del__(self) -> None:  # a forgotten reader must not leave a zombie
        with contextlib.suppress(Exception):
            self.close()


def open_reader(repo: str | Path, rev: str | None = None) -> FileReader:
    """A working-tree reader, or a git-revision reader when `rev` is given."""
    return GitRevisionReader(repo, rev) if rev else WorktreeReader(repo)
