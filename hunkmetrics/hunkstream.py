"""A patch's hunks located from the diff alone, read as a stream: what the `hunks`
command writes, in memory that does not grow with the diff.

A Workspace holds the whole patch and every located hunk. Here the patch is read file
by file (`StreamedPatch`). The survey reads every file once and keeps only what the
document says before its hunks, or what locating a hunk needs from other files: each
hunk's kind (one byte a hunk), the package each directory shows (`DirectoryPackages`),
counts, and the files left out and the warnings while they are few (`Kept`: past that,
they are read again from the patch when written). Then `located` reads the files again
and locates their hunks one file at a time. Both give exactly what `Workspace` gives for
the same patch, selection and no sources.

The path selection leaves a file out when any file of its path has a reason to be, with
the last one's reason (`PathSelection.apply`). Nearly every path is one file's, decided
by its own; the survey keeps 8 bytes a file (its path's hash) to find the paths several
files share, and when there are any, reads their reasons and the patch again."""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from itertools import chain, pairwise
from typing import Generic, TypeVar

from .lang.directory_packages import DirectoryPackages
from .lang.hunk_kind import (
    COMMENT_ONLY,
    HUNK_KINDS,
    HunkKind,
    comment_only_left_out,
    hunk_kind,
    no_code_hunk,
)
from .lang.index import ParseCache, RecentDict
from .lang.languages import Languages, default_languages
from .lang.locate import LocatedHunk, locate_file
from .lang.selection import DEFAULT_SELECTION, NOTHING_SELECTED, PathSelection
from .patch.model import FileDiff, Hunk
from .patch.stream import StreamedPatch
from .patch.text import patch_error, show
from .shortlist import Few

# A hunk's fragments are reused within its own work only (its kind, then its location
# in the other pass): a few suffice, where a workspace keeps 8,192 (some 50 MB of trees).
KEPT_FRAGMENTS = 64
KEPT_ENTRIES = 10_000  # files left out, warnings: kept up to this many, else read again
_CODE = HUNK_KINDS.index("code")

T = TypeVar("T")


class Kept(Generic[T]):
    """Items gathered in a pass: all of them while they are few; past `limit` only
    counted (`whole` False), to be read again when they are needed."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = KEPT_ENTRIES if limit is None else limit
        self.items: list[T] = []
        self.count = 0

    def add(self, item: T) -> None:
        self.count += 1
        if self.count <= self.limit:
            self.items.append(item)
        elif self.items:
            self.items = []

    @property
    def whole(self) -> bool:
        return self.count <= self.limit


class LazyList(Generic[T]):
    """`count` items, made afresh by `items()` on each iteration (a document writes them
    as they come: cli/output.py)."""

    def __init__(self, count: int, items: Callable[[], Iterator[T]]) -> None:
        self.count = count
        self.items = items

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[T]:
        return self.items()


def _renumbered(file_diff: FileDiff, first: int) -> FileDiff:
    """`file_diff` with its hunks numbered from `first` (itself when they are)."""
    if all(h.index == first + i for i, h in enumerate(file_diff.hunks)):
        return file_diff
    hunks = tuple(replace(h, index=first + i) for i, h in enumerate(file_diff.hunks))
    return replace(file_diff, hunks=hunks)


@dataclass
class _Survey:
    """What one pass over the files gathers (module docstring)."""

    packages: DirectoryPackages
    excluded: Kept[tuple[str, str]] = field(default_factory=Kept)
    file_warnings: Kept[str] = field(default_factory=Kept)
    kinds: array[int] = field(default_factory=lambda: array("B"))  # by selected index
    dropped: Few = field(default_factory=Few)  # hunks ignore_comment_only leaves out
    selected: int = 0  # hunks the path selection counts
    count: int = 0  # hunks in the end
    any_reason: bool = False  # the path selection left out a file that had hunks
    paths: array[int] = field(default_factory=lambda: array("q"))  # hashes of paths


class HunkStream:
    """The hunks of `patch` under `selection`, located from the diff alone: `len` of
    them, `excluded_files`, `hunk_kinds` and `warnings` as the hunks document says them,
    and `located()` (each located hunk with its kind) as often as asked."""

    def __init__(
        self,
        patch: StreamedPatch,
        selection: PathSelection = DEFAULT_SELECTION,
        languages: Languages | None = None,
    ) -> None:
        self.patch = patch
        self.selection = selection
        self.languages = languages if languages is not None else default_languages()
        self.cache = ParseCache(fragments=RecentDict(KEPT_FRAGMENTS))
        # The reasons of paths several files share, by path; which hashes those are.
        self._shared: dict[str, str] = {}
        self._shared_hashes: frozenset[int] = frozenset()
        survey = self._survey()
        shared = _repeated(survey.paths)
        if shared:
            self._shared_hashes = shared
            self._shared = self._shared_reasons()
            survey = self._survey()
        survey.paths = array("q")
        self._result = survey

    @property
    def name(self) -> str:
        return self.patch.name

    def __len__(self) -> int:
        return self._result.count

    @property
    def excluded_files(self) -> list[tuple[str, str]] | LazyList[tuple[str, str]]:
        """(path, reason) of each file left out of the metrics, in the patch's order."""
        excluded = self._result.excluded
        if excluded.whole:
            return excluded.items
        return LazyList(excluded.count, self._excluded_again)

    @property
    def hunk_kinds(self) -> dict[str, int]:
        """How many hunks of each kind there are."""
        survey = self._result
        if self.selection.ignore_comment_only:
            return {kind: survey.count if kind == "code" else 0 for kind in HUNK_KINDS}
        return {kind: survey.kinds.count(code) for code, kind in enumerate(HUNK_KINDS)}

    @property
    def warnings(self) -> list[str] | LazyList[str]:
        """The warnings, in the order `Workspace.warnings` gives them."""
        head = list(self.patch.warnings)
        tail = self._last_warnings()
        listed = self._result.file_warnings
        if listed.whole:
            return head + listed.items + tail
        return LazyList(
            len(head) + listed.count + len(tail),
            lambda: chain(head, self._file_warnings_again(), tail),
        )

    def _last_warnings(self) -> list[str]:
        survey = self._result
        out = []
        if survey.any_reason and not survey.selected:
            out.append(NOTHING_SELECTED)
        if survey.dropped.count:
            out.append(comment_only_left_out(survey.dropped))
        if survey.count and not self.hunk_kinds["code"]:
            out.append(no_code_hunk(survey.count))
        return out

    def _reason(self, file_diff: FileDiff) -> str | None:
        """Why the path selection leaves out `file_diff`, a file with hunks: its own
        reason, or, for a path several files share, the last reason among them."""
        if hash(file_diff.path) in self._shared_hashes:
            return self._shared.get(file_diff.path)
        return self.selection.file_reason(file_diff)

    def _selected(self, file_diff: FileDiff, first: int) -> tuple[FileDiff, bool]:
        """One file as `PathSelection.apply` leaves it (emptied and marked excluded, or
        its hunks numbered on from `first`), and whether the selection left it out."""
        if not file_diff.hunks:
            return file_diff, False
        reason = self._reason(file_diff)
        if reason is None:
            return _renumbered(file_diff, first), False
        return replace(file_diff, hunks=(), selection_reason=reason), True

    def _shared_reasons(self) -> dict[str, str]:
        """The last reason of each path that several files share (a pass)."""
        reasons: dict[str, str] = {}
        for file_diff in self.patch.files():
            if file_diff.hunks and hash(file_diff.path) in self._shared_hashes:
                reason = self.selection.file_reason(file_diff)
                if reason is not None:
                    reasons[file_diff.path] = reason
        return reasons

    def _survey(self) -> _Survey:
        """One pass over the files (module docstring)."""
        survey = _Survey(DirectoryPackages(self.languages))
        for file_diff in self.patch.files(warn=survey.file_warnings.add):
            if file_diff.hunks:
                survey.paths.append(hash(file_diff.path))
            file_diff, left_out = self._selected(file_diff, survey.selected)
            survey.any_reason = survey.any_reason or left_out
            survey.selected += len(file_diff.hunks)
            codes = [self._kind_code(hunk, file_diff) for hunk in file_diff.hunks]
            survey.kinds.extend(codes)
            if self.selection.ignore_comment_only:
                for hunk, code in zip(file_diff.hunks, codes, strict=True):
                    if code != _CODE:
                        survey.dropped.add(hunk.index)
                file_diff = self._code_only(file_diff, survey.kinds, survey.count)
            survey.count += len(file_diff.hunks)
            if file_diff.excluded_reason is not None:
                survey.excluded.add((file_diff.path, file_diff.excluded_reason))
            survey.packages.add(file_diff)
        return survey

    def _kind_code(self, hunk: Hunk, file_diff: FileDiff) -> int:
        return HUNK_KINDS.index(hunk_kind(hunk, file_diff, None, self.cache))

    @staticmethod
    def _code_only(file_diff: FileDiff, kinds: array[int], first: int) -> FileDiff:
        """`file_diff` without the hunks that change no code (by their `kinds`), the
        rest numbered from `first`; emptied and marked excluded when none is left."""
        kept = tuple(h for h in file_diff.hunks if kinds[h.index] == _CODE)
        if file_diff.hunks and not kept:
            return replace(file_diff, hunks=(), selection_reason=COMMENT_ONLY)
        return _renumbered(replace(file_diff, hunks=kept), first)

    def _files(self, warn: Callable[[str], None] | None = None) -> Iterator[FileDiff]:
        """Every file as the document takes it, by the survey's decisions (the patch read
        again); a PatchError if the patch is not the one surveyed."""
        survey = self._result
        code_only = self.selection.ignore_comment_only
        selected = count = 0
        for file_diff in self.patch.files(warn=warn):
            file_diff, _ = self._selected(file_diff, selected)
            selected += len(file_diff.hunks)
            if code_only:
                file_diff = self._code_only(file_diff, survey.kinds, count)
            count += len(file_diff.hunks)
            if count > survey.count:
                break
            yield file_diff
        if count != survey.count:
            raise patch_error(f"{show(self.name)}: the diff changed while it was read")

    def located(self) -> Iterator[tuple[LocatedHunk, HunkKind]]:
        """Each hunk located from the diff alone, with its kind, in the patch's order
        (the patch read again, a file at a time)."""
        kinds = None if self.selection.ignore_comment_only else self._result.kinds
        packages = self._result.packages
        for file_diff in self._files():
            for item in locate_file(
                file_diff, packages, None, self.cache, languages=self.languages
            ):
                yield item, HUNK_KINDS[_CODE if kinds is None else kinds[item.hunk.index]]

    def _excluded_again(self) -> Iterator[tuple[str, str]]:
        for file_diff in self._files():
            if file_diff.excluded_reason is not None:
                yield file_diff.path, file_diff.excluded_reason

    def _file_warnings_again(self) -> Iterator[str]:
        pending: list[str] = []
        for _ in self._files(warn=pending.append):
            yield from pending
            pending.clear()
        yield from pending


def _repeated(values: array[int]) -> frozenset[int]:
    """The values that occur more than once. Sorted in Python (about 36 bytes a file for
    the while: 20 MB for half a million files), as numpy would cost `hunks` 75 ms to
    import on every small patch."""
    ordered = sorted(values)
    return frozenset(a for a, b in pairwise(ordered) if a == b)
