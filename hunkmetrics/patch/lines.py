"""A diff's lines, read one at a time from its bytes as they come.

The parser reads each line once, looking one line ahead at most: `split_lines` decodes
a line when it is reached, from chunks of bytes (a file read a megabyte at a time, or a
diff already in memory), so that neither a decoded copy of the whole diff nor a list of
its lines ever exists. `LineCursor` is the parser's view: the current line, the next,
and the current line's number."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .text import ENCODING, ERRORS


def split_lines(chunks: Iterable[bytes], *, crlf: bool = False) -> Iterator[str]:
    """The lines of the bytes `chunks` join to, split at `\\n` (a CR is content), without
    their `\\n`, as `str.split("\\n")` gives them; the text after the last `\\n`, when
    empty, is no line. `crlf`: read CRLF line ends as LF (a line ended by `\\r\\n` loses
    its `\\r`; the last line, with no `\\n` after it, keeps one)."""
    carry = b""
    for chunk in chunks:
        if not chunk:
            continue
        pieces = (carry + chunk).split(b"\n")
        carry = pieces.pop()
        for piece in pieces:
            if crlf and piece.endswith(b"\r"):
                piece = piece[:-1]
            yield piece.decode(ENCODING, ERRORS)
    if carry:
        yield carry.decode(ENCODING, ERRORS)


class LineCursor:
    """Lines read in order: `line` is the current one (None past the end), `ahead` the
    one after it, `number` the current line's number from 0."""

    __slots__ = ("_lines", "ahead", "line", "number")

    def __init__(self, lines: Iterable[str]) -> None:
        self._lines = iter(lines)
        self.number = 0
        self.line: str | None = next(self._lines, None)
        self.ahead: str | None = next(self._lines, None) if self.line is not None else None

    def advance(self) -> None:
        """Move to the next line."""
        if self.line is None:
            return
        self.line, self.ahead = self.ahead, next(self._lines, None)
        self.number += 1
