"""Localization: did a candidate (agent) patch touch where the reference (developer)
patch did — files, hunks, methods?"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..jsonshape import BOOL, COUNT, COUNTS, SHARE, STR, STRINGS, Array, Nullable, Obj
from ..lang.locate import LocatedHunk
from ..lang.selection import GENERIC_TEST_PATTERNS, is_test_file
from ..patch.model import FileDiff, Hunk, Patch

__all__ = ["GENERIC_TEST_PATTERNS", "LocalizationResult", "compare", "file_key", "is_test_file"]


def file_key(file_diff: FileDiff) -> str:
    """Files compare by their pre-image path (so a rename is followed back to the file it
    fixes); an added file by its new path."""
    return file_diff.old_path if file_diff.old_path is not None else file_diff.path


def _changed(hunk: Hunk) -> set[int]:
    """The spec's changed lines (pre-image): removed lines, or the insertion point."""
    return set(hunk.changed_lines or (hunk.old_start,))


REFERENCE_HUNK = Obj(
    {
        "index": COUNT,
        "file": STR,
        "reached": BOOL,
        "methods": STRINGS,
        "methods_reached": STRINGS,
    }
)
"""One reference hunk: whether a candidate hunk changed one of its lines, and which of
its methods the candidate touched (empty without sources)."""

LOCALIZATION = Obj(
    {
        "file_superset": BOOL,
        "reference_files": STRINGS,
        "candidate_files": STRINGS,
        "missed_files": STRINGS,
        "extra_files": STRINGS,
        "hunk_recall": Nullable(SHARE),
        "reference_hunks": COUNT,
        "hunks_found": COUNT,
        "method_recall": Nullable(SHARE),
        "method_recall_reason": Nullable(STR),
        "reference_methods": STRINGS,
        "methods_found": STRINGS,
        "exclude_tests": BOOL,
        "candidate_error": Nullable(STR),
        "methods_missed": STRINGS,
        "hunks": Array(REFERENCE_HUNK),
        "candidate_hunks": COUNT,
        "candidate_hunks_on_reference": COUNT,
        "hunk_precision": Nullable(SHARE),
        "candidate_hunks_off_reference": COUNTS,
    },
    frozenset(
        {
            "methods_missed",
            "hunks",
            "candidate_hunks",
            "candidate_hunks_on_reference",
            "hunk_precision",
            "candidate_hunks_off_reference",
        }
    ),
)
"""The `localization` object of the localization/v1 document."""


@dataclass(frozen=True)
class LocalizationResult:
    file_superset: bool
    reference_files: tuple[str, ...]
    candidate_files: tuple[str, ...]
    missed_files: tuple[str, ...]
    extra_files: tuple[str, ...]
    reference_hunks: int
    hunks_found: int
    reference_methods: tuple[str, ...]
    methods_found: tuple[str, ...]
    method_recall_reason: str | None
    exclude_tests: bool
    candidate_error: str | None = None
    # Per reference hunk: (index, file key, reached, methods, methods reached).
    hunks: tuple[tuple[int, str, bool, tuple[str, ...], tuple[str, ...]], ...] = ()
    candidate_hunks: int = 0
    # The candidate's hunks that change no line of any reference hunk (by index).
    candidate_hunks_off_reference: tuple[int, ...] = ()

    @property
    def methods_missed(self) -> tuple[str, ...]:
        return tuple(m for m in self.reference_methods if m not in self.methods_found)

    @property
    def hunk_precision(self) -> float | None:
        """Share of the candidate's hunks that change a line of a reference hunk."""
        if not self.candidate_hunks:
            return None
        on = self.candidate_hunks - len(self.candidate_hunks_off_reference)
        return on / self.candidate_hunks

    @property
    def hunk_recall(self) -> float | None:
        return self.hunks_found / self.reference_hunks if self.reference_hunks else None

    @property
    def method_recall(self) -> float | None:
        if self.method_recall_reason is not None or not self.reference_methods:
            return None
        return len(self.methods_found) / len(self.reference_methods)

    def to_dict(self) -> dict[str, Any]:
        """The `localization` object (LOCALIZATION)."""
        return LOCALIZATION.build(
            {
                "file_superset": self.file_superset,
                "reference_files": list(self.reference_files),
                "candidate_files": list(self.candidate_files),
                "missed_files": list(self.missed_files),
                "extra_files": list(self.extra_files),
                "hunk_recall": self.hunk_recall,
                "reference_hunks": self.reference_hunks,
                "hunks_found": self.hunks_found,
                "method_recall": self.method_recall,
                "method_recall_reason": self.method_recall_reason,
                "reference_methods": list(self.reference_methods),
                "methods_found": list(self.methods_found),
                "exclude_tests": self.exclude_tests,
                "candidate_error": self.candidate_error,
                "methods_missed": list(self.methods_missed),
                "hunks": [
                    REFERENCE_HUNK.build(
                        {
                            "index": index,
                            "file": key,
                            "reached": reached,
                            "methods": list(methods),
                            "methods_reached": list(found),
                        }
                    )
                    for index, key, reached, methods, found in self.hunks
                ],
                "candidate_hunks": self.candidate_hunks,
                "candidate_hunks_on_reference": self.candidate_hunks
                - len(self.candidate_hunks_off_reference),
                "hunk_precision": self.hunk_precision,
                "candidate_hunks_off_reference": list(self.candidate_hunks_off_reference),
            }
        )


def _files(patch: Patch | None, exclude_tests: bool) -> list[FileDiff]:
    if patch is None:
        return []
    return [f for f in patch.content_files if not (exclude_tests and is_test_file(file_key(f)))]


def compare(
    reference: Patch,
    candidate: Patch | None,
    *,
    reference_located: list[LocatedHunk] | None = None,
    candidate_located: list[LocatedHunk] | None = None,
    exclude_tests: bool = False,
    candidate_error: str | None = None,
) -> LocalizationResult:
    """Localization of `candidate` against `reference`, both read in the same direction
    (pre-image = the program before the fix). Method recall needs both patches located
    from source; otherwise it is None with the reason."""
    ref_files = _files(reference, exclude_tests)
    cand_files = _files(candidate, exclude_tests)
    ref_keys = sorted({file_key(f) for f in ref_files})
    cand_keys = sorted({file_key(f) for f in cand_files})
    superset = bool(cand_files) and set(ref_keys) <= set(cand_keys)
    cand_lines: dict[str, set[int]] = {}
    for f in cand_files:
        lines = cand_lines.setdefault(file_key(f), set())
        for h in f.hunks:
            lines |= _changed(h)
    ref_hunks = [(file_key(f), h) for f in ref_files for h in f.hunks]
    reached = [bool(_changed(hunk) & cand_lines.get(key, set())) for key, hunk in ref_hunks]
    found = sum(reached)
    ref_lines: dict[str, set[int]] = {}
    for key, hunk in ref_hunks:
        ref_lines.setdefault(key, set()).update(_changed(hunk))
    cand_hunks = [(file_key(f), h) for f in cand_files for h in f.hunks]
    off = tuple(h.index for key, h in cand_hunks if not _changed(h) & ref_lines.get(key, set()))
    reason, ref_methods, methods_found = _methods(
        ref_files, cand_files, reference_located, candidate_located, candidate
    )
    per_hunk = _hunk_methods(reference_located if reason is None else None, ref_files)
    found_set = set(methods_found)
    hunks = tuple(
        (
            hunk.index,
            key,
            hit,
            per_hunk.get(hunk.index, ()),
            tuple(m for m in per_hunk.get(hunk.index, ()) if m in found_set),
        )
        for (key, hunk), hit in zip(ref_hunks, reached, strict=True)
    )
    return LocalizationResult(
        file_superset=superset,
        reference_files=tuple(ref_keys),
        candidate_files=tuple(cand_keys),
        missed_files=tuple(k for k in ref_keys if k not in cand_keys),
        extra_files=tuple(k for k in cand_keys if k not in ref_keys),
        reference_hunks=len(ref_hunks),
        hunks_found=found,
        reference_methods=ref_methods,
        methods_found=methods_found,
        method_recall_reason=reason,
        exclude_tests=exclude_tests,
        candidate_error=candidate_error,
        hunks=hunks,
        candidate_hunks=len(cand_hunks),
        candidate_hunks_off_reference=off,
    )


def _hunk_methods(
    located: list[LocatedHunk] | None, ref_files: list[FileDiff]
) -> dict[int, tuple[str, ...]]:
    """Each reference hunk's methods as `file::method` (none without sources)."""
    if located is None:
        return {}
    keep = {file_key(f) for f in ref_files}
    return {
        item.hunk.index: tuple(f"{file_key(item.file)}::{m}" for m in item.location.methods)
        for item in located
        if file_key(item.file) in keep
    }


def _methods(
    ref_files: list[FileDiff],
    cand_files: list[FileDiff],
    reference_located: list[LocatedHunk] | None,
    candidate_located: list[LocatedHunk] | None,
    candidate: Patch | None,
) -> tuple[str | None, tuple[str, ...], tuple[str, ...]]:
    if reference_located is None or (candidate is not None and candidate_located is None):
        return "needs both patches located", (), ()
    if any(item.location.located_by != "source" for item in reference_located):
        return "needs sources (--repo/--rev): methods from the diff alone are partial", (), ()
    keep_ref = {file_key(f) for f in ref_files}
    keep_cand = {file_key(f) for f in cand_files}
    reference = sorted(
        {
            f"{file_key(item.file)}::{m}"
            for item in reference_located
            if file_key(item.file) in keep_ref
            for m in item.location.methods
        }
    )
    touched = {
        f"{file_key(item.file)}::{m}"
        for item in candidate_located or ()
        if file_key(item.file) in keep_cand
        for m in item.location.methods
    }
    if candidate_located and any(
        item.location.located_by != "source" for item in candidate_located
    ):
        return "needs sources for the candidate too", tuple(reference), ()
    return None, tuple(reference), tuple(m for m in reference if m in touched)
