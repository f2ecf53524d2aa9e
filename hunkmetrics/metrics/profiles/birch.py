"""The `birch` profile: the published Hunk4J definitions (Birch et al.), exactly as the
study computed them (../shared/spec/birch-exact.md, docs/metrics.md).

1 - BLEU on Punkt-split NLTK tokens for L; for S the AST path distance between the hunks'
anchors in the post-image's JavaParser-shaped tree; whole-file sections left out; packages
as the path without its first and last segments; Sprawl cutoff 3; F uncapped (the
published scripts' quirk: two paths with no common first segment score 1 + 1/m)."""

from __future__ import annotations

from pathlib import PurePosixPath

from .base import PairInputs, PairTable, Profile


def bleu_distance(inputs: PairInputs) -> PairTable:
    """L: 1 - BLEU-4 between the hunks' texts (needs only the text: no parse)."""
    from ..features import hunk_text
    from ..lexical import BleuDistanceTable

    return BleuDistanceTable([hunk_text(hunk) for hunk, _ in inputs.hunks])


def ast_path_distance(inputs: PairInputs) -> PairTable:
    """S: for two hunks of one file, ln(1 + edges between their anchors) / ln(1 + the
    tree's diameter) in the post-image's birch tree (JavaParser's shape); 1 across files
    (birch_ast.py)."""
    from .birch_ast import ast_path_distance

    return ast_path_distance(inputs)


def inner_segments(path: str) -> tuple[str, ...]:
    """The path's segments without the first and the last, as the published scripts
    took the package."""
    return tuple(PurePosixPath(path).parts[1:-1])


BIRCH = Profile(
    name="birch",
    summary="the published Hunk4J definitions (BLEU, AST path distance)",
    lexical=bleu_distance,
    structural=ast_path_distance,
    counts_whole_files=False,
    package_rule=inner_segments,
    cutoff=3,
    file_capped=False,
    reproduces_published_artifacts=True,
)
