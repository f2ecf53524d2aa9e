"""Apply one file's hunks to a text in memory, checking every context and removed line."""

from __future__ import annotations

import re
from collections.abc import Callable

from ..errors import SourceError
from ..patch.model import FileDiff, LineKind
from ..patch.parse import decode, encode


def split_lines(text: str) -> list[str]:
    """Split on "\\n" only, keeping the endings (str.splitlines also splits on \\r, \\f…)."""
    if not text:
        return []
    parts = text.split("\n")
    lines = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _content(line: str) -> str:
    return line[:-1].removesuffix("\r") if line.endswith("\n") else line.removesuffix("\r")


def mismatch(file_diff: FileDiff, lines: list[str]) -> str | None:
    """Why `lines` are not this file's pre-image (first bad line), or None if they are."""
    return _first_mismatch(file_diff, len(lines), lambda n: _content(lines[n - 1]))


def _first_mismatch(file_diff: FileDiff, count: int, content: Callable[[int], str]) -> str | None:
    """`mismatch` over a text of `count` lines, line n's content (without its ending)
    given by `content(n)`."""
    for hunk in file_diff.hunks:
        if hunk.old_lines == 0 and hunk.old_start > count:
            return (
                f"the insertion point, line {hunk.old_start}, is past the end of the file "
                f"({count} lines)"
            )
        for line in hunk.lines:
            if line.kind is LineKind.ADDED or line.old_lineno is None:
                continue
            n = line.old_lineno
            if n > count:
                return f"line {n} is past the end of the file ({count} lines)"
            if content(n) != line.text:
                return f"line {n} differs from the diff's {line.kind.value} line"
    return None


def unchecked_hunks(file_diff: FileDiff) -> list[str]:
    """The headers of hunks with no context and no removed line (as `-U0` insertions
    have): nothing but their insertion point can be checked against a text."""
    return [
        f"@@ -{h.old_start},{h.old_lines} +{h.new_start},{h.new_lines} @@"
        for h in file_diff.hunks
        if all(line.kind is LineKind.ADDED for line in h.lines)
    ]


def apply_file(pre: bytes, file_diff: FileDiff) -> bytes:
    """The post-image of `pre` under `file_diff`, byte for byte.

    Worked on the bytes: the lines between hunks are copied as one slice each, and only
    the lines the hunks check are decoded (as `split_lines(decode(pre))` has them: a
    line ends at a newline byte, which never belongs to a longer character)."""
    lines = _ByteLines(pre)
    problem = _first_mismatch(file_diff, lines.count, lines.content)
    if problem:
        raise SourceError(f"{file_diff.path}: the source does not match the patch: {problem}")
    out: list[bytes] = []
    cursor = 0  # index of the next line not yet copied
    for hunk in file_diff.hunks:
        start = hunk.old_start - 1 if hunk.old_lines else hunk.old_start
        if start < cursor:
            raise SourceError(f"{file_diff.path}: hunks overlap or are out of order")
        out.append(pre[lines.offset(cursor) : lines.offset(start)])
        cursor = start
        for line in hunk.lines:
            if line.kind is LineKind.ADDED:
                out.append(encode(line.text + line.eol))
            else:
                if cursor >= lines.count:  # numbering the checks could not see (no number)
                    raise SourceError(
                        f"{file_diff.path}: the source does not match the patch: line "
                        f"{cursor + 1} is past the end of the file ({lines.count} lines)"
                    )
                if line.kind is LineKind.CONTEXT:
                    kept = pre[lines.offset(cursor) : lines.offset(cursor + 1)]
                    # The file's incomplete last line, followed by more lines: end it.
                    out.append(kept if kept.endswith(b"\n") else kept + encode(line.eol))
                cursor += 1
    out.append(pre[lines.offset(cursor) :])
    return b"".join(out)


_NEWLINE = re.compile(b"\n")


class _ByteLines:
    """The lines of a text as `split_lines` cuts them, by their offsets in the bytes."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        # where each line starts, then where the text ends (after a last line without
        # a newline, that line's end); a regular expression finds the newlines about as
        # fast as numpy, which would cost a command 75 ms to import
        self.starts: list[int] = [0, *(m.end() for m in _NEWLINE.finditer(data))]
        self.count = len(self.starts) - 1
        if data and not data.endswith(b"\n"):
            self.starts.append(len(data))
            self.count += 1

    def offset(self, i: int) -> int:
        """Where line i (0-based) starts; the end of the text for any line after the
        last (a slice up to there holds every line left, as a list slice would)."""
        return self.starts[i] if i < len(self.starts) else len(self.data)

    def content(self, n: int) -> str:
        """Line n (1-based) decoded, without its line ending (`_content`)."""
        return _content(decode(self.data[self.starts[n - 1] : self.starts[n]]))
