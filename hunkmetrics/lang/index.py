"""A file's index of types and callables with their line spans, from one parse."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import tree_sitter as ts

from ..patch.model import Hunk
from .hooks.base import Placement
from .incremental import Header, header_edits, headers, reversed_headers
from .languages import Language
from .names import clean_type, join, text
from .parse_guard import parse
from .paths import directory_package
from .windows import DECORATED, declared_package, scope_captures

if TYPE_CHECKING:
    from .javaparser_diameter import BirchTree

__all__ = [
    "FileIndex",
    "ParseCache",
    "Scope",
    "build_index",
    "count_errors",
    "directory_package",
    "top_qualifier",
]

ScopeKind = Literal["type", "callable", "namespace"]
NodeKind = Literal["type", "callable", "namespace", "anon"]  # the scope query's captures
_NODE_KINDS: tuple[NodeKind, ...] = ("type", "callable", "namespace", "anon")


@dataclass(frozen=True, slots=True)
class Scope:
    """A type, callable or namespace, with its 1-based inclusive line span."""

    kind: ScopeKind
    name: str  # qualified; callables carry their parameter list
    qualifier: str  # prefix for what nests inside (a callable's name without parameters)
    start: int
    end: int
    depth: int
    owner: str | None = None  # a callable's type (its class)
    header_error: bool = False  # the declaration before its body holds a syntax error
    anonymous: bool = False  # an anonymous class: `new Foo() {` belongs to what encloses it

    def contains(self, first: int, last: int) -> bool:
        return self.start <= first and last <= self.end

    @property
    def entered_at(self) -> int:
        """The first line a hunk is placed inside the scope from: an anonymous class's
        line after its opening, else its start."""
        return self.start + 1 if self.anonymous else self.start


@dataclass(frozen=True, slots=True)
class FileIndex:
    """Every scope of one file, ordered by start line; reusable across hunks and runs."""

    path: str
    language: str
    package: str | None
    scopes: tuple[Scope, ...]
    parse_errors: int = 0
    line_count: int = 0

    def enclosing(self, first: int, last: int) -> list[Scope]:
        """Scopes whose span holds lines first..last, outermost first."""
        found = [s for s in self.scopes if s.contains(first, last)]
        found.sort(key=lambda s: s.depth)
        return found


#: Fragments (and their trees) a ParseCache keeps: the most recently made ones.
KEPT_FRAGMENTS = 8192


class RecentDict(dict[tuple[object, ...], object]):
    """A dict that keeps only its `size` most recently added entries."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def __setitem__(self, key: tuple[object, ...], value: object) -> None:
        super().__setitem__(key, value)
        while len(self) > self.size:
            del self[next(iter(self))]


@dataclass
class ParseCache:
    """Trees and indexes by language and file text: each distinct text is parsed once per
    run, whoever asks (the locator, then every metric). Of two texts noted as one
    patch's images of a file (`derive`), the one parsed second is re-parsed
    incrementally from the other's tree; the tree is the same as a fresh parse's.

    Texts are keys as they are: a bytes object hashes once and is then found by identity,
    where a digest would hash the whole text again on every request."""

    trees: dict[tuple[str, bytes], ts.Tree] = field(default_factory=dict)
    indexes: dict[tuple[str, str, bytes, str | None], FileIndex] = field(default_factory=dict)
    # indexes built for some line spans only (ParseCache.index's `reach`)
    reached: dict[
        tuple[tuple[str, str, bytes, str | None], tuple[tuple[int, int], ...]], FileIndex
    ] = field(default_factory=dict)
    # a hunk's fragments (with their trees) are reused within its own work, so only the
    # latest are kept: memory stays bounded however many hunks a patch has
    fragments: dict[tuple[object, ...], object] = field(
        default_factory=lambda: RecentDict(KEPT_FRAGMENTS)
    )
    shaped: dict[tuple[str, bytes, tuple[tuple[int, int], ...] | None], BirchTree | None] = field(
        default_factory=dict
    )
    parses: int = 0
    # an image -> (the other image, the hunks' headers from the other to this one)
    derived: dict[bytes, tuple[bytes, tuple[Header, ...]]] = field(default_factory=dict)
    incremental_parses: int = 0

    def derive(self, old: bytes, new: bytes, hunks: Sequence[Hunk]) -> None:
        """Note that `new` is `old` with `hunks` applied (a patch's two images of a file):
        whichever is parsed second is re-parsed from the other's tree."""
        forward = headers(hunks)
        self.derived.setdefault(new, (old, forward))
        self.derived.setdefault(old, (new, reversed_headers(forward)))

    def tree(self, language: Language, data: bytes) -> ts.Tree:
        key = (language.name, data)
        tree = self.trees.get(key)
        if tree is None:
            tree = self._reparse(language, data) or parse(language.parser(), data)
            self.trees[key] = tree
            self.parses += 1
        return tree

    def _reparse(self, language: Language, data: bytes) -> ts.Tree | None:
        """The tree of a noted image, re-parsed from the other image's tree when that one
        is parsed and the hunks describe the change exactly; None otherwise. A tree with
        syntax errors is not kept (error recovery may differ from a fresh parse's)."""
        origin = self.derived.get(data)
        if origin is None:
            return None
        old, ranges = origin
        old_tree = self.trees.get((language.name, old))
        if old_tree is None:
            return None
        edits = header_edits(old, data, ranges)
        if edits is None:
            return None
        edited = old_tree.copy()
        for e in edits:
            edited.edit(
                e.start_byte,
                e.old_end_byte,
                e.new_end_byte,
                e.start_point,
                e.old_end_point,
                e.new_end_point,
            )
        tree = parse(language.parser(), data, edited)
        if tree.root_node.has_error:
            return None
        self.incremental_parses += 1
        return tree

    def birch_tree(
        self, language: Language, data: bytes, near: Sequence[tuple[int, int]] | None = None
    ) -> BirchTree | None:
        """The language's birch tree of `data` (`Hooks.birch_tree`, near the given line
        ranges; None where it has none), built once per distinct text and ranges from
        this cache's parse."""
        key = (language.name, data, None if near is None else tuple(near))
        if key not in self.shaped:
            self.shaped[key] = language.hooks.birch_tree(
                data, lambda d: self.tree(language, d), near
            )
        return self.shaped[key]

    def index(
        self,
        language: Language,
        path: str,
        data: bytes,
        package: str | None = None,
        reach: Sequence[tuple[int, int]] | None = None,
    ) -> FileIndex:
        """The file's index; with `reach`, one that answers for those line spans only
        (build_index), unless the whole index is at hand."""
        # The path matters for languages whose package or module comes from it.
        key = (language.name, path, data, package)
        whole = self.indexes.get(key)
        if whole is not None:
            return whole
        if reach is None:
            whole = self.indexes[key] = build_index(
                data, language, path, package=package, tree=self.tree(language, data)
            )
            return whole
        spans = tuple(sorted(set(reach)))
        partial = self.reached.get((key, spans))
        if partial is None:
            partial = self.reached[(key, spans)] = build_index(
                data,
                language,
                path,
                package=package,
                tree=self.tree(language, data),
                reach=spans,
                windowed=True,
            )
        return partial


def build_index(
    data: bytes,
    language: Language,
    path: str,
    *,
    package: str | None = None,
    root: str | None = None,
    tree: ts.Tree | None = None,
    reach: Sequence[tuple[int, int]] | None = None,
    windowed: bool = False,
) -> FileIndex:
    """Parse `data` and index its scopes.

    `package` overrides the package (Python's comes from the tree layout); `root` the
    qualifier that top-level names start with (default: `top_qualifier`). With `reach`
    (line spans first..last), a callable that holds none of the spans and no other
    scope is left out: the index then answers exactly the questions about scopes
    around those spans (`FileIndex.enclosing`, the deepest scope around each span), as
    the whole index does, for less work. `windowed` (with `reach`) goes further: only
    the scopes on the spans' lines are looked for (lang/windows.py), not every type of
    the file, and those answers stay the same."""
    tree = tree or parse(language.parser(), data)
    narrowed = scope_captures(language, tree, reach) if windowed and reach else None
    captures = (
        narrowed
        if narrowed is not None
        else ts.QueryCursor(language.scope_query()).captures(tree.root_node)
    )
    if package is None:
        if language.package != "declaration":
            package = directory_package(path)
        else:
            declared = (
                declared_package(language, tree)
                if narrowed is not None
                else next(iter(captures.get("package", [])), None)
            )
            if declared is not None:
                package = text(declared)
            else:
                package = language.hooks.undeclared_package(path)
    if root is None:
        root = top_qualifier(language, package, path, from_diff=False)
    nodes: list[tuple[ts.Node, NodeKind]] = []
    for kind in _NODE_KINDS:
        nodes.extend((n, kind) for n in captures.get(kind, []))
    nodes.sort(key=lambda item: (item[0].start_byte, -item[0].end_byte))
    scopes = _nest(nodes, language, root, package, reach)
    return FileIndex(
        path,
        language.name,
        package,
        tuple(scopes),
        parse_errors=count_errors(tree),
        line_count=data.count(b"\n") + 1,
    )


def top_qualifier(language: Language, package: str, path: str, from_diff: bool) -> str:
    """The qualifier that top-level names start with: the hooks' module root, else the
    package where packages are declared, else nothing."""
    root = language.hooks.module_root(package, path, from_diff)
    if root is not None:
        return root
    return package if language.package == "declaration" else ""


@dataclass(frozen=True, slots=True)
class _Context:
    """What a scope's children inherit: the qualifier their names join and the nearest
    enclosing type (a callable's owner, an anonymous class's base)."""

    prefix: str
    owner: str | None


def _nest(
    nodes: list[tuple[ts.Node, NodeKind]],
    language: Language,
    root: str,
    package: str | None,
    reach: Sequence[tuple[int, int]] | None = None,
) -> list[Scope]:
    """Scopes from the captured nodes, in one pass: a stack of the open ones gives each
    its depth and context, so deep nesting costs no more than wide. With `reach`, leaf
    callables around none of its spans are skipped (see build_index)."""
    scopes: list[Scope] = []
    stack: list[tuple[ts.Node, _Context]] = []
    top = _Context(root, None)
    anonymous: Counter[str] = Counter()
    seen: set[int] = set()
    for position, (node, kind) in enumerate(nodes):
        if node.id in seen:
            continue
        seen.add(node.id)
        while stack and stack[-1][0].end_byte <= node.start_byte:
            stack.pop()
        context = stack[-1][1] if stack else top
        # Node.parent descends from the root inside tree-sitter, where a long list of
        # siblings is a balanced tree: a few steps per level, no Python objects.
        parent = node.parent
        if reach is not None and kind == "callable":
            # Nodes are sorted by start: a leaf's next node starts after it ends. A leaf
            # callable out of reach changes nothing else (no nested scope, no anonymous
            # class numbered inside it) and no question about the spans finds it.
            leaf = position + 1 == len(nodes) or nodes[position + 1][0].start_byte >= node.end_byte
            if leaf and not _reaches(_span(node, parent), reach):
                continue
        scope = _make_scope(
            node, kind, language, context, len(stack) + 1, parent, package, anonymous, root
        )
        if scope is not None:
            scopes.append(scope)
            by_callables = language.qualify_by_callables or scope.kind != "callable"
            stack.append(
                (
                    node,
                    _Context(
                        scope.qualifier if by_callables else context.prefix,
                        scope.name if scope.kind == "type" else context.owner,
                    ),
                )
            )
    scopes.sort(key=lambda s: (s.start, s.depth))
    return scopes


def _reaches(span: tuple[int, int], reach: Sequence[tuple[int, int]]) -> bool:
    """Whether lines span[0]..span[1] hold one of the spans (as Scope.contains)."""
    start, end = span
    return any(start <= first and last <= end for first, last in reach)


def _make_scope(
    node: ts.Node,
    kind: NodeKind,
    language: Language,
    context: _Context,
    depth: int,
    parent: ts.Node | None,
    package: str | None,
    anonymous: Counter[str],
    root: str,
) -> Scope | None:
    start, end = _span(node, parent)
    if kind == "anon":
        base = context.owner if context.owner is not None else root
        anonymous[base] += 1
        name = f"{base}${anonymous[base]}"
        return Scope("type", name, name, start, end, depth, anonymous=True)
    if kind == "type" or kind == "namespace":
        if not language.hooks.defines(node):
            return None
        bare = text(node.child_by_field_name("name")) or (
            "(anonymous)" if kind == "namespace" else ""
        )
        if not bare:
            return None
        name = join(context.prefix, clean_type(bare))
        return Scope(kind, name, name, start, end, depth)
    callable_name = language.hooks.callable_name_in(node, parent)
    if not callable_name:
        return None
    place = language.hooks.place_callable(
        node, Placement(prefix=context.prefix, name=callable_name, owner=context.owner), package
    )
    qualifier = join(place.prefix, place.name)
    name = f"{qualifier}({','.join(language.hooks.parameters(node))})"
    header_error = node.has_error and _header_error(node)
    return Scope("callable", name, qualifier, start, end, depth, place.owner, header_error)


def _header_error(node: ts.Node) -> bool:
    """Whether a callable's children other than its body hold an error (a node without
    any error, as most are, holds none: its own flag says so)."""
    body = node.child_by_field_name("body")
    return any(
        child.has_error or child.is_missing
        for child in node.children
        if body is None or child.id != body.id
    )


def _span(node: ts.Node, parent: ts.Node | None) -> tuple[int, int]:
    start = node.start_point.row + 1
    if parent is not None and parent.type == DECORATED:
        start = parent.start_point.row + 1
    end_row = node.end_point.row
    if node.end_point.column == 0 and end_row > node.start_point.row:
        end_row -= 1  # the node ends with the newline of its last line
    return start, end_row + 1


def count_errors(tree: ts.Tree) -> int:
    """ERROR and MISSING nodes in a tree (0 for a clean parse), skipping clean subtrees."""
    if not tree.root_node.has_error:
        return 0
    count = 0
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            count += 1
        else:
            stack.extend(c for c in node.children if c.has_error or c.is_missing)
    return count
