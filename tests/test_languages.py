"""The locator beyond Java and Python: each language's types, callables and names on small
hand-written sources, expectations from docs/hierarchy.md worked out by hand."""

from __future__ import annotations

import pytest

from hunkmetrics import LineKind, parse_patch
from hunkmetrics.lang import all_rules, build_index, locate_patch, rules_for_path
from hunkmetrics.sources.resolve import FileTexts, Sources


def scopes(source: str, language: str, path: str) -> list[tuple[str, str, int, int]]:
    index = build_index(source.encode(), all_rules()[language], path)
    return [(s.kind, s.name, s.start, s.end) for s in index.scopes]


def test_language_by_extension() -> None:
    expected = {
        "a/B.java": "java",
        "m.py": "python",
        "x.mjs": "javascript",
        "y.ts": "typescript",
        "z.tsx": "tsx",
        "g.go": "go",
        "c.c": "c",
        "c.h": "c",
        "d.cpp": "cpp",
        "e.hpp": "cpp",
        "README.md": None,
        "Makefile": None,
    }
    for path, language in expected.items():
        rules = rules_for_path(path)
        assert (rules.name if rules else None) == language, path


def test_javascript() -> None:
    source = (
        "class Cart {\n"  # 1
        "  add(item, qty = 1) {\n"  # 2
        "    return qty;\n"  # 3
        "  }\n"  # 4
        "}\n"  # 5
        "const total = (items) => {\n"  # 6
        "  return items.length;\n"  # 7
        "};\n"  # 8
        "function helper(a, ...rest) {}\n"  # 9
        "[1].map(x => x);\n"  # 10: anonymous arrow, not a named callable
    )
    # Top-level names are qualified by the module: the path without its extension.
    assert scopes(source, "javascript", "web/cart.js") == [
        ("type", "web/cart.Cart", 1, 5),
        ("callable", "web/cart.Cart.add(item,qty)", 2, 4),
        ("callable", "web/cart.total(items)", 6, 8),
        ("callable", "web/cart.helper(a,...rest)", 9, 9),
    ]


def test_typescript_uses_annotated_types() -> None:
    source = (
        "export class Repo<T> {\n"  # 1
        "  find(id: number, opts?: Map<string, T>): T | null {\n"  # 2
        "    return null;\n"  # 3
        "  }\n"  # 4
        "}\n"  # 5
        "interface Shape { area(): number; }\n"  # 6
    )
    assert scopes(source, "typescript", "src/repo.ts") == [
        ("type", "src/repo.Repo", 1, 5),
        ("callable", "src/repo.Repo.find(number,Map)", 2, 4),
        ("type", "src/repo.Shape", 6, 6),
    ]


def test_go_methods_belong_to_their_receiver() -> None:
    source = (
        "package store\n"  # 1
        "\n"  # 2
        "type Cache struct {\n"  # 3
        "\tsize int\n"  # 4
        "}\n"  # 5
        "\n"  # 6
        "func (c *Cache) Put(key string, vals ...int) error {\n"  # 7
        "\treturn nil\n"  # 8
        "}\n"  # 9
        "\n"  # 10
        "func New(a, b int) *Cache { return nil }\n"  # 11
    )
    index = build_index(source.encode(), all_rules()["go"], "pkg/store/cache.go")
    assert index.package == "store"
    assert [(s.kind, s.name, s.start, s.end, s.owner) for s in index.scopes] == [
        ("type", "store.Cache", 3, 5, None),
        ("callable", "store.Cache.Put(string,...int)", 7, 9, "store.Cache"),
        ("callable", "store.New(int,int)", 11, 11, None),
    ]


def test_go_parameter_types_keep_their_spaces() -> None:
    source = (
        "package cmd\n"  # 1
        "\n"  # 2
        "func (c *Command) On(name string, f func(cmd *Command, toComplete string) "
        "([]string, error)) error {\n"  # 3
        "\treturn nil\n"  # 4
        "}\n"  # 5
        "\n"  # 6
        "func Pipe(in <-chan  int, out chan<- int, m map[string]int, xs ...func(a int)) {}\n"  # 7
    )
    index = build_index(source.encode(), all_rules()["go"], "cmd/command.go")
    # By type as written; a run of whitespace (two spaces in `<-chan  int`) is one space.
    assert [(s.name, s.start, s.end) for s in index.scopes] == [
        (
            "cmd.Command.On(string,func(cmd *Command, toComplete string) ([]string, error))",
            3,
            5,
        ),
        ("cmd.Pipe(<-chan int,chan<- int,map[string]int,...func(a int))", 7, 7),
    ]


def test_c_functions_with_pointer_and_array_parameters() -> None:
    source = (
        "#include <stdio.h>\n"  # 1
        "static int count(const char *s, int n[]) {\n"  # 2
        "  return 0;\n"  # 3
        "}\n"  # 4
        "int main(void) {\n"  # 5
        '  return count("", 0);\n'  # 6
        "}\n"  # 7
        "struct point { int x; };\n"  # 8: C has no classes here
    )
    index = build_index(source.encode(), all_rules()["c"], "src/util/count.c")
    assert index.package == "src/util"
    assert [(s.kind, s.name, s.start, s.end) for s in index.scopes] == [
        ("callable", "count(const char*,int[])", 2, 4),
        ("callable", "main()", 5, 7),
    ]


def test_cpp_namespaces_classes_and_out_of_class_definitions() -> None:
    source = (
        "namespace geo {\n"  # 1
        "class Shape {\n"  # 2
        " public:\n"  # 3
        "  double area(int scale) const { return 0; }\n"  # 4
        "};\n"  # 5
        "struct Fwd;\n"  # 6: declaration only
        "}\n"  # 7
        "double geo::Shape::perimeter(const Shape& other, int n) {\n"  # 8
        "  return 1;\n"  # 9
        "}\n"  # 10
    )
    index = build_index(source.encode(), all_rules()["cpp"], "lib/geo/shape.cpp")
    assert [(s.kind, s.name, s.start, s.end, s.owner) for s in index.scopes] == [
        ("namespace", "geo", 1, 7, None),
        ("type", "geo.Shape", 2, 5, None),
        ("callable", "geo.Shape.area(int)", 4, 4, "geo.Shape"),
        ("callable", "geo.Shape.perimeter(const Shape&,int)", 8, 10, "geo.Shape"),
    ]


CPP_PRE = (
    "namespace geo {\n"
    "class Shape {\n"
    "  int a() { return 1; }\n"
    "};\n"
    "}\n"
    "int geo::Shape::b() {\n"
    "  return 2;\n"
    "}\n"
)
CPP_DIFF = b"""--- a/lib/shape.cpp
+++ b/lib/shape.cpp
@@ -2,3 +2,3 @@ namespace geo {
 class Shape {
-  int a() { return 1; }
+  int a() { return 10; }
 };
@@ -6,3 +6,3 @@ namespace geo {
 int geo::Shape::b() {
-  return 2;
+  return 20;
 }
"""


def test_cpp_hunks_located_from_source() -> None:
    patch = parse_patch(CPP_DIFF)
    file_diff = patch.files[0]
    sources = Sources(
        "pre", "memory", {file_diff.path: FileTexts(CPP_PRE.encode(), None)}, reader=None
    )  # type: ignore[arg-type]
    located = locate_patch(patch, sources)
    # Line 3 lies in a() inside class geo.Shape; line 7 in the out-of-class b(), whose
    # class comes from its qualified name.
    assert [(i.location.class_name, i.location.method) for i in located] == [
        ("geo.Shape", "geo.Shape.a()"),
        ("geo.Shape", "geo.Shape.b()"),
    ]
    assert all(i.location.located_by == "source" for i in located)


@pytest.mark.parametrize(
    ("path", "diff_body", "method"),
    [
        # The function header is in the hunk's context: found from the diff alone.
        (
            "pkg/a.go",
            " func Sum(xs []int) int {\n-\treturn 0\n+\treturn len(xs)\n }\n",
            "a.Sum([]int)",
        ),
        ("web/a.js", " function go(x) {\n-  return 1;\n+  return 2;\n }\n", "web/a.go(x)"),
        ("src/a.c", " int twice(int v) {\n-  return v;\n+  return 2 * v;\n }\n", "twice(int)"),
    ],
)
def test_diff_only_other_languages(path: str, diff_body: str, method: str) -> None:
    package_line = " package a\n" if path.endswith(".go") else ""
    lines = (package_line + diff_body).splitlines()
    old = sum(1 for ln in lines if ln[0] in " -")
    new = sum(1 for ln in lines if ln[0] in " +")
    diff = f"--- a/{path}\n+++ b/{path}\n@@ -1,{old} +1,{new} @@\n" + "\n".join(lines) + "\n"
    located = locate_patch(parse_patch(diff.encode()))
    assert located[0].location.located_by == "diff"
    assert located[0].location.method == method


# Issue 15: diff-only Java classes were doubled, change-less hunks crashed, and deep
# nesting or huge hunks took quadratic time.

_FOO = "src/main/java/org/ex/Foo.java"


def _diff_only(diff: str) -> list[tuple[str | None, str | None, bool]]:
    located = locate_patch(parse_patch(diff.encode()))
    return [(h.location.class_name, h.location.method, h.location.placed) for h in located]


def test_java_class_shown_by_the_hunk_is_not_doubled() -> None:
    # The hunk shows `public class Foo {` itself; the class the locator wraps a
    # fragment in is also named after the file. One class, org.ex.Foo.
    top = (
        f"--- a/{_FOO}\n+++ b/{_FOO}\n@@ -1,5 +1,5 @@\n package org.ex;\n \n"
        "+import java.util.List;\n public class Foo {\n     int x;\n-    int y;\n"
    )
    assert _diff_only(top) == [("org.ex.Foo", None, True)]
    inside = (
        f"--- a/{_FOO}\n+++ b/{_FOO}\n@@ -3,4 +3,4 @@ import java.util.List;\n \n"
        " public class Foo {\n-    int x;\n+    long x;\n     void m() {\n"
    )
    assert _diff_only(inside) == [("org.ex.Foo", None, True)]


def test_java_class_named_by_the_section_heading_is_kept() -> None:
    diff = (
        f"--- a/{_FOO}\n+++ b/{_FOO}\n@@ -10,4 +10,4 @@ public class Foo {{\n"
        "     void m() {\n-        a();\n+        b();\n     }\n }\n"
    )
    assert _diff_only(diff) == [("org.ex.Foo", "org.ex.Foo.m()", True)]


def test_a_hunk_that_changes_nothing_is_not_placed() -> None:
    # The parser refuses such hunks (git calls them corrupt); a Patch built by hand
    # can still hold one, and locating it must not fail.
    from dataclasses import replace

    from hunkmetrics.lang.location import locate_in_index

    source = "class A {\n  void m() {\n    x();\n  }\n}\n"
    index = build_index(source.encode(), all_rules()["java"], "A.java")
    hunk = parse_patch(b"--- a/A.java\n+++ b/A.java\n@@ -3 +3 @@\n-    x();\n+    y();\n").hunks[0]
    context_only = replace(
        hunk, lines=(replace(hunk.lines[0], kind=LineKind.CONTEXT, new_lineno=3),)
    )
    location = locate_in_index(index, context_only, "source")
    assert (location.class_name, location.method, location.placed) == (None, None, False)
    assert location.note == "the hunk changes no line"


def test_nested_generics_are_dropped_in_one_pass() -> None:
    from hunkmetrics.lang.names import clean_type

    assert clean_type("Map<String, List<Map<K, V>>>") == "Map"
    assert clean_type("a<b") == "a<b" and clean_type("a>b<c>") == "a>b"
    deep = "List" + "<List" * 20_000 + ">" * 20_000
    assert clean_type(deep) == "List"


def test_sweeps_agree_with_a_scan_per_question() -> None:
    import random

    from hunkmetrics.lang.sweep import covering_below, deepest_containing

    rng = random.Random(15)
    for _ in range(300):
        spans = []
        for _ in range(rng.randint(0, 12)):
            start = rng.randint(1, 20)
            spans.append((start, start + rng.randint(0, 8), rng.randint(1, 5)))
        queries = [(a, a + rng.randint(0, 1)) for a in (rng.randint(0, 25) for _ in range(8))]
        expected = []
        for first, last in queries:
            inside = [i for i, (s, e, _) in enumerate(spans) if s <= first and last <= e]
            expected.append(max(inside, key=lambda i: (spans[i][2], i)) if inside else None)
        assert deepest_containing(spans, queries) == expected
        lines = [(line, rng.randint(1, 6)) for line in (rng.randint(0, 25) for _ in range(8))]
        assert covering_below(spans, lines) == [
            sum(1 for s, e, d in spans if s <= line <= e and d < depth) for line, depth in lines
        ]
