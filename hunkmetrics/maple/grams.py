"""The n-gram index, as a search reads it: for every 4 bytes that occur in a file once its
runs of whitespace are each made one space, the numbers of the files holding them (a
sorted list, or a bitmap of all files when that is smaller). The grams and where their
files lie are held in memory; the lists and bitmaps are read from the section file gram
by gram. Built by `grambuild` (with numpy, which a search does not import)."""

from __future__ import annotations

import bisect
from collections.abc import Iterable

from .keytable import NumberRuns, read_array
from .sections import Sections

__all__ = ["GRAM", "GramIndex", "gram_codes", "snippet_grams"]

GRAM = 4  # bytes per n-gram
_SPLIT_SPACE = frozenset(" \t\n\r\x0b\x0c")  # what bytes.split() splits on
_BITS = tuple(tuple(bit for bit in range(8) if byte >> bit & 1) for byte in range(256))


def gram_codes(text: bytes) -> set[int]:
    """The distinct 4-grams of `text`, each as a big-endian number."""
    return {int.from_bytes(text[i : i + GRAM], "big") for i in range(len(text) - GRAM + 1)}


def snippet_grams(snippet: str) -> list[int] | None:
    """The 4-grams every match of the snippet holds (exact, or with other indentation and
    runs of spaces: the search's two passes), sorted; None when it has none (too short).

    The snippet's words joined by one space are in any match once its whitespace is made
    one space, as the index makes a file's; with whitespace bytes.split() does not split
    on (a no-break space), only each word is."""
    words = snippet.split()
    if any(ch.isspace() and ch not in _SPLIT_SPACE for ch in snippet):
        pieces = [w.encode("utf-8") for w in words]
    else:
        pieces = [" ".join(words).encode("utf-8")]
    codes: set[int] = set()
    for piece in pieces:
        codes |= gram_codes(piece)
    return sorted(codes) if codes else None


class GramIndex:
    """The files holding every one of some grams, by file number."""

    def __init__(self, sections: Sections) -> None:
        meta = sections.meta["grams"]
        self.count: int = meta["count"]  # files
        self.keys = read_array(sections, "grams.keys", meta["keys"])  # the grams, sorted
        # gram k's files: numbers starts[k]..starts[k + 1], or (none there) the bitmap of
        # row r, where dense[r] == k
        self.starts = read_array(sections, "grams.starts", meta["starts"])
        self.dense = read_array(sections, "grams.dense", meta["dense"])
        self._numbers = NumberRuns(sections, "grams.numbers", meta["numbers"], held=False)
        self._sections = sections
        self._width = (self.count + 7) // 8  # bytes per bitmap row

    @property
    def nbytes(self) -> int:
        """The bytes it keeps in memory."""
        return sum(a.itemsize * len(a) for a in (self.keys, self.starts, self.dense))

    def candidates(self, codes: Iterable[int]) -> list[int]:
        """The numbers of the files holding every one of these grams, sorted."""
        keys, starts = self.keys, self.starts
        sparse: list[int] = []
        dense: list[int] = []
        for code in codes:
            at = bisect.bisect_left(keys, code)
            if at == len(keys) or keys[at] != code:
                return []  # a gram no file holds
            if starts[at + 1] > starts[at]:
                sparse.append(at)
            else:
                dense.append(bisect.bisect_left(self.dense, at))
        found: set[int] | None = None
        for at in sorted(sparse, key=lambda k: starts[k + 1] - starts[k]):
            held = self._numbers.slice(starts[at], starts[at + 1])
            found = set(held) if found is None else found.intersection(held)
            if not found:
                return []
        if dense:
            bits = int.from_bytes(self._row(dense[0]), "little")
            for row in dense[1:]:
                bits &= int.from_bytes(self._row(row), "little")
            mask = bits.to_bytes(self._width, "little")
            if found is None:
                return [8 * i + bit for i, byte in enumerate(mask) if byte for bit in _BITS[byte]]
            found = {n for n in found if mask[n >> 3] >> (n & 7) & 1}
        return sorted(found) if found is not None else list(range(self.count))

    def _row(self, row: int) -> bytes:
        return self._sections.read("grams.bitmaps", row * self._width, (row + 1) * self._width)
