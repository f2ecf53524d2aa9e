"""The JavaParser-shaped tree, one reshaping rule at a time (../shared/spec/birch-exact.md).

Every expected outline, node count, anchor and diameter below is worked out by hand from
JavaParser's node classes, not taken from the code's output. Outlines list node kinds in
pre-order, two spaces of indentation per level.
"""

from __future__ import annotations

from hunkmetrics.lang.javaparser_shape import NO_BEGIN, ShapedTree, file_last_line, shape_java
from hunkmetrics.metrics.ast_path import anchor, diameter, distance


def outline(tree: ShapedTree) -> str:
    return "\n".join("  " * int(tree.depth[i]) + tree.kind_name(i) for i in range(len(tree)))


def expect(source: str, expected: str) -> ShapedTree:
    tree = shape_java(source.encode())
    lines = [line for line in expected.splitlines() if line.strip()]
    indent = len(lines[0]) - len(lines[0].lstrip())
    assert outline(tree) == "\n".join(line[indent:] for line in lines)
    return tree


def count(tree: ShapedTree, kind: str) -> int:
    return sum(1 for i in range(len(tree)) if tree.kind_name(i) == kind)


def test_wrappers_removed_and_a_small_file_by_hand() -> None:
    """No class_body, formal_parameters, argument_list node: the method hangs on the class,
    the call's argument on the call. 14 nodes. Depths: PackageDeclaration 1, Name 2,
    class 1, SimpleName A 2, method 2, VoidType/f/BlockStmt 3, ExpressionStmt 4,
    MethodCallExpr 5, g/NameExpr 6, x 7. Diameter: x up to the root (7 edges) and down
    to the package's Name (2) = 9.
    Anchors: line 4 -> the ExpressionStmt (the outermost one-line node there); line 5
    (the method's closing brace) -> the method (MethodDeclaration and BlockStmt both span
    3-5, the tie goes to the outer); line 6 -> the class; lines 3-5 -> the method; line 1
    -> the PackageDeclaration. ExpressionStmt to method: 2 edges."""
    source = "package p;\nclass A {\n  void f() {\n    g(x);\n  }\n}\n"
    tree = expect(
        source,
        """
        CompilationUnit
          PackageDeclaration
            Name
          ClassOrInterfaceDeclaration
            SimpleName
            MethodDeclaration
              VoidType
              SimpleName
              BlockStmt
                ExpressionStmt
                  MethodCallExpr
                    SimpleName
                    NameExpr
                      SimpleName
        """,
    )
    assert len(tree) == 14
    assert diameter(tree) == 9
    statement, method, klass, package = 9, 5, 3, 1
    assert anchor(tree, 4, 4) == statement
    assert anchor(tree, 5, 5) == method
    assert anchor(tree, 6, 6) == klass
    assert anchor(tree, 3, 5) == method
    assert anchor(tree, 1, 1) == package
    assert distance(tree, statement, method) == 2
    assert [int(tree.begin[i]) for i in (statement, method, klass)] == [4, 3, 2]
    assert [int(tree.end[i]) for i in (statement, method, klass)] == [4, 5, 6]


def test_modifiers_become_leaves_and_annotations_children() -> None:
    """`@Deprecated public static final int X = 1;`: tree-sitter's `modifiers` node goes;
    the annotation and one Modifier per keyword hang on the FieldDeclaration. 13 nodes;
    the deepest are the annotation's Name and the declarator's children (depth 4), and the
    longest path joins two of them through the FieldDeclaration: 4 edges."""
    tree = expect(
        "class A {\n  @Deprecated public static final int X = 1;\n}\n",
        """
        CompilationUnit
          ClassOrInterfaceDeclaration
            SimpleName
            FieldDeclaration
              MarkerAnnotationExpr
                Name
              Modifier
              Modifier
              Modifier
              VariableDeclarator
                PrimitiveType
                SimpleName
                IntegerLiteralExpr
        """,
    )
    assert len(tree) == 13
    assert count(tree, "Modifier") == 3
    assert diameter(tree) == 4


def test_identifiers_in_name_positions_are_simple_names_others_name_exprs() -> None:
    """`a.b + c.d()`: the field `b` and the method name `d` are SimpleName leaves; the
    scopes `a` and `c` are NameExpr -> SimpleName."""
    tree = expect(
        "class A { int f() { return a.b + c.d(); } }",
        """
        CompilationUnit
          ClassOrInterfaceDeclaration
            SimpleName
            MethodDeclaration
              PrimitiveType
              SimpleName
              BlockStmt
                ReturnStmt
                  BinaryExpr
                    FieldAccessExpr
                      NameExpr
                        SimpleName
                      SimpleName
                    MethodCallExpr
                      NameExpr
                        SimpleName
                      SimpleName
        """,
    )
    assert count(tree, "NameExpr") == 2
    assert count(tree, "SimpleName") == 6


def test_qualified_names_nest() -> None:
    """`package a.b.c;` and `import java.util.List;`: Name -> Name -> Name each."""
    expect(
        "package a.b.c;\nimport java.util.List;\nclass A {}\n",
        """
        CompilationUnit
          PackageDeclaration
            Name
              Name
                Name
          ImportDeclaration
            Name
              Name
                Name
          ClassOrInterfaceDeclaration
            SimpleName
        """,
    )


def test_package_declaration_begins_at_the_keyword() -> None:
    """An annotation on the line before `package` is a child, but the declaration's
    range starts at `package` (line 2)."""
    tree = shape_java(b"@Deprecated\npackage a;\nclass A {}\n")
    assert tree.kind_name(1) == "PackageDeclaration"
    assert (int(tree.begin[1]), int(tree.end[1])) == (2, 2)


def test_local_variables_get_declarators_with_a_copy_of_the_type() -> None:
    """`int a = 1, b;` -> ExpressionStmt -> VariableDeclarationExpr with two
    VariableDeclarators, each holding its own PrimitiveType. 16 nodes."""
    tree = expect(
        "class A { void f() { int a = 1, b; } }",
        """
        CompilationUnit
          ClassOrInterfaceDeclaration
            SimpleName
            MethodDeclaration
              VoidType
              SimpleName
              BlockStmt
                ExpressionStmt
                  VariableDeclarationExpr
                    VariableDeclarator
                      PrimitiveType
                      SimpleName
                      IntegerLiteralExpr
                    VariableDeclarator
                      PrimitiveType
                      SimpleName
        """,
    )
    assert len(tree) == 16


def test_for_header_has_no_expression_statement_and_foreach_declares() -> None:
    """`for (int i = 0; i < n; i++)`: the VariableDeclarationExpr hangs on the ForStmt
    directly. `for (final String s : xs)`: ForEachStmt(VariableDeclarationExpr(Modifier,
    VariableDeclarator(type, name)), iterable, body)."""
    expect(
        "class A { void f() { for (int i = 0; i < n; i++) {} for (final String s : xs) {} } }",
        """
        CompilationUnit
          ClassOrInterfaceDeclaration
            SimpleName
            MethodDeclaration
              VoidType
              SimpleName
              BlockStmt
                ForStmt
                  VariableDeclarationExpr
                    VariableDeclarator
                      PrimitiveType
                      SimpleName
                      IntegerLiteralExpr
                  BinaryExpr
                    NameExpr
                      SimpleName
                    NameExpr
                      SimpleName
                  UnaryExpr
                    NameExpr
                      SimpleName
                  BlockStmt
                ForEachStmt
                  VariableDeclarationExpr
                    Modifier
                    VariableDeclarator
                      ClassOrInterfaceType
                        SimpleName
                      SimpleName
                  NameExpr
                    SimpleName
                  BlockStmt
        """,
    )


def test_initializer_blocks_and_local_classes() -> None:
    """A static and an instance initializer: InitializerDeclaration -> BlockStmt each;
    a class declared in a method body: LocalClassDeclarationStmt -> the class.
    The first two initializers' call names sit at depth 6 (CU 0, class 1, initializer 2,
    block 3, statement 4, call 5); they are joined through the class: 5 + 5 = 10 edges,
    the diameter of the first file (13 nodes)."""
    tree = expect(
        "class A {\n  static { f(); }\n  { g(); }\n}\n",
        """
        CompilationUnit
          ClassOrInterfaceDeclaration
            SimpleName
            InitializerDeclaration
              BlockStmt
                ExpressionStmt
                  MethodCallExpr
                    SimpleName
            InitializerDeclaration
              BlockStmt
                ExpressionStmt
                  MethodCallExpr
                    SimpleName
        """,
    )
    assert len(tree) == 13
    assert diameter(tree) == 10
    expect(
        "class A { void f() { class L {} } }",
        """
        CompilationUnit
          ClassOrInterfaceDeclaration
            SimpleName
            MethodDeclaration
              VoidType
              SimpleName
              BlockStmt
                LocalClassDeclarationStmt
                  ClassOrInterfaceDeclaration
                    SimpleName
        """,
    )


def test_lambdas() -> None:
    """`x -> x`: Parameter(UnknownType, SimpleName) and the expression body wrapped in
    an ExpressionStmt. `(a, b) -> { return a; }`: no inferred_parameters node, two
    Parameters, the block body as it is. UnknownType has no range: never an anchor."""
    tree = expect(
        "class A { Object o = x -> x; Object p = (a, b) -> { return a; }; }",
        """
        CompilationUnit
          ClassOrInterfaceDeclaration
            SimpleName
            FieldDeclaration
              VariableDeclarator
                ClassOrInterfaceType
                  SimpleName
                SimpleName
                LambdaExpr
                  Parameter
                    UnknownType
                    SimpleName
                  ExpressionStmt
                    NameExpr
                      SimpleName
            FieldDeclaration
              VariableDeclarator
                ClassOrInterfaceType
                  SimpleName
                SimpleName
                LambdaExpr
                  Parameter
                    UnknownType
                    SimpleName
                  Parameter
                    UnknownType
                    SimpleName
                  BlockStmt
                    ReturnStmt
                      NameExpr
                        SimpleName
        """,
    )
    unknown = [i for i in range(len(tree)) if tree.kind_name(i) == "UnknownType"]
    assert all(int(tree.begin[i]) == NO_BEGIN for i in unknown)


def test_method_references_and_constructor_calls() -> None:
    """`String::valueOf`: MethodReferenceExpr -> TypeExpr -> ClassOrInterfaceType ->
    SimpleName, with no node for `valueOf`; `this::g`: the scope is a ThisExpr.
    `super(1);` in a constructor: ExplicitConstructorInvocationStmt with the argument
    only (no SuperExpr)."""
    expect(
        "class A { A() { super(1); } Object r = String::valueOf, t = this::g; }",
        """
        CompilationUnit
          ClassOrInterfaceDeclaration
            SimpleName
            ConstructorDeclaration
              SimpleName
              BlockStmt
                ExplicitConstructorInvocationStmt
                  IntegerLiteralExpr
            FieldDeclaration
              VariableDeclarator
                ClassOrInterfaceType
                  SimpleName
                SimpleName
                MethodReferenceExpr
                  TypeExpr
                    ClassOrInterfaceType
                      SimpleName
              VariableDeclarator
                ClassOrInterfaceType
                  SimpleName
                SimpleName
                MethodReferenceExpr
                  ThisExpr
        """,
    )


def test_conditions_types_literals_and_comments() -> None:
    """The parentheses of an `if` condition are no node, other parentheses are an
    EnclosedExpr; `Map.Entry<K, V>` is one ClassOrInterfaceType (scope type, name, type
    arguments); `int[][]` two ArrayTypes; a string literal with an escape is one leaf;
    comments are no nodes."""
    expect(
        "class A { void f() { // c\n if (a) { x = (b); } "
        'Map.Entry<K, V> e; int[][] m; s = "\\n"; } }',
        """
        CompilationUnit
          ClassOrInterfaceDeclaration
            SimpleName
            MethodDeclaration
              VoidType
              SimpleName
              BlockStmt
                IfStmt
                  NameExpr
                    SimpleName
                  BlockStmt
                    ExpressionStmt
                      AssignExpr
                        NameExpr
                          SimpleName
                        EnclosedExpr
                          NameExpr
                            SimpleName
                ExpressionStmt
                  VariableDeclarationExpr
                    VariableDeclarator
                      ClassOrInterfaceType
                        ClassOrInterfaceType
                          SimpleName
                        SimpleName
                        ClassOrInterfaceType
                          SimpleName
                        ClassOrInterfaceType
                          SimpleName
                      SimpleName
                ExpressionStmt
                  VariableDeclarationExpr
                    VariableDeclarator
                      ArrayType
                        ArrayType
                          PrimitiveType
                      SimpleName
                ExpressionStmt
                  AssignExpr
                    NameExpr
                      SimpleName
                    StringLiteralExpr
        """,
    )


def test_switch_entries_and_try() -> None:
    """switch_block and switch_label go: one SwitchEntry per `case` (holding its label and
    statements); a `finally` block hangs on the TryStmt; a multi-catch is a UnionType."""
    expect(
        "class A { void f() { switch (k) { case 1: g(); default: } "
        "try {} catch (E | F e) {} finally {} } }",
        """
        CompilationUnit
          ClassOrInterfaceDeclaration
            SimpleName
            MethodDeclaration
              VoidType
              SimpleName
              BlockStmt
                SwitchStmt
                  NameExpr
                    SimpleName
                  SwitchEntry
                    IntegerLiteralExpr
                    ExpressionStmt
                      MethodCallExpr
                        SimpleName
                  SwitchEntry
                TryStmt
                  BlockStmt
                  CatchClause
                    Parameter
                      UnionType
                        ClassOrInterfaceType
                          SimpleName
                        ClassOrInterfaceType
                          SimpleName
                      SimpleName
                    BlockStmt
                  BlockStmt
        """,
    )


def test_deep_nesting_needs_no_recursion() -> None:
    """3000 nested blocks and a 20000-term sum: far past Python's recursion limit.
    The innermost block sits at depth 3 (CU, class, method) + 1 (method body) + 3000."""
    source = "class A { int x = " + "+".join(["1"] * 20000) + "; void f() {"
    source += "{" * 3000 + "}" * 3000 + "} }"
    tree = shape_java(source.encode())
    assert int(tree.depth.max()) >= 3003
    assert diameter(tree) > 20000


def test_var_is_a_var_type_leaf_and_parse_errors_are_flagged() -> None:
    """`var x = 1;`: the declarator's type is one VarType leaf (not ClassOrInterfaceType
    -> SimpleName). An unclosed parameter list is flagged as a parse error."""
    tree = shape_java(b"class A { void f() { var x = 1; } }")
    assert count(tree, "VarType") == 1
    assert count(tree, "ClassOrInterfaceType") == 0
    assert not tree.has_error
    assert shape_java(b"class A { void f( }").has_error


def test_arrays_are_consistent_pre_order() -> None:
    """Every node's parent precedes it, its depth is its parent's plus one, and its
    lines lie in 1..the file's lines (or it has no range)."""
    source = "package p;\nclass A {\n  int f(int a) { return a; }\n}\n"
    tree = shape_java(source.encode())
    lines = source.count("\n") + 1
    for i in range(1, len(tree)):
        parent = int(tree.parent[i])
        assert 0 <= parent < i
        assert tree.depth[i] == tree.depth[parent] + 1
        assert 1 <= tree.begin[i] <= tree.end[i] <= lines or tree.begin[i] == NO_BEGIN


def test_compilation_unit_ends_on_the_files_last_character() -> None:
    """JavaParser's CompilationUnit runs from line 1 to the line holding the file's last
    character, a final newline counting on the line it ends: "a\\n" -> 1, "a" -> 1,
    "a\\n\\n" -> 2 (the blank line), "" -> 1."""
    assert file_last_line(b"a\n") == 1
    assert file_last_line(b"a") == 1
    assert file_last_line(b"a\n\n") == 2
    assert file_last_line(b"") == 1
    tree = shape_java(b"class A {}\n\n")
    assert (int(tree.begin[0]), int(tree.end[0])) == (1, 2)
