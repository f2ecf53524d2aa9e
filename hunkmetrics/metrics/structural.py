"""Structural components: edit-bag distance (default) and AST path distance (birch)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import tree_sitter as ts

from ..lang.index import ParseCache
from ..lang.languages import rules_for_path
from ..patch.model import FileDiff, Hunk, Patch
from ..sources.resolve import Sources
from .features import patch_features


def bag_matrix(bags: Sequence[dict[str, int]]) -> np.ndarray:
    """Bags as rows of a dense count matrix over their joint vocabulary."""
    vocabulary: dict[str, int] = {}
    for bag in bags:
        for key in bag:
            vocabulary.setdefault(key, len(vocabulary))
    matrix = np.zeros((len(bags), max(1, len(vocabulary))), dtype=np.int32)
    for row, bag in enumerate(bags):
        for key, count in bag.items():
            matrix[row, vocabulary[key]] = count
    return matrix


def bag_distance_matrix(
    bags: Sequence[dict[str, int]], languages: Sequence[str | None], chunk_cells: int = 8_000_000
) -> np.ndarray:
    """S[i, j] = 1 - sum_k min / sum_k max over the two bags (weighted Jaccard distance);
    0 for two empty bags; 1 for hunks in different languages."""
    counts = bag_matrix(bags)
    n, width = counts.shape
    totals = counts.sum(axis=1, dtype=np.int64)
    out = np.empty((n, n))
    rows = max(1, chunk_cells // max(1, n * width))
    for start in range(0, n, rows):
        block = counts[start : start + rows]
        minimum = np.minimum(block[:, None, :], counts[None, :, :]).sum(axis=2, dtype=np.int64)
        maximum = totals[start : start + rows, None] + totals[None, :] - minimum
        with np.errstate(invalid="ignore", divide="ignore"):
            out[start : start + rows] = np.where(maximum > 0, 1.0 - minimum / maximum, 0.0)
    codes = {lang: k for k, lang in enumerate(sorted(set(languages), key=str))}
    language_ids = np.array([codes[lang] for lang in languages])
    out[language_ids[:, None] != language_ids[None, :]] = 1.0
    return out


# ---- birch: AST path distance ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FlatTree:
    """A file's named AST nodes in preorder: parent index, depth and start row of each."""

    parent: np.ndarray
    depth: np.ndarray
    start_row: np.ndarray
    end_row: np.ndarray
    diameter: int


def flatten(tree: ts.Tree) -> FlatTree:
    """Named nodes only (the level of detail closest to JavaParser's AST). Anonymous
    nodes are tokens, always leaves, so walking named children reaches every named node."""
    parents: list[int] = []
    depths: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    stack: list[tuple[ts.Node, int, int]] = [(tree.root_node, -1, 0)]
    while stack:
        node, parent, depth = stack.pop()
        index = len(parents)
        parents.append(parent)
        depths.append(depth)
        starts.append(node.start_point.row)
        ends.append(node.end_point.row)
        stack.extend((child, index, depth + 1) for child in reversed(node.named_children))
    parent_array = np.array(parents, dtype=np.int64)
    return FlatTree(
        parent_array,
        np.array(depths, dtype=np.int64),
        np.array(starts),
        np.array(ends),
        _diameter(parent_array),
    )


def _diameter(parent: np.ndarray) -> int:
    """Longest path (in edges) between two nodes, in one reverse-preorder pass."""
    n = len(parent)
    best1 = [0] * n  # longest downward path from each node
    best2 = [0] * n  # second longest through another child
    diameter = 0
    for node in range(n - 1, 0, -1):
        up = parent[node]
        length = best1[node] + 1
        if length > best1[up]:
            best1[up], best2[up] = length, best1[up]
        elif length > best2[up]:
            best2[up] = length
    for node in range(n):
        diameter = max(diameter, best1[node] + best2[node])
    return diameter


def lowest_common_ancestor(flat: FlatTree, nodes: Sequence[int]) -> int:
    parent, depth = flat.parent, flat.depth
    current = nodes[0]
    for other in nodes[1:]:
        a, b = current, other
        while depth[a] > depth[b]:
            a = parent[a]
        while depth[b] > depth[a]:
            b = parent[b]
        while a != b:
            a, b = parent[a], parent[b]
        current = a
    return int(current)


def anchor_node(flat: FlatTree, rows: Sequence[int]) -> int:
    """The LCA of the named nodes starting on `rows` (0-based); with none there, the
    innermost named node spanning the first row."""
    wanted = np.isin(flat.start_row, np.asarray(rows))
    hits = np.flatnonzero(wanted)
    if len(hits):
        return lowest_common_ancestor(flat, list(hits))
    row = rows[0] if rows else 0
    covering = np.flatnonzero((flat.start_row <= row) & (flat.end_row >= row))
    if not len(covering):
        return 0
    return int(covering[np.argmax(flat.depth[covering])])


def path_distance(flat: FlatTree, a: int, b: int) -> float:
    """ln(1 + edges between a and b) / ln(1 + diameter)."""
    if flat.diameter == 0:
        return 0.0
    lca = lowest_common_ancestor(flat, [a, b])
    edges = int(flat.depth[a] + flat.depth[b] - 2 * flat.depth[lca])
    return math.log1p(edges) / math.log1p(flat.diameter)


def ast_path_distance_matrix(
    patch: Patch, hunks: Sequence[tuple[Hunk, FileDiff]], sources: Sources | None, cache: ParseCache
) -> tuple[np.ndarray, list[str]]:
    """Same file: AST path distance between the hunks' anchor nodes, normalized by the
    file AST's diameter. Different files: 1. Same file without a full pre-image: the
    default edit-bag distance, with a warning."""
    n = len(hunks)
    out = np.ones((n, n))
    np.fill_diagonal(out, 0.0)
    by_file: dict[str, list[int]] = {}
    for k, (_, file_diff) in enumerate(hunks):
        by_file.setdefault(file_diff.path, []).append(k)
    fallback: list[int] = []
    for path, members in by_file.items():
        if len(members) < 2:
            continue
        file_diff = hunks[members[0]][1]
        rules = rules_for_path(path)
        texts = sources.texts(file_diff) if sources is not None else None
        if rules is None or texts is None or texts.pre is None:
            fallback.extend(members)
            feats = patch_features(patch, [hunks[k] for k in members], sources, cache).hunks
            out[np.ix_(members, members)] = bag_distance_matrix(
                [f.bag for f in feats], [f.language for f in feats]
            )
            continue
        flat = flatten(cache.tree(rules, texts.pre))
        anchors = [
            anchor_node(flat, [line - 1 for line in hunks[k][0].changed_lines] or [0])
            for k in members
        ]
        for a in range(len(members)):
            for b in range(a + 1, len(members)):
                distance = path_distance(flat, anchors[a], anchors[b])
                out[members[a], members[b]] = out[members[b], members[a]] = distance
    notes = []
    if fallback:
        notes.append(
            f"hunks {','.join(str(hunks[k][0].index) for k in sorted(fallback))}: "
            "birch AST distance needs the file's source (--repo); used the default "
            "edit-bag distance for their same-file pairs"
        )
    return out, notes
