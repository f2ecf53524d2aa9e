"""The default profile's lexical component: normalized token edit distance.

numpy is imported only when a block of rows is computed: a small patch's pairs are read
one by one with `pair` (plain Python, the same floats), so `divergence` starts without it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from itertools import chain
from typing import TYPE_CHECKING

from rapidfuzz.distance import Levenshtein

if TYPE_CHECKING:
    import numpy as np


def intern_tokens(sequences: Sequence[Sequence[str]]) -> list[str]:
    """Each distinct token → one Unicode character, so that a token sequence becomes a
    string and rapidfuzz compares sequences in C on all cores. Tokens are numbered in
    the order they first occur."""
    first_seen = dict.fromkeys(chain.from_iterable(sequences))
    codes = {
        token: chr(number + 0x800 if number >= 0xD800 else number)  # skip the surrogates
        for number, token in enumerate(first_seen)
    }
    return ["".join(map(codes.__getitem__, tokens)) for tokens in sequences]


#: Below this many sequences one thread is faster than starting one per core.
THREADS_FROM = 256


def _workers(count: int, workers: int | None) -> int:
    return workers if workers is not None else (-1 if count >= THREADS_FROM else 1)


def token_distance_matrix(
    sequences: Sequence[Sequence[str]], workers: int | None = None
) -> np.ndarray:
    """L[i, j] = Levenshtein(tokens_i, tokens_j) / max(len_i, len_j); 0 for two empties.
    `workers`: rapidfuzz's threads (-1: all cores); by default all cores from
    THREADS_FROM sequences on, else one (the same values either way)."""
    import numpy as np
    from rapidfuzz.process import cdist

    strings = intern_tokens(sequences)
    return cdist(
        strings,
        strings,
        scorer=Levenshtein.normalized_distance,
        workers=_workers(len(strings), workers),
        dtype=np.float64,
    )


class TokenDistanceTable:
    """`token_distance_matrix` by blocks of rows (a PairTable) or pair by pair (`pair`):
    the token sequences are interned once, and equal sequences are compared once per
    block (a distance depends only on the two sequences, so the floats are those of the
    whole matrix)."""

    def __init__(self, sequences: Sequence[Sequence[str]], workers: int | None = None) -> None:
        positions: dict[str, int] = {}
        self.hunk_string = [
            positions.setdefault(s, len(positions)) for s in intern_tokens(sequences)
        ]
        self.strings = list(positions)
        self.workers = _workers(len(sequences), workers)

    @cached_property
    def ids(self) -> np.ndarray:
        """Each hunk's string number, as a vector."""
        import numpy as np

        return np.array(self.hunk_string, dtype=np.int64)

    def pair(self, i: int, j: int) -> float:
        """L of hunks i and j, the float `rows` gives."""
        strings, at = self.strings, self.hunk_string
        return float(Levenshtein.normalized_distance(strings[at[i]], strings[at[j]]))

    def rows(self, start: int, stop: int) -> np.ndarray:
        import numpy as np
        from rapidfuzz.process import cdist

        row_unique, row_at = np.unique(self.ids[start:stop], return_inverse=True)
        col_unique, col_at = np.unique(self.ids[start:], return_inverse=True)
        strings = self.strings
        small = cdist(
            [strings[k] for k in row_unique.tolist()],
            [strings[k] for k in col_unique.tolist()],
            scorer=Levenshtein.normalized_distance,
            workers=self.workers,
            dtype=np.float64,
        )
        return small[row_at.reshape(-1)[:, None], col_at.reshape(-1)[None, :]]
