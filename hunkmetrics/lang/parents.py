"""Syntactic parents of chosen nodes, found in one walk down to them.

tree-sitter's `Node.parent` searches down from the root on every call: asking it for
each of n nested scopes costs O(n²). This walk visits only the children of the
nodes above the chosen ones, each once."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

import tree_sitter as ts


def parents_of(root: ts.Node, targets: Sequence[ts.Node]) -> dict[int, ts.Node]:
    """The parent of each target node, by node id (the root has none)."""
    wanted = {node.id for node in targets}
    starts = sorted(node.start_byte for node in targets)
    found: dict[int, ts.Node] = {}
    stack = [root]
    while stack and len(found) < len(wanted):
        node = stack.pop()
        for child in node.children:
            if child.id in wanted:
                found[child.id] = node
            at = bisect_left(starts, child.start_byte)
            if child.child_count and at < len(starts) and starts[at] <= child.end_byte:
                stack.append(child)
    return found
