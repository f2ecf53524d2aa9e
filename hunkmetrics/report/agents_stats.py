"""The numbers the Agents part draws that no table holds: the five numbers a violin
marks, the UpSet plot's exclusive intersections, and CSV text for the page's downloads.
Pure functions of lists."""

from __future__ import annotations

import io
import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from hunkmetrics.csvfiles import csv_writer, write_row

NOT_CHARACTERIZED = "not in results"  # a bug the developer patches' results do not hold


def quantile(ordered: Sequence[float], q: float) -> float:
    """The q-quantile of sorted values, interpolating linearly between the order
    statistics at rank q·(n − 1) (numpy's default, Hyndman–Fan type 7)."""
    if not ordered:
        raise ValueError("no values")
    at = q * (len(ordered) - 1)
    low = math.floor(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


@dataclass(frozen=True)
class Spread:
    """What a violin marks besides its shape: n, the extremes and the quartiles."""

    n: int
    minimum: float
    q1: float
    median: float
    q3: float
    maximum: float

    @classmethod
    def of(cls, values: Iterable[float]) -> Spread | None:
        ordered = sorted(values)
        if not ordered:
            return None
        return cls(
            len(ordered),
            ordered[0],
            quantile(ordered, 0.25),
            quantile(ordered, 0.5),
            quantile(ordered, 0.75),
            ordered[-1],
        )


@dataclass(frozen=True)
class Intersection:
    """The bugs fixed by exactly `agents` (and by no other agent), by proximity class."""

    agents: tuple[str, ...]
    bugs: tuple[str, ...]
    by_class: tuple[tuple[str, int], ...]  # (class, bugs) in class order, zero counts left out

    @property
    def size(self) -> int:
        return len(self.bugs)


def upset_intersections(
    agents: Sequence[str],
    fixed: Mapping[str, Collection[str]],
    labels: Mapping[str, str],
    order: Sequence[str],
) -> list[Intersection]:
    """Every non-empty combination of agents with the bugs that exactly it fixed: each
    fixed bug counts once, in the combination of all the agents that fixed it. `fixed`
    maps an agent to its fixed bugs; `labels` a bug to its class (missing:
    NOT_CHARACTERIZED), shown in `order`. Largest first, then fewer agents, then in
    the agents' order."""
    who: dict[str, list[str]] = {}
    for agent in agents:
        for bug in fixed.get(agent, ()):
            who.setdefault(bug, []).append(agent)
    groups: dict[tuple[str, ...], list[str]] = {}
    for bug in sorted(who):
        groups.setdefault(tuple(who[bug]), []).append(bug)
    rank = {a: k for k, a in enumerate(agents)}
    found = []
    for combo, bugs in groups.items():
        counts = {label: 0 for label in order}
        for bug in bugs:
            label = labels.get(bug, NOT_CHARACTERIZED)
            counts[label] = counts.get(label, 0) + 1
        found.append(
            Intersection(combo, tuple(bugs), tuple((c, n) for c, n in counts.items() if n))
        )
    found.sort(key=lambda i: (-i.size, len(i.agents), [rank[a] for a in i.agents]))
    return found


def csv_text(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A table as CSV (RFC 4180 quoting, \\r\\n line ends); None is an empty cell."""
    buffer = io.StringIO()
    writer = csv_writer(buffer)
    write_row(writer, header)
    for row in rows:
        write_row(writer, row)
    return buffer.getvalue()
