"""Div(P) by blocks of rows (issue 22): the same floats as the all-pairs formula, in
memory that grows with the hunk count, not with the pairs.

The reference here is the plain formula over whole n x n matrices, each component
computed by its own all-pairs function (`token_distance_matrix`, `bag_distance_matrix`,
`file_distance` pair by pair), and `np.mean` of the whole vectors."""

from __future__ import annotations

import math
import random
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hunkmetrics.lang.index import ParseCache
from hunkmetrics.metrics.divergence import ComputedPairs, _reduce, compute_divergence
from hunkmetrics.metrics.filelevel import FileDistanceTable, file_distance
from hunkmetrics.metrics.lexical import TokenDistanceTable, token_distance_matrix
from hunkmetrics.metrics.pairsum import PairwiseSum, PairwiseTree
from hunkmetrics.metrics.profiles import PairInputs, profile
from hunkmetrics.metrics.structural import BagDistanceTable, bag_distance_matrix
from hunkmetrics.patch.parse import parse_patch

WORDS = ["a", "b", "c", "get", "put", "x", "1", "(", ")", ";", "=", "+"]


def _plain(
    tokens: list[list[str]],
    bags: list[dict[str, int]],
    languages: list[str | None],
    paths: list[str],
    weight: float,
    capped: bool,
) -> dict[str, object]:
    """The all-pairs reference: whole matrices, np.triu_indices, np.mean."""
    n = len(tokens)
    i, j = np.triu_indices(n, k=1)
    lex = token_distance_matrix(tokens)[i, j]
    struct = bag_distance_matrix(bags, languages)[i, j]
    fil = np.array(
        [file_distance(paths[a], paths[b], capped=capped) for a, b in zip(i, j, strict=True)]
    )
    same = np.array([paths[a] == paths[b] for a, b in zip(i, j, strict=True)], dtype=bool)
    gamma = np.where(same, 0.0, weight)
    values = lex * (struct + gamma * fil) / (1.0 + gamma)
    return {
        "value": math.log(n) * float(values.mean()) if n >= 2 else 0.0,
        "means": {
            "lexical": float(lex.mean()) if len(lex) else None,
            "structural": float(struct.mean()) if len(struct) else None,
            "file": float(fil.mean()) if len(fil) else None,
        },
        "pair_value": values,
        "lexical": lex,
    }


@settings(max_examples=40, deadline=None)
@given(
    values=st.lists(
        st.floats(min_value=0, max_value=3, allow_nan=False, allow_infinity=False),
        max_size=1500,
    ),
    cuts=st.lists(st.integers(min_value=1, max_value=400), min_size=1, max_size=20),
)
def test_pairwise_sum_in_pieces_is_numpy_sum_bit_for_bit(
    values: list[float], cuts: list[int]
) -> None:
    data = np.array(values, dtype=np.float64)
    total = PairwiseSum(PairwiseTree(len(data)))
    at, k = 0, 0
    while at < len(data):
        step = cuts[k % len(cuts)]
        total.add(data[at : at + step])
        at, k = at + step, k + 1
    assert total.value() == float(np.sum(data))


def test_pairwise_sum_of_a_million_values_is_numpy_sum() -> None:
    """Past 8,192 values (numpy's buffer size) and deep in the tree: still the same
    float, where adding up blocks' sums one after another is not."""
    data = np.random.default_rng(0).random(1_000_003)
    total = PairwiseSum(PairwiseTree(len(data)))
    naive = 0.0
    for start in range(0, len(data), 1000):
        total.add(data[start : start + 1000])
        naive += float(np.sum(data[start : start + 1000]))
    assert total.value() == float(np.sum(data))
    assert naive != float(np.sum(data))  # the order of the additions does matter


@st.composite
def hunks(
    draw: st.DrawFn,
) -> tuple[list[list[str]], list[dict[str, int]], list[str | None], list[str]]:
    n = draw(st.integers(min_value=0, max_value=40))
    tokens = [draw(st.lists(st.sampled_from(WORDS), max_size=8)) for _ in range(n)]
    kinds = ["+if", "-call", "~id", "+x"]
    bags = [
        {
            k: c
            for k, c in zip(
                kinds, draw(st.lists(st.integers(0, 3), min_size=4, max_size=4)), strict=True
            )
            if c
        }
        for _ in range(n)
    ]
    languages = [draw(st.sampled_from(["java", "python", None])) for _ in range(n)]
    folders = ["src/a", "src/a/b", "lib", "src/b/c/d"]
    paths = [f"{draw(st.sampled_from(folders))}/F{draw(st.integers(0, 3))}.java" for _ in range(n)]
    return tokens, bags, languages, paths


@settings(max_examples=60, deadline=None)
@given(case=hunks(), block_cells=st.integers(min_value=1, max_value=200), capped=st.booleans())
def test_blockwise_means_and_divergence_equal_the_all_pairs_formula(
    case: tuple[list[list[str]], list[dict[str, int]], list[str | None], list[str]],
    block_cells: int,
    capped: bool,
) -> None:
    """Blocks far smaller than n x n (down to one row): every float identical."""
    tokens, bags, languages, paths = case
    n = len(tokens)
    computed = ComputedPairs(
        np.arange(n, dtype=np.int64),
        TokenDistanceTable(tokens),
        BagDistanceTable(bags, languages),
        FileDistanceTable(paths, capped=capped),
        2.0,
        block_cells=block_cells,
    )
    score, means, source = _reduce(computed)
    expected = _plain(tokens, bags, languages, paths, 2.0, capped)
    assert (math.log(n) * score if n >= 2 else 0.0) == expected["value"]
    assert means == expected["means"]
    values = np.concatenate([b.pair_value for b in computed.blocks()] or [np.zeros(0)])
    assert values.tobytes() == expected["pair_value"].tobytes()  # type: ignore[union-attr]
    assert source.count == n * (n - 1) // 2


@settings(max_examples=100, deadline=None)
@given(
    paths=st.lists(
        st.lists(st.sampled_from(["", "a", "b", "src", "x.java"]), min_size=1, max_size=5).map(
            "/".join
        ),
        min_size=1,
        max_size=12,
    ),
    capped=st.booleans(),
)
def test_file_table_is_file_distance_pair_by_pair(paths: list[str], capped: bool) -> None:
    table = FileDistanceTable(paths, capped=capped)
    fil, same = table.rows(0, len(paths))
    for a, path_a in enumerate(paths):
        for b, path_b in enumerate(paths):
            assert fil[a, b] == file_distance(path_a, path_b, capped=capped)
            assert same[a, b] == (path_a == path_b)


def synthetic_patch(hunks: int, seed: int = 22) -> bytes:
    """`hunks` one-line Java edits, five to a file, in a few packages (diff only)."""
    rng = random.Random(seed)
    words = ["count", "total", "items", "node", "cache", "state", "limit"]
    out: list[str] = []
    for f in range(0, hunks, 5):
        path = f"src/org/ex/p{f % 7}/q{f % 3}/C{f}.java"
        out += [f"diff --git a/{path} b/{path}", f"--- a/{path}", f"+++ b/{path}"]
        for k in range(min(5, hunks - f)):
            start = 10 + 20 * k
            a, b = rng.choice(words), rng.choice(words)
            out.append(f"@@ -{start},7 +{start},7 @@")
            out += ["         x();"] * 3
            out.append(f"-        int {a} = {b} + {rng.randint(0, 9)};")
            out.append(f"+        int {a} = {b}.get({rng.randint(0, 9)});")
            out += ["         y();"] * 3
    return ("\n".join(out) + "\n").encode()


def test_a_patch_of_1500_hunks_has_the_all_pairs_divergence_and_pairs() -> None:
    """1,500 hunks: 1,124,250 pairs, more than a result keeps, so its pairs are computed
    again, block by block, when read; Div(P), the means and every pair are those of the
    plain all-pairs formula over whole matrices."""
    patch = parse_patch(synthetic_patch(1500))
    prof = profile("default")
    hunks_, _ = prof.counted_hunks(patch)
    inputs = PairInputs(patch, hunks_, None, ParseCache())
    feats = inputs.features().hunks
    expected = _plain(
        [list(f.tokens) for f in feats],
        [f.bag for f in feats],
        [f.language for f in feats],
        [f.path for f in feats],
        2.0,
        True,
    )
    result = compute_divergence(patch)
    assert result.hunk_count == 1500 and result.pair_count == 1500 * 1499 // 2
    assert result.value == expected["value"]
    assert result.means == expected["means"]
    assert result.pair_value.tobytes() == expected["pair_value"].tobytes()  # type: ignore[union-attr]
    assert result.lexical.tobytes() == expected["lexical"].tobytes()  # type: ignore[union-attr]


def _peak_bytes(hunks_count: int) -> int:
    patch = parse_patch(synthetic_patch(hunks_count))
    tracemalloc.start()
    try:
        result = compute_divergence(patch)
        assert result.pair_count == hunks_count * (hunks_count - 1) // 2
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_peak_memory_of_divergence_does_not_grow_with_the_pairs() -> None:
    """Twice the hunks is four times the pairs: an all-pairs computation's peak grows
    about 4x (vectors of n(n-1)/2 floats); by blocks it stays under 2.5x. Untimed."""
    small, large = _peak_bytes(1500), _peak_bytes(3000)
    assert large < 2.5 * small, (small, large)
    assert large < 200 * 2**20  # and far from 3,000 hunks' 4.5 M pairs x 56 bytes


@pytest.mark.parametrize("name", ["default", "birch"])
def test_both_profiles_give_the_same_result_however_the_blocks_fall(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole pipeline (features, tables, reduction) with one-row blocks, pairs read
    again from the tables, and with one block, pairs kept (default: pair by pair in
    plain Python, as for a small patch): identical, pair for pair."""
    from hunkmetrics.metrics import divergence as module

    patch = parse_patch(synthetic_patch(60))
    with monkeypatch.context() as plain:
        plain.setattr(module, "SMALL_PAIRS", 60 * 59 // 2)
        whole = compute_divergence(patch, profile=name)
    assert isinstance(whole.source, module.ListedPairs if name == "default" else module.StoredPairs)
    monkeypatch.setattr(module, "SMALL_PAIRS", 0)  # numpy's blocks whatever the size
    monkeypatch.setattr(module, "BLOCK_CELLS", 1)
    monkeypatch.setattr(module, "KEEP_PAIRS", 0)  # pairs computed again when read
    small = compute_divergence(patch, profile=name)
    assert isinstance(small.source, module.ComputedPairs)
    assert small == whole
