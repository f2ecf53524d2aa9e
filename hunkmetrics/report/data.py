"""Reading a batch run's `results.jsonl` and an optional outcomes CSV.

Both readers are forgiving about the results (a torn or foreign line is counted, not
fatal: the report says how many) and strict about the outcomes header (the one thing a
person typed by hand, so a wrong one is an input error with a one-line message)."""

from __future__ import annotations

import csv
import math
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..datasets.records import ResultRecord, iter_results
from ..errors import HunkmetricsError
from ..metrics.profiles import PROXIMITY_CLASSES

NO_CLASS = "no class"  # fewer than two hunks: the metrics define no proximity class

TRUE_WORDS = frozenset({"true", "1", "yes"})
FALSE_WORDS = frozenset({"false", "0", "no"})
OUTCOME_COLUMNS = ("id", "agent", "fixed")
OPTIONAL_OUTCOME_COLUMNS = ("localized",)


@dataclass(frozen=True)
class Metrics:
    """What the report shows of a characterized line (finite numbers only)."""

    hunk_count: int
    divergence: float
    lexical: float | None = None
    structural: float | None = None
    file: float | None = None
    proximity: str | None = None  # None: no class (fewer than two hunks)


@dataclass(frozen=True)
class Record:
    """One line of results.jsonl, reduced to what the report uses: `metrics` exactly
    when it has no error."""

    id: str
    error: str | None
    metrics: Metrics | None = None
    profile: str | None = None
    fingerprint: str | None = None
    config: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    version: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def _metrics(self) -> Metrics:
        if self.metrics is None:
            raise ValueError(f"{self.id} was not characterized: {self.error}")
        return self.metrics

    @property
    def hunk_count(self) -> int:
        """Of a characterized record (ValueError for an error line)."""
        return self._metrics().hunk_count

    @property
    def divergence(self) -> float:
        """Div(P) of a characterized record (ValueError for an error line)."""
        return self._metrics().divergence

    @property
    def lexical(self) -> float | None:
        return self.metrics.lexical if self.metrics is not None else None

    @property
    def structural(self) -> float | None:
        return self.metrics.structural if self.metrics is not None else None

    @property
    def file(self) -> float | None:
        return self.metrics.file if self.metrics is not None else None

    @property
    def proximity(self) -> str | None:
        return self.metrics.proximity if self.metrics is not None else None

    @property
    def label(self) -> str:
        """The proximity class as shown in the report."""
        return self.proximity or NO_CLASS


@dataclass
class Results:
    path: str
    records: list[Record]  # one per id (the last line wins), in file order
    unreadable: list[int] = field(default_factory=list)  # 1-based line numbers
    duplicates: int = 0  # lines whose id appeared before

    @property
    def ok(self) -> list[Record]:
        return [r for r in self.records if r.ok]

    @property
    def errors(self) -> list[Record]:
        return [r for r in self.records if not r.ok]

    @property
    def by_id(self) -> dict[str, Record]:
        return {r.id: r for r in self.records}

    def fingerprints(self) -> Counter[str]:
        return Counter(r.fingerprint or "unknown" for r in self.ok)

    def configs(self) -> dict[str, dict[str, Any]]:
        """Fingerprint → the settings it stands for (from the first record with it)."""
        found: dict[str, dict[str, Any]] = {}
        for r in self.ok:
            found.setdefault(r.fingerprint or "unknown", r.config)
        return found

    def profiles(self) -> Counter[str]:
        return Counter(r.profile or "unknown" for r in self.ok)

    def versions(self) -> Counter[str]:
        return Counter(r.version or "unknown" for r in self.ok)


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def parse_record(result: ResultRecord) -> Record:
    """A results line as the report's Record. A line without an error but without the
    metrics the report needs becomes an errored record that says what is missing."""
    common = Record(
        result.id,
        None,
        profile=result.profile or result.config.profile,
        fingerprint=result.config.fingerprint,
        config=dict(result.config.settings),
        version=result.tool_version,
    )
    if result.error is not None:
        return replace(common, error=result.error or "error (no message)")
    value = _finite(result.divergence.value)
    count = result.hunk_count
    if value is None or count is None:
        missing = [
            name
            for name, bad in (("divergence.value", value is None), ("hunk_count", count is None))
            if bad
        ]
        return replace(common, error=f"record has no {' or '.join(missing)}")
    metrics = Metrics(
        hunk_count=count,
        divergence=value,
        lexical=_finite(result.divergence.lexical),
        structural=_finite(result.divergence.structural),
        file=_finite(result.divergence.file),
        proximity=result.proximity.label or None,
    )
    return replace(common, metrics=metrics)


def load_results(path: str | Path) -> Results:
    """Read results.jsonl. A missing file is an input error; lines that are not a JSON
    object with an "id" (a torn tail of a killed run, stray output) are counted.

    Each line is reduced to the report's small Record as it is read (the documents are
    never held), and records with the same settings share one settings mapping."""
    records: dict[str, Record] = {}
    unreadable: list[int] = []
    duplicates = 0
    settings: dict[str, dict[str, Any]] = {}  # fingerprint → one shared settings dict
    for line in iter_results(path, "results file"):
        if line.record is None:
            unreadable.append(line.number)
            continue
        record = parse_record(line.record)
        if record.fingerprint is not None:
            shared = settings.setdefault(record.fingerprint, record.config)
            if shared == record.config:
                record = replace(record, config=shared)
        if record.id in records:
            duplicates += 1
            del records[record.id]  # the last line wins and takes the later place
        records[record.id] = record
    return Results(str(path), list(records.values()), unreadable, duplicates)


@dataclass(frozen=True)
class Outcome:
    """Whether one agent fixed one bug (and, when known, localized it)."""

    id: str
    agent: str
    fixed: bool
    localized: bool | None = None


@dataclass
class Outcomes:
    path: str
    rows: list[Outcome]  # one per (id, agent); the last line wins
    has_localized: bool
    duplicates: int = 0

    @property
    def agents(self) -> list[str]:
        return sorted({o.agent for o in self.rows})


def parse_bool(text: str) -> bool | None:
    """true/false/1/0/yes/no in any case → bool; anything else → None."""
    word = text.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    return None


def load_outcomes(path: str | Path) -> Outcomes:
    """Read an outcomes CSV with the header id,agent,fixed[,localized] (any order, any
    case, extra columns ignored). Any problem is an input error naming the line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise HunkmetricsError(f"{path}: no such outcomes file") from None
    except UnicodeDecodeError:
        raise HunkmetricsError(f"{path}: the outcomes CSV is not UTF-8 text") from None
    except OSError as exc:
        raise HunkmetricsError(f"{path}: cannot read: {exc.strerror}") from None
    reader = csv.reader(text.splitlines())
    header = next(reader, None)
    columns = [c.strip().lower() for c in header] if header else []
    missing = [c for c in OUTCOME_COLUMNS if c not in columns]
    if not header:
        raise HunkmetricsError(
            f"{path}: the outcomes header is missing (empty file): "
            "expected id,agent,fixed[,localized]"
        )
    if missing or len(set(columns)) != len(columns):
        problem = f"lacks {','.join(missing)}" if missing else "repeats a column"
        raise HunkmetricsError(
            f"{path}: the outcomes header {problem}: expected "
            f"id,agent,fixed[,localized], found {','.join(header)!r}"
        )
    at = {
        name: columns.index(name)
        for name in (*OUTCOME_COLUMNS, *OPTIONAL_OUTCOME_COLUMNS)
        if name in columns
    }
    has_localized = "localized" in at
    rows: dict[tuple[str, str], Outcome] = {}
    duplicates = 0
    for number, cells in enumerate(reader, start=2):
        if not any(c.strip() for c in cells):
            continue
        if len(cells) < len(columns):
            cells = cells + [""] * (len(columns) - len(cells))
        rid, agent = cells[at["id"]].strip(), cells[at["agent"]].strip()
        if not rid or not agent:
            raise HunkmetricsError(f"{path}:{number}: empty {'id' if not rid else 'agent'}")
        fixed = parse_bool(cells[at["fixed"]])
        if fixed is None:
            raise HunkmetricsError(
                f"{path}:{number}: fixed must be true/false/1/0/yes/no, "
                f"found {cells[at['fixed']].strip()!r}"
            )
        localized = None
        if has_localized and cells[at["localized"]].strip():
            localized = parse_bool(cells[at["localized"]])
            if localized is None:
                raise HunkmetricsError(
                    f"{path}:{number}: localized must be true/false/1/0/"
                    f"yes/no or empty, found "
                    f"{cells[at['localized']].strip()!r}"
                )
        if (rid, agent) in rows:
            duplicates += 1
            del rows[rid, agent]
        rows[rid, agent] = Outcome(rid, agent, fixed, localized)
    return Outcomes(str(path), list(rows.values()), has_localized, duplicates)


@dataclass(frozen=True)
class Trial:
    """One agent's attempt at one successfully characterized bug."""

    record: Record
    outcome: Outcome


@dataclass
class Joined:
    """Outcomes matched to results."""

    agents: list[str]
    trials: dict[str, list[Trial]]  # agent → its trials, in outcomes order
    missing_ids: list[str]  # outcome ids with no line in the results
    errored_ids: list[str]  # outcome ids whose results line is an error
    has_localized: bool
    duplicates: int = 0


def join(results: Results, outcomes: Outcomes) -> Joined:
    by_id = results.by_id
    trials: dict[str, list[Trial]] = {agent: [] for agent in outcomes.agents}
    missing: dict[str, None] = {}
    errored: dict[str, None] = {}
    for outcome in outcomes.rows:
        record = by_id.get(outcome.id)
        if record is None:
            missing[outcome.id] = None
        elif not record.ok:
            errored[outcome.id] = None
        else:
            trials[outcome.agent].append(Trial(record, outcome))
    return Joined(
        outcomes.agents,
        trials,
        list(missing),
        list(errored),
        outcomes.has_localized,
        outcomes.duplicates,
    )


def class_order(labels: set[str] | list[str]) -> list[str]:
    """The five classes from the most to the least compact, then any unknown label,
    then "no class"."""
    present = set(labels)
    known = [c for c in PROXIMITY_CLASSES if c in present]
    other = sorted(present - set(PROXIMITY_CLASSES) - {NO_CLASS})
    return known + other + ([NO_CLASS] if NO_CLASS in present else [])
