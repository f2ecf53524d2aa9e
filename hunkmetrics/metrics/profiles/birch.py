"""The `birch` profile: the published Hunk4J definitions (Birch et al.).

1 - BLEU for L, AST path distance for S, whole-file sections left out, packages as the
path without its first and last segments, Sprawl cutoff 3, F uncapped (the published
scripts' quirk: two paths with no common first segment score 1 + 1/m)."""

from __future__ import annotations

from pathlib import PurePosixPath

import numpy as np

from ..features import hunk_text
from ..lexical import bleu_distance_pairs
from ..structural import ast_path_distance_matrix
from .base import PairInputs, Profile


def bleu_distance(inputs: PairInputs) -> np.ndarray:
    """L: 1 - BLEU-4 between the hunks' texts (needs only the text: no parse)."""
    return bleu_distance_pairs([hunk_text(hunk) for hunk, _ in inputs.hunks])


def ast_path_distance(inputs: PairInputs) -> np.ndarray:
    """S: AST path distance between same-file hunks' anchors; 1 across files."""
    matrix, notes = ast_path_distance_matrix(
        inputs.patch, inputs.hunks, inputs.sources, inputs.cache
    )
    inputs.warnings.extend(notes)
    return matrix


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
)
