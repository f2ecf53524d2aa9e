"""`--style study`: the answers in the format of the study's own MAPLE server
(agentic-se/agentic-multihunk-repair, `progctx-mcp/`), read from our index.

What carries over from the original: the envelope (`✅/❌ Tool: … / Status: … / Summary:
… / Result:`, never an MCP error), the `<file>/<class>/<method>/<code>` tags, at most 3
results in full and the rest counted per file, lookups by exact simple name over Java
files, `maple_repo_structure`'s depth (0: the top level), its texts for hits and misses.
What does not (see docs/maple.md): spans are exact, not guessed."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

from .names import Symbol
from .paths import UnsafePath, agent_path
from .render import TreeListing, skeleton
from .tools import Maple

__all__ = ["SHOWN", "Answer", "StudyMaple", "envelope"]

SHOWN = 3  # results shown in full, as the original's RESULT_SHOW_LIMIT
Answer = tuple[str, str, bool]  # (result, summary, success), as the original's manager


@dataclass(frozen=True, slots=True)
class _Hit:
    path: str
    klass: str | None
    method: str | None
    code: str

    def tagged(self) -> str:
        head = f"<file>{self.path}</file>"
        if self.klass:
            head += f"\n<class>{self.klass}</class>"
        if self.method:
            head += f" <method>{self.method}</method>"
        return f"{head}\n<code>\n{self.code}\n</code>"


def _listed(hits: Sequence[_Hit]) -> str:
    return "".join(f"- Search result {i}:\n```\n{h.tagged()}\n```\n" for i, h in enumerate(hits, 1))


def _per_file(hits: Sequence[_Hit]) -> str:
    counts: dict[str, int] = {}
    for hit in hits:
        counts[hit.path] = counts.get(hit.path, 0) + 1
    return "".join(f"- <file>{p}</file> ({n} matches)\n" for p, n in counts.items())


def _per_method(hits: Sequence[_Hit]) -> str:
    counts: dict[tuple[str, str | None], int] = {}
    for hit in hits:
        counts[(hit.path, hit.method)] = counts.get((hit.path, hit.method), 0) + 1
    return "".join(
        f"- <file>{p}</file>{f' <method>{m}</method>' if m else 'Not in a method'} ({n} matches)\n"
        for (p, m), n in counts.items()
    )


def envelope(tool: str, answer: Answer) -> str:
    """The original's reply around a result: success or failure, never an MCP error."""
    result, summary, success = answer
    head = (
        f"{'✅' if success else '❌'} Tool: {tool}\nStatus: {'SUCCESS' if success else 'FAILED'}\n"
    )
    head += f"Summary: {summary}\n\n"
    if not success:
        return head + f"Error: {result}"
    if tool == "maple_repo_structure":
        return head + f"Repository Structure:\n```\n{result}\n```"
    return head + f"Result:\n{result}"


def _fail(text: str, summary: str | None = None) -> Answer:
    return text, summary if summary is not None else text, False


class StudyMaple:
    """The nine tools answering as the study's server did, from `maple`'s index."""

    def __init__(self, maple: Maple) -> None:
        self.maple = maple
        self.index = maple.index
        # the tree of the Java files and their count of classes, for one generation
        self._tree: tuple[int, TreeListing, int, int] | None = None
        self._tree_lock = threading.Lock()
        self._java_tree()  # built with the server, not on the first call

    # -- lookups as the original made them: exact simple names, Java files only ----------

    def _java(self, path: str) -> bool:
        return path.endswith(".java")

    def _classes(self, name: str) -> list[Symbol]:
        found = [
            s
            for s in self.index.names.types.get(name, [])
            if self._java(s.path) and not s.scope.anonymous and s.bare == name
        ]
        return sorted(found, key=lambda s: (s.path, s.scope.start))

    def _methods(self, name: str, owner: str | None = None) -> list[Symbol]:
        found = [
            s
            for s in self.index.names.callables.get(name, [])
            if self._java(s.path)
            and (owner is None or (s.scope.owner or "").rsplit(".", 1)[-1] == owner)
        ]
        return sorted(found, key=lambda s: (s.path, s.scope.start))

    def _files(self, file_name: str) -> list[str]:
        try:
            name = agent_path(self.index.root, file_name)
        except UnsafePath:
            return []
        return [p for p in self.index.ordered_paths() if self._java(p) and p.endswith(name)]

    def _class_hit(self, symbol: Symbol) -> _Hit:
        lines = self.index.lines(symbol.path)
        last = symbol.scope.start
        while last < len(lines) and "{" not in lines[last - 1]:
            last += 1
        code = "\n".join(lines[symbol.scope.start - 1 : last])
        return _Hit(symbol.path, symbol.bare, None, code)

    def _method_hit(self, symbol: Symbol) -> _Hit:
        lines = self.index.lines(symbol.path)
        code = "\n".join(lines[symbol.scope.start - 1 : symbol.scope.end]) + "\n"
        owner = (symbol.scope.owner or "").rsplit(".", 1)[-1] or None
        return _Hit(symbol.path, owner, symbol.bare, code)

    # -- the nine tools ---------------------------------------------------------------

    def find_class(self, class_name: str) -> Answer:
        found = self._classes(class_name)
        if not found:
            return _fail(
                f"Could not find class {class_name} in the codebase.",
                f"Class {class_name} did not appear in the codebase.",
            )
        hits = [self._class_hit(s) for s in found]
        out = f"Found {len(hits)} classes with name {class_name} in the codebase:\n\n"
        if len(hits) > SHOWN:
            out += "They appeared in the following files:\n" + _per_file(hits)
        else:
            out += _listed(hits)
        return out, f"The tool returned information about class `{class_name}`.", True

    def find_class_in_file(self, class_name: str, file_name: str) -> Answer:
        files = set(self._files(file_name))
        if not files:
            return _fail(f"Could not find file {file_name} in the codebase.")
        found = self._classes(class_name)
        if not found:
            return _fail(f"Could not find class {class_name} in the codebase.")
        hits = [self._class_hit(s) for s in found if s.path in files]
        if not hits:
            return _fail(f"Could not find class {class_name} in file {file_name}.")
        head = f"Found {len(hits)} classes with name {class_name} in file {file_name}:\n\n"
        return head + _listed(hits), head, True

    def find_method(self, method_name: str) -> Answer:
        hits = [self._method_hit(s) for s in self._methods(method_name)]
        if not hits:
            return _fail(f"Could not find method {method_name} in the codebase.")
        head = f"Found {len(hits)} methods with name {method_name} in the codebase:\n\n"
        if len(hits) > SHOWN:
            return head + "They appeared in the following files:\n" + _per_file(hits), head, True
        return head + _listed(hits), head, True

    def find_method_in_class(self, method_name: str, class_name: str) -> Answer:
        if not self._classes(class_name):
            return _fail(f"Could not find class {class_name} in the codebase.")
        hits = [self._method_hit(s) for s in self._methods(method_name, class_name)]
        if not hits:
            return _fail(f"Could not find method {method_name} in class {class_name}.")
        head = f"Found {len(hits)} methods with name {method_name} in class {class_name}:\n\n"
        out = head
        if len(hits) > SHOWN:
            out += (
                f"Too many results, showing full code for {SHOWN} of them, "
                "and the rest just file names:\n"
            )
        out += _listed(hits[:SHOWN])
        if hits[SHOWN:]:
            out += "Other results are in these files:\n" + _per_file(hits[SHOWN:])
        return out, head, True

    def find_method_in_file(self, method_name: str, file_name: str) -> Answer:
        files = set(self._files(file_name))
        if not files:
            return _fail(f"Could not find file {file_name} in the codebase.")
        found = self._methods(method_name)
        if not found:
            return _fail(f"The method {method_name} does not appear in the codebase.")
        hits = [self._method_hit(s) for s in found if s.path in files]
        if not hits:
            return _fail(f"There is no method with name `{method_name}` in file {file_name}.")
        head = f"Found {len(hits)} methods with name `{method_name}` in file {file_name}:\n\n"
        return head + _listed(hits), head, True

    def _code(self, snippet: str, paths: Sequence[str]) -> list[_Hit]:
        needle = snippet.encode("utf-8")
        hits: list[_Hit] = []
        for path in paths:
            data = self.index.data(path, keep=False)
            at = data.find(needle) if needle else -1
            while at >= 0:
                row = data.count(b"\n", 0, at)  # 0-based, as the original counted
                lines = self.index.lines(path)
                code = "\n".join(lines[max(0, row - 5) : row + 6])
                record = self.index.files[path]
                around = record.enclosing(row, row) if row >= 1 else []
                klass = next((s for s in reversed(around) if s.kind == "type"), None)
                method = next((s for s in reversed(around) if s.kind == "callable"), None)
                hits.append(
                    _Hit(
                        path,
                        klass.qualifier.rsplit(".", 1)[-1] if klass and method else None,
                        method.qualifier.rsplit(".", 1)[-1] if method else None,
                        code,
                    )
                )
                at = data.find(needle, at + len(needle))
        return hits

    def find_code(self, code_snippet: str) -> Answer:
        paths = [p for p in self.index.code_candidates(code_snippet.encode()) if self._java(p)]
        hits = self._code(code_snippet, paths)
        if not hits:
            return _fail(f"Could not find code {code_snippet} in the codebase.")
        head = f"Found {len(hits)} snippets containing `{code_snippet}` in the codebase:\n\n"
        if len(hits) > SHOWN:
            return head + "They appeared in the following files:\n" + _per_file(hits), head, True
        return head + _listed(hits), head, True

    def find_code_in_file(self, code_snippet: str, file_name: str) -> Answer:
        snippet = code_snippet.removesuffix(")")  # as the original did
        files = self._files(file_name)
        if not files:
            return _fail(f"Could not find file {file_name} in the codebase.")
        hits = self._code(snippet, files)
        if not hits:
            return _fail(f"Could not find code {snippet} in file {file_name}.")
        head = f"Found {len(hits)} snippets with code {snippet} in file {file_name}:\n\n"
        if len(hits) > SHOWN:
            return (
                head + "They appeared in the following methods:\n" + _per_method(hits),
                head,
                True,
            )
        return head + _listed(hits), head, True

    def extract_class_skeleton(self, file_name: str) -> Answer:
        files = self._files(file_name)
        if not files:
            return _fail(f"Could not find file {file_name} in the codebase.")
        path = files[0]  # the first match, as the original took
        record = self.index.files[path]
        body = skeleton(record.index, self.index.lines(path), False)
        text = "\n".join(
            line.split(": ", 1)[1] if ": " in line else line for line in body.splitlines()
        )
        out = f"Class skeleton extracted from {file_name}:\n\n```java\n{text}\n```"
        return out, f"Successfully extracted class skeleton from {file_name}", True

    def _java_tree(self) -> tuple[TreeListing, int, int]:
        """The tree of the Java files, their number and their classes' simple names'."""
        generation = self.index.generation
        with self._tree_lock:
            held = self._tree
            if held is None or held[0] != generation:
                paths = [p for p in self.index.ordered_paths() if self._java(p)]
                classes = len({s.bare for p in paths for s in self.maple._symbols(p, "type")})
                held = self._tree = (generation, TreeListing(paths), len(paths), classes)
            return held[1], held[2], held[3]

    def repo_structure(self, max_depth: int = 100) -> Answer:
        listing, files, classes = self._java_tree()
        lines = listing.lines(max(0, max_depth) + 1)  # depth 0: the top level
        lines[0] = f"{self.index.root.name}/"
        summary = f"Repository structure with {files} Java files and {classes} classes"
        return "\n".join(lines), summary, True
