"""numpy's sum of a float64 vector, bit for bit, in plain Python (no numpy import).

`np.sum` of a contiguous float64 vector of n values adds by pairwise summation: below 8
values one after another from 0.0; up to 128 (numpy's PW_BLOCKSIZE) with eight running
sums, combined as ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)), then the rest one by
one; above, split at n // 2 rounded down to a multiple of 8 and the halves' sums added.
pairsum.py does the same for vectors handed over in pieces, with numpy; this module is
for the short vectors of a small patch, whose Div(P) is computed without importing numpy
(start-up). tests/test_small_pairs.py checks it against `np.sum`.
"""

from __future__ import annotations

from collections.abc import Sequence

LEAF = 128  # numpy's PW_BLOCKSIZE
UNROLL = 8


def numpy_sum(values: Sequence[float]) -> float:
    """`float(np.sum(np.array(values, dtype=np.float64)))`, the same float."""
    return _pairwise(values, 0, len(values))


def _pairwise(values: Sequence[float], start: int, count: int) -> float:
    if count < UNROLL:
        total = 0.0
        for k in range(start, start + count):
            total += values[k]
        return total
    if count <= LEAF:
        r = [float(v) for v in values[start : start + UNROLL]]
        full = start + count - count % UNROLL
        for k in range(start + UNROLL, full, UNROLL):
            for lane in range(UNROLL):
                r[lane] += values[k + lane]
        total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        for k in range(full, start + count):
            total += values[k]
        return total
    half = count // 2
    half -= half % UNROLL
    return _pairwise(values, start, half) + _pairwise(values, start + half, count - half)
