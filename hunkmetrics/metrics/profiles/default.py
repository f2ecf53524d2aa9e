"""The `default` profile: token edit distance, AST edit bags, every content hunk,
packages as directories, a cutoff from the hunks' own package depths, F capped at 1."""

from __future__ import annotations

from .base import PairInputs, PairTable, Profile, directory_package


def token_edit_distance(inputs: PairInputs) -> PairTable:
    """L: normalized Levenshtein distance between the hunks' code-token sequences."""
    from ..token_edit import TokenDistanceTable

    return TokenDistanceTable([f.tokens for f in inputs.features().hunks])


def edit_bag_distance(inputs: PairInputs) -> PairTable:
    """S: weighted Jaccard distance between the hunks' AST edit bags."""
    from ..structural import BagDistanceTable

    feats = inputs.features().hunks
    return BagDistanceTable([f.bag for f in feats], [f.language for f in feats])


DEFAULT = Profile(
    name="default",
    summary="token edit distance and AST edit bags",
    lexical=token_edit_distance,
    structural=edit_bag_distance,
    counts_whole_files=True,
    package_rule=directory_package,
    cutoff=None,
    file_capped=True,
)
