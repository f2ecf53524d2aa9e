"""The birch tree without building all of it: the diameter from a walk that builds no
node (`parsed_diameter`) and the tree built only near the hunks (`reshape(near=...)`).

Both must give exactly what the whole JavaParser-shaped tree gives. The diameters below
are worked out by hand (the same files as test_javaparser_shape, whose outlines show the
trees); every other check compares with the whole tree, node for node.
"""

from __future__ import annotations

import tree_sitter as ts
import tree_sitter_java
from hypothesis import given, settings
from hypothesis import strategies as st

from hunkmetrics.lang.javaparser_diameter import birch_tree, diameter, parsed_diameter
from hunkmetrics.lang.javaparser_shape import ShapedTree, file_last_line, reshape
from hunkmetrics.metrics.ast_path import anchor, distance

PARSER = ts.Parser(ts.Language(tree_sitter_java.language()))


def walked(source: str) -> int:
    return parsed_diameter(PARSER.parse(source.encode()))


def whole(source: str) -> ShapedTree:
    return reshape(PARSER.parse(source.encode()).root_node, file_last_line(source.encode()))


def test_hand_worked_diameters() -> None:
    """The files of test_javaparser_shape with the diameters worked out there: the call's
    argument up to the root and down to the package name (9); two annotation/declarator
    leaves through a FieldDeclaration (4); two initializers' call names through the
    class (5 + 5 = 10)."""
    assert walked("package p;\nclass A {\n  void f() {\n    g(x);\n  }\n}\n") == 9
    assert walked("class A {\n  @Deprecated public static final int X = 1;\n}\n") == 4
    assert walked("class A {\n  static { f(); }\n  { g(); }\n}\n") == 10


def test_a_lone_node_is_read_as_one_and_an_empty_class_as_two() -> None:
    """An empty file is a CompilationUnit alone: 0 edges, read as 1 as the study did.
    `class A {}`: CU -> class -> SimpleName: 2 edges."""
    assert walked("") == 1
    assert walked("class A {}") == 2


def concatenation(terms: int) -> str:
    return 'class A { String s = "a"' + ' + "a"' * (terms - 1) + "; }"


def test_a_long_concatenation_by_hand_and_past_the_recursion_limit() -> None:
    """`String s = "a" + "a" + ...` of n terms: a left-deep chain of n - 1 BinaryExpr
    under CU(0) -> class(1) -> FieldDeclaration(2) -> VariableDeclarator(3), so the
    innermost literal sits at depth 3 + (n - 1) + 1 = n + 3; the longest path runs from
    it to the root, or through the class to its SimpleName (n + 3 - 1 + 1): n + 3 edges.
    With 3,000 terms the walk is deeper than Python's stack allows and the diameter is
    measured on the built tree instead: the same n + 3."""
    assert walked(concatenation(2)) == 5
    assert walked(concatenation(40)) == 43
    assert walked(concatenation(3000)) == 3003
    assert diameter(whole(concatenation(3000))) == 3003


# Every rule of the reshaping (javaparser_shape), each in a file of its own.
RULE_FILES = [
    "package a.b.c;\nimport java.util.*;\nimport static x.Y.z;\nclass A {}",
    "class A { int a, b[] = {1}, c = f(g(h(1))); final int[][] d; }",
    "class A { void f() { int x = 1, y[] = new int[3][]; var v = x; } }",
    "class A { void f() { for (int i = 0, j = 0; i < n; i++, j++) ; for (;;) ; } }",
    "class A { void f() { for (final String s : list) { g(s); } for (int k : ks) ; } }",
    "class A { void f() { while (x) ; do ; while (y); if (a) ; else ; ; ; } }",
    "class A { void f() { l: for (;;) { break l; } m: ; continue; } }",
    "class A { static { f(); } { g(); } static int x; }",
    "class A { void f() { class L { int y; } record R(int a) {} } }",
    "class A { void f() { Runnable r = () -> g(); F h = (a, b) -> a + b; G i = x -> { }; } }",
    "class A { void f() { F g = (int a, String... b) -> a; } }",
    "class A { void f() { x(String::valueOf, a.b.c::d, int[]::new, super::g, this::h); } }",
    "class A { void f() { x(List<String>::size, Map.Entry::getKey, a()::b); } }",
    "class A extends B { A() { this(1); } A(int x) { super(x); } A(Outer o) { o.super(); } }",
    "class A { void f() { Outer.this.x = Outer.super.y(); a.b.c.d = e.f; } }",
    "class A { Map<String, List<? extends Number>> m; List<? super T> n; Map.Entry<K, V> e; }",
    "class A { java.util.List<int[]> a; int @X [] b; String[][] c; a.B.C<D>.E<F> g; }",
    "class A { void f() { int[] a = new int[]{1, 2}; int[][] b = new int[n][m]; } }",
    "class A { <T extends Comparable<T> & Serializable> void f(T... t) throws E, F {} }",
    "class A { void f() { try { g(); } catch (IOException | RuntimeException e) { } "
    "catch (Exception e) { } finally { h(); } } }",
    "class A { void f() throws Exception { try (var r = open(); InputStream s = x) {} "
    "try (r) {} } }",
    "class A { int f(int x) { switch (x) { case 1: case 2: return 1; default: ; } "
    "return switch (x) { case 1 -> 2; default -> { yield 3; } }; } }",
    "class A { void f() { synchronized (this) { assert x : y; throw new E(); } } }",
    "class A { void f() { Object o = new Object() { int g() { return 1; } }; } }",
    "enum E { X(1) { void g() {} }, Y; E(int a) {} void g() {} }",
    "@interface N { int value() default 1; String[] names() default {}; }",
    "interface I { void f(); default int g() { return (int) (x ? 1 : 2); } }",
    "record R(int a, String b) { R { if (a < 0) throw new E(); } static R of() { return null; } }",
    'class A { String s = "a\\n" + \'c\' + """\n  text\n  """ + 0x1F + 1.5e3 + true + null; }',
    'class A { @SuppressWarnings({"a", "b"}) @Target(value = X.Y) @M void f() {} }',
    "class A { boolean f() { return a instanceof B b && !c || d++ > --e; } }",
    "class A { void f( }",  # a parse error: ERROR nodes kept one to one
    "class A { void f() { int x = ; g(; } int",  # more of them
    "class A {\n  // a comment\n  /** doc */\n  void f() { /* inner */ g(); // end\n  }\n}\n",
]


def test_every_rule_gives_the_built_trees_diameter() -> None:
    for source in RULE_FILES:
        assert walked(source) == diameter(whole(source)), source


PROGRAM = """package p.q;

import java.util.List;

/** A class. */
public class A<T> extends B implements C {
    private final int x = 1, y[];

    A(int x) {
        super(x);
    }

    int f(List<T> xs) {
        int total = 0;
        for (T t : xs) {
            if (t != null) {
                total += g(t, () -> h(t));
            }
        }
        return total; // the sum
    }

    static class Inner {
        void k() {
            new Runnable() {
                public void run() { m(); }
            };
        }
    }
}
"""
LINES = file_last_line(PROGRAM.encode())


def same_anchor(full: ShapedTree, near: ShapedTree, start: int, end: int) -> bool:
    a, b = anchor(full, start, end), anchor(near, start, end)
    return (
        full.depth[a] == near.depth[b]
        and full.begin[a] == near.begin[b]
        and full.end[a] == near.end[b]
        and full.kind_name(a) == near.kind_name(b)
    )


def test_the_near_tree_anchors_every_span_as_the_whole_tree_does() -> None:
    """Every span of the file (start <= end, and the "between two lines" span
    end + 1..end of a hunk without added lines), each alone: the same anchor (depth,
    lines, kind) in the tree built near it as in the whole tree; and it is smaller."""
    tree = PARSER.parse(PROGRAM.encode())
    full = reshape(tree.root_node, LINES)
    for start in range(1, LINES + 1):
        for end in [*range(start, LINES + 1), start - 1]:
            near = reshape(tree.root_node, LINES, near=[(start, end)])
            assert same_anchor(full, near, start, end), (start, end)
    assert len(reshape(tree.root_node, LINES, near=[(18, 18)])) < len(full) / 2


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, LINES + 2), st.integers(0, LINES + 2)),
        min_size=1,
        max_size=5,
    )
)
def test_the_near_tree_keeps_every_distance(spans: list[tuple[int, int]]) -> None:
    """Any spans (beyond the file too): anchors and every pairwise distance between
    them are the whole tree's, and birch_tree's diameter is the whole tree's."""
    tree = PARSER.parse(PROGRAM.encode())
    full = reshape(tree.root_node, LINES)
    near = reshape(tree.root_node, LINES, near=spans)
    full_anchors = [anchor(full, s, e) for s, e in spans]
    near_anchors = [anchor(near, s, e) for s, e in spans]
    for s, e in spans:
        assert same_anchor(full, near, s, e)
    for i in range(len(spans)):
        for j in range(len(spans)):
            assert distance(full, full_anchors[i], full_anchors[j]) == distance(
                near, near_anchors[i], near_anchors[j]
            )
    assert birch_tree(PROGRAM.encode(), PARSER.parse, spans).diameter == diameter(full)


def test_birch_tree_without_near_is_the_whole_tree() -> None:
    """Built without `near`: every node, and its own diameter; CRLF read as JavaParser
    reads it (line ends), so the lines are those of the LF file."""
    built = birch_tree(PROGRAM.replace("\n", "\r\n").encode(), PARSER.parse)
    full = whole(PROGRAM)
    assert len(built.nodes) == len(full)
    assert (built.nodes.begin == full.begin).all() and (built.nodes.end == full.end).all()
    assert built.diameter == diameter(full) == parsed_diameter(PARSER.parse(PROGRAM.encode()))
