"""Lexical components: token edit distance (default) and 1 - BLEU (birch)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
from rapidfuzz.distance import Levenshtein
from rapidfuzz.process import cdist

from ..errors import MissingExtraError

MISSING_BIRCH = 'the birch profile needs NLTK: pip install "hunkmetrics[birch]"'


def intern_tokens(sequences: Sequence[Sequence[str]]) -> list[str]:
    """Each distinct token → one Unicode character, so that a token sequence becomes a
    string and rapidfuzz compares sequences in C on all cores."""
    codes: dict[str, str] = {}
    out = []
    for tokens in sequences:
        chars = []
        for token in tokens:
            char = codes.get(token)
            if char is None:
                number = len(codes)
                number += 0x800 if number >= 0xD800 else 0  # skip the surrogate range
                char = codes[token] = chr(number)
            chars.append(char)
        out.append("".join(chars))
    return out


def token_distance_matrix(sequences: Sequence[Sequence[str]], workers: int = -1) -> np.ndarray:
    """L[i, j] = Levenshtein(tokens_i, tokens_j) / max(len_i, len_j); 0 for two empties."""
    strings = intern_tokens(sequences)
    return cdist(
        strings, strings, scorer=Levenshtein.normalized_distance, workers=workers, dtype=np.float64
    )


# ---- BLEU ----------------------------------------------------------------------------

MAX_ORDER = 4
_K = 5  # NLTK SmoothingFunction's default k, used by method 4


@dataclass(frozen=True, slots=True)
class NgramProfile:
    """A tokenized sentence with its n-gram counts for orders 1..4, computed once."""

    length: int
    counts: tuple[dict[tuple[str, ...], int], ...]


def ngram_profile(tokens: Sequence[str]) -> NgramProfile:
    counts = []
    for n in range(1, MAX_ORDER + 1):
        counts.append(dict(Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))))
    return NgramProfile(len(tokens), tuple(counts))


def sentence_bleu4(reference: NgramProfile, hypothesis: NgramProfile) -> float:
    """NLTK's `sentence_bleu([reference], hypothesis, smoothing_function=method4)` with the
    default weights (0.25, 0.25, 0.25, 0.25), from precomputed n-gram counts."""
    hyp_len, ref_len = hypothesis.length, reference.length
    numerators: list[int] = []
    denominators: list[int] = []
    for n in range(MAX_ORDER):
        hyp_counts, ref_counts = hypothesis.counts[n], reference.counts[n]
        clipped = 0
        for gram, count in hyp_counts.items():
            other = ref_counts.get(gram)
            if other:
                clipped += count if count < other else other
        numerators.append(clipped)
        denominators.append(max(1, hyp_len - n if hyp_len > n else 0))
    if numerators[0] == 0:
        return 0.0
    if hyp_len > ref_len:
        penalty = 1.0
    elif hyp_len == 0:
        penalty = 0.0
    else:
        penalty = math.exp(1 - ref_len / hyp_len)
    logs = []
    increment = 1
    for numerator, denominator in zip(numerators, denominators, strict=True):
        if numerator == 0:
            if hyp_len > 1:
                smoothed = 1 / (2**increment * _K / math.log(hyp_len))
                logs.append(0.25 * math.log(smoothed / denominator))
                increment += 1
            # else: NLTK leaves p_n = 0, which drops out of the sum
        else:
            logs.append(0.25 * math.log(numerator / denominator))
    return penalty * math.exp(math.fsum(logs))


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
    profiles = [ngram_profile(bleu_tokens(t)) for t in texts]
    n = len(profiles)
    out = np.zeros((n, n))
    for i in range(n):
        reference = profiles[i]
        for j in range(i + 1, n):
            out[i, j] = 1.0 - sentence_bleu4(reference, profiles[j])
    return out
