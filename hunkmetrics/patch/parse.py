"""Unified diff bytes → the project's Patch model.

The diff is read line by line (lines end in `\\n` only; a CR is content) into file
sections (sections.py), each made a FileDiff (convert.py). `parse_patch` keeps the
whole patch; patch/stream.py reads the same files one at a time. Every error is one
PatchError line."""

from __future__ import annotations

from pathlib import Path

from ..memory import no_cyclic_gc
from .convert import check_options, file_diffs, no_file_changes, plain_strip
from .model import Patch
from .source import (
    DEFAULT_MAX_PATCH_BYTES,
    MAX_PATCH_BYTES_ENV,
    MemorySource,
    max_patch_bytes,
    read_patch_bytes,
    read_stdin_bytes,
)
from .stream import DiffReading
from .text import ENCODING, ERRORS, decode, encode, patch_error, show

__all__ = [
    "DEFAULT_MAX_PATCH_BYTES",
    "ENCODING",
    "ERRORS",
    "MAX_PATCH_BYTES_ENV",
    "decode",
    "encode",
    "max_patch_bytes",
    "parse_patch",
    "patch_error",
    "read_patch",
    "read_patch_bytes",
    "read_stdin_bytes",
    "show",
]


def read_patch(
    source: str | Path,
    *,
    reverse: bool = False,
    hunking: str = "as-given",
    stdin: bytes | None = None,
    strip: int | None = None,
) -> Patch:
    """Read a diff from a path (or `-` with `stdin` bytes) and parse it."""
    if str(source) == "-":
        if stdin is None:
            raise patch_error("no diff on standard input")
        return parse_patch(stdin, name="<stdin>", reverse=reverse, hunking=hunking, strip=strip)
    data = read_patch_bytes(source)
    return parse_patch(data, name=str(source), reverse=reverse, hunking=hunking, strip=strip)


def parse_patch(
    data: bytes | str,
    *,
    name: str = "<patch>",
    reverse: bool = False,
    hunking: str = "as-given",
    strip: int | None = None,
) -> Patch:
    """Parse a unified diff (git or plain) into a Patch.

    `reverse` swaps pre- and post-image; `hunking` is "as-given" (the `@@` blocks) or
    "regions" (re-cut as git would with 3 lines of context). `strip`: how many leading
    directories to remove from a plain (non-git) diff's names, as `patch -p<strip>`;
    None (the default) guesses from the names (docs/patches.md). `diff --git` sections
    carry their own prefixes and ignore it."""
    check_options(hunking, strip)
    raw = data if isinstance(data, bytes) else encode(data)
    reading = DiffReading.open(MemorySource(raw, name))
    with no_cyclic_gc():
        sections = list(reading.sections())
    if not sections:
        raise no_file_changes(name)
    warnings = list(reading.warnings)
    files = file_diffs(
        sections,
        name,
        plain_strip(sections),
        strip,
        reverse=reverse,
        hunking=hunking,
        warn=warnings.append,
    )
    return Patch(
        name=name, files=tuple(files), warnings=tuple(warnings), reversed=reverse, hunking=hunking
    )
