"""The developer patches' characteristics per bug (hunk count, divergence, proximity),
from the results file `hunkmetrics batch` wrote for them (`--bugs results.jsonl`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from hunkmetrics.agents.study.ids import bug_key, normalize_bug_id
from hunkmetrics.datasets.records import read_results

__all__ = ["BugTraits", "read_bug_traits"]


@dataclass(frozen=True, slots=True)
class BugTraits:
    """One bug's developer patch: hunks, divergence (None for a single hunk or an error)
    and proximity class (None when `batch` gave none)."""

    bug: str
    hunk_count: int | None
    divergence: float | None
    proximity: str | None


def read_bug_traits(path: str | Path) -> dict[str, BugTraits]:
    """The traits of every bug in a `batch` results file, by `bug_key` of its id (a
    `_patch` suffix left out). Lines that are errors keep their id with every trait None."""
    out: dict[str, BugTraits] = {}
    for record in read_results(path, "bug results file").records:
        bug = _bug_of(record.id)
        if record.ok:
            traits = BugTraits(
                bug,
                record.hunk_count,
                record.divergence.value,
                record.proximity.label,
            )
        else:
            traits = BugTraits(bug, None, None, None)
        out[bug_key(bug)] = traits
    return out


def _bug_of(record_id: str) -> str:
    """The bug a record is about: its id, without a `_patch` suffix (Hunk4J's patch files
    are named `<Bug>_patch.patch`)."""
    text = record_id.strip()
    if text.lower().endswith("_patch"):
        text = text[: -len("_patch")]
    return normalize_bug_id(text)
