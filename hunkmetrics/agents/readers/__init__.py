"""Trajectory readers, one module per family of formats, and format detection.

`detect_format(path)` looks at a file's (or directory's) records: `schema_version`
"ATIF-v…" is ATIF; `trajectory_format` or
`messages` + `info` is mini-swe-agent; `trajectory` + `info` is SWE-agent; `type` + `payload`
(or bare response items) is a Codex rollout; `parentUuid`/`sessionId` lines are Claude Code
(`message.content`) or Qwen Code (`message.parts`, `usageMetadata`, `toolCallResult`,
`systemPayload`, Qwen's system subtypes); a `system` line that tells neither apart does not
decide, detection reads on. `attributes["event.name"]` is Gemini/Qwen telemetry; an events
directory (or its session folder), or a JSON array of V0 event dicts, is OpenHands V0; a
conversation folder with `base_state.json` (or a folder of them) is OpenHands V1; a zip is
an Inspect `.eval`; a folder with a Harbor `result.json` (or a job of them) is a Harbor
trial or job. `format=` overrides detection. A reader that understands nothing in the file
(no step at all) is an error naming the format; one that finds steps but no tool call warns.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hunkmetrics.agents.draft import Draft
from hunkmetrics.agents.errors import TrajectoryError
from hunkmetrics.agents.jsonio import Record, as_dict, as_str, parse_document, read_text_once
from hunkmetrics.agents.readers import codex  # its item types tell rollouts apart
from hunkmetrics.inputfile import open_input


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """Reader switches. `dedupe_usage=False` sums Claude usage over every line (the study)."""

    dedupe_usage: bool = True


Reader = Callable[[Path, ReadOptions], list[Draft]]


def _module(name: str) -> Any:
    """A reader module, imported on first use: a command reads one format, not all."""
    return importlib.import_module(f"{__name__}.{name}")


READERS: dict[str, Reader] = {
    "claude_session": lambda p, o: _module("claude").read_session(p, o.dedupe_usage),
    "claude_stream": lambda p, o: _module("claude").read_stream(p, o.dedupe_usage),
    "claude_json": lambda p, o: _module("claude").read_json(p, o.dedupe_usage),
    "codex_rollout": lambda p, o: codex.read(p),
    "gemini_telemetry": lambda p, o: _module("telemetry").read(p, "gemini_telemetry"),
    "qwen_telemetry": lambda p, o: _module("telemetry").read(p, "qwen_telemetry"),
    "gemini_chat": lambda p, o: _module("chat").read_gemini(p),
    "qwen_chat": lambda p, o: _module("chat").read_qwen(p),
    "swe_agent": lambda p, o: _module("swe_agent").read(p),
    "mini_swe_agent": lambda p, o: _module("mini_swe_agent").read(p),
    "openhands_events": lambda p, o: _module("openhands").read_events_dir(p),
    "openhands_output": lambda p, o: _module("openhands").read_output(p),
    "atif": lambda p, o: _module("atif").read(p),
    "openhands_v1": lambda p, o: _module("openhands_v1").read(p),
    "openhands_event_list": lambda p, o: _module("openhands").read_event_list(p),
    "inspect_log": lambda p, o: _module("inspect_log").read(p),
    "harbor_job": lambda p, o: _module("harbor_job").read(p),
}
FORMATS = tuple(READERS)
_CLAUDE_LINE_TYPES = frozenset(
    {
        "user",
        "assistant",
        "system",
        "summary",
        "file-history-snapshot",
        "queue-operation",
        "progress",
    }
)
_SCAN = 50
# Records that fit Claude and Qwen alike (a `system` line with uuid/parentUuid/sessionId) do
# not decide; detection looks this much further for a record that does.
_SCAN_AMBIGUOUS = 2000
# Subtypes of Qwen Code's `system` ChatRecords (packages/core/src/services/
# chatRecordingService.ts, `ChatRecord.subtype`); Claude's system lines use others
# (init, compact_boundary, local_command, api_error, informational, turn_duration, ...).
_QWEN_SYSTEM_SUBTYPES = frozenset(
    {
        "session_notes",
        "chat_compression",
        "slash_command",
        "ui_telemetry",
        "at_command",
        "attribution_snapshot",
        "notification",
        "background_task_completed",
        "cron",
        "mid_turn_user_message",
        "custom_title",
        "parent_session",
        "session_source",
        "session_execution_engine",
        "omni_recall",
        "session_model",
        "session_approval_mode",
        "rewind",
        "agent_bootstrap",
        "agent_launch_prompt",
        "agent_retry",
        "agent_session_ready",
        "file_history_snapshot",
        "user_text_elements",
        "session_artifact_event",
        "session_artifact_snapshot",
        "session_sources_snapshot",
        "branch_checkpoint",
        "goal_state",
        "goal_runtime",
        "goal_turn_end",
        "realtime_message",
        "turn_result",
    }
)
# Keys only Qwen Code's ChatRecords carry (Claude's lines have message.content,
# toolUseResult, userType instead).
_QWEN_KEYS = ("usageMetadata", "toolCallResult", "systemPayload")


def _is_openhands_event(item: object) -> bool:
    """A V0 event dict: an `action` or `observation` kind beside its `id`/`source`."""
    ev = as_dict(item)
    kind = ev.get("action", ev.get("observation"))
    return isinstance(kind, str) and ("source" in ev or "id" in ev)


def _document_format(doc: object) -> str | None:
    if isinstance(doc, list):
        first = as_dict(doc[0]) if doc else {}
        if "role" in first:
            return "mini_swe_agent"
        if doc and all(_is_openhands_event(e) for e in doc[:_SCAN]):
            return "openhands_event_list"
        if as_str(first.get("type")) in _CLAUDE_LINE_TYPES or first.get("type") == "result":
            return "claude_json"
        return None
    if not isinstance(doc, dict):
        return None
    if str(doc.get("schema_version", "")).startswith("ATIF-v"):
        return "atif"
    if isinstance(doc.get("eval"), dict) and "status" in doc and "version" in doc:
        return "inspect_log"
    if "trajectory_format" in doc or ("messages" in doc and "info" in doc):
        return "mini_swe_agent"
    if isinstance(doc.get("trajectory"), list):
        return "swe_agent"
    if doc.get("type") == "result":
        return "claude_json"
    if isinstance(doc.get("messages"), list) and ("projectHash" in doc or "sessionId" in doc):
        return "gemini_chat"
    return None


def _record_format(rec: Record) -> str | None:
    """The format one record of a multi-record file belongs to, when it tells."""
    kind = as_str(rec.get("type"))
    name = as_dict(rec.get("attributes")).get("event.name")
    if isinstance(name, str):
        if name.startswith("gemini_cli."):
            return "gemini_telemetry"
        if name.startswith("qwen-code."):
            return "qwen_telemetry"
        return None
    if "payload" in rec and isinstance(kind, str):
        return "codex_rollout"
    if kind in codex.ITEM_TYPES or "record_type" in rec or "instructions" in rec:
        return "codex_rollout"
    if "history" in rec and "instance_id" in rec:
        return "openhands_output"
    if kind == "tool_result" or "parts" in as_dict(rec.get("message")):
        return "qwen_chat"
    if kind in _CLAUDE_LINE_TYPES and any(k in rec for k in _QWEN_KEYS):
        return "qwen_chat"
    if kind == "system" and rec.get("subtype") in _QWEN_SYSTEM_SUBTYPES:
        return "qwen_chat"
    if kind == "gemini" or "projectHash" in rec:
        return "gemini_chat"
    if kind in ("assistant", "user", "system", "result") and "session_id" in rec:
        return "claude_stream"
    if kind in _CLAUDE_LINE_TYPES and ("parentUuid" in rec or "sessionId" in rec):
        return "claude_session"
    if kind in ("summary", "file-history-snapshot", "queue-operation"):
        return "claude_session"
    return None


def is_trajectory_dir(path: Path) -> bool:
    """A directory that is itself a run (or runs): an OpenHands V0 session or events
    folder, an OpenHands V1 conversation (or a folder of them), a Harbor trial or job."""
    if not path.is_dir():
        return False
    try:
        detect_format(path)
    except TrajectoryError:
        return False
    return True


def detect_format(path: str | Path) -> str:
    """The reader for a trajectory file or directory; `TrajectoryError` when none fits."""
    path = Path(path)
    if path.is_dir():
        if _module("harbor_job").trial_dirs(path):
            return "harbor_job"
        if _module("openhands_v1").conversation_dirs(path):
            return "openhands_v1"
        folder = path / "events" if (path / "events").is_dir() else path
        if any(f.stem.isdigit() for f in folder.glob("*.json")):
            return "openhands_events"
        raise TrajectoryError(path, "a directory, but not an OpenHands session (no events/)")
    with open_input(path, "trajectory") as handle:
        if handle.read(4) == b"PK\x03\x04":
            return "inspect_log"  # an Inspect `.eval`: the only zip a log can be
    text = read_text_once(path)
    if not text.strip():
        raise TrajectoryError(path, "empty file")
    try:
        doc = parse_document(text)
    except json.JSONDecodeError:
        doc = None
    except RecursionError as exc:
        raise TrajectoryError(path, "JSON nested too deeply") from exc
    if doc is not None:
        fmt = _document_format(doc)
        if fmt is None and isinstance(doc, dict):
            fmt = _record_format(doc)
        if fmt is None:
            raise TrajectoryError(path, "JSON, but no known trajectory format")
        return fmt
    decoder = json.JSONDecoder()
    pos, seen = 0, 0
    fallback: str | None = None
    while seen < (_SCAN if fallback is None else _SCAN_AMBIGUOUS):
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            break
        try:
            value, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            if seen == 0:
                raise TrajectoryError(
                    path, f"malformed or truncated JSON: {exc.msg}", exc.lineno
                ) from exc
            break
        seen += 1
        rec = as_dict(value)
        fmt = _record_format(rec)
        if fmt == "claude_session" and _ambiguous(rec):
            fallback = fallback or fmt
        elif fmt is not None:
            return fmt
    if fallback is not None:
        return fallback
    raise TrajectoryError(path, "no known trajectory format in the first records")


def _ambiguous(rec: Record) -> bool:
    """A Claude-looking record Qwen Code writes too: a `system` line (or any line without
    its message) that has no key telling the two apart."""
    if rec.get("type") not in ("system", "user", "assistant") or "session_id" in rec:
        return False
    if "uuid" not in rec and "parentUuid" not in rec:
        return False
    msg = rec.get("message")
    return not (isinstance(msg, dict) and ("content" in msg or "parts" in msg))


def read_drafts(
    path: str | Path, fmt: str | None = None, options: ReadOptions | None = None
) -> list[Draft]:
    """The drafts in a file (one, or one per row of an OpenHands output.jsonl)."""
    path = Path(path)
    if not path.exists():
        raise TrajectoryError(path, "no such file or directory")
    fmt = fmt or detect_format(path)
    reader = READERS.get(fmt)
    if reader is None:
        raise TrajectoryError(path, f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")
    drafts = reader(path, options or ReadOptions())
    if not drafts:
        raise TrajectoryError(path, f"read as {fmt}, but it holds no attempt")
    for i, draft in enumerate(drafts):
        _check_not_empty(path, fmt, draft, f"row {i}: " if len(drafts) > 1 else "")
    return drafts


def _check_not_empty(path: Path, fmt: str, draft: Draft, where: str) -> None:
    """No silent zeros. A step counts as understood when it holds a tool call or some text;
    with no such step and no totals (tokens, runtime, patch) the reader understood nothing
    (another format forced, or records this version does not know): an error naming the
    format. Totals without any step are a warning."""
    understood = any(s.calls or s.message or s.reasoning for s in draft.steps)
    if understood:
        return
    if draft.tokens.source or draft.runtime_s is not None or draft.patch is not None:
        draft.warn(f"{where}read as {fmt}: totals only, no message or tool call")
        return
    raise TrajectoryError(
        path,
        f"{where}read as {fmt}, but no message or tool call in it was understood "
        "(another format, or a version this reader does not know?)",
    )
