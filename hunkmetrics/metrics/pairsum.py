"""numpy's sum of a float64 array, bit for bit, from the array given in pieces.

`np.sum` (and so `mean`) of a contiguous float64 array adds by *pairwise summation*:
n ≤ 128 elements are added with eight running sums (then combined as
((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)), then the rest one by one); longer
runs are split at n2 = n // 2 rounded down to a multiple of 8 and the two halves' sums
added. The result depends on the whole length, so a blockwise mean would differ from the
all-pairs one in the last bits. `PairwiseSum` is told the length first, sums every
complete leaf of the split as its values arrive, and adds the leaves up the same tree at
the end: the very float `np.sum` gives, without the array ever existing
(tests/test_divergence_blocks.py checks it against `np.sum`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

LEAF = 128  # numpy's PW_BLOCKSIZE
UNROLL = 8


#: A subtree of at most this many values is summed with a tree of its own leaves (made
#: when its values arrive); above, only the few nodes of the coarse tree are held, so a
#: sum over billions of pairs holds kilobytes, not one float per leaf of 128.
CHUNK = 1 << 22


class TreeShape:
    """The shape of numpy's pairwise summation over `total` elements, cut at nodes of at
    most `leaf` elements: those nodes (in order) and, level by level from the root,
    which nodes are such leaves. With `leaf` = LEAF it is numpy's own tree; with a
    larger `leaf` each leaf is a node of numpy's tree, and numpy sums it exactly as it
    sums an array of that length (the recursion depends on the length only)."""

    def __init__(self, total: int, leaf: int = LEAF) -> None:
        self.total = total
        starts = np.zeros(1, dtype=np.int64)
        sizes = np.array([total], dtype=np.int64)
        # per level: is each node a leaf; nodes of the next level are the children of
        # this level's inner nodes, left then right, in order
        self.levels: list[npt.NDArray[np.bool_]] = []
        leaf_starts: list[IntArray] = []
        leaf_sizes: list[IntArray] = []
        leaf_ids: list[IntArray] = []
        while len(sizes):
            is_leaf = sizes <= max(leaf, LEAF)
            self.levels.append(is_leaf)
            leaf_starts.append(starts[is_leaf])
            leaf_sizes.append(sizes[is_leaf])
            inner_starts, inner_sizes = starts[~is_leaf], sizes[~is_leaf]
            half = inner_sizes // 2
            half -= half % UNROLL
            starts = np.stack([inner_starts, inner_starts + half], axis=1).reshape(-1)
            sizes = np.stack([half, inner_sizes - half], axis=1).reshape(-1)
        all_starts = np.concatenate(leaf_starts)
        order = np.argsort(all_starts, kind="stable")
        self.leaf_start = all_starts[order]
        self.leaf_size = np.concatenate(leaf_sizes)[order]
        # the position in start order of each level's leaves, level by level
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        at = 0
        for sizes_of_level in leaf_sizes:
            leaf_ids.append(rank[at : at + len(sizes_of_level)])
            at += len(sizes_of_level)
        self.level_leaf = leaf_ids

    def combine(self, leaf_sums: FloatArray) -> float:
        """The root's sum from every leaf's sum (in start order): inner nodes added
        bottom-up, left + right, as numpy's recursion does."""
        below: FloatArray | None = None
        for is_leaf, ids in zip(reversed(self.levels), reversed(self.level_leaf), strict=True):
            values = np.empty(len(is_leaf))
            values[is_leaf] = leaf_sums[ids]
            if below is not None:
                values[~is_leaf] = below[0::2] + below[1::2]
            below = values
        assert below is not None and len(below) == 1
        return float(below[0])


class PairwiseTree:
    """numpy's summation tree over `total` elements, held in two tiers: the coarse tree
    down to nodes of at most `chunk` elements, and numpy's tree of each such node, made
    once per node length when first needed. Memory: about total / chunk nodes plus one
    float per 128 elements of `chunk`."""

    def __init__(self, total: int, chunk: int = CHUNK) -> None:
        self.total = total
        self.coarse = TreeShape(total, chunk)
        self._fine: dict[int, TreeShape] = {}

    def fine(self, size: int) -> TreeShape:
        """numpy's tree of a coarse leaf of `size` elements."""
        shape = self._fine.get(size)
        if shape is None:
            shape = self._fine[size] = TreeShape(size)
        return shape


def leaf_sums(data: FloatArray, starts: IntArray, size: int) -> FloatArray:
    """numpy's pairwise sum of each run data[s : s + size] (size ≤ 128: its unrolled
    loop), for many runs of one size at once."""
    runs = data[starts[:, None] + np.arange(size)[None, :]]
    if size < UNROLL:
        total = np.zeros(len(starts))
        for k in range(size):
            total += runs[:, k]
        return total
    r = runs[:, :UNROLL].copy()
    full = size - size % UNROLL
    for k in range(UNROLL, full, UNROLL):
        r += runs[:, k : k + UNROLL]
    total = ((r[:, 0] + r[:, 1]) + (r[:, 2] + r[:, 3])) + (
        (r[:, 4] + r[:, 5]) + (r[:, 6] + r[:, 7])
    )
    for k in range(full, size):
        total += runs[:, k]
    return np.asarray(total, dtype=np.float64)


class _LeafSums:
    """`np.sum` of one coarse leaf's values handed over in order (numpy's own tree)."""

    def __init__(self, shape: TreeShape) -> None:
        self.shape = shape
        self.sums = np.zeros(len(shape.leaf_start))
        self.seen = 0  # values added so far
        self.done = 0  # leaves summed so far
        self.pending = np.zeros(0)

    def add(self, values: FloatArray) -> None:
        data = np.concatenate([self.pending, values]) if len(self.pending) else values
        base = self.seen - len(self.pending)  # index of data[0] in the whole array
        self.seen += len(values)
        starts, sizes = self.shape.leaf_start, self.shape.leaf_size
        last = int(np.searchsorted(starts + sizes, self.seen, side="right"))
        if last > self.done:
            ids = np.arange(self.done, last)
            local = starts[ids] - base
            # sorted(set()), not np.unique: its first call imports numpy.ma (8 ms)
            for size in sorted(set(sizes[ids].tolist())):
                chosen = sizes[ids] == size
                self.sums[ids[chosen]] = leaf_sums(data, local[chosen], int(size))
            self.done = last
        keep_from = int(starts[last] - base) if last < len(starts) else len(data)
        self.pending = np.array(data[keep_from:], copy=True)

    def value(self) -> float:
        return self.shape.combine(self.sums) if self.shape.total else 0.0


class PairwiseSum:
    """`np.sum` of `total` float64 values handed over in order, in pieces of any size
    (`add`); `value()` once all have been added. Memory: one coarse leaf's pending
    values and leaf sums, plus one float per coarse leaf."""

    def __init__(self, tree: PairwiseTree) -> None:
        self.tree = tree
        coarse = tree.coarse
        self.sums = np.zeros(len(coarse.leaf_start))
        self.seen = 0  # values added so far
        self.leaf = 0  # the coarse leaf being summed
        self.current: _LeafSums | None = None

    def add(self, values: FloatArray) -> None:
        if self.seen + len(values) > self.tree.total:
            raise ValueError("more values than the sum was made for")
        coarse = self.tree.coarse
        at = 0
        while at < len(values):
            if self.current is None:
                size = int(coarse.leaf_size[self.leaf])
                self.current = _LeafSums(self.tree.fine(size))
            current = self.current
            take = min(len(values) - at, current.shape.total - current.seen)
            current.add(values[at : at + take])
            at += take
            self.seen += take
            if current.seen == current.shape.total:
                self.sums[self.leaf] = current.value()
                self.leaf += 1
                self.current = None

    def value(self) -> float:
        if self.seen != self.tree.total:
            raise ValueError(f"{self.seen} of {self.tree.total} values added")
        if self.tree.total == 0:
            return 0.0
        return self.tree.coarse.combine(self.sums)
