"""The code-search index: which files hold each word, built from the word tables the
index records (`occurrences.word_table`), so that `maple_find_code` reads only the files
that can hold the snippet.

A snippet's words that do not touch its ends must occur whole in a matching file (a word
is a run of `[A-Za-z0-9_$]`, the same run in the snippet and in the file); a word at an
end may be part of a longer one, and is matched against the vocabulary instead.

Beside it, an n-gram index (`grams.GramIndex`): for every 4 bytes that occur in a file
once its runs of whitespace are each made one space, the files holding them. A snippet's
match, exact or ignoring indentation, holds the snippet's own 4-grams made the same way,
so only the files holding all of them are read (`String name = null`: 379 of
spring-framework's 9,259 files instead of the 1,766 holding its three words).

Both are one section file (`sections`): the vocabulary and the grams are held in memory,
each word's or gram's files read from the file when a search asks for them."""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable, Mapping
from typing import Protocol

from .grams import GramIndex, snippet_grams
from .keytable import KeyTable
from .sections import MemorySections, Sections

__all__ = ["WordPostings", "postings_sections", "snippet_words"]

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


def postings_sections(
    tables: Iterable[tuple[str, str, bytes]],
    grams: tuple[dict[str, object], dict[str, bytes]] | None = None,
) -> tuple[dict[str, object], dict[str, bytes]]:
    """The metadata and sections of the code-search index of these files, from (path,
    blob, word table) of each (and the sections of the n-gram index of the same files
    in the same order, `grambuild.gram_sections`)."""
    paths: list[str] = []
    blobs: list[str] = []
    runs: dict[bytes, array[int]] = {}
    for number, (path, blob, table) in enumerate(tables):
        paths.append(path)
        blobs.append(blob)
        for word in _TABLE_WORD.findall(table):
            found = runs.get(word)
            if found is None:
                found = runs[word] = array("I")
            found.append(number)
    meta, sections = KeyTable.write("words", runs)
    meta.update(paths=paths, blobs=blobs, grams=grams is not None)
    if grams is not None:
        gram_meta = grams[0]["grams"]
        if not isinstance(gram_meta, dict) or gram_meta["count"] != len(paths):
            raise ValueError("the n-gram index covers other files")
        meta.update(grams[0])
        sections.update(grams[1])
    return meta, sections


class Named(Protocol):
    """A file's path and blob."""

    @property
    def path(self) -> str: ...
    @property
    def blob(self) -> str: ...


class WordPostings:
    """For every word, the numbers of the files that hold it, for one set of files
    (path and blob each); files indexed since are searched whatever they hold. The
    vocabulary is held in memory, the files of each word read from `sections` when
    a search asks."""

    def __init__(self, sections: Sections, known: Mapping[str, Named] | None = None) -> None:
        """Open the index of `sections`, with the strings of `known` (records by path)
        for the same paths and blobs: one copy of each in memory."""
        meta = sections.meta
        self.sections = sections
        self.words = KeyTable(sections, "words", held=False)
        self.grams = GramIndex(sections) if meta["grams"] else None  # of the same files
        self.paths: list[str] = meta["paths"]
        self.blob_of: dict[str, str] = {}  # each file's blob, by path
        known = known or {}
        for number, (path, blob) in enumerate(zip(self.paths, meta["blobs"], strict=True)):
            same = known.get(path)
            if same is not None:
                path = self.paths[number] = same.path
                blob = same.blob if same.blob == blob else blob
            self.blob_of[path] = blob

    @classmethod
    def build(
        cls,
        tables: Iterable[tuple[str, str, bytes]],
        grams: tuple[dict[str, object], dict[str, bytes]] | None = None,
    ) -> WordPostings:
        """Held in memory (`postings_sections`)."""
        return cls(MemorySections(*postings_sections(tables, grams)))

    def close(self) -> None:
        self.sections.close()

    def candidates(self, snippet: bytes) -> list[str] | None:
        """The paths (of this set) that may hold the snippet, sorted; None when its
        words do not narrow the search."""
        whole, ends = snippet_words(snippet)
        found: set[int] | None = None
        codes = snippet_grams(snippet.decode("utf-8", "replace")) if self.grams else None
        if self.grams is not None and codes is not None:
            found = set(self.grams.candidates(codes))
            if not found:
                return []
        runs = [self.words.get(w) for w in set(whole)]
        for run in sorted((r if r is not None else _EMPTY for r in runs), key=len):
            found = set(run) if found is None else found.intersection(run)
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
                files.update(self.words.run(match))
            found = files if found is None else found & files
        if found is None:
            return None
        return sorted(self.paths[n] for n in found)

    def files_with(self, word: bytes) -> list[str]:
        """The paths (of this set) whose word table holds `word`."""
        run = self.words.get(word)
        return [] if run is None else [self.paths[n] for n in run]

    def _vocabulary_matches(self, word: bytes, left: bool, right: bool) -> list[int] | None:
        """The places in the vocabulary of the words that hold `word` (at their end unless
        open on the left, at their start unless open on the right); None when too many
        do."""
        text = self.words.text
        needle = (b"" if left else b"\n") + word + (b"" if right else b"\n")
        found: list[int] = []
        at = text.find(needle)
        while at >= 0:
            start = text.rfind(b"\n", 0, at + (0 if left else 1)) + 1
            end = text.find(b"\n", at + len(needle) - (0 if right else 1))
            found.append(self.words.find(text[start:end]))
            if len(found) > _PARTIAL_WORDS:
                return None
            at = text.find(needle, end)
        return found
