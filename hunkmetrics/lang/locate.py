"""Place every hunk of a patch in the code hierarchy (package → file → class → method)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from ..patch.model import FileDiff, Hunk, Patch
from .diff_locate import added_owner, locate_from_diff, patch_package
from .directory_packages import DirectoryPackages, file_lines
from .evidence import Evidence
from .hooks.base import TreeReader
from .index import FileIndex, ParseCache, top_qualifier
from .languages import Language, Languages, default_languages
from .location import Anchor, LocatedBy, Location, anchors, locate_in_index
from .paths import parent, suffix

__all__ = [
    "Anchor",
    "FileTexts",
    "LocatedBy",
    "LocatedHunk",
    "Location",
    "SourceFiles",
    "TreeReader",
    "anchors",
    "locate_file",
    "locate_in_index",
    "locate_patch",
]


class FileTexts(Protocol):
    """Both images of one file (None where the file does not exist on that side)."""

    @property
    def pre(self) -> bytes | None: ...

    @property
    def post(self) -> bytes | None: ...


class SourceFiles(Protocol):
    """What locating reads from resolved sources (`hunkmetrics.sources.Sources` fits)."""

    @property
    def reader(self) -> TreeReader: ...

    def texts(self, file_diff: FileDiff) -> FileTexts | None: ...


@dataclass(frozen=True, slots=True)
class LocatedHunk:
    """A hunk, its file and where it sits."""

    hunk: Hunk
    file: FileDiff
    location: Location


def locate_patch(
    patch: Patch,
    sources: SourceFiles | None = None,
    cache: ParseCache | None = None,
    *,
    languages: Languages | None = None,
) -> list[LocatedHunk]:
    """Locate every hunk: from the full pre-image when `sources` are given, else from the
    diff's own lines. `languages` default to the package's own."""
    cache = cache if cache is not None else ParseCache()
    languages = languages if languages is not None else default_languages()
    packages = DirectoryPackages(languages)
    for file_diff in patch.files:
        packages.add(file_diff)
    out: list[LocatedHunk] = []
    for file_diff in patch.files:
        out.extend(locate_file(file_diff, packages, sources, cache, languages=languages))
    return out


def locate_file(
    file_diff: FileDiff,
    packages: DirectoryPackages,
    sources: SourceFiles | None = None,
    cache: ParseCache | None = None,
    *,
    languages: Languages | None = None,
) -> list[LocatedHunk]:
    """Locate the hunks of one file of a patch (`locate_patch`); `packages`: the
    packages the whole patch shows for its directories (every file added)."""
    cache = cache if cache is not None else ParseCache()
    languages = languages if languages is not None else default_languages()
    out: list[LocatedHunk] = []
    if not file_diff.hunks:
        return out
    language = languages.for_path(file_diff.path)
    if language is None:
        note = f"no grammar for {suffix(file_diff.path) or 'this file'}"
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
                evidence=_NO_GRAMMAR,
            )
            out.append(LocatedHunk(hunk, file_diff, loc))
        return out
    index = _source_index(file_diff, language, sources, cache) if sources else None
    hint = None
    if index is None:
        path = file_diff.old_path or file_diff.path
        directory = packages.seen(file_diff, language)
        hint = patch_package(file_lines(file_diff), directory, path, language)
    for hunk in file_diff.hunks:
        if index is not None:
            loc = _with_added_owner(
                locate_in_index(index, hunk, "source"), index, hunk, file_diff, language, cache
            )
            if index.parse_errors:
                loc = _with_note(loc, f"the file has {index.parse_errors} syntax error(s)")
                # Error recovery placed the scopes: class and method are its guess.
                loc = replace(loc, evidence=loc.evidence.weakened())
        else:
            loc = locate_from_diff(hunk, file_diff, language, cache, package_hint=hint)
        out.append(LocatedHunk(hunk, file_diff, loc))
    return out


# A file without a grammar: its directory is its package; class and method are unknown.
_NO_GRAMMAR = Evidence(class_name="unknown", method="unknown")


def _with_added_owner(
    loc: Location,
    index: FileIndex,
    hunk: Hunk,
    file_diff: FileDiff,
    language: Language,
    cache: ParseCache,
) -> Location:
    """`loc` outside every class and method, given the one class of the methods its hunk
    adds there (a Go receiver's type), as from the diff alone."""
    if loc.class_name is not None or loc.method is not None or not hunk.added:
        return loc
    if not language.hooks.callables_outside_types:
        return loc
    package = index.package or ""
    root = top_qualifier(language, package, index.path, from_diff=False)
    owner = added_owner(hunk, file_diff, language, package, root, cache)
    return loc if owner is None else replace(loc, class_name=owner)


def _with_note(loc: Location, note: str) -> Location:
    return replace(loc, note=f"{loc.note}; {note}" if loc.note else note)


def _fallback_package(path: str) -> str:
    return parent(path).removeprefix(".")


def _source_index(
    file_diff: FileDiff, language: Language, sources: SourceFiles, cache: ParseCache
) -> FileIndex | None:
    texts = sources.texts(file_diff)
    if texts is None:
        return None
    # A whole new file has no pre-image: it is located in its post-image.
    data = texts.pre if texts.pre is not None else texts.post
    path = file_diff.old_path if texts.pre is not None else file_diff.new_path
    if data is None or path is None:
        return None
    package = language.hooks.source_package(path, sources.reader, language.source_roots)
    reach = [(a.first, a.last) for hunk in file_diff.hunks for a in anchors(hunk)]
    return cache.index(language, path, data, package, reach)
