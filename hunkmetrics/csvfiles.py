"""Opening a CSV file the way every reader of one here does: UTF-8 with or without a
byte-order mark, newlines left to the csv module, a failure as one HunkmetricsError."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from .errors import HunkmetricsError


def open_csv(path: Path, what: str = "") -> TextIO:
    """`path` open for `csv.reader`; `what` names it in the error (`the manifest`)."""
    try:
        return path.open(newline="", encoding="utf-8-sig")
    except OSError as exc:
        named = f" {what}" if what else ""
        raise HunkmetricsError(f"{path}: cannot read{named}: {exc.strerror or exc}") from None
