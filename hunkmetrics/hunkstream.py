"""A patch's hunks located from the diff alone, read as a stream: what the `hunks`
command writes, in memory that does not grow with the diff.

A Workspace holds the whole patch and every located hunk. Here the patch is read file
by file (`StreamedPatch`) in two passes. The survey reads every file once and keeps only
what the document says before its hunks, or what locating a hunk needs from other
files: the path selection's reasons, the files left out, each hunk's kind (one byte a
hunk), the warnings, and the package each directory shows (`DirectoryPackages`). Then
`located` reads the files again and locates their hunks one file at a time. Both give
exactly what `Workspace` gives for the same patch, selection and no sources.

What stays in memory grows with the files left out and their warnings (one entry a
file), the counted files (8 bytes a file) and the hunks (1 byte a hunk), never with the
lines of the diff."""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from .lang.directory_packages import DirectoryPackages
from .lang.hunk_kind import HUNK_KINDS, HunkKind, hunk_kind
from .lang.index import ParseCache, RecentDict
from .lang.languages import Languages, default_languages
from .lang.locate import LocatedHunk, locate_file
from .lang.selection import DEFAULT_SELECTION, PathSelection
from .patch.model import FileDiff, Hunk
from .patch.stream import StreamedPatch
from .patch.text import patch_error, show
from .shortlist import Few

# A hunk's fragments are reused within its own work only (its kind, then its location
# in the other pass): a few suffice, where a workspace keeps 8,192 (some 50 MB of trees).
KEPT_FRAGMENTS = 64
COMMENT_ONLY = "comment or whitespace only"  # the reason of a file ignore_comment_only empties
_CODE = HUNK_KINDS.index("code")


def _renumbered(file_diff: FileDiff, first: int) -> FileDiff:
    """`file_diff` with its hunks numbered from `first` (itself when they are)."""
    if all(h.index == first + i for i, h in enumerate(file_diff.hunks)):
        return file_diff
    hunks = tuple(replace(h, index=first + i) for i, h in enumerate(file_diff.hunks))
    return replace(file_diff, hunks=hunks)


def _selected(file_diff: FileDiff, reasons: dict[str, str], first: int) -> FileDiff:
    """One file as `PathSelection.apply` leaves it, given the whole patch's `reasons` by
    path: emptied and marked excluded, or its hunks numbered on from `first`."""
    if file_diff.hunks and file_diff.path in reasons:
        return replace(file_diff, hunks=(), selection_reason=reasons[file_diff.path])
    return _renumbered(file_diff, first)


@dataclass
class _Survey:
    """What one pass over the files gathers (module docstring)."""

    reasons: dict[str, str]
    packages: DirectoryPackages
    excluded: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    kinds: array[int] = field(default_factory=lambda: array("B"))  # by selected index
    dropped: Few = field(default_factory=Few)  # hunks ignore_comment_only leaves out
    selected: int = 0  # hunks the path selection counts
    count: int = 0  # hunks in the end
    counted_paths: array[int] = field(default_factory=lambda: array("q"))  # their hashes
    conflict: bool = False  # a path's reason was decided otherwise later in the patch


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
        survey = self._survey(None)
        if survey.conflict:
            # A path's sections disagree about the selection (a rename's old name is a
            # test): the whole patch's reasons are known now; read it again with them.
            survey = self._survey(survey.reasons)
        self._survey_result = survey

    @property
    def name(self) -> str:
        return self.patch.name

    def __len__(self) -> int:
        return self._survey_result.count

    @property
    def excluded_files(self) -> list[tuple[str, str]]:
        """(path, reason) of each file left out of the metrics, in the patch's order."""
        return self._survey_result.excluded

    @property
    def hunk_kinds(self) -> dict[str, int]:
        """How many hunks of each kind there are."""
        survey = self._survey_result
        if self.selection.ignore_comment_only:
            return {kind: survey.count if kind == "code" else 0 for kind in HUNK_KINDS}
        return {kind: survey.kinds.count(code) for code, kind in enumerate(HUNK_KINDS)}

    @property
    def warnings(self) -> list[str]:
        """The warnings, in the order `Workspace.warnings` gives them."""
        survey = self._survey_result
        out = list(survey.warnings)
        if survey.reasons and not survey.selected:
            out.append(
                "no file of the patch is counted: every file was left out by the path "
                "selection (see the excluded files; all_files / --all-files counts them)"
            )
        if survey.dropped.count:
            out.append(
                f"hunks {survey.dropped} change only comments or whitespace: left out "
                "(ignore_comment_only)"
            )
        kinds = self.hunk_kinds
        if survey.count and not kinds["code"]:
            out.append(
                f"no hunk changes code: all {survey.count} change only comments or "
                "whitespace (see each hunk's kind), so the metrics describe those edits"
            )
        return out

    def _survey(self, reasons: dict[str, str] | None) -> _Survey:
        """One pass over the files. With `reasons` None they are gathered as the files
        come, and `conflict` says when a later file showed that an earlier one was
        decided otherwise than the whole patch decides it."""
        survey = _Survey(reasons if reasons is not None else {}, DirectoryPackages(self.languages))
        warnings = survey.warnings
        warnings.extend(self.patch.warnings)
        for file_diff in self.patch.files(warn=warnings.append):
            if reasons is None:
                self._gather_reason(file_diff, survey)
            file_diff = _selected(file_diff, survey.reasons, survey.selected)
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
                survey.excluded.append((file_diff.path, file_diff.excluded_reason))
            survey.packages.add(file_diff)
        if reasons is None and not survey.conflict and survey.reasons:
            counted = sorted(survey.counted_paths)
            survey.conflict = any(_holds(counted, hash(path)) for path in survey.reasons)
        return survey

    def _gather_reason(self, file_diff: FileDiff, survey: _Survey) -> None:
        """Note the selection's reason for `file_diff` (the last file of a path decides
        it for all, as `PathSelection.apply` does), and whether that contradicts how an
        earlier file of the path was taken."""
        if file_diff.excluded_reason is not None:
            return
        reason = self.selection.file_reason(file_diff)
        known = survey.reasons.get(file_diff.path)
        if reason is not None:
            survey.conflict = survey.conflict or known not in (None, reason)
            survey.reasons[file_diff.path] = reason
        elif known is not None:
            survey.conflict = True
        else:
            survey.counted_paths.append(hash(file_diff.path))

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

    def located(self) -> Iterator[tuple[LocatedHunk, HunkKind]]:
        """Each hunk located from the diff alone, with its kind, in the patch's order
        (the patch read again, a file at a time)."""
        survey = self._survey_result
        code_only = self.selection.ignore_comment_only
        selected = count = 0
        for file_diff in self.patch.files():
            file_diff = _selected(file_diff, survey.reasons, selected)
            selected += len(file_diff.hunks)
            if code_only:
                file_diff = self._code_only(file_diff, survey.kinds, count)
            count += len(file_diff.hunks)
            if count > survey.count:
                break
            for item in locate_file(
                file_diff, survey.packages, None, self.cache, languages=self.languages
            ):
                code = _CODE if code_only else survey.kinds[item.hunk.index]
                yield item, HUNK_KINDS[code]
        if count != survey.count:
            raise patch_error(f"{show(self.name)}: the diff changed while it was read")


def _holds(ordered: list[int], value: int) -> bool:
    """Whether the sorted `ordered` holds `value`."""
    at = bisect_left(ordered, value)
    return at < len(ordered) and ordered[at] == value
