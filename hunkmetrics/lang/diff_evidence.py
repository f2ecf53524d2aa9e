"""How sure a diff-only location is: what a hunk's fragment shows around the change
(`DiffView`), and for class and method whether it is seen, inferred or unknown
(docs/hierarchy.md, "From the diff alone")."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import tree_sitter as ts

from ..patch.model import Hunk, LineKind
from .evidence import Basis, Evidence
from .fragment import (
    INDENT,
    Fragment,
    Side,
    hunk_side_lines,
    indent_of,
    on_hunk_line,
    plausible_scopes,
    remap,
)
from .index import FileIndex, Scope
from .languages import Language
from .location import Anchor, Location, anchors

_TOP_LEVEL_RE = re.compile(r"^(import|package|#\s*include|using|from)\b")


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
            step = indent_of(line) - indent_of(previous)
            if step > 0 and _OPENS_BLOCK_RE.search(previous):
                steps.append(step)
            elif step and _ENDS_STATEMENT_RE.search(previous) and not _CONTINUES_RE.match(line):
                steps.append(abs(step))
        previous = line
    if steps:
        return min(steps)
    starts = [line for line in lines if line.strip() and not _CONTINUES_RE.match(line)]
    if any(indent_of(line) % INDENT == 2 for line in starts):
        return 2
    return INDENT if any(line.startswith("\t") for line in starts) else None


_OPENS_BLOCK_RE = re.compile(r"[{:]\s*$")

_ENDS_STATEMENT_RE = re.compile(r"[;{}]\s*$")

_CONTINUES_RE = re.compile(r"^\s*([.+\-*/%&|^?:,)\]]|$)")

_CLOSER_RE = re.compile(r"^[})\]@]")

_STRING_NODE_RE = re.compile(r"string|template|heredoc")


@dataclass(frozen=True, slots=True)
class DiffView:
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
    # Callables the hunk declares, sound but for their indentation, that were not trusted:
    # real declarations nested in something the diff hides (a change inside one is not
    # in any callable the fragment shows around it).
    hidden: tuple[Scope, ...] = ()
    # Callables the `@@` heading opens (a Python `def` line): around the hunk, never the
    # method itself (their parameters may be cut), but a level of nesting all the same.
    heading: tuple[Scope, ...] = ()

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
        around = self.around(scope)
        if not self.fragment.header_seen and not all(self.visible(s) for s in around):
            return False
        return indent // unit == len(around)

    def around(self, scope: Scope) -> list[Scope]:
        """The scopes the fragment puts around `scope` (namespaces, which need not
        indent what they hold, left out), the heading's callables included."""
        return [
            s
            for s in (*self.index.scopes, *self.heading)
            if s.kind != "namespace"
            and s.depth < scope.depth
            and s.start <= scope.start
            and scope.end <= s.end
        ]

    def levels_hidden(self, scope: Scope) -> int:
        """How many enclosing levels the scope's indentation has beyond those the
        fragment puts around it (0 when none, or when the hunk does not show how wide a
        level is): levels whose names its qualified name lacks."""
        indent = self.indents.get(scope.start)
        if indent is None or self.unit is None:
            return 0
        return max(0, indent // self.unit - len(self.around(scope)))

    def hidden_inside(self, method: Scope | None) -> bool:
        """True when a callable the hunk declares but that is not trusted (nested in
        what the diff hides, or read with doubt) holds an anchor inside `method` (or
        anywhere, for None): the change may be in that callable, not in `method`."""
        declared = (u for u in self.untrusted if u.start in self.shown)
        return any(
            any(u.start <= a.first and a.last <= u.end for a in self.points)
            and (method is None or (method.start <= u.start and u.end <= method.end))
            for u in (*self.hidden, *declared)
        )

    def scope_named(self, kind: str, name: str, first: int, last: int) -> Scope | None:
        found = [s for s in self.index.enclosing(first, last) if s.kind == kind and s.name == name]
        return found[-1] if found else None


def _anonymous_counted(scope: Scope, view: DiffView) -> bool:
    """An anonymous class's number (`Foo$2`) is right only when its named base's whole
    body up to it is shown, i.e. the base is declared on the hunk's lines."""
    if not scope.anonymous:
        return True
    base = scope.name.rsplit("$", 1)[0]
    return any(s.kind == "type" and s.name == base and view.visible(s) for s in view.index.scopes)


def evidence_of(
    location: Location, view: DiffView, package: Basis, top: bool, language: Language
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


def top_level(hunk: Hunk, view: DiffView, language: Language) -> bool:
    """True when the hunk's changed lines can only be at the top level, outside every
    type and callable: `import`/`package` lines at the left margin, or, where no scope
    the hunk shows holds them, lines at the left margin of an indentation language (or
    of a brace language's fragment that reopens nothing), outside strings."""
    removed = [t for t in hunk.removed_text if t.strip()]
    own = removed or [t for t in hunk.added_text if t.strip()]
    if own and all(_TOP_LEVEL_RE.match(t) and not indent_of(t) for t in own):
        return True
    changed = removed or _insertion_edges(hunk)
    if not changed or any(indent_of(t) for t in changed):
        return False
    if not removed and language.fragment != "indent" and not _shown_after(hunk):
        # Only in an indentation language is an added line at the left margin certainly
        # outside every block; elsewhere the line after it must say so (none at -U0).
        return False
    if any(s.start in view.shown for s in view.index.enclosing(view.first, view.last)):
        return False
    if language.fragment != "indent" and view.fragment.head:
        return False
    if any(_CLOSER_RE.match(t) for t in changed):
        return False  # a closing line belongs to what it closes
    if any(language.hooks.anywhere_at_margin(t) for t in changed) and not _all_at_margin(hunk):
        return False  # a preprocessor line or a label may stand there inside a body
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


def _all_at_margin(hunk: Hunk) -> bool:
    """True when the hunk shows context and every line it shows of the pre-image is at
    the left margin (no body's line around: a run of `#define`s in a header)."""
    shown = [t for _, t in hunk_side_lines(hunk) if t.strip()]
    has_context = any(ln.kind is LineKind.CONTEXT and ln.text.strip() for ln in hunk.lines)
    return has_context and not any(indent_of(t) for t in shown)


def _shown_after(hunk: Hunk) -> bool:
    """True when what follows each block of added lines is in sight: a hunk with context
    shows the lines after every block, or ends where the file does. A hunk without any
    (`-U0`) shows nothing around its gap."""
    return any(line.kind is LineKind.CONTEXT for line in hunk.lines)


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


def diff_view(
    index: FileIndex, fragment: Fragment, hunk: Hunk, side: Side, language: Language
) -> DiffView:
    """`index` remapped to the file's lines, with what the hunk shows."""
    original = hunk_side_lines(hunk, side)
    indents = {n: indent_of(t) for n, t in original if n and t.strip()}
    every = remap(index, fragment, language, keep_all=True).scopes
    plausible, sound = trusted_scopes(index, fragment, language)
    remapped = replace(index, scopes=tuple(s for s, ok in zip(every, plausible, strict=True) if ok))
    untrusted = tuple(
        s
        for s, ok in zip(every, plausible, strict=True)
        if not ok and s.kind == "callable" and "__fragment__" not in s.name
    )
    hidden = tuple(
        s for s, ok, good in zip(every, plausible, sound, strict=True) if good and not ok
    )
    heading = tuple(
        every[i]
        for i, s in enumerate(index.scopes)
        if s.kind == "callable" and _from_heading(s, fragment)
    )
    unit = indent_unit([t for _, t in original])
    shown = frozenset(n for n, _ in original if n)
    return DiffView(
        remapped,
        fragment,
        shown,
        indents,
        unit,
        tuple(anchors(hunk)),
        untrusted,
        _error_lines(fragment),
        hidden,
        heading,
    )


def _from_heading(scope: Scope, fragment: Fragment) -> bool:
    """Whether the scope is opened by the `@@` heading the fragment is wrapped in (not
    by a made-up opener such as `def __fragment__():`)."""
    return (
        fragment.header_seen
        and "__fragment__" not in scope.name
        and not on_hunk_line(scope.start, fragment)
        and scope.start <= fragment.head
    )


def trusted_scopes(
    index: FileIndex, fragment: Fragment, language: Language
) -> tuple[list[bool], list[bool]]:
    """Per scope of the fragment's index: whether it is trusted, and whether it is sound
    (a callable passing every check of `plausible_scopes` but the indentation one).

    `plausible_scopes` trusts a callable whose indentation the types the hunk shows
    explain. A callable nested in a callable (a Python inner `def`, a JavaScript
    function in a function) or in a block is explained as well when what holds it is
    itself declared on the hunk's lines and trusted, with no parse error between:
    every line between the two is then shown. And one right inside the `@@` heading's
    callable (Python's `def` heading) counts that callable as one level, as a heading
    class counts."""
    keep = plausible_scopes(index, fragment, language)
    sound = plausible_scopes(index, _flush_left(fragment), language)
    errors = _error_rows(fragment)
    lines = fragment.text.decode("utf-8", "surrogateescape").split("\n")
    open_: list[int] = []  # indexes of the scopes around the current one
    for i, scope in enumerate(index.scopes):
        while open_ and not index.scopes[open_[-1]].contains(scope.start, scope.end):
            open_.pop()
        if scope.kind == "callable" and scope.start - 1 in errors:
            # An error on its declaration's line (a JavaScript `const f = function` read
            # in a class body as a field named `const`): its name is error recovery's.
            keep[i] = sound[i] = False
        parent = index.scopes[open_[-1]] if open_ else None
        if sound[i] and not keep[i] and parent is not None:
            j = open_[-1]
            if on_hunk_line(parent.start, fragment) and keep[j]:
                keep[i] = not any(parent.start - 1 <= row < scope.start for row in errors)
            elif parent.kind == "callable" and _from_heading(parent, fragment):
                levels = sum(
                    1
                    for k in open_
                    if index.scopes[k].kind != "namespace"
                    and (
                        on_hunk_line(index.scopes[k].start, fragment)
                        or _from_heading(index.scopes[k], fragment)
                    )
                )
                keep[i] = indent_of(lines[scope.start - 1]) <= INDENT * levels
        sound[i] = sound[i] and scope.kind == "callable"
        open_.append(i)
    return keep, sound


def _flush_left(fragment: Fragment) -> Fragment:
    """The fragment with every line at the left margin: `plausible_scopes` on it applies
    every check but the indentation one (the text is read for nothing else)."""
    lines = fragment.text.split(b"\n")
    return replace(fragment, text=b"\n".join(line.lstrip() for line in lines))


def _error_rows(fragment: Fragment) -> frozenset[int]:
    """The fragment's rows (0-based) on which its parse has an error."""
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
    return frozenset(rows)


def _error_lines(fragment: Fragment) -> frozenset[int]:
    """The hunk lines (file numbers) on which the fragment's parse has an error."""
    lines = fragment.line_map
    return frozenset(n for row in _error_rows(fragment) if row < len(lines) and (n := lines[row]))


def type_declared_inside(view: DiffView) -> bool:
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
