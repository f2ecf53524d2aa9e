"""MAPLE's tools as plain functions over the repository index (no MCP here).

Every tool returns text for the model, or raises `MapleError` with a message that says
what exists instead."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

from rapidfuzz import fuzz, process

from ..errors import HunkmetricsError
from ..lang import Scope, default_languages
from ..lang.locate import locate_in_index
from ..patch.model import Hunk, Line, LineKind
from .budget import DEFAULT_BUDGET, MIN_BUDGET, fit
from .index import RepoIndex
from .names import NameTable, Symbol, simple_name
from .paths import MAX_ARGUMENT, UnsafePath, agent_path
from .references import TreeCache, find_references
from .render import (
    TreeListing,
    children,
    declaration_end,
    doc_start,
    numbered,
    skeleton,
)

__all__ = ["DEFAULT_BUDGET", "DEFAULT_MAX_RESULTS", "Cancelled", "Maple", "MapleError"]

DEFAULT_MAX_RESULTS = 10
_LISTED = 50  # hits beyond the full ones still listed one per line
_MEMBERS = 300  # members listed with a class
_TREE_LINES = 5000
_CONTEXT = 5
_CODE_LIMIT = 200  # a code search stops at this many hits
_T = TypeVar("_T")


class MapleError(HunkmetricsError):
    """A miss or a bad argument; the message is for the model."""


class Cancelled(MapleError):
    """The client cancelled the call (its answer is dropped)."""


@dataclass(frozen=True, slots=True)
class _CodeHit:
    path: str
    first: int
    last: int


class Maple:
    """The nine MAPLE tools and two extras over one `RepoIndex`."""

    def __init__(
        self,
        index: RepoIndex,
        max_results: int = DEFAULT_MAX_RESULTS,
        budget: int = DEFAULT_BUDGET,
    ) -> None:
        self.index = index
        self.max_results = max(1, max_results)
        self.budget = max(MIN_BUDGET, budget)  # characters per answer
        self._trees = TreeCache()
        # the directory tree of one list of paths (the index's, until a file comes or goes)
        self._tree: tuple[list[str], TreeListing] | None = None
        self._tree_lock = threading.Lock()
        self._tree_listing()  # built with the index, not on the first call
        self._stopped = threading.local()  # files a code search left when it stopped
        self._cancel = threading.local()  # the cancel flag of the call this thread runs

    @contextmanager
    def cancellable(self, flag: threading.Event) -> Iterator[None]:
        """Calls made in this thread meanwhile stop (`Cancelled`) soon after `flag` is
        set: a code search checks it before each file it reads."""
        previous = getattr(self._cancel, "flag", None)
        self._cancel.flag = flag
        try:
            yield
        finally:
            self._cancel.flag = previous

    # -- MAPLE's nine -------------------------------------------------------------

    def find_class(self, class_name: str) -> str:
        """Every class (interface, enum, record, nested or anonymous) with this name."""
        query = _argument(class_name, "class_name")
        hits = self._fresh(lambda: self._types(query))
        if not hits:
            raise MapleError(f"Could not find class {query!r}.{self._close_types(query)}")
        return self._report(
            f"class {query!r}", hits, self._class_block, "Qualify the name (com.acme.Foo)."
        )

    def find_class_in_file(self, class_name: str, file_name: str) -> str:
        """The classes with this name declared in the file(s) whose path ends with `file_name`."""
        query = _argument(class_name, "class_name")
        files = self._files(file_name)

        def hits() -> list[Symbol]:
            return [s for s in self._types(query) if s.path in files]

        found = self._fresh(hits)
        if not found:
            here = sorted({s.scope.name for p in files for s in self._symbols(p, "type")})
            hint = f" Classes in that file: {_names(here)}." if here else ""
            raise MapleError(f"Could not find class {query!r} in {file_name!r}.{hint}")
        return self._report(
            f"class {query!r} in {file_name!r}",
            found,
            self._class_block,
            "Give a longer file path.",
        )

    def find_method(self, method_name: str) -> str:
        """Every method or function with this name (all overloads), with its whole body."""
        query = _argument(method_name, "method_name")
        hits = self._fresh(lambda: self._callables(query))
        if not hits:
            raise MapleError(f"Could not find method {query!r}.{self._close_callables(query)}")
        return self._report(
            f"method {query!r}",
            hits,
            self._method_block,
            "Ask in a class (Class.method), a file, or with parameter types (m(String,int)).",
        )

    def find_method_in_class(self, method_name: str, class_name: str) -> str:
        """The methods with this name declared in classes with this name."""
        method = _argument(method_name, "method_name")
        klass = _argument(class_name, "class_name")

        def hits() -> list[Symbol]:
            owners = {s.scope.name for s in self._types(klass)}
            return [s for s in self._callables(method) if s.scope.owner in owners]

        found = self._fresh(hits)
        if found:
            return self._report(
                f"method {method!r} in class {klass!r}",
                found,
                self._method_block,
                "Qualify the class, or give parameter types (m(String,int)).",
            )
        classes = self._types(klass)
        if not classes:
            raise MapleError(f"Could not find class {klass!r}.{self._close_types(klass)}")
        owners = {s.scope.name for s in classes}
        members = sorted(
            {
                _member(s.scope)
                for p in {c.path for c in classes}
                for s in self._symbols(p, "callable")
                if s.scope.owner in owners
            }
        )
        hint = f" Its methods: {_names(members)}." if members else " It declares no methods."
        raise MapleError(f"Could not find method {method!r} in class {klass!r}.{hint}")

    def find_method_in_file(self, method_name: str, file_name: str) -> str:
        """The methods with this name declared in the file(s) whose path ends with `file_name`."""
        method = _argument(method_name, "method_name")
        files = self._files(file_name)
        found = self._fresh(lambda: [s for s in self._callables(method) if s.path in files])
        if not found:
            here = sorted({_member(s.scope) for p in files for s in self._symbols(p, "callable")})
            hint = f" Methods in that file: {_names(here)}." if here else ""
            raise MapleError(f"Could not find method {method!r} in {file_name!r}.{hint}")
        return self._report(
            f"method {method!r} in {file_name!r}",
            found,
            self._method_block,
            "Give parameter types (m(String,int)) or a longer file path.",
        )

    def find_code(self, code_snippet: str) -> str:
        """Where this code occurs (exact text, else ignoring indentation), with the class
        and method around it and five lines of context."""
        snippet = _snippet(code_snippet)
        hits = self._fresh(lambda: self._code_hits(snippet, None))
        if not hits:
            raise MapleError(
                f"Could not find the code {_short(snippet)!r} in {len(self.index.files)} files "
                "(exact text, then ignoring indentation). Try a shorter snippet, such as "
                "one line or one identifier."
            )
        return self._report(
            f"the code{self._stop_note()}",
            hits,
            self._code_block,
            "Give a longer snippet, or search in one file (maple_find_code_in_file).",
        )

    def find_code_in_file(self, code_snippet: str, file_name: str) -> str:
        """Where this code occurs in the file(s) whose path ends with `file_name`."""
        snippet = _snippet(code_snippet)
        files = self._files(file_name)
        hits = self._fresh(lambda: self._code_hits(snippet, files))
        if not hits:
            close = self._close_lines(snippet, files)
            raise MapleError(
                f"Could not find the code {_short(snippet)!r} in {file_name!r}.{close}"
            )
        return self._report(
            f"the code in {file_name!r}{self._stop_note()}",
            hits,
            self._code_block,
            "Give a longer snippet.",
        )

    def extract_class_skeleton(self, file_name: str) -> str:
        """The outline of a file: imports, types, fields and member signatures."""
        files = sorted(self._files(file_name))
        if len(files) > self.max_results:
            raise MapleError(
                f"{file_name!r} matches {len(files)} files; name one of them: {_names(files)}."
            )
        self.index.refresh(files)
        parts = []
        for path in files:
            if path not in self.index.files:
                continue
            record = self.index.files[path]
            indented = default_languages()[record.index.language].fragment == "indent"
            lines = self.index.lines(path)
            body = skeleton(record.index, lines, indented)
            parts.append(f"{path} ({record.index.language}, {len(lines)} lines)\n{body}")
        if not parts:
            raise MapleError(f"{file_name!r} is no longer in the repository.")
        return fit(
            "\n\n".join(parts),
            self.budget,
            "Ask for one class (maple_find_class_in_file) or method "
            "(maple_find_method_in_file) of the file.",
        )

    def repo_structure(self, max_depth: int = 100) -> str:
        """The directories and source files of the repository as a tree."""
        if isinstance(max_depth, bool) or not isinstance(max_depth, int) or max_depth < 1:
            raise MapleError("max_depth must be a whole number of at least 1.")
        self.index.ensure_current()
        depth = min(max_depth, 256)  # deeper than any tree: one entry for them all
        lines = list(self._tree_listing().lines(depth)[: _TREE_LINES + 1])
        head = f"{self.index.description}: {len(self.index.files)} source files"
        if len(lines) > _TREE_LINES:
            left = self._tree_count(depth) - _TREE_LINES
            lines = lines[:_TREE_LINES]
            lines.append(f"... {left} more entries not shown; pass a smaller max_depth.")
        return fit(head + "\n" + "\n".join(lines), self.budget, "Pass a smaller max_depth.")

    def _tree_listing(self) -> TreeListing:
        paths = self.index.ordered_paths()
        with self._tree_lock:
            held = self._tree
            if held is None or held[0] is not paths:
                held = self._tree = (paths, TreeListing(paths))
            return held[1]

    def _tree_count(self, depth: int) -> int:
        """How many entries the tree `depth` levels deep has."""
        return sum(1 for level in self._tree_listing().levels if level <= depth)

    # -- beyond MAPLE ---------------------------------------------------------------

    def find_references(self, name: str) -> str:
        """Call sites and other uses of an identifier (not its declarations)."""
        query = _argument(name, "name")
        bare = simple_name(query.split("(", 1)[0])
        if not re.fullmatch(r"[A-Za-z_$][\w$]*", bare):
            raise MapleError(f"{query!r} is not an identifier.")
        self.index.ensure_current()
        shown = self.max_results * 5
        result = find_references(self.index, bare, enough=shown, trees=self._trees)
        refs = result.found
        if not refs and not result.files_left:
            hint = self._close_callables(bare) or self._close_types(bare)
            raise MapleError(f"No references to {bare!r} found.{hint}")
        out = [f"{len(refs)} reference(s) to {bare!r} in {result.files_searched} file(s):"]
        for ref in refs[:shown]:
            where = self._where(ref.path, ref.line, ref.line)
            out.append(f"{ref.path}:{ref.line} [{ref.kind}]{where}\n    {ref.text.strip()}")
        if len(refs) > shown:
            out.append(f"... {len(refs) - shown} more in those files, not shown.")
        if result.files_left:
            out.append(
                f"... the search stopped there: {result.files_left} more file(s) hold the word "
                f"{result.occurrences_left} time(s) (uses, comments or strings; not checked). "
                "Ask for a rarer name, or use maple_find_code_in_file on one file."
            )
        return fit("\n".join(out), self.budget, "Ask for a rarer name.")

    def find_enclosing(self, file_name: str, line: int) -> str:
        """The class and method around one line of a file (as `hunkmetrics hunks`
        places a hunk there)."""
        files = sorted(self._files(file_name))
        if len(files) > 1:
            raise MapleError(f"{file_name!r} matches {len(files)} files: {', '.join(files)}.")
        path = files[0]
        self.index.refresh(files)
        record = self.index.files.get(path)
        if record is None:
            raise MapleError(f"{file_name!r} is no longer in the repository.")
        lines = self.index.lines(path)
        if isinstance(line, bool) or not isinstance(line, int) or not 1 <= line <= len(lines):
            raise MapleError(f"line must be between 1 and {len(lines)} for {path}.")
        text = lines[line - 1]
        hunk = Hunk(0, path, line, 1, line, 0, "", (Line(LineKind.REMOVED, text, line, None),))
        loc = locate_in_index(record.index, hunk, "source")
        span = f" (lines {loc.method_span[0]}-{loc.method_span[1]})" if loc.method_span else ""
        return "\n".join(
            [
                f"{path}:{line}",
                f"language: {loc.language}",
                f"package: {loc.package or '-'}",
                f"class: {loc.class_name or '-'}",
                f"method: {loc.method or '-'}{span}",
            ]
        )

    # -- lookups ------------------------------------------------------------------

    def _fresh(self, compute: Callable[[], list[_T]]) -> list[_T]:
        """Hits from a current index: rescan when due, and re-run the lookup when a
        file it answered from changed on disk since it was indexed."""
        self.index.ensure_current()
        hits = compute()
        if not hits and self.index.ensure_current(max_age=0.0):
            hits = compute()  # a miss rescans at once: the name may be in a fresh edit
        elif self.index.refresh({_path_of(h) for h in hits}):
            hits = compute()
        return hits

    def _types(self, query: str) -> list[Symbol]:
        """Types named `query`: as written (`$` is a legal character in a Java name, as in
        `Example$$Generated`), as a binary name (`Outer$Inner`, `Outer$1`), or as the
        binary name of a local class (`Outer$1Local`)."""
        found: dict[tuple[str, int, str], Symbol] = {}
        for name in _type_names(query):
            for symbol in self.index.names.types.get(simple_name(name), []):
                if _qualified_match(symbol.scope.qualifier, name):
                    found[(symbol.path, symbol.scope.start, symbol.scope.name)] = symbol
        local = _LOCAL_BINARY.fullmatch(_type_query(query))
        if local is not None:
            for symbol in self._local_types(local.group(1), int(local.group(2)), local.group(3)):
                found[(symbol.path, symbol.scope.start, symbol.scope.name)] = symbol
        return _sorted(list(found.values()))

    def _local_types(self, outer: str, number: int, name: str) -> list[Symbol]:
        """The local classes `javac` names `outer$<number><name>`: the number-th class
        called `name` declared inside a method of `outer`, in source order."""
        by_outer: dict[tuple[str, str], list[Symbol]] = {}
        for symbol in self.index.names.types.get(name, []):
            scope = symbol.scope
            record = self.index.files.get(symbol.path)
            if record is None:
                continue
            around = [s for s in record.enclosing(scope.start, scope.end) if s != scope]
            if not any(s.kind == "callable" for s in around):
                continue  # not local
            parent = next((s for s in reversed(around) if s.kind == "type"), None)
            if parent is not None and _qualified_match(parent.qualifier, outer):
                by_outer.setdefault((symbol.path, parent.qualifier), []).append(symbol)
        found = []
        for symbols in by_outer.values():
            symbols.sort(key=lambda s: s.scope.start)
            if number <= len(symbols):
                found.append(symbols[number - 1])
        return found

    def _callables(self, query: str) -> list[Symbol]:
        _, params = _method_query(query)
        raw = query.partition("(")[0].replace("::", ".").replace("#", ".")
        found: dict[tuple[str, int, str], Symbol] = {}
        for name in _type_names(raw):
            for symbol in self.index.names.callables.get(simple_name(name), []):
                if _qualified_match(symbol.scope.qualifier, name) and (
                    params is None or _params(symbol.scope) == params
                ):
                    found[(symbol.path, symbol.scope.start, symbol.scope.name)] = symbol
        return _sorted(list(found.values()))

    def _symbols(self, path: str, kind: str) -> list[Symbol]:
        record = self.index.files.get(path)
        if record is None:
            return []
        return [Symbol(path, s) for s in record.index.scopes if s.kind == kind]

    def _files(self, file_name: str) -> set[str]:
        if not isinstance(file_name, str):
            raise MapleError("file_name must be a string.")
        try:
            name = agent_path(self.index.root, file_name)
        except UnsafePath as exc:
            raise MapleError(f"{exc}.") from None
        self.index.ensure_current()
        found = _matching(name, self.index.files.keys())
        if not found and self.index.ensure_current(max_age=0.0):
            found = _matching(name, self.index.files.keys())  # a file created just now
        paths = self.index.files
        if not found:
            base = name.rsplit("/", 1)[-1]
            names = {p.rsplit("/", 1)[-1]: p for p in paths}
            close = process.extract(base, list(names), scorer=fuzz.ratio, limit=5)
            hint = ", ".join(names[c[0]] for c in close if c[1] >= 75)
            raise MapleError(
                f"No source file matches {file_name!r}." + (f" Close: {hint}." if hint else "")
            )
        return found

    def _code_hits(self, snippet: str, files: set[str] | None) -> list[_CodeHit]:
        """Where the snippet occurs, in the files that can hold it (the code-search
        index's candidates, or `files`): at most `_CODE_LIMIT` hits, the search stopping
        there (`self._stopped` then counts the files left unsearched)."""
        needle = snippet.encode("utf-8")
        if files is None:
            paths = self.index.code_candidates(needle)
        else:
            paths = sorted(files & self.index.files.keys())
        hits = self._scan(lambda data: _exact(data, needle), paths)
        if hits:
            return hits
        pattern = _loose(snippet)
        if pattern is None:
            return []
        # Only files holding the snippet's longest word can match: a fast test first.
        word = max(snippet.split(), key=len).encode("utf-8")
        return self._scan(lambda data: _regex(data, pattern) if word in data else [], paths)

    def _scan(
        self, find: Callable[[bytes], list[tuple[int, int]]], paths: list[str]
    ) -> list[_CodeHit]:
        hits: list[_CodeHit] = []
        self._stopped.value = 0
        flag: threading.Event | None = getattr(self._cancel, "flag", None)
        for done, path in enumerate(paths, 1):
            if flag is not None and flag.is_set():
                raise Cancelled(f"the call was cancelled after {done - 1} of {len(paths)} files")
            if path not in self.index.files:
                continue
            data = self.index.data(path, keep=False)
            found = find(data)
            if found:
                self.index.hold(path, data)  # its lines are shown; a like search finds it again
            for first, last in found[: _CODE_LIMIT - len(hits)]:
                hits.append(_CodeHit(path, first, last))
            if len(hits) >= _CODE_LIMIT:
                self._stopped.value = len(paths) - done
                break
        return hits

    # -- answers --------------------------------------------------------------------

    def _report(
        self, what: str, hits: Sequence[_T], block: Callable[[_T], str], narrow: str
    ) -> str:
        """The first `max_results` hits in full, the next ones a line each, the rest
        counted; all within the budget (a first block too long for it is cut)."""
        noun = "match" if len(hits) == 1 else "matches"
        out = [f"Found {len(hits)} {noun} for {what}."]
        used = len(out[0])
        reserve = 600  # room for the closing note
        shown = 0
        for hit in hits[: self.max_results]:
            text = f"\n[{shown + 1}] {block(hit)}"
            if used + len(text) + reserve > self.budget:
                if shown:
                    break
                text = fit(text, self.budget - used - reserve, narrow)
            out.append(text)
            used += len(text) + 1
            shown += 1
        rest = hits[shown:]
        listed: list[str] = []
        for hit in rest[:_LISTED]:
            line = f"- {self._line_of(hit)}"
            if used + len(line) + reserve > self.budget:
                break
            listed.append(line)
            used += len(line) + 1
        if listed:
            out.append(
                f"\n{len(listed)} more (not shown in full; raise --max-results or ask in a file):"
            )
            out.extend(listed)
        left = len(rest) - len(listed)
        if left > 0:
            out.append(f"... and {left} more not listed. {narrow}")
        return "\n".join(out)

    def _stop_note(self) -> str:
        left = int(getattr(self._stopped, "value", 0))
        if not left:
            return ""
        return (
            f" (the search stopped at {_CODE_LIMIT} matches; {left} more file(s) that may "
            "hold it were not searched)"
        )

    def _line_of(self, hit: object) -> str:
        if isinstance(hit, Symbol):
            first = doc_start(self.index.lines(hit.path), hit.scope)  # as its full block says
            return f"{hit.scope.name} in {hit.path} lines {first}-{hit.scope.end}"
        assert isinstance(hit, _CodeHit)
        return (
            f"{hit.path} lines {hit.first}-{hit.last}{self._where(hit.path, hit.first, hit.last)}"
        )

    def _class_block(self, symbol: Symbol) -> str:
        scope = symbol.scope
        lines = self.index.lines(symbol.path)
        record = self.index.files[symbol.path]
        indented = default_languages()[record.index.language].fragment == "indent"
        first = doc_start(lines, scope)
        head_end = declaration_end(lines, scope, indented)
        members = children(record.index, scope)
        listing = "\n".join(
            f"    {'class ' if m.kind == 'type' else ''}{_member(m)}  lines {m.start}-{m.end}"
            for m in members[:_MEMBERS]
        )
        if len(members) > _MEMBERS:
            listing += (
                f"\n    ... and {len(members) - _MEMBERS} more members not listed; ask for "
                "one with maple_find_method_in_class."
            )
        return (
            f"class {scope.name}\n"
            f"file: {symbol.path}, lines {first}-{scope.end}\n"
            "<code>\n" + "\n".join(lines[first - 1 : head_end]) + "\n</code>\n"
            f"members ({len(members)}):" + ("\n" + listing if listing else " none")
        )

    def _method_block(self, symbol: Symbol) -> str:
        scope = symbol.scope
        lines = self.index.lines(symbol.path)
        first = doc_start(lines, scope)
        owner = f"\nclass: {scope.owner}" if scope.owner else ""
        return (
            f"method {scope.name}\n"
            f"file: {symbol.path}, lines {first}-{scope.end}{owner}\n"
            "<code>\n" + "\n".join(lines[first - 1 : scope.end]) + "\n</code>"
        )

    def _code_block(self, hit: _CodeHit) -> str:
        lines = self.index.lines(hit.path)
        context = numbered(
            lines, hit.first - _CONTEXT, hit.last + _CONTEXT, range(hit.first, hit.last + 1)
        )
        span = f"line {hit.first}" if hit.first == hit.last else f"lines {hit.first}-{hit.last}"
        return f"{hit.path}, {span}{self._where(hit.path, hit.first, hit.last)}\n{context}"

    def _where(self, path: str, first: int, last: int) -> str:
        record = self.index.files.get(path)
        if record is None:
            return ""
        scopes = record.enclosing(first, last)
        klass = next((s.name for s in reversed(scopes) if s.kind == "type"), None)
        method = next((s.name for s in reversed(scopes) if s.kind == "callable"), None)
        parts = [f"class {klass}" if klass else "", f"method {method}" if method else ""]
        inside = ", ".join(p for p in parts if p)
        return f" (in {inside})" if inside else ""

    # -- suggestions ------------------------------------------------------------------

    def _close_types(self, query: str) -> str:
        return _suggest(simple_name(_type_query(query)), self.index.names.types, "Close classes")

    def _close_callables(self, query: str) -> str:
        name, _ = _method_query(query)
        bare = simple_name(name)
        found = self.index.names.callables.get(bare)
        if found:  # the name exists, only the class or parameters did not match
            return f" Methods named {bare!r}: {_names(sorted({s.scope.name for s in found}))}."
        return _suggest(bare, self.index.names.callables, "Close methods")

    def _close_lines(self, snippet: str, files: set[str]) -> str:
        first = snippet.strip().split("\n")[0].strip()
        out: list[str] = []
        for path in sorted(files):
            if path not in self.index.files:
                continue
            lines = self.index.lines(path)
            choices = {i: line.strip() for i, line in enumerate(lines, 1) if line.strip()}
            best = process.extract(first, choices, scorer=fuzz.ratio, limit=3, score_cutoff=50)
            out.extend(f"{path}:{number}: {text}" for text, _, number in best)
        return (" Closest lines:\n" + "\n".join(out)) if out else ""


def _matching(name: str, paths: Collection[str]) -> set[str]:
    """The paths `name` names: itself, else those ending with `/name`, else with `name`."""
    if name in paths:
        return {name}
    found = {p for p in paths if p.endswith("/" + name)}
    return found or {p for p in paths if p.endswith(name)}


def _names(names: Sequence[str], cap: int = 30) -> str:
    """Names for a hint, the first `cap` of them and how many more."""
    shown = ", ".join(names[:cap])
    return shown + (f" and {len(names) - cap} more" if len(names) > cap else "")


def _path_of(hit: object) -> str:
    if isinstance(hit, Symbol | _CodeHit):
        return hit.path
    raise TypeError(type(hit).__name__)


def _sorted(symbols: list[Symbol]) -> list[Symbol]:
    return sorted(symbols, key=lambda s: (s.path, s.scope.start, s.scope.depth))


def _argument(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise MapleError(f"{name} must be a string.")
    text = value.strip()
    if not text:
        raise MapleError(f"{name} is empty.")
    if "\0" in text:
        raise MapleError(f"{name} contains a NUL byte.")
    if len(text) > MAX_ARGUMENT:
        raise MapleError(f"{name} is longer than {MAX_ARGUMENT} characters.")
    return text


def _snippet(value: object) -> str:
    text = _argument(value, "code_snippet")
    return text


def _short(text: str) -> str:
    line = text.split("\n")[0]
    return line if len(line) <= 80 and "\n" not in text else line[:77] + "..."


_LOCAL_BINARY = re.compile(r"(.+)\$(\d+)([A-Za-z_][\w$]*)")


def _type_names(query: str) -> list[str]:
    """The names a type query may mean: as written, then with `$` read as nesting."""
    literal = re.sub(r"<.*>", "", query).strip().removesuffix(".java")
    nested = _type_query(query)
    return [literal] if literal == nested else [literal, nested]


def _type_query(query: str) -> str:
    """`Outer$Inner` → `Outer.Inner` (anonymous `Outer$1` kept); generics dropped."""
    name = re.sub(r"<.*>", "", query).strip().removesuffix(".java")
    return re.sub(r"\$(?=[A-Za-z_])", ".", name)


def _method_query(query: str) -> tuple[str, str | None]:
    """A method query's qualified name and its parameter list (None: any)."""
    name, paren, rest = query.partition("(")
    name = _type_query(name.replace("::", ".").replace("#", "."))
    if not paren:
        return name, None
    params = rest.rsplit(")", 1)[0]
    return name, re.sub(r"\s+", "", re.sub(r"<[^()]*>", "", params))


def _params(scope: Scope) -> str:
    return scope.name[len(scope.qualifier) + 1 : -1]


def _qualified_match(qualifier: str, name: str) -> bool:
    return qualifier == name or qualifier.endswith("." + name) or qualifier.endswith("$" + name)


def _member(scope: Scope) -> str:
    """A member's name inside its class: `add(String,int)`, or a nested class's name."""
    prefix = scope.qualifier.rsplit(".", 1)[0]
    return scope.name[len(prefix) + 1 :] if scope.name.startswith(prefix + ".") else scope.name


def _suggest(name: str, table: NameTable, label: str) -> str:
    close = process.extract(name, table.names(), scorer=fuzz.ratio, limit=8, score_cutoff=60)
    if not close:
        return ""
    shown = []
    for key, _, _ in close:
        symbols = table[key]
        where = symbols[0].scope.name + (f" (+{len(symbols) - 1})" if len(symbols) > 1 else "")
        shown.append(where)
    return f" {label}: {', '.join(shown)}."


class _LineCounter:
    """Line numbers of increasing offsets into one text, counted once from the last."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.offset = 0
        self.line = 1

    def at(self, offset: int) -> int:
        self.line += self.data.count(b"\n", self.offset, offset)
        self.offset = offset
        return self.line


def _exact(data: bytes, needle: bytes) -> list[tuple[int, int]]:
    out = []
    lines = _LineCounter(data)
    extra = needle.count(b"\n")
    start = data.find(needle)
    while start >= 0:
        first = lines.at(start)
        out.append((first, first + extra))
        start = data.find(needle, start + max(1, len(needle)))
    return out


_BLANKS = re.compile(r"[ \t]+")


def _loose(snippet: str) -> re.Pattern[bytes] | None:
    """The snippet with indentation and runs of spaces ignored (None when that changes nothing).
    Its lines end at "\n" (and "\r\n") and its words at spaces and tabs, as the pattern
    reads the files: not at U+2028, U+0085 or other Unicode spaces a string may hold."""
    lines = [line.strip(" \t\r") for line in snippet.split("\n") if line.strip(" \t\r")]
    if not lines:
        return None
    parts = [
        b"[ \t]+".join(re.escape(w.encode("utf-8")) for w in _BLANKS.split(line)) for line in lines
    ]
    return re.compile(rb"[ \t]*\r?\n[ \t]*".join(parts))


def _regex(data: bytes, pattern: re.Pattern[bytes]) -> list[tuple[int, int]]:
    out = []
    lines = _LineCounter(data)
    for match in pattern.finditer(data):
        first = lines.at(match.start())
        out.append((first, first + match.group().count(b"\n")))
    return out
