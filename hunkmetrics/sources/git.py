"""The one place that runs git: commands, revision resolution, object and log streams.

Used by the source readers (a revision's files) and by mining (a history's commits and
diffs). Every command runs with `--no-pager` in the repository given (`-C`); git's
standard error becomes the one-line message of a SourceError.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO

from ..errors import SourceError

Repo = str | Path


def _command(repo: Repo, args: Sequence[str]) -> list[str]:
    return ["git", "--no-pager", "-C", str(repo), *args]


def _first_line(stderr: bytes, code: int) -> str:
    lines = stderr.decode("utf-8", "replace").strip().splitlines()
    return lines[0] if lines else f"exit {code}"


def run(repo: Repo, *args: str, input: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run `git args…` in `repo` and return what it did, whatever its exit status
    (SourceError only when git itself cannot be started)."""
    try:
        return subprocess.run(_command(repo, args), input=input, capture_output=True, check=False)
    except FileNotFoundError:
        raise SourceError("git is not installed or not on PATH") from None


def output(repo: Repo, *args: str, input: bytes | None = None) -> bytes:
    """The standard output of `git args…` in `repo`, or a SourceError with git's first
    line of error when it fails."""
    done = run(repo, *args, input=input)
    if done.returncode != 0:
        raise SourceError(
            f"git {args[0]} failed in {repo}: {_first_line(done.stderr, done.returncode)}"
        )
    return done.stdout


def is_repository(repo: Repo) -> bool:
    """Whether `repo` is (inside) a git repository, bare or not."""
    return run(repo, "rev-parse", "--git-dir").returncode == 0


def resolve_commit(repo: Repo, rev: str) -> str | None:
    """The full commit id `rev` names in `repo`, or None when it names no commit.
    A directory that is not a git repository is a SourceError."""
    done = run(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}")
    if done.returncode != 0:
        if b"not a git repository" in done.stderr:
            raise SourceError(f"{repo}: not a git repository")
        return None
    return done.stdout.decode("utf-8", "replace").strip()


def tree_paths(repo: Repo, commit: str) -> set[str]:
    """Every path (files and directories) in `commit`'s tree; empty when git fails."""
    done = run(repo, "ls-tree", "-r", "-t", "--name-only", "-z", commit)
    if done.returncode != 0:
        return {""}  # as the split of an empty listing: no path exists
    return set(done.stdout.decode("utf-8", "surrogateescape").split("\0"))


class CatFile:
    """One long-lived `git cat-file --batch`: objects by name (`<commit>:<path>`), read
    one after the other through the same process, started on the first read."""

    def __init__(self, repo: Repo) -> None:
        self.repo = repo
        self._proc: subprocess.Popen[bytes] | None = None

    def _process(self) -> subprocess.Popen[bytes]:
        if self._proc is None:
            self._proc = subprocess.Popen(
                _command(self.repo, ["cat-file", "--batch"]),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        return self._proc

    def read(self, name: str) -> tuple[bytes, bytes] | None:
        """(object type, content) of the object `name`, or None when there is none.
        Names are sent as bytes (a path that was not UTF-8 keeps its bytes); a name
        with a newline cannot be asked for (`--batch` reads one name a line)."""
        raw = name.encode("utf-8", "surrogateescape")
        if b"\n" in raw:
            raise SourceError(f"{name!r}: a path with a newline cannot be read from git")
        proc = self._process()
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(raw + b"\n")
        proc.stdin.flush()
        header = proc.stdout.readline().rstrip(b"\n").split(b" ")
        # Found: "<oid> <type> <size>". Not found: "<name> missing" (or "ambiguous"),
        # where the name may itself hold spaces.
        if len(header) != 3 or not header[2].isdigit():
            return None
        _sha, kind, size = header
        data = proc.stdout.read(int(size))
        proc.stdout.read(1)  # the newline after the object
        return kind, data

    def close(self) -> None:
        if self._proc is not None:
            if self._proc.stdin:
                self._proc.stdin.close()
            self._proc.wait(timeout=10)
            self._proc = None


def _split_stream(stream: IO[bytes], separator: bytes, chunk: int = 1 << 16) -> Iterator[bytes]:
    buffer = b""
    while True:
        data = stream.read(chunk)
        if not data:
            break
        buffer += data
        *records, buffer = buffer.split(separator)
        yield from records
    if buffer:
        yield buffer


def stream(repo: Repo, *args: str, separator: bytes = b"\0") -> Iterator[bytes]:
    """The standard output of `git args…` in `repo`, cut at `separator`, read while git
    writes it. Stopping early kills git; a failure of git is a SourceError at the end."""
    cmd = _command(repo, args)
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except FileNotFoundError:
        raise SourceError("git is not installed or not on PATH") from None
    with proc:
        assert proc.stdout is not None and proc.stderr is not None
        try:
            yield from _split_stream(proc.stdout, separator)
        finally:
            if proc.poll() is None:
                proc.kill()
            stderr = proc.stderr.read()
            code = proc.wait()
        if code not in (0, -9):
            raise SourceError(f"git {args[0]} failed in {repo}: {_first_line(stderr, code)}")


__all__ = [
    "CatFile",
    "is_repository",
    "output",
    "resolve_commit",
    "run",
    "stream",
    "tree_paths",
]
