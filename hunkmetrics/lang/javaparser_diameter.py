"""The diameter of a file's JavaParser-shaped tree without building the tree.

The birch profile divides every same-file AST distance by the diameter of the post-image's
JavaParser-shaped tree (javaparser_shape), a property of the whole file. Building that tree
node by node costs several times the tree-sitter parse; the diameter only needs each
node's height. This walk applies the same reshaping rules (the tables and helpers of
javaparser_shape), but each rule yields the heights of the JavaParser nodes it would emit
instead of the nodes: no rows, no lines, no kinds. A node's height is 1 + its tallest
child's; the longest path through it is the sum of its two tallest children's heights + 2.

The walk recurses with the tree; a tree nested deeper than the interpreter's stack allows
(a concatenation of hundreds of strings, say) is measured on the built tree instead.

`birch_tree` gives the profile what it measures with: this diameter and the tree built
only near the hunks' lines (`reshape(..., near=...)`), which holds every possible anchor.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

import tree_sitter as ts

from .javaparser_shape import (
    COND,
    DROPPED,
    EXPR,
    FOR_INIT,
    LEAVES,
    MEMBER,
    NAME,
    NAME_FIELDS,
    NAME_PARENTS,
    QNAME,
    QUALIFIED_NAME_PARENTS,
    STATEMENT_FIELDS,
    STATEMENT_PARENTS,
    STMT,
    TYPE,
    TYPE_NODES,
    WRAPPERS,
    ShapedTree,
    bracket_count,
    class_type_parts,
    fielded_children,
    file_last_line,
    is_last_name,
    is_name_chain,
    javaparser_lines,
    parameter_parts,
    reshape,
    role_of,
    untyped_parameters,
)

Heights = list[int]


# What a child of each kind asks of the walk (by kind id: no string per node).
(
    _ANONYMOUS,
    _DROPPED,
    _WRAPPER,
    _IDENTIFIER,
    _TYPE_IDENTIFIER,
    _PARENTHESIZED,
    _LEAF,
    _BY_ROLE,  # read by `visit` in its role: the handled kinds, qualified names
    _PLAIN,
) = range(9)

_NO_KIND = 2**16  # kind ids are 16-bit; ERROR is the last one

_OWN_ACTIONS: Final = {
    "identifier": _IDENTIFIER,
    "type_identifier": _TYPE_IDENTIFIER,
    "parenthesized_expression": _PARENTHESIZED,
    "scoped_identifier": _BY_ROLE,  # a qualified Name
}
_MODIFIER_LISTS: Final = frozenset({"modifiers"})  # anonymous children are Modifier leaves

# What a parent's kind says of its children (bits): anonymous `;` children are EmptyStmt,
# anonymous children are Modifiers, identifiers are names (not NameExpr), names are
# qualified Names.
_STATEMENTS, _MODIFIERS, _NAMES, _QUALIFIED = 1, 2, 4, 8


@dataclass(frozen=True, slots=True)
class _Kinds:
    """A grammar's node kinds and fields by id: names (a node's `type`, a cursor's
    `field_name`, without making a string per node) and what the walk does with each."""

    names: list[str]
    actions: list[int]
    contexts: list[int]  # by parent kind: _STATEMENTS | _MODIFIERS | _NAMES
    fields: list[str | None]  # by field id; 0 is no field
    name_fields: frozenset[int]  # ids of NAME_FIELDS
    statement_fields: frozenset[int]  # ids of STATEMENT_FIELDS

    @classmethod
    def of(cls, language: ts.Language) -> _Kinds:
        names = [""] * _NO_KIND
        actions = [_PLAIN] * _NO_KIND  # ERROR and unknown kinds: one node, as reshape keeps them
        contexts = [0] * _NO_KIND
        for kind in range(language.node_kind_count):
            kind_name = language.node_kind_for_id(kind) or ""
            names[kind] = kind_name
            actions[kind] = _action(kind_name, language.node_kind_is_named(kind))
            contexts[kind] = (
                (_STATEMENTS if kind_name in STATEMENT_PARENTS else 0)
                | (_MODIFIERS if kind_name in _MODIFIER_LISTS else 0)
                | (_NAMES if kind_name in QUALIFIED_NAME_PARENTS | NAME_PARENTS else 0)
                | (_QUALIFIED if kind_name in QUALIFIED_NAME_PARENTS else 0)
            )
        field_ids = {
            field: language.field_id_for_name(field) for field in NAME_FIELDS | STATEMENT_FIELDS
        }
        fields: list[str | None] = [None]
        fields += [language.field_name_for_id(f) for f in range(1, language.field_count + 1)]
        return cls(
            names,
            actions,
            contexts,
            fields,
            frozenset(i for n, i in field_ids.items() if i and n in NAME_FIELDS),
            frozenset(i for n, i in field_ids.items() if i and n in STATEMENT_FIELDS),
        )


def _action(kind_name: str, named: bool) -> int:
    if not named:
        return _ANONYMOUS
    if kind_name in DROPPED:
        return _DROPPED
    if kind_name in WRAPPERS:
        return _WRAPPER
    if kind_name in _OWN_ACTIONS:
        return _OWN_ACTIONS[kind_name]
    if kind_name in LEAVES:
        return _LEAF
    if kind_name in _HANDLERS:
        return _BY_ROLE  # field_access among them (a qualified Name in a name's position)
    return _PLAIN


class _Walk:
    """Heights of the JavaParser nodes each tree-sitter node yields, appended to the list
    of its JavaParser parent's children; `longest` is the longest path seen so far."""

    def __init__(self, kinds: _Kinds) -> None:
        self.kinds = kinds
        self.longest = 0

    def join(self, children: Heights) -> int:
        """The height of a node with children of these heights (noting the longest path
        through it)."""
        if not children:
            return 0
        top = second = -1
        for height in children:
            if height > top:
                top, second = height, top
            elif height > second:
                second = height
        through = top + 1 if second < 0 else top + second + 2
        if through > self.longest:
            self.longest = through
        return top + 1

    def node(self, node: ts.Node) -> int:
        """A node whose JavaParser children are its reshaped tree-sitter children."""
        return self.join(self.children(node))

    def children(self, node: ts.Node, skip: Callable[[ts.Node], bool] | None = None) -> Heights:
        """The heights of `node`'s JavaParser children: wrappers spliced in, EmptyStmt and
        Modifier leaves, every other child by its role (javaparser_shape's child specs)."""
        out: Heights = []
        self._splice(node.kind_id, node, out, skip)
        return out

    def _splice(
        self,
        parent_kind: int,
        node: ts.Node,
        out: Heights,
        skip: Callable[[ts.Node], bool] | None,
    ) -> None:
        # The hot loop of the walk: each child's kind decides, and only the kinds whose
        # reading depends on their position compute their role.
        kinds = self.kinds
        names, actions = kinds.names, kinds.actions
        context = kinds.contexts[parent_kind]
        cursor = node.walk()
        more = cursor.goto_first_child()
        while more:
            child = cursor.node
            assert child is not None  # always, on a child
            kind = child.kind_id
            action = actions[kind]
            if action == _ANONYMOUS:
                if context & _MODIFIERS or (
                    names[kind] == ";"
                    and (context & _STATEMENTS or cursor.field_id in kinds.statement_fields)
                ):
                    out.append(0)  # Modifier, EmptyStmt
            elif action == _PLAIN and skip is None:
                below: Heights = []
                self._splice(kind, child, below, None)
                out.append(self.join(below))
            elif action == _WRAPPER:
                self._splice(kind, child, out, skip)
            elif action == _DROPPED or (skip is not None and skip(child)):
                pass
            elif action == _IDENTIFIER:
                if context & _NAMES or cursor.field_id in kinds.name_fields:
                    out.append(0)  # SimpleName or Name
                else:
                    out.append(1)  # NameExpr(SimpleName)
                    if self.longest < 1:
                        self.longest = 1
            elif action == _LEAF:
                out.append(0)
            elif action == _TYPE_IDENTIFIER:
                if not context & _QUALIFIED and cursor.field_id in kinds.name_fields:
                    out.append(0)  # SimpleName
                else:
                    out.append(1)  # ClassOrInterfaceType(SimpleName)
                    if self.longest < 1:
                        self.longest = 1
            else:
                ctype = names[kind] or child.type
                parent_type = names[parent_kind] or node.type
                role = role_of(parent_type, ctype, kinds.fields[cursor.field_id or 0])
                if action == _PARENTHESIZED and role == COND:
                    self._splice(kind, child, out, skip)
                else:
                    self.visit(child, role, out)
            more = cursor.goto_next_sibling()

    def visit(self, node: ts.Node, role: int, out: Heights) -> None:
        """Append the heights of the JavaParser nodes `node` yields in `role`."""
        ntype = node.type
        if ntype == "identifier" or (ntype == "type_identifier" and role == NAME):
            out.append(0 if role in (NAME, QNAME) else self.join([0]))  # NameExpr(SimpleName)
            return
        if ntype == "type_identifier":
            out.append(self.join([0]))  # ClassOrInterfaceType(SimpleName)
            return
        if ntype == "scoped_identifier" or (role == QNAME and ntype == "field_access"):
            scope = node.child_by_field_name("scope") or node.child_by_field_name("object")
            below: Heights = []
            if scope is not None:
                self.visit(scope, QNAME, below)
            out.append(self.join(below))  # Name(qualifier)
            return
        if ntype in LEAVES:
            out.append(0)
            return
        handler = _HANDLERS.get(ntype)
        if handler is not None:
            handler(self, node, role, out)
        else:
            out.append(self.node(node))

    def one(self, node: ts.Node, role: int) -> Heights:
        out: Heights = []
        self.visit(node, role, out)
        return out

    # ---- the rules with their own shape (javaparser_shape's handlers) ------------------

    def type_copy(self, type_node: ts.Node, dims: ts.Node | None) -> Heights:
        """A copy of a declared type (a VarType leaf for `var`) in one ArrayType per `[]`
        of `dims`."""
        if type_node.type == "type_identifier" and type_node.text == b"var":
            heights = [0]
        else:
            heights = self.one(type_node, TYPE)
        for _ in range(bracket_count(dims)):
            heights = [self.join(heights)]
        return heights

    def modifiers(self, node: ts.Node) -> Heights:
        for child in node.named_children:
            if child.type == "modifiers":
                return self.children(child)
        return []

    def block(self, node: ts.Node, role: int, out: Heights) -> None:
        height = self.node(node)  # BlockStmt
        out.append(self.join([height]) if role == MEMBER else height)

    def static_initializer(self, node: ts.Node, role: int, out: Heights) -> None:
        blocks: Heights = []
        for child in node.named_children:
            if child.type == "block":
                self.visit(child, EXPR, blocks)
        out.append(self.join(blocks))  # InitializerDeclaration

    def local_declaration(self, node: ts.Node, role: int, out: Heights) -> None:
        height = self.node(node)
        out.append(self.join([height]) if role == STMT else height)  # Local...Stmt

    def variables(self, node: ts.Node, role: int, out: Heights) -> None:
        type_node = node.child_by_field_name("type")
        children = self.modifiers(node)
        if type_node is not None:
            for declarator in node.named_children:
                if declarator.type == "variable_declarator":
                    children.append(self.declarator(declarator, type_node))
        height = self.join(children)  # FieldDeclaration or VariableDeclarationExpr
        if node.type in ("field_declaration", "constant_declaration") or role == FOR_INIT:
            out.append(height)
        else:
            out.append(self.join([height]))  # ExpressionStmt

    def declarator(self, declarator: ts.Node, type_node: ts.Node) -> int:
        fields = fielded_children(declarator)
        children = self.type_copy(type_node, fields.get("dimensions"))
        if fields.get("name") is not None:
            children.append(0)  # SimpleName
        value = fields.get("value")
        if value is not None:
            self.visit(value, EXPR, children)
        return self.join(children)  # VariableDeclarator

    def parameter(self, node: ts.Node, role: int, out: Heights) -> None:
        parts = parameter_parts(node)
        children = self.modifiers(node)
        for each in parts.types:
            self.visit(each, TYPE, children)
        for _, caught in parts.caught:
            if len(caught) == 1:
                self.visit(caught[0], TYPE, children)
            else:
                union: Heights = []
                for each in caught:
                    self.visit(each, TYPE, union)
                children.append(self.join(union))  # UnionType
        if parts.declared is not None:
            children.extend(self.type_copy(parts.declared, parts.dims))
        if parts.name is not None:
            children.append(0)  # SimpleName
        out.append(self.join(children))  # Parameter

    def enhanced_for(self, node: ts.Node, role: int, out: Heights) -> None:
        fields = fielded_children(node)
        type_node, name = fields.get("type"), fields.get("name")
        children: Heights = []
        if type_node is not None and name is not None:
            declarator = self.join([*self.type_copy(type_node, fields.get("dimensions")), 0])
            children.append(self.join([*self.modifiers(node), declarator]))
        for key in ("value", "body"):
            child = fields.get(key)
            if child is not None:
                if child.type == ";":
                    children.append(0)  # EmptyStmt
                else:
                    self.visit(child, STMT if key == "body" else EXPR, children)
        out.append(self.join(children))  # ForEachStmt

    def resource(self, node: ts.Node, role: int, out: Heights) -> None:
        fields = fielded_children(node)
        type_node, name, value = fields.get("type"), fields.get("name"), fields.get("value")
        if type_node is None or name is None:
            out.extend(self.children(node))  # `try (existing)`: a plain expression
            return
        declarator = [*self.type_copy(type_node, fields.get("dimensions")), 0]  # SimpleName
        if value is not None:
            self.visit(value, EXPR, declarator)
        out.append(self.join([*self.modifiers(node), self.join(declarator)]))

    def lambda_(self, node: ts.Node, role: int, out: Heights) -> None:
        children: Heights = []
        params = node.child_by_field_name("parameters")
        if params is not None:
            untyped = untyped_parameters(params)
            if untyped:
                # Parameter(UnknownType, SimpleName) each
                children.extend(self.join([0, 0]) for _ in untyped)
            else:
                children.extend(self.children(params))
        body = node.child_by_field_name("body")
        if body is not None:
            if body.type == "block":
                self.visit(body, EXPR, children)
            else:
                children.append(self.join(self.one(body, EXPR)))  # ExpressionStmt
        out.append(self.join(children))  # LambdaExpr

    def method_reference(self, node: ts.Node, role: int, out: Heights) -> None:
        named = [c for c in node.named_children if c.type not in DROPPED]
        children: Heights = []
        if named:
            scope = named[0]
            if is_name_chain(scope):
                children.append(self.join([self.name_chain_type(scope)]))  # TypeExpr
            elif scope.type in TYPE_NODES:
                children.append(self.join(self.one(scope, TYPE)))  # TypeExpr
            else:
                self.visit(scope, EXPR, children)
            for child in named[1:]:
                if child.type == "type_arguments":
                    children.extend(self.children(child))
        out.append(self.join(children))  # MethodReferenceExpr

    def name_chain_type(self, node: ts.Node) -> int:
        """`a.b.c` as a type: ClassOrInterfaceType(scope, SimpleName), nested."""
        levels = 0
        cursor: ts.Node | None = node
        while cursor is not None and cursor.type == "field_access":
            levels += 1
            cursor = cursor.child_by_field_name("object")
        height = self.join([0])  # the innermost ClassOrInterfaceType(SimpleName)
        for _ in range(levels):
            height = self.join([height, 0])
        return height

    def constructor_call(self, node: ts.Node, role: int, out: Heights) -> None:
        constructor = node.child_by_field_name("constructor")
        out.append(self.join(self.children(node, skip=lambda child: child == constructor)))

    def package(self, node: ts.Node, role: int, out: Heights) -> None:
        out.append(self.node(node))  # PackageDeclaration (only its first line differs)

    def field_access(self, node: ts.Node, role: int, out: Heights) -> None:
        field = node.child_by_field_name("field")
        scope = node.child_by_field_name("object")
        if field is not None and field.type in ("this", "super") and scope is not None:
            out.append(self.join(self.one(scope, QNAME)))  # Outer.this: ThisExpr(Name)
            return
        out.append(self.node(node))  # FieldAccessExpr

    def array_type(self, node: ts.Node, role: int, out: Heights) -> None:
        element = node.child_by_field_name("element")
        dims = node.child_by_field_name("dimensions")
        children: Heights = []
        if dims is not None:
            for child in dims.named_children:
                if child.type not in DROPPED:
                    self.visit(child, EXPR, children)
        inner = self.one(element, TYPE) if element is not None else []
        for _ in range(max(1, bracket_count(dims)) - 1):
            inner = [self.join(inner)]
        out.append(self.join(children + inner))  # the outermost ArrayType

    def class_type(self, node: ts.Node, role: int, out: Heights) -> None:
        todo = class_type_parts(node)
        children: Heights = []
        name_seen = False
        for position, child in enumerate(todo):
            if child.type == "type_arguments":
                children.extend(self.children(child))
            elif child.type == "type_identifier" and not name_seen and is_last_name(todo, position):
                children.append(0)  # SimpleName
                name_seen = True
            else:
                self.visit(child, TYPE, children)
        out.append(self.join(children))  # ClassOrInterfaceType

    def array_creation(self, node: ts.Node, role: int, out: Heights) -> None:
        children: Heights = []
        type_node = node.child_by_field_name("type")
        for child in node.named_children:
            if child.type == "dimensions":
                children.extend(0 for _ in range(bracket_count(child)))  # ArrayCreationLevel
            elif child.type not in DROPPED:
                self.visit(child, TYPE if child == type_node else EXPR, children)
        out.append(self.join(children))  # ArrayCreationExpr

    def wildcard(self, node: ts.Node, role: int, out: Heights) -> None:
        """`? super T`: WildcardType(bound); the `super` keyword is no node."""
        out.append(self.join(self.children(node, skip=lambda child: child.type == "super")))

    def type_parameter(self, node: ts.Node, role: int, out: Heights) -> None:
        children: Heights = []
        for child in node.named_children:
            if child.type == "type_identifier":
                children.append(0)  # SimpleName
            elif child.type == "type_bound":
                children.extend(self.children(child))
            elif child.type not in DROPPED:
                self.visit(child, EXPR, children)
        out.append(self.join(children))  # TypeParameter


_Handler = Callable[[_Walk, ts.Node, int, Heights], None]

_HANDLERS: Final[dict[str, _Handler]] = {
    "block": _Walk.block,
    "static_initializer": _Walk.static_initializer,
    "class_declaration": _Walk.local_declaration,
    "record_declaration": _Walk.local_declaration,
    "local_variable_declaration": _Walk.variables,
    "field_declaration": _Walk.variables,
    "constant_declaration": _Walk.variables,
    "formal_parameter": _Walk.parameter,
    "spread_parameter": _Walk.parameter,
    "catch_formal_parameter": _Walk.parameter,
    "enhanced_for_statement": _Walk.enhanced_for,
    "resource": _Walk.resource,
    "lambda_expression": _Walk.lambda_,
    "method_reference": _Walk.method_reference,
    "explicit_constructor_invocation": _Walk.constructor_call,
    "package_declaration": _Walk.package,
    "field_access": _Walk.field_access,
    "array_type": _Walk.array_type,
    "generic_type": _Walk.class_type,
    "scoped_type_identifier": _Walk.class_type,
    "array_creation_expression": _Walk.array_creation,
    "type_parameter": _Walk.type_parameter,
    "wildcard": _Walk.wildcard,
}


def diameter(tree: ShapedTree) -> int:
    """The longest path in the tree, in edges (0 is read as 1, as the study did). One
    pass over the nodes in reverse pre-order: children come before their parents."""
    n = len(tree)
    height = [0] * n  # longest downward path from each node
    best = 0
    parents = tree.parent.tolist()
    for node in range(n - 1, 0, -1):
        up = parents[node]
        through = height[node] + 1
        above = height[up]
        if above + through > best:
            best = above + through
        if through > above:
            height[up] = through
    return best if best > 0 else 1


def parsed_diameter(tree: ts.Tree) -> int:
    """`diameter(reshape(tree.root_node))` without building the JavaParser-shaped tree
    (built after all where the tree is nested deeper than the walk's recursion allows)."""
    walk = _Walk(_kinds(tree.language))
    try:
        walk.node(tree.root_node)  # the CompilationUnit
    except RecursionError:
        return diameter(reshape(tree.root_node))
    return walk.longest if walk.longest > 0 else 1


@dataclass(frozen=True, slots=True)
class BirchTree:
    """A Java file's JavaParser-shaped tree as the birch profile measures it: the nodes
    near some lines (every node when built without `near`) and the whole tree's
    diameter."""

    nodes: ShapedTree
    diameter: int


def birch_tree(
    source: bytes, parse: Callable[[bytes], ts.Tree], near: Sequence[tuple[int, int]] | None = None
) -> BirchTree:
    """The birch tree of Java `source`, parsed by `parse` (a parse cache's) after
    `javaparser_lines`; with `near`, only the nodes near those line ranges are built
    (`reshape`), the diameter is the whole tree's all the same."""
    source = javaparser_lines(source)
    tree = parse(source)
    nodes = reshape(tree.root_node, file_last_line(source), near)
    return BirchTree(nodes, diameter(nodes) if near is None else parsed_diameter(tree))


@cache
def _kinds(language: ts.Language) -> _Kinds:
    return _Kinds.of(language)
