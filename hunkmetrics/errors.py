"""Errors the library raises on purpose, and the exit codes the CLI maps them to."""

from __future__ import annotations

try:  # not on Windows, where no memory limit is set
    import resource
except ImportError:  # pragma: no cover - depends on the platform
    resource = None  # type: ignore[assignment]

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_INPUT = 2


class HunkmetricsError(Exception):
    """Base class: bad input the user can fix. The message is one line, meant for a
    person: line breaks in it are folded into spaces."""

    def __init__(self, *args: object) -> None:
        if len(args) == 1 and isinstance(args[0], str):
            args = (" ".join(args[0].splitlines()),)
        super().__init__(*args)


class PatchError(HunkmetricsError):
    """The diff is empty, truncated or not a unified diff."""


class SourceError(HunkmetricsError):
    """The sources given do not exist or do not match the patch."""


class ArgumentError(HunkmetricsError, ValueError):
    """A library call's arguments are wrong or contradict each other."""


def finite_setting(name: str, value: float, least: float | None = 0.0) -> float:
    """`value` if a setting called `name` may take it: a finite number, at least `least`
    (None: any); else ArgumentError. NaN passes a `< 0` test and compares false with
    everything, and JSON has no NaN or infinity."""
    import math

    if not math.isfinite(value) or (least is not None and value < least):
        bound = "" if least is None else f" ≥ {least:g}"
        raise ArgumentError(f"{name} must be a finite number{bound}, not {value}")
    return value


class MissingExtraError(HunkmetricsError):
    """An optional dependency is not installed; the message names the extra to install."""


class MemoryLimitError(HunkmetricsError):
    """An item needed more memory than its worker may use (`--max-memory`)."""


def size_text(size: int) -> str:
    """A size as people write it: `9.0 GB`, `300 MB`."""
    if size >= 1 << 30:
        return f"{size / (1 << 30):.1f} GB"
    return f"{size / (1 << 20):.0f} MB"


def out_of_memory_line() -> str:
    """What a row says when its item ran out of memory in this process: the limit this
    worker runs under (its address space), or that the machine itself had no more."""
    soft = resource.getrlimit(resource.RLIMIT_AS)[0] if resource is not None else None
    if soft is None or soft == resource.RLIM_INFINITY:
        return "ran out of memory (the machine had no more to give); run it alone or split it"
    return f"needs more than {size_text(soft)} of memory; raise --max-memory or split it"


def command_out_of_memory_line() -> str:
    """What a command says when it ran out of memory: a resource limit, not a bug, with
    the limit it ran under (its address space) and what to do."""
    soft = resource.getrlimit(resource.RLIMIT_AS)[0] if resource is not None else None
    if soft is None or soft == resource.RLIM_INFINITY:
        return (
            "out of memory: the machine had no more to give; close other programs or split "
            "the patch (batch and mine run each patch under --max-memory)"
        )
    return (
        f"out of memory: this needs more than {size_text(soft)}, the address-space limit "
        "the command runs under (ulimit -v); raise it or split the patch"
    )


def error_line(exc: BaseException) -> str:
    """The one line a dataset record's "error" holds: an input error's own message, or
    `internal error: Type: message` for anything else (a bug, on that item only)."""
    text = " ".join(str(exc).split())
    if isinstance(exc, MemoryError):  # say what to do, not "internal error"
        return out_of_memory_line()
    if isinstance(exc, HunkmetricsError):
        return text or type(exc).__name__
    return f"internal error: {type(exc).__name__}" + (f": {text}" if text else "")
