"""One run at a time per output file: the advisory lock `batch` and `mine` both hold.

Two runs appending to one JSON Lines file would interleave their lines and write ids
twice. The lock is `flock` on the output itself, taken before the output is read for
`resume` and held until the run ends; the kernel releases it however the run ends (a
SIGKILL included). Where `fcntl` does not exist (Windows) there is no lock.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from ..errors import HunkmetricsError


def _acquire(out: Path, command: str) -> int | None:
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock
        return None
    if out.is_dir():
        raise HunkmetricsError(f"{out}: is a directory; --out names a file")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(out, os.O_RDONLY | os.O_CREAT, 0o644)
    except OSError as exc:
        raise HunkmetricsError(f"{out}: cannot write ({exc.strerror})") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise HunkmetricsError(
            f"{out}: another hunkmetrics {command} is writing this file"
        ) from None
    return fd


def _remove_if_empty(path: Path) -> None:
    with contextlib.suppress(OSError):
        if path.stat().st_size == 0:
            path.unlink()


@contextlib.contextmanager
def output_lock(out: str | Path, command: str, *, keep_empty: bool = False) -> Iterator[None]:
    """Hold the output's lock for the block; HunkmetricsError (naming `command`) when
    another run holds it. A file this call created and nothing wrote is removed at the
    end, unless `keep_empty`."""
    path = Path(out)
    existed = path.exists()
    fd = _acquire(path, command)
    try:
        yield
    finally:
        if not existed and not keep_empty:
            _remove_if_empty(path)
        if fd is not None:
            os.close(fd)


__all__ = ["output_lock"]
