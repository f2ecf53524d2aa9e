"""The one place that runs git: commands, revision resolution, object and log streams.

Used by the source readers (a revision's files) and by mining (a history's commits and
diffs). Every command runs with `--no-pager` in the repository given (`-C`); git's
standard error becomes the one-line message of a SourceError.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections import OrderedDict
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
    # `:/<text>` (the youngest commit whose message matches) runs to the end of the name,
    # so it cannot be peeled with ^{commit}; it always names a commit.
    name = rev if rev.startswith(":/") else f"{rev}^{{commit}}"
    done = run(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", name)
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


UNAVAILABLE = "unavailable"  # CatFile.resolve: git could not answer (not a repository...)


class ObjectTooLarge(Exception):
    """An object larger than the reader asked for: its content was read past, not kept."""

    def __init__(self, size: int) -> None:
        super().__init__(f"{size:,} bytes")
        self.size = size


_DRAIN_CHUNK = 1 << 20


class CatFile:
    """One long-lived `git cat-file --batch`: objects by name (`<commit>:<path>`, or a
    revision peeled as `<rev>^{commit}`), read one after the other through the same
    process, started on the first read (and again if it has ended)."""

    def __init__(self, repo: Repo) -> None:
        self.repo = repo
        self._proc: subprocess.Popen[bytes] | None = None
        self.answered = False  # whether git answered the last request

    def _process(self) -> subprocess.Popen[bytes]:
        if self._proc is not None and self._proc.poll() is not None:
            self.close()  # ended (killed, or git failed): start a new one
        if self._proc is None:
            self._proc = subprocess.Popen(
                _command(self.repo, ["cat-file", "--batch"]),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        return self._proc

    @property
    def pid(self) -> int | None:
        """The process id of the running `git cat-file`, if one runs."""
        return self._proc.pid if self._proc is not None and self._proc.poll() is None else None

    def _ask(self, name: str, limit: int | None = None) -> tuple[bytes, bytes, bytes] | None:
        """(object id, type, content) of `name`; None when there is no such object;
        a header-less answer (git ended) is also None, as `read` always treated it.
        An object of more than `limit` bytes is ObjectTooLarge (read past in chunks, so
        the process stays in step and the memory bounded)."""
        raw = name.encode("utf-8", "surrogateescape")
        if b"\n" in raw:
            raise SourceError(f"{name!r}: a path with a newline cannot be read from git")
        proc = self._process()
        assert proc.stdin is not None and proc.stdout is not None
        self.answered = False
        try:
            proc.stdin.write(raw + b"\n")
            proc.stdin.flush()
        except BrokenPipeError:
            return None
        line = proc.stdout.readline()
        self.answered = bool(line)  # nothing at all: git has ended
        header = line.rstrip(b"\n").split(b" ")
        # Found: "<oid> <type> <size>". Not found: "<name> missing" (or "ambiguous"),
        # where the name may itself hold spaces.
        if len(header) != 3 or not header[2].isdigit():
            return None
        oid, kind, size = header
        if limit is not None and int(size) > limit:
            left = int(size) + 1  # and the newline after the object
            while left > 0:
                chunk = proc.stdout.read(min(left, _DRAIN_CHUNK))
                if not chunk:
                    break
                left -= len(chunk)
            raise ObjectTooLarge(int(size))
        data = proc.stdout.read(int(size))
        proc.stdout.read(1)  # the newline after the object
        return oid, kind, data

    def read(self, name: str, limit: int | None = None) -> tuple[bytes, bytes] | None:
        """(object type, content) of the object `name`, or None when there is none.
        Names are sent as bytes (a path that was not UTF-8 keeps its bytes); a name
        with a newline cannot be asked for (`--batch` reads one name a line). An
        object of more than `limit` bytes raises ObjectTooLarge."""
        found = self._ask(name, limit)
        return None if found is None else (found[1], found[2])

    def resolve(self, rev: str) -> str | None:
        """The full commit id `rev` names (as `rev-parse --verify <rev>^{commit}`), asked
        through this same process; None when it names no commit, UNAVAILABLE when git
        could not answer (then ask `resolve_commit`, which says why)."""
        if "\n" in rev:
            return UNAVAILABLE
        found = self._ask(f"{rev}^{{commit}}")
        if found is None:
            return None if self.answered else UNAVAILABLE
        return found[0].decode("ascii") if found[1] == b"commit" else None

    def close(self) -> None:
        if self._proc is not None:
            if self._proc.stdin:
                with contextlib.suppress(OSError):
                    self._proc.stdin.close()
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
            if self._proc.stdout:
                self._proc.stdout.close()
            self._proc = None


def resident_bytes(pid: int) -> int | None:
    """The resident memory of process `pid` (Linux `/proc`), or None when unknown."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        return None
    return None


class CatFilePool:
    """Long-lived `git cat-file --batch` processes by repository, the least recently
    used one closed beyond `size`: a worker's readers of any revision of a repository
    share one process, task after task."""

    def __init__(self, size: int = 2) -> None:
        self.size = max(1, size)
        self._open: OrderedDict[str, CatFile] = OrderedDict()

    def get(self, repo: Repo) -> CatFile:
        key = os.path.abspath(repo)
        found = self._open.pop(key, None)
        if found is None:
            found = CatFile(repo)
            while len(self._open) >= self.size:
                _key, oldest = self._open.popitem(last=False)
                oldest.close()
        self._open[key] = found
        return found

    def discard(self, repo: Repo) -> None:
        """Close `repo`'s process (its state is unknown after an internal error)."""
        found = self._open.pop(os.path.abspath(repo), None)
        if found is not None:
            with contextlib.suppress(Exception):
                found.close()

    def __len__(self) -> int:
        return len(self._open)

    def resident_bytes(self) -> int:
        """The resident memory of the open `git cat-file` processes (0 where unknown)."""
        pids = [c.pid for c in self._open.values()]
        return sum(resident_bytes(pid) or 0 for pid in pids if pid is not None)

    def close(self) -> None:
        while self._open:
            _key, objects = self._open.popitem()
            with contextlib.suppress(Exception):
                objects.close()


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
    "UNAVAILABLE",
    "CatFile",
    "CatFilePool",
    "is_repository",
    "output",
    "resident_bytes",
    "resolve_commit",
    "run",
    "stream",
    "tree_paths",
]
