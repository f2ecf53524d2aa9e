"""Locating a hunk from the diff alone: its fragment's scopes around the change, the
package from its lines (or the patch's other lines), and how each level is known."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..patch.model import FileDiff, Hunk, LineKind
from .diff_evidence import diff_view, evidence_of, top_level, type_declared_inside
from .evidence import Basis, Evidence
from .fragment import Fragment, Side, build_fragment, cached_fragment, on_hunk_line
from .hooks.base import DiffPackage
from .index import FileIndex, ParseCache, build_index, top_qualifier
from .languages import Language
from .location import Location, locate_in_index


def _fragment_index(
    hunk: Hunk,
    file_diff: FileDiff,
    language: Language,
    side: Side,
    package: str,
    root: str,
    cache: ParseCache | None,
) -> tuple[FileIndex, Fragment]:
    """The index of the hunk's best wrapping: with the hooks' header unless the hunk
    shows the very declaration the header stands in for."""
    path = file_diff.path
    for use_header in (True, False):
        fragment = (
            cached_fragment(
                cache, hunk, file_diff, language, side, use_header=use_header, reopen=True
            )
            if cache is not None
            else build_fragment(hunk, file_diff, language, side, use_header=use_header, reopen=True)
        )
        index = build_index(
            fragment.text, language, path, package=package, root=root, tree=fragment.tree
        )
        if not _header_doubles_a_type(index, fragment):
            break
    return index, fragment


def locate_from_diff(
    hunk: Hunk,
    file_diff: FileDiff,
    language: Language,
    cache: ParseCache | None = None,
    *,
    package_hint: DiffPackage | None = None,
) -> Location:
    """Locate one hunk from its own lines (pre-image side, or post-image for a new file),
    saying for package, class and method whether the diff shows it (`Location.evidence`).
    A package the hunk does not show is `package_hint`, when given (`patch_package`)."""
    side: Side = "post" if file_diff.old_path is None else "pre"
    # The side's own path, as with the sources: a renamed file's pre-image is its old one.
    path = file_diff.old_path if file_diff.old_path is not None else file_diff.path
    lines = [line.text for line in hunk.lines]
    guess = language.hooks.diff_package(lines, path, language.source_roots)
    if guess.basis != "seen" and package_hint is not None:
        guess = package_hint
    package = guess.name if guess.name is not None else ""
    root = top_qualifier(language, package, path, from_diff=True)
    index, fragment = _fragment_index(hunk, file_diff, language, side, package, root, cache)
    if fragment.capped is not None:
        return Location(
            language.name,
            guess.name,
            None,
            None,
            (),
            None,
            "diff",
            note=f"not parsed: {fragment.capped}; located at file level only",
            placed=False,
            evidence=Evidence(guess.basis, "unknown", "unknown"),
        )
    view = diff_view(index, fragment, hunk, side, language)
    location = replace(locate_in_index(view.index, hunk, "diff"), package=guess.name)
    if side == "post":
        location = replace(
            location,
            class_name=None,
            method=None,
            methods=(),
            method_span=None,
            note="new file: located in its post-image",
            evidence=Evidence(guess.basis, "seen", "seen"),
        )
        return _with_added_owner(location, hunk, file_diff, language, package, root, cache)
    location = replace(location, method_span=None)
    method_scope = (
        view.scope_named("callable", location.method, view.first, view.last)
        if location.method
        else None
    )
    top = top_level(hunk, view, language)
    if top:
        location = replace(location, class_name=None, method=None, methods=())
    elif view.hidden_inside(method_scope):
        # The hunk declares the callable the change is in, but not what holds it: the
        # callable the fragment puts around the change is not the innermost one.
        location = replace(
            location,
            method=None,
            methods=(),
            placed=False,
            note="enclosing method declared in the diff, inside scopes not visible in it "
            "(no source given)",
        )
    elif location.method is None and not type_declared_inside(view):
        location = replace(
            location,
            placed=False,
            note="enclosing method not visible in the diff (no source given)",
        )
    location = replace(location, evidence=evidence_of(location, view, guess.basis, top, language))
    hidden = view.levels_hidden(method_scope) if method_scope and location.method else 0
    if hidden:
        # The innermost callable is seen, not everything its name should be qualified by.
        levels = "level" if hidden == 1 else "levels"
        location = replace(
            location, note=f"partial qualification: {hidden} enclosing {levels} not in the diff"
        )
    return _with_added_owner(location, hunk, file_diff, language, package, root, cache)


def patch_package(
    file_lines: Sequence[str], directory: DiffPackage, path: str, language: Language
) -> DiffPackage | None:
    """The package of a file whose hunk does not show it, from the patch's other lines:
    its other hunks' (`file_lines`: seen there), else the one seen in its directory's
    files (`directory`: a package usually is a directory's, so inferred); or None."""
    same_file = language.hooks.diff_package(file_lines, path, language.source_roots)
    if same_file.basis == "seen":
        return same_file
    return DiffPackage(directory.name, "inferred") if directory.basis == "seen" else None


def _header_doubles_a_type(index: FileIndex, fragment: Fragment) -> bool:
    """True when a type opened by the wrapper holds, on the hunk's own lines, a type of
    the same name: the hunk shows the declaration the header stood in for (a Java class
    named after its file), which would otherwise be read as `Foo.Foo`."""
    wrappers = {
        s.name
        for s in index.scopes
        if s.kind == "type" and s.depth == 1 and not on_hunk_line(s.start, fragment)
    }
    return any(
        s.kind == "type"
        and on_hunk_line(s.start, fragment)
        and s.name.rpartition(".")[0] in wrappers
        and s.name.rpartition(".")[2] == s.name.rpartition(".")[0].rpartition(".")[2]
        for s in index.scopes
    )


def added_owner(
    hunk: Hunk,
    file_diff: FileDiff,
    language: Language,
    package: str,
    root: str,
    cache: ParseCache | None = None,
) -> str | None:
    """The class shared by every callable the hunk's added lines declare outside their
    class's body (a Go method's receiver type, a C++ `Foo::bar`), or None."""
    added = {ln.new_lineno for ln in hunk.lines if ln.kind is LineKind.ADDED and ln.new_lineno}
    if not added:
        return None
    index, fragment = _fragment_index(hunk, file_diff, language, "post", package, root, cache)
    view = diff_view(index, fragment, hunk, "post", language)
    owners: set[str | None] = set()
    for scope in view.index.scopes:
        if scope.kind != "callable" or scope.start not in added:
            continue
        lexical = any(
            t.kind == "type" and t.name == scope.owner and t.start <= scope.start <= t.end
            for t in view.index.scopes
        )
        owners.add(None if lexical else scope.owner)
    return next(iter(owners)) if len(owners) == 1 else None


def _with_added_owner(
    location: Location,
    hunk: Hunk,
    file_diff: FileDiff,
    language: Language,
    package: str,
    root: str,
    cache: ParseCache | None,
) -> Location:
    """`location`, whose change lies outside every class and method, given the class of
    the methods it adds there (their declarations show it: seen, unless a namespace
    opened above the hunk may qualify it)."""
    if location.class_name is not None or location.method is not None:
        return location
    if not language.hooks.callables_outside_types:
        return location
    owner = added_owner(hunk, file_diff, language, package, root, cache)
    if owner is None:
        return location
    basis: Basis = "inferred" if language.namespaces else "seen"
    return replace(
        location, class_name=owner, evidence=replace(location.evidence, class_name=basis)
    )
