"""The scope query over the rows around some line spans only, not over the whole file.

Locating a patch's hunks asks which scopes hold each of their anchors (line spans). A
scope holds a line only if its node covers that line's row, so the query over the rows
of the spans (tree-sitter returns every match that touches them) captures each scope
the answers need, with its enclosing scopes, for a fraction of a walk over the whole
tree. What lies beyond those rows is asked for separately: the package declaration
(`declared_package`), and the anonymous classes before one in the rows (`Outer$3` is
the third of its class), for which the query runs from the top of the file instead.

Two cases keep the whole query (`scope_captures` returns None): a tree with syntax
errors (error recovery may leave a scope without extent) and a grammar with decorated
definitions (a decorated scope's span starts at its decorators, above its own node)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import tree_sitter as ts

from .languages import Language, load_grammar

Captures = dict[str, list[ts.Node]]

#: The node whose first line a decorated definition's span starts at (index._span).
DECORATED = "decorated_definition"
#: Two spans fewer rows apart than this share one query (the rows between are cheap).
MERGE_GAP = 16
#: The first range of bytes searched for a package declaration (then 4 times as many).
TOP_BYTES = 1024
_ANONYMOUS = "anon"  # the scope query's capture for anonymous classes


def scope_captures(
    language: Language, tree: ts.Tree, spans: Sequence[tuple[int, int]]
) -> Captures | None:
    """The scope query's captures of the nodes that touch the rows of `spans` (1-based
    first..last lines), which include every scope around each span; None when only
    the whole query is exact (see the module docstring)."""
    if not spans or tree.root_node.has_error or _decorates(language):
        return None
    windows = _windows(spans)
    query = language.scope_query()
    found = _merged(query, tree, windows)
    if found.get(_ANONYMOUS):
        # Numbering an anonymous class counts those before it, wherever they are.
        found = _merged(query, tree, [(0, windows[-1][1])])
    return found


def declared_package(language: Language, tree: ts.Tree) -> ts.Node | None:
    """The first package capture of the file (as the whole scope query's first), looked
    for from the top of the file down, in ranges of growing size; None without one."""
    query = _package_query(language)
    if query is None:
        return None
    start, end = 0, TOP_BYTES
    while start < tree.root_node.end_byte:
        cursor = ts.QueryCursor(query)
        cursor.set_byte_range(start, end)
        # Captures come in document order, and none starts before `start` (it would
        # have touched an earlier range): the first one found is the file's first.
        found = cursor.captures(tree.root_node).get("package")
        if found:
            return found[0]
        start, end = end, end * 4
    return None


def _windows(spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """0-based row ranges [start, end) covering the spans' lines, close ones merged."""
    windows: list[tuple[int, int]] = []
    for first, last in sorted(spans):
        start, end = max(first - 1, 0), max(last, first)
        if windows and start <= windows[-1][1] + MERGE_GAP:
            windows[-1] = (windows[-1][0], max(windows[-1][1], end))
        else:
            windows.append((start, end))
    return windows


def _merged(query: ts.Query, tree: ts.Tree, windows: list[tuple[int, int]]) -> Captures:
    """The query's captures over each row range, each node once per capture name."""
    if len(windows) == 1:
        return _over(query, tree, windows[0])
    merged: dict[str, dict[int, ts.Node]] = {}
    for window in windows:
        for name, nodes in _over(query, tree, window).items():
            into = merged.setdefault(name, {})
            for node in nodes:
                into.setdefault(node.id, node)
    return {name: list(nodes.values()) for name, nodes in merged.items()}


def _over(query: ts.Query, tree: ts.Tree, window: tuple[int, int]) -> Captures:
    cursor = ts.QueryCursor(query)
    cursor.set_point_range((window[0], 0), (window[1], 0))
    return cursor.captures(tree.root_node)


@cache
def _decorates(language: Language) -> bool:
    """Whether the grammar has decorated definitions."""
    return load_grammar(language.grammar).id_for_node_kind(DECORATED, True) is not None


@cache
def _package_query(language: Language) -> ts.Query | None:
    if not language.package_query:
        return None
    return ts.Query(load_grammar(language.grammar), language.package_query)
