"""Scopes packed in columns: a few bytes of numbers per type or callable, its strings
stored once or as what they add to a shared one, each scope decoded alone on demand.

A qualifier is the string before its last dot (kept once in a table of strings: a
class's qualifier is shared by all its members) and the part after; a name that
extends its qualifier (`add(String,int)` after `com.acme.Inventory.add`) keeps only what
it adds; an owner is a string of the table."""

from __future__ import annotations

from typing import get_args

from ..lang import Scope
from ..lang.index import ScopeKind
from .keytable import KeyTable, number_type, packed, read_array
from .sections import Sections

__all__ = ["FIELDS", "ScopeColumns", "ScopeWriter"]

_KINDS: tuple[ScopeKind, ...] = get_args(ScopeKind)
_KIND_MASK = 3
_HEADER_ERROR = 4
_ANONYMOUS = 8
_EXTENDS = 16  # the name is the qualifier and what the text adds
_TEXT = ("utf-8", "surrogatepass")
# The fields stored (a test checks them against Scope's own).
FIELDS = (
    "kind",
    "name",
    "qualifier",
    "start",
    "end",
    "depth",
    "owner",
    "header_error",
    "anonymous",
)


class ScopeWriter:
    """Scopes added one by one (numbered from 0), and the types and callables by the last
    segment of their qualifier."""

    def __init__(self) -> None:
        self._strings: dict[str, int] = {}
        self._kinds = bytearray()
        self._numbers: dict[str, list[int]] = {
            name: [] for name in ("start", "end", "depth", "prefix", "owner")
        }
        self._text = bytearray()
        self._text_at = [0]
        self._names: dict[str, dict[bytes, list[int]]] = {"type": {}, "callable": {}}

    def __len__(self) -> int:
        return len(self._kinds)

    def add(self, scope: Scope) -> None:
        number = len(self._kinds)
        prefix, dot, tail = scope.qualifier.rpartition(".")
        extends = scope.name.startswith(scope.qualifier)
        rest = scope.name[len(scope.qualifier) :] if extends else scope.name
        self._kinds.append(
            _KINDS.index(scope.kind)
            | (_HEADER_ERROR if scope.header_error else 0)
            | (_ANONYMOUS if scope.anonymous else 0)
            | (_EXTENDS if extends else 0)
        )
        numbers = self._numbers
        numbers["start"].append(scope.start)
        numbers["end"].append(scope.end)
        numbers["depth"].append(scope.depth)
        numbers["prefix"].append(self._string(prefix) + 1 if dot else 0)
        numbers["owner"].append(self._string(scope.owner) + 1 if scope.owner is not None else 0)
        bare = tail.encode(*_TEXT)
        self._text += bare
        self._text_at.append(len(self._text))
        self._text += rest.encode(*_TEXT)
        self._text_at.append(len(self._text))
        table = self._names.get(scope.kind)
        if table is not None:
            table.setdefault(bare, []).append(number)

    def _string(self, text: str) -> int:
        found = self._strings.get(text)
        if found is None:
            found = self._strings[text] = len(self._strings)
        return found

    def sections(self) -> tuple[dict[str, object], dict[str, bytes]]:
        """The metadata and sections of the scopes added and of their names."""
        types: dict[str, str] = {}
        sections = {"scopes.kind": bytes(self._kinds), "scopes.text": bytes(self._text)}
        columns = {**self._numbers, "text_at": self._text_at}
        for name, values in columns.items():
            types[name] = number_type(max(values, default=0))
            sections[f"scopes.{name}"] = packed(types[name], values)
        strings = [s.encode(*_TEXT) for s in self._strings]
        string_at = [0]
        for text in strings:
            string_at.append(string_at[-1] + len(text))
        types["string_at"] = number_type(string_at[-1])
        sections["strings.text"] = b"".join(strings)
        sections["strings.at"] = packed(types["string_at"], string_at)
        meta: dict[str, object] = {"scopes": types}
        for kind, runs in self._names.items():
            table_meta, table_sections = KeyTable.write(f"names.{kind}", runs, keep_order=True)
            meta.update(table_meta)
            sections.update(table_sections)
        return meta, sections


class ScopeColumns:
    """The scopes of `ScopeWriter.sections`, each decoded when asked for."""

    def __init__(self, sections: Sections) -> None:
        types = sections.meta["scopes"]
        self._kinds = sections.read("scopes.kind")
        self._text = sections.read("scopes.text")
        self._strings = sections.read("strings.text")
        self._string_at = read_array(sections, "strings.at", types["string_at"])
        self._start = read_array(sections, "scopes.start", types["start"])
        self._end = read_array(sections, "scopes.end", types["end"])
        self._depth = read_array(sections, "scopes.depth", types["depth"])
        self._prefix = read_array(sections, "scopes.prefix", types["prefix"])
        self._owner = read_array(sections, "scopes.owner", types["owner"])
        self._text_at = read_array(sections, "scopes.text_at", types["text_at"])
        self.names = {kind: KeyTable(sections, f"names.{kind}") for kind in ("type", "callable")}

    def __len__(self) -> int:
        return len(self._kinds)

    def scope(self, number: int) -> Scope:
        flags = self._kinds[number]
        at = self._text_at
        tail = self._text[at[2 * number] : at[2 * number + 1]].decode(*_TEXT)
        rest = self._text[at[2 * number + 1] : at[2 * number + 2]].decode(*_TEXT)
        prefix = self._prefix[number]
        qualifier = self._string(prefix - 1) + "." + tail if prefix else tail
        owner = self._owner[number]
        return Scope(
            _KINDS[flags & _KIND_MASK],
            qualifier + rest if flags & _EXTENDS else rest,
            qualifier,
            self._start[number],
            self._end[number],
            self._depth[number],
            self._string(owner - 1) if owner else None,
            header_error=bool(flags & _HEADER_ERROR),
            anonymous=bool(flags & _ANONYMOUS),
        )

    def enclosing(self, numbers: range, first: int, last: int) -> list[Scope]:
        """Of scopes `numbers` (a file's), those whose span holds lines first..last,
        outermost first (as `FileIndex.enclosing`), only they decoded."""
        start, end, depth = self._start, self._end, self._depth
        found = [n for n in numbers if start[n] <= first and last <= end[n]]
        found.sort(key=lambda n: depth[n])
        return [self.scope(n) for n in found]

    def _string(self, number: int) -> str:
        at = self._string_at
        return self._strings[at[number] : at[number + 1]].decode(*_TEXT)

    @property
    def nbytes(self) -> int:
        """The bytes it keeps in memory (about)."""
        arrays = (self._string_at, self._start, self._end, self._depth, self._prefix)
        held = sum(a.itemsize * len(a) for a in (*arrays, self._owner, self._text_at))
        held += len(self._kinds) + len(self._text) + len(self._strings)
        return held + sum(table.nbytes for table in self.names.values())
