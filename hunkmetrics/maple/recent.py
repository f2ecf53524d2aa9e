"""The most recently used values, within a budget of their sizes: how MAPLE keeps file
texts and lines it read lately without letting them grow with the repository."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

__all__ = ["Recent"]

_Value = TypeVar("_Value")


class Recent(Generic[_Value]):
    """Values by key, each with a tag (a blob: a value of an older tag is not given) and
    a size; the least recently used go once the sizes pass the budget (the last one put
    stays, whatever its size)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.held = 0  # the sizes of the values kept
        self._values: OrderedDict[str, tuple[str, _Value, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str, tag: str) -> _Value | None:
        with self._lock:
            found = self._values.get(key)
            if found is None or found[0] != tag:
                return None
            self._values.move_to_end(key)
            return found[1]

    def put(self, key: str, tag: str, value: _Value, size: int) -> None:
        with self._lock:
            self._pop(key)
            self._values[key] = (tag, value, size)
            self.held += size
            while self.held > self.budget and len(self._values) > 1:
                self.held -= self._values.popitem(last=False)[1][2]

    def forget(self, key: str) -> None:
        with self._lock:
            self._pop(key)

    def _pop(self, key: str) -> None:
        old = self._values.pop(key, None)
        if old is not None:
            self.held -= old[2]

    def __len__(self) -> int:
        return len(self._values)
