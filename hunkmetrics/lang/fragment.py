"""Locating a hunk from the diff alone: parse its own lines, wrapped so that a fragment
of a file parses, and say what could not be seen."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Literal

import tree_sitter as ts

from ..patch.model import FileDiff, Hunk, LineKind
from .hooks.base import FragmentHeader
from .index import FileIndex, ParseCache, Scope, build_index, count_errors, top_qualifier
from .languages import Language
from .location import Location, anchors, locate_in_index
from .sweep import covering_below

Side = Literal["pre", "post"]
# Lines of one wrapping: the text, each line's number in the file (None: wrapper line)
# and how many type scopes the wrapper opens.
Wrapping = tuple[list[str], list[int | None], int]

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
) -> Fragment:
    """The best-parsing wrapping of the hunk's lines for this language (without the
    hooks' header line when `use_header` is false)."""
    numbered = hunk_side_lines(hunk, side)
    body = [text for _, text in numbered]
    numbers: list[int | None] = [n for n, _ in numbered]
    header = language.hooks.fragment_header(hunk.section, file_diff.path) if use_header else None
    candidates: list[Wrapping] = []
    if language.fragment == "indent":
        candidates.extend(_indent_wrappings(body, numbers, header))
    else:
        if _starts_in_comment(body):
            body, numbers = ["/*", *body], [None, *numbers]
        candidates.extend(_brace_wrappings(body, numbers, header))
    best: Fragment | None = None
    parser = language.parser()
    for lines, line_map, wrapper_types in candidates:
        data = ("\n".join(lines) + "\n").encode("utf-8", "surrogateescape")
        tree = parser.parse(data)
        errors = count_errors(tree)
        if best is None or errors < best.errors:
            best = Fragment(data, tuple(line_map), wrapper_types, tree, errors)
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
    cached = cache.fragments.get(key)
    if not isinstance(cached, Fragment):
        cached = cache.fragments[key] = build_fragment(
            hunk, file_diff, language, side, use_header=use_header
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
            )


def _indent_wrappings(
    body: list[str], numbers: list[int | None], header: FragmentHeader | None
) -> Iterator[Wrapping]:
    """Wrappings for an indentation language: under the header when the lines are
    indented, then dedented to the left margin."""
    indents = [len(t) - len(t.lstrip()) for t in body if t.strip()]
    low = min(indents) if indents else 0
    if low and header is not None:
        yield [header.line, *body], [None, *numbers], 1 if header.opens_type else 0
    yield [t[low:] if len(t) >= low else t.lstrip() for t in body], list(numbers), 0


def _remap(index: FileIndex, fragment: Fragment, language: Language) -> FileIndex:
    """Synthetic line numbers → the file's, wrapper lines stretching to the outside."""
    known = [n for n in fragment.line_map if n]
    first, last = (min(known), max(known)) if known else (0, 0)

    def at(line: int, default: int) -> int:
        mapped = fragment.line_map[line - 1] if 0 < line <= len(fragment.line_map) else None
        return mapped if mapped else default

    lines = fragment.text.decode("utf-8", "surrogateescape").split("\n")
    plausible = _plausible_scopes(index, fragment, lines, language)
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


def _plausible_scopes(
    index: FileIndex, fragment: Fragment, lines: list[str], language: Language
) -> list[bool]:
    """Whether each scope found in a fragment can be trusted.

    Error recovery can invent declarations (`} else {`, or a call such as
    `.collect(toList());` read as a method): a callable is kept only when its
    declaration is one of the hunk's own lines, its header parsed cleanly, its name is
    no keyword and, where the hooks say callables need a type (Java), it sits inside a
    type. And a fragment hides the types around it: a method indented deeper than the
    types the hunk shows can explain belongs to a nested or anonymous class whose name
    is not visible, so naming it would be a guess."""
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
    indents: dict[int, int] = {}
    for i, visible_types in zip(checks, counts, strict=True):
        start = index.scopes[i].start
        if start not in indents:
            indents[start] = _indent(lines[start - 1])
        nesting = visible_types + (1 if fragment.wrapper_types else 0)
        keep[i] = indents[start] <= INDENT * nesting
    return keep


def locate_from_diff(
    hunk: Hunk, file_diff: FileDiff, language: Language, cache: ParseCache | None = None
) -> Location:
    """Locate one hunk from its own lines (pre-image side, or post-image for a new file)."""
    side: Side = "post" if file_diff.old_path is None else "pre"
    path = file_diff.path
    lines = [line.text for line in hunk.lines]
    package = language.hooks.diff_package(lines, path, language.source_roots)
    root = top_qualifier(language, package, path, from_diff=True)
    for use_header in (True, False):
        fragment = (
            cached_fragment(cache, hunk, file_diff, language, side, use_header=use_header)
            if cache is not None
            else build_fragment(hunk, file_diff, language, side, use_header=use_header)
        )
        index = build_index(
            fragment.text, language, path, package=package, root=root, tree=fragment.tree
        )
        if not _header_doubles_a_type(index, fragment):
            break
    index = _remap(index, fragment, language)
    location = locate_in_index(index, hunk, "diff")
    if side == "post":
        location = replace(
            location,
            class_name=None,
            method=None,
            methods=(),
            method_span=None,
            note="new file: located in its post-image",
        )
        return location
    location = replace(location, method_span=None)
    if location.method is None and not _type_declared_inside(index, hunk, fragment):
        location = replace(
            location,
            placed=False,
            note="enclosing method not visible in the diff (no source given)",
        )
    return location


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


def _type_declared_inside(index: FileIndex, hunk: Hunk, fragment: Fragment) -> bool:
    """True when the innermost scope around the change is a type whose declaration the
    hunk itself shows, so a null method is certain rather than unknown."""
    points = anchors(hunk)
    if not points:
        return False
    known = {n for n in fragment.line_map if n}
    scopes: list[Scope] = index.enclosing(points[0].first, points[-1].last)
    if not scopes:  # top level: only certain for lines that can only be there
        return all(_TOP_LEVEL_RE.match(t) for t in hunk.removed_text or hunk.added_text)
    innermost = scopes[-1]
    return innermost.kind == "type" and innermost.start in known
