"""Reshape a tree-sitter-java tree into JavaParser's node shape (the `birch` profile's tree).

The BIRCH study measured AST distances on JavaParser 3.25 trees. tree-sitter-java's named
nodes differ from JavaParser's in both directions; this module maps one onto the other as
../shared/spec/birch-exact.md describes ("The tree: JavaParser's node shape"):

* wrappers JavaParser does not have (`class_body`, `argument_list`, the parenthesized
  condition of `if`/`while`/`do`/`switch`/`synchronized`, ...) vanish, their children
  hang on the parent;
* nodes JavaParser has and tree-sitter does not appear: a `Modifier` leaf per keyword,
  `SimpleName` / `Name` / `NameExpr → SimpleName`, `ClassOrInterfaceType → SimpleName`,
  one `ArrayType` per `[]`, `ExpressionStmt → VariableDeclarationExpr →
  VariableDeclarator(copy of the type, SimpleName, initializer)`,
  `InitializerDeclaration`, `LocalClassDeclarationStmt`, the `ExpressionStmt` around a
  lambda's expression body, `TypeExpr` as a method reference's scope, `Parameter(UnknownType,
  SimpleName)` for an untyped lambda parameter (UnknownType has no range in JavaParser, so it
  counts for distances but is never an anchor);
  `VarType` for `var`, `EmptyStmt` for a lone `;` statement;
* `string_fragment`, `escape_sequence`, `dimensions` and comments are not nodes;
* everything else maps one to one.

Where tree-sitter could not parse the source (`ShapedTree.has_error`) its ERROR nodes are
kept one to one and the shape is no longer JavaParser's; callers should warn.

The rules are the constant tables below rather than a TOML file: each table only means
something together with the handler that reads it (a wrapper set is inert without the
walk that splices children), the rules folder's loader reads every `*.toml` there as a
language, and typed constants are checked by mypy. They are data all the same: adding a
wrapper or a name position is a one-line change to a table.

The result is a `ShapedTree`: parallel numpy arrays in pre-order (parent index, depth,
first line, last line, kind id) plus the kind names, built by one iterative walk (no
recursion, so deep nesting is safe) in time linear in the tree's size.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import chain
from typing import TYPE_CHECKING, Final

import tree_sitter as ts
import tree_sitter_java

from .parse_guard import parse

# ---- the rules -----------------------------------------------------------------------

#: tree-sitter nodes with no JavaParser counterpart: their children hang on the parent.
WRAPPERS: Final = frozenset(
    {
        "class_body",
        "interface_body",
        "enum_body",
        "enum_body_declarations",
        "annotation_type_body",
        "formal_parameters",
        "argument_list",
        "type_arguments",
        "type_parameters",
        "throws",
        "superclass",
        "super_interfaces",
        "extends_interfaces",
        "type_list",
        "type_bound",
        "finally_clause",
        "switch_block",
        "switch_label",
        "annotation_argument_list",
        "inferred_parameters",
        "resource_specification",
        "modifiers",  # its keywords become Modifier leaves (see _visit)
        "permits",
    }
)

#: Statements whose direct `parenthesized_expression` child is their condition (no node).
CONDITION_PARENTS: Final = frozenset(
    {
        "if_statement",
        "while_statement",
        "do_statement",
        "switch_expression",
        "switch_statement",
        "synchronized_statement",
    }  # fmt: skip
)

#: Fields whose identifier is a `SimpleName` leaf (not `NameExpr → SimpleName`).
NAME_FIELDS: Final = frozenset({"name", "field", "label", "key"})

#: Parents whose unfielded identifier children are names (labels of break/continue/label).
NAME_PARENTS: Final = frozenset({"labeled_statement", "break_statement", "continue_statement"})

#: Parents whose `name` is a qualified `Name` (nested Name nodes), and parents whose every
#: name child is one.
QUALIFIED_NAME_PARENTS: Final = frozenset(
    {"annotation", "marker_annotation", "package_declaration", "import_declaration"}
)

#: Children of these are statements (a `;` child is an EmptyStmt, a class a local class).
STATEMENT_PARENTS: Final = frozenset(
    {"block", "constructor_body", "switch_block_statement_group", "switch_rule"}
)

#: Children of these are members (a bare block is an initializer).
MEMBER_PARENTS: Final = frozenset(
    {
        "class_body",
        "interface_body",
        "enum_body",
        "enum_body_declarations",
        "annotation_type_body",
    }  # fmt: skip
)

#: Fields holding a statement that may be a bare `;` (EmptyStmt).
STATEMENT_FIELDS: Final = frozenset({"body", "consequence", "alternative"})

#: Nodes kept as leaves: their tree-sitter children are not JavaParser nodes.
LEAVES: Final = frozenset(
    {
        "string_literal",
        "character_literal",
        "text_block",
        "integral_type",
        "floating_point_type",
        "boolean_type",
        "void_type",
        "this",
        "super",
        "true",
        "false",
        "null_literal",
        "decimal_integer_literal",
        "hex_integer_literal",
        "octal_integer_literal",
        "binary_integer_literal",
        "decimal_floating_point_literal",
        "hex_floating_point_literal",
    }  # fmt: skip
)

#: Nodes dropped with their subtree.
DROPPED: Final = frozenset(
    {
        "line_comment",
        "block_comment",
        "dimensions",
        "asterisk",
        "string_fragment",
        "escape_sequence",
    }  # fmt: skip
)

#: Type nodes that can be a method reference's scope as they are.
TYPE_NODES: Final = frozenset(
    {
        "type_identifier",
        "scoped_type_identifier",
        "generic_type",
        "array_type",
        "integral_type",
        "floating_point_type",
        "boolean_type",
    }  # fmt: skip
)

#: Declarations that JavaParser wraps in a statement when declared inside a block.
LOCAL_DECLARATIONS: Final = {
    "class_declaration": "LocalClassDeclarationStmt",
    "record_declaration": "LocalRecordDeclarationStmt",
}

#: Debug names of the one-to-one nodes (the kind names of a ShapedTree; others keep
#: tree-sitter's name).
JAVAPARSER_NAMES: Final = {
    "program": "CompilationUnit",
    "package_declaration": "PackageDeclaration",
    "import_declaration": "ImportDeclaration",
    "class_declaration": "ClassOrInterfaceDeclaration",
    "interface_declaration": "ClassOrInterfaceDeclaration",
    "enum_declaration": "EnumDeclaration",
    "enum_constant": "EnumConstantDeclaration",
    "record_declaration": "RecordDeclaration",
    "annotation_type_declaration": "AnnotationDeclaration",
    "annotation_type_element_declaration": "AnnotationMemberDeclaration",
    "method_declaration": "MethodDeclaration",
    "constructor_declaration": "ConstructorDeclaration",
    "constructor_body": "BlockStmt",
    "block": "BlockStmt",
    "formal_parameter": "Parameter",
    "spread_parameter": "Parameter",
    "catch_formal_parameter": "Parameter",
    "type_parameter": "TypeParameter",
    "expression_statement": "ExpressionStmt",
    "if_statement": "IfStmt",
    "while_statement": "WhileStmt",
    "do_statement": "DoStmt",
    "for_statement": "ForStmt",
    "enhanced_for_statement": "ForEachStmt",
    "return_statement": "ReturnStmt",
    "break_statement": "BreakStmt",
    "continue_statement": "ContinueStmt",
    "throw_statement": "ThrowStmt",
    "yield_statement": "YieldStmt",
    "assert_statement": "AssertStmt",
    "try_statement": "TryStmt",
    "try_with_resources_statement": "TryStmt",
    "catch_clause": "CatchClause",
    "switch_expression": "SwitchStmt",
    "switch_block_statement_group": "SwitchEntry",
    "switch_rule": "SwitchEntry",
    "synchronized_statement": "SynchronizedStmt",
    "labeled_statement": "LabeledStmt",
    "explicit_constructor_invocation": "ExplicitConstructorInvocationStmt",
    "method_invocation": "MethodCallExpr",
    "field_access": "FieldAccessExpr",
    "array_access": "ArrayAccessExpr",
    "assignment_expression": "AssignExpr",
    "binary_expression": "BinaryExpr",
    "unary_expression": "UnaryExpr",
    "update_expression": "UnaryExpr",
    "ternary_expression": "ConditionalExpr",
    "cast_expression": "CastExpr",
    "instanceof_expression": "InstanceOfExpr",
    "object_creation_expression": "ObjectCreationExpr",
    "array_creation_expression": "ArrayCreationExpr",
    "dimensions_expr": "ArrayCreationLevel",
    "array_initializer": "ArrayInitializerExpr",
    "element_value_array_initializer": "ArrayInitializerExpr",
    "parenthesized_expression": "EnclosedExpr",
    "lambda_expression": "LambdaExpr",
    "method_reference": "MethodReferenceExpr",
    "class_literal": "ClassExpr",
    "marker_annotation": "MarkerAnnotationExpr",
    "annotation": "NormalAnnotationExpr",
    "element_value_pair": "MemberValuePair",
    "wildcard": "WildcardType",
    "this": "ThisExpr",
    "super": "SuperExpr",
    "string_literal": "StringLiteralExpr",
    "character_literal": "CharLiteralExpr",
    "null_literal": "NullLiteralExpr",
    "true": "BooleanLiteralExpr",
    "false": "BooleanLiteralExpr",
    "integral_type": "PrimitiveType",
    "floating_point_type": "PrimitiveType",
    "boolean_type": "PrimitiveType",
    "void_type": "VoidType",
    "decimal_integer_literal": "IntegerLiteralExpr",
    "hex_integer_literal": "IntegerLiteralExpr",
    "octal_integer_literal": "IntegerLiteralExpr",
    "binary_integer_literal": "IntegerLiteralExpr",
    "decimal_floating_point_literal": "DoubleLiteralExpr",
    "hex_floating_point_literal": "DoubleLiteralExpr",
    "text_block": "TextBlockLiteralExpr",
    "catch_type": "UnionType",
}

#: Line of a node that has no range in JavaParser (never an anchor candidate).
NO_BEGIN: Final = 2**31 - 1
NO_END: Final = -1

# roles: how a tree-sitter node is read in its position
EXPR, NAME, QNAME, COND, FOR_INIT, STMT, MEMBER, TYPE = range(8)

if TYPE_CHECKING:  # numpy is imported when a tree is shaped, not with the package
    import numpy as np
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int32]


@dataclass(frozen=True, slots=True)
class ShapedTree:
    """A JavaParser-shaped tree as parallel arrays in pre-order; node 0 is the root."""

    parent: IntArray  # -1 for the root
    depth: IntArray  # edges from the root
    begin: IntArray  # first line, 1-based (NO_BEGIN for a node without a range)
    end: IntArray  # last line (NO_END for a node without a range)
    kind: IntArray  # index into `kinds`
    kinds: tuple[str, ...]
    has_error: bool = False  # tree-sitter could not parse part of the source

    def __len__(self) -> int:
        return len(self.parent)

    def kind_name(self, index: int) -> str:
        return self.kinds[int(self.kind[index])]


# A node still to emit: a tree-sitter node with its role, or a synthetic node
# ("Kind", begin line, end line, children) for a JavaParser node tree-sitter lacks.
_Synthetic = tuple[str, int, int, list["_Spec"]]
_Spec = tuple[ts.Node, int] | _Synthetic


_COMMENTS = ("line_comment", "block_comment")


def _first_line(node: ts.Node) -> int:
    return node.start_point[0] + 1


def _last_line(node: ts.Node) -> int:
    """The node's last line, ignoring comments that tree-sitter folded in at its end."""
    while True:
        last = node.child(node.child_count - 1) if node.child_count else None
        if last is None or last.type not in _COMMENTS:
            break
        while last is not None and last.type in _COMMENTS:
            last = last.prev_sibling
        if last is None:
            break
        node = last
    row, column = node.end_point
    if column == 0 and row > node.start_point[0]:
        return row  # the node ends with a newline: its last line is the one before
    return row + 1


def children_with_fields(node: ts.Node) -> list[tuple[ts.Node, str | None]]:
    out: list[tuple[ts.Node, str | None]] = []
    cursor = node.walk()
    more = cursor.goto_first_child()
    while more:
        child = cursor.node
        if child is not None:  # always, on a child
            out.append((child, cursor.field_name))
        more = cursor.goto_next_sibling()
    return out


def role_of(parent_type: str, child_type: str, field: str | None) -> int:
    """The role of a named child (of type `child_type`, in `field`) in its parent (the
    parent may be a wrapper)."""
    if field in NAME_FIELDS:
        return QNAME if parent_type in QUALIFIED_NAME_PARENTS else NAME
    if parent_type in QUALIFIED_NAME_PARENTS and child_type in ("identifier", "scoped_identifier"):
        return QNAME
    if parent_type in CONDITION_PARENTS and child_type == "parenthesized_expression":
        return COND
    if parent_type in NAME_PARENTS and child_type == "identifier":
        return NAME
    if parent_type in STATEMENT_PARENTS:
        return STMT
    if parent_type in MEMBER_PARENTS:
        return MEMBER
    if parent_type == "for_statement" and field == "init":
        return FOR_INIT
    return EXPR


class _Builder:
    def __init__(self, near: Sequence[tuple[int, int]] | None = None) -> None:
        # line ranges, merged and sorted: a tree-sitter node none of whose lines falls in
        # one is left out
        self.near = None if near is None else _merged([(min(a, b), max(a, b)) for a, b in near])
        self.near_lows = [low for low, _ in self.near or ()]
        # one row per node: (parent, depth, begin, end, kind id); one append per node
        self.nodes: list[tuple[int, int, int, int, int]] = []
        self.kind_ids: dict[str, int] = {}
        self.stack: list[tuple[int, _Spec]] = []

    def emit(self, kind: str, begin: int, end: int, parent: int) -> int:
        nodes = self.nodes
        index = len(nodes)
        kind_id = self.kind_ids.get(kind)
        if kind_id is None:
            kind_id = self.kind_ids[kind] = len(self.kind_ids)
        depth = nodes[parent][1] + 1 if parent >= 0 else 0
        nodes.append((parent, depth, begin, end, kind_id))
        return index

    def push(self, parent: int, specs: list[_Spec]) -> None:
        """Schedule `specs` as children of `parent`, in order."""
        self.stack.extend([(parent, spec) for spec in reversed(specs)])

    def build(self, root: ts.Node, last_line: int) -> ShapedTree:
        index = self.emit("CompilationUnit", 1, last_line or _last_line(root), -1)
        self.push(index, self._child_specs(root))
        while self.stack:
            parent, spec = self.stack.pop()
            if len(spec) == 4:
                kind, begin, end, children = spec
                self.push(self.emit(kind, begin, end, parent), children)
            else:
                node, role = spec
                if self.near is None or self._is_near(node):
                    self._visit(node, role, parent)

        import numpy as np

        # one pass over the rows' values (faster than numpy reading a list of tuples)
        table = np.fromiter(
            chain.from_iterable(self.nodes), dtype=np.int32, count=5 * len(self.nodes)
        ).reshape(-1, 5)
        kinds = tuple(sorted(self.kind_ids, key=self.kind_ids.__getitem__))

        def column(k: int) -> IntArray:
            return np.ascontiguousarray(table[:, k])

        return ShapedTree(
            column(0), column(1), column(2), column(3), column(4), kinds, root.has_error
        )

    def _is_near(self, node: ts.Node) -> bool:
        # Every node built from a tree-sitter node lies within that node's rows.
        first, last = node.start_point[0] + 1, node.end_point[0] + 1
        # the last range starting at or before `last` is the only one that can reach back
        # to `first` (the ranges are disjoint and sorted)
        k = bisect_right(self.near_lows, last) - 1
        return k >= 0 and self.near is not None and self.near[k][1] >= first

    # ---- specs --------------------------------------------------------------------

    def _child_specs(self, node: ts.Node) -> list[_Spec]:
        """The JavaParser children of `node`, wrappers spliced in, each with its role."""
        out: list[_Spec] = []
        # a wrapper's children are spliced in place: an explicit stack of (parent type,
        # children, next position) frames (not recursion), so that chains of wrappers
        # nest to any depth
        pending: list[tuple[str, list[tuple[ts.Node, str | None]], int]] = [
            (node.type, children_with_fields(node), 0)
        ]
        while pending:
            parent_type, kids, position = pending.pop()
            count = len(kids)
            while position < count:
                child, field = kids[position]
                position += 1
                if not child.is_named:
                    if child.type == ";" and (
                        parent_type in STATEMENT_PARENTS or field in STATEMENT_FIELDS
                    ):
                        line = _first_line(child)
                        out.append(("EmptyStmt", line, line, []))
                    elif parent_type == "modifiers":
                        line = _first_line(child)
                        out.append(("Modifier", line, line, []))
                    continue
                ctype = child.type
                if ctype in DROPPED:
                    continue
                role = role_of(parent_type, ctype, field)
                if ctype in WRAPPERS or (role == COND and ctype == "parenthesized_expression"):
                    pending.append((parent_type, kids, position))  # resume after it
                    pending.append((ctype, children_with_fields(child), 0))
                    break
                out.append((child, role))
        return out

    def _simple_name(self, node: ts.Node) -> _Synthetic:
        return ("SimpleName", _first_line(node), _last_line(node), [])

    def _type_specs(self, type_node: ts.Node, dims: ts.Node | None, end: int) -> _Spec:
        """A copy of a declared type, wrapped in one ArrayType per `[]` of `dims`."""
        spec: _Spec = (type_node, TYPE)
        if type_node.type == "type_identifier" and type_node.text == b"var":
            spec = ("VarType", _first_line(type_node), _last_line(type_node), [])
        for _ in range(bracket_count(dims)):
            spec = ("ArrayType", _first_line(type_node), end, [spec])
        return spec

    def _declarator(self, declarator: ts.Node, type_node: ts.Node) -> _Synthetic:
        fields = fielded_children(declarator)
        name = fields.get("name")
        children: list[_Spec] = [
            self._type_specs(type_node, fields.get("dimensions"), _last_line(type_node))
        ]
        if name is not None:
            children.append(self._simple_name(name))
        value = fields.get("value")
        if value is not None:
            children.append((value, EXPR))
        return ("VariableDeclarator", _first_line(declarator), _last_line(declarator), children)

    def _modifier_specs(self, node: ts.Node) -> list[_Spec]:
        for child in node.named_children:
            if child.type == "modifiers":
                return self._child_specs(child)
        return []

    def _name_chain_type(self, node: ts.Node) -> _Spec:
        """`a.b.c` read as a type: ClassOrInterfaceType(scope, SimpleName), nested."""
        chain: list[ts.Node] = []
        cursor: ts.Node | None = node
        while cursor is not None and cursor.type == "field_access":
            chain.append(cursor)
            cursor = cursor.child_by_field_name("object")
        assert cursor is not None
        spec: _Spec = (
            "ClassOrInterfaceType",
            _first_line(cursor),
            _last_line(cursor),
            [self._simple_name(cursor)],
        )
        for access in reversed(chain):
            field = access.child_by_field_name("field")
            assert field is not None
            spec = (
                "ClassOrInterfaceType",
                _first_line(access),
                _last_line(access),
                [spec, self._simple_name(field)],
            )
        return spec

    # ---- the visit ----------------------------------------------------------------

    def _visit(self, node: ts.Node, role: int, parent: int) -> None:
        ntype = node.type
        begin, end = _first_line(node), _last_line(node)
        if ntype == "identifier" or (ntype == "type_identifier" and role == NAME):
            if role == NAME:
                self.emit("SimpleName", begin, end, parent)
            elif role == QNAME:
                self.emit("Name", begin, end, parent)
            else:
                expr = self.emit("NameExpr", begin, end, parent)
                self.emit("SimpleName", begin, end, expr)
            return
        if ntype == "type_identifier":
            coit = self.emit("ClassOrInterfaceType", begin, end, parent)
            self.emit("SimpleName", begin, end, coit)
            return
        if ntype == "scoped_identifier" or (role == QNAME and ntype == "field_access"):
            # a.b.c as a qualified Name: Name(qualifier Name, identifier)
            index = self.emit("Name", begin, end, parent)
            scope = node.child_by_field_name("scope") or node.child_by_field_name("object")
            if scope is not None:
                self.push(index, [(scope, QNAME)])
            return
        if ntype in LEAVES:
            self.emit(JAVAPARSER_NAMES.get(ntype, ntype), begin, end, parent)
            return
        handler = _HANDLERS.get(ntype)
        if handler is not None:
            handler(self, node, role, parent, begin, end)
            return
        index = self.emit(JAVAPARSER_NAMES.get(ntype, ntype), begin, end, parent)
        self.push(index, self._child_specs(node))

    def _block(self, node: ts.Node, role: int, parent: int, begin: int, end: int) -> None:
        if role == MEMBER:
            parent = self.emit("InitializerDeclaration", begin, end, parent)
        self.push(self.emit("BlockStmt", begin, end, parent), self._child_specs(node))

    def _static_initializer(
        self, node: ts.Node, role: int, parent: int, begin: int, end: int
    ) -> None:
        index = self.emit("InitializerDeclaration", begin, end, parent)
        self.push(index, [(c, EXPR) for c in node.named_children if c.type == "block"])

    def _local_declaration(
        self, node: ts.Node, role: int, parent: int, begin: int, end: int
    ) -> None:
        kind = LOCAL_DECLARATIONS[node.type]
        if role == STMT:
            parent = self.emit(kind, begin, end, parent)
        index = self.emit(JAVAPARSER_NAMES.get(node.type, node.type), begin, end, parent)
        self.push(index, self._child_specs(node))

    def _variables(self, node: ts.Node, role: int, parent: int, begin: int, end: int) -> None:
        type_node = node.child_by_field_name("type")
        declarators = [c for c in node.named_children if c.type == "variable_declarator"]
        if node.type in ("field_declaration", "constant_declaration"):
            index = self.emit("FieldDeclaration", begin, end, parent)
        else:
            if role != FOR_INIT:
                parent = self.emit("ExpressionStmt", begin, end, parent)
            last = _last_line(declarators[-1]) if declarators else end
            index = self.emit("VariableDeclarationExpr", begin, last, parent)
        specs = self._modifier_specs(node)
        if type_node is not None:
            specs.extend(self._declarator(d, type_node) for d in declarators)
        self.push(index, specs)

    def _parameter(self, node: ts.Node, role: int, parent: int, begin: int, end: int) -> None:
        index = self.emit("Parameter", begin, end, parent)
        parts = parameter_parts(node)
        specs = self._modifier_specs(node)
        specs.extend((t, TYPE) for t in parts.types)
        for catch_type, caught in parts.caught:
            if len(caught) == 1:
                specs.append((caught[0], TYPE))
            else:
                union: list[_Spec] = [(t, TYPE) for t in caught]
                specs.append(("UnionType", _first_line(catch_type), _last_line(catch_type), union))
        if parts.declared is not None:
            specs.append(self._type_specs(parts.declared, parts.dims, end))
        if parts.name is not None:
            specs.append(self._simple_name(parts.name))
        self.push(index, specs)

    def _enhanced_for(self, node: ts.Node, role: int, parent: int, begin: int, end: int) -> None:
        index = self.emit("ForEachStmt", begin, end, parent)
        fields = fielded_children(node)
        type_node, name = fields.get("type"), fields.get("name")
        specs: list[_Spec] = []
        if type_node is not None and name is not None:
            modifiers = self._modifier_specs(node)
            first = min([_first_line(type_node)] + [_spec_begin(m) for m in modifiers])
            declarator: _Synthetic = (
                "VariableDeclarator",
                _first_line(name),
                _last_line(name),
                [
                    self._type_specs(type_node, fields.get("dimensions"), _last_line(name)),
                    self._simple_name(name),
                ],
            )
            specs.append(
                ("VariableDeclarationExpr", first, _last_line(name), [*modifiers, declarator])
            )
        for key in ("value", "body"):
            child = fields.get(key)
            if child is not None:
                if child.type == ";":
                    specs.append(("EmptyStmt", _first_line(child), _last_line(child), []))
                else:
                    specs.append((child, STMT if key == "body" else EXPR))
        self.push(index, specs)

    def _resource(self, node: ts.Node, role: int, parent: int, begin: int, end: int) -> None:
        fields = fielded_children(node)
        type_node, name, value = fields.get("type"), fields.get("name"), fields.get("value")
        if type_node is None or name is None:
            self.push(parent, self._child_specs(node))  # `try (existing)`: a plain expression
            return
        index = self.emit("VariableDeclarationExpr", begin, end, parent)
        children: list[_Spec] = [
            self._type_specs(type_node, fields.get("dimensions"), _last_line(type_node)),
            self._simple_name(name),
        ]
        if value is not None:
            children.append((value, EXPR))
        self.push(
            index,
            [*self._modifier_specs(node), ("VariableDeclarator", _first_line(name), end, children)],
        )

    def _lambda(self, node: ts.Node, role: int, parent: int, begin: int, end: int) -> None:
        index = self.emit("LambdaExpr", begin, end, parent)
        specs: list[_Spec] = []
        params = node.child_by_field_name("parameters")
        if params is not None:
            untyped = untyped_parameters(params)
            if untyped:
                for ident in untyped:
                    line, last = _first_line(ident), _last_line(ident)
                    specs.append(
                        (
                            "Parameter",
                            line,
                            last,
                            [("UnknownType", NO_BEGIN, NO_END, []), self._simple_name(ident)],
                        )
                    )
            else:
                specs.extend(self._child_specs(params))
        body = node.child_by_field_name("body")
        if body is not None:
            if body.type == "block":
                specs.append((body, EXPR))
            else:
                specs.append(
                    ("ExpressionStmt", _first_line(body), _last_line(body), [(body, EXPR)])
                )
        self.push(index, specs)

    def _method_reference(
        self, node: ts.Node, role: int, parent: int, begin: int, end: int
    ) -> None:
        index = self.emit("MethodReferenceExpr", begin, end, parent)
        named = [c for c in node.named_children if c.type not in DROPPED]
        specs: list[_Spec] = []
        if named:
            scope = named[0]
            if is_name_chain(scope):
                scope_spec = self._name_chain_type(scope)
                specs.append(("TypeExpr", _first_line(scope), _last_line(scope), [scope_spec]))
            elif scope.type in TYPE_NODES:
                specs.append(("TypeExpr", _first_line(scope), _last_line(scope), [(scope, TYPE)]))
            else:
                specs.append((scope, EXPR))
            for child in named[1:]:
                if child.type == "type_arguments":
                    specs.extend(self._child_specs(child))
        self.push(index, specs)

    def _constructor_call(
        self, node: ts.Node, role: int, parent: int, begin: int, end: int
    ) -> None:
        index = self.emit("ExplicitConstructorInvocationStmt", begin, end, parent)
        constructor = node.child_by_field_name("constructor")
        specs = [
            s
            for s in self._child_specs(node)
            if not (isinstance(s[0], ts.Node) and s[0] == constructor)
        ]
        self.push(index, specs)

    def _package(self, node: ts.Node, role: int, parent: int, begin: int, end: int) -> None:
        for child in node.children:
            if child.type == "package":
                begin = _first_line(child)
                break
        self.push(self.emit("PackageDeclaration", begin, end, parent), self._child_specs(node))

    def _field_access(self, node: ts.Node, role: int, parent: int, begin: int, end: int) -> None:
        field = node.child_by_field_name("field")
        scope = node.child_by_field_name("object")
        if field is not None and field.type in ("this", "super") and scope is not None:
            # Outer.this: ThisExpr(typeName Name)
            kind = "ThisExpr" if field.type == "this" else "SuperExpr"
            self.push(self.emit(kind, begin, end, parent), [(scope, QNAME)])
            return
        self.push(self.emit("FieldAccessExpr", begin, end, parent), self._child_specs(node))

    def _array_type(self, node: ts.Node, role: int, parent: int, begin: int, end: int) -> None:
        """One ArrayType per `[]`; type annotations on the brackets (`byte @A []`) go on
        the outermost one, before the element type."""
        element = node.child_by_field_name("element")
        dims = node.child_by_field_name("dimensions")
        annotations: list[_Spec] = []
        if dims is not None:
            annotations = [(c, EXPR) for c in dims.named_children if c.type not in DROPPED]
        inner: _Spec | None = (element, TYPE) if element is not None else None
        for _ in range(max(1, bracket_count(dims)) - 1):
            inner = ("ArrayType", begin, end, [inner] if inner is not None else [])
        index = self.emit("ArrayType", begin, end, parent)
        self.push(index, annotations + ([inner] if inner is not None else []))

    def _class_type(self, node: ts.Node, role: int, parent: int, begin: int, end: int) -> None:
        """generic_type / scoped_type_identifier: one ClassOrInterfaceType holding its
        scope type, a SimpleName and its type arguments."""
        index = self.emit("ClassOrInterfaceType", begin, end, parent)
        specs: list[_Spec] = []
        todo = class_type_parts(node)
        name_seen = False
        for position, child in enumerate(todo):
            if child.type == "type_arguments":
                specs.extend(self._child_specs(child))
            elif child.type == "type_identifier" and not name_seen and is_last_name(todo, position):
                specs.append(self._simple_name(child))
                name_seen = True
            else:
                specs.append((child, TYPE))
        self.push(index, specs)

    def _array_creation(self, node: ts.Node, role: int, parent: int, begin: int, end: int) -> None:
        index = self.emit("ArrayCreationExpr", begin, end, parent)
        specs: list[_Spec] = []
        for child in node.named_children:
            if child.type == "dimensions":
                line = _first_line(child)
                specs.extend(
                    ("ArrayCreationLevel", line, line, []) for _ in range(bracket_count(child))
                )
            elif child.type not in DROPPED:
                specs.append((child, TYPE if child == node.child_by_field_name("type") else EXPR))
        self.push(index, specs)

    def _wildcard(self, node: ts.Node, role: int, parent: int, begin: int, end: int) -> None:
        """`? super T`: WildcardType(bound); the `super` keyword is no node."""
        index = self.emit("WildcardType", begin, end, parent)
        self.push(index, [s for s in self._child_specs(node) if not _is_ts(s, "super")])

    def _type_parameter(self, node: ts.Node, role: int, parent: int, begin: int, end: int) -> None:
        index = self.emit("TypeParameter", begin, end, parent)
        specs: list[_Spec] = []
        for child in node.named_children:
            if child.type == "type_identifier":
                specs.append(self._simple_name(child))
            elif child.type == "type_bound":
                specs.extend(self._child_specs(child))
            elif child.type not in DROPPED:
                specs.append((child, EXPR))
        self.push(index, specs)


@dataclass(frozen=True, slots=True)
class ParameterParts:
    """What JavaParser's Parameter holds after the modifiers: `types` read as types (a
    spread parameter's), each catch type with the types it catches (one: that type; more:
    a UnionType of them), or the `declared` type copied with `dims`; then the `name`."""

    types: tuple[ts.Node, ...] = ()
    caught: tuple[tuple[ts.Node, tuple[ts.Node, ...]], ...] = ()
    declared: ts.Node | None = None
    dims: ts.Node | None = None
    name: ts.Node | None = None


def parameter_parts(node: ts.Node) -> ParameterParts:
    """The parts of a formal_parameter, spread_parameter or catch_formal_parameter."""
    fields = fielded_children(node)
    name = fields.get("name")
    if node.type == "spread_parameter":
        types = []
        for child in node.named_children:
            if child.type not in ("modifiers", "variable_declarator", *DROPPED):
                types.append(child)
            elif child.type == "variable_declarator":
                name = child.child_by_field_name("name")
        return ParameterParts(types=tuple(types), name=name)
    if node.type == "catch_formal_parameter":
        caught = tuple(
            (child, tuple(c for c in child.named_children if c.type not in DROPPED))
            for child in node.named_children
            if child.type == "catch_type"
        )
        return ParameterParts(caught=caught, name=name)
    return ParameterParts(declared=fields.get("type"), dims=fields.get("dimensions"), name=name)


def untyped_parameters(params: ts.Node) -> list[ts.Node]:
    """A lambda's parameters without types (`x ->`, `(a, b) ->`), each becoming
    Parameter(UnknownType, SimpleName); empty for typed parameters."""
    if params.type == "identifier":
        return [params]
    if params.type == "inferred_parameters":
        return [c for c in params.named_children if c.type == "identifier"]
    return []


def class_type_parts(node: ts.Node) -> list[ts.Node]:
    """The children a generic_type or scoped_type_identifier's ClassOrInterfaceType is
    made of (a generic type's scoped name spliced in)."""
    todo = [c for c in node.named_children if c.type not in DROPPED]
    if node.type == "generic_type" and todo and todo[0].type == "scoped_type_identifier":
        todo = [c for c in todo[0].named_children if c.type not in DROPPED] + todo[1:]
    return todo


def _merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Ranges of lines (first <= last) as sorted disjoint ranges covering the same lines."""
    out: list[tuple[int, int]] = []
    for low, high in sorted(ranges):
        if out and low <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], high))
        else:
            out.append((low, high))
    return out


def _is_ts(spec: _Spec, ntype: str) -> bool:
    """Whether `spec` is the tree-sitter node of type `ntype`."""
    return len(spec) == 2 and spec[0].type == ntype


def _spec_begin(spec: _Spec) -> int:
    return spec[1] if len(spec) == 4 else _first_line(spec[0])


def fielded_children(node: ts.Node) -> dict[str, ts.Node]:
    """The node's fielded children (the first child of each field)."""
    out: dict[str, ts.Node] = {}
    for child, field in children_with_fields(node):
        if field is not None and field not in out:
            out[field] = child
    return out


def bracket_count(dims: ts.Node | None) -> int:
    if dims is None:
        return 0
    return sum(1 for c in dims.children if c.type == "[")


def is_name_chain(node: ts.Node) -> bool:
    """identifier, or field_access of identifiers only (`a.b.c`)."""
    cursor: ts.Node | None = node
    while cursor is not None and cursor.type == "field_access":
        field = cursor.child_by_field_name("field")
        if field is None or field.type != "identifier":
            return False
        cursor = cursor.child_by_field_name("object")
    return cursor is not None and cursor.type == "identifier"


def is_last_name(children: list[ts.Node], position: int) -> bool:
    """Whether the type_identifier at `position` is the type's own name (the last one
    before any type arguments), rather than its scope."""
    return not any(c.type == "type_identifier" for c in children[position + 1 :])


_HANDLERS: Final = {
    "block": _Builder._block,
    "static_initializer": _Builder._static_initializer,
    "class_declaration": _Builder._local_declaration,
    "record_declaration": _Builder._local_declaration,
    "local_variable_declaration": _Builder._variables,
    "field_declaration": _Builder._variables,
    "constant_declaration": _Builder._variables,
    "formal_parameter": _Builder._parameter,
    "spread_parameter": _Builder._parameter,
    "catch_formal_parameter": _Builder._parameter,
    "enhanced_for_statement": _Builder._enhanced_for,
    "resource": _Builder._resource,
    "lambda_expression": _Builder._lambda,
    "method_reference": _Builder._method_reference,
    "explicit_constructor_invocation": _Builder._constructor_call,
    "package_declaration": _Builder._package,
    "field_access": _Builder._field_access,
    "array_type": _Builder._array_type,
    "generic_type": _Builder._class_type,
    "scoped_type_identifier": _Builder._class_type,
    "array_creation_expression": _Builder._array_creation,
    "type_parameter": _Builder._type_parameter,
    "wildcard": _Builder._wildcard,
}


def reshape(
    root: ts.Node, last_line: int = 0, near: Sequence[tuple[int, int]] | None = None
) -> ShapedTree:
    """The JavaParser-shaped tree of a tree-sitter-java `program` node. The compilation
    unit spans line 1 to `last_line` (JavaParser: the line of the file's last character;
    `file_last_line`), or to the last line of the root's code when 0.

    With `near` (line ranges, first and last in either order), only the nodes whose
    tree-sitter node has a line in one of the ranges, with all their ancestors: every node
    that covers lines of those ranges is there, at its depth, in the same pre-order, so
    anchors and distances of spans within the ranges are those of the whole tree (not
    the diameter: see javaparser_diameter)."""
    return _Builder(near).build(root, last_line)


def file_last_line(source: bytes) -> int:
    """The line holding the file's last character (a final newline belongs to the line it
    ends): JavaParser's last line of the CompilationUnit. Checked against JavaParser on
    ~400 files, including files ending in blank lines."""
    return max(1, source.count(b"\n") + (0 if source.endswith(b"\n") else 1))


def javaparser_lines(source: bytes) -> bytes:
    """The source with JavaParser's line ends: it also ends a line at a lone CR, which
    tree-sitter does not, so CRLF and CR become LF before parsing."""
    if b"\r" in source:
        return source.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return source


@cache
def _java_parser() -> ts.Parser:
    # The grammar module directly: importing .languages here would close an import cycle
    # (languages loads the hooks, the Java hooks use this module).
    return ts.Parser(ts.Language(tree_sitter_java.language()))


def shape_java(source: bytes) -> ShapedTree:
    """Parse Java source with tree-sitter-java and reshape it."""
    source = javaparser_lines(source)
    return reshape(parse(_java_parser(), source).root_node, file_last_line(source))
