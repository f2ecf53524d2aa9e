"""Tables the page offers as CSV files: the file is inside the link itself (a base64
`data:` URL with the `download` attribute), so the page stays one self-contained file
with no script."""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable, Sequence
from html import escape

from .agents_stats import csv_text

CSV_MEDIA = "data:text/csv;charset=utf-8;base64,"


def safe_filename(name: str) -> str:
    """A file name of letters, digits, `.`, `_` and `-` only (others become `_`)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "table"


def csv_link(name: str, header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A link that saves the table as `<name>.csv` (UTF-8, RFC 4180)."""
    data = base64.b64encode(csv_text(header, rows).encode("utf-8")).decode("ascii")
    filename = f"{safe_filename(name)}.csv"
    return (
        f'<a class="csv" download="{escape(filename)}" href="{CSV_MEDIA}{data}">'
        f"Download {escape(filename)}</a>"
    )


def decode_csv_href(href: str) -> str:
    """The CSV text a link's href holds (for checking the page)."""
    if not href.startswith(CSV_MEDIA):
        raise ValueError("not a CSV data URL")
    return base64.b64decode(href[len(CSV_MEDIA) :]).decode("utf-8")
