"""The report's numbers: summaries, the per-class table of fixed vs unfixed bugs, ROC
AUC by the Mann–Whitney rank statistic, localization rates. Pure functions of lists."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..bootstrap import LEVEL, RESAMPLES, SEED
from .data import Joined, Trial, class_order

MIN_GROUP = 5  # fewer fixed (or unfixed) bugs than this: the AUC is flagged as unreliable
ALL = "All"


def average_ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks of `values`; tied values share the mean of the ranks they span."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        shared = (start + end) / 2 + 1  # mean of the 1-based ranks start+1 … end+1
        for k in range(start, end + 1):
            ranks[order[k]] = shared
        start = end + 1
    return ranks


def auc(positives: Sequence[float], negatives: Sequence[float]) -> float | None:
    """ROC AUC of a score for telling positives from negatives, higher score → positive:
    P(score of a random positive > a random negative), ties counting one half. It is the
    Mann–Whitney U of the positives over n₊·n₋. None when either group is empty."""
    n_pos, n_neg = len(positives), len(negatives)
    if n_pos == 0 or n_neg == 0:
        return None
    ranks = average_ranks([*positives, *negatives])
    u = sum(ranks[:n_pos]) - n_pos * (n_pos + 1) / 2
    return u / (n_pos * n_neg)


def auc_interval(
    positives: Sequence[float],
    negatives: Sequence[float],
    *,
    resamples: int = RESAMPLES,
    seed: int = SEED,
    level: float = LEVEL,
) -> tuple[float, float] | None:
    """A percentile bootstrap interval of `auc()`: the positives and the negatives each
    resampled with replacement (their sizes kept), `resamples` times, numpy's default
    generator seeded with `seed`. None when either group is empty."""
    n_pos, n_neg = len(positives), len(negatives)
    if n_pos == 0 or n_neg == 0:
        return None
    rng = np.random.default_rng(seed)
    pos = np.asarray(positives, dtype=float)[rng.integers(0, n_pos, size=(resamples, n_pos))]
    neg = np.asarray(negatives, dtype=float)[rng.integers(0, n_neg, size=(resamples, n_neg))]
    values = np.array([_auc_sorted(p, n) for p, n in zip(pos, neg, strict=True)])
    tail = (1 - level) / 2
    low, high = np.quantile(values, [tail, 1 - tail])
    return float(low), float(high)


def _auc_sorted(positives: np.ndarray, negatives: np.ndarray) -> float:
    """`auc()` in numpy: for each positive, the negatives below it plus half the equal."""
    ordered = np.sort(negatives)
    below = np.searchsorted(ordered, positives, side="left")
    not_above = np.searchsorted(ordered, positives, side="right")
    return float((below + not_above).sum() / (2 * len(positives) * len(negatives)))


def roc_points(positives: Sequence[float], negatives: Sequence[float]) -> list[tuple[float, float]]:
    """(false positive rate, true positive rate) for every threshold "score ≥ t", from
    (0, 0) to (1, 1). Tied scores move both rates at once, so the area under these
    points is `auc()`."""
    if not positives or not negatives:
        return []
    points = [(0.0, 0.0)]
    tp = fp = 0
    scored = sorted(
        [(s, True) for s in positives] + [(s, False) for s in negatives], key=lambda item: -item[0]
    )
    for k, (score, positive) in enumerate(scored):
        tp += positive
        fp += not positive
        if k + 1 == len(scored) or scored[k + 1][0] != score:
            points.append((fp / len(negatives), tp / len(positives)))
    return points


@dataclass(frozen=True)
class Summary:
    n: int
    median: float | None
    mean: float | None
    max: float | None

    @classmethod
    def of(cls, values: Sequence[float]) -> Summary:
        if not values:
            return cls(0, None, None, None)
        return cls(len(values), statistics.median(values), statistics.fmean(values), max(values))


@dataclass(frozen=True)
class ClassRow:
    """One row of the per-agent, per-class table (the BIRCH study's Table 3 layout)."""

    agent: str
    label: str  # a proximity class, "no class", or ALL
    fixed: Summary
    unfixed: Summary

    @property
    def n(self) -> int:
        return self.fixed.n + self.unfixed.n

    @property
    def pct_fixed(self) -> float | None:
        return 100 * self.fixed.n / self.n if self.n else None


def _divergences(trials: list[Trial], fixed: bool) -> list[float]:
    return [t.record.divergence for t in trials if t.outcome.fixed is fixed]


def class_rows(joined: Joined) -> list[ClassRow]:
    """Per agent: one row per proximity class it has trials in, then an ALL row."""
    labels = class_order({t.record.label for ts in joined.trials.values() for t in ts})
    rows: list[ClassRow] = []
    for agent in joined.agents:
        trials = joined.trials[agent]
        for label in [*labels, ALL]:
            chosen = trials if label == ALL else [t for t in trials if t.record.label == label]
            if chosen or label == ALL:
                rows.append(
                    ClassRow(
                        agent,
                        label,
                        Summary.of(_divergences(chosen, True)),
                        Summary.of(_divergences(chosen, False)),
                    )
                )
    return rows


@dataclass(frozen=True)
class AucRow:
    """How well one value predicts that an agent does NOT fix a bug."""

    agent: str
    predictor: str  # "divergence" or "hunk count"
    n_fixed: int
    n_unfixed: int
    auc: float | None
    interval: tuple[float, float] | None = None  # auc_interval's

    @property
    def note(self) -> str:
        if self.auc is None:
            group = "fixed" if self.n_fixed == 0 else "unfixed"
            return f"undefined: no {group} bugs"
        small = [
            name
            for name, n in (("fixed", self.n_fixed), ("unfixed", self.n_unfixed))
            if n < MIN_GROUP
        ]
        if small:
            return f"few {' and '.join(small)} bugs (< {MIN_GROUP}): unreliable"
        return ""


PREDICTORS: dict[str, Callable[[Trial], float]] = {
    "divergence": lambda t: t.record.divergence,
    "hunk count": lambda t: float(t.record.hunk_count),
}


def predictor_scores(trials: list[Trial], predictor: str) -> tuple[list[float], list[float]]:
    """(scores of unfixed bugs, scores of fixed bugs): the positives are failures."""
    value = PREDICTORS[predictor]
    return (
        [value(t) for t in trials if not t.outcome.fixed],
        [value(t) for t in trials if t.outcome.fixed],
    )


def auc_rows(joined: Joined) -> list[AucRow]:
    rows = []
    for agent in joined.agents:
        for predictor in PREDICTORS:
            unfixed, fixed = predictor_scores(joined.trials[agent], predictor)
            rows.append(
                AucRow(
                    agent,
                    predictor,
                    len(fixed),
                    len(unfixed),
                    auc(unfixed, fixed),
                    auc_interval(unfixed, fixed),
                )
            )
    return rows


@dataclass(frozen=True)
class AgentRow:
    """An agent's totals: fixed rate and, when the outcomes say, localization rate."""

    agent: str
    n: int
    fixed: int
    known_localized: int  # trials whose `localized` cell was filled in
    localized: int
    fixed_when_localized: int
    fixed_when_not_localized: int

    @property
    def pct_fixed(self) -> float | None:
        return 100 * self.fixed / self.n if self.n else None

    @property
    def pct_localized(self) -> float | None:
        return 100 * self.localized / self.known_localized if self.known_localized else None


def agent_rows(joined: Joined) -> list[AgentRow]:
    rows = []
    for agent in joined.agents:
        trials = joined.trials[agent]
        known = [t for t in trials if t.outcome.localized is not None]
        localized = [t for t in known if t.outcome.localized]
        rows.append(
            AgentRow(
                agent,
                len(trials),
                sum(t.outcome.fixed for t in trials),
                len(known),
                len(localized),
                sum(t.outcome.fixed for t in localized),
                sum(t.outcome.fixed for t in known if not t.outcome.localized),
            )
        )
    return rows
