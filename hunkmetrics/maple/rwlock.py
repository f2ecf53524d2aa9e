"""A readers-writer lock: tool calls read the index side by side; an update of the index
(a rescan, a re-indexed file) waits until no call reads it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["ReadWriteLock"]


class ReadWriteLock:
    """Many readers or one writer. Reads are reentrant in a thread, and a thread that
    reads may ask to write: its reads are let go while it writes, and taken back after
    (so what it read before may have changed). Readers go first: a writer waits for a
    moment without readers, so a long read never holds up another read."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._readers = 0
        self._writer: int | None = None  # the thread that writes
        self._depth = 0  # its nested writes
        self._local = threading.local()

    def _held(self) -> int:
        return int(getattr(self._local, "reads", 0))

    @contextmanager
    def read(self) -> Iterator[None]:
        me = threading.get_ident()
        with self._cond:
            if self._writer != me:
                while self._writer is not None:
                    self._cond.wait()
                self._readers += 1
        self._local.reads = self._held() + 1
        try:
            yield
        finally:
            self._local.reads = self._held() - 1
            with self._cond:
                if self._writer != me:
                    self._readers -= 1
                    self._cond.notify_all()

    @contextmanager
    def write(self) -> Iterator[None]:
        me = threading.get_ident()
        with self._cond:
            if self._writer == me:
                self._depth += 1
            else:
                held = self._held()
                self._readers -= held  # let this thread's reads go while it writes
                while self._writer is not None or self._readers:
                    self._cond.wait()
                self._writer = me
                self._depth = 1
                self._local.parked = held
        try:
            yield
        finally:
            with self._cond:
                self._depth -= 1
                if self._depth == 0:
                    self._writer = None
                    self._readers += int(getattr(self._local, "parked", 0))
                    self._local.parked = 0
                    self._cond.notify_all()
