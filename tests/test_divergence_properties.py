"""Properties of hunk divergence that hold for every patch (spec: "Hunk divergence").

Patches are generated as zero-context unified diffs (as `git diff -U0` writes them) over
one to four files with random paths, from Java-ish and plain-text lines, so that every
hunk's content is exactly what the strategy drew.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import hunkmetrics
from hunkmetrics import open_workspace
from hunkmetrics.metrics.divergence import counted_hunks
from hunkmetrics.metrics.features import patch_features
from hunkmetrics.metrics.filelevel import file_distance
from hunkmetrics.metrics.lexical import token_distance_matrix
from hunkmetrics.metrics.structural import bag_distance_matrix

JAVA_LINES = [
    "int a = 1;",
    "a = b + c;",
    "return a;",
    "return null;",
    "foo(a, b);",
    "if (a > b) {",
    "}",
    "x.y = z;",
    'String s = "t";',
    "// a comment",
    "list.add(i);",
    "i++;",
    'throw new IllegalStateException("bad");',
    "for (int i = 0; i < n; i++) {",
    "@Override",
    "public void run() {",
    "/* block */",
    "",
    "    a  =  b+c ;",
]
TEXT_LINES = [
    "alpha beta",
    "gamma = 3",
    "delta",
    "x + y",
    "'quoted' text",
    "",
    "42",
    "def f(x):",
    "    return x",
]
PATHS = [
    "src/main/java/com/a/A.java",
    "src/main/java/com/a/B.java",
    "src/main/java/com/b/C.java",
    "src/test/java/com/a/ATest.java",
    "lib/D.java",
    "E.java",
    "docs/notes.txt",
    "docs/dev/more.txt",
    "scripts/tool.rb",
    "pkg/mod.py",
]

Change = tuple[list[str], list[str]]  # removed lines, added lines


def render_file(path: str, changes: list[Change], gap: int = 3) -> list[str]:
    """One file's section of a zero-context diff; `gap` unchanged lines before each hunk.

    A hunk at pre-image line p removing r and adding a lines, after an offset o of
    earlier hunks, is `@@ -p,r +(p+o),a @@`, where a side with 0 lines names the line
    before (p-1, p+o-1), as diff -U0 does."""
    out = [f"diff --git a/{path} b/{path}", f"--- a/{path}", f"+++ b/{path}"]
    old, offset = 1, 0
    for removed, added in changes:
        old += gap
        r, a = len(removed), len(added)
        old_start = old if r else old - 1
        new_start = old + offset if a else old + offset - 1
        out.append(f"@@ -{old_start},{r} +{new_start},{a} @@")
        out += ["-" + line for line in removed] + ["+" + line for line in added]
        old += r
        offset += a - r
    return out


def render(files: list[tuple[str, list[Change]]]) -> bytes:
    lines = [line for path, changes in files for line in render_file(path, changes)]
    return ("\n".join(lines) + "\n").encode()


def pool_for(path: str) -> list[str]:
    return JAVA_LINES if path.endswith(".java") else TEXT_LINES


@st.composite
def changes_for(draw, path: str, max_hunks: int = 3) -> list[Change]:
    pool = st.sampled_from(pool_for(path))
    out = []
    for _ in range(draw(st.integers(1, max_hunks))):
        removed = draw(st.lists(pool, max_size=3))
        added = draw(st.lists(pool, min_size=0 if removed else 1, max_size=3))
        out.append((removed, added))
    return out


@st.composite
def patches(draw, max_files: int = 4) -> list[tuple[str, list[Change]]]:
    paths = draw(st.lists(st.sampled_from(PATHS), min_size=1, max_size=max_files, unique=True))
    return [(path, draw(changes_for(path))) for path in paths]


FAST = settings(max_examples=80, deadline=None)


def check_bounded(result) -> None:
    n = result.hunk_count
    pairs = list(result.pairs())
    assert len(pairs) == n * (n - 1) // 2
    for p in pairs:
        for name, value in (("L", p.lexical), ("S", p.structural), ("F", p.file)):
            assert 0.0 <= value <= 1.0, (name, p)
        assert p.gamma in (0.0, 2.0)
        assert -1e-12 <= p.value <= 1.0 + 1e-12, p
        combined = p.lexical * (p.structural + p.gamma * p.file) / (1 + p.gamma)
        assert math.isclose(p.value, combined, abs_tol=1e-12), p
    upper = math.log(n) if n >= 2 else 0.0
    assert -1e-12 <= result.value <= upper + 1e-12


@FAST
@given(patches())
def test_default_every_component_and_pair_in_unit_interval(files) -> None:
    result = hunkmetrics.divergence(render(files), selection=hunkmetrics.ALL_FILES)
    assert result.hunk_count == sum(len(changes) for _, changes in files)
    check_bounded(result)


@FAST
@given(patches())
def test_birch_components_bounded(files) -> None:
    """birch: L and S in [0, 1]; F in [0, 2] (uncapped: 1 + 1/m at most 2); Div >= 0."""
    result = hunkmetrics.divergence(render(files), profile="birch", selection=hunkmetrics.ALL_FILES)
    for p in result.pairs():
        assert 0.0 <= p.lexical <= 1.0 + 1e-12 and 0.0 <= p.structural <= 1.0
        assert 0.0 <= p.file <= 2.0
    assert result.value >= 0.0


@FAST
@given(st.sampled_from(PATHS), st.data(), st.integers(2, 5))
def test_identical_hunks_in_one_file_give_zero(path, data, copies) -> None:
    """Every hunk the same lines in the same file: L = 0 for every pair, g = 0, Div = 0."""
    pool = st.sampled_from(pool_for(path))
    removed = data.draw(st.lists(pool, max_size=3))
    added = data.draw(st.lists(pool, min_size=0 if removed else 1, max_size=3))
    result = hunkmetrics.divergence(
        render([(path, [(removed, added)] * copies)]), selection=hunkmetrics.ALL_FILES
    )
    assert result.hunk_count == copies
    for p in result.pairs():
        assert p.lexical == 0.0 and p.gamma == 0.0 and p.value == 0.0
    assert result.value == 0.0


@FAST
@given(patches(), st.randoms(use_true_random=False))
def test_default_unchanged_when_files_reordered(files, rng) -> None:
    shuffled = list(files)
    rng.shuffle(shuffled)
    first = hunkmetrics.divergence(render(files), selection=hunkmetrics.ALL_FILES)
    second = hunkmetrics.divergence(render(shuffled), selection=hunkmetrics.ALL_FILES)
    assert first.hunk_count == second.hunk_count
    assert math.isclose(first.value, second.value, rel_tol=1e-9, abs_tol=1e-12)
    assert sorted(round(p.value, 12) for p in first.pairs()) == sorted(
        round(p.value, 12) for p in second.pairs()
    )


@FAST
@given(st.sampled_from(PATHS), st.data())
def test_single_hunk_patch_is_zero(path, data) -> None:
    (change,) = data.draw(changes_for(path, max_hunks=1))
    for profile in ("default", "birch"):
        result = hunkmetrics.divergence(
            render([(path, [change])]), profile=profile, selection=hunkmetrics.ALL_FILES
        )
        assert result.hunk_count == 1 and result.value == 0.0
        assert list(result.pairs()) == []


@FAST
@given(patches())
def test_default_matrices_symmetric_with_zero_diagonal(files) -> None:
    """L and S are symmetric in default, and a hunk compared with itself has L = S = 0."""
    with open_workspace(render(files), selection=hunkmetrics.ALL_FILES) as ws:
        hunks, _ = counted_hunks(ws.patch, "default")
        feats = patch_features(ws.patch, hunks, ws.sources, ws.cache).hunks
    lexical = token_distance_matrix([f.tokens for f in feats])
    structural = bag_distance_matrix([f.bag for f in feats], [f.language for f in feats])
    for matrix in (lexical, structural):
        assert np.array_equal(matrix, matrix.T)
        assert np.all(np.diag(matrix) == 0.0)
        assert np.all((matrix >= 0.0) & (matrix <= 1.0))


@FAST
@given(st.data())
def test_same_hunk_in_two_files_of_one_language(data) -> None:
    """A hunk copied into a second file of the same language: that pair has L = S = 0,
    so d = 0 although g = 2."""
    first, second = data.draw(
        st.sampled_from(
            [
                ("src/main/java/com/a/A.java", "lib/D.java"),
                ("docs/notes.txt", "docs/dev/more.txt"),
            ]
        )
    )
    (change,) = data.draw(changes_for(first, max_hunks=1))
    result = hunkmetrics.divergence(
        render([(first, [change]), (second, [change])]), selection=hunkmetrics.ALL_FILES
    )
    (pair,) = list(result.pairs())
    assert (pair.lexical, pair.structural, pair.gamma, pair.value) == (0.0, 0.0, 2.0, 0.0)


# ---- the pure functions against direct implementations of their definitions -------------


def levenshtein(a: list[str], b: list[str]) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[-1]


tokens = st.lists(
    st.sampled_from(["a", "b", "c", "(", ")", ";", "\x00SEP\x00", "return", "x" * 3]), max_size=12
)


@settings(max_examples=150, deadline=None)
@given(st.lists(tokens, min_size=1, max_size=5))
def test_token_distance_is_normalized_levenshtein(sequences) -> None:
    matrix = token_distance_matrix(sequences)
    for i, a in enumerate(sequences):
        for j, b in enumerate(sequences):
            longest = max(len(a), len(b))
            expected = levenshtein(a, b) / longest if longest else 0.0
            assert math.isclose(matrix[i, j], expected, abs_tol=1e-12)


bags = st.dictionaries(
    st.sampled_from(["+a", "-a", "~a", "+b", "-c", "~d"]), st.integers(1, 4), max_size=5
)


@settings(max_examples=150, deadline=None)
@given(st.lists(bags, min_size=1, max_size=5))
def test_bag_distance_is_weighted_jaccard(bag_list) -> None:
    matrix = bag_distance_matrix(bag_list, ["java"] * len(bag_list))
    for i, a in enumerate(bag_list):
        for j, b in enumerate(bag_list):
            keys = set(a) | set(b)
            low = sum(min(a.get(k, 0), b.get(k, 0)) for k in keys)
            high = sum(max(a.get(k, 0), b.get(k, 0)) for k in keys)
            expected = 1 - low / high if high else 0.0
            assert math.isclose(matrix[i, j], expected, abs_tol=1e-12)


segments = st.lists(
    st.sampled_from(["src", "main", "a", "b", "X.java", "Y.java"]), min_size=1, max_size=5
).map("/".join)


@settings(max_examples=200, deadline=None)
@given(segments, segments)
def test_file_distance_definition(a, b) -> None:
    capped, uncapped = file_distance(a, b), file_distance(a, b, capped=False)
    assert capped == file_distance(b, a)
    if a == b:
        assert capped == uncapped == 0.0
        return
    x, y = a.split("/"), b.split("/")
    common = next(
        (k for k, (p, q) in enumerate(zip(x, y, strict=False)) if p != q), min(len(x), len(y))
    )
    expected = 1 - (common - 1) / max(len(x), len(y))
    assert math.isclose(uncapped, expected)
    assert math.isclose(capped, min(1.0, expected))
    assert 0.0 <= capped <= 1.0 and uncapped <= 2.0
    assert (uncapped > 1.0) == (x[0] != y[0])
