"""Lexical components: 1 - BLEU (birch) here; the token edit distance (default) is
token_edit.py's, imported here too."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

import numpy as np

from ..errors import MissingExtraError
from .bleu import MATRIX_FROM, BleuRows, NgramProfile, all_pairs, ngram_profile, sentence_bleu4
from .token_edit import TokenDistanceTable, intern_tokens, token_distance_matrix

MISSING_BIRCH = 'the birch profile needs NLTK: pip install "hunkmetrics[birch]"'


@cache
def _tokenize() -> Callable[[str], list[str]]:
    # NLTK and the Punkt model are the `birch` extra: imported only when a birch lexical
    # term is computed.
    try:
        from .punkt import english_parameters, punkt_word_tokenize
    except ImportError:
        raise MissingExtraError(MISSING_BIRCH) from None
    english_parameters()  # fails now, not on the first text, without the Punkt model
    return punkt_word_tokenize


def bleu_tokens(text: str) -> list[str]:
    """NLTK's `word_tokenize(text)`: Punkt sentence splitting with the English model,
    then the Treebank-style word tokenizer, as the study tokenized; offline
    (metrics/punkt.py)."""
    return _tokenize()(text)


class BleuDistanceTable:
    """`bleu_distance_pairs` by blocks of rows (a PairTable): n-gram profiles and their
    postings are built once; a block's cells c > r hold 1 - BLEU, the others 0."""

    def __init__(self, texts: Sequence[str]) -> None:
        profiles = [ngram_profile(bleu_tokens(t)) for t in texts]
        self.small = None if len(profiles) >= MATRIX_FROM else all_pairs(profiles)
        self.bleu = BleuRows(profiles) if self.small is None else None

    def rows(self, start: int, stop: int) -> np.ndarray:
        if self.small is not None:
            out = np.array(self.small[start:stop, start:], copy=True)
        else:
            assert self.bleu is not None
            out = self.bleu.block(start, stop)
        upper = np.triu(np.ones(out.shape, dtype=bool), k=1)
        np.subtract(1.0, out, out=out, where=upper)
        return out


def bleu_distance_pairs(texts: Sequence[str]) -> np.ndarray:
    """L[i, j] = 1 - BLEU(reference = hunk i, candidate = hunk j) for i < j (upper
    triangle; BLEU is not symmetric, the lower triangle is left 0)."""
    out = all_pairs([ngram_profile(bleu_tokens(t)) for t in texts])
    upper = np.triu(np.ones(out.shape, dtype=bool), k=1)
    np.subtract(1.0, out, out=out, where=upper)
    return out


__all__ = [
    "MISSING_BIRCH",
    "BleuDistanceTable",
    "TokenDistanceTable",
    "NgramProfile",
    "bleu_distance_pairs",
    "bleu_tokens",
    "intern_tokens",
    "ngram_profile",
    "sentence_bleu4",
    "token_distance_matrix",
]
