"""A hunk's own lines, wrapped so that they parse as a fragment of a file, and the
fragment's scopes mapped back to the file's lines, keeping only those it can trust.
Locating from them is diff_locate.py; how sure each level is, diff_evidence.py."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Literal

import tree_sitter as ts

from ..patch.model import FileDiff, Hunk, LineKind
from .hooks.base import FragmentHeader
from .index import FileIndex, ParseCache, count_errors
from .languages import Language
from .parse_guard import parse, too_large
from .sweep import covering_below

Side = Literal["pre", "post"]
# Lines of one wrapping: the text, each line's number in the file (None: wrapper line),
# how many type scopes the wrapper opens and how many wrapper lines precede the hunk's.
Wrapping = tuple[list[str], list[int | None], int, int]

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
    # Why the hunk's lines were left out of the parse (parse_guard.too_large), or None.
    capped: str | None = None


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
    capped = too_large(body)
    if capped is not None:  # only the wrapper is parsed: no scope from the hunk's lines
        body, numbers = [], []
    # A hunk from the file's first line has nothing before it, so nothing around it: a
    # header (a type named after the file) would make its top-level types nested ones.
    at_top = bool(numbered) and numbered[0][0] == 1
    header = (
        language.hooks.fragment_header(hunk.section, file_diff.path)
        if use_header and not at_top
        else None
    )
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
        tree = parse(parser, data)
        errors = count_errors(tree)
        if best is None or errors < best.errors:
            best = Fragment(data, tuple(line_map), wrapper_types, tree, errors, head, seen, capped)
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


def remap(
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
        [True] * len(index.scopes) if keep_all else plausible_scopes(index, fragment, language)
    )
    scopes = [
        replace(scope, start=at(scope.start, first - 1), end=at(scope.end, last + 1))
        for scope, keep in zip(index.scopes, plausible, strict=True)
        if keep
    ]
    return replace(index, scopes=tuple(scopes))


def indent_of(line: str) -> int:
    return len(line.expandtabs(INDENT)) - len(line.lstrip())


def on_hunk_line(line: int, fragment: Fragment) -> bool:
    return 0 < line <= len(fragment.line_map) and bool(fragment.line_map[line - 1])


def plausible_scopes(index: FileIndex, fragment: Fragment, language: Language) -> list[bool]:
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
            or not on_hunk_line(scope.start, fragment)
        ):
            keep[i] = False
        else:
            checks.append(i)
    # The types the hunk shows (declared on its own lines) around each callable.
    visible = [
        (s.start, s.end, s.depth)
        for s in index.scopes
        if s.kind == "type" and on_hunk_line(s.start, fragment)
    ]
    counts = covering_below(
        visible, [(index.scopes[i].start, index.scopes[i].depth) for i in checks]
    )
    lines = fragment.text.decode("utf-8", "surrogateescape").split("\n")
    for i, visible_types in zip(checks, counts, strict=True):
        nesting = visible_types + (1 if fragment.wrapper_types else 0)
        keep[i] = indent_of(lines[index.scopes[i].start - 1]) <= INDENT * nesting
    return keep
