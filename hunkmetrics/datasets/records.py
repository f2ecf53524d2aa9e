"""JSON Lines output that never loses or corrupts a row.

Each record is one complete line written with a single `os.write` on a file opened for
appending, so a killed run leaves at most one torn line at the very end. `resume=True`
cuts such a torn tail off and reports the ids already written."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import HunkmetricsError


def encode_record(record: dict[str, Any]) -> bytes:
    """One record as one line of UTF-8 JSON (undecodable input bytes escaped)."""
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    return (text + "\n").encode("utf-8", "backslashreplace")


def scan(path: Path) -> tuple[set[str], int, int]:
    """(ids of complete valid lines, byte length of the valid prefix, lines dropped)."""
    ids: set[str] = set()
    valid_end = 0
    dropped = 0
    with path.open("rb") as handle:
        offset = 0
        for raw in handle:
            end = offset + len(raw)
            try:
                if not raw.endswith(b"\n"):
                    raise ValueError("torn line")
                record = json.loads(raw)
                if not isinstance(record, dict) or "id" not in record:
                    raise ValueError("not a record")
            except ValueError:
                dropped += 1
                break  # everything after a bad line is suspect: keep the valid prefix
            ids.add(str(record["id"]))
            valid_end = end
            offset = end
    if dropped == 0:
        return ids, valid_end, 0
    # Count what is cut off (the torn line and anything after it).
    with path.open("rb") as handle:
        handle.seek(valid_end)
        tail = handle.read()
    return ids, valid_end, max(1, tail.count(b"\n") + (0 if tail.endswith(b"\n") else 1))


class JsonlWriter:
    """Append-only JSON Lines writer. With `resume`, the ids already present are in
    `done_ids` and a torn tail from a killed run is truncated away (`repaired` lines)."""

    def __init__(self, path: str | Path, *, resume: bool = False) -> None:
        self.path = Path(path)
        self.done_ids: set[str] = set()
        self.repaired = 0
        if self.path.exists() and not resume and self.path.stat().st_size > 0:
            raise FileExistsError(
                f"{self.path} exists: use --resume to continue it, or choose another --out"
            )
        if resume and self.path.exists():
            self.done_ids, valid_end, self.repaired = scan(self.path)
            if valid_end < self.path.stat().st_size:
                os.truncate(self.path, valid_end)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)

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


@dataclass
class RecordFile:
    """The records of a JSON Lines file: one per id, the last line winning and taking
    the later place; lines that are not a JSON object with an id (a torn tail of a
    killed run, stray output) by 1-based number."""

    records: dict[str, dict[str, Any]] = field(default_factory=dict)
    unreadable: list[int] = field(default_factory=list)
    duplicates: int = 0  # lines whose id appeared on an earlier line


def read_records(path: str | Path, what: str = "file") -> RecordFile:
    """Read a batch's (or mine's) output for export and report; `what` names the file in
    the one-line errors."""
    path = Path(path)
    if path.is_dir():
        raise HunkmetricsError(f"{path}: is a directory, not a {what}")
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        raise HunkmetricsError(f"{path}: no such {what}") from None
    except OSError as exc:
        raise HunkmetricsError(f"{path}: cannot read: {exc.strerror}") from None
    result = RecordFile()
    with handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError:
                record = None
            if not isinstance(record, dict) or record.get("id") is None:
                result.unreadable.append(number)
                continue
            key = str(record["id"])
            if key in result.records:
                result.duplicates += 1
                del result.records[key]
            result.records[key] = record
    return result
