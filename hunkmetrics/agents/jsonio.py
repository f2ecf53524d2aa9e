"""Helpers every reader shares: JSON, JSONL and concatenated-JSON loading with line numbers,
timestamps, and typed access to loosely typed records."""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Callable, Iterator, Mapping
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path

from hunkmetrics.agents.draft import Draft
from hunkmetrics.agents.errors import TrajectoryError
from hunkmetrics.agents.shell import shell_of_argv
from hunkmetrics.inputfile import read_input

Record = dict[str, object]
_NON_SPACE = re.compile(r"\S")
_DECODER = json.JSONDecoder()
_TEXT_BLOCKS = ("text", "output_text", "input_text", "summary_text", "reasoning_text")


def read_text(path: Path) -> str:
    """The file decoded as strict UTF-8, without a leading byte order mark.

    Bytes cut off in the middle of a character at the very end of the file are a truncated
    write: they are dropped, and the reader then sees (and reports) a truncated last line.
    Invalid bytes anywhere else are an error naming the line: the file is damaged or not
    UTF-8, and replacing them would silently change commands and paths.
    """
    # A UTF-8 byte order mark (Windows PowerShell's `Out-File -Encoding utf8` writes one)
    # is no JSON; RFC 8259 lets a reader ignore it.
    data = read_input(path, "trajectory").removeprefix(b"\xef\xbb\xbf")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.reason == "unexpected end of data" and exc.end == len(data):
            return data[: exc.start].decode("utf-8", errors="strict")
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise TrajectoryError(
            path,
            f"not valid UTF-8: byte 0x{data[exc.start]:02x} at column {column} "
            f"({exc.reason}): damaged or not UTF-8, not a write cut off mid-character",
            line,
        ) from exc


class _LastFile(threading.local):
    """The last file read (and the document parsed from it), handed on once: format
    detection reads and parses a file and its reader would do it all again. One per
    thread: threads reading trajectories side by side (a harness's thread pool) would
    otherwise interleave the three fields and hand one file's text to another's read."""

    key: tuple[str, int, int, int] | None = None
    text: str = ""
    doc: object = None


_LAST = _LastFile()


def read_text_once(path: Path) -> str:
    """`read_text`, but a second read of an unchanged file (same size, mtime, inode)
    right after the first one returns the same text without reading it again."""
    try:
        st = os.stat(path)
    except OSError:
        return read_text(path)  # its error message
    key = (str(path), st.st_size, st.st_mtime_ns, st.st_ino)
    if _LAST.key == key:
        return _LAST.text
    text = read_text(path)
    _LAST.key, _LAST.text, _LAST.doc = key, text, None
    return text


def parse_document(text: str) -> object:
    """`json.loads(text)`, kept for `load_json` when `text` is the last file's text."""
    doc = json.loads(text)
    if text is _LAST.text:
        _LAST.doc = doc
    return doc


def load_json(path: Path, text: str | None = None) -> object:
    """One JSON document; a syntax error names its line."""
    text = read_text_once(path) if text is None else text
    if text is _LAST.text and _LAST.doc is not None:
        doc, _LAST.doc = _LAST.doc, None  # handed on once: nobody else holds it
        return doc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise TrajectoryError(path, f"malformed JSON: {exc.msg}", exc.lineno) from exc
    except RecursionError as exc:
        raise TrajectoryError(path, "JSON nested too deeply") from exc


def iter_jsonl(
    path: Path,
    draft: Draft,
    text: str | None = None,
    skip: Callable[[str], bool] | None = None,
) -> Iterator[tuple[int, Record]]:
    """(line number, object) per non-blank line. A bad last line is a truncated write: warn and
    stop. A bad line before the end is an error naming that line. A line before the last one
    for which `skip(line)` is true is passed over without being decoded."""
    text = read_text_once(path) if text is None else text
    # "\n" alone ends a line: str.splitlines would also split at U+2028 or U+0085,
    # which JSON strings hold as they are (Node's JSON.stringify writes them raw)
    lines = text.split("\n")
    last = max((i for i, line in enumerate(lines) if line.strip()), default=-1)
    decode = _DECODER.raw_decode  # json.loads without its two whitespace scans per line
    for i, line in enumerate(lines):
        line = line.strip()
        if not line or (skip is not None and i != last and skip(line)):
            continue
        try:
            value, end = decode(line)
            if end != len(line):
                raise json.JSONDecodeError("Extra data", line, end)
        except (json.JSONDecodeError, RecursionError) as exc:
            if i == last and i > 0:
                draft.warn(f"line {i + 1}: truncated last line ignored")
                return
            raise TrajectoryError(path, f"not a JSON line ({exc})", i + 1) from exc
        if not isinstance(value, dict):
            raise TrajectoryError(path, "expected a JSON object on each line", i + 1)
        yield i + 1, value


def iter_concatenated(
    path: Path, draft: Draft, text: str | None = None
) -> Iterator[tuple[int, Record]]:
    """Objects written one after another (pretty-printed, not one per line), as OpenTelemetry
    file exporters write them. A truncated last object is warned about and dropped."""
    text = read_text(path) if text is None else text
    decoder = json.JSONDecoder()
    pos, line, counted = 0, 1, 0
    while True:
        start = _NON_SPACE.search(text, pos)
        if start is None:
            return
        pos = start.start()
        line += text.count("\n", counted, pos)  # counted once: reading stays linear
        counted = pos
        try:
            value, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            if not text[pos:].lstrip().startswith("{") or _looks_complete(text, pos):
                raise TrajectoryError(path, f"malformed JSON: {exc.msg}", exc.lineno) from exc
            draft.warn(f"line {line}: truncated last object ignored")
            return
        if not isinstance(value, dict):
            raise TrajectoryError(path, "expected JSON objects", line)
        yield line, value
        pos = end


def _looks_complete(text: str, pos: int) -> bool:
    """True when another object starts after the bad one (so it is not just a cut-off tail)."""
    return "\n}\n{" in text[pos:] or "}{" in text[pos:]


def as_dict(value: object) -> Record:
    return value if isinstance(value, dict) else {}


def as_list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def as_str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def as_int(value: object) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value)
    if isinstance(value, str):
        try:
            return int(float(value))
        except ValueError:
            return 0
    return 0


def as_float(value: object) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def parse_time(value: object) -> datetime | None:
    """An ISO-8601 string (a trailing Z allowed) or a Unix time in seconds, as aware UTC."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            return datetime.fromtimestamp(float(value), UTC)
        except (OverflowError, OSError, ValueError):
            return None
    if isinstance(value, str) and value:
        return _parse_iso(value)
    return None


@lru_cache(maxsize=1024)
def _parse_iso(value: str) -> datetime | None:
    # Cached: logs stamp a call, its result and its usage with the same instant.
    try:
        stamp = datetime.fromisoformat(value)  # 3.11 reads a trailing Z itself
    except ValueError:
        try:
            stamp = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


def json_arguments(value: object, draft: Draft, where: str) -> dict[str, object]:
    """Tool arguments given as a JSON string (or already an object)."""
    if isinstance(value, dict):
        return value
    if isinstance(value, str):
        if not value.strip():
            return {}
        try:
            parsed = json.loads(value)
        except (json.JSONDecodeError, RecursionError):
            draft.warn(f"{where}: arguments are not JSON; kept as text")
            return {"raw": value}
        return parsed if isinstance(parsed, dict) else {"value": parsed}
    return {}


def shell_text(value: object) -> str | None:
    """A shell string from a `command` argument: a string, or an argv list (`bash -lc X` -> X)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return shell_of_argv([str(v) for v in value])
    return None


def content_text(value: object) -> str:
    """Text of a message content: a string, or a list of text blocks / parts."""
    if isinstance(value, str):
        return value
    parts: list[str] = []
    for item in as_list(value):
        if isinstance(item, str):
            parts.append(item)
        elif isinstance(item, Mapping):
            text = item.get("text")
            if isinstance(text, str) and item.get("type", "text") in _TEXT_BLOCKS:
                parts.append(text)
    return "\n".join(parts)
