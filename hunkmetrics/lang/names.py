"""Small helpers for reading names and types out of tree-sitter nodes."""

from __future__ import annotations

import re

import tree_sitter as ts

SPACE_RE = re.compile(r"\s+")


def text(node: ts.Node | None) -> str:
    """A node's source text ("" for no node)."""
    return node.text.decode("utf-8", "replace") if node is not None and node.text else ""


def clean_type(raw: str) -> str:
    """A declared type without generic arguments, annotations or whitespace."""
    raw = re.sub(r"@\w+(\([^)]*\))?", "", raw)
    return SPACE_RE.sub("", drop_generics(raw))


def drop_generics(raw: str) -> str:
    """`raw` without its `<…>` groups, nested ones included, in one pass: each `>`
    removes back to the `<` it closes; an unmatched `<` or `>` stays."""
    out: list[str] = []
    opens: list[int] = []
    for ch in raw:
        if ch == "<":
            opens.append(len(out))
            out.append(ch)
        elif ch == ">" and opens:
            del out[opens.pop() :]
        else:
            out.append(ch)
    return "".join(out)


def join(prefix: str, name: str) -> str:
    """`prefix.name`, or `name` at the top level."""
    return f"{prefix}.{name}" if prefix else name
