"""Small helpers for reading names and types out of tree-sitter nodes."""

from __future__ import annotations

import re

import tree_sitter as ts

_GENERIC_RE = re.compile(r"<[^<>]*>")
SPACE_RE = re.compile(r"\s+")


def text(node: ts.Node | None) -> str:
    """A node's source text ("" for no node)."""
    return node.text.decode("utf-8", "replace") if node is not None and node.text else ""


def clean_type(raw: str) -> str:
    """A declared type without generic arguments, annotations or whitespace."""
    raw = re.sub(r"@\w+(\([^)]*\))?", "", raw)
    while True:
        stripped = _GENERIC_RE.sub("", raw)
        if stripped == raw:
            break
        raw = stripped
    return SPACE_RE.sub("", raw)


def join(prefix: str, name: str) -> str:
    """`prefix.name`, or `name` at the top level."""
    return f"{prefix}.{name}" if prefix else name
