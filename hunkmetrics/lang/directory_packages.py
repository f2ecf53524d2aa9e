"""The package a patch shows for each directory: a hint for a file whose hunks do not.

From the diff alone, a file's package is seen only when one of its hunks shows the
declaration (`package x;`). Another file of the same directory and language may show
it: that one is the directory's, and the file's package is inferred from it. The first
such package in the patch's order counts, test files after the others (a Go external
test declares `package foo_test`).

A `diff_package` hook reads the lines in order and the first declaration it sees
decides, whatever the path: the directory's package is the first file's, in that order,
whose own lines show one. So the summary is built file by file (`add`) and keeps one
name per directory and language, never the files' lines: a patch read as a stream
gathers it in one pass before any hunk is located."""

from __future__ import annotations

from ..patch.model import FileDiff
from .hooks.base import DiffPackage
from .languages import Language, Languages
from .paths import parent
from .selection import is_test_file

_UNSEEN = DiffPackage(None, "unknown")


def file_lines(file_diff: FileDiff) -> list[str]:
    """The texts of every line of the file's hunks, in order."""
    return [line.text for hunk in file_diff.hunks for line in hunk.lines]


class DirectoryPackages:
    """The package seen in each directory's files of each language (module docstring)."""

    def __init__(self, languages: Languages) -> None:
        self.languages = languages
        # (directory, language) → the first package seen in its other files, in its
        # test files
        self._seen: dict[tuple[str, str], tuple[DiffPackage | None, DiffPackage | None]] = {}

    def add(self, file_diff: FileDiff) -> None:
        """Note the package `file_diff`'s hunks show, if its directory has none yet."""
        if not file_diff.hunks:
            return
        language = self.languages.for_path(file_diff.path)
        if language is None:
            return
        key = (parent(file_diff.path), language.name)
        plain, test = self._seen.get(key, (None, None))
        is_test = is_test_file(file_diff.path, self.languages)
        if (test if is_test else plain) is not None:
            return
        path = file_diff.old_path or file_diff.path
        found = language.hooks.diff_package(file_lines(file_diff), path, language.source_roots)
        if found.basis != "seen":
            return
        self._seen[key] = (plain, found) if is_test else (found, test)

    def seen(self, file_diff: FileDiff, language: Language) -> DiffPackage:
        """The package seen in the file's directory (basis "seen"), or one with basis
        "unknown" when none is."""
        plain, test = self._seen.get((parent(file_diff.path), language.name), (None, None))
        return plain or test or _UNSEEN
