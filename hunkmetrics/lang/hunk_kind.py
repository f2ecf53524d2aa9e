"""What a hunk changes: code, only comments, or only whitespace.

`whitespace`: its removed and added lines are equal once all whitespace is taken out.
`comment`: every non-blank changed line lies inside one comment node of the language's
grammar (the rules file's `comments` node types), in the file's parse when the sources
are known, else in the hunk's own fragment. Anything else, and any line that does not
parse as a comment, is `code`. (A Python docstring is a string, so it is code.)
"""

from __future__ import annotations

from typing import Literal

import tree_sitter as ts

from ..patch.model import FileDiff, Hunk, Line, LineKind
from .fragment import Side, cached_fragment
from .index import ParseCache
from .languages import Language, default_languages
from .locate import SourceFiles
from .parse_guard import parse, too_large

HunkKind = Literal["code", "comment", "whitespace"]
HUNK_KINDS: tuple[HunkKind, ...] = ("code", "comment", "whitespace")


#: Why ignore_comment_only empties a file: its hunks change no code.
COMMENT_ONLY = "comment or whitespace only"


def comment_only_left_out(listed: object) -> str:
    """The warning for the hunks ignore_comment_only leaves out (`listed`: as `few`)."""
    return f"hunks {listed} change only comments or whitespace: left out (ignore_comment_only)"


def no_code_hunk(count: int) -> str:
    """The warning for a patch none of whose `count` hunks changes code."""
    return (
        f"no hunk changes code: all {count} change only comments or whitespace (see each "
        "hunk's kind), so the metrics describe those edits"
    )


def _squash(lines: list[str]) -> str:
    return "".join("".join(lines).split())


def hunk_kind(
    hunk: Hunk, file_diff: FileDiff, sources: SourceFiles | None, cache: ParseCache
) -> HunkKind:
    """The kind of one hunk (module docstring)."""
    if _squash(hunk.removed_text) == _squash(hunk.added_text):
        return "whitespace"
    language = default_languages().for_path(file_diff.path)
    if language is None or not language.comments:
        return "code"
    texts = sources.texts(file_diff) if sources is not None else None
    for side, kind in (("pre", LineKind.REMOVED), ("post", LineKind.ADDED)):
        changed = [
            (line.old_lineno if side == "pre" else line.new_lineno, line.text)
            for line in hunk.lines
            if line.kind is kind and line.text.strip()
        ]
        if not changed:
            continue
        if texts is not None:
            data = texts.pre if side == "pre" else texts.post
            if data is None:
                return "code"
            tree = cache.tree(language, data)
            rows = [((number or 1) - 1, text) for number, text in changed]
        else:
            fragment = cached_fragment(cache, hunk, file_diff, language, _side(side))
            tree = fragment.tree
            where = {n: row for row, n in enumerate(fragment.line_map) if n is not None}
            rows = [(where.get(number or 0, -1), text) for number, text in changed]
        in_comments = all(_in_comment(tree, row, text, language) for row, text in rows)
        if not in_comments and (
            texts is not None
            or not (
                _inside_block_comment(hunk, side, language)
                or _open_block_comment(hunk, side, language)
            )
        ):
            return "code"
    return "comment"


def _inside_block_comment(hunk: Hunk, side: str, language: Language) -> bool:
    """For a diff alone: whether the hunk's side is the middle of a block comment whose
    ends it does not show (a long Javadoc): every line continues it (` * …`) and,
    wrapped in `/*` … `*/`, it parses as one comment. Brace languages only, as the
    fragments assume (fragment.py)."""
    if language.fragment != "braces":
        return False
    lines = [line.text for line in _side_lines(hunk, side)]
    if any("/*" in text or "*/" in text for text in lines):
        return False
    if not all(text.lstrip().startswith("*") for text in lines if text.strip()):
        return False  # only ` * …` continuation lines: code cannot look like that
    if too_large(lines) is not None:
        return False  # not parsed: taken for code
    data = ("/*\n" + "\n".join(lines) + "\n*/\n").encode("utf-8", "surrogateescape")
    root = parse(language.parser(), data).root_node
    return root.named_child_count == 1 and root.named_children[0].type in language.comments


def _open_block_comment(hunk: Hunk, side: str, language: Language) -> bool:
    """For a diff alone: whether the hunk's changed lines on this side all lie in a block
    comment it opens but does not close (a Javadoc cut by the hunk's end), or closes
    without opening (cut by its start). The part of the side from the opening line
    `/*…` to the end, or from the start to the closing line `…*/`, must hold nothing but
    continuation lines (` * …`) or blank ones, and every changed line must be in it."""
    if language.fragment != "braces":
        return False
    shown = _side_lines(hunk, side)
    texts = [line.text.strip() for line in shown]
    changed = [i for i, line in enumerate(shown) if line.kind is not LineKind.CONTEXT]
    if not changed:
        return False
    opened = [i for i, t in enumerate(texts) if t.startswith("/*") and "*/" not in t]
    if opened and all(_continues(t) for t in texts[opened[-1] + 1 :]):
        return changed[0] >= opened[-1]
    closed = [i for i, t in enumerate(texts) if t.endswith("*/") and "/*" not in t]
    if closed and all(_continues(t) for t in texts[: closed[0]]):
        return changed[-1] <= closed[0]
    return False


def _side_lines(hunk: Hunk, side: str) -> list[Line]:
    """The hunk's lines on one side: context and removed (pre) or added (post)."""
    drop = LineKind.ADDED if side == "pre" else LineKind.REMOVED
    return [line for line in hunk.lines if line.kind is not drop]


def _continues(text: str) -> bool:
    """A block comment's continuation line (stripped): blank, or `*` without a close."""
    return not text or (text.startswith("*") and "*/" not in text)


def _side(side: str) -> Side:
    return "pre" if side == "pre" else "post"


def _in_comment(tree: ts.Tree, row: int, text: str, language: Language) -> bool:
    """True when the line's first and last non-blank characters lie in one comment node.
    Columns are bytes, as tree-sitter counts them."""
    if row < 0:
        return False
    raw = text.encode("utf-8", "surrogateescape")
    first = len(raw) - len(raw.lstrip())
    last = len(raw.rstrip()) - 1
    node: ts.Node | None = tree.root_node.descendant_for_point_range((row, first), (row, first))
    for _ in range(4):  # a comment node, or one of its few ancestors
        if node is None:
            return False
        if node.type in language.comments:
            return node.start_point <= (row, first) and node.end_point >= (row, last + 1)
        node = node.parent
    return False
