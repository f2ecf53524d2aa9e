"""Lists of many items in one message line: how many, and the first few."""

from __future__ import annotations

from collections.abc import Iterable

SHOWN = 5  # items named when a list is cut
FULL_UP_TO = 12  # lists this long or shorter are given whole


class Few:
    """A list given one item at a time, said as `few` says it; only the items that may
    be named are kept, so a list of millions takes no more memory than one of twelve."""

    def __init__(self, *, sep: str = ",", shown: int = SHOWN) -> None:
        self.sep = sep
        self.shown = shown
        self.kept: list[str] = []
        self.count = 0

    def add(self, item: object) -> None:
        self.count += 1
        if len(self.kept) <= max(FULL_UP_TO, self.shown):
            self.kept.append(str(item))

    def __str__(self) -> str:
        if self.count <= max(FULL_UP_TO, self.shown):
            return self.sep.join(self.kept)
        return (
            f"{self.sep.join(self.kept[: self.shown])} … "
            f"({self.count - self.shown:,} more; {self.count:,} in all)"
        )


def few(items: Iterable[object], *, sep: str = ",", shown: int = SHOWN) -> str:
    """`0,1,2` for a short list; for a long one the first `shown` items and the count,
    `0,1,2,3,4 … (2,995 more; 3,000 in all)`."""
    listed = Few(sep=sep, shown=shown)
    for item in items:
        listed.add(item)
    return str(listed)
