"""Uses of an identifier, from tree-sitter trees: each text occurrence is kept when the
tree holds an identifier node exactly there (not a comment, a string or a declaration)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import tree_sitter as ts

from ..lang import default_languages

if TYPE_CHECKING:
    from .index import RepoIndex

__all__ = ["Reference", "find_references"]

_CALL_WORDS = ("call", "invocation", "creation")


@dataclass(frozen=True, slots=True)
class Reference:
    path: str
    line: int
    kind: str  # "call" or "use"
    text: str


def find_references(index: RepoIndex, name: str) -> list[Reference]:
    """Every use of `name` in the indexed files, by path and line."""
    word = re.compile(rb"(?<![\w$])" + re.escape(name.encode()) + rb"(?![\w$])")
    out: list[Reference] = []
    for path, data in index.all_texts(None):
        offsets = [m.start() for m in word.finditer(data)]
        if not offsets:
            continue
        language = default_languages().for_path(path)
        if language is None:
            continue
        tree = language.parser().parse(data)
        kinds = language.types | language.callables
        lines = data.splitlines()
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
            out.append(Reference(path, row + 1, kind, text))
    return out


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
