"""A windowed index (build_index's `windowed`, what the parse cache builds for a
patch's hunks) queries only the rows of its spans, yet answers every question about
those spans as the whole index does: the scopes around them, their names (anonymous
classes numbered over the whole file), depths, and the file's package."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_index_reach import JAVA, same_answers  # JAVA: four methods, two anonymous classes

from hunkmetrics.lang.index import FileIndex, build_index
from hunkmetrics.lang.languages import default_languages
from hunkmetrics.lang.windows import TOP_BYTES, scope_captures

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SOURCES = sorted(
    p
    for project in ("java-project", "python-project")
    for p in (FIXTURES / project).rglob("*")
    if p.suffix in (".java", ".py")
)


def _index(data: bytes, name: str, spans: list[tuple[int, int]] | None) -> FileIndex:
    language = default_languages().for_path(name)
    assert language is not None
    return build_index(data, language, name, reach=spans, windowed=spans is not None)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_same_answers_as_the_whole_index_for_random_spans(path: Path) -> None:
    """Random spans (single lines, gaps between two lines, short runs) of each fixture
    source, several at once, some far apart: the answers of the whole index."""
    data = path.read_bytes()
    whole = _index(data, path.name, None)
    rng = random.Random(path.name)
    for _ in range(30):
        spans = []
        for _ in range(rng.randint(1, 5)):
            first = rng.randint(1, whole.line_count)
            spans.append((first, first + rng.choice((0, 0, 1, 3))))
        same_answers(whole, _index(data, path.name, spans), spans)


def test_only_the_scopes_on_the_spans_rows_are_indexed() -> None:
    """Line 7 is in b() (lines 6-8) in Outer (2-15): those two scopes, nothing of a(),
    c(), d() or the anonymous classes."""
    part = _index(JAVA, "Outer.java", [(7, 7)])
    assert [s.name for s in part.scopes] == ["p.Outer", "p.Outer.b()"]
    assert part.package == "p"


def test_an_anonymous_class_is_numbered_after_those_above_its_rows() -> None:
    """Line 10 is in c()'s anonymous class, the second of Outer (a()'s, on line 4, is
    the first): it is Outer$2, with its run(), as in the whole index."""
    part = _index(JAVA, "Outer.java", [(10, 10)])
    assert [s.name for s in part.enclosing(10, 10)] == [
        "p.Outer",
        "p.Outer.c()",
        "p.Outer$2",
        "p.Outer$2.run()",
    ]
    whole = _index(JAVA, "Outer.java", None)
    same_answers(whole, part, [(10, 10)])


def test_a_package_declared_below_a_long_header_is_found() -> None:
    """A comment longer than the first two ranges the package is looked for in (the
    top TOP_BYTES, then 4 times as many after them): the declaration after it is still
    the package; a file without one has the default package (Java's: none)."""
    header = b"/*\n" + b" * licence text\n" * (TOP_BYTES // 2) + b" */\n"
    assert len(header) > 5 * TOP_BYTES
    lines = header.count(b"\n")
    data = header + JAVA
    part = _index(data, "Outer.java", [(lines + 7, lines + 7)])
    assert part.package == "p"
    assert [s.name for s in part.enclosing(lines + 7, lines + 7)] == ["p.Outer", "p.Outer.b()"]
    undeclared = header + JAVA.removeprefix(b"package p;\n")
    part = _index(undeclared, "Outer.java", [(lines + 6, lines + 6)])
    assert part.package == ""
    assert [s.name for s in part.enclosing(lines + 6, lines + 6)] == ["Outer", "Outer.b()"]


def test_the_whole_query_where_the_rows_cannot_be_trusted() -> None:
    """A tree with a syntax error, and a grammar whose decorated definitions start their
    span above their own node (Python), take the whole query."""
    languages = default_languages()
    java, python = languages["java"], languages["python"]
    broken = java.parser().parse(JAVA.replace(b"int x = 1;", b"int x = ;"))
    assert scope_captures(java, broken, [(7, 7)]) is None
    assert scope_captures(java, java.parser().parse(JAVA), [(7, 7)]) is not None
    source = b"@decorate\ndef f():\n    return 1\n"
    assert scope_captures(python, python.parser().parse(source), [(1, 1)]) is None
    # the whole query finds the decorated function around its decorator's line
    part = _index(source, "m.py", [(1, 1)])
    assert [s.name for s in part.enclosing(1, 1)] == ["m.f()"]


NESTED = b"""package q.r;

import java.util.List;

/** A class with every kind of scope: nested, local and anonymous classes, enum
 * constants with bodies, lambdas, an interface, a record. */
public class Shapes {
    interface Visitor { void visit(Object o); }

    enum Kind {
        ROUND { int sides() { return 0; } },
        SQUARE { int sides() { return 4; } };
        abstract int sides();
    }

    record Point(int x, int y) {
        Point { if (x < 0) throw new IllegalArgumentException(); }
    }

    private final Visitor printer = new Visitor() {
        public void visit(Object o) { System.out.println(o); }
    };

    Shapes(List<String> names) {
        names.forEach(n -> new Thread(new Runnable() {
            public void run() { System.out.println(n); }
        }).start());
    }

    static class Inner {
        Object make() {
            class Local {
                int value() { return new Object() { int k() { return 1; } }.k(); }
            }
            return new Local();
        }
    }

    int area(int w, int h) {
        Runnable r = () -> {
            Visitor v = new Visitor() {
                public void visit(Object o) {
                    Visitor w2 = new Visitor() { public void visit(Object p) { } };
                }
            };
        };
        return w * h;
    }
}
"""


def test_nested_and_anonymous_scopes_at_every_line() -> None:
    """Each line of a class with nested, local and anonymous classes, enum constant
    bodies and lambdas, alone and with a far line or two: the whole index's answers."""
    whole = _index(NESTED, "Shapes.java", None)
    assert whole.parse_errors == 0
    anonymous = [s.name for s in whole.scopes if s.anonymous]
    assert len(anonymous) == 7 and "q.r.Shapes$1" in anonymous
    rng = random.Random(7)
    for line in range(1, whole.line_count + 1):
        for extra in ([], [rng.randint(1, whole.line_count)], [1, whole.line_count]):
            spans = [(line, line)] + [(e, e) for e in extra]
            same_answers(whole, _index(NESTED, "Shapes.java", spans), spans)
        gap = [(line, line + 1)]
        same_answers(whole, _index(NESTED, "Shapes.java", gap), gap)
