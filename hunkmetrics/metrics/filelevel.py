"""File-level component: how far apart two files sit in the directory tree."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


def file_distance(path_a: str, path_b: str, *, capped: bool = True) -> float:
    """0 for the same file; else 1 - c/m, with m the longer path's segment count and c the
    number of equal leading segments minus one. `capped=False` keeps the published quirk
    that two paths with no common first segment score 1 + 1/m."""
    if path_a == path_b:
        return 0.0
    a, b = path_a.split("/"), path_b.split("/")
    longest = max(len(a), len(b))
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    value = 1.0 - (common - 1) / longest
    return min(1.0, value) if capped else value


class FileDistanceTable:
    """`file_distance` and same-file of pairs of hunks by blocks of rows, from each
    hunk's path: paths are numbered, their segments interned, and the leading segments
    two paths share counted with numpy (the same integer division and subtraction as
    `file_distance`, so the same floats), never a matrix over all files. `pair` gives
    one pair's in plain Python (`file_distance` itself)."""

    def __init__(self, paths: Sequence[str], *, capped: bool = True) -> None:
        self.paths = list(paths)
        self.capped = capped

    def pair(self, i: int, j: int) -> tuple[float, bool]:
        """F of hunks i and j, and whether they are in the same file."""
        a, b = self.paths[i], self.paths[j]
        return file_distance(a, b, capped=self.capped), a == b

    @cached_property
    def _numbered(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each hunk's path number; each path's interned segments (-1 past its end) and
        segment count."""
        import numpy as np

        positions: dict[str, int] = {}
        ids = np.array([positions.setdefault(p, len(positions)) for p in self.paths], np.int64)
        split = [p.split("/") for p in positions]
        words: dict[str, int] = {}
        depth = max((len(parts) for parts in split), default=0)
        segments = np.full((len(split), depth), -1, dtype=np.int64)
        lengths = np.array([len(parts) for parts in split], dtype=np.int64)
        flat = [words.setdefault(w, len(words)) for parts in split for w in parts]
        rows = np.repeat(np.arange(len(split)), lengths)
        columns = np.arange(len(flat)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        segments[rows, columns] = flat
        return ids, segments, lengths

    def distances(self, rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
        """F between the files numbered `rows` and those numbered `columns`."""
        import numpy as np

        _, segments, lengths = self._numbered
        a, b = segments[rows][:, None, :], segments[columns][None, :, :]
        equal = (a == b) & (a >= 0)
        common = np.cumprod(equal, axis=2, dtype=np.int64).sum(axis=2)
        longest = np.maximum(lengths[rows][:, None], lengths[columns][None, :])
        value = 1.0 - (common - 1) / longest
        if self.capped:
            value = np.minimum(1.0, value)
        value[rows[:, None] == columns[None, :]] = 0.0
        return np.asarray(value, dtype=np.float64)

    def rows(self, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        """F and same-file of hunks start..stop-1 against hunks start..n-1."""
        import numpy as np

        ids = self._numbered[0]
        row_ids, column_ids = ids[start:stop], ids[start:]
        row_unique, row_at = np.unique(row_ids, return_inverse=True)
        col_unique, col_at = np.unique(column_ids, return_inverse=True)
        small = self.distances(row_unique, col_unique)
        same = row_ids[:, None] == column_ids[None, :]
        return small[row_at.reshape(-1)[:, None], col_at.reshape(-1)[None, :]], same
