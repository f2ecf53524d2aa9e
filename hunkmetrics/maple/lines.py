"""A file's lines as a sequence over its bytes: where each line starts is held (4 bytes a
line), each line decoded when asked, so the lines of a file cost little more than its
text (a list of strings costs about 2.5 times as much)."""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from itertools import accumulate, count
from operator import add
from typing import overload

__all__ = ["Lines"]


class Lines(Sequence[str]):
    """The lines of `data` without their endings, cut at `\\n` only (as tree-sitter counts
    rows), each decoded as UTF-8 (an undecodable byte read as U+FFFD) without a final
    `\\r`; index 0 is line 1. After the last newline, nothing or a lone `\\r` is no line.
    Where the lines start is found on first need."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self._starts: array[int] | None = None
        self._count = 0

    def _line_starts(self) -> array[int]:
        starts = self._starts
        if starts is None:
            # piece i of data.split(b"\n") starts after pieces 0..i-1 and their newlines;
            # the last entry is where a piece after the last would start
            pieces = self.data.split(b"\n")
            starts = array("I", [0])
            starts.extend(map(add, accumulate(map(len, pieces)), count(1)))
            self._count = len(pieces) - (pieces[-1] in (b"", b"\r"))
            self._starts = starts
        return starts

    def __len__(self) -> int:
        self._line_starts()
        return self._count

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> list[str]: ...
    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return [self._line(n) for n in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError("line out of range")
        return self._line(i)

    def _line(self, i: int) -> str:
        starts = self._line_starts()
        piece = self.data[starts[i] : starts[i + 1] - 1]
        return piece.decode("utf-8", "replace").removesuffix("\r")

    @property
    def nbytes(self) -> int:
        """The bytes it holds (about): the text and where its lines start."""
        return len(self.data) + 4 * (self.data.count(b"\n") + 2)
