"""The `birch` structural term on a JavaParser-shaped tree (../shared/spec/birch-exact.md).

Each hunk gets a line span in the post-image (`hunk_span`), the span an anchor node (the
smallest node covering it, `anchor`), and two hunks of one file the distance between
their anchors in edges. S = ln(1 + dist) / ln(1 + diameter).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..lang.javaparser_diameter import diameter
from ..lang.javaparser_shape import ShapedTree


def post_line_count(text: str) -> int:
    """N' of the spec: the post-image's lines under universal newlines, plus the end
    marker line the study added (`len(text.split("\\n")) + 1`)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return len(text.split("\n")) + 1


def hunk_span(new_start: int, new_count: int, line_count: int) -> tuple[int, int]:
    """(start, end) post-image lines of a hunk with header `+new_start,new_count`, in a
    post-image of `line_count` = N' lines. With 3 context lines this is the first to the
    last changed line; a hunk without `+` lines gets start = end + 1."""
    s, e = new_start, new_start + new_count
    end = e - 4 if (e - 3 > s + 2) or (0 <= s <= 3) else s + 3
    start = s + 3 if (s + 2 < e - 3) or (line_count - 3 <= e <= line_count) else e - 2
    return start, end


def hunk_span_without_context(new_start: int, new_count: int) -> tuple[int, int]:
    """The span of a hunk with no context lines (a `-U0` diff), where the formula's
    3-line context is absent: its post-image lines; a pure deletion after line S
    (`+S,0`) gets S + 1 .. S, a span between two lines as in `hunk_span`."""
    if new_count == 0:
        return new_start + 1, new_start
    return new_start, new_start + new_count - 1


def anchor(tree: ShapedTree, start: int, end: int) -> int:
    """The node covering lines start..end with the fewest lines; on a tie the first in
    pre-order (the outermost); the root when no node covers the span."""
    covering = (tree.begin <= start) & (tree.end >= end)
    if not covering.any():
        return 0
    size = np.where(covering, tree.end - tree.begin, np.iinfo(np.int32).max)
    return int(np.argmin(size))  # argmin takes the first minimum: pre-order wins ties


def distance(tree: ShapedTree, a: int, b: int) -> int:
    """Edges between nodes a and b: depth(a) + depth(b) - 2 depth(lca)."""
    parent, depth = tree.parent, tree.depth
    x, y = a, b
    while depth[x] > depth[y]:
        x = int(parent[x])
    while depth[y] > depth[x]:
        y = int(parent[y])
    while x != y:
        x, y = int(parent[x]), int(parent[y])
    return int(depth[a] + depth[b] - 2 * depth[x])


def structural(dist: int, diam: int) -> float:
    """S = ln(1 + dist) / ln(1 + diameter)."""
    return math.log1p(dist) / math.log1p(diam)


@dataclass(frozen=True, slots=True)
class FileStructure:
    """One file's tree with its diameter, for the pairs of hunks in that file."""

    tree: ShapedTree
    diameter: int

    @classmethod
    def of(cls, tree: ShapedTree) -> FileStructure:
        """The structure of a whole tree (its diameter measured on it)."""
        return cls(tree, diameter(tree))

    def anchors(self, spans: Sequence[tuple[int, int]]) -> list[int]:
        return [anchor(self.tree, start, end) for start, end in spans]

    def cells(self, spans: Sequence[tuple[int, int]]) -> AnchorDistances:
        """S of pairs of the given spans, computed when asked (no k x k matrix)."""
        return AnchorDistances(self, self.anchors(spans))

    def pair_matrix(self, spans: Sequence[tuple[int, int]]) -> npt.NDArray[np.float64]:
        """S for every pair of the given spans (symmetric, 0 on the diagonal)."""
        nodes = self.anchors(spans)
        n = len(nodes)
        out = np.zeros((n, n))
        for i in range(n):
            for j in range(i + 1, n):
                out[i, j] = out[j, i] = structural(
                    distance(self.tree, nodes[i], nodes[j]), self.diameter
                )
        return out


@dataclass(frozen=True, slots=True)
class AnchorDistances:
    """S between hunks of one file from their anchors: `cells(rows, columns)` (positions
    among the file's hunks) as `FileStructure.pair_matrix` would hold them."""

    structure: FileStructure
    nodes: list[int]

    def cells(self, rows: npt.NDArray[np.int64], columns: npt.NDArray[np.int64]) -> np.ndarray:
        tree, diam, nodes = self.structure.tree, self.structure.diameter, self.nodes
        out = np.zeros((len(rows), len(columns)))
        for r, i in enumerate(rows.tolist()):
            for c, j in enumerate(columns.tolist()):
                if i != j:
                    out[r, c] = structural(distance(tree, nodes[i], nodes[j]), diam)
        return out
