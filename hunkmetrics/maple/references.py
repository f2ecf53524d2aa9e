"""Uses of an identifier, from tree-sitter trees: each text occurrence is kept when the
tree holds an identifier node exactly there (not a comment, a string or a declaration).
Words are looked up in the tables the index records (`occurrences`); other names are
searched by parsing at query time."""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass

import tree_sitter as ts

from ..lang import Language, default_languages
from .index import RepoIndex
from .occurrences import WORD, lookup, use_kind

__all__ = ["Reference", "References", "TreeCache", "find_references", "parse_references"]


@dataclass(frozen=True, slots=True)
class Reference:
    path: str
    line: int
    kind: str  # "call" or "use"
    text: str


@dataclass(frozen=True, slots=True)
class References:
    """The uses found, and how much was left unverified when the search stopped early."""

    found: list[Reference]
    files_searched: int  # files parsed and checked
    files_left: int  # files holding the word that were not parsed
    occurrences_left: int  # textual occurrences in those files (uses, comments, strings…)


class TreeCache:
    """The last parsed trees, by path and blob: a LRU bounded by the bytes of source
    they were parsed from (trees are many times larger than their text)."""

    def __init__(self, budget: int = 2 << 20) -> None:
        self.budget = budget
        self._held = 0
        self._trees: OrderedDict[tuple[str, str], tuple[ts.Tree, int]] = OrderedDict()

    def tree(self, path: str, blob: str, language: Language, data: bytes) -> ts.Tree:
        key = (path, blob)
        held = self._trees.get(key)
        if held is not None:
            self._trees.move_to_end(key)
            return held[0]
        tree = language.parser().parse(data)
        self._trees[key] = (tree, len(data))
        self._held += len(data)
        while self._held > self.budget and len(self._trees) > 1:
            _, (_, size) = self._trees.popitem(last=False)
            self._held -= size
        return tree


def find_references(
    index: RepoIndex, name: str, enough: int | None = None, trees: TreeCache | None = None
) -> References:
    """Uses of `name` in the indexed files, by path and line. With `enough`, files are
    only counted, not checked, once that many uses are found.

    A word (`occurrences.WORD`) is looked up in the tables the index recorded (of the
    files the code-search index says hold it); any other name is searched by parsing
    (`parse_references`), with the same answer."""
    if not WORD.fullmatch(name):
        return parse_references(index, name, enough, trees)
    out: list[Reference] = []
    searched = files_left = occurrences_left = 0
    with index.reading():
        for path in index.word_candidates(name):
            hit = lookup(index.words(path), name)
            if hit is None:
                continue
            count, uses = hit
            if enough is not None and len(out) >= enough:
                files_left += 1
                occurrences_left += count
                continue
            searched += 1
            if uses:
                lines = index.data(path).split(b"\n")
                out.extend(
                    Reference(path, line, kind, _line_text(lines, line - 1)) for line, kind in uses
                )
    return References(out, searched, files_left, occurrences_left)


def _line_text(lines: list[bytes], row: int) -> str:
    return lines[row].decode("utf-8", "replace") if row < len(lines) else ""


def parse_references(
    index: RepoIndex, name: str, enough: int | None = None, trees: TreeCache | None = None
) -> References:
    """`find_references` by parsing, at query time, the files that hold `name`."""
    trees = trees if trees is not None else TreeCache()
    word = re.compile(rb"(?<![\w$])" + re.escape(name.encode()) + rb"(?![\w$])")
    out: list[Reference] = []
    searched = files_left = occurrences_left = 0
    for path, data in index.all_texts(None):
        if name.encode() not in data:
            continue
        offsets = [m.start() for m in word.finditer(data)]
        if not offsets:
            continue
        if enough is not None and len(out) >= enough:
            files_left += 1
            occurrences_left += len(offsets)
            continue
        language = default_languages().for_path(path)
        if language is None:
            continue
        searched += 1
        tree = trees.tree(path, index.files[path].blob, language, data)
        out.extend(_uses(path, data, tree, offsets, name, language))
    return References(out, searched, files_left, occurrences_left)


def _uses(
    path: str, data: bytes, tree: ts.Tree, offsets: list[int], name: str, language: Language
) -> Iterator[Reference]:
    kinds = language.types | language.callables
    lines = data.split(b"\n")
    for offset in offsets:
        node = tree.root_node.descendant_for_byte_range(offset, offset + len(name))
        if node is None:
            continue
        kind = use_kind(node, offset, kinds)
        if kind is not None:
            yield Reference(
                path, node.start_point.row + 1, kind, _line_text(lines, node.start_point.row)
            )
