"""Where each word of a file is used, recorded at index time from the tree the index
parses anyway, so that finding references is a lookup, not a parse.

A word is a maximal run of ASCII `[A-Za-z0-9_$]` that does not start with a digit (what
`find_references` searches for with `(?<![\\w$])name(?![\\w$])`). A file's table holds,
for every word, how often it occurs in the text (uses, comments, strings…) and which of
those occurrences are uses: the occurrence's smallest covering node is an identifier
starting there that is not the name of the type or callable being declared."""

from __future__ import annotations

import re
from collections import Counter
from functools import cache

import tree_sitter as ts

from ..lang import Language
from ..lang.languages import load_grammar

__all__ = ["WORD", "is_call", "is_declaration", "lookup", "use_kind", "word_table"]

WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")  # the names a table answers for
_RUN = re.compile(rb"[A-Za-z0-9_$]+")
_RUN_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$")
_DIGITS = frozenset(b"0123456789")
_CALL_WORDS = ("call", "invocation", "creation")


def use_kind(
    node: ts.Node, offset: int, kinds: frozenset[str], calls: dict[str, bool] | None = None
) -> str | None:
    """Whether `node` (the smallest node covering a word found at `offset`) is a use of
    that word: "call" or "use"; None for a declaration, comment, string…
    `calls` remembers, by node type, which parents can be calls."""
    if not node.type.endswith("identifier") or node.start_byte != offset:
        return None
    parent = node.parent
    if parent is None:
        return "use"
    kind = parent.type
    if kind in kinds and is_declaration(parent, node, kinds):
        return None
    calls = calls if calls is not None else {}
    callish = calls.get(kind)
    if callish is None:
        callish = calls[kind] = any(w in kind for w in _CALL_WORDS)
    return "call" if callish and is_call(parent, node) else "use"


def is_call(parent: ts.Node, node: ts.Node) -> bool:
    """Whether `node` is the callee of the call `parent`."""
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


def is_declaration(parent: ts.Node | None, node: ts.Node, kinds: frozenset[str]) -> bool:
    """Whether `node` is the name of the type or callable declared by `parent`."""
    if parent is None or parent.type not in kinds:
        return False
    name = parent.child_by_field_name("name")
    return name is not None and name.id == node.id


@cache
def _identifier_query(grammar: str) -> ts.Query:
    """Every node of the grammar whose kind ends in "identifier"."""
    tsl = load_grammar(grammar)
    kinds = {
        tsl.node_kind_for_id(i)
        for i in range(tsl.node_kind_count)
        if tsl.node_kind_is_named(i) and tsl.node_kind_is_visible(i)
    }
    found = sorted(k for k in kinds if k and k.endswith("identifier"))
    return ts.Query(tsl, "[" + " ".join(f"({k})" for k in found) + "] @id")


def word_table(data: bytes, tree: ts.Tree, language: Language) -> bytes:
    """The file's table: one line `word count use…` per word, a use being its row
    (0-based) as a delta from the previous use, with `c` after it for a call."""
    counts = Counter(_RUN.findall(data))
    if not counts:
        return b""
    kinds = language.types | language.callables
    root = tree.root_node
    captures = ts.QueryCursor(_identifier_query(language.grammar)).captures(root)
    starts = sorted({n.start_byte for nodes in captures.values() for n in nodes})
    uses: dict[bytes, list[tuple[int, bool]]] = {}
    calls: dict[str, bool] = {}
    for offset in starts:
        if offset > 0 and data[offset - 1] in _RUN_BYTES:
            continue  # not where a word starts
        run = _RUN.match(data, offset)
        if run is None or data[offset] in _DIGITS:
            continue
        node = root.descendant_for_byte_range(offset, run.end())
        if node is None:
            continue
        kind = use_kind(node, offset, kinds, calls)
        if kind is not None:
            uses.setdefault(run.group(), []).append((node.start_point.row, kind == "call"))
    lines = []
    for word, count in counts.items():
        if word[0] in _DIGITS:
            continue
        parts = [word, str(count).encode()]
        last = 0
        for row, call in uses.get(word, ()):
            parts.append(b"%d%s" % (row - last, b"c" if call else b""))
            last = row
        lines.append(b" ".join(parts))
    return b"\n" + b"\n".join(lines) + b"\n"


def lookup(table: bytes, name: str) -> tuple[int, list[tuple[int, str]]] | None:
    """How often `name` (a `WORD`) occurs in the file of this table, and its uses as
    (1-based line, "call" or "use") in text order; None when it does not occur."""
    needle = b"\n" + name.encode() + b" "
    start = table.find(needle)
    if start < 0:
        return None
    end = table.index(b"\n", start + 1)
    fields = table[start + len(needle) : end].split(b" ")
    found: list[tuple[int, str]] = []
    row = 0
    for field in fields[1:]:
        if field.endswith(b"c"):
            row += int(field[:-1])
            found.append((row + 1, "call"))
        else:
            row += int(field)
            found.append((row + 1, "use"))
    return int(fields[0]), found
