"""Place every hunk of a patch in the code hierarchy (package → file → class → method)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import PurePosixPath
from typing import Protocol

from ..patch.model import FileDiff, Hunk, Patch
from .fragment import locate_from_diff
from .hooks.base import TreeReader
from .index import FileIndex, ParseCache
from .languages import Language, Languages, default_languages
from .location import Anchor, LocatedBy, Location, anchors, locate_in_index

__all__ = [
    "Anchor",
    "FileTexts",
    "LocatedBy",
    "LocatedHunk",
    "Location",
    "SourceFiles",
    "TreeReader",
    "anchors",
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
    out: list[LocatedHunk] = []
    for file_diff in patch.files:
        if not file_diff.hunks:
            continue
        language = languages.for_path(file_diff.path)
        if language is None:
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
        index = _source_index(file_diff, language, sources, cache) if sources else None
        for hunk in file_diff.hunks:
            if index is not None:
                loc = locate_in_index(index, hunk, "source")
                if index.parse_errors:
                    loc = _with_note(loc, f"the file has {index.parse_errors} syntax error(s)")
            else:
                loc = locate_from_diff(hunk, file_diff, language, cache)
            out.append(LocatedHunk(hunk, file_diff, loc))
    return out


def _with_note(loc: Location, note: str) -> Location:
    return replace(loc, note=f"{loc.note}; {note}" if loc.note else note)


def _fallback_package(path: str) -> str:
    return str(PurePosixPath(path).parent).removeprefix(".")


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
