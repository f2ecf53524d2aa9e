"""How much memory a worker may use (`--max-memory`).

A worker's limit is its address space (RLIMIT_AS): past it an allocation fails, Python
raises MemoryError in that worker only, and the item becomes one row that says so
(`errors.out_of_memory_line`: "needs more than 9.0 GB of memory; raise --max-memory or
split it") while the machine, the driver and the other workers go on. The default gives
each worker an equal share of three quarters of the machine's memory, so that `--jobs N`
workers can never take it all between them.
"""

from __future__ import annotations

import contextlib
import gc
import os
import re
from collections.abc import Iterator

from .errors import HunkmetricsError

try:  # not on Windows: there no limit is set
    import resource
except ImportError:  # pragma: no cover - depends on the platform
    resource = None  # type: ignore[assignment]

MACHINE_SHARE = 0.75  # of the machine's memory, split between the workers
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def machine_memory() -> int | None:
    """The machine's physical memory in bytes, when the platform says."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        return None


def default_limit(jobs: int) -> int | None:
    """Each of `jobs` workers' share: three quarters of the machine's memory / jobs."""
    total = machine_memory()
    return int(total * MACHINE_SHARE / max(jobs, 1)) if total else None


def parse_size(text: str) -> int | None:
    """`4G`, `512M`, `1.5GB`, `800000000` in bytes; `0`, `none` or `unlimited`: no limit."""
    if text.strip().lower() in ("0", "none", "unlimited", "off"):
        return None
    match = _SIZE.match(text)
    if match is None:
        raise HunkmetricsError(
            f"--max-memory {text!r}: give a size such as 4G, 512M or 1.5GB (0 for no limit)"
        )
    number, unit = float(match.group(1)), match.group(2).upper()
    size = int(number * _UNITS[unit])
    if size < 64 << 20:
        raise HunkmetricsError(f"--max-memory {text!r}: a worker needs at least 64M to start")
    return size


def limit_this_process(limit: int | None) -> None:
    """Cap this process's address space at `limit` bytes (never above a hard limit)."""
    if limit is None or resource is None:
        return
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


AUTO = "auto"


def resolve_limit(value: int | str | None, jobs: int) -> int | None:
    """A worker's limit in bytes: `"auto"` is `default_limit(jobs)`, a string a size
    (`parse_size`), an int bytes, None no limit."""
    if value == AUTO:
        return default_limit(jobs)
    if isinstance(value, str):
        return parse_size(value)
    return value


@contextlib.contextmanager
def no_cyclic_gc() -> Iterator[None]:
    """Pause Python's cycle collector while many acyclic objects are made (a patch read, a
    cache loaded, an index built): it would walk the growing heap again and again, nearly
    doubling the time, and find nothing to free."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
