"""The `birch` profile's S: the AST path distance between two hunks of one file in the
post-image's birch tree (JavaParser's shape), 1 across files (birch.py says the rest of
the profile). Its numpy tables are loaded only when a divergence is computed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ...lang.languages import rules_for_path
from ...patch.model import Hunk, LineKind
from ...shortlist import few
from ..ast_path import FileStructure, hunk_span, hunk_span_without_context, post_line_count
from ..features import patch_features
from ..structural import BagDistanceTable
from .base import PairInputs, PairTable


class PairCells(Protocol):
    """A pair component among one file's k hunks: `cells(rows, columns)` (positions among
    them) as a len(rows) x len(columns) matrix."""

    def cells(self, rows: np.ndarray, columns: np.ndarray) -> np.ndarray: ...


@dataclass(frozen=True)
class DenseCells:
    matrix: np.ndarray

    def cells(self, rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
        return np.asarray(self.matrix[np.ix_(rows, columns)])


#: Files' same-file matrices are kept while their cells add up to this many (32 MB);
#: the pairs of the files past it are computed again when read.
KEPT_CELLS = 1 << 22


class FileBlocksTable:
    """S as a PairTable: 1 across files, and per file with several hunks its pairs'
    values (`PairCells`). Small files' k x k matrices are kept, up to KEPT_CELLS cells
    in all; the others are computed block by block, so memory is linear in n."""

    def __init__(self, n: int, kept_cells: int = KEPT_CELLS) -> None:
        self.n = n
        self.group = np.full(n, -1, dtype=np.int64)  # each hunk's file block, -1: none
        self.blocks: list[tuple[np.ndarray, PairCells]] = []  # (members, their cells)
        self.budget = kept_cells

    def set(self, members: list[int], cells: PairCells) -> None:
        size = len(members) ** 2
        if size <= self.budget:
            everyone = np.arange(len(members))
            cells = DenseCells(cells.cells(everyone, everyone))
            self.budget -= size
        self.group[members] = len(self.blocks)
        self.blocks.append((np.asarray(members, dtype=np.int64), cells))

    def rows(self, start: int, stop: int) -> np.ndarray:
        out = np.ones((stop - start, self.n - start))
        diagonal = np.arange(stop - start)
        out[diagonal, diagonal] = 0.0
        # sorted(set()), not np.unique: its first call imports numpy.ma (8 ms)
        for g in sorted(set(self.group[start:stop].tolist())):
            if g < 0:
                continue
            members, cells = self.blocks[g]
            rows = np.flatnonzero((members >= start) & (members < stop))
            columns = np.flatnonzero(members >= start)
            out[np.ix_(members[rows] - start, members[columns] - start)] = cells.cells(
                rows, columns
            )
        return out


def ast_path_distance(inputs: PairInputs) -> PairTable:
    """S: for two hunks of one file, ln(1 + edges between their anchors) / ln(1 + the
    tree's diameter) in the post-image's birch tree (JavaParser's shape); 1 across files.
    Same-file pairs without that tree (no source, or a language other than Java) get the
    default edit-bag distance, with a warning."""
    out = FileBlocksTable(len(inputs.hunks))
    by_file: dict[str, list[int]] = {}
    for k, (_, file_diff) in enumerate(inputs.hunks):
        by_file.setdefault(file_diff.path, []).append(k)
    no_source: list[int] = []
    for path, members in by_file.items():
        if len(members) < 2:
            continue  # no same-file pair: no tree needed
        file_diff = inputs.hunks[members[0]][1]
        rules = rules_for_path(path)
        if rules is None or not rules.hooks.has_birch_tree:
            inputs.warnings.append(
                f"birch's AST term is defined for Java only; {path}: S uses the default "
                "edit-bag distance for its same-file pairs"
            )
            _edit_bags(inputs, members, out)
            continue
        texts = inputs.sources.texts(file_diff) if inputs.sources is not None else None
        post = texts.post if texts is not None else None
        tree = None
        if post is not None:
            lines = post_line_count(post.decode("utf-8", errors="replace"))
            spans = [post_span(inputs.hunks[k][0], lines) for k in members]
            tree = inputs.cache.birch_tree(rules, post, near=spans)
        if post is None or tree is None:
            no_source.extend(members)
            _edit_bags(inputs, members, out)
            continue
        if tree.nodes.has_error:
            inputs.warnings.append(
                f"{path}: the post-image does not parse cleanly; birch's AST distances in "
                "this file are measured on a partly recovered tree"
            )
        structure = FileStructure(tree.nodes, tree.diameter)
        out.set(members, structure.cells(spans))
    if no_source:
        inputs.warnings.append(
            f"hunks {few(inputs.hunks[k][0].index for k in sorted(no_source))}: "
            "birch AST distance needs the file's source (--repo); used the default "
            "edit-bag distance for their same-file pairs"
        )
    return out


def post_span(hunk: Hunk, line_count: int) -> tuple[int, int]:
    """The hunk's post-image span: the study's formula (`hunk_span`, made for git's 3
    context lines); for a hunk without any context line (`-U0`), its own lines."""
    if all(line.kind is not LineKind.CONTEXT for line in hunk.lines):
        return hunk_span_without_context(hunk.new_start, hunk.new_lines)
    return hunk_span(hunk.new_start, hunk.new_lines, line_count)


def _edit_bags(inputs: PairInputs, members: list[int], out: FileBlocksTable) -> None:
    """The default profile's S for the pairs among `members` (one file's hunks)."""
    feats = patch_features(
        inputs.patch, [inputs.hunks[k] for k in members], inputs.sources, inputs.cache
    ).hunks
    out.set(members, BagDistanceTable([f.bag for f in feats], [f.language for f in feats]))
