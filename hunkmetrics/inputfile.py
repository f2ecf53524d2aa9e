"""Reading an input file without letting it take the machine down: only regular files
(a device such as /dev/zero, a FIFO or a socket would never end, or wait forever for a
writer), and documents read whole no larger than a cap. Every input reader uses it:
trajectories and harness logs, manifests, results and attempt lines, outcomes, category
rules; patches have their own cap (`HUNKMETRICS_MAX_PATCH_BYTES`, patch/source.py), and
so have source files read from a repository (`HUNKMETRICS_MAX_SOURCE_BYTES`).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from .errors import HunkmetricsError

MAX_INPUT_BYTES_ENV = "HUNKMETRICS_MAX_INPUT_BYTES"
# A document read whole (a trajectory, a JSON log): parsed, it takes several times its
# size in memory; 512 MiB stays well inside a machine of a few GB per worker.
DEFAULT_MAX_INPUT_BYTES = 512 * 1024 * 1024


def env_bytes(name: str, default: int) -> int:
    """A size cap from the environment variable `name` (a number of bytes), or `default`."""
    value = os.environ.get(name)
    if value is None:
        return default
    if not value.isascii() or not value.isdigit() or int(value) < 1:
        raise HunkmetricsError(f"{name}={value!r}: expected a number of bytes")
    return int(value)


def max_input_bytes() -> int:
    """The largest document read whole: `HUNKMETRICS_MAX_INPUT_BYTES` or 512 MiB."""
    return env_bytes(MAX_INPUT_BYTES_ENV, DEFAULT_MAX_INPUT_BYTES)


MAX_SOURCE_BYTES_ENV = "HUNKMETRICS_MAX_SOURCE_BYTES"
# One source file read from a working tree or a git revision, as large as the largest
# patch read: its tree takes up to 100 bytes a byte (lang/parse_guard.py).
DEFAULT_MAX_SOURCE_BYTES = 64 * 1024 * 1024


def max_source_bytes() -> int:
    """The largest source file read: `HUNKMETRICS_MAX_SOURCE_BYTES` or 64 MiB."""
    return env_bytes(MAX_SOURCE_BYTES_ENV, DEFAULT_MAX_SOURCE_BYTES)


def source_too_large(path: str, size: int, where: str, cap: int) -> str:
    """The one line that refuses a source file of `size` bytes over `cap`."""
    return (
        f"{path}: {size:,} bytes in the {where}, more than the {cap:,} bytes hunkmetrics "
        f"reads of one source file (set {MAX_SOURCE_BYTES_ENV} to read more, or place "
        "the hunks from the diff alone, without sources)"
    )


READ_CHUNK = 1 << 20


def read_capped(stream: BinaryIO, limit: int, expected: int = 0) -> bytes:
    """Up to `limit` + 1 bytes of `stream` (one more than the limit shows it is over),
    read as they come: `read(limit + 1)` would reserve the whole limit in memory first,
    whatever the input's size. `expected`: the size it is known to have, read at once."""
    parts = [stream.read(min(expected, limit) + 1)] if expected else []
    total = sum(len(part) for part in parts)
    while total <= limit and (not parts or parts[-1]):
        part = stream.read(min(READ_CHUNK, limit + 1 - total))
        if not part:
            break
        parts.append(part)
        total += len(part)
    return parts[0] if len(parts) == 1 else b"".join(parts)


def open_input(path: str | Path, what: str = "input") -> BinaryIO:
    """`path` open for reading in binary, once it is known to be a regular file; anything
    else is a one-line HunkmetricsError naming `what` it should have been (`trajectory`,
    `the manifest`)."""
    target = Path(path)
    if target.is_dir():
        raise HunkmetricsError(f"{target}: is a directory, not a file ({what})")
    try:
        # Non-blocking, so that a FIFO does not wait for a writer before it is refused.
        fd = os.open(target, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise HunkmetricsError(f"{target}: no such file ({what})") from None
    except OSError as exc:
        raise HunkmetricsError(f"{target}: cannot read: {exc.strerror or exc}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise HunkmetricsError(
                f"{target}: a device, FIFO or socket, not a regular file ({what})"
            )
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_input(path: str | Path, what: str = "input", limit: int | None = None) -> bytes:
    """The bytes of a regular file read whole, at most `limit` (default `max_input_bytes`);
    a larger one is a one-line HunkmetricsError saying how to read it anyway."""
    cap = max_input_bytes() if limit is None else limit
    with open_input(path, what) as handle:
        try:
            data = read_capped(handle, cap, os.fstat(handle.fileno()).st_size)
        except OSError as exc:
            raise HunkmetricsError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if len(data) > cap:
        raise HunkmetricsError(
            f"{path}: larger than {cap:,} bytes, the most hunkmetrics reads of a {what} "
            f"(set {MAX_INPUT_BYTES_ENV} to read more)"
        )
    return data
