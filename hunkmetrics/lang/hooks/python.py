"""Python: parameters by name, packages from the `__init__.py` chain, modules as the
root of every name, and a `def`/`class` section heading as a fragment's header."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePosixPath

import tree_sitter as ts

from ..names import text
from .base import DiffPackage, FragmentHeader, Hooks, TreeReader

_HEADER_RE = re.compile(r"^(async\s+def|def|class)\s+\w+")


def python_package(path: str, source_roots: tuple[str, ...], tree: TreeReader | None = None) -> str:
    """Dotted package of a Python file: the unbroken chain of `__init__.py` directories
    above it when the tree is known, else its directories minus a leading source root."""
    parents = list(PurePosixPath(path).parent.parts)
    if tree is not None and parents:
        chain: list[str] = []
        for depth in range(len(parents), 0, -1):
            if not tree.exists("/".join(parents[:depth]) + "/__init__.py"):
                break
            chain.insert(0, parents[depth - 1])
        if chain:
            return ".".join(chain)
    if parents and parents[0] in source_roots:
        parents = parents[1:]
    return ".".join(parents)


def python_module(package: str | None, path: str) -> str:
    """The module's dotted name: package + file stem; `__init__.py` is the package."""
    stem = PurePosixPath(path).stem
    if stem == "__init__":
        return package or ""
    return f"{package}.{stem}" if package else stem


def _parameter(node: ts.Node | None) -> str:
    if node is None:
        return ""
    if node.type == "list_splat_pattern":
        return "*" + text(node.named_children[0]) if node.named_children else "*"
    if node.type == "dictionary_splat_pattern":
        return "**" + text(node.named_children[0]) if node.named_children else "**"
    return text(node)


class PythonHooks(Hooks):
    def parameters(self, node: ts.Node) -> list[str]:
        params = node.child_by_field_name("parameters")
        out: list[str] = []
        for child in params.named_children if params is not None else ():
            kind = child.type
            if kind == "identifier":
                out.append(text(child))
            elif kind in ("default_parameter", "typed_default_parameter"):
                out.append(text(child.child_by_field_name("name")))
            elif kind == "typed_parameter":
                out.append(_parameter(child.named_children[0] if child.named_children else None))
            elif kind in ("list_splat_pattern", "dictionary_splat_pattern"):
                out.append(_parameter(child))
        return out

    def source_package(self, path: str, tree: TreeReader, source_roots: tuple[str, ...]) -> str:
        return python_package(path, source_roots, tree)

    def diff_package(
        self, lines: Sequence[str], path: str, source_roots: tuple[str, ...]
    ) -> DiffPackage:
        # Without the tree, no `__init__.py` chain can be checked: the directories.
        return DiffPackage(python_package(path, source_roots), "inferred")

    def module_root(self, package: str, path: str, from_diff: bool) -> str:
        return python_module(package, path)  # `pkg/__init__.py` is `pkg`, with or without sources

    def fragment_header(self, section: str, path: str) -> FragmentHeader | None:
        if not _HEADER_RE.match(section):
            return None
        return FragmentHeader(section, opens_type=section.startswith("class"))


HOOKS = PythonHooks()
