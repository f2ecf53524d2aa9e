"""JavaScript, TypeScript and TSX: functions bound to a name are callables, top-level
names are qualified by their module (the file's path without its extension), and
parameters print their type annotation where there is one, else their name."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

import tree_sitter as ts

from ..names import SPACE_RE, clean_type, text
from .base import FragmentHeader, Hooks

_FUNCTION_VALUES = ("function_expression", "arrow_function", "generator_function")
_CLASS_HEADING_RE = re.compile(r"^(export\s+)?(default\s+)?(abstract\s+)?class\s+[\w$]+")
_NAMING_PARENTS = ("assignment_expression", "pair", "public_field_definition", "field_definition")


class EcmaScriptHooks(Hooks):
    def callable_name(self, node: ts.Node) -> str | None:
        return self.callable_name_in(node, node.parent)

    def callable_name_in(self, node: ts.Node, parent: ts.Node | None) -> str | None:
        name = node.child_by_field_name("name")
        if name is not None:
            return text(name)
        if node.type not in _FUNCTION_VALUES:
            return None
        # `const f = () => …`, `obj.f = function …`, `{ f: () => … }`, `f = () => …` in a class.
        if parent is not None and parent.type == "variable_declarator":
            return text(parent.child_by_field_name("name")) or None
        if parent is not None and parent.type in _NAMING_PARENTS:
            key = (
                parent.child_by_field_name("left")
                or parent.child_by_field_name("key")
                or parent.child_by_field_name("name")
                or parent.child_by_field_name("property")
            )
            return text(key).split(".")[-1] or None
        return None

    def module_root(self, package: str, path: str, from_diff: bool) -> str:
        # The module as an import names it: `lib/router/index.js` -> `lib/router/index`.
        stem = PurePosixPath(path).stem
        return f"{package}/{stem}" if package else stem

    def fragment_header(self, section: str, path: str) -> FragmentHeader | None:
        # A class declaration as the `@@` heading (git's default: the last line at the
        # left margin) holds the hunk's methods, as in Java.
        if _CLASS_HEADING_RE.match(section) and section.rstrip().endswith("{"):
            return FragmentHeader(section, opens_type=True)
        return None

    def parameters(self, node: ts.Node) -> list[str]:
        params = node.child_by_field_name("parameters") or node.child_by_field_name("parameter")
        if params is None:
            return []
        if params.type == "identifier":  # x => …
            return [text(params)]
        out: list[str] = []
        for child in params.named_children:
            # Only TypeScript's grammar has required/optional parameters.
            if child.type in ("required_parameter", "optional_parameter"):
                annotation = child.child_by_field_name("type")
                if annotation is not None:
                    out.append(clean_type(text(annotation).lstrip(":")))
                else:
                    out.append(SPACE_RE.sub("", text(child.child_by_field_name("pattern"))))
            elif child.type == "assignment_pattern":
                out.append(text(child.child_by_field_name("left")))
            elif child.type != "comment":
                out.append(SPACE_RE.sub("", text(child)))
        return out


HOOKS = EcmaScriptHooks()
