"""Uses of an identifier, from tree-sitter trees: each text occurrence is kept when the
tree holds an identifier node exactly there (not a comment, a string or a declaration)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import tree_sitter as ts

from ..lang import Language, default_languages
from .index import RepoIndex

__all__ = ["Reference", "References", "find_references"]

_CALL_WORDS = ("call", "invocation", "creation")


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


def find_references(index: RepoIndex, name: str, enough: int | None = None) -> References:
    """Uses of `name` in the indexed files, by path and line. With `enough`, parsing
    stops once that many are found; what was left is counted, not verified."""
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
        out.extend(_uses(path, data, offsets, name, language))
    return References(out, searched, files_left, occurrences_left)


def _uses(
    path: str, data: bytes, offsets: list[int], name: str, language: Language
) -> Iterator[Reference]:
    tree = language.parser().parse(data)
    kinds = language.types | language.callables
    lines = data.split(b"\n")
    for offset in offsets:
        node = tree.root_node.descendant_for_byte_range(offset, offset + len(name))
        if node is None or not node.type.endswith("identifier"):
            continue
        parent = node.parent
        if node.start_byte != offset or _is_declaration(parent, node, kinds):
            continue
        kind = "call" if parent is not None and _is_call(parent, node) else "use"
        row = node.start_point.row
        text = lines[row].decode("utf-8", "replace") if row < len(lines) else ""
        yield Reference(path, row + 1, kind, text)


def _is_call(parent: ts.Node, node: ts.Node) -> bool:
    if not any(w in parent.type for w in _CALL_WORDS):
        return False
    # In `a.b(c)` the call is b's, not a's: the callee is the name/function field.
    callee = parent.child_by_field_name("name") or parent.child_by_field_name("function")
    callee = callee or parent.child_by_field_name("type")
    if callee is None:
        return True
    return callee.id == node.id or (
        callee.start_byte <= node.start_byte and node.end_byte == callee.end_byte
    )


def _is_declaration(parent: ts.Node | None, node: ts.Node, kinds: frozenset[str]) -> bool:
    """Whether `node` is the name of the type or callable declared by `parent`."""
    if parent is None or parent.type not in kinds:
        return False
    name = parent.child_by_field_name("name")
    return name is not None and name.id == node.id
