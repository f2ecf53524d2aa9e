"""The Sprawl cutoff in `config` is the setting (null: the profile's, worked out per
patch), so an automatic cutoff that differs between patches does not change the
fingerprint, and `report` does not call such results mixed configurations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import hunkmetrics
from hunkmetrics.report import build_report


def two_files(first: str, second: str) -> str:
    """A diff text that changes one line in each of two Java files."""
    out = []
    for path in (first, second):
        out += [
            f"diff --git a/{path} b/{path}",
            f"--- a/{path}",
            f"+++ b/{path}",
            "@@ -1,1 +1,1 @@",
            "-int x = 1;",
            "+int x = 2;",
        ]
    return "\n".join(out) + "\n"


# default profile: packages are the directories; cutoff = floor(median depth / 2).
# Shallow: `a` and `b`, depth 1 each: cutoff floor(1/2) = 0; they share 0 ≤ 0: Fragment.
SHALLOW = two_files("a/X.java", "b/Y.java")
# Deep: `p/q/r/s` and `p/q/r/t`, depth 4 each: cutoff 2; they share 3 > 2: Sprawl.
DEEP = two_files("p/q/r/s/A.java", "p/q/r/t/B.java")


def document(text: str, **options: Any) -> dict[str, Any]:
    return hunkmetrics.characterize(text, **options).to_dict()


def test_automatic_cutoffs_differ_but_the_fingerprint_does_not() -> None:
    shallow, deep = document(SHALLOW), document(DEEP)
    assert (shallow["proximity"]["cutoff"], shallow["proximity"]["class"]) == (0, "Fragment")
    assert (deep["proximity"]["cutoff"], deep["proximity"]["class"]) == (2, "Sprawl")
    assert shallow["config"]["cutoff"] is None and deep["config"]["cutoff"] is None
    assert shallow["config"]["fingerprint"] == deep["config"]["fingerprint"]


def test_a_requested_cutoff_is_a_setting() -> None:
    automatic, asked = document(DEEP), document(DEEP, cutoff=2)
    # Same cutoff used (2 by hand above), but one was asked for: a different setting.
    assert asked["proximity"]["cutoff"] == automatic["proximity"]["cutoff"] == 2
    assert asked["config"]["cutoff"] == 2
    assert asked["config"]["fingerprint"] != automatic["config"]["fingerprint"]
    proximity = hunkmetrics.proximity(SHALLOW, cutoff=1)
    assert (proximity.cutoff, proximity.requested_cutoff) == (1, 1)
    assert hunkmetrics.proximity(SHALLOW).requested_cutoff is None


def write(path: Path, docs: dict[str, dict[str, Any]]) -> Path:
    lines = [json.dumps({"id": key, "error": None, **doc}) for key, doc in docs.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_report_does_not_call_automatic_cutoffs_mixed(tmp_path: Path) -> None:
    same = write(tmp_path / "same.jsonl", {"s": document(SHALLOW), "d": document(DEEP)})
    report = build_report(same)
    assert not any("different configurations" in w for w in report.warnings)
    mixed = write(tmp_path / "mixed.jsonl", {"s": document(SHALLOW), "d": document(DEEP, cutoff=2)})
    assert any("mix 2 different configurations" in w for w in build_report(mixed).warnings)
