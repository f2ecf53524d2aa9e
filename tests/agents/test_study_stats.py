"""The study's statistics and the streamed n-gram counter, against values worked out
by hand."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from hunkmetrics.agents.study.sequences import NgramCounter
from hunkmetrics.agents.study.stats import betainc, bootstrap_rate, pearson, spread


def test_pearson_r_and_p_by_hand() -> None:
    # x 1..4, y 1,3,2,5: Σdxdy = 5.5, Σdx² = 5, Σdy² = 8.75, r = 5.5 / √43.75; with 2
    # degrees of freedom p = 1 − |t| / √(2 + t²), t = r √(2 / (1 − r²)).
    c = pearson([1, 2, 3, 4], [1, 3, 2, 5])
    r = 5.5 / math.sqrt(43.75)
    t = r * math.sqrt(2 / (1 - r * r))
    assert c.r == pytest.approx(r)
    assert c.p == pytest.approx(1 - t / math.sqrt(2 + t * t))
    assert c.n == 4


def test_pearson_undefined() -> None:
    assert pearson([1, 2], [3, 4]).r is None
    assert pearson([1, 1, 1], [1, 2, 3]).r is None  # constant x
    assert pearson([1, 2, 3], [2, 4, 6]).p == 0.0  # r = 1
    with pytest.raises(ValueError):
        pearson([1, 2, 3], [1, 2])


def test_betainc_closed_forms() -> None:
    # I_x(1, b) = 1 − (1 − x)^b; I_x(a, 1) = x^a; I_½(a, a) = ½.
    assert betainc(1, 0.5, 0.25) == pytest.approx(1 - 0.75**0.5)
    assert betainc(3, 1, 0.4) == pytest.approx(0.4**3)
    assert betainc(7.5, 7.5, 0.5) == pytest.approx(0.5)
    assert (betainc(2, 3, 0.0), betainc(2, 3, 1.0)) == (0.0, 1.0)


def test_bootstrap_rate() -> None:
    r = bootstrap_rate(30, 100, resamples=4000, seed=1)
    assert (r.count, r.n, r.value) == (30, 100, 0.3)
    # The normal approximation's 95 % interval is 0.3 ± 1.96 √(0.21 / 100) ≈ [0.21, 0.39].
    assert r.low is not None and r.high is not None
    assert 0.19 <= r.low <= 0.23 and 0.37 <= r.high <= 0.41
    assert bootstrap_rate(30, 100, resamples=4000, seed=1) == r  # seeded: the same
    assert bootstrap_rate(0, 0).value is None
    assert (bootstrap_rate(5, 5).low, bootstrap_rate(5, 5).high) == (1.0, 1.0)


def test_spread() -> None:
    s = spread([1.0, 2.0, 6.0])
    # mean 3, median 2, σ = √((4 + 1 + 9) / 2) = √7.
    assert (s.n, s.mean, s.median, s.min, s.max) == (3, 3.0, 2.0, 1.0, 6.0)
    assert s.std == pytest.approx(math.sqrt(7))
    assert spread([4.0]).std is None
    assert spread([]).mean is None


def test_ngrams_never_cross_attempts() -> None:
    c = NgramCounter((2, 3))
    c.add(["R", "W", "B", "T"])
    c.add(["R", "W", "R", "W"])
    c.add(["X"])
    c.add([])
    # w=2: RW ×3 (one + two), WB, BT, WR; never T→R across the first two attempts.
    assert c.counts(2) == Counter({("R", "W"): 3, ("W", "B"): 1, ("B", "T"): 1, ("W", "R"): 1})
    assert sum(c.counts(3).values()) == 2 + 2
    with pytest.raises(ValueError):
        c.counts(4)


def _naive(seqs: list[list[str]], w: int) -> Counter[tuple[str, ...]]:
    out: Counter[tuple[str, ...]] = Counter()
    for s in seqs:
        out.update(tuple(s[i : i + w]) for i in range(len(s) - w + 1))
    return out


def test_ngrams_match_a_plain_count_across_flushes() -> None:
    rng = random.Random(7)
    cats = ["READ", "WRITE", "TEST", "BUILD", "SEARCH_FILES"]
    seqs = [[rng.choice(cats) for _ in range(rng.randint(0, 40))] for _ in range(3000)]
    c = NgramCounter((3, 4, 5))
    c._FLUSH_AT = 997  # several flushes in the middle of the run (an instance attribute)
    for s in seqs:
        c.add(s)
    for w in (3, 4, 5):
        assert c.counts(w) == _naive(seqs, w)


def test_ngrams_with_more_categories_than_codes() -> None:
    seqs = [[f"C{i}", f"C{i + 1}", f"C{i + 2}"] for i in range(300)]
    c = NgramCounter((2, 3))
    for s in seqs:
        c.add(s)
    assert c.counts(2) == _naive(seqs, 2)
    assert c.counts(3) == _naive(seqs, 3)
