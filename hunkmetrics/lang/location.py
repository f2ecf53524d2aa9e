"""Where a hunk sits in a file's index: its anchors, and the class and method around them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..patch.model import Hunk, LineKind
from .evidence import SEEN, Evidence
from .index import FileIndex, Scope
from .sweep import deepest_containing

LocatedBy = Literal["source", "diff"]


@dataclass(frozen=True, slots=True)
class Location:
    """Where one hunk sits. `note` says why a field is unknown, when it is."""

    language: str | None
    package: str | None
    class_name: str | None
    method: str | None
    methods: tuple[str, ...]
    method_span: tuple[int, int] | None
    located_by: LocatedBy
    note: str | None = None
    placed: bool = True  # False: the method could not be determined (see note)
    evidence: Evidence = SEEN  # how package, class and method are known


@dataclass(frozen=True, slots=True)
class Anchor:
    """A changed line (first == last) or an insertion gap between lines first and last."""

    first: int
    last: int


def anchors(hunk: Hunk) -> list[Anchor]:
    """The spec's changed lines; blank removed lines only when nothing else was removed."""
    removed = [ln for ln in hunk.lines if ln.kind is LineKind.REMOVED and ln.old_lineno]
    solid = [ln for ln in removed if ln.text.strip()]
    if removed:
        return [Anchor(ln.old_lineno, ln.old_lineno) for ln in (solid or removed) if ln.old_lineno]
    return [Anchor(k, k + 1) for k in hunk.insertion_points]


def locate_in_index(index: FileIndex, hunk: Hunk, located_by: LocatedBy) -> Location:
    """The class and method around the hunk's anchors in this index."""
    points = anchors(hunk)
    if not points:  # a hunk that changes no line: nothing to place
        return Location(
            index.language,
            index.package,
            None,
            None,
            (),
            None,
            located_by,
            note="the hunk changes no line",
            placed=False,
            evidence=Evidence(class_name="unknown", method="unknown"),
        )
    per_anchor = _innermost_all(index, points)
    methods = list(dict.fromkeys(c.name for _, c in per_anchor if c is not None))
    callables = {c.name if c else None for _, c in per_anchor}
    method_scope = per_anchor[0][1] if per_anchor and len(callables) == 1 else None
    classes = {cls for cls, _ in per_anchor}
    if len(classes) == 1:
        class_name = next(iter(classes))
    else:
        first = min(a.first for a in points)
        last = max(a.last for a in points)
        types = [s for s in index.enclosing(first, last) if s.kind == "type"]
        class_name = types[-1].name if types else None
    return Location(
        language=index.language,
        package=index.package,
        class_name=class_name,
        method=method_scope.name if method_scope else None,
        methods=tuple(methods),
        method_span=(method_scope.start, method_scope.end) if method_scope else None,
        located_by=located_by,
    )


def _innermost_all(index: FileIndex, points: list[Anchor]) -> list[tuple[str | None, Scope | None]]:
    """The class and the callable around each anchor: the deepest type and callable
    whose span holds it (the later one on equal depth), found for all anchors at once."""
    queries = [(a.first, a.last) for a in points]
    deepest: dict[str, list[Scope | None]] = {}
    for kind in ("type", "callable"):
        scopes = [s for s in index.scopes if s.kind == kind]
        found = deepest_containing([(s.entered_at, s.end, s.depth) for s in scopes], queries)
        deepest[kind] = [scopes[i] if i is not None else None for i in found]
    out: list[tuple[str | None, Scope | None]] = []
    for type_scope, callable_scope in zip(deepest["type"], deepest["callable"], strict=True):
        if (
            callable_scope is not None
            and callable_scope.owner
            and (type_scope is None or callable_scope.depth > type_scope.depth)
        ):
            out.append((callable_scope.owner, callable_scope))
        else:
            out.append(((type_scope.name if type_scope else None), callable_scope))
    return out
