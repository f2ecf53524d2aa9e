"""Attempt records as the report's Agents part reads them: streamed once into
`hunkmetrics.agents.study.summarize` (every table), with a few numbers per attempt kept
beside it for the figures (`Point`), and the bugs' anchors in the per-bug table."""

from __future__ import annotations

import glob
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..agents.study import (
    BugTraits,
    StudyAttempt,
    StudySummary,
    iter_attempts,
    read_bug_traits,
    summarize,
)
from ..errors import HunkmetricsError
from .agents_stats import NOT_CHARACTERIZED
from .data import NO_CLASS, class_order
from .figures import BUG_ANCHOR

PASSING, FAILING = "passing", "failing"
MAX_BUG_ROWS = 5000  # rows of the per-bug table shown (the CSV has all)
_GLOB = re.compile(r"[*?\[]")


@dataclass(frozen=True, slots=True)
class Point:
    """What the figures need of one attempt."""

    group: str
    key: str  # the bug's matching key
    bug: str  # the bug as displayed
    condition: str | None
    repaired: bool | None
    ls: bool | None
    rr: int | None
    input: int | None
    output: int | None
    input_uncached: int | None
    cache_write: int | None
    cache_read: int | None

    @classmethod
    def of(cls, a: StudyAttempt) -> Point:
        """The attempt's numbers; tokens of 0 in and 0 out are taken as unknown (a run
        that called no model, or a record that had no token counts)."""
        known = bool(a.input_tokens or a.output_tokens)

        def tokens(value: int | None) -> int | None:
            return value if known else None

        return cls(
            a.group,
            a.key,
            a.bug,
            a.condition,
            a.repaired,
            a.ls,
            a.regression_reduction,
            tokens(a.input_tokens),
            tokens(a.output_tokens),
            tokens(a.input_uncached),
            tokens(a.cache_write),
            tokens(a.cache_read),
        )

    @property
    def outcome(self) -> str | None:
        return None if self.repaired is None else PASSING if self.repaired else FAILING


# Figure 8's panels: the kinds of input tokens.
TOKEN_KINDS: tuple[tuple[str, Callable[[Point], int | None]], ...] = (
    ("new input", lambda p: p.input_uncached),
    ("cache creation", lambda p: p.cache_write),
    ("cache read", lambda p: p.cache_read),
)


@dataclass(frozen=True)
class AgentsData:
    """The attempts as the Agents part uses them."""

    paths: tuple[str, ...]
    summary: StudySummary
    points: tuple[Point, ...]
    traits: Mapping[str, BugTraits]  # by bug key, from the developer patches' results


def expand_attempt_paths(patterns: Iterable[str | Path]) -> list[Path]:
    """Each path as given, or, for a pattern with `*`, `?` or `[` that names no file,
    the files it matches (sorted). A pattern that matches nothing is an input error."""
    found: list[Path] = []
    for pattern in patterns:
        text = str(pattern)
        if Path(text).exists() or not _GLOB.search(text):
            found.append(Path(text))
            continue
        matches = sorted(glob.glob(text))
        if not matches:
            raise HunkmetricsError(f"{text}: no attempts file matches this pattern")
        found.extend(Path(m) for m in matches)
    return found


def load_agents(attempts: Iterable[str | Path], results: str | Path) -> AgentsData:
    """Read the attempt files (globs expanded) and summarize them against the developer
    patches' results; input problems raise HunkmetricsError."""
    paths = expand_attempt_paths(attempts)
    traits = read_bug_traits(results)
    points: list[Point] = []

    def stream() -> Iterator[StudyAttempt]:
        for path in paths:
            if not path.is_file():
                raise HunkmetricsError(f"{path}: no such attempts file")
            for attempt in iter_attempts(path):
                if attempt.error is None:
                    points.append(Point.of(attempt))
                yield attempt

    summary = summarize(stream(), traits)
    return AgentsData(tuple(str(p) for p in paths), summary, tuple(points), traits)


def bug_anchors(keys: Iterable[str]) -> dict[str, str]:
    """An element id per bug key: `bug-` and the key with any character but letters,
    digits, `.`, `_` and `-` made `_` (a number added where two keys collide)."""
    anchors: dict[str, str] = {}
    used: set[str] = set()
    for key in sorted(set(keys)):
        base = BUG_ANCHOR + (re.sub(r"[^A-Za-z0-9._-]", "_", key) or "_")
        anchor, k = base, 1
        while anchor in used:
            k += 1
            anchor = f"{base}~{k}"
        used.add(anchor)
        anchors[key] = anchor
    return anchors


def class_label(traits: BugTraits | None) -> str:
    """A bug's proximity class as the figures show it."""
    if traits is None or traits.hunk_count is None:
        return NOT_CHARACTERIZED
    return traits.proximity or NO_CLASS


def labels_in_order(labels: Iterable[str]) -> list[str]:
    """Classes from the most compact, then *no class*, then *not in results*."""
    present = set(labels)
    known = class_order(present - {NOT_CHARACTERIZED})
    return known + ([NOT_CHARACTERIZED] if NOT_CHARACTERIZED in present else [])


def bug_names(data: AgentsData) -> dict[str, str]:
    """Every bug attempted, by key, with the name it is shown under, in table order."""
    shown_as: dict[str, str] = {}
    for p in data.points:
        shown_as.setdefault(p.key, p.bug)
    return dict(sorted(shown_as.items(), key=lambda item: (item[1], item[0])))


def table_anchors(data: AgentsData) -> dict[str, str]:
    """The anchors of the bugs the page's per-bug table shows (the first MAX_BUG_ROWS)."""
    return bug_anchors(list(bug_names(data))[:MAX_BUG_ROWS])
