"""Issue 13's regression guard: every document is byte-identical to the pre-optimization code's.

tests/data/document_goldens.json holds the sha256 of each command's output (normalized: the
tool version, the temporary directory and the checkout's path replaced by placeholders), as
produced by the code at commit b753687 (see document_goldens.py), before any of issue 13's
speed-ups. Every command
recorded there is run again here and must give the same bytes. Regenerate the goldens only
for a deliberate change of a document: `python tests/document_goldens.py --write`.
"""

from __future__ import annotations

from pathlib import Path

from document_goldens import BASELINE_COMMIT, cases, compute, load


def test_goldens_cover_every_case() -> None:
    stored = load()
    names = [case.name for case in cases()]
    assert len(names) == len(set(names))
    assert set(names) == set(stored)
    # Each document command, with and without sources, both profiles where they apply.
    kinds = {name.split("/", 1)[0] for name in names}
    assert kinds == {
        "characterize",
        "hunks",
        "hunks-csv",
        "divergence",
        "proximity",
        "localization",
        "batch",
        "batch-jobs2",
        "export",
        "mine",
    }


def test_documents_identical_to_baseline(tmp_path: Path) -> None:
    stored = load()
    now = compute(tmp_path)
    changed = sorted(name for name in stored if now.get(name) != stored[name])
    assert not changed, (
        f"{len(changed)} of {len(stored)} documents differ from those of {BASELINE_COMMIT}: "
        + ", ".join(changed[:20])
    )
