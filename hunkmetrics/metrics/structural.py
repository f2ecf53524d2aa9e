"""The default profile's structural component: AST edit-bag distance. (birch's AST path
distance is metrics/ast_path.py.)"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


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
