"""Per-language naming of callables and their parameter lists from tree-sitter nodes."""

from __future__ import annotations

import re

import tree_sitter as ts

_GENERIC_RE = re.compile(r"<[^<>]*>")
_SPACE_RE = re.compile(r"\s+")


def text(node: ts.Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text else ""


def clean_type(raw: str) -> str:
    """A declared type without generic arguments, annotations or whitespace."""
    raw = re.sub(r"@\w+(\([^)]*\))?", "", raw)
    while True:
        stripped = _GENERIC_RE.sub("", raw)
        if stripped == raw:
            break
        raw = stripped
    return _SPACE_RE.sub("", raw)


def callable_name(node: ts.Node, language: str) -> str | None:
    """The bare name of a callable, or None when it is not a named callable."""
    if language in ("c", "cpp"):
        parts = c_declarator_name(node)
        return ".".join(parts) if parts else None
    name = node.child_by_field_name("name")
    if name is not None:
        return text(name)
    if node.type in ("function_expression", "arrow_function", "generator_function"):
        parent = node.parent
        if parent is not None and parent.type == "variable_declarator":
            return text(parent.child_by_field_name("name")) or None
        if parent is not None and parent.type in (
            "assignment_expression",
            "pair",
            "public_field_definition",
            "field_definition",
        ):
            key = (
                parent.child_by_field_name("left")
                or parent.child_by_field_name("key")
                or parent.child_by_field_name("name")
                or parent.child_by_field_name("property")
            )
            return text(key).split(".")[-1] or None
    return None


def c_function_declarator(node: ts.Node) -> ts.Node | None:
    current = node.child_by_field_name("declarator")
    while current is not None and current.type != "function_declarator":
        current = current.child_by_field_name("declarator")
    return current


def c_declarator_name(node: ts.Node) -> list[str]:
    """Name parts of a C/C++ function definition: `ns::Foo::bar` → [ns, Foo, bar]."""
    declarator = c_function_declarator(node)
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
    parts.append(_SPACE_RE.sub("", text(target)))
    return parts


def parameters(node: ts.Node, language: str) -> list[str]:
    """The parameter list as printed in a qualified method name."""
    if language == "java":
        return _java_parameters(node)
    if language == "python":
        return _python_parameters(node.child_by_field_name("parameters"))
    if language == "go":
        return _go_parameters(node.child_by_field_name("parameters"))
    if language in ("c", "cpp"):
        declarator = c_function_declarator(node)
        return _c_parameters(declarator.child_by_field_name("parameters") if declarator else None)
    return _js_parameters(
        node.child_by_field_name("parameters") or node.child_by_field_name("parameter"),
        typed=language != "javascript",
    )


def _java_parameters(node: ts.Node) -> list[str]:
    params = node.child_by_field_name("parameters")
    if node.type == "compact_constructor_declaration":
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


def _python_parameters(params: ts.Node | None) -> list[str]:
    out: list[str] = []
    for child in params.named_children if params is not None else ():
        kind = child.type
        if kind == "identifier":
            out.append(text(child))
        elif kind in ("default_parameter", "typed_default_parameter"):
            out.append(text(child.child_by_field_name("name")))
        elif kind == "typed_parameter":
            inner = child.named_children[0] if child.named_children else None
            out.append(_python_parameters_one(inner))
        elif kind in ("list_splat_pattern", "dictionary_splat_pattern"):
            out.append(_python_parameters_one(child))
    return out


def _python_parameters_one(node: ts.Node | None) -> str:
    if node is None:
        return ""
    if node.type == "list_splat_pattern":
        return "*" + text(node.named_children[0]) if node.named_children else "*"
    if node.type == "dictionary_splat_pattern":
        return "**" + text(node.named_children[0]) if node.named_children else "**"
    return text(node)


def _go_parameters(params: ts.Node | None) -> list[str]:
    out: list[str] = []
    for child in params.named_children if params is not None else ():
        kind = clean_type(text(child.child_by_field_name("type")))
        if child.type == "variadic_parameter_declaration":
            out.append("..." + kind)
        elif child.type == "parameter_declaration":
            names = child.children_by_field_name("name")
            out.extend([kind] * max(1, len(names)))
    return out


def _c_parameters(params: ts.Node | None) -> list[str]:
    out: list[str] = []
    for child in params.named_children if params is not None else ():
        if child.type == "variadic_parameter":
            out.append("...")
            continue
        if child.type not in ("parameter_declaration", "optional_parameter_declaration"):
            continue
        qualifiers = [text(c) for c in child.named_children if c.type == "type_qualifier"]
        base = " ".join([*qualifiers, clean_type(text(child.child_by_field_name("type")))])
        suffix = ""
        declarator = child.child_by_field_name("declarator")
        while declarator is not None:
            suffix += {
                "pointer_declarator": "*",
                "abstract_pointer_declarator": "*",
                "reference_declarator": "&",
                "abstract_reference_declarator": "&",
                "array_declarator": "[]",
                "abstract_array_declarator": "[]",
            }.get(declarator.type, "")
            declarator = declarator.child_by_field_name("declarator") or next(
                (c for c in declarator.named_children if "declarator" in c.type), None
            )
        out.append(base + suffix)
    return [] if out == ["void"] else out


def _js_parameters(params: ts.Node | None, typed: bool) -> list[str]:
    if params is None:
        return []
    if params.type == "identifier":  # x => …
        return [text(params)]
    out: list[str] = []
    for child in params.named_children:
        if child.type in ("required_parameter", "optional_parameter"):
            annotation = child.child_by_field_name("type")
            if typed and annotation is not None:
                out.append(clean_type(text(annotation).lstrip(":")))
            else:
                out.append(_SPACE_RE.sub("", text(child.child_by_field_name("pattern"))))
        elif child.type == "assignment_pattern":
            out.append(text(child.child_by_field_name("left")))
        elif child.type != "comment":
            out.append(_SPACE_RE.sub("", text(child)))
    return out
