"""The code-search index: which files hold each word, built from the word tables the
index records (`occurrences.word_table`), so that `maple_find_code` reads only the files
that can hold the snippet.

A snippet's words that do not touch its ends must occur whole in a matching file (a word
is a run of `[A-Za-z0-9_$]`, the same run in the snippet and in the file); a word at an
end may be part of a longer one, and is matched against the vocabulary instead.

Beside it, an n-gram index (`GramIndex`): for every 4 bytes that occur in a file once its
runs of whitespace are each made one space, the files holding them. A snippet's match,
exact or ignoring indentation, holds the snippet's own 4-grams made the same way, so only
the files holding all of them are read (`String name = null`: 379 of spring-framework's
9,259 files instead of the 1,766 holding its three words)."""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["GRAM", "GramIndex", "WordPostings", "file_grams", "snippet_grams", "snippet_words"]

_RUN = re.compile(rb"[A-Za-z0-9_$]+")
_TABLE_WORD = re.compile(rb"\n([^ \n]+) ")
_DIGITS = frozenset(b"0123456789")
_PARTIAL_MIN = 3  # shorter word ends do not narrow the search
_PARTIAL_WORDS = 5000  # an end matching more vocabulary words than this does not either
_PARTIAL_NARROWING = 500  # nor, beside whole words, one matching more than this
_EMPTY: array[int] = array("I")
GRAM = 4  # bytes per n-gram
_SPLIT_SPACE = frozenset(" \t\n\r\x0b\x0c")  # what bytes.split() splits on

Codes = npt.NDArray[np.uint32]
Numbers = npt.NDArray[np.int64]


def _codes(text: bytes) -> Codes:
    """The distinct 4-grams of `text` as big-endian integers, sorted."""
    if len(text) < GRAM:
        return np.zeros(0, np.uint32)
    chars = np.frombuffer(text, np.uint8).astype(np.uint32)
    count = len(chars) - GRAM + 1
    codes = chars[:count] << 24
    codes |= chars[1 : count + 1] << 16
    codes |= chars[2 : count + 2] << 8
    codes |= chars[3 : count + 3]
    return np.unique(codes)


def file_grams(data: bytes) -> Codes:
    """A file's 4-grams, each run of whitespace made one space."""
    return _codes(b" ".join(data.split()))


def snippet_grams(snippet: str) -> Codes | None:
    """The 4-grams every match of the snippet holds (exact, or with other indentation and
    runs of spaces: the search's two passes); None when it has none (too short).

    The snippet's words joined by one space are in any match once its whitespace is made
    one space, as `file_grams` makes it; with whitespace bytes.split() does not split on
    (a no-break space), only each word is."""
    words = snippet.split()
    if any(ch.isspace() and ch not in _SPLIT_SPACE for ch in snippet):
        pieces = [w.encode("utf-8") for w in words]
    else:
        pieces = [" ".join(words).encode("utf-8")]
    codes = [_codes(p) for p in pieces if len(p) >= GRAM]
    if not codes:
        return None
    return np.unique(np.concatenate(codes))


class GramIndex:
    """For every 4-gram, the numbers of the files holding it: a sorted list of numbers, or
    a bitmap of all files when that is smaller (grams in more than one file in 16)."""

    def __init__(
        self,
        count: int,
        keys: Codes,
        starts: npt.NDArray[np.int64],
        numbers: npt.NDArray[np.unsignedinteger[Any]],
        rows: npt.NDArray[np.int32],
        bitmaps: npt.NDArray[np.uint8],
    ) -> None:
        self.count = count  # files
        self.keys = keys  # the grams, sorted
        self.starts = starts  # numbers[starts[k]:starts[k + 1]]: gram k's files (sparse)
        self.numbers = numbers
        self.rows = rows  # gram k's row in bitmaps, or -1
        self.bitmaps = bitmaps  # one row of count bits (little-endian) per dense gram

    @property
    def nbytes(self) -> int:
        arrays = (self.keys, self.starts, self.numbers, self.rows, self.bitmaps)
        return sum(a.nbytes for a in arrays)

    @classmethod
    def build(cls, grams: Sequence[Codes]) -> GramIndex:
        """From each file's `file_grams`, in file-number order."""
        count = len(grams)
        kind: type[np.unsignedinteger[Any]] = np.uint16 if count <= 1 << 16 else np.uint32
        total = sum(len(g) for g in grams)
        pairs = np.empty(total, np.uint64)  # gram << 32 | file number
        at = 0
        for number, codes in enumerate(grams):
            part = pairs[at : at + len(codes)]
            part[:] = codes
            part <<= np.uint64(32)
            part |= np.uint64(number)
            at += len(codes)
        pairs.sort()
        codes_all = (pairs >> np.uint64(32)).astype(np.uint32)
        numbers_all = (pairs & np.uint64(0xFFFFFFFF)).astype(kind)
        del pairs
        first = np.ones(total, bool)
        first[1:] = codes_all[1:] != codes_all[:-1]
        begins = np.flatnonzero(first)
        keys = codes_all[begins]
        del codes_all, first
        counts = np.diff(np.append(begins, total))
        width = (count + 7) // 8
        dense = counts * numbers_all.itemsize > width
        rows = np.full(len(keys), -1, np.int32)
        rows[dense] = np.arange(int(dense.sum()), dtype=np.int32)
        bitmaps = np.zeros((int(dense.sum()), width), np.uint8)
        mask = np.zeros(count, bool)
        for row, k in enumerate(np.flatnonzero(dense)):
            held = numbers_all[begins[k] : begins[k] + counts[k]]
            mask[held] = True
            bitmaps[row] = np.packbits(mask, bitorder="little")
            mask[held] = False
        sparse = ~np.repeat(dense, counts)
        numbers = numbers_all[sparse]
        starts = np.zeros(len(keys) + 1, np.int64)
        np.cumsum(np.where(dense, 0, counts), out=starts[1:])
        return cls(count, keys, starts, numbers, rows, bitmaps)

    def state(self) -> dict[str, object]:
        return {
            "count": self.count,
            "keys": self.keys,
            "starts": self.starts,
            "numbers": self.numbers,
            "rows": self.rows,
            "bitmaps": self.bitmaps,
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> GramIndex:
        return cls(
            state["count"],
            state["keys"],
            state["starts"],
            state["numbers"],
            state["rows"],
            state["bitmaps"],
        )

    def candidates(self, codes: Codes) -> Numbers:
        """The numbers of the files holding every one of these grams, sorted."""
        none = np.zeros(0, np.int64)
        if not len(self.keys):
            return none
        at = np.searchsorted(self.keys, codes)
        if (at >= len(self.keys)).any() or (self.keys[at] != codes).any():
            return none  # a gram no file holds
        rows = self.rows[at]
        sparse = at[rows < 0]
        found: Numbers | None = None
        if len(sparse):
            sizes = self.starts[sparse + 1] - self.starts[sparse]
            for k in sparse[np.argsort(sizes, kind="stable")]:
                held = self.numbers[self.starts[k] : self.starts[k + 1]].astype(np.int64)
                found = held if found is None else np.intersect1d(found, held, True)
                if not len(found):
                    return none
        dense = rows[rows >= 0]
        if len(dense):
            bits = np.bitwise_and.reduce(self.bitmaps[dense], axis=0)
            if found is None:
                found = np.flatnonzero(np.unpackbits(bits, count=self.count, bitorder="little"))
            else:
                found = found[(bits[found >> 3] >> (found & 7).astype(np.uint8)) & 1 == 1]
        assert found is not None
        return found.astype(np.int64)


def snippet_words(snippet: bytes) -> tuple[list[bytes], list[tuple[bytes, bool, bool]]]:
    """The words a match must hold whole, and the words at the snippet's ends with
    whether they are open on the left and on the right (indentation ignored)."""
    text = snippet.strip()
    whole: list[bytes] = []
    ends: list[tuple[bytes, bool, bool]] = []
    for match in _RUN.finditer(text):
        word = match.group()
        if word[0] in _DIGITS:
            continue  # not in the word tables
        left, right = match.start() == 0, match.end() == len(text)
        if left or right:
            ends.append((word, left, right))
        else:
            whole.append(word)
    return whole, ends


class WordPostings:
    """For every word, the numbers of the files that hold it, for one set of files
    (path and blob each); files indexed since are searched whatever they hold."""

    def __init__(
        self,
        paths: list[str],
        blobs: list[str],
        postings: dict[bytes, array[int]],
        grams: GramIndex | None = None,
    ) -> None:
        self.paths = paths
        self.blobs = blobs
        self.postings = postings
        self.grams = grams  # the n-gram index of the same files, when built
        self.blob_of = dict(zip(paths, blobs, strict=True))
        self._vocabulary: bytes | None = None

    @classmethod
    def build(
        cls, tables: Iterable[tuple[str, str, bytes]], grams: GramIndex | None = None
    ) -> WordPostings:
        """From (path, blob, word table) of every file (and the n-gram index of the same
        files in the same order)."""
        paths: list[str] = []
        blobs: list[str] = []
        postings: dict[bytes, array[int]] = {}
        for number, (path, blob, table) in enumerate(tables):
            paths.append(path)
            blobs.append(blob)
            for word in _TABLE_WORD.findall(table):
                found = postings.get(word)
                if found is None:
                    found = postings[word] = array("I")
                found.append(number)
        if grams is not None and grams.count != len(paths):
            raise ValueError("the n-gram index covers other files")
        return cls(paths, blobs, postings, grams)

    def state(self) -> dict[str, object]:
        """What to persist."""
        grams = self.grams.state() if self.grams is not None else None
        return {"paths": self.paths, "blobs": self.blobs, "postings": self.postings, "grams": grams}

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> WordPostings:
        grams = state.get("grams")
        found = GramIndex.from_state(grams) if grams is not None else None
        return cls(state["paths"], state["blobs"], state["postings"], found)

    def candidates(self, snippet: bytes) -> list[str] | None:
        """The paths (of this set) that may hold the snippet, sorted; None when its
        words do not narrow the search."""
        whole, ends = snippet_words(snippet)
        found: set[int] | None = None
        codes = snippet_grams(snippet.decode("utf-8", "replace")) if self.grams else None
        if self.grams is not None and codes is not None:
            found = set(self.grams.candidates(codes).tolist())
            if not found:
                return []
        for postings in sorted((self.postings.get(w, _EMPTY) for w in set(whole)), key=len):
            found = set(postings) if found is None else found.intersection(postings)
            if not found:
                return []
        for word, left, right in ends:
            if len(word) < _PARTIAL_MIN:
                continue
            words = self._vocabulary_matches(word, left, right)
            if words is None or (found is not None and len(words) > _PARTIAL_NARROWING):
                continue
            files: set[int] = set()
            for match in words:
                files.update(self.postings[match])
            found = files if found is None else found & files
        if found is None:
            return None
        return sorted(self.paths[n] for n in found)

    def _vocabulary_matches(self, word: bytes, left: bool, right: bool) -> list[bytes] | None:
        """The vocabulary's words that hold `word` (at their end unless open on the
        left, at their start unless open on the right); None when too many do."""
        if self._vocabulary is None:
            self._vocabulary = b"\n" + b"\n".join(self.postings) + b"\n"
        text = self._vocabulary
        needle = (b"" if left else b"\n") + word + (b"" if right else b"\n")
        found: list[bytes] = []
        at = text.find(needle)
        while at >= 0:
            start = text.rfind(b"\n", 0, at + (0 if left else 1)) + 1
            end = text.find(b"\n", at + len(needle) - (0 if right else 1))
            found.append(text[start:end])
            if len(found) > _PARTIAL_WORDS:
                return None
            at = text.find(needle, end)
        return found
