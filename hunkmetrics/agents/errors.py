"""The error a trajectory reader raises: one line naming the file and, when known, the line."""

from __future__ import annotations

from pathlib import Path

from hunkmetrics.errors import HunkmetricsError


class TrajectoryError(HunkmetricsError):
    """The file is not a trajectory any reader knows, or it is truncated or malformed."""

    def __init__(self, path: str | Path, message: str, line: int | None = None) -> None:
        self.path = str(path)
        self.line = line
        where = f"{self.path}:{line}" if line is not None else self.path
        super().__init__(f"{where}: {' '.join(message.split())}")
