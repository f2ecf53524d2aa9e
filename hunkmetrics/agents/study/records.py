"""Attempt lines (`hunkmetrics/attempt/v1`, as `agents evaluate` and `agents
import-study` write them) read into typed records, one line at a time."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from hunkmetrics.agents.study.bugs import BugTraits
from hunkmetrics.agents.study.ids import bug_key, normalize_bug_id
from hunkmetrics.errors import HunkmetricsError
from hunkmetrics.inputfile import open_input
from hunkmetrics.jsonvalues import as_bool, as_dict, as_float, as_int, as_str

__all__ = ["HunkTouch", "StudyAttempt", "iter_attempts", "parse_attempt", "read_attempts"]

STUDY_IMPORT = "study-import"
EVALUATE = "evaluate"
NO_TOKENS = "none:"  # a `tokens.source` starting so: the counts are unknown, not zero


def _no_counts() -> Mapping[str, int]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class HunkTouch:
    """When an attempt first reached one developer hunk: the index of the first action
    that read its file, read or searched its method, and edited it (None: never)."""

    hunk: int
    read_file: int | None
    read_method: int | None
    edited: int | None


@dataclass(frozen=True, slots=True)
class StudyAttempt:
    """One attempt line, typed. A value the line lacks (or holds with the wrong JSON type)
    is None; `error` is set for a run that could not be evaluated (every measure None).

    `condition` is None for a plain run (`maple` for the study's MAPLE runs); `source` is
    `evaluate` or `study-import`. `sequence` is the category of every action in order
    when the line carries it; `shell_commands` is None when unknown (imported without
    per-action tables)."""

    id: str
    agent: str
    bug: str
    condition: str | None = None
    source: str = EVALUATE
    error: str | None = None
    ls: bool | None = None
    compiled: bool | None = None
    repaired: bool | None = None
    regression_reduction: int | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    input_uncached: int | None = None
    cache_read: int | None = None
    cache_write: int | None = None
    runtime_s: float | None = None
    tool_calls: int | None = None
    actions: int | None = None
    categories: Mapping[str, int] = field(default_factory=_no_counts)
    sequence: tuple[str, ...] | None = None
    native_tools: tuple[str, ...] = ()
    shell_commands: tuple[str, ...] | None = ()
    hunks: tuple[HunkTouch, ...] = ()
    # The developer patch's traits as the line gives them (`reference_traits`), or None.
    reference: BugTraits | None = None
    key: str = field(default="", compare=False)  # `bug_key(bug)`, filled in when empty

    def __post_init__(self) -> None:
        if not self.key:
            object.__setattr__(self, "key", bug_key(self.bug))  # once, not per table

    @property
    def group(self) -> str:
        """The row label of the tables: the agent, with the condition in brackets."""
        return self.agent if self.condition is None else f"{self.agent} [{self.condition}]"

    @property
    def outcome(self) -> str | None:
        """`passing` (repaired), `failing` (not repaired) or None (unknown)."""
        if self.repaired is None:
            return None
        return "passing" if self.repaired else "failing"


def _strings(value: object) -> tuple[str, ...] | None:
    """The strings of a JSON list (other items left out); None when it is not a list."""
    if not isinstance(value, list):
        return None
    if set(map(type, value)) <= {str}:  # the usual case, checked without a Python loop
        return tuple(value)
    return tuple(v for v in value if isinstance(v, str))


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _reach(value: object) -> int | None:
    return as_int(as_dict(value).get("action"))


def parse_attempt(raw: Mapping[str, object]) -> StudyAttempt:
    """One attempt line (a JSON object) as a StudyAttempt."""
    tokens = as_dict(raw.get("tokens"))
    categories: dict[str, int] = {}
    for item in _list(raw.get("categories")):
        entry = as_dict(item)
        name, count = as_str(entry.get("category")), as_int(entry.get("actions"))
        if name is not None and count is not None:
            categories[sys.intern(name)] = categories.get(name, 0) + count
    hunks = tuple(
        HunkTouch(
            as_int(h.get("hunk")) or 0,
            _reach(h.get("read_file")),
            _reach(h.get("read_method")),
            _reach(h.get("edited")),
        )
        for h in map(as_dict, _list(raw.get("hunks")))
    )
    source = as_str(raw.get("source")) or EVALUATE
    shell = _strings(raw.get("unique_shell_commands"))
    sequence = _strings(raw.get("sequence"))
    actions, calls = as_int(raw.get("actions")), as_int(raw.get("tool_calls"))
    if source == STUDY_IMPORT and sequence is None:
        shell = None  # the study's count files do not name the commands
        if not categories:
            actions = calls = None  # no count file for this bug: unknown, not 0
    error = raw.get("error")
    bug = normalize_bug_id(as_str(raw.get("bug")) or "")
    given = raw.get("reference_traits")
    reference = None
    if isinstance(given, dict):
        reference = BugTraits(
            bug,
            as_int(given.get("hunk_count")),
            as_float(given.get("divergence")),
            as_str(given.get("proximity")),
        )
    if (as_str(tokens.get("source")) or "").startswith(NO_TOKENS):
        tokens = {}  # the line says its tokens are unknown (its zeros are placeholders)
    return StudyAttempt(
        id=str(raw.get("id", "")),
        agent=as_str(raw.get("agent")) or "",
        bug=bug,
        condition=as_str(raw.get("condition")),
        source=source,
        error=None if error is None else str(error),
        ls=as_bool(raw.get("ls")),
        compiled=as_bool(raw.get("compiled")),
        repaired=as_bool(raw.get("repaired")),
        regression_reduction=as_int(raw.get("regression_reduction")),
        input_tokens=as_int(tokens.get("input")),
        output_tokens=as_int(tokens.get("output")),
        input_uncached=as_int(tokens.get("input_uncached")),
        cache_read=as_int(tokens.get("cache_read")),
        cache_write=as_int(tokens.get("cache_write")),
        runtime_s=as_float(as_dict(raw.get("runtime")).get("seconds")),
        tool_calls=calls,
        actions=actions,
        categories=MappingProxyType(categories),
        sequence=sequence,
        native_tools=_strings(raw.get("unique_native_tools")) or (),
        shell_commands=shell,
        hunks=hunks,
        reference=reference,
    )


def iter_attempts(path: str | Path) -> Iterator[StudyAttempt]:
    """Every attempt line of a file, parsed one at a time (memory bounded by the longest
    line). Blank lines are skipped; a line that is not a JSON object with an `id` and an
    `agent` is a HunkmetricsError naming its number, except a torn last line (a killed
    run), which is skipped."""
    p = Path(path)
    with open_input(p, "attempts") as handle:
        pending: tuple[int, bytes] | None = None
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            if pending is not None:
                yield _parse_line(p, *pending)
            pending = (number, line)
        if pending is not None:
            number, line = pending
            if line.endswith(b"\n") or _decodes(line):
                yield _parse_line(p, number, line)


def _decodes(line: bytes) -> bool:
    try:
        json.loads(line)
    except ValueError:
        return False
    return True


def _parse_line(path: Path, number: int, line: bytes) -> StudyAttempt:
    try:
        raw = json.loads(line)
    except ValueError:
        raise HunkmetricsError(f"{path}:{number}: not a JSON line") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("agent"), str) or "id" not in raw:
        raise HunkmetricsError(
            f"{path}:{number}: not an attempt line (no id or agent): attempt lines are what "
            "`agents evaluate` and `agents import-study` write (one trajectory: `agents actions`)"
        )
    return parse_attempt(raw)


def read_attempts(path: str | Path) -> list[StudyAttempt]:
    """Every attempt line of a file (`iter_attempts`), in order."""
    return list(iter_attempts(path))
