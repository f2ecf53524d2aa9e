"""A JSON array whose items are made as it is written, never all held at once."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

CHUNK = 1 << 16  # characters of JSON text written at a time


class JsonRows:
    """`count` items, made afresh by `items()` on each iteration. A document holding one
    is written by `cli/output.write_json` item by item; `json_chunks` gives the text
    `json.dumps(..., indent=2, ensure_ascii=False)` would write for the items inside
    the array's brackets."""

    def __init__(self, count: int, items: Callable[[], Iterator[Any]]) -> None:
        self._count = count
        self._items = items

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[Any]:
        return self._items()

    def json_chunks(self, indent: str = "") -> Iterator[str]:
        """Each item indented as at `indent` (the depth of the array's items), the items
        joined with `,\\n` + `indent`; some 64 KB of text a chunk."""
        newline = "\n" + indent
        pending: list[str] = []
        size = 0
        for number, item in enumerate(self):
            text = json.dumps(item, indent=2, ensure_ascii=False).replace("\n", newline)
            pending.append(text if number == 0 else "," + newline + text)
            size += len(text)
            if size >= CHUNK:
                yield "".join(pending)
                pending, size = [], 0
        if pending:
            yield "".join(pending)
