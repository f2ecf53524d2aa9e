"""How MAPLE's answers read: spans with their doc comments, declaration headers,
skeletons and directory trees, from a file's lines and its index."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..lang import FileIndex, Scope

__all__ = [
    "children",
    "comment_top",
    "declaration_end",
    "doc_start",
    "numbered",
    "skeleton",
    "tree_lines",
]

# Leading annotations or decorators of a line: `@Override`, `@SuppressWarnings("x")`.
_ANNOTATIONS = re.compile(r"^(?:@[\w.]+(?:\([^()]*\))?\s*)+")
_IMPORT_WORDS = ("package ", "import ", "from ", "#include", "using ", "use ")


def _is_comment(line: str) -> bool:
    s = line.strip()
    return s.startswith(("//", "/*", "*", "# ")) or s == "#"


def doc_start(lines: Sequence[str], scope: Scope) -> int:
    """The first line of a scope with the comments and annotations right above it
    (a javadoc, `//` or `#` lines, annotations on their own lines); no blank line between."""
    start = scope.start
    row = start - 2  # 0-based index of the line above the scope
    while row >= 0:
        s = lines[row].strip()
        if s.endswith("*/"):
            top = comment_top(lines, row)
            if top is None:
                break  # the comment starts after code on its line
            start = top + 1
            row = top - 1
        elif s.startswith(("//", "# ", "@")) or s == "#":
            start = row + 1
            row -= 1
        else:
            break
    return start


def comment_top(lines: Sequence[str], row: int) -> int | None:
    """The row (0-based) of the line that opens the block comment ending on `row`: the
    first line starting with `/*` after the previous comment's `*/` (block comments do
    not nest, and a `/*` inside one, as in `"/resources/**"`, opens nothing). None when
    the comment does not start its line."""
    s = lines[row].strip()
    if s.startswith("/*"):
        return row
    above = row - 1
    while above >= 0 and "*/" not in lines[above]:
        above -= 1
    for top in range(above + 1, row + 1):
        if lines[top].lstrip().startswith("/*"):
            return top
    return None


def declaration_end(lines: Sequence[str], scope: Scope, indented: bool) -> int:
    """The last line of a scope's declaration (up to its body's opening `{`, or the
    `:` of an indented language; a bodiless method's `;`)."""
    limit = min(scope.end, scope.start + 30, len(lines))
    for number in range(scope.start, limit + 1):
        s = _ANNOTATIONS.sub("", _code(lines[number - 1]))
        if not s:
            continue  # blank, or annotations and decorators only
        if indented:
            if s.endswith(":"):
                return number
        elif "{" in s or s.endswith(";"):
            return number
    return scope.start


def _code(line: str) -> str:
    """A line without a trailing `//` comment (a heuristic: `//` inside strings is rare
    on declaration lines)."""
    return line.split("//", 1)[0].strip()


def children(index: FileIndex, parent: Scope | None) -> list[Scope]:
    """The scopes directly inside `parent` (top-level scopes when None)."""
    depth = parent.depth + 1 if parent is not None else 1
    return [
        s
        for s in index.scopes
        if s.depth == depth and (parent is None or parent.contains(s.start, s.end))
    ]


def numbered(lines: Sequence[str], first: int, last: int, marked: range | None = None) -> str:
    """Lines first..last, each prefixed with its number (`>` marks lines in `marked`)."""
    width = len(str(last))
    out = []
    for number in range(max(1, first), min(last, len(lines)) + 1):
        mark = ">" if marked is not None and number in marked else " "
        out.append(f"{mark}{number:>{width}} | {lines[number - 1]}")
    return "\n".join(out)


def skeleton(index: FileIndex, lines: Sequence[str], indented: bool) -> str:
    """The file's outline: imports, then every type with its fields and the
    signatures of its members, and top-level callables; each line numbered."""
    out: list[tuple[int, str]] = []
    covered = [False] * (len(lines) + 2)
    for scope in index.scopes:
        for n in range(scope.start, min(scope.end, len(lines)) + 1):
            covered[n] = True
    for number, line in enumerate(lines, 1):
        if not covered[number] and line.strip().startswith(_IMPORT_WORDS):
            out.append((number, line.rstrip()))
    for scope in children(index, None):
        _outline(index, lines, scope, indented, out)
    width = len(str(max((n for n, _ in out), default=1)))
    return "\n".join(f"{n:>{width}}: {text}" for n, text in out)


def _outline(
    index: FileIndex,
    lines: Sequence[str],
    scope: Scope,
    indented: bool,
    out: list[tuple[int, str]],
) -> None:
    head_end = declaration_end(lines, scope, indented)
    for number in range(scope.start, head_end + 1):
        out.append((number, lines[number - 1].rstrip()))
    if scope.kind == "callable":
        last = out.pop()
        stub = last[1].split("{", 1)[0].rstrip() if not indented else last[1]
        end = " ..." if indented else ("" if stub.endswith(";") else ";")
        out.append((last[0], stub + end))
        return
    inner = children(index, scope)
    inside = [False] * (scope.end + 2)
    for child in inner:
        for n in range(child.start, child.end + 1):
            inside[n] = True
    depth = 0
    events: list[tuple[int, Scope | None]] = []
    for number in range(head_end + 1, scope.end + (1 if indented else 0)):
        if inside[number]:
            continue
        text = lines[number - 1]
        s = _code(text)
        if depth == 0 and not _is_comment(text) and _ANNOTATIONS.sub("", s):
            events.append((number, None))
        if not indented:
            depth += s.count("{") - s.count("}")
            depth = max(depth, 0)
    events.extend((child.start, child) for child in inner)
    events.sort(key=lambda e: e[0])
    for number, member in events:
        if member is None:
            out.append((number, lines[number - 1].rstrip()))
        else:
            _outline(index, lines, member, indented, out)
    if not indented and scope.end <= len(lines) and scope.end > head_end:
        out.append((scope.end, lines[scope.end - 1].rstrip()))


def tree_lines(paths: Sequence[str], max_depth: int) -> list[str]:
    """A `├──` tree of these repository paths' directories and files, `max_depth`
    levels deep (1: the top level only)."""
    return TreeListing(paths).lines(max_depth)


class TreeListing:
    """The whole `├──` tree of some paths, built once, with each entry's level: the tree
    `max_depth` levels deep is its entries down to that level (an entry's prefix does not
    depend on how deep the tree is shown)."""

    def __init__(self, paths: Sequence[str]) -> None:
        tree: dict[str, object] = {}
        for path in paths:
            node = tree
            for part in path.split("/"):
                child = node.setdefault(part, {})
                assert isinstance(child, dict)
                node = child
        self.levels: list[int] = [0]
        self.entries: list[str] = ["."]
        levels, entries = self.levels, self.entries
        pending: list[tuple[dict[str, object], str, int, list[str], int]] = []

        def push(node: dict[str, object], prefix: str, level: int) -> None:
            names = sorted(node, key=lambda n: (not node[n], n))  # directories first
            pending.append((node, prefix, level, names, 0))

        push(tree, "", 1)
        while pending:  # depth first, without recursion (trees can be deep)
            node, prefix, level, names, i = pending.pop()
            if i >= len(names):
                continue
            pending.append((node, prefix, level, names, i + 1))
            name = names[i]
            last = i == len(names) - 1
            child = node[name]
            assert isinstance(child, dict)
            levels.append(level)
            entries.append(f"{prefix}{'└── ' if last else '├── '}{name}{'/' if child else ''}")
            if child:
                push(child, prefix + ("    " if last else "│   "), level + 1)

    def lines(self, max_depth: int) -> list[str]:
        return [e for e, level in zip(self.entries, self.levels, strict=True) if level <= max_depth]
