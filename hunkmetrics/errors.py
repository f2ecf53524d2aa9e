"""Errors the library raises on purpose, and the exit codes the CLI maps them to."""

from __future__ import annotations

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


class MissingExtraError(HunkmetricsError):
    """An optional dependency is not installed; the message names the extra to install."""


def error_line(exc: BaseException) -> str:
    """The one line a dataset record's "error" holds: an input error's own message, or
    `internal error: Type: message` for anything else (a bug, on that item only)."""
    text = " ".join(str(exc).split())
    if isinstance(exc, HunkmetricsError):
        return text or type(exc).__name__
    return f"internal error: {type(exc).__name__}" + (f": {text}" if text else "")
