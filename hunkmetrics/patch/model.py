"""The immutable patch model: Patch ⊃ FileDiff ⊃ Hunk ⊃ Line.

A Line object with its own text takes about 200 bytes for a 40-character line: held for
every line of a big diff, the model took about seven times the diff's size. The parser
gives each hunk `PackedLines`: a sequence of Lines made when they are read (iterated or
indexed), from one string (the texts joined by `\\n`, which no line holds) and four
int32 a line (kind, line ending, pre-image number, post-image number)."""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import overload


class LineKind(StrEnum):
    CONTEXT = "context"
    REMOVED = "removed"
    ADDED = "added"


class FileStatus(StrEnum):
    MODIFIED = "modified"
    ADDED = "added"
    DELETED = "deleted"
    RENAMED = "renamed"
    COPIED = "copied"


@dataclass(frozen=True, slots=True)
class Line:
    """One hunk line, without its marker and without its line ending.

    `eol` is the line ending the line had in the file ("\\n", "\\r\\n", or "" when the
    diff said "\\ No newline at end of file").
    """

    kind: LineKind
    text: str
    old_lineno: int | None
    new_lineno: int | None
    eol: str = "\n"

    def swapped(self) -> Line:
        kind = {
            LineKind.REMOVED: LineKind.ADDED,
            LineKind.ADDED: LineKind.REMOVED,
        }.get(self.kind, self.kind)
        return Line(kind, self.text, self.new_lineno, self.old_lineno, self.eol)


KINDS = (LineKind.CONTEXT, LineKind.REMOVED, LineKind.ADDED)
_KIND_CODE = {kind: code for code, kind in enumerate(KINDS)}
EOLS = ("\n", "\r\n", "")
_EOL_CODE = {eol: code for code, eol in enumerate(EOLS)}
_FIELDS = 4
_INT32 = (1 << 31) - 1


class PackedLines(Sequence[Line]):
    """A hunk's lines, equal (and hashing equal) to the tuple of the same Lines."""

    __slots__ = ("_codes", "_text")

    def __init__(self, texts: Sequence[str], codes: array[int]) -> None:
        self._text = "\n".join(texts)
        self._codes = codes

    def __len__(self) -> int:
        return len(self._codes) // _FIELDS

    def __iter__(self) -> Iterator[Line]:
        codes = self._codes
        for k, text in enumerate(self._text.split("\n") if len(self) else ()):
            kind, eol, old, new = codes[_FIELDS * k : _FIELDS * k + _FIELDS]
            yield Line(KINDS[kind], text, old or None, new or None, EOLS[eol])

    @overload
    def __getitem__(self, key: int) -> Line: ...

    @overload
    def __getitem__(self, key: slice) -> tuple[Line, ...]: ...

    def __getitem__(self, key: int | slice) -> Line | tuple[Line, ...]:
        return tuple(self)[key]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PackedLines | tuple):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))


def pack(lines: Sequence[Line]) -> PackedLines | tuple[Line, ...]:
    """`lines` packed; as a tuple when a number does not fit (over 2**31)."""
    codes = array("i")
    for line in lines:
        old, new = line.old_lineno or 0, line.new_lineno or 0
        if old > _INT32 or new > _INT32 or line.eol not in _EOL_CODE or "\n" in line.text:
            return tuple(lines)
        codes.extend((_KIND_CODE[line.kind], _EOL_CODE[line.eol], old, new))
    return PackedLines([line.text for line in lines], codes)


@dataclass(frozen=True, slots=True)
class Hunk:
    """One `@@` block (or one change region when re-cut)."""

    index: int
    path: str
    old_start: int
    old_lines: int
    new_start: int
    new_lines: int
    section: str
    # a tuple, or PackedLines (Lines made when read, below) from the parser
    lines: Sequence[Line]

    @property
    def removed(self) -> tuple[Line, ...]:
        return tuple(line for line in self.lines if line.kind is LineKind.REMOVED)

    @property
    def added(self) -> tuple[Line, ...]:
        return tuple(line for line in self.lines if line.kind is LineKind.ADDED)

    @property
    def removed_text(self) -> list[str]:
        return [line.text for line in self.lines if line.kind is LineKind.REMOVED]

    @property
    def added_text(self) -> list[str]:
        return [line.text for line in self.lines if line.kind is LineKind.ADDED]

    @property
    def insertion_points(self) -> tuple[int, ...]:
        """For each run of added lines that replaces nothing, the pre-image line after
        which it is inserted (0 = top of file)."""
        points: list[int] = []
        last_old = self.old_start - 1 if self.old_lines else self.old_start
        prev: LineKind | None = None
        for line in self.lines:
            if line.kind is LineKind.ADDED and prev in (None, LineKind.CONTEXT):
                points.append(last_old)
            if line.old_lineno is not None:
                last_old = line.old_lineno
            prev = line.kind
        return tuple(points)

    @property
    def changed_lines(self) -> tuple[int, ...]:
        """The spec's changed lines: removed lines' pre-image numbers or, for a hunk that
        only adds, its insertion point(s)."""
        removed = tuple(line.old_lineno for line in self.removed if line.old_lineno)
        return removed if removed else self.insertion_points

    @property
    def is_pure_addition(self) -> bool:
        return not self.removed and bool(self.added)

    def swapped(self) -> Hunk:
        return replace(
            self,
            old_start=self.new_start,
            old_lines=self.new_lines,
            new_start=self.old_start,
            new_lines=self.old_lines,
            lines=pack(_reverse_line_order(tuple(line.swapped() for line in self.lines))),
        )


def _reverse_line_order(lines: tuple[Line, ...]) -> tuple[Line, ...]:
    """After swapping sides, put removed lines before added lines in each change run,
    as a diff tool would print them."""
    out: list[Line] = []
    removed: list[Line] = []
    added: list[Line] = []
    for line in lines:
        if line.kind is LineKind.CONTEXT:
            out.extend(removed)
            out.extend(added)
            removed, added = [], []
            out.append(line)
        elif line.kind is LineKind.REMOVED:
            removed.append(line)
        else:
            added.append(line)
    out.extend(removed)
    out.extend(added)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class FileDiff:
    """The changes to one file."""

    old_path: str | None  # None for an added file
    new_path: str | None  # None for a deleted file
    status: FileStatus
    hunks: tuple[Hunk, ...]
    old_blob: str | None = None  # abbreviated blob hash from the `index` line
    new_blob: str | None = None
    old_mode: str | None = None
    new_mode: str | None = None
    is_binary: bool = False
    # A plain diff says a file is new (or deleted) only with /dev/null; without it, a
    # lone `@@ -0,0 …` hunk is read as a new file but may be an empty one that exists
    # (git decides by whether it does). True when the status was read that way.
    status_guessed: bool = False
    # Why the path selection (lang/selection.py) left this file out; its hunks are
    # dropped then.
    selection_reason: str | None = None

    @property
    def path(self) -> str:
        """The file's name in the post-image, or in the pre-image when deleted."""
        return self.new_path if self.new_path is not None else (self.old_path or "")

    @property
    def is_mode_only(self) -> bool:
        return not self.hunks and not self.is_binary and self.old_mode != self.new_mode

    @property
    def special_kind(self) -> str | None:
        """ "symlink" or "submodule" when git's mode says the entry is one: its hunk holds
        a link target or a commit id, not source lines."""
        modes = {self.old_mode, self.new_mode}
        if "120000" in modes:
            return "symlink"
        if "160000" in modes:
            return "submodule"
        return None

    @property
    def excluded_reason(self) -> str | None:
        """Why this file takes no part in the metrics, or None."""
        if self.selection_reason is not None:
            return self.selection_reason
        if self.is_binary:
            return "binary"
        special = self.special_kind
        if special is not None:
            return special
        if self.is_mode_only:
            return "mode change only"
        if not self.hunks:
            return "no content change"
        return None

    def swapped(self) -> FileDiff:
        status = {
            FileStatus.ADDED: FileStatus.DELETED,
            FileStatus.DELETED: FileStatus.ADDED,
        }.get(self.status, self.status)
        return replace(
            self,
            old_path=self.new_path,
            new_path=self.old_path,
            status=status,
            hunks=tuple(h.swapped() for h in self.hunks),
            old_blob=self.new_blob,
            new_blob=self.old_blob,
            old_mode=self.new_mode,
            new_mode=self.old_mode,
        )


@dataclass(frozen=True, slots=True)
class Patch:
    """A parsed unified diff. `hunks` holds every content hunk in file order, indexed
    from 0; binary and mode-only files are kept in `files` but have no hunks."""

    name: str
    files: tuple[FileDiff, ...]
    warnings: tuple[str, ...] = field(default=())
    reversed: bool = False
    hunking: str = "as-given"

    @property
    def hunks(self) -> tuple[Hunk, ...]:
        return tuple(h for f in self.files for h in f.hunks)

    @property
    def content_files(self) -> tuple[FileDiff, ...]:
        return tuple(f for f in self.files if f.excluded_reason is None)
