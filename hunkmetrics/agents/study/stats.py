"""The statistics the study's tables need: rates with bootstrap confidence intervals,
plain descriptive statistics, and Pearson's r with its two-sided p-value."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from hunkmetrics.bootstrap import LEVEL, RESAMPLES, SEED

__all__ = [
    "Correlation",
    "Rate",
    "Spread",
    "betainc",
    "bootstrap_rate",
    "pearson",
    "spread",
]


@dataclass(frozen=True, slots=True)
class Rate:
    """`count` of `n` with its share `value` (None when n is 0) and the bootstrap
    confidence interval `[low, high]` of the share (None when n is 0)."""

    count: int
    n: int
    value: float | None
    low: float | None = None
    high: float | None = None


def bootstrap_rate(
    count: int, n: int, *, resamples: int = RESAMPLES, seed: int = SEED, level: float = LEVEL
) -> Rate:
    """The share `count / n` with a percentile bootstrap interval.

    Resampling n yes/no outcomes with replacement and taking the share of yeses is the
    same as drawing Binomial(n, count/n) / n, which is what is drawn (`resamples` times,
    numpy's default generator seeded with `seed`): the interval is the nonparametric
    bootstrap's, computed in constant memory."""
    if n <= 0:
        return Rate(count, n, None)
    p = count / n
    rng = np.random.default_rng(seed)
    draws = rng.binomial(n, p, size=resamples) / n
    tail = (1 - level) / 2
    low, high = np.quantile(draws, [tail, 1 - tail])
    return Rate(count, n, p, float(low), float(high))


@dataclass(frozen=True, slots=True)
class Spread:
    """Descriptive statistics of some values (every field None for no values; `std` is
    the sample standard deviation, None for fewer than two values)."""

    n: int
    mean: float | None
    median: float | None
    std: float | None
    min: float | None
    max: float | None


def spread(values: Sequence[float]) -> Spread:
    """n, mean, median, sample standard deviation (n − 1), min and max of `values`."""
    if not values:
        return Spread(0, None, None, None, None, None)
    arr = np.asarray(values, dtype=np.float64)
    std = float(arr.std(ddof=1)) if len(arr) > 1 else None
    return Spread(
        len(arr), float(arr.mean()), float(np.median(arr)), std, float(arr.min()), float(arr.max())
    )


@dataclass(frozen=True, slots=True)
class Correlation:
    """Pearson's r over `n` pairs and its two-sided p-value (None when undefined: fewer
    than three pairs, or a constant variable)."""

    r: float | None
    p: float | None
    n: int


def pearson(xs: Sequence[float], ys: Sequence[float]) -> Correlation:
    """Pearson's r of paired values, and the p-value of the t-test of r = 0 (Student's t
    with n − 2 degrees of freedom)."""
    n = len(xs)
    if n != len(ys):
        raise ValueError("pearson needs as many x as y values")
    if n < 3:
        return Correlation(None, None, n)
    x = np.asarray(xs, dtype=np.float64)
    y = np.asarray(ys, dtype=np.float64)
    dx, dy = x - x.mean(), y - y.mean()
    den = math.sqrt(float((dx * dx).sum()) * float((dy * dy).sum()))
    if den == 0:
        return Correlation(None, None, n)
    r = max(-1.0, min(1.0, float((dx * dy).sum()) / den))
    df = n - 2
    if abs(r) == 1.0:
        return Correlation(r, 0.0, n)
    # P(|T| >= |t|) for T ~ t(df), t² = df r² / (1 − r²), is I_{1 − r²}(df/2, 1/2).
    return Correlation(r, betainc(df / 2, 0.5, 1 - r * r), n)


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b) (a continued fraction,
    evaluated with the modified Lentz method)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    tiny, eps = 1e-300, 1e-15
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        for num in (
            m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
            -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1)),
        ):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < eps:
            break
    return h
