"""C and C++: names come from declarators, `ns::Foo::bar` definitions belong to
`ns.Foo`, parameters are printed by type, and a type without a body is no definition."""

from __future__ import annotations

import re

import tree_sitter as ts

from ..names import SPACE_RE, clean_type, join, text
from .base import Hooks, Placement

_DECLARATOR_SUFFIX = {
    "pointer_declarator": "*",
    "abstract_pointer_declarator": "*",
    "reference_declarator": "&",
    "abstract_reference_declarator": "&",
    "array_declarator": "[]",
    "abstract_array_declarator": "[]",
}


def function_declarator(node: ts.Node) -> ts.Node | None:
    """The `function_declarator` under a function definition's declarator chain."""
    current = node.child_by_field_name("declarator")
    while current is not None and current.type != "function_declarator":
        current = current.child_by_field_name("declarator")
    return current


def declarator_name(node: ts.Node) -> list[str]:
    """Name parts of a C/C++ function definition: `ns::Foo::bar` → [ns, Foo, bar]."""
    declarator = function_declarator(node)
    if declarator is None:
        return []
    target = declarator.child_by_field_name("declarator")
    parts: list[str] = []
    while target is not None and target.type == "qualified_identifier":
        scope = target.child_by_field_name("scope")
        if scope is not None:
            parts.append(clean_type(text(scope)))
        target = target.child_by_field_name("name")
    if target is None:
        return []
    parts.append(SPACE_RE.sub("", text(target)))
    return parts


def _parameter(child: ts.Node) -> str:
    qualifiers = [text(c) for c in child.named_children if c.type == "type_qualifier"]
    base = " ".join([*qualifiers, clean_type(text(child.child_by_field_name("type")))])
    suffix = ""
    declarator = child.child_by_field_name("declarator")
    while declarator is not None:
        suffix += _DECLARATOR_SUFFIX.get(declarator.type, "")
        declarator = declarator.child_by_field_name("declarator") or next(
            (c for c in declarator.named_children if "declarator" in c.type), None
        )
    return base + suffix


# A preprocessor directive or a label (`out:`, not `a::b`) may sit at the left margin of
# a function's body.
_MARGIN_ANYWHERE_RE = re.compile(r"^\s*#|^[A-Za-z_]\w*\s*:(?!:)")


class CFamilyHooks(Hooks):
    callables_outside_types = True

    def anywhere_at_margin(self, line: str) -> bool:
        return bool(_MARGIN_ANYWHERE_RE.match(line))

    def callable_name(self, node: ts.Node) -> str | None:
        parts = declarator_name(node)
        return ".".join(parts) if parts else None

    def parameters(self, node: ts.Node) -> list[str]:
        declarator = function_declarator(node)
        params = declarator.child_by_field_name("parameters") if declarator else None
        out: list[str] = []
        for child in params.named_children if params is not None else ():
            if child.type == "variadic_parameter":
                out.append("...")
            elif child.type in ("parameter_declaration", "optional_parameter_declaration"):
                out.append(_parameter(child))
        return [] if out == ["void"] else out

    def place_callable(self, node: ts.Node, place: Placement, package: str | None) -> Placement:
        if "." not in place.name:
            return place
        # An out-of-class definition `ns::Foo::bar`: its class is `ns.Foo`.
        parts = declarator_name(node)
        owner = join(place.prefix, ".".join(parts[:-1]))
        return Placement(owner, parts[-1], owner)

    def defines(self, node: ts.Node) -> bool:
        # A forward declaration or an elaborated type has no body.
        return node.child_by_field_name("body") is not None


HOOKS = CFamilyHooks()
