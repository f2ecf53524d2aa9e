"""The code-search index: which files hold each word, built from the word tables the
index records (`occurrences.word_table`), so that `maple_find_code` reads only the files
that can hold the snippet.

A snippet's words that do not touch its ends must occur whole in a matching file (a word
is a run of `[A-Za-z0-9_$]`, the same run in the snippet and in the file); a word at an
end may be part of a longer one, and is matched against the vocabulary instead."""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable

__all__ = ["WordPostings", "snippet_words"]

_RUN = re.compile(rb"[A-Za-z0-9_$]+")
_TABLE_WORD = re.compile(rb"\n([^ \n]+) ")
_DIGITS = frozenset(b"0123456789")
_PARTIAL_MIN = 3  # shorter word ends do not narrow the search
_PARTIAL_WORDS = 5000  # an end matching more vocabulary words than this does not either
_PARTIAL_NARROWING = 500  # nor, beside whole words, one matching more than this
_EMPTY: array[int] = array("I")


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
        self, paths: list[str], blobs: list[str], postings: dict[bytes, array[int]]
    ) -> None:
        self.paths = paths
        self.blobs = blobs
        self.postings = postings
        self.blob_of = dict(zip(paths, blobs, strict=True))
        self._vocabulary: bytes | None = None

    @classmethod
    def build(cls, tables: Iterable[tuple[str, str, bytes]]) -> WordPostings:
        """From (path, blob, word table) of every file."""
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
        return cls(paths, blobs, postings)

    def state(self) -> dict[str, object]:
        """What to persist."""
        return {"paths": self.paths, "blobs": self.blobs, "postings": self.postings}

    def candidates(self, snippet: bytes) -> list[str] | None:
        """The paths (of this set) that may hold the snippet, sorted; None when its
        words do not narrow the search."""
        whole, ends = snippet_words(snippet)
        found: set[int] | None = None
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
