"""Tool-sequence patterns (the study's Eq. 13 n-grams) counted over many attempts in
bounded memory: categories become small integer codes, buffered, and every window of
w codes is counted with numpy a million actions at a time."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np

__all__ = ["NgramCounter"]

_BASE = 256  # codes per position: a window of 5 fits in an int64 (256**5 = 2**40)
_SEPARATOR = -1  # between attempts: no window crosses it
_FLUSH_AT = 1_000_000


class NgramCounter:
    """Counts every window of `windows` consecutive categories over the sequences added,
    never across two sequences. `counts(w)` gives them as category tuples."""

    _FLUSH_AT = _FLUSH_AT  # buffered codes counted at once (tests make it small)

    def __init__(self, windows: Iterable[int] = (3, 4, 5)) -> None:
        self.windows = tuple(sorted(set(windows)))
        if not self.windows or self.windows[0] < 1 or self.windows[-1] > 7:
            raise ValueError("windows must be between 1 and 7")
        self._codes: dict[str, int] = {}
        self._names: list[str] = []
        self._buffer: list[int] = []
        self._counts: dict[int, Counter[int]] = {w: Counter() for w in self.windows}
        self._slow: dict[int, Counter[tuple[str, ...]]] | None = None

    def add(self, sequence: Sequence[str]) -> None:
        """Count the windows of one attempt's category sequence."""
        if self._slow is not None:
            self._add_slow(sequence)
            return
        codes = self._codes
        new = set(sequence).difference(codes)
        if new:
            if len(codes) + len(new) >= _BASE:  # too many categories for the fast path
                self._to_slow()
                self._add_slow(sequence)
                return
            for name in sorted(new):
                codes[name] = len(codes)
                self._names.append(name)
        self._buffer.extend(map(codes.__getitem__, sequence))
        self._buffer.append(_SEPARATOR)
        if len(self._buffer) >= self._FLUSH_AT:
            self._flush()

    def counts(self, window: int) -> Counter[tuple[str, ...]]:
        """Every window of `window` categories and how often it occurred."""
        if window not in self.windows:
            raise ValueError(f"window {window} was not counted (counted: {self.windows})")
        if self._slow is not None:
            return Counter(self._slow[window])
        self._flush()
        names = self._names
        out: Counter[tuple[str, ...]] = Counter()
        for code, n in self._counts[window].items():
            parts = []
            for _ in range(window):
                code, digit = divmod(code, _BASE)
                parts.append(names[digit])
            out[tuple(reversed(parts))] = n
        return out

    def _flush(self) -> None:
        if not self._buffer:
            return
        arr = np.asarray(self._buffer, dtype=np.int64)
        self._buffer = []
        breaks = np.concatenate(([0], np.cumsum(arr == _SEPARATOR)))
        for w in self.windows:
            if len(arr) < w:
                continue
            n = len(arr) - w + 1
            keys = np.zeros(n, dtype=np.int64)
            for i in range(w):
                keys = keys * _BASE + arr[i : i + n]
            clean = breaks[w : w + n] == breaks[:n]  # no separator inside the window
            values, counts = np.unique(keys[clean], return_counts=True)
            self._counts[w].update(dict(zip(values.tolist(), counts.tolist(), strict=True)))

    def _to_slow(self) -> None:
        slow: dict[int, Counter[tuple[str, ...]]] = {w: self.counts(w) for w in self.windows}
        self._slow = slow

    def _add_slow(self, sequence: Sequence[str]) -> None:
        assert self._slow is not None
        for w in self.windows:
            self._slow[w].update(tuple(sequence[i : i + w]) for i in range(len(sequence) - w + 1))
