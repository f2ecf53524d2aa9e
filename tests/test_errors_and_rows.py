"""Small promises: every library error is one line; `nodes_on_rows` returns exactly the
nodes starting on the given rows, root excluded, in document order."""

from __future__ import annotations

import tree_sitter as ts
import tree_sitter_java
import tree_sitter_python

from hunkmetrics.errors import HunkmetricsError, SourceError, error_line
from hunkmetrics.metrics.features import nodes_on_rows


def test_an_error_message_with_line_breaks_is_one_line() -> None:
    error = SourceError("src/a.py: does not match\n(pre-image blob 1234567)\r\nsee --rev")
    assert str(error) == "src/a.py: does not match (pre-image blob 1234567) see --rev"
    assert error_line(error) == str(error)
    assert isinstance(error, HunkmetricsError)


def test_nodes_on_rows_by_hand() -> None:
    # row 0: `x = 1`   row 1: `y = x`
    tree = ts.Parser(ts.Language(tree_sitter_python.language())).parse(b"x = 1\ny = x\n")
    kinds = [(n.type, n.text) for n in nodes_on_rows(tree, {1})]
    # On row 1: expression_statement, assignment, identifier y, '=', identifier x.
    assert kinds == [
        ("expression_statement", b"y = x"),
        ("assignment", b"y = x"),
        ("identifier", b"y"),
        ("=", b"="),
        ("identifier", b"x"),
    ]
    # Row 0 as well: the module (the root, also starting on row 0) is never included.
    both = nodes_on_rows(tree, {0, 1})
    assert len(both) == 10 and all(n.type != "module" for n in both)
    assert nodes_on_rows(tree, set()) == []


def _every_node(node: ts.Node) -> list[ts.Node]:
    """The node's descendants in document order (pre-order), by plain recursion."""
    out: list[ts.Node] = []
    for child in node.children:
        out.append(child)
        out.extend(_every_node(child))
    return out


def test_nodes_on_rows_are_those_of_a_walk_over_every_node() -> None:
    """Rows of a nested Java class (one set of rows per line, then rows a few lines
    apart, the first row, rows past the end): the nodes starting on them are exactly
    those a walk over the whole tree finds, in its order."""
    source = (
        b"package p;\n"  # 0
        b"class A {\n"  # 1
        b"    int f() {\n"  # 2
        b"        return 1; // one\n"  # 3
        b"    }\n"  # 4
        b"    class B { void g() { h(new Runnable() { public void run() {} }); } }\n"  # 5
        b"    /* a\n"  # 6
        b"       b */ int x;\n"  # 7
        b"}\n"  # 8
    )
    tree = ts.Parser(ts.Language(tree_sitter_java.language())).parse(source)
    every = _every_node(tree.root_node)
    row_sets = [{r} for r in range(10)] + [{0}, {1, 3}, {2, 5, 7}, {4, 8}, {6, 7}, {8, 9, 12}]
    for rows in row_sets:
        expected = [n.id for n in every if n.start_point.row in rows]
        assert [n.id for n in nodes_on_rows(tree, rows)] == expected, rows
