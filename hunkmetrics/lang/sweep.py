"""Questions about many line spans at once, in O(n log n) instead of one scan per
question: the deepest scope around each anchor, and how many spans cover each line."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence


class _MaxTree:
    """Prefix maxima over positions 0..size-1 (a Fenwick tree)."""

    def __init__(self, size: int) -> None:
        self.tree: list[tuple[int, int] | None] = [None] * (size + 1)

    def put(self, at: int, value: tuple[int, int]) -> None:
        at += 1
        while at < len(self.tree):
            old = self.tree[at]
            if old is None or value > old:
                self.tree[at] = value
            at += at & -at

    def best(self, upto: int) -> tuple[int, int] | None:
        """The maximum over positions 0..upto."""
        at, out = upto + 1, None
        while at > 0:
            value = self.tree[at]
            if value is not None and (out is None or value > out):
                out = value
            at -= at & -at
        return out


class _SumTree:
    """Prefix sums over positions 0..size-1 (a Fenwick tree)."""

    def __init__(self, size: int) -> None:
        self.tree = [0] * (size + 1)

    def add(self, at: int, delta: int) -> None:
        at += 1
        while at < len(self.tree):
            self.tree[at] += delta
            at += at & -at

    def total(self, upto: int) -> int:
        at, out = upto + 1, 0
        while at > 0:
            out += self.tree[at]
            at -= at & -at
        return out


def deepest_containing(
    spans: Sequence[tuple[int, int, int]], queries: Sequence[tuple[int, int]]
) -> list[int | None]:
    """For each query (first, last): among the spans (start, end, depth) with
    start <= first and last <= end, the position in `spans` of the deepest one (ties:
    the later position), or None."""
    if len(spans) * len(queries) <= _SCAN_LIMIT:
        return [_deepest_by_scan(spans, first, last) for first, last in queries]
    ends = sorted({end for _, end, _ in spans}, reverse=True)
    tree = _MaxTree(len(ends))
    by_start = sorted(range(len(spans)), key=lambda i: spans[i][0])
    out: list[int | None] = [None] * len(queries)
    added = 0
    for q in sorted(range(len(queries)), key=lambda i: queries[i][0]):
        first, last = queries[q]
        while added < len(by_start) and spans[by_start[added]][0] <= first:
            i = by_start[added]
            tree.put(_rank_desc(ends, spans[i][1]), (spans[i][2], i))
            added += 1
        # Ends sorted descending: those >= last are positions 0..k.
        k = _rank_desc(ends, last, at_least=True)
        best = tree.best(k) if k >= 0 else None
        out[q] = best[1] if best is not None else None
    return out


# Below this many span-query pairs, a plain scan costs less than building the tree.
_SCAN_LIMIT = 64


def _deepest_by_scan(spans: Sequence[tuple[int, int, int]], first: int, last: int) -> int | None:
    best: tuple[int, int] | None = None
    for i, (start, end, depth) in enumerate(spans):
        if start <= first and last <= end and (best is None or (depth, i) > best):
            best = (depth, i)
    return best[1] if best is not None else None


def _rank_desc(ends: list[int], value: int, at_least: bool = False) -> int:
    """Index of `value` in descending `ends`; with `at_least`, the last index whose end
    is >= value (-1 when none)."""
    lo, hi = 0, len(ends)
    while lo < hi:
        mid = (lo + hi) // 2
        if ends[mid] > value or (at_least and ends[mid] == value):
            lo = mid + 1
        else:
            hi = mid
    return lo - 1 if at_least else lo


def covering_below(
    spans: Sequence[tuple[int, int, int]], queries: Sequence[tuple[int, int]]
) -> list[int]:
    """For each query (line, depth): how many spans (start, end, depth) have
    start <= line <= end and a smaller depth."""
    depths = sorted({d for _, _, d in spans})
    tree = _SumTree(len(depths))
    by_start = sorted(range(len(spans)), key=lambda i: spans[i][0])
    by_end = sorted(range(len(spans)), key=lambda i: spans[i][1])
    out = [0] * len(queries)
    added = removed = 0
    for q in sorted(range(len(queries)), key=lambda i: queries[i][0]):
        line, depth = queries[q]
        while added < len(by_start) and spans[by_start[added]][0] <= line:
            tree.add(bisect_left(depths, spans[by_start[added]][2]), 1)
            added += 1
        # A span that ends before the line also started before it: it was added.
        while removed < len(by_end) and spans[by_end[removed]][1] < line:
            tree.add(bisect_left(depths, spans[by_end[removed]][2]), -1)
            removed += 1
        below = bisect_left(depths, depth) - 1
        out[q] = tree.total(below) if below >= 0 else 0
    return out
