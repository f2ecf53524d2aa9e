"""An agent's diff measured against a task's gold patch, for a harness's scorer: file, hunk
and method localization, the files the diff touches, the gold patch's divergence and
proximity. Harness-neutral (no harness is imported here): the caller reads the diff and the
base's files where the task ran (`BaseTree`), this module does the measuring.

Every value is a number, NaN when it is undefined for the sample (precision of an empty
diff, method recall without sources, everything without a gold patch), so that a mean over
samples leaves it out instead of counting a made-up 0."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hunkmetrics.agents.evaluate import patch_touches
from hunkmetrics.errors import HunkmetricsError
from hunkmetrics.lang.index import ParseCache
from hunkmetrics.lang.selection import PathSelection, path_selection
from hunkmetrics.metrics.localization import LocalizationResult
from hunkmetrics.patch.model import Patch
from hunkmetrics.patch.parse import parse_patch
from hunkmetrics.sources.resolve import resolve_sources
from hunkmetrics.workspace import Workspace, load_patch

NAN = float("nan")
VALUES = (
    "file_recall",
    "file_precision",
    "hunk_recall",
    "hunk_precision",
    "method_recall",
    "file_superset",
    "test_files_touched",
    "gold_hunks",
    "gold_divergence",
)
"""The keys of every score's value, in this order."""


class BaseTree:
    """A `FileReader` over files read beforehand from the task's base commit: `files`
    maps a path to its bytes, or to None when the base has no such file."""

    def __init__(self, files: Mapping[str, bytes | None], description: str = "base commit") -> None:
        self.files = dict(files)
        self.description = description

    def read(self, path: str) -> bytes | None:
        return self.files.get(path)

    def exists(self, path: str) -> bool:
        return self.files.get(path) is not None

    def close(self) -> None:
        pass


@dataclass(frozen=True, slots=True)
class DiffScore:
    """One sample's measures: `values` (VALUES, NaN when undefined), one readable
    paragraph, and the full record (the localization object, the gold patch's traits,
    which files the diff touches, notes)."""

    values: dict[str, float]
    explanation: str
    metadata: dict[str, Any] = field(default_factory=dict)


def unscored(reason: str, **metadata: Any) -> DiffScore:
    """A sample that could not be measured: every value NaN, the reason as explanation."""
    return DiffScore(dict.fromkeys(VALUES, NAN), reason, {"error": reason, **metadata})


def base_paths(*patches: str) -> list[str]:
    """The paths whose text at the base commit places these patches' hunks: both names of
    every file a patch changes (a text that is no diff names none)."""
    paths: dict[str, None] = {}
    for text in patches:
        try:
            parsed = parse_patch(text.encode("utf-8", "surrogateescape"))
        except HunkmetricsError:
            continue
        for file_diff in parsed.files:
            for path in (file_diff.old_path, file_diff.new_path):
                if path:
                    paths[path] = None
    return list(paths)


def _number(value: float | None) -> float:
    return NAN if value is None else float(value)


def _workspace(
    patch: Patch, tree: BaseTree | None, cache: ParseCache, selection: PathSelection
) -> tuple[Workspace, str | None]:
    """The patch placed in the base's sources, or from the diff alone with the reason."""
    if tree is None:
        return Workspace(patch, None, cache, selection), None
    try:
        return Workspace(patch, resolve_sources(patch, tree), cache, selection), None
    except HunkmetricsError as exc:
        return Workspace(patch, None, cache, selection), str(exc)


def score_diff(
    gold: str,
    diff: str,
    tree: BaseTree | None,
    *,
    exclude_tests: bool = True,
    profile: str = "default",
    notes: Iterable[str] = (),
    no_sources: str = "no sources were read",
) -> DiffScore:
    """`diff` (the agent's) against `gold`, both read against `tree` when given (methods
    need it; without it the hunks are placed from the diffs alone, `no_sources` says why
    in the explanation, and method recall is NaN)."""
    notes = list(notes)
    selection = path_selection(exclude_tests=exclude_tests)
    try:
        gold_patch = load_patch(gold.encode("utf-8", "surrogateescape"), selection=selection)
    except HunkmetricsError as exc:
        return unscored(f"The gold patch is not a diff hunkmetrics can read ({exc}).")
    cache = ParseCache()
    dev, why = _workspace(gold_patch, tree, cache, selection)
    if why:
        notes.append(f"gold patch placed from the diff alone: {why}")
    candidate: Workspace | None = None
    error: str | None = None
    data = diff.encode("utf-8", "surrogateescape")
    if diff.strip():
        try:
            parsed = load_patch(data, selection=selection)
        except HunkmetricsError as exc:
            error = str(exc)
        else:
            candidate, problem = _workspace(parsed, tree if dev.sources else None, cache, selection)
            if problem:
                notes.append(f"agent's diff placed from the diff alone: {problem}")
    localization = dev.localization(candidate, exclude_tests=exclude_tests, candidate_error=error)
    divergence = dev.divergence(profile=profile)
    proximity = dev.proximity(profile=profile).label
    touches = patch_touches(data) if diff.strip() else {"source": [], "tests": [], "other": []}
    notes.extend(dev.warnings)
    if candidate is not None:
        notes.extend(candidate.warnings)
    values = _values(localization, touches, divergence.hunk_count, divergence.value)
    gold_traits = {
        "profile": divergence.profile,
        "hunk_count": divergence.hunk_count,
        "divergence": divergence.value,
        "proximity": proximity,
    }
    metadata = {
        "localization": localization.to_dict(),
        "gold": gold_traits,
        "touches": touches,
        "placed_from": "sources" if dev.sources is not None else "diff",
        "notes": list(dict.fromkeys(notes)),
    }
    unplaced = why if tree is not None else no_sources
    text = explain(localization, touches, gold_traits, unplaced, error)
    return DiffScore(values, text, metadata)


def _values(
    loc: LocalizationResult,
    touches: dict[str, list[str]] | None,
    gold_hunks: int,
    divergence: float,
) -> dict[str, float]:
    common = len(set(loc.reference_files) & set(loc.candidate_files))
    ref, cand = len(loc.reference_files), len(loc.candidate_files)
    values = {
        "file_recall": common / ref if ref else NAN,
        "file_precision": common / cand if cand else NAN,
        "hunk_recall": _number(loc.hunk_recall),
        "hunk_precision": _number(loc.hunk_precision),
        "method_recall": _number(loc.method_recall),
        "file_superset": 1.0 if loc.file_superset else 0.0,
        "test_files_touched": float(len(touches["tests"])) if touches is not None else NAN,
        "gold_hunks": float(gold_hunks),
        "gold_divergence": divergence if math.isfinite(divergence) else NAN,
    }
    return {key: values[key] for key in VALUES}


def _names(items: Iterable[str]) -> str:
    listed = list(items)
    return ", ".join(listed) if listed else "none"


def explain(
    loc: LocalizationResult,
    touches: dict[str, list[str]] | None,
    gold: dict[str, Any],
    unplaced: str | None,
    error: str | None,
) -> str:
    """One paragraph: what the diff reached of the gold patch, what else it touched."""
    if error is not None:
        diff = f"The agent's diff could not be read ({error}), so it localizes nothing."
    elif not loc.candidate_files and not (touches and any(touches.values())):
        diff = "The agent's diff is empty, so it localizes nothing."
    else:
        common = [f for f in loc.reference_files if f in loc.candidate_files]
        diff = (
            f"The agent's diff changes {len(common)} of the gold patch's "
            f"{len(loc.reference_files)} files ({_names(common)}; missed: "
            f"{_names(loc.missed_files)}; others: {_names(loc.extra_files)}) and reaches "
            f"{loc.hunks_found} of its {loc.reference_hunks} hunks; "
            f"{loc.candidate_hunks - len(loc.candidate_hunks_off_reference)} of its own "
            f"{loc.candidate_hunks} hunks change a line the gold patch changes."
        )
    if loc.method_recall_reason is None:
        methods = (
            f" It touches {len(loc.methods_found)} of the gold patch's "
            f"{len(loc.reference_methods)} methods (found: {_names(loc.methods_found)}; "
            f"missed: {_names(loc.methods_missed)})."
        )
    else:
        methods = f" Method recall is not measured: {loc.method_recall_reason}."
    tests = (
        f" It edits test files: {_names(touches['tests'])}."
        if touches is not None and touches["tests"]
        else ""
    )
    where = (
        "placed in the sample's sources at its base commit"
        if unplaced is None
        else f"placed from the diffs alone ({unplaced})"
    )
    traits = (
        f" The gold patch has {gold['hunk_count']} hunks, divergence "
        f"{gold['divergence']:.3g} and proximity {gold['proximity'] or 'none'} "
        f"(profile {gold['profile']}); hunks {where}."
    )
    return diff + methods + tests + traits
