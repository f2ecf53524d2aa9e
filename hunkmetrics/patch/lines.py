"""A diff's lines, read one at a time from its bytes.

The parser walks the lines by number (looking ahead a few), but never needs them all at
once as strings: `DiffLines` holds the bytes and where each line starts (8 bytes a
line) and decodes a line when it is asked for, instead of a decoded copy of the whole
diff and a list of all its lines (about three times the diff's size)."""

from __future__ import annotations

import re
from array import array

ENCODING = "utf-8"
ERRORS = "surrogateescape"  # keeps bytes that are not UTF-8, round-trips them exactly


class DiffLines:
    """The lines of `raw` split at `\\n` (a CR is content), without their `\\n`; the
    text after the last `\\n`, when empty, is no line."""

    def __init__(self, raw: bytes) -> None:
        self.raw = raw
        starts = array("q", [0])
        find = raw.find
        at = find(b"\n")
        while at >= 0:
            starts.append(at + 1)
            at = find(b"\n", at + 1)
        self.starts = starts
        self.count = len(starts) - 1 if raw.endswith(b"\n") or not raw else len(starts)

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, number: int) -> str:
        if not 0 <= number < self.count:
            raise IndexError(number)
        start = self.starts[number]
        end = self.starts[number + 1] - 1 if number + 1 < len(self.starts) else len(self.raw)
        return self.raw[start:end].decode(ENCODING, ERRORS)

    def matching(self, pattern: re.Pattern[bytes]) -> list[int]:
        """The numbers of the lines where `pattern` (a `^…` pattern with re.M) matches."""
        found: list[int] = []
        line = 0
        for match in pattern.finditer(self.raw):
            while line + 1 < len(self.starts) and self.starts[line + 1] <= match.start():
                line += 1
            found.append(line)
        return found
