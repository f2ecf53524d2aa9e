"""The byte edits that turn one image of a file into the other, from the patch's hunks, so
that tree-sitter can re-parse the second image incrementally from the first one's tree
(`tree.edit` for each, then `parser.parse(new, old_tree)`).

The hunks are trusted only where the texts confirm them: the bytes between and around
the hunks must be equal in both images, else there are no edits (parse afresh)."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass

from ..patch.model import Hunk

Point = tuple[int, int]  # (row, column in bytes), 0-based, as tree-sitter counts


@dataclass(frozen=True, slots=True)
class Edit:
    """One `Tree.edit`: bytes start..old_end of the tree's text became start..new_end.
    Positions are those of the text with every earlier edit already made."""

    start_byte: int
    old_end_byte: int
    new_end_byte: int
    start_point: Point
    old_end_point: Point
    new_end_point: Point


_NEWLINE = re.compile(b"\n")


def _newlines(data: bytes) -> list[int]:
    """The offset of every newline byte, in order (a regular expression finds them about
    as fast as numpy, which would cost `hunks --repo` 75 ms to import)."""
    return [m.start() for m in _NEWLINE.finditer(data)]


def _line_offset(newlines: Sequence[int], size: int, line: int) -> int | None:
    """Where 0-based line `line` begins (after a final newline, the empty last row; the
    text's end for the line after the last one); None past that."""
    if line == 0:
        return 0
    if line <= len(newlines):
        return newlines[line - 1] + 1
    return size if line == len(newlines) + 1 else None


def _point(newlines: Sequence[int], offset: int) -> Point:
    """The (row, column) of a byte offset: its row is the count of newlines before it."""
    row = bisect_left(newlines, offset)
    return row, offset - (newlines[row - 1] + 1 if row else 0)


def _advance(point: Point, text: bytes) -> Point:
    """The point reached after `text` from `point`."""
    lines = text.count(b"\n")
    if not lines:
        return point[0], point[1] + len(text)
    return point[0] + lines, len(text) - text.rfind(b"\n") - 1


#: A hunk's header: old start, old line count, new start, new line count.
Header = tuple[int, int, int, int]


def headers(hunks: Sequence[Hunk]) -> tuple[Header, ...]:
    """The hunks' `@@ -a,b +c,d @@` numbers."""
    return tuple((h.old_start, h.old_lines, h.new_start, h.new_lines) for h in hunks)


def reversed_headers(ranges: Sequence[Header]) -> tuple[Header, ...]:
    """The headers of the same hunks read from the new text to the old one."""
    return tuple((c, d, a, b) for a, b, c, d in ranges)


def hunk_edits(old: bytes, new: bytes, hunks: Sequence[Hunk]) -> list[Edit] | None:
    """The edits, in order, that turn `old` into `new` line range by line range, one per
    hunk; None when the hunks do not describe the two texts exactly (a line range out of
    the file, hunks out of order, or different bytes between them)."""
    return header_edits(old, new, headers(hunks))


def header_edits(old: bytes, new: bytes, ranges: Sequence[Header]) -> list[Edit] | None:
    """`hunk_edits` from the hunks' headers."""
    old_newlines, new_newlines = _newlines(old), _newlines(new)
    old_view, new_view = memoryview(old), memoryview(new)
    edits: list[Edit] = []
    old_done = new_done = 0  # where the previous hunk ended, in each text
    for old_start, old_lines, new_start, new_lines in ranges:
        # a range of 0 lines sits after line `start`: it begins where that line ends
        first_old = old_start - 1 if old_lines else old_start
        first_new = new_start - 1 if new_lines else new_start
        last_old, last_new = first_old + old_lines, first_new + new_lines
        if min(first_old, first_new) < 0:
            return None
        old_begin = _line_offset(old_newlines, len(old), first_old)
        old_end = _line_offset(old_newlines, len(old), last_old)
        new_begin = _line_offset(new_newlines, len(new), first_new)
        new_end = _line_offset(new_newlines, len(new), last_new)
        if old_begin is None or old_end is None or new_begin is None or new_end is None:
            return None
        if old_begin < old_done or new_begin < new_done:
            return None
        if old_view[old_done:old_begin] != new_view[new_done:new_begin]:
            return None
        start = _point(new_newlines, new_begin)
        edits.append(
            Edit(
                new_begin,
                new_begin + old_end - old_begin,
                new_end,
                start,
                _advance(start, old[old_begin:old_end]),
                _advance(start, new[new_begin:new_end]),
            )
        )
        old_done, new_done = old_end, new_end
    if old_view[old_done:] != new_view[new_done:]:
        return None
    return edits
