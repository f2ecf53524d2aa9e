"""Lists of many items in one message line: how many, and the first few."""

from __future__ import annotations

from collections.abc import Iterable

SHOWN = 5  # items named when a list is cut
FULL_UP_TO = 12  # lists this long or shorter are given whole


def few(items: Iterable[object], *, sep: str = ",", shown: int = SHOWN) -> str:
    """`0,1,2` for a short list; for a long one the first `shown` items and the count,
    `0,1,2,3,4 … (2,995 more; 3,000 in all)`."""
    texts = [str(item) for item in items]
    if len(texts) <= max(FULL_UP_TO, shown):
        return sep.join(texts)
    return f"{sep.join(texts[:shown])} … ({len(texts) - shown:,} more; {len(texts):,} in all)"
