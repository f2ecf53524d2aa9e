"""The 42 Hunk4J patches in ../shared: every one parses, hunk counts match the published
ones, and locating from the diff alone never crashes or invents a method."""

from __future__ import annotations

import csv
from pathlib import Path

from hunkmetrics import locate_patch, read_patch


def _reference(sample_dir: Path) -> dict[str, dict[str, str]]:
    with (sample_dir / "reference.csv").open(newline="") as handle:
        return {row["bug_id"]: row for row in csv.DictReader(handle)}


def test_every_patch_parses_with_the_published_hunk_count(sample_dir: Path) -> None:
    reference = _reference(sample_dir)
    patches = sorted((sample_dir / "patches").glob("*.diff"))
    assert len(patches) == len(reference) == 42
    for path in patches:
        patch = read_patch(path)
        assert len(patch.hunks) == int(reference[path.stem]["hunk_count"]), path.stem
        reversed_patch = read_patch(path, reverse=True)
        assert len(reversed_patch.hunks) == len(patch.hunks)


def test_diff_only_locations_are_honest(sample_dir: Path) -> None:
    for path in sorted((sample_dir / "patches").glob("*.diff")):
        for item in locate_patch(read_patch(path, reverse=True)):
            loc = item.location
            assert loc.located_by == "diff"
            assert loc.language == "java", path.stem
            assert loc.package, path.stem  # from the declaration or the path
            if loc.method is not None:
                # A method found from the diff alone must be declared in the hunk itself.
                name = loc.method.split("(")[0].rsplit(".", 1)[-1]
                assert any(name + "(" in line.text for line in item.hunk.lines), (
                    path.stem,
                    item.hunk.index,
                    loc.method,
                )
            elif not loc.placed:
                assert "not visible" in (loc.note or "")
