"""Java: parameters by declared type, the declared package, the class a fragment is
wrapped in, and the JavaParser-shaped tree the birch profile measures."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import PurePosixPath

import tree_sitter as ts

from ..javaparser_diameter import BirchTree, birch_tree
from ..names import clean_type, text
from ..paths import dotted_directory
from .base import DiffPackage, FragmentHeader, Hooks

_TYPE_RE = re.compile(r"\b(class|interface|enum|record|@interface)\s+([A-Za-z_$][\w$]*)")
_PACKAGE_RE = re.compile(r"^\s*package\s+([\w.]+)\s*;")


class JavaHooks(Hooks):
    callables_need_type = True
    has_birch_tree = True

    def parameters(self, node: ts.Node) -> list[str]:
        params = node.child_by_field_name("parameters")
        if node.type == "compact_constructor_declaration":  # the record's components
            record = node.parent.parent if node.parent is not None else None
            params = record.child_by_field_name("parameters") if record is not None else None
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
        return birch_tree(data, parse, near)  # JavaParser's node shape, as the study measured


HOOKS = JavaHooks()
