"""A file's lines as a sequence over its bytes: where each line starts is held (4 bytes a
line), each line decoded when asked, so the lines of a file cost little more than its
text (a list of strings costs about 2.5 times as much)."""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import overload

__all__ = ["Lines"]


class Lines(Sequence[str]):
    """The lines of `data` without their endings, cut at `\\n` only (as tree-sitter counts
    rows), each decoded as UTF-8 (an undecodable byte read as U+FFFD) without a final
    `\\r`; index 0 is line 1. After the last newline, nothing or a lone `\\r` is no line."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        starts = array("I", [0])
        at = data.find(b"\n")
        while at >= 0:
            starts.append(at + 1)
            at = data.find(b"\n", at + 1)
        if data[starts[-1] :] not in (b"", b"\r"):  # a last line without a newline
            starts.append(len(data) + 1)  # (as if it had one)
        self._starts = starts  # line i: starts[i] up to the newline before starts[i + 1]

    def __len__(self) -> int:
        return len(self._starts) - 1

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
        piece = self.data[self._starts[i] : self._starts[i + 1] - 1]
        return piece.decode("utf-8", "replace").removesuffix("\r")

    @property
    def nbytes(self) -> int:
        """The bytes it holds: the text and where its lines start."""
        return len(self.data) + self._starts.itemsize * len(self._starts)
