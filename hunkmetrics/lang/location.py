"""Where a hunk sits in a file's index: its anchors, and the class and method around them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..patch.model import Hunk, LineKind
from .index import FileIndex, Scope

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
    per_anchor = [_innermost(index, a) for a in points]
    methods: list[str] = []
    for _, callable_scope in per_anchor:
        if callable_scope is not None and callable_scope.name not in methods:
            methods.append(callable_scope.name)
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


def _innermost(index: FileIndex, anchor: Anchor) -> tuple[str | None, Scope | None]:
    """The class and the callable around one anchor."""
    scopes = index.enclosing(anchor.first, anchor.last)
    type_scope = next((s for s in reversed(scopes) if s.kind == "type"), None)
    callable_scope = next((s for s in reversed(scopes) if s.kind == "callable"), None)
    if (
        callable_scope is not None
        and callable_scope.owner
        and (type_scope is None or callable_scope.depth > type_scope.depth)
    ):
        return callable_scope.owner, callable_scope
    return (type_scope.name if type_scope else None), callable_scope
