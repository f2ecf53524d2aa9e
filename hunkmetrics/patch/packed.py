"""A hunk's lines kept packed: their texts as one string and four small integers a line.

A `Line` object with its own text takes about 200 bytes for a 40-character line: held
for every line of a big diff, the patch model took about seven times the diff's size.
`PackedLines` is a sequence of Lines made when they are read (iterated or indexed), from
one string (the texts joined by `\\n`, which no line holds) and an array of (kind, line
ending, pre-image number, post-image number) per line: about 1.4 bytes per byte of diff."""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from typing import overload

from .model import Line, LineKind

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
