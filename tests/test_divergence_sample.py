"""The birch profile against the published Hunk4J values (../shared/hunk4j-sample).

Each patch is taken AS GIVEN (fixed -> buggy, no --reverse): that is how the published
values were computed. No sources are used, so only what does not need a file's AST is
compared: the lexical and file components of every pair, the hunk counts, and Div(P)
for bugs whose hunks all sit in different files (there birch S = 1 for every pair).
Pairs are matched by (bug, hunk_i, hunk_j); the README warns that for a few bugs the
published hunk order differs, which is why pair checks ask for a share, not all.
"""

from __future__ import annotations

import csv
from functools import cache
from pathlib import Path

import pytest

import hunkmetrics
from hunkmetrics.metrics.divergence import DivergenceResult

LEXICAL_TOLERANCE = 0.0005
REQUIRED_SHARE = 0.95


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


@cache
def birch_results(sample: Path) -> dict[str, DivergenceResult]:
    """Every sample patch, profile birch, as given, without sources."""
    return {
        patch.stem: hunkmetrics.divergence(patch, profile="birch")
        for patch in sorted((sample / "patches").glob("*.diff"))
    }


def computed_pairs(sample: Path) -> dict[tuple[str, int, int], hunkmetrics.PairScore]:
    """Our pairs keyed like reference_pairs.csv. Published indices count only the hunks
    the study counted, so a hunk's key is its position among the counted hunks (the
    same as its patch index when no whole-file section is left out)."""
    out = {}
    for bug, result in birch_results(sample).items():
        position = {index: k for k, index in enumerate(result.hunk_indices)}
        for pair in result.pairs():
            out[bug, position[pair.i], position[pair.j]] = pair
    return out


def reference_pairs(sample: Path) -> dict[tuple[str, int, int], dict[str, str]]:
    return {
        (row["bug_id"], int(row["hunk_i"]), int(row["hunk_j"])): row
        for row in read_csv(sample / "reference_pairs.csv")
    }


def test_every_bug_has_a_patch(sample_dir: Path) -> None:
    bugs = {row["bug_id"] for row in read_csv(sample_dir / "reference.csv")}
    assert bugs == set(birch_results(sample_dir)), "reference.csv and patches/ disagree"
    assert len(bugs) == 42


def test_hunk_counts_match_every_bug(sample_dir: Path) -> None:
    """The published hunk count is the number of @@ blocks, less the sections of
    whole files (README: the study did not count them; birch leaves them out)."""
    results = birch_results(sample_dir)
    wrong = []
    for row in read_csv(sample_dir / "reference.csv"):
        result = results[row["bug_id"]]
        if result.hunk_count != int(row["hunk_count"]):
            wrong.append(
                f"{row['bug_id']}: {result.hunk_count} (excluded "
                f"{list(result.excluded_hunks)}) vs published {row['hunk_count']}"
            )
    assert not wrong, "hunk counts differ: " + "; ".join(wrong)


def test_pairs_line_up_with_the_reference(sample_dir: Path) -> None:
    ours, theirs = computed_pairs(sample_dir), reference_pairs(sample_dir)
    assert set(ours) == set(theirs), (
        f"only ours: {sorted(set(ours) - set(theirs))[:10]}, "
        f"only published: {sorted(set(theirs) - set(ours))[:10]}"
    )


def _share(sample: Path, column: str, agrees) -> tuple[float, int, list[str]]:
    ours, theirs = computed_pairs(sample), reference_pairs(sample)
    keys = sorted(set(ours) & set(theirs))
    misses = []
    for key in keys:
        published = float(theirs[key][column])
        if not agrees(ours[key], published):
            misses.append(f"{key}: {published}")
    return 1 - len(misses) / len(keys), len(keys), misses


def test_lexical_matches_published_within_tolerance(sample_dir: Path) -> None:
    share, total, misses = _share(
        sample_dir,
        "lexical_distance",
        lambda pair, published: abs(pair.lexical - published) <= LEXICAL_TOLERANCE,
    )
    assert share >= REQUIRED_SHARE, (
        f"lexical within {LEXICAL_TOLERANCE}: {share:.1%} of {total} pairs "
        f"(need {REQUIRED_SHARE:.0%}); misses: {misses[:15]}"
    )
    # The achieved share, for the record (shown with -rA or on failure above).
    print(
        f"birch lexical within {LEXICAL_TOLERANCE}: {share:.2%} of {total} pairs; misses {misses}"
    )
    # With Punkt sentence splitting the only misses left are Chart_18's (its study text
    # seems to differ from the patch Defects4J ships; docs/metrics.md).
    assert all("'Chart_18'" in miss for miss in misses), misses


def test_file_component_matches_published_to_four_decimals(sample_dir: Path) -> None:
    share, total, misses = _share(
        sample_dir,
        "package_distance",
        lambda pair, published: abs(round(pair.file, 4) - published) < 1e-9,
    )
    assert share >= REQUIRED_SHARE, (
        f"file component equal to 4 decimals: {share:.1%} of {total} pairs "
        f"(need {REQUIRED_SHARE:.0%}); misses: {misses[:15]}"
    )
    print(f"birch file component to 4 decimals: {share:.2%} of {total} pairs; misses {misses}")
    # The misses are the two bugs whose published S/F follow the study's file order.
    assert all("'Closure_157'" in m or "'Time_2'" in m for m in misses), misses


def test_different_file_pair_divergence_matches_published(sample_dir: Path) -> None:
    """For a pair in two files birch S = 1 and g = 2, so d = L * (1 + 2F) / 3 needs no
    source; it must agree with the published pair_divergence within 0.001 for most
    pairs (the rest are the reordered hunks)."""
    ours, theirs = computed_pairs(sample_dir), reference_pairs(sample_dir)
    keys = [k for k in sorted(set(ours) & set(theirs)) if ours[k].gamma != 0.0]
    assert keys
    misses = [
        f"{k}: ours {ours[k].value:.4f}, published {theirs[k]['pair_divergence']}"
        for k in keys
        if abs(ours[k].value - float(theirs[k]["pair_divergence"])) > 0.001
    ]
    share = 1 - len(misses) / len(keys)
    for key in keys:
        assert ours[key].structural == 1.0
    assert share >= REQUIRED_SHARE, (
        f"different-file pair divergence within 0.001: {share:.1%} of {len(keys)}; "
        f"misses: {misses[:15]}"
    )


def distinct_file_bugs(sample: Path) -> list[str]:
    """Bugs whose counted hunks each lie in a file of their own, from the patches."""
    out = []
    for patch_path in sorted((sample / "patches").glob("*.diff")):
        patch = hunkmetrics.parse_patch(patch_path.read_bytes(), name=patch_path.name)
        paths = [f.path for f in patch.content_files for _ in f.hunks]
        if len(paths) >= 2 and len(paths) == len(set(paths)):
            out.append(patch_path.stem)
    return out


def test_divergence_matches_published_when_every_hunk_has_its_own_file(sample_dir: Path) -> None:
    """Every pair then has birch S = 1 and g = 2, so Div(P) needs no AST at all and must
    equal the published divergence within 0.001."""
    bugs = distinct_file_bugs(sample_dir)
    assert bugs, "no bug in the sample has its hunks in distinct files"
    published = {
        row["bug_id"]: float(row["divergence"]) for row in read_csv(sample_dir / "reference.csv")
    }
    results = birch_results(sample_dir)
    off = []
    for bug in bugs:
        result = results[bug]
        assert all(p.structural == 1.0 and p.gamma == 2.0 for p in result.pairs()), bug
        if abs(result.value - published[bug]) > 0.001:
            off.append(f"{bug}: ours {result.value:.4f}, published {published[bug]}")
    assert not off, f"{len(off)} of {len(bugs)} distinct-file bugs differ: {off}"


@pytest.mark.parametrize("reverse", [False, True])
def test_reverse_is_not_how_the_values_were_published(sample_dir: Path, reverse: bool) -> None:
    """The direction matters: --reverse puts each hunk's other lines first in its BLEU
    text (removed lines, then added), which changes the n-grams. Only the run on the
    patches as given reaches the 95% share (reversed: about 89%)."""
    theirs = reference_pairs(sample_dir)
    hits = total = 0
    for patch_path in sorted((sample_dir / "patches").glob("*.diff")):
        result = hunkmetrics.divergence(patch_path, profile="birch", reverse=reverse)
        position = {index: k for k, index in enumerate(result.hunk_indices)}
        for pair in result.pairs():
            key = (patch_path.stem, position[pair.i], position[pair.j])
            if key in theirs:
                total += 1
                hits += (
                    abs(pair.lexical - float(theirs[key]["lexical_distance"])) <= LEXICAL_TOLERANCE
                )
    if reverse:
        assert hits / total < REQUIRED_SHARE, f"reversed: {hits}/{total}"
    else:
        assert hits / total >= REQUIRED_SHARE, f"as given: {hits}/{total}"
