"""Java: parameters by declared type, the declared package, the class a fragment is
wrapped in, and the JavaParser-shaped tree the birch profile measures."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

import tree_sitter as ts

from ..names import SPACE_RE, clean_type, drop_generics, text
from ..paths import dotted_directory
from .base import DiffPackage, FragmentHeader, Hooks

if TYPE_CHECKING:
    from ..javaparser_diameter import BirchTree

_TYPE_RE = re.compile(r"\b(class|interface|enum|record|@interface)\s+([A-Za-z_$][\w$]*)")
_PACKAGE_RE = re.compile(r"^\s*package\s+([\w.]+)\s*;")
_COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_ANNOTATION_RE = re.compile(r"@\s*[\w$.]+\s*(?:\((?:[^()]|\([^()]*\))*\))?")
_FINAL_RE = re.compile(r"\bfinal\b")
_NAME_RE = re.compile(r"(.*?)([A-Za-z_$][\w$]*)\s*((?:\[\s*\]\s*)*)$", re.S)
_BRACKETS = {"(": ")", "<": ">", "[": "]", "{": "}"}


class JavaHooks(Hooks):
    callables_need_type = True
    has_birch_tree = True

    def parameters(self, node: ts.Node) -> list[str]:
        params = node.child_by_field_name("parameters")
        if node.type == "compact_constructor_declaration":  # the record's components
            record = node.parent.parent if node.parent is not None else None
            params = record.child_by_field_name("parameters") if record is not None else None
        if params is not None and params.has_error:
            # tree-sitter-java cannot parse some parameters (`T @Nullable ... args`):
            # read the types from the text instead.
            return text_parameters(text(params))
        out: list[str] = []
        for child in params.named_children if params is not None else ():
            if child.type == "formal_parameter":
                dims = "".join(text(c) for c in child.named_children if c.type == "dimensions")
                out.append(clean_type(text(child.child_by_field_name("type"))) + clean_type(dims))
            elif child.type == "spread_parameter":
                kind = next(
                    (
                        c
                        for c in child.named_children
                        if c.type not in ("modifiers", "variable_declarator")
                    ),
                    None,
                )
                out.append(clean_type(text(kind)) + "...")
        return out

    def undeclared_package(self, path: str) -> str:
        return ""  # the default package

    def diff_package(
        self, lines: Sequence[str], path: str, source_roots: tuple[str, ...]
    ) -> DiffPackage:
        for line in lines:
            match = _PACKAGE_RE.match(line)
            if match:
                return DiffPackage(match.group(1), "seen")
        return DiffPackage(dotted_directory(path, source_roots), "inferred")

    def fragment_header(self, section: str, path: str) -> FragmentHeader:
        # Methods live in types: the section heading's type when it is one, else a class
        # named after the file.
        match = _TYPE_RE.search(section)
        if match and section.rstrip().endswith("{"):
            return FragmentHeader(section, opens_type=True)
        return FragmentHeader(f"class {PurePosixPath(path).stem} {{", opens_type=True, seen=False)

    def birch_tree(
        self,
        data: bytes,
        parse: Callable[[bytes], ts.Tree],
        near: Sequence[tuple[int, int]] | None = None,
    ) -> BirchTree:
        # the birch profile's tree only: locating hunks never loads the reshaping
        from ..javaparser_diameter import birch_tree

        return birch_tree(data, parse, near)  # JavaParser's node shape, as the study measured


def text_parameters(source: str) -> list[str]:
    """The parameter types of a `(…)` parameter list, read from its text as the parse
    tree gives them (`String`, `int[]`, `Object...`): annotations, `final`, generic
    arguments and names dropped; a receiver parameter (`Foo this`) left out."""
    inner = _COMMENT_RE.sub(" ", source).strip()
    inner = inner.removeprefix("(").removesuffix(")")
    out: list[str] = []
    for part in _split_top(inner):
        raw = _FINAL_RE.sub(" ", _ANNOTATION_RE.sub(" ", part))
        raw = drop_generics(raw).strip()
        varargs = "..." in raw
        raw = raw.replace("...", " ").strip()
        match = _NAME_RE.match(raw)
        if match is None or not match.group(1).strip() or match.group(2) == "this":
            continue
        kind = SPACE_RE.sub("", match.group(1)) + SPACE_RE.sub("", match.group(3))
        out.append(kind + ("..." if varargs else ""))
    return out


def _split_top(source: str) -> list[str]:
    """`source` cut at the commas outside any bracket pair."""
    parts: list[str] = []
    closing: list[str] = []
    start = 0
    for i, ch in enumerate(source):
        if ch in _BRACKETS:
            closing.append(_BRACKETS[ch])
        elif closing and ch == closing[-1]:
            closing.pop()
        elif ch == "," and not closing:
            parts.append(source[start:i])
            start = i + 1
    parts.append(source[start:])
    return [p for p in parts if p.strip()]


HOOKS = JavaHooks()
