"""Patches: the immutable model and the parsing of unified diffs."""

from .model import FileDiff, FileStatus, Hunk, Line, LineKind, Patch
from .parse import parse_patch, read_patch

__all__ = [
    "FileDiff",
    "FileStatus",
    "Hunk",
    "Line",
    "LineKind",
    "Patch",
    "parse_patch",
    "read_patch",
]
