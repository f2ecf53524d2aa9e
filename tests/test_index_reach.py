"""An index built for some line spans only (build_index's `reach`, what locating a
patch's hunks asks for) answers every question about those spans as the whole index
does, and leaves out the methods it need not name."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from hunkmetrics.lang.index import FileIndex, ParseCache, Scope, build_index
from hunkmetrics.lang.languages import default_languages
from hunkmetrics.lang.sweep import deepest_containing

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SOURCES = sorted(
    p
    for project in ("java-project", "python-project")
    for p in (FIXTURES / project).rglob("*")
    if p.suffix in (".java", ".py")
)


def _index(path: Path, reach: list[tuple[int, int]] | None) -> FileIndex:
    language = default_languages().for_path(path.name)
    assert language is not None
    return build_index(path.read_bytes(), language, path.name, reach=reach)


def _deepest(index: FileIndex, kind: str, spans: list[tuple[int, int]]) -> list[Scope | None]:
    scopes = [s for s in index.scopes if s.kind == kind]
    found = deepest_containing([(s.start, s.end, s.depth) for s in scopes], spans)
    return [scopes[k] if k is not None else None for k in found]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_same_answers_for_the_spans_it_was_built_for(path: Path) -> None:
    """Random spans (single lines and gaps between two lines) of each fixture source:
    the scopes around each span, the deepest type and callable around it, and the
    package are those of the whole index."""
    whole = _index(path, None)
    rng = random.Random(path.name)
    lines = whole.line_count
    for _ in range(20):
        spans = []
        for _ in range(rng.randint(1, 4)):
            first = rng.randint(1, lines)
            spans.append((first, first + rng.choice((0, 0, 1))))
        same_answers(whole, _index(path, spans), spans)


def same_answers(whole: FileIndex, part: FileIndex, spans: list[tuple[int, int]]) -> None:
    """`part` answers for `spans` as `whole` does: package, parse errors, the scopes
    around each span and around all of them, the deepest type and callable."""
    assert part.package == whole.package and part.parse_errors == whole.parse_errors
    for first, last in spans:
        assert part.enclosing(first, last) == whole.enclosing(first, last)
    lo, hi = min(f for f, _ in spans), max(last for _, last in spans)
    assert part.enclosing(lo, hi) == whole.enclosing(lo, hi)
    for kind in ("type", "callable"):
        assert _deepest(part, kind, spans) == _deepest(whole, kind, spans)


JAVA = b"""package p;
class Outer {
    void a() {
        Runnable r = new Runnable() { public void run() {} };
    }
    void b() {
        int x = 1;
    }
    void c() {
        Runnable s = new Runnable() { public void run() {} };
    }
    void d() {
        int y = 2;
    }
}
"""


def test_methods_out_of_reach_are_left_out_and_anonymous_classes_keep_their_numbers() -> None:
    """Lines 3-5 are a() holding Outer$1 (its run() on line 4), 6-8 b(), 9-11 c()
    holding Outer$2 (run() on line 10), 12-14 d(). A span on line 7 (in b) leaves out
    d and both run() (leaves out of reach) but keeps a and c (they hold a scope); the
    span on line 10 (in c) finds Outer$2 and its run(), numbered after a's anonymous
    class as in the whole index."""
    language = default_languages().for_path("Outer.java")
    assert language is not None
    whole = build_index(JAVA, language, "Outer.java")
    part = build_index(JAVA, language, "Outer.java", reach=[(7, 7)])
    names = [s.name for s in part.scopes]
    assert names == [
        "p.Outer",
        "p.Outer.a()",
        "p.Outer$1",
        "p.Outer.b()",
        "p.Outer.c()",
        "p.Outer$2",
    ]
    assert {"p.Outer.d()", "p.Outer$1.run()", "p.Outer$2.run()"} <= {s.name for s in whole.scopes}
    in_c = build_index(JAVA, language, "Outer.java", reach=[(10, 10)])
    assert [s.name for s in in_c.enclosing(10, 10)] == [s.name for s in whole.enclosing(10, 10)]
    assert [s.name for s in in_c.enclosing(10, 10)] == [
        "p.Outer",
        "p.Outer.c()",
        "p.Outer$2",
        "p.Outer$2.run()",
    ]


def test_the_cache_keeps_whole_and_partial_indexes_apart() -> None:
    """An index for spans is not handed to whoever asks for the whole file; once the
    whole index is built, it serves every later request."""
    language = default_languages().for_path("Outer.java")
    assert language is not None
    cache = ParseCache()
    part = cache.index(language, "Outer.java", JAVA, reach=[(7, 7)])
    whole = cache.index(language, "Outer.java", JAVA)
    assert len(part.scopes) < len(whole.scopes)
    assert cache.index(language, "Outer.java", JAVA, reach=[(10, 10)]) is whole
    assert cache.parses == 1
