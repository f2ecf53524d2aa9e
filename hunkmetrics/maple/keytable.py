"""Sorted byte-string keys, each with a run of numbers: the compact posting lists MAPLE's
index keeps (a word's files, a name's scopes) instead of a dict of Python lists.

The keys are one bytes object, `\\n` before each key and after the last, so a text
search over all of them is one `bytes.find`; a key is found by binary search. The
numbers are one array, held in memory or read from the section file run by run."""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Iterable, Mapping, Sequence

from .sections import Sections

__all__ = ["KeyTable", "NumberRuns", "number_type", "packed", "read_array"]


def number_type(largest: int) -> str:
    """The smallest array type code that holds numbers up to `largest`."""
    return "H" if largest < 1 << 16 else "I" if largest < 1 << 32 else "Q"


def packed(typecode: str, numbers: Iterable[int]) -> bytes:
    """Numbers as the bytes of an array of `typecode`."""
    return array(typecode, numbers).tobytes()


def read_array(sections: Sections, name: str, typecode: str) -> array[int]:
    """A whole section as an array of `typecode`, held in memory."""
    found = array(typecode)
    found.frombytes(sections.read(name))
    return found


class NumberRuns:
    """An array of numbers read slice by slice: from memory, or from a section file."""

    def __init__(self, sections: Sections, name: str, typecode: str, held: bool) -> None:
        self._typecode = typecode
        self._size = array(typecode).itemsize
        self._sections = sections
        self._name = name
        self._held: array[int] | None = None
        if held:
            self._held = read_array(sections, name, typecode)

    def slice(self, start: int, stop: int) -> array[int]:
        """Numbers start..stop."""
        if self._held is not None:
            return self._held[start:stop]
        found = array(self._typecode)
        found.frombytes(self._sections.read(self._name, start * self._size, stop * self._size))
        return found

    @property
    def nbytes(self) -> int:
        """The bytes it keeps in memory."""
        return 0 if self._held is None else len(self._held) * self._size


class _Keys(Sequence[bytes]):
    """The keys as a sequence, for `bisect`."""

    def __init__(self, text: bytes, key_at: array[int]) -> None:
        self.text = text
        self.key_at = key_at

    def __len__(self) -> int:
        return len(self.key_at) - 1

    def __getitem__(self, i: int) -> bytes:  # type: ignore[override]
        return self.text[self.key_at[i] + 1 : self.key_at[i + 1]]


class KeyTable:
    """Keys in byte order, each with its run of numbers (ascending as given)."""

    def __init__(self, sections: Sections, prefix: str, *, held: bool = True) -> None:
        """Open the table written under `prefix` (`write`); its numbers stay in the file
        unless `held`."""
        meta = sections.meta[prefix]
        self.text = sections.read(f"{prefix}.keys")
        # the keys in the order the runs were given, framed as `text`, read when asked
        self._given = f"{prefix}.given" if meta.get("given") else None
        self._sections = sections
        self._key_at = read_array(sections, f"{prefix}.key_at", meta["key_at"])
        self._run_at = read_array(sections, f"{prefix}.run_at", meta["run_at"])
        self.numbers = NumberRuns(sections, f"{prefix}.numbers", meta["numbers"], held)
        self._keys = _Keys(self.text, self._key_at)

    @staticmethod
    def write(
        prefix: str, runs: Mapping[bytes, Sequence[int]], *, keep_order: bool = False
    ) -> tuple[dict[str, object], dict[str, bytes]]:
        """The metadata and sections of a table of `runs` (keys holding no `\\n`), and
        with `keep_order` the keys in the order of `runs` too (`given_keys`)."""
        keys = sorted(runs)
        text = b"\n" + b"".join(key + b"\n" for key in keys)
        key_at = [0]
        run_at = [0]
        for key in keys:
            key_at.append(key_at[-1] + len(key) + 1)
            run_at.append(run_at[-1] + len(runs[key]))
        largest = max((max(run) for run in runs.values() if len(run)), default=0)
        types = {
            "key_at": number_type(key_at[-1]),
            "run_at": number_type(run_at[-1]),
            "numbers": number_type(largest),
        }
        numbers = array(types["numbers"])
        for key in keys:
            numbers.fromlist(list(runs[key]))
        sections = {
            f"{prefix}.keys": text,
            f"{prefix}.key_at": packed(types["key_at"], key_at),
            f"{prefix}.run_at": packed(types["run_at"], run_at),
            f"{prefix}.numbers": numbers.tobytes(),
        }
        meta: dict[str, object] = {**types, "given": keep_order}
        if keep_order:
            sections[f"{prefix}.given"] = b"\n" + b"".join(key + b"\n" for key in runs)
        return {prefix: meta}, sections

    def __len__(self) -> int:
        return len(self._keys)

    def find(self, key: bytes) -> int:
        """The key's place in the table, or -1."""
        at = bisect.bisect_left(self._keys, key)
        return at if at < len(self._keys) and self._keys[at] == key else -1

    def keys(self) -> list[bytes]:
        """Every key, in byte order."""
        found = self.text.split(b"\n")[1:-1]
        return found if len(found) == len(self) else list(self._keys)  # a key held a \\n

    def given_keys(self, encoding: str, errors: str) -> list[str]:
        """Every key decoded, in the order `write` was given them (when it kept it; else
        in byte order)."""
        text = self._sections.read(self._given) if self._given is not None else self.text
        found = text.decode(encoding, errors).split("\n")[1:-1]
        if len(found) == len(self):
            return found
        return [key.decode(encoding, errors) for key in self._keys]  # a key held a \\n

    def run(self, at: int) -> array[int]:
        """The numbers of the key at `at`."""
        return self.numbers.slice(self._run_at[at], self._run_at[at + 1])

    def get(self, key: bytes) -> array[int] | None:
        """The numbers of `key`, or None when it is not in the table."""
        at = self.find(key)
        return None if at < 0 else self.run(at)

    @property
    def nbytes(self) -> int:
        """The bytes it keeps in memory (about)."""
        held = len(self.text) + self.numbers.nbytes
        return held + sum(a.itemsize * len(a) for a in (self._key_at, self._run_at))
