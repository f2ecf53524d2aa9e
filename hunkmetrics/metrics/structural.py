"""The default profile's structural component: AST edit-bag distance. (birch's AST path
distance is metrics/ast_path.py.)"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


def bag_matrix(bags: Sequence[dict[str, int]]) -> np.ndarray:
    """Bags as rows of a dense count matrix over their joint vocabulary."""
    import numpy as np

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
    import numpy as np

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


class BagDistanceTable:
    """`bag_distance_matrix` by blocks of rows (a PairTable) or pair by pair (`pair`, in
    plain Python: a small patch's Div(P) imports no numpy). Equal (bag, language) rows
    are compared once per block: a distance depends only on the two bags' counts, so the
    floats are those of the whole matrix."""

    def __init__(
        self,
        bags: Sequence[dict[str, int]],
        languages: Sequence[str | None],
        chunk_cells: int = 8_000_000,
    ) -> None:
        self.bags = list(bags)
        self.languages = list(languages)
        self.bag_totals = [sum(bag.values()) for bag in self.bags]
        self.chunk_cells = chunk_cells

    def pair(self, i: int, j: int) -> float:
        """S of hunks i and j, the float `rows` gives: the same integer sums, and one
        division of two integers below 2**53 (exact as floats, so numpy's float
        division and Python's integer one round the same quotient). Bags hold positive
        counts (edit bags), so a key of one bag only adds nothing to the minimum."""
        if self.languages[i] != self.languages[j]:
            return 1.0
        mine, theirs = self.bags[i], self.bags[j]
        if len(theirs) < len(mine):
            mine, theirs = theirs, mine
        minimum = sum(min(count, theirs.get(key, 0)) for key, count in mine.items())
        maximum = self.bag_totals[i] + self.bag_totals[j] - minimum
        return 1.0 - minimum / maximum if maximum > 0 else 0.0

    @cached_property
    def _unique(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The distinct (bag, language) rows' counts, languages and totals, and each
        hunk's row number."""
        import numpy as np

        codes = {lang: k for k, lang in enumerate(sorted(set(self.languages), key=str))}
        language_ids = np.array([codes[lang] for lang in self.languages], dtype=np.int32)
        keyed = np.concatenate([bag_matrix(self.bags), language_ids.reshape(-1, 1)], axis=1)
        unique, inverse = np.unique(keyed, axis=0, return_inverse=True)
        counts = unique[:, :-1]
        return counts, unique[:, -1], counts.sum(axis=1, dtype=np.int64), inverse.reshape(-1)

    def _distances(self, rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
        import numpy as np

        counts, language, totals, _ = self._unique
        width = counts.shape[1]
        others = counts[columns]
        out = np.empty((len(rows), len(columns)))
        step = max(1, self.chunk_cells // max(1, len(columns) * width))
        for start in range(0, len(rows), step):
            chosen = rows[start : start + step]
            block = counts[chosen]
            minimum = np.minimum(block[:, None, :], others[None, :, :]).sum(axis=2, dtype=np.int64)
            maximum = totals[chosen, None] + totals[None, columns] - minimum
            with np.errstate(invalid="ignore", divide="ignore"):
                out[start : start + step] = np.where(maximum > 0, 1.0 - minimum / maximum, 0.0)
        out[language[rows][:, None] != language[columns][None, :]] = 1.0
        return out

    def rows(self, start: int, stop: int) -> np.ndarray:
        import numpy as np

        return self.cells(np.arange(start, stop), np.arange(start, len(self.bags)))

    def cells(self, rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
        """S of the bags numbered `rows` against those numbered `columns`."""
        import numpy as np

        ids = self._unique[3]
        row_unique, row_at = np.unique(ids[rows], return_inverse=True)
        col_unique, col_at = np.unique(ids[columns], return_inverse=True)
        small = self._distances(row_unique, col_unique)
        return small[row_at.reshape(-1)[:, None], col_at.reshape(-1)[None, :]]
