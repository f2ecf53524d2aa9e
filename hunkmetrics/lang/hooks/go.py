"""Go: parameters by type, a method's class is its receiver's base type, and the
`package` clause names the package."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePosixPath

import tree_sitter as ts

from ..names import SPACE_RE, clean_type, join, text
from .base import DiffPackage, Hooks, Placement

_PACKAGE_RE = re.compile(r"^package\s+(\w+)")


def _receiver(node: ts.Node) -> str | None:
    receiver = node.child_by_field_name("receiver")
    for param in receiver.named_children if receiver is not None else ():
        kind = clean_type(text(param.child_by_field_name("type")))
        return kind.lstrip("*") or None
    return None


def _type(node: ts.Node | None) -> str:
    """A parameter's type as written, each run of whitespace one space: Go writes names
    and types apart (`func(toComplete string) error`, `<-chan int`), so unlike other
    languages' types the spaces stay."""
    return SPACE_RE.sub(" ", text(node)).strip()


# gofmt puts a label of a function's outermost block at the left margin.
_LABEL_RE = re.compile(r"^[A-Za-z_]\w*:\s*(//.*)?$")


class GoHooks(Hooks):
    callables_outside_types = True

    def anywhere_at_margin(self, line: str) -> bool:
        return bool(_LABEL_RE.match(line))

    def parameters(self, node: ts.Node) -> list[str]:
        params = node.child_by_field_name("parameters")
        out: list[str] = []
        for child in params.named_children if params is not None else ():
            kind = _type(child.child_by_field_name("type"))
            if child.type == "variadic_parameter_declaration":
                out.append("..." + kind)
            elif child.type == "parameter_declaration":
                names = child.children_by_field_name("name")
                out.extend([kind] * max(1, len(names)))
        return out

    def place_callable(self, node: ts.Node, place: Placement, package: str | None) -> Placement:
        if node.type != "method_declaration":
            return place
        receiver = _receiver(node)
        owner = join(package or "", receiver) if receiver else None
        return Placement(owner or place.prefix, place.name, owner)

    def diff_package(
        self, lines: Sequence[str], path: str, source_roots: tuple[str, ...]
    ) -> DiffPackage:
        for line in lines:
            match = _PACKAGE_RE.match(line)
            if match:
                return DiffPackage(match.group(1), "seen")
        # Go's convention: a package is named after its directory. At the repository's
        # root nothing tells the name (a module's last path element, usually).
        parent = PurePosixPath(path).parent.name
        return DiffPackage(parent, "inferred") if parent else DiffPackage(None, "unknown")


HOOKS = GoHooks()
