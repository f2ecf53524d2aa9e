"""Which files of a patch count: one rule for every command and library call.

By default a file counts when a known language (lang/rules/*.toml) covers it and it is
not a test file of that language: docs, changelogs, build files, data and tests are left
out, each with its reason (the documents' `excluded_files` / `files[].excluded`).
`all_files` drops the language rule; `include` keeps only the files matching one of its
globs; `exclude` leaves out those matching one; `exclude_tests=False` counts tests.

Globs are fnmatch patterns over the repository path (`*` also matches `/`); a pattern
without `/` also matches the file's base name (`CHANGES.md`, `*.xml`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase
from pathlib import PurePosixPath
from typing import Any

from ..errors import HunkmetricsError
from ..patch.model import FileDiff, Patch
from .languages import Languages, default_languages
from .paths import suffix

# Test directories of a file no language covers (counted with all_files).
GENERIC_TEST_PATTERNS = ("*/test/*", "*/tests/*", "test/*", "tests/*")
EXCLUDE_TESTS_DEFAULT = True


#: The warning when the path selection leaves out every file of a patch.
NOTHING_SELECTED = (
    "no file of the patch is counted: every file was left out by the path selection "
    "(see the excluded files; all_files / --all-files counts them)"
)


def is_test_file(path: str, languages: Languages | None = None) -> bool:
    """A test file by its language's patterns (lang/rules/*.toml, key `tests`), or by
    the generic test directories when no language covers it."""
    rules = (languages or default_languages()).for_path(path)
    patterns = rules.tests if rules is not None else GENERIC_TEST_PATTERNS
    return any(fnmatchcase(path, pattern) for pattern in patterns)


def _matches(path: str, pattern: str) -> bool:
    if fnmatchcase(path, pattern):
        return True
    return "/" not in pattern and fnmatchcase(PurePosixPath(path).name, pattern)


@dataclass(frozen=True, slots=True)
class PathSelection:
    """Which files count (module docstring). `languages`: the language names that
    count (None: every known language)."""

    all_files: bool = False
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    exclude_tests: bool = EXCLUDE_TESTS_DEFAULT
    languages: frozenset[str] | None = None
    # Leave comment-only and whitespace-only hunks out too (lang/hunk_kind.py); done by
    # the workspace, which can parse the files.
    ignore_comment_only: bool = False

    def reason(self, path: str, old_path: str | None = None) -> str | None:
        """Why the file `path` (`old_path` before a rename) does not count, or None.
        Its language is read from `path`; tests are matched on the pre-image path, as
        localization compares files."""
        names = [path] if old_path in (None, path) else [path, old_path]
        registry = default_languages()
        language = registry.for_path(path)
        if not self.all_files:
            if language is None:
                extension = suffix(path)
                kind = f"'{extension}'" if extension else "no extension"
                return f"not source code ({kind}: no known language)"
            if self.languages is not None and language.name not in self.languages:
                return f"language {language.name} not selected"
        if self.include and not any(_matches(n, p) for n in names for p in self.include):
            return "not matched by an include pattern"
        for pattern in self.exclude:
            if any(_matches(n, pattern) for n in names):
                return f"matched exclude pattern '{pattern}'"
        if self.exclude_tests and is_test_file(old_path or path, registry):
            return "test file"
        return None

    def file_reason(self, file_diff: FileDiff) -> str | None:
        """`reason` for one file of a patch."""
        return self.reason(file_diff.path, file_diff.old_path)

    def apply(self, patch: Patch) -> Patch:
        """`patch` with the files that do not count emptied of hunks and marked excluded
        (`FileDiff.excluded_reason`), the hunks left renumbered from 0. Applying it
        twice changes nothing; files left out cannot come back."""
        reasons = {
            f.path: reason
            for f in patch.files
            if f.excluded_reason is None and (reason := self.file_reason(f)) is not None
        }
        if not reasons:
            return patch
        dropped = {h.index for f in patch.files if f.path in reasons for h in f.hunks}
        chosen = without_hunks(patch, dropped, reasons)
        if not chosen.hunks:
            chosen = replace(
                chosen,
                warnings=chosen.warnings + (NOTHING_SELECTED,),
            )
        return chosen

    def config(self) -> dict[str, Any]:
        """The selection as recorded in a document's config."""
        return {
            "all_files": self.all_files,
            "include": list(self.include),
            "exclude": list(self.exclude),
            "exclude_tests": self.exclude_tests,
            "languages": sorted(self.languages) if self.languages is not None else None,
            "ignore_comment_only": self.ignore_comment_only,
        }


def without_hunks(patch: Patch, dropped: set[int], reasons: dict[str, str]) -> Patch:
    """`patch` without the hunks `dropped` (by index), the rest renumbered from 0; a file
    left with no hunk is marked excluded with `reasons[path]`."""
    files: list[FileDiff] = []
    index = 0
    for f in patch.files:
        kept = [h for h in f.hunks if h.index not in dropped]
        if f.hunks and not kept:
            files.append(replace(f, hunks=(), selection_reason=reasons[f.path]))
            continue
        hunks = tuple(replace(h, index=index + i) for i, h in enumerate(kept))
        index += len(hunks)
        files.append(replace(f, hunks=hunks) if hunks != f.hunks else f)
    return replace(patch, files=tuple(files))


DEFAULT_SELECTION = PathSelection()
ALL_FILES = PathSelection(all_files=True, exclude_tests=False)
"""Every file counts (docs and tests included): the behaviour before 0.2."""


def path_selection(
    *,
    all_files: bool = False,
    include: Iterable[str] | None = None,
    exclude: Iterable[str] | None = None,
    exclude_tests: bool = EXCLUDE_TESTS_DEFAULT,
    languages: Iterable[str] | None = None,
    ignore_comment_only: bool = False,
) -> PathSelection:
    """A validated PathSelection: unknown languages and empty globs are a
    HunkmetricsError."""
    inc = tuple(include or ())
    exc = tuple(exclude or ())
    for pattern in (*inc, *exc):
        if not isinstance(pattern, str) or not pattern.strip():
            raise HunkmetricsError(f"path selection: empty or invalid glob {pattern!r}")
    chosen = None
    if languages is not None:
        chosen = frozenset(name.strip().lower() for name in languages if name.strip())
        known = default_languages()
        unknown = sorted(chosen - set(known))
        if unknown or not chosen:
            raise HunkmetricsError(
                f"unknown language {', '.join(unknown) or '(none)'}"
                f" (use a comma-separated list of {', '.join(sorted(known))})"
            )
    return PathSelection(all_files, inc, exc, exclude_tests, chosen, ignore_comment_only)
