"""Place every hunk of a patch in the code hierarchy (package → file → class → method)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import PurePosixPath
from typing import Literal

from ..patch.model import FileDiff, Hunk, LineKind, Patch
from ..sources.resolve import Sources
from .index import FileIndex, ParseCache, Scope
from .languages import LanguageRules, rules_for_path

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
        return [Anchor(ln.old_lineno, ln.old_lineno) for ln in (solid or removed)]  # type: ignore[arg-type]
    return [Anchor(k, k + 1) for k in hunk.insertion_points]


def python_package(path: str, exists=None) -> str:
    """Dotted package of a Python file: the unbroken chain of `__init__.py` directories
    above it when the tree is known (`exists`), else its directories minus a leading
    source root."""
    parents = list(PurePosixPath(path).parent.parts)
    if exists is not None and parents:
        chain: list[str] = []
        for depth in range(len(parents), 0, -1):
            if not exists("/".join(parents[:depth]) + "/__init__.py"):
                break
            chain.insert(0, parents[depth - 1])
        if chain:
            return ".".join(chain)
    if parents and parents[0] in ("src", "lib"):
        parents = parents[1:]
    return ".".join(parents)


def locate_in_index(index: FileIndex, hunk: Hunk, located_by: LocatedBy) -> Location:
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


@dataclass(frozen=True, slots=True)
class LocatedHunk:
    hunk: Hunk
    file: FileDiff
    location: Location


def locate_patch(
    patch: Patch, sources: Sources | None = None, cache: ParseCache | None = None
) -> list[LocatedHunk]:
    """Locate every hunk: from the full pre-image when `sources` are given, else from the
    diff's own lines."""
    from .fragment import locate_from_diff

    cache = cache if cache is not None else ParseCache()
    out: list[LocatedHunk] = []
    for file_diff in patch.files:
        if not file_diff.hunks:
            continue
        rules = rules_for_path(file_diff.path)
        if rules is None:
            note = f"no grammar for {PurePosixPath(file_diff.path).suffix or 'this file'}"
            for hunk in file_diff.hunks:
                loc = Location(
                    None,
                    _fallback_package(file_diff.path),
                    None,
                    None,
                    (),
                    None,
                    "source" if sources else "diff",
                    note,
                )
                out.append(LocatedHunk(hunk, file_diff, loc))
            continue
        index = _source_index(file_diff, rules, sources, cache) if sources else None
        for hunk in file_diff.hunks:
            if index is not None:
                loc = locate_in_index(index, hunk, "source")
                if index.parse_errors:
                    loc = _with_note(loc, f"the file has {index.parse_errors} syntax error(s)")
            else:
                loc = locate_from_diff(hunk, file_diff, rules, cache)
            out.append(LocatedHunk(hunk, file_diff, loc))
    return out


def _with_note(loc: Location, note: str) -> Location:
    return replace(loc, note=f"{loc.note}; {note}" if loc.note else note)


def _fallback_package(path: str) -> str:
    return str(PurePosixPath(path).parent).removeprefix(".")


def _source_index(
    file_diff: FileDiff, rules: LanguageRules, sources: Sources, cache: ParseCache
) -> FileIndex | None:
    texts = sources.texts(file_diff)
    if texts is None:
        return None
    # A whole new file has no pre-image: it is located in its post-image.
    data = texts.pre if texts.pre is not None else texts.post
    path = file_diff.old_path if texts.pre is not None else file_diff.new_path
    if data is None or path is None:
        return None
    package = python_package(path, sources.reader.exists) if rules.name == "python" else None
    return cache.index(rules, path, data, package)
