"""Locating a hunk from the diff alone: parse its own lines, wrapped so that a fragment
of a file parses, and say what could not be seen."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Literal

import tree_sitter as ts

from ..patch.model import FileDiff, Hunk, LineKind
from .evidence import Basis, Evidence
from .hooks.base import DiffPackage, FragmentHeader
from .index import FileIndex, ParseCache, Scope, build_index, count_errors, top_qualifier
from .languages import Language
from .location import Anchor, Location, anchors, locate_in_index
from .sweep import covering_below

Side = Literal["pre", "post"]
# Lines of one wrapping: the text, each line's number in the file (None: wrapper line),
# how many type scopes the wrapper opens and how many wrapper lines precede the hunk's.
Wrapping = tuple[list[str], list[int | None], int, int]

_TOP_LEVEL_RE = re.compile(r"^\s*(import|package|#\s*include|using|from)\b|^\s*$")
# Error recovery can read `} else {` as a method named `else`: no callable has these names.
_KEYWORDS = frozenset(
    {
        "if",
        "else",
        "for",
        "while",
        "do",
        "switch",
        "case",
        "catch",
        "try",
        "finally",
        "synchronized",
        "return",
        "new",
        "throw",
        "assert",
        "super",
        "this",
    }
)


_BRACE_TOKEN_RE = re.compile(r"//|/\*|[\"'`{}]")
INDENT = 4  # columns per nesting level assumed when reading indentation (tabs expand to 4)


@dataclass(frozen=True, slots=True)
class Fragment:
    """Synthetic source around a hunk's lines; `line_map[i]` is the pre-image (or
    post-image) line number of synthetic line i+1, or None for a wrapper line."""

    text: bytes
    line_map: tuple[int | None, ...]
    wrapper_types: int  # how many type scopes the wrapper itself opens
    tree: ts.Tree
    errors: int
    head: int = 0  # wrapper lines before the hunk's own (0: nothing hidden is reopened)
    header_seen: bool = True  # a wrapper type comes from the `@@` heading, not made up


def hunk_side_lines(hunk: Hunk, side: Side = "pre") -> list[tuple[int, str]]:
    """(line number, text) of the hunk's lines on one side: context + removed (pre) or
    context + added (post)."""
    drop = LineKind.ADDED if side == "pre" else LineKind.REMOVED
    out: list[tuple[int, str]] = []
    for line in hunk.lines:
        if line.kind is drop:
            continue
        number = line.old_lineno if side == "pre" else line.new_lineno
        out.append((number or 0, line.text))
    return out


def _brace_depths(lines: list[str]) -> tuple[int, int]:
    """(lowest running depth, final depth) of `{`/`}` outside strings and comments.

    Jumps from one token that matters to the next, not character by character."""
    depth = low = 0
    in_block = False
    for line in lines:
        i = 0
        while i < len(line):
            if in_block:
                close = line.find("*/", i)
                if close < 0:
                    break
                in_block, i = False, close + 2
                continue
            match = _BRACE_TOKEN_RE.search(line, i)
            if match is None:
                break
            i, token = match.start(), match.group()
            if token == "//":
                break
            if token == "/*":
                in_block, i = True, i + 2
                continue
            if token in "\"'`":
                end = line.find(token, i + 1)
                while end > 0 and line[end - 1] == "\\":
                    end = line.find(token, end + 1)
                i = end if end > 0 else len(line)
            elif token == "{":
                depth += 1
            else:
                depth -= 1
                low = min(low, depth)
            i += 1
    return low, depth


def _starts_in_comment(lines: list[str]) -> bool:
    """True when a `*/` closes a block comment the hunk does not show opening."""
    for line in lines:
        close, open_ = line.find("*/"), line.find("/*")
        if close >= 0 and (open_ < 0 or close < open_):
            return True
        if open_ >= 0:
            return False
    return False


def build_fragment(
    hunk: Hunk,
    file_diff: FileDiff,
    language: Language,
    side: Side = "pre",
    *,
    use_header: bool = True,
    reopen: bool = False,
) -> Fragment:
    """The best-parsing wrapping of the hunk's lines for this language (without the
    hooks' header line when `use_header` is false). With `reopen`, an indentation
    language's first lines, deeper than the hunk's shallowest, get the blocks they sit
    in reopened (`def __fragment__():`), as a brace language's unmatched `}` always do."""
    numbered = hunk_side_lines(hunk, side)
    body = [text for _, text in numbered]
    numbers: list[int | None] = [n for n, _ in numbered]
    header = language.hooks.fragment_header(hunk.section, file_diff.path) if use_header else None
    candidates: list[Wrapping] = []
    if language.fragment == "indent":
        candidates.extend(_indent_wrappings(body, numbers, header, reopen=reopen))
    else:
        if _starts_in_comment(body):
            body, numbers = ["/*", *body], [None, *numbers]
        candidates.extend(_brace_wrappings(body, numbers, header))
    best: Fragment | None = None
    parser = language.parser()
    seen = header is None or header.seen
    for lines, line_map, wrapper_types, head in candidates:
        data = ("\n".join(lines) + "\n").encode("utf-8", "surrogateescape")
        tree = parser.parse(data)
        errors = count_errors(tree)
        if best is None or errors < best.errors:
            best = Fragment(data, tuple(line_map), wrapper_types, tree, errors, head, seen)
        if errors == 0:
            break
    assert best is not None
    return best


def cached_fragment(
    cache: ParseCache,
    hunk: Hunk,
    file_diff: FileDiff,
    language: Language,
    side: Side,
    *,
    use_header: bool = True,
    reopen: bool = False,
) -> Fragment:
    """`build_fragment`, once per hunk side and run."""
    key: tuple[object, ...] = (
        "fragment",
        file_diff.path,
        hunk.index,
        hunk.old_start,
        hunk.new_start,
        side,
    )
    if not use_header:
        key = (*key, "no header")
    if reopen and language.fragment == "indent":  # brace wrappings always reopen
        key = (*key, "reopen")
    cached = cache.fragments.get(key)
    if not isinstance(cached, Fragment):
        cached = cache.fragments[key] = build_fragment(
            hunk, file_diff, language, side, use_header=use_header, reopen=reopen
        )
    return cached


def _brace_wrappings(
    body: list[str], numbers: list[int | None], header: FragmentHeader | None
) -> Iterator[Wrapping]:
    """Wrappings for a brace language. The hunk's unmatched `}` close blocks it does not
    show; when the header opens a type, the last of them may close the type itself, so
    both readings are tried."""
    low, final = _brace_depths(body)
    opens_type = header is not None and header.opens_type
    readings = sorted({-low, max(0, -low - 1)} if opens_type else {-low}, reverse=True)
    for extra in readings:
        for method in (False, True):
            head = (
                ([header.line] if header is not None else [])
                + (["void __fragment__() {"] if method else [])
                + ["{"] * extra
            )
            depth = len(head) + final  # every open of the head is one `{`
            tail = ["}"] * max(0, depth)
            yield (
                [*head, *body, *tail],
                [None] * len(head) + numbers + [None] * len(tail),
                1 if opens_type else 0,
                len(head),
            )


def _indent_wrappings(
    body: list[str],
    numbers: list[int | None],
    header: FragmentHeader | None,
    *,
    reopen: bool = False,
) -> Iterator[Wrapping]:
    """Wrappings for an indentation language: under the header when the lines are
    indented, then dedented to the left margin (with `reopen`, each after the openers
    of the blocks its first lines sit in; and, when the lines hold an odd number of
    triple quotes, also after a reopened string: the hunk may start in a docstring)."""
    indents = [len(t) - len(t.lstrip()) for t in body if t.strip()]
    low = min(indents) if indents else 0
    heads = [_openers(body, low) if reopen else []]
    quote = _starts_in_string(body) if reopen else None
    if quote is not None:
        heads.append([" " * low + quote])
    for openers in heads:
        if low and header is not None:
            head = [header.line, *openers]
            yield (
                [*head, *body],
                [*_blank_map(len(head)), *numbers],
                1 if header.opens_type else 0,
                len(head),
            )
        dedented = [t[low:] if len(t) >= low else t.lstrip() for t in body]
        head = [line[low:] for line in openers]
        yield [*head, *dedented], [*_blank_map(len(head)), *numbers], 0, len(head)


def _blank_map(count: int) -> list[int | None]:
    """The line map of `count` wrapper lines."""
    return [None] * count


def _starts_in_string(body: list[str]) -> str | None:
    """The triple quote the hunk holds an odd number of (its first lines may sit in a
    string it does not show opening), or None."""
    for quote in ('"""', "'''"):
        if sum(line.count(quote) for line in body) % 2:
            return quote
    return None


def _openers(body: list[str], low: int) -> list[str]:
    """`def __fragment__():` lines opening the blocks that the hunk's first lines, deeper
    than its shallowest line (`low`), sit in without showing their opening: one at
    `low` and one at each shallower level those lines step back to."""
    leading: list[int] = []
    for line in body:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        if indent <= low:
            break
        leading.append(indent)
    if not leading:
        return []
    levels = sorted({low} | {i for i in leading if i < leading[0]})
    return [" " * level + "def __fragment__():" for level in levels]


def _remap(
    index: FileIndex, fragment: Fragment, language: Language, *, keep_all: bool = False
) -> FileIndex:
    """Synthetic line numbers → the file's, wrapper lines stretching to the outside;
    only the plausible scopes unless `keep_all`."""
    known = [n for n in fragment.line_map if n]
    first, last = (min(known), max(known)) if known else (0, 0)

    def at(line: int, default: int) -> int:
        mapped = fragment.line_map[line - 1] if 0 < line <= len(fragment.line_map) else None
        return mapped if mapped else default

    plausible = (
        [True] * len(index.scopes) if keep_all else _plausible_scopes(index, fragment, language)
    )
    scopes = [
        replace(scope, start=at(scope.start, first - 1), end=at(scope.end, last + 1))
        for scope, keep in zip(index.scopes, plausible, strict=True)
        if keep
    ]
    return replace(index, scopes=tuple(scopes))


def _indent(line: str) -> int:
    return len(line.expandtabs(INDENT)) - len(line.lstrip())


def _on_hunk_line(line: int, fragment: Fragment) -> bool:
    return 0 < line <= len(fragment.line_map) and bool(fragment.line_map[line - 1])


def _plausible_scopes(index: FileIndex, fragment: Fragment, language: Language) -> list[bool]:
    """Whether each scope found in a fragment can be trusted.

    Error recovery can invent declarations (`} else {`, or a call such as
    `.collect(toList());` read as a method): a callable is kept only when its
    declaration is one of the hunk's own lines, its header parsed cleanly, its name is
    no keyword and, where the hooks say callables need a type (Java), it sits inside a
    type. And a fragment hides the types around it: a method indented deeper than the
    types the hunk shows can explain belongs to a nested or anonymous class whose name
    is not visible, so naming it would be a guess. (A dedented wrapping's guesses are
    kept, and `_evidence` says they are inferred, from the file's own indentation.)"""
    language_needs_type = language.hooks.callables_need_type
    keep = [True] * len(index.scopes)
    checks: list[int] = []
    for i, scope in enumerate(index.scopes):
        if "__fragment__" in scope.name:
            keep[i] = False
        elif scope.kind != "callable":
            continue
        elif (
            scope.header_error
            or scope.qualifier.rsplit(".", 1)[-1] in _KEYWORDS
            or (language_needs_type and scope.owner is None)
            or not _on_hunk_line(scope.start, fragment)
        ):
            keep[i] = False
        else:
            checks.append(i)
    # The types the hunk shows (declared on its own lines) around each callable.
    visible = [
        (s.start, s.end, s.depth)
        for s in index.scopes
        if s.kind == "type" and _on_hunk_line(s.start, fragment)
    ]
    counts = covering_below(
        visible, [(index.scopes[i].start, index.scopes[i].depth) for i in checks]
    )
    lines = fragment.text.decode("utf-8", "surrogateescape").split("\n")
    for i, visible_types in zip(checks, counts, strict=True):
        nesting = visible_types + (1 if fragment.wrapper_types else 0)
        keep[i] = _indent(lines[index.scopes[i].start - 1]) <= INDENT * nesting
    return keep


def indent_unit(lines: list[str]) -> int | None:
    """Columns per nesting level, read from the lines: the smallest step into a block
    a line opens (it ends in `{` or `:`, the next is deeper), or between a line that
    ends a statement or block (`;`, `{`, `}`) and the next that starts one (a
    continuation line, such as `.call()` or `&& x`, says nothing). Without such a step:
    2 when a line starts 2 columns off a multiple of 4, 4 for tabs, else None (unknown:
    a method at 4 columns may be one level in, or two)."""
    steps: list[int] = []
    previous: str | None = None
    for line in lines:
        if not line.strip():
            continue
        if previous is not None:
            step = _indent(line) - _indent(previous)
            if step > 0 and _OPENS_BLOCK_RE.search(previous):
                steps.append(step)
            elif step and _ENDS_STATEMENT_RE.search(previous) and not _CONTINUES_RE.match(line):
                steps.append(abs(step))
        previous = line
    if steps:
        return min(steps)
    starts = [line for line in lines if line.strip() and not _CONTINUES_RE.match(line)]
    if any(_indent(line) % INDENT == 2 for line in starts):
        return 2
    return INDENT if any(line.startswith("\t") for line in starts) else None


_OPENS_BLOCK_RE = re.compile(r"[{:]\s*$")
_ENDS_STATEMENT_RE = re.compile(r"[;{}]\s*$")
_CONTINUES_RE = re.compile(r"^\s*([.+\-*/%&|^?:,)\]]|$)")
_CLOSER_RE = re.compile(r"^[})\]@]")
_STRING_NODE_RE = re.compile(r"string|template|heredoc")


@dataclass(frozen=True, slots=True)
class _View:
    """What the diff shows around a hunk, in the file's line numbers: the remapped
    fragment index, the hunk's own lines and their indentation."""

    index: FileIndex
    fragment: Fragment
    shown: frozenset[int]
    indents: dict[int, int]
    unit: int | None  # columns per nesting level, None when the hunk does not show it
    points: tuple[Anchor, ...]  # the hunk's anchors
    # Callables the hunk declares that were not trusted (`_plausible_scopes`), and the
    # lines where the fragment's parse has errors: where either lies, nothing is seen.
    untrusted: tuple[Scope, ...]
    error_lines: frozenset[int]

    @property
    def first(self) -> int:
        return min((a.first for a in self.points), default=0)

    @property
    def last(self) -> int:
        return max((a.last for a in self.points), default=0)

    def visible(self, scope: Scope) -> bool:
        return scope.start in self.shown

    def clear_inside(self, scope: Scope | None) -> bool:
        """True when, between the scope's declaration (or the hunk's top, for None) and
        the anchors, the parse has no error and no untrusted callable holds an anchor:
        nothing the fragment hides could sit between them."""
        start = scope.start if scope is not None else 0
        if any(start <= line <= self.last for line in self.error_lines):
            return False
        return not any(
            u.start >= start
            and (scope is None or u.end <= scope.end)
            and any(u.start <= a.first and a.last <= u.end for a in self.points)
            for u in self.untrusted
        )

    def nested_as_shown(self, scope: Scope) -> bool:
        """True when the scope's indentation is exactly one level per scope the fragment
        puts around it, and none of these is made up: nothing hidden lies between."""
        indent = self.indents.get(scope.start)
        unit = self.unit or 1  # unknown: only the left margin is sure (level 0)
        if indent is None or indent % unit or (self.unit is None and indent):
            return False
        around = [
            s
            for s in self.index.scopes
            if s.kind != "namespace"
            and s.depth < scope.depth
            and s.start <= scope.start
            and scope.end <= s.end
        ]
        if not self.fragment.header_seen and not all(self.visible(s) for s in around):
            return False
        return indent // unit == len(around)

    def scope_named(self, kind: str, name: str, first: int, last: int) -> Scope | None:
        found = [s for s in self.index.enclosing(first, last) if s.kind == kind and s.name == name]
        return found[-1] if found else None


def _anonymous_counted(scope: Scope, view: _View) -> bool:
    """An anonymous class's number (`Foo$2`) is right only when its named base's whole
    body up to it is shown, i.e. the base is declared on the hunk's lines."""
    if not scope.anonymous:
        return True
    base = scope.name.rsplit("$", 1)[0]
    return any(s.kind == "type" and s.name == base and view.visible(s) for s in view.index.scopes)


def _evidence(
    location: Location, view: _View, package: Basis, top: bool, language: Language
) -> Evidence:
    """How the diff shows the location's class and method (see docs/hierarchy.md)."""
    first, last = view.first, view.last
    method_scope = (
        view.scope_named("callable", location.method, first, last) if location.method else None
    )
    method_own: Basis = (
        "seen"
        if method_scope is not None
        and view.visible(method_scope)
        and view.nested_as_shown(method_scope)
        and view.clear_inside(method_scope)
        else "inferred"
    )
    klass: Basis
    if location.class_name is None:
        shown = method_scope is not None and method_own == "seen"
        klass = "seen" if top or shown else "unknown"
    else:
        type_scope = view.scope_named("type", location.class_name, first, last)
        if type_scope is None:  # a callable's class that is no scope around it (Go receiver)
            klass = method_own if method_scope is not None else "inferred"
        elif view.visible(type_scope):
            ok = (
                view.nested_as_shown(type_scope)
                and _anonymous_counted(type_scope, view)
                and view.clear_inside(type_scope)
            )
            klass = "seen" if ok else "inferred"
        else:  # the wrapper's type: seen when a method the hunk shows sits right in it
            ok = (
                method_scope is not None
                and method_scope.owner == location.class_name
                and method_own == "seen"
            )
            klass = "seen" if ok else "inferred"
    method: Basis
    if not location.placed:
        method = "unknown"
    elif location.method is None:
        method = "seen"
    else:
        method = method_own if klass == "seen" else "inferred"
    evidence = Evidence(package, klass, method)
    # Where namespaces qualify names (C++) and need not indent what they hold, a
    # namespace opened above the hunk can be part of any name: nothing below is seen.
    return evidence.weakened() if language.namespaces and not top else evidence


def _top_level(hunk: Hunk, view: _View, language: Language) -> bool:
    """True when the hunk's changed lines can only be at the top level, outside every
    type and callable: `import`/`package` lines at the left margin, or, where no scope
    the hunk shows holds them, lines at the left margin of an indentation language (or
    of a brace language's fragment that reopens nothing), outside strings."""
    removed = [t for t in hunk.removed_text if t.strip()]
    own = removed or [t for t in hunk.added_text if t.strip()]
    if own and all(_TOP_LEVEL_RE.match(t) and not _indent(t) for t in own):
        return True
    changed = removed or _insertion_edges(hunk)
    if not changed or any(_indent(t) for t in changed):
        return False
    if any(s.start in view.shown for s in view.index.enclosing(view.first, view.last)):
        return False
    if language.fragment != "indent" and view.fragment.head:
        return False
    if any(_CLOSER_RE.match(t) for t in changed):
        return False  # a closing line belongs to what it closes
    if any(_OPENS_BLOCK_RE.search(t) for t in removed):
        return False  # a changed `def` line belongs to its function (an added one does not)
    return view.clear_inside(None) and not _in_string(hunk, view.fragment)


def _insertion_edges(hunk: Hunk) -> list[str]:
    """For a hunk that only adds lines: the first line of each added block, and the
    first line shown after it, whose indentation says whether the block lands at the
    top level (the added lines' own bodies are indented whatever their place)."""
    edges: list[str] = []
    previous: LineKind | None = None
    want_next = False
    for line in hunk.lines:
        if not line.text.strip():
            continue
        added = line.kind is LineKind.ADDED
        if added != (previous is LineKind.ADDED) and (added or want_next):
            edges.append(line.text)  # a block's first line, or the one shown after it
        want_next = added
        previous = line.kind
    return edges


def _in_string(hunk: Hunk, fragment: Fragment) -> bool:
    """True when a removed line lies inside a string (or template) of the fragment."""
    rows = {n: row for row, n in enumerate(fragment.line_map) if n}
    for line in hunk.lines:
        if line.kind is not LineKind.REMOVED or line.old_lineno not in rows:
            continue
        row = rows[line.old_lineno]
        node: ts.Node | None = fragment.tree.root_node.descendant_for_point_range(
            (row, 0), (row, 0)
        )
        while node is not None:
            if _STRING_NODE_RE.search(node.type) and node.start_point.row < row:
                return True
            node = node.parent
    return False


def _view(
    index: FileIndex, fragment: Fragment, hunk: Hunk, side: Side, language: Language
) -> _View:
    """`index` remapped to the file's lines, with what the hunk shows."""
    original = hunk_side_lines(hunk, side)
    indents = {n: _indent(t) for n, t in original if n and t.strip()}
    every = _remap(index, fragment, language, keep_all=True).scopes
    plausible = _plausible_scopes(index, fragment, language)
    remapped = replace(index, scopes=tuple(s for s, ok in zip(every, plausible, strict=True) if ok))
    untrusted = tuple(
        s
        for s, ok in zip(every, plausible, strict=True)
        if not ok and s.kind == "callable" and "__fragment__" not in s.name
    )
    unit = indent_unit([t for _, t in original])
    shown = frozenset(n for n, _ in original if n)
    return _View(
        remapped,
        fragment,
        shown,
        indents,
        unit,
        tuple(anchors(hunk)),
        untrusted,
        _error_lines(fragment),
    )


def _error_lines(fragment: Fragment) -> frozenset[int]:
    """The hunk lines (file numbers) on which the fragment's parse has an error."""
    if not fragment.errors:
        return frozenset()
    rows: set[int] = set()
    stack = [fragment.tree.root_node]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            rows.add(node.start_point.row)
        else:
            stack.extend(c for c in node.children if c.has_error or c.is_missing)
    lines = fragment.line_map
    return frozenset(n for row in rows if row < len(lines) and (n := lines[row]))


def _fragment_index(
    hunk: Hunk,
    file_diff: FileDiff,
    language: Language,
    side: Side,
    package: str,
    root: str,
    cache: ParseCache | None,
) -> tuple[FileIndex, Fragment]:
    """The index of the hunk's best wrapping: with the hooks' header unless the hunk
    shows the very declaration the header stands in for."""
    path = file_diff.path
    for use_header in (True, False):
        fragment = (
            cached_fragment(
                cache, hunk, file_diff, language, side, use_header=use_header, reopen=True
            )
            if cache is not None
            else build_fragment(hunk, file_diff, language, side, use_header=use_header, reopen=True)
        )
        index = build_index(
            fragment.text, language, path, package=package, root=root, tree=fragment.tree
        )
        if not _header_doubles_a_type(index, fragment):
            break
    return index, fragment


def locate_from_diff(
    hunk: Hunk,
    file_diff: FileDiff,
    language: Language,
    cache: ParseCache | None = None,
    *,
    package_hint: DiffPackage | None = None,
) -> Location:
    """Locate one hunk from its own lines (pre-image side, or post-image for a new file),
    saying for package, class and method whether the diff shows it (`Location.evidence`).
    A package the hunk does not show is `package_hint`, when given (`patch_package`)."""
    side: Side = "post" if file_diff.old_path is None else "pre"
    # The side's own path, as with the sources: a renamed file's pre-image is its old one.
    path = file_diff.old_path if file_diff.old_path is not None else file_diff.path
    lines = [line.text for line in hunk.lines]
    guess = language.hooks.diff_package(lines, path, language.source_roots)
    if guess.basis != "seen" and package_hint is not None:
        guess = package_hint
    package = guess.name if guess.name is not None else ""
    root = top_qualifier(language, package, path, from_diff=True)
    index, fragment = _fragment_index(hunk, file_diff, language, side, package, root, cache)
    view = _view(index, fragment, hunk, side, language)
    location = replace(locate_in_index(view.index, hunk, "diff"), package=guess.name)
    if side == "post":
        location = replace(
            location,
            class_name=None,
            method=None,
            methods=(),
            method_span=None,
            note="new file: located in its post-image",
            evidence=Evidence(guess.basis, "seen", "seen"),
        )
        return _with_added_owner(location, hunk, file_diff, language, package, root, cache)
    location = replace(location, method_span=None)
    top = _top_level(hunk, view, language)
    if top:
        location = replace(location, class_name=None, method=None, methods=())
    elif location.method is None and not _type_declared_inside(view):
        location = replace(
            location,
            placed=False,
            note="enclosing method not visible in the diff (no source given)",
        )
    location = replace(location, evidence=_evidence(location, view, guess.basis, top, language))
    return _with_added_owner(location, hunk, file_diff, language, package, root, cache)


def patch_package(
    file_lines: Sequence[str], directory: DiffPackage, path: str, language: Language
) -> DiffPackage | None:
    """The package of a file whose hunk does not show it, from the patch's other lines:
    its other hunks' (`file_lines`: seen there), else the one seen in its directory's
    files (`directory`: a package usually is a directory's, so inferred); or None."""
    same_file = language.hooks.diff_package(file_lines, path, language.source_roots)
    if same_file.basis == "seen":
        return same_file
    return DiffPackage(directory.name, "inferred") if directory.basis == "seen" else None


def _header_doubles_a_type(index: FileIndex, fragment: Fragment) -> bool:
    """True when a type opened by the wrapper holds, on the hunk's own lines, a type of
    the same name: the hunk shows the declaration the header stood in for (a Java class
    named after its file), which would otherwise be read as `Foo.Foo`."""
    wrappers = {
        s.name
        for s in index.scopes
        if s.kind == "type" and s.depth == 1 and not _on_hunk_line(s.start, fragment)
    }
    return any(
        s.kind == "type"
        and _on_hunk_line(s.start, fragment)
        and s.name.rpartition(".")[0] in wrappers
        and s.name.rpartition(".")[2] == s.name.rpartition(".")[0].rpartition(".")[2]
        for s in index.scopes
    )


def _type_declared_inside(view: _View) -> bool:
    """True when the innermost scope around the change is a type whose declaration the
    hunk itself shows, nested as shown, so a null method is certain rather than unknown."""
    scopes: list[Scope] = view.index.enclosing(view.first, view.last)
    if not scopes:
        return False
    innermost = scopes[-1]
    return (
        innermost.kind == "type"
        and view.visible(innermost)
        and view.nested_as_shown(innermost)
        and view.clear_inside(innermost)
    )


def added_owner(
    hunk: Hunk,
    file_diff: FileDiff,
    language: Language,
    package: str,
    root: str,
    cache: ParseCache | None = None,
) -> str | None:
    """The class shared by every callable the hunk's added lines declare outside their
    class's body (a Go method's receiver type, a C++ `Foo::bar`), or None."""
    added = {ln.new_lineno for ln in hunk.lines if ln.kind is LineKind.ADDED and ln.new_lineno}
    if not added:
        return None
    index, fragment = _fragment_index(hunk, file_diff, language, "post", package, root, cache)
    view = _view(index, fragment, hunk, "post", language)
    owners: set[str | None] = set()
    for scope in view.index.scopes:
        if scope.kind != "callable" or scope.start not in added:
            continue
        lexical = any(
            t.kind == "type" and t.name == scope.owner and t.start <= scope.start <= t.end
            for t in view.index.scopes
        )
        owners.add(None if lexical else scope.owner)
    return next(iter(owners)) if len(owners) == 1 else None


def _with_added_owner(
    location: Location,
    hunk: Hunk,
    file_diff: FileDiff,
    language: Language,
    package: str,
    root: str,
    cache: ParseCache | None,
) -> Location:
    """`location`, whose change lies outside every class and method, given the class of
    the methods it adds there (their declarations show it: seen, unless a namespace
    opened above the hunk may qualify it)."""
    if location.class_name is not None or location.method is not None:
        return location
    if not language.hooks.callables_outside_types:
        return location
    owner = added_owner(hunk, file_diff, language, package, root, cache)
    if owner is None:
        return location
    basis: Basis = "inferred" if language.namespaces else "seen"
    return replace(
        location, class_name=owner, evidence=replace(location.evidence, class_name=basis)
    )
