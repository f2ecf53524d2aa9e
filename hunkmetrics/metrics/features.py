"""Per-hunk inputs of the pair metrics: code tokens, AST edit bag, BLEU text.

Trees come from the run's ParseCache: the full pre- and post-image when sources are known,
else the hunk's own lines parsed as a fragment (and the result says so)."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Literal

import tree_sitter as ts

from ..lang.fragment import Side, cached_fragment
from ..lang.index import ParseCache
from ..lang.languages import LanguageRules, rules_for_path
from ..lang.parse_guard import MAX_FRAGMENT_BYTES, MAX_NESTING
from ..patch.model import FileDiff, Hunk, LineKind, Patch
from ..shortlist import few
from ..sources.resolve import Sources

SEPARATOR = "\x00SEP\x00"  # the one token between a hunk's removed and added tokens
_GENERIC_TOKEN = re.compile(
    r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|[A-Za-z_$][\w$]*|\d[\w.]*|==|!=|<=|>=|&&|\|\||'
    r"->|::|\+\+|--|[^\sA-Za-z0-9_]"
)

BagFrom = Literal["source", "diff", "tokens", "not parsed"]


@dataclass(frozen=True, slots=True)
class HunkFeatures:
    index: int
    path: str
    language: str | None
    tokens: tuple[str, ...]
    bag: dict[str, int]
    built_from: BagFrom
    text: str  # birch: removed lines then added lines, joined by newlines
    parse_errors: int = 0


@dataclass
class FeatureSet:
    hunks: list[HunkFeatures]
    warnings: list[str] = field(default_factory=list)


def hunk_text(hunk: Hunk) -> str:
    """The birch profile's text of a hunk: removed lines then added lines, by newlines."""
    return "\n".join(hunk.removed_text + hunk.added_text)


def generic_tokens(lines: Iterable[str]) -> list[tuple[str, str]]:
    """(class, text) tokens for a language without a grammar."""
    out = []
    for line in lines:
        for match in _GENERIC_TOKEN.finditer(line):
            token = match.group()
            kind = (
                "string"
                if token[0] in "\"'"
                else "identifier"
                if token[0].isalpha() or token[0] in "_$"
                else "number"
                if token[0].isdigit()
                else "operator"
            )
            out.append((kind, token))
    return out


def nodes_on_rows(tree: ts.Tree, rows: set[int]) -> list[ts.Node]:
    """Every node that starts on one of `rows` (0-based), in document order; subtrees that
    do not reach those rows are skipped."""
    if not rows:
        return []
    low, high = min(rows), max(rows)
    found: list[ts.Node] = []
    # A tree cursor, not Node.children: the children before the rows are skipped inside
    # tree-sitter, and a node's parent is a step up, not a search from the root.
    cursor = tree.walk()
    if not _down(cursor, low):
        return found
    depth = 1  # the cursor's; the root (0) is never a candidate
    while True:
        node = cursor.node
        assert node is not None
        start = node.start_point[0]
        if start <= high:
            if start in rows:
                found.append(node)
            # A node from row `low` on has only children that reach the rows.
            if cursor.goto_first_child() if start >= low else _down(cursor, low):
                depth += 1
                continue
            if cursor.goto_next_sibling():
                continue
        # Past the rows (so are the later siblings), or the last sibling: go on after
        # the nearest ancestor that has a next sibling.
        while True:
            depth -= 1
            if depth == 0:
                return found
            cursor.goto_parent()
            if cursor.goto_next_sibling():
                break


_LAST_COLUMN = 2**32 - 1  # tree-sitter's columns are 32-bit


def _down(cursor: ts.TreeCursor, low: int) -> bool:
    """Move to the first child of the cursor's node that ends on row `low` or later (its
    later siblings all do); False, not moved, when there is none."""
    if low == 0:
        return cursor.goto_first_child()
    return cursor.goto_first_child_for_point((low - 1, _LAST_COLUMN)) is not None


def _side(
    nodes: list[ts.Node], rules: LanguageRules
) -> tuple[list[str], Counter[str], dict[str, list[bytes]]]:
    """Tokens, named-node types and named leaves of one side, comments dropped."""
    tokens: list[str] = []
    counts: dict[str, int] = {}
    leaves: dict[str, list[bytes]] = defaultdict(list)
    comments = rules.comments
    comment_end = -1  # where the last comment seen ends
    for node in nodes:
        if node.start_byte < comment_end:
            continue  # inside a comment
        kind = node.type
        if kind in comments:
            comment_end = node.end_byte
            continue
        if node.is_missing:
            continue
        if node.child_count == 0:
            token = node.text
            tokens.append(token.decode("utf-8", "surrogateescape") if token else "")
        if node.is_named and not node.is_error:
            counts[kind] = counts.get(kind, 0) + 1
            if node.named_child_count == 0:
                leaves[kind].append(node.text or b"")
    return tokens, Counter(counts), leaves


def edit_bag(
    removed_types: Counter[str],
    added_types: Counter[str],
    removed_leaves: Mapping[str, Sequence[bytes | str]],
    added_leaves: Mapping[str, Sequence[bytes | str]],
) -> dict[str, int]:
    """The spec's edit bag: -t deleted, +t inserted, ~t updated leaves paired in order."""
    bag: dict[str, int] = {}
    _surplus(bag, "-", removed_types, added_types)
    _surplus(bag, "+", added_types, removed_types)
    for kind in removed_leaves.keys() & added_leaves.keys():
        changed = sum(
            1 for a, b in zip(removed_leaves[kind], added_leaves[kind], strict=False) if a != b
        )
        if changed:
            bag["~" + kind] = changed
    return bag


def _surplus(bag: dict[str, int], sign: str, mine: Counter[str], other: Counter[str]) -> None:
    """`mine - other` (Counter subtraction, in its order) into `bag`, keys signed."""
    for kind, count in mine.items():
        left = count - other.get(kind, 0)
        if left > 0:
            bag[sign + kind] = left
    for kind, count in other.items():
        if count < 0 and kind not in mine:
            bag[sign + kind] = -count


def _rows(hunk: Hunk, kind: LineKind) -> set[int]:
    if kind is LineKind.REMOVED:
        return {ln.old_lineno - 1 for ln in hunk.lines if ln.kind is kind and ln.old_lineno}
    return {ln.new_lineno - 1 for ln in hunk.lines if ln.kind is kind and ln.new_lineno}


def _fragment_rows(line_map: tuple[int | None, ...], numbers: set[int]) -> set[int]:
    return {row for row, n in enumerate(line_map) if n is not None and n - 1 in numbers}


def hunk_features(
    hunk: Hunk, file_diff: FileDiff, sources: Sources | None, cache: ParseCache
) -> HunkFeatures:
    text = hunk_text(hunk)
    rules = rules_for_path(file_diff.path)
    texts = sources.texts(file_diff) if sources is not None and rules is not None else None
    capped = rules is not None and texts is None and _capped(hunk, file_diff, rules, cache)
    if rules is None or capped:
        removed = generic_tokens(hunk.removed_text)
        added = generic_tokens(hunk.added_text)
        bag = edit_bag(
            Counter(k for k, _ in removed),
            Counter(k for k, _ in added),
            _group(removed),
            _group(added),
        )
        tokens = [t for _, t in removed] + [SEPARATOR] + [t for _, t in added]
        built: BagFrom = "not parsed" if capped else "tokens"
        language = rules.name if capped and rules is not None else None
        return HunkFeatures(hunk.index, file_diff.path, language, tuple(tokens), bag, built, text)
    removed_rows, added_rows = _rows(hunk, LineKind.REMOVED), _rows(hunk, LineKind.ADDED)
    errors = 0
    if texts is not None:
        # An image none of the hunk's lines are on is not parsed for it (a deletion's
        # post-image): its side has no nodes either way.
        pre_tree = cache.tree(rules, texts.pre) if texts.pre is not None and removed_rows else None
        post_tree = cache.tree(rules, texts.post) if texts.post is not None and added_rows else None
        built_from: BagFrom = "source"
    else:
        pre = cached_fragment(cache, hunk, file_diff, rules, "pre") if removed_rows else None
        post = cached_fragment(cache, hunk, file_diff, rules, "post") if added_rows else None
        pre_tree, post_tree = (pre.tree if pre else None), (post.tree if post else None)
        removed_rows = _fragment_rows(pre.line_map, removed_rows) if pre else set()
        added_rows = _fragment_rows(post.line_map, added_rows) if post else set()
        errors = (pre.errors if pre else 0) + (post.errors if post else 0)
        built_from = "diff"
    r_tokens, r_types, r_leaves = _side(
        nodes_on_rows(pre_tree, removed_rows) if pre_tree else [], rules
    )
    a_tokens, a_types, a_leaves = _side(
        nodes_on_rows(post_tree, added_rows) if post_tree else [], rules
    )
    return HunkFeatures(
        index=hunk.index,
        path=file_diff.path,
        language=rules.name,
        tokens=tuple(r_tokens + [SEPARATOR] + a_tokens),
        bag=edit_bag(r_types, a_types, r_leaves, a_leaves),
        built_from=built_from,
        text=text,
        parse_errors=errors,
    )


def _capped(hunk: Hunk, file_diff: FileDiff, rules: LanguageRules, cache: ParseCache) -> bool:
    """Whether a side of the hunk was too large to parse (parse_guard.too_large)."""
    sides: list[Side] = []
    if any(line.kind is LineKind.REMOVED for line in hunk.lines):
        sides.append("pre")
    if any(line.kind is LineKind.ADDED for line in hunk.lines):
        sides.append("post")
    return any(
        cached_fragment(cache, hunk, file_diff, rules, side).capped is not None for side in sides
    )


def _group(tokens: list[tuple[str, str]]) -> dict[str, list[str]]:
    grouped: dict[str, list[str]] = defaultdict(list)
    for kind, token in tokens:
        grouped[kind].append(token)
    return grouped


def patch_features(
    patch: Patch, hunks: list[tuple[Hunk, FileDiff]], sources: Sources | None, cache: ParseCache
) -> FeatureSet:
    """Features of the given hunks, with warnings for whatever was not computed from a
    full, parseable source."""
    features = [hunk_features(h, f, sources, cache) for h, f in hunks]
    warnings: list[str] = []
    generic = [f for f in features if f.built_from == "tokens"]
    if generic:
        suffixes = sorted({PurePosixPath(f.path).suffix or f.path for f in generic})
        warnings.append(
            f"hunks {_list(f.index for f in generic)}: no grammar for {', '.join(suffixes)}; "
            "lexical tokens from a generic tokenizer, structural bag from token classes"
        )
    not_parsed = [f for f in features if f.built_from == "not parsed"]
    if not_parsed:
        warnings.append(
            f"hunks {_list(f.index for f in not_parsed)}: too large or too deeply nested to "
            f"parse (over {MAX_FRAGMENT_BYTES:,} bytes or {MAX_NESTING} open brackets); "
            "lexical tokens from a generic tokenizer, structural bag from token classes"
        )
    from_diff = [f for f in features if f.built_from == "diff"]
    if from_diff:
        warnings.append(
            f"hunks {_list(f.index for f in from_diff)}: no source given; AST edit bags from "
            "parsing the hunks' own lines"
        )
    broken = [f for f in from_diff if f.parse_errors]
    if broken:
        warnings.append(
            f"hunks {_list(f.index for f in broken)}: their lines do not parse "
            "cleanly as a fragment; AST bags are partial"
        )
    return FeatureSet(features, warnings)


def _list(indices: Iterable[int]) -> str:
    return few(indices)
