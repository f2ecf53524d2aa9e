"""A small patch's Div(P) pair by pair in plain Python (issue 22's start-up: no numpy
import): the very floats numpy's blocks give, pair for pair, mean for mean.

The reference is the numpy path itself (ComputedPairs and the exact pairwise sum, which
tests/test_divergence_blocks.py checks against the plain formula and `np.mean`), and
`np.sum` for the summation; a few values are also worked out by hand."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hunkmetrics.lang.index import ParseCache
from hunkmetrics.metrics import divergence as module
from hunkmetrics.metrics.divergence import (
    ComputedPairs,
    ListedPairs,
    _pair_by_pair,
    _reduce,
    compute_divergence,
)
from hunkmetrics.metrics.filelevel import FileDistanceTable
from hunkmetrics.metrics.plainsum import numpy_sum
from hunkmetrics.metrics.structural import BagDistanceTable
from hunkmetrics.metrics.token_edit import TokenDistanceTable
from hunkmetrics.patch.parse import parse_patch

ROOT = Path(__file__).resolve().parents[1]
HUNK4J = ROOT.parent / "shared" / "hunk4j-sample"

floats = st.floats(allow_nan=False, allow_infinity=False, width=64)


@settings(max_examples=300, deadline=None)
@given(
    values=st.one_of(
        st.lists(floats, max_size=300),
        st.lists(st.floats(min_value=0, max_value=3), min_size=100, max_size=3000),
    )
)
def test_numpy_sum_is_np_sum_bit_for_bit(values: list[float]) -> None:
    with np.errstate(over="ignore", invalid="ignore"):  # huge values may sum to ±inf
        expected = float(np.sum(np.array(values, dtype=np.float64)))
    assert numpy_sum(values) == expected or (math.isnan(expected) and math.isnan(numpy_sum(values)))


def test_numpy_sum_adds_in_numpy_order_not_left_to_right() -> None:
    # worked by hand: nine values take the eight-lane loop; lane 0 holds 1e16 + 1 = 1e16
    # (the 1 is lost: the spacing of floats at 1e16 is 2), the seven 1.0 lanes add to 7,
    # then 1e16 + 7 = 10000000000000008 (nearest even), then -1e16 → 8.0.
    values = [1e16, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, -1e16]
    assert numpy_sum(values) == 8.0
    assert sum(values) == 0.0  # left to right: every 1.0 is lost against 1e16
    assert math.fsum(values) == 8.0


# ---- hunks of every shape --------------------------------------------------------------

TOKENS = ["a", "b", "get", "put", "(", ")", "é", "名前", "\U0001f600", "x\r\n", ""]
SEGMENTS = ["src", "lib", "ünï", "名", "a b", "", "p"]


@st.composite
def hunks(
    draw: st.DrawFn, most: int = 24
) -> tuple[list[list[str]], list[dict[str, int]], list[str | None], list[str]]:
    n = draw(st.integers(min_value=0, max_value=most))
    vocabulary = draw(st.lists(st.text(max_size=4), min_size=1, max_size=6)) + TOKENS
    tokens = [draw(st.lists(st.sampled_from(vocabulary), max_size=40)) for _ in range(n)]
    kinds = ["+if", "-call", "~id", "+x", "-é"]
    bags = [
        draw(st.dictionaries(st.sampled_from(kinds), st.integers(1, 2**31 - 1), max_size=5))
        for _ in range(n)
    ]
    languages = [draw(st.sampled_from(["java", "python", None])) for _ in range(n)]
    paths = [
        "/".join(draw(st.lists(st.sampled_from(SEGMENTS), min_size=1, max_size=5)))
        for _ in range(n)
    ]
    return tokens, bags, languages, paths


@settings(max_examples=150, deadline=None)
@given(case=hunks(), capped=st.booleans())
def test_each_components_pair_is_the_float_its_rows_hold(
    case: tuple[list[list[str]], list[dict[str, int]], list[str | None], list[str]],
    capped: bool,
) -> None:
    tokens, bags, languages, paths = case
    n = len(tokens)
    lexical, structural = TokenDistanceTable(tokens), BagDistanceTable(bags, languages)
    files = FileDistanceTable(paths, capped=capped)
    for start in range(n):
        lex_rows, struct_rows = lexical.rows(start, n), structural.rows(start, n)
        file_rows, same_rows = files.rows(start, n)
        for k in range(start + 1, n):
            assert lexical.pair(start, k) == lex_rows[0, k - start]
            assert structural.pair(start, k) == struct_rows[0, k - start]
            assert files.pair(start, k) == (file_rows[0, k - start], same_rows[0, k - start])


@settings(max_examples=150, deadline=None)
@given(
    case=hunks(),
    capped=st.booleans(),
    weight=st.one_of(
        st.sampled_from([0, 2, 0.0, 2.0, 1e-300, 1e300]),
        st.floats(min_value=0, max_value=1e6),
    ),
)
def test_pair_by_pair_gives_the_blocks_results_bit_for_bit(
    case: tuple[list[list[str]], list[dict[str, int]], list[str | None], list[str]],
    capped: bool,
    weight: float,
) -> None:
    tokens, bags, languages, paths = case
    n = len(tokens)
    indices = [3 * k + 1 for k in range(n)]  # hunk numbers as a patch gives them
    lexical, structural = TokenDistanceTable(tokens), BagDistanceTable(bags, languages)
    files = FileDistanceTable(paths, capped=capped)
    score, means, source = _pair_by_pair(indices, lexical, structural, files, weight)
    computed = ComputedPairs(np.array(indices, dtype=np.int64), lexical, structural, files, weight)
    expected_score, expected_means, expected_source = _reduce(computed)
    assert score == expected_score
    assert means == expected_means
    assert source.count == expected_source.count == n * (n - 1) // 2
    assert list(source.columns(7)) == list(expected_source.columns(7)) or n < 2
    for got, want in zip(source.columns(10**6), expected_source.columns(10**6), strict=True):
        for mine, theirs in zip(got, want, strict=True):
            assert [type(v) for v in mine] == [type(v) for v in theirs]  # int, float: JSON
            assert mine == theirs


# ---- whole patches -----------------------------------------------------------------------


def _patches() -> list[Path]:
    found = sorted((ROOT / "fixtures" / "patches").glob("*.diff"))
    if HUNK4J.is_dir():
        found += sorted(HUNK4J.rglob("*.diff")) + sorted(HUNK4J.rglob("*.patch"))
    return found


def test_every_fixture_and_hunk4j_patch_gives_the_same_result_both_ways(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The default profile on every bundled patch and the 42 Hunk4J sample patches (when
    ../shared is there): the document's text with the pairs, and the result with every
    pair, equal whether the pairs are computed one by one or as numpy blocks."""
    patches = _patches()
    assert len(patches) >= 10
    small = 0
    for path in patches:
        patch = parse_patch(path.read_bytes().decode("utf-8", "replace"))
        with monkeypatch.context() as patched:
            patched.setattr(module, "SMALL_PAIRS", module.SMALL_PAIRS_WITHOUT_NUMPY)
            plain = compute_divergence(patch, cache=ParseCache())
            patched.setattr(module, "SMALL_PAIRS", -1)
            blocks = compute_divergence(patch, cache=ParseCache())
        assert not isinstance(blocks.source, ListedPairs)
        small += isinstance(plain.source, ListedPairs)
        assert plain == blocks, path.name
        assert json.dumps(plain.to_dict()) == json.dumps(blocks.to_dict()), path.name
    assert small == len(patches)  # none of them has more than 64 counted hunks


def test_which_way_depends_on_the_size_and_on_numpy_being_loaded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only speed: plain Python up to 24 hunks (as fast as numpy's blocks), up to 64 while
    numpy is not imported yet (importing it costs as much as 2,000 pairs)."""
    import sys

    faster = module._pair_by_pair_is_faster
    assert faster(24 * 23 // 2) and not faster(25 * 24 // 2)  # numpy is loaded here
    monkeypatch.delitem(sys.modules, "numpy")
    assert faster(64 * 63 // 2) and not faster(65 * 64 // 2)


def test_hunk4j_patches_are_there_or_the_check_above_is_smaller() -> None:
    if not HUNK4J.is_dir():
        pytest.skip("../shared/hunk4j-sample is absent: only the bundled patches were compared")
    assert len(list(HUNK4J.rglob("*.diff")) + list(HUNK4J.rglob("*.patch"))) >= 42


def test_a_small_result_by_hand_and_its_vectors_still_numpys() -> None:
    """Three hunks of files without a grammar (generic tokens), worked out by hand:
    hunks 0 and 1 in src/p/a.cfg (x = 1 → x = 2, x = 1 → x = 3), hunk 2 in src/q/b.cfg
    (y = 1 → y = 2). Tokens: removed, a separator, added (7 each).
    - L: 0-1 one substitution (2 → 3) of 7; 0-2 two (x → y twice); 1-2 three.
    - S: every bag is {~number: 1} (one updated number leaf), so 1 - 1/1 = 0.
    - F: same file 0; src/p/a.cfg against src/q/b.cfg: "src" shared, c = 0, 1 - 0/3 = 1.
    - g: 0 in one file, 2 across. Pair values L·(S + g·F)/(1 + g): 0, 2/7·2/3, 3/7·2/3.
    - Div(P) = ln 3 · (0 + 4/21 + 6/21) / 3 = ln 3 · 10/63.
    The library's vectors are numpy arrays, as a large patch's."""
    text = (
        "--- a/src/p/a.cfg\n+++ b/src/p/a.cfg\n"
        "@@ -1,1 +1,1 @@\n-x = 1\n+x = 2\n"
        "@@ -20,1 +20,1 @@\n-x = 1\n+x = 3\n"
        "--- a/src/q/b.cfg\n+++ b/src/q/b.cfg\n"
        "@@ -5,1 +5,1 @@\n-y = 1\n+y = 2\n"
    )
    result = compute_divergence(parse_patch(text))
    assert isinstance(result.source, ListedPairs)
    assert result.lexical.tolist() == [1 / 7, 2 / 7, 3 / 7]
    assert result.structural.tolist() == [0.0, 0.0, 0.0]
    assert result.file.tolist() == [0.0, 1.0, 1.0]
    assert result.gamma.tolist() == [0.0, 2.0, 2.0]
    assert result.pair_value.tolist() == pytest.approx([0.0, 4 / 21, 2 / 7], rel=1e-15)
    assert result.value == pytest.approx(math.log(3) * 10 / 63, rel=1e-15)
    assert result.means == pytest.approx({"lexical": 2 / 7, "structural": 0.0, "file": 2 / 3})
    assert isinstance(result.pair_value, np.ndarray) and result.pair_value.dtype == np.float64
    assert result.pair_i.dtype == np.int64 and result.pair_i.tolist() == [0, 0, 1]
    assert result.pair_j.tolist() == [1, 2, 2]
