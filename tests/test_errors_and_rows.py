"""Small promises: every library error is one line; `nodes_on_rows` returns exactly the
nodes starting on the given rows, root excluded, in document order."""

from __future__ import annotations

import tree_sitter as ts
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
