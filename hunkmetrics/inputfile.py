"""Reading an input file without letting it take the machine down: only regular files
(a device such as /dev/zero, a FIFO or a socket would never end, or wait forever for a
writer), and documents read whole no larger than a cap. Every input reader uses it:
trajectories and harness logs, manifests, results and attempt lines, outcomes, category
rules; patches have their own cap (`HUNKMETRICS_MAX_PATCH_BYTES`, patch/parse.py).
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


def max_input_bytes() -> int:
    """The largest document read whole: `HUNKMETRICS_MAX_INPUT_BYTES` or 512 MiB."""
    value = os.environ.get(MAX_INPUT_BYTES_ENV)
    if value is None:
        return DEFAULT_MAX_INPUT_BYTES
    if not value.isascii() or not value.isdigit() or int(value) < 1:
        raise HunkmetricsError(f"{MAX_INPUT_BYTES_ENV}={value!r}: expected a number of bytes")
    return int(value)


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
            data = handle.read(cap + 1)
        except OSError as exc:
            raise HunkmetricsError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if len(data) > cap:
        raise HunkmetricsError(
            f"{path}: larger than {cap:,} bytes, the most hunkmetrics reads of a {what} "
            f"(set {MAX_INPUT_BYTES_ENV} to read more)"
        )
    return data
