"""Results files: JSON Lines written so that no row is ever lost or corrupted, and the
one typed reader of them (`read_results`), used by export and report.

Each record is one complete line written with a single `os.write` on a file opened for
appending, so a killed run leaves at most one torn line at the very end. `resume=True`
removes such a torn tail, and any other line that is not a record, keeping every valid
line, and reports the ids already written."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, cast

from ..inputfile import open_input
from ..jsonvalues import as_bool, as_float, as_int, as_str
from ..lang.evidence import EVIDENCE_PATTERN, Basis, weakest


def encode_record(record: dict[str, Any]) -> bytes:
    """One record as one line of UTF-8 JSON (undecodable input bytes escaped)."""
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    return (text + "\n").encode("utf-8", "backslashreplace")


def _record_id(raw: bytes) -> str | None:
    """The id of a complete, valid record line, or None for a torn or foreign line."""
    if not raw.endswith(b"\n"):
        return None  # torn: the last line of a killed run
    try:
        record = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(record, dict) or record.get("id") is None:
        return None
    return str(record["id"])


def repair(path: Path) -> tuple[set[str], list[int]]:
    """Remove every line of `path` that is not a complete record, keeping all the others
    in order: (ids of the lines kept, 1-based numbers of the lines removed).

    The file is compacted in place (each kept line moved down over the removed ones,
    then the file cut), so an advisory lock on it stays valid. A kill during the repair
    can leave one fragment line and repeat some kept lines; a later repair removes the
    fragment, and readers keep one line per id."""
    ids: set[str] = set()
    bad: list[int] = []
    write_at = 0
    with path.open("rb") as reader, path.open("r+b") as writer:
        for number, raw in enumerate(reader, start=1):
            key = _record_id(raw)
            if key is None:
                bad.append(number)
                continue
            ids.add(key)
            if bad:  # a line was removed before this one: move it down
                writer.seek(write_at)
                writer.write(raw)
            write_at += len(raw)
        if bad:
            writer.truncate(write_at)
            writer.flush()
            os.fsync(writer.fileno())
    return ids, bad


class JsonlWriter:
    """Append-only JSON Lines writer. With `resume`, the ids already present are in
    `done_ids`, and every line that is not a complete record (a torn tail from a killed
    run, a damaged line anywhere) is removed, its number in `removed_lines` (so its item
    is done again) while every valid line is kept."""

    def __init__(self, path: str | Path, *, resume: bool = False) -> None:
        self.path = Path(path)
        self.done_ids: set[str] = set()
        self.removed_lines: list[int] = []
        if self.path.exists() and not resume and self.path.stat().st_size > 0:
            raise FileExistsError(
                f"{self.path} exists: use --resume to continue it, or choose another --out"
            )
        if resume and self.path.exists():
            self.done_ids, self.removed_lines = repair(self.path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)

    @property
    def repaired(self) -> int:
        """How many lines resuming removed."""
        return len(self.removed_lines)

    def repair_warnings(self, most: int = 10) -> list[str]:
        """One sentence per removed line (the first `most`), naming its line number."""
        out = [
            f"{self.path}: line {n} was not a complete record: removed, its item is redone"
            for n in self.removed_lines[:most]
        ]
        if len(self.removed_lines) > most:
            out.append(f"{self.path}: {len(self.removed_lines) - most} more such line(s) removed")
        return out

    def write(self, record: dict[str, Any]) -> None:
        """Write one whole record; it is in the file (the kernel's) when this returns."""
        data = encode_record(record)
        written = os.write(self._fd, data)
        while written < len(data):  # a short write (rare, e.g. a signal): finish it
            written += os.write(self._fd, data[written:])
        self.done_ids.add(str(record["id"]))

    def close(self) -> None:
        if self._fd >= 0:
            os.fsync(self._fd)
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> JsonlWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --------------------------------------------------------------------------- reading


def _open_results(path: Path, what: str) -> BinaryIO:
    return open_input(path, what)


def _raw_record(line: bytes) -> dict[str, object] | None:
    try:
        record = json.loads(line)
    except ValueError:
        return None
    if not isinstance(record, dict) or record.get("id") is None:
        return None
    return record


@dataclass(frozen=True)
class Line:
    """One non-blank line of a results file: its 1-based number, byte offset, and the
    record (None when it is not a JSON object with an id)."""

    number: int
    offset: int
    record: ResultRecord | None


def iter_results(path: str | Path, what: str = "file") -> Iterator[Line]:
    """Every non-blank line of a results file, parsed one at a time (memory bounded by
    the longest line). A file that cannot be read is a HunkmetricsError."""
    path = Path(path)
    with _open_results(path, what) as handle:
        offset = 0
        for number, line in enumerate(handle, start=1):
            at, offset = offset, offset + len(line)
            if not line.strip():
                continue
            yield Line(number, at, parse_line(line))


def parse_line(line: bytes) -> ResultRecord | None:
    """One line of a results file as its record, or None when it is not a record."""
    raw = _raw_record(line)
    return None if raw is None else parse_result(raw)


def _get(record: Mapping[str, object], *keys: str) -> object:
    value: object = record
    for key in keys:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def _count(value: object) -> int | None:
    return len(value) if isinstance(value, list) else None


def _weakest_evidence(hunks: object) -> str | None:
    """The least certain basis of each level over a record's hunks (`evidence` of each
    hunk, `package/class/method`), as one `package/class/method`; None without any."""
    if not isinstance(hunks, list):
        return None
    found = [
        h["evidence"].split("/")
        for h in hunks
        if isinstance(h, dict)
        and isinstance(h.get("evidence"), str)
        and re.fullmatch(EVIDENCE_PATTERN, h["evidence"])
    ]
    if not found:
        return None
    return "/".join(weakest(*(cast(Basis, level[k]) for level in found)) for k in range(3))


def _texts(value: object) -> tuple[str, ...] | None:
    """The strings of a list (other items skipped); None when it is not a list."""
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else None


@dataclass(frozen=True)
class DivergenceSummary:
    """`divergence` of a record: its value, the component means, and how many hunks the
    profile left out. Numbers as written (not checked to be finite)."""

    value: float | None = None
    lexical: float | None = None
    structural: float | None = None
    file: float | None = None
    excluded_hunks: int | None = None


@dataclass(frozen=True)
class ProximitySummary:
    """`proximity` of a record: the class (None: none, fewer than two hunks) and the
    counts it was decided on."""

    label: str | None = None
    files: int | None = None
    packages: int | None = None
    classes: int | None = None
    methods: int | None = None
    shared_package_depth: int | None = None
    located_by: str | None = None
    unplaced_hunks: int | None = None
    cutoff: int | None = None  # the Sprawl cutoff used (`config.cutoff` is the one asked for)


@dataclass(frozen=True)
class RunConfig:
    """`config` of a record: the settings it was computed with. `settings` holds every
    key but the fingerprint, as written (for showing them)."""

    profile: str | None = None
    cutoff: int | None = None
    distributed_weight: float | None = None
    hunking: str | None = None
    reverse: bool | None = None
    fingerprint: str | None = None
    settings: Mapping[str, object] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class CommitMeta:
    """What `mine` writes of a commit before its document."""

    commit: str
    parent: str | None = None
    summary: str | None = None
    date: str | None = None
    author: str | None = None
    repository: str | None = None  # the repository's name in the run


@dataclass(frozen=True)
class ResultRecord:
    """One line of a results file (`batch` or `mine`), typed. A field the line lacks,
    or holds with the wrong JSON type, is None; `error` is None exactly when the line's
    `error` is null or absent (a non-string error is given as its text)."""

    id: str
    error: str | None
    patch: str | None = None
    profile: str | None = None
    hunk_count: int | None = None
    divergence: DivergenceSummary = DivergenceSummary()
    proximity: ProximitySummary = ProximitySummary()
    source: str | None = None  # `source.description`
    source_side: str | None = None
    warnings: int | None = None  # how many
    warning_messages: tuple[str, ...] | None = None  # their text (items that are strings)
    config: RunConfig = RunConfig()
    tool_version: str | None = None
    commit: CommitMeta | None = None  # mine's records only
    evidence: str | None = None  # the least certain basis of each level over the hunks

    @property
    def ok(self) -> bool:
        return self.error is None


def parse_result(raw: Mapping[str, object]) -> ResultRecord:
    """A results line (a JSON object with an `id`) as a ResultRecord."""
    error = raw.get("error")
    config = raw.get("config")
    settings = (
        {str(k): v for k, v in config.items() if k != "fingerprint"}
        if isinstance(config, dict)
        else {}
    )
    commit = as_str(raw.get("commit"))
    return ResultRecord(
        id=str(raw["id"]),
        error=None if error is None else error if isinstance(error, str) else str(error),
        patch=as_str(raw.get("patch")),
        profile=as_str(raw.get("profile")),
        hunk_count=as_int(raw.get("hunk_count")),
        divergence=DivergenceSummary(
            value=as_float(_get(raw, "divergence", "value")),
            lexical=as_float(_get(raw, "divergence", "means", "lexical")),
            structural=as_float(_get(raw, "divergence", "means", "structural")),
            file=as_float(_get(raw, "divergence", "means", "file")),
            excluded_hunks=_count(_get(raw, "divergence", "excluded_hunks")),
        ),
        proximity=ProximitySummary(
            label=as_str(_get(raw, "proximity", "class")),
            files=as_int(_get(raw, "proximity", "files")),
            packages=as_int(_get(raw, "proximity", "packages")),
            classes=as_int(_get(raw, "proximity", "classes")),
            methods=as_int(_get(raw, "proximity", "methods")),
            shared_package_depth=as_int(_get(raw, "proximity", "shared_package_depth")),
            located_by=as_str(_get(raw, "proximity", "located_by")),
            unplaced_hunks=_count(_get(raw, "proximity", "unplaced_hunks")),
            cutoff=as_int(_get(raw, "proximity", "cutoff")),
        ),
        source=as_str(_get(raw, "source", "description")),
        source_side=as_str(_get(raw, "source", "side")),
        warnings=_count(raw.get("warnings")),
        warning_messages=_texts(raw.get("warnings")),
        config=RunConfig(
            profile=as_str(_get(raw, "config", "profile")),
            cutoff=as_int(_get(raw, "config", "cutoff")),
            distributed_weight=as_float(_get(raw, "config", "distributed_weight")),
            hunking=as_str(_get(raw, "config", "hunking")),
            reverse=as_bool(_get(raw, "config", "reverse")),
            fingerprint=as_str(_get(raw, "config", "fingerprint")),
            settings=settings,
        ),
        tool_version=as_str(_get(raw, "tool", "version")),
        commit=None
        if commit is None
        else CommitMeta(
            commit,
            parent=as_str(raw.get("parent")),
            summary=as_str(raw.get("summary")),
            date=as_str(raw.get("date")),
            author=as_str(raw.get("author")),
            repository=as_str(raw.get("repository")),
        ),
        evidence=_weakest_evidence(raw.get("hunks")),
    )


@dataclass(frozen=True)
class ResultsFile:
    """A results file read back: one record per id (the last line wins and takes the
    later place), in file order; lines that are not a JSON object with an id (a torn
    tail of a killed run, stray output) by 1-based number."""

    path: Path
    records: tuple[ResultRecord, ...]
    unreadable: tuple[int, ...] = ()
    duplicates: int = 0  # lines whose id appeared on an earlier line

    def by_id(self) -> dict[str, ResultRecord]:
        return {r.id: r for r in self.records}


def read_results(path: str | Path, what: str = "file") -> ResultsFile:
    """Read the JSON Lines written by `batch` or `mine`. A file that cannot be read is a
    HunkmetricsError (`what` names it in the one-line message); torn or foreign lines
    are counted, never fatal. Each line is reduced to its ResultRecord as it is read."""
    records: dict[str, ResultRecord] = {}
    unreadable: list[int] = []
    duplicates = 0
    for line in iter_results(path, what):
        if line.record is None:
            unreadable.append(line.number)
            continue
        if line.record.id in records:
            duplicates += 1
            del records[line.record.id]  # the last line wins and takes the later place
        records[line.record.id] = line.record
    return ResultsFile(Path(path), tuple(records.values()), tuple(unreadable), duplicates)


__all__ = [
    "CommitMeta",
    "DivergenceSummary",
    "JsonlWriter",
    "ProximitySummary",
    "ResultRecord",
    "ResultsFile",
    "RunConfig",
    "Line",
    "encode_record",
    "iter_results",
    "parse_line",
    "parse_result",
    "read_results",
]
