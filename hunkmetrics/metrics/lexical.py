"""Lexical components: token edit distance (default) and 1 - BLEU (birch)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from itertools import chain

import numpy as np
from rapidfuzz.distance import Levenshtein
from rapidfuzz.process import cdist

from ..errors import MissingExtraError
from .bleu import NgramProfile, all_pairs, ngram_profile, sentence_bleu4

MISSING_BIRCH = 'the birch profile needs NLTK: pip install "hunkmetrics[birch]"'


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


def token_distance_matrix(
    sequences: Sequence[Sequence[str]], workers: int | None = None
) -> np.ndarray:
    """L[i, j] = Levenshtein(tokens_i, tokens_j) / max(len_i, len_j); 0 for two empties.
    `workers`: rapidfuzz's threads (-1: all cores); by default all cores from
    THREADS_FROM sequences on, else one (the same values either way)."""
    strings = intern_tokens(sequences)
    if workers is None:
        workers = -1 if len(strings) >= THREADS_FROM else 1
    return cdist(
        strings, strings, scorer=Levenshtein.normalized_distance, workers=workers, dtype=np.float64
    )


# ---- BLEU ----------------------------------------------------------------------------


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


def bleu_distance_pairs(texts: Sequence[str]) -> np.ndarray:
    """L[i, j] = 1 - BLEU(reference = hunk i, candidate = hunk j) for i < j (upper
    triangle; BLEU is not symmetric, the lower triangle is left 0)."""
    out = all_pairs([ngram_profile(bleu_tokens(t)) for t in texts])
    upper = np.triu(np.ones(out.shape, dtype=bool), k=1)
    np.subtract(1.0, out, out=out, where=upper)
    return out


__all__ = [
    "MISSING_BIRCH",
    "NgramProfile",
    "bleu_distance_pairs",
    "bleu_tokens",
    "intern_tokens",
    "ngram_profile",
    "sentence_bleu4",
    "token_distance_matrix",
]
