"""`--log FILE`: every tool call appended to a file as one JSON line (time, tool,
arguments, duration, result size, error)."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime
from pathlib import Path

__all__ = ["CallLog"]


class CallLog:
    """Appends one JSON object per call; safe to share between worker threads."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        path.parent.mkdir(parents=True, exist_ok=True)

    def write(
        self,
        tool: str,
        arguments: dict[str, object],
        seconds: float,
        result_chars: int,
        error: str | None,
    ) -> None:
        line = json.dumps(
            {
                "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
                "tool": tool,
                "arguments": arguments,
                "duration_ms": round(seconds * 1000, 3),
                "result_chars": result_chars,
                "error": error,
            },
            ensure_ascii=False,
        )
        with self._lock, self.path.open("a", encoding="utf-8") as handle:
            handle.write(line + "\n")
