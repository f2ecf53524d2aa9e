"""Hunk divergence: pair components combined, weighted by ln(n), in two profiles."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from ..lang.index import ParseCache
from ..lang.languages import rules_for_path
from ..patch.model import FileDiff, FileStatus, Hunk, Patch
from ..sources.resolve import Sources
from .features import hunk_text, patch_features
from .filelevel import file_distance
from .lexical import bleu_distance_pairs, token_distance_matrix
from .structural import anchor_node, bag_distance_matrix, flatten, path_distance

Profile = Literal["default", "birch"]
PROFILES: tuple[str, ...] = ("default", "birch")
DISTRIBUTED_WEIGHT = 2.0  # the published g for hunks in different files


@dataclass(frozen=True, slots=True)
class PairScore:
    i: int
    j: int
    lexical: float
    structural: float
    file: float
    gamma: float
    value: float


@dataclass(frozen=True)
class DivergenceResult:
    """Div(P) with every pair's components. Pairs are stored as vectors over the upper
    triangle (i < j, hunk indices as in `hunkmetrics hunks`)."""

    profile: str
    value: float
    hunk_indices: tuple[int, ...]
    pair_i: np.ndarray
    pair_j: np.ndarray
    lexical: np.ndarray
    structural: np.ndarray
    file: np.ndarray
    gamma: np.ndarray
    pair_value: np.ndarray
    distributed_weight: float = DISTRIBUTED_WEIGHT
    excluded_hunks: tuple[int, ...] = ()
    warnings: tuple[str, ...] = field(default=())

    @property
    def hunk_count(self) -> int:
        return len(self.hunk_indices)

    @property
    def means(self) -> dict[str, float | None]:
        def mean(values: np.ndarray) -> float | None:
            return float(values.mean()) if len(values) else None

        return {
            "lexical": mean(self.lexical),
            "structural": mean(self.structural),
            "file": mean(self.file),
        }

    def pairs(self) -> Iterator[PairScore]:
        for k in range(len(self.pair_i)):
            yield PairScore(
                int(self.pair_i[k]),
                int(self.pair_j[k]),
                float(self.lexical[k]),
                float(self.structural[k]),
                float(self.file[k]),
                float(self.gamma[k]),
                float(self.pair_value[k]),
            )

    def to_dict(self, *, lazy_pairs: bool = False) -> dict[str, Any]:
        """The `divergence` object of the divergence/v1 and characterize/v1 documents.
        With `lazy_pairs`, "pairs" is a PairRows view made on demand (for writers that
        stream millions of pairs) instead of a list of dicts."""
        rows = PairRows(self)
        return {
            "profile": self.profile,
            "value": self.value,
            "means": self.means,
            "distributed_weight": self.distributed_weight,
            "excluded_hunks": list(self.excluded_hunks),
            "pairs": rows if lazy_pairs else list(rows),
        }


PAIR_KEYS = ("i", "j", "lexical", "structural", "file", "gamma", "value")


class PairRows(Sequence[dict[str, Any]]):
    """A result's pairs as JSON-ready dicts, built chunk by chunk from its arrays."""

    CHUNK = 20_000

    def __init__(self, result: DivergenceResult) -> None:
        self._columns = (
            result.pair_i,
            result.pair_j,
            result.lexical,
            result.structural,
            result.file,
            result.gamma,
            result.pair_value,
        )

    def __len__(self) -> int:
        return len(self._columns[0])

    def _rows(self, start: int, stop: int) -> list[dict[str, Any]]:
        columns = [column[start:stop].tolist() for column in self._columns]
        return [dict(zip(PAIR_KEYS, values, strict=True)) for values in zip(*columns, strict=True)]

    def __getitem__(self, key):  # type: ignore[override]
        if isinstance(key, slice):
            start, stop, step = key.indices(len(self))
            rows = self._rows(start, stop)
            return rows[::step] if step != 1 else rows
        index = key + len(self) if key < 0 else key
        if not 0 <= index < len(self):
            raise IndexError(key)
        return self._rows(index, index + 1)[0]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for start in range(0, len(self), self.CHUNK):
            yield from self._rows(start, start + self.CHUNK)

    def json_chunks(self, indent: str = "") -> Iterator[str]:
        """The pairs as JSON array elements (one object a line), exactly as json.dumps
        writes them, joined with ",\n" + indent; chunk by chunk."""
        first = True
        for start in range(0, len(self), self.CHUNK):
            columns = [column[start : start + self.CHUNK].tolist() for column in self._columns]
            lines = [
                f'{{"i": {i}, "j": {j}, "lexical": {lx!r}, "structural": {st!r}, '
                f'"file": {fl!r}, "gamma": {g!r}, "value": {v!r}}}'
                for i, j, lx, st, fl, g, v in zip(*columns, strict=True)
            ]
            text = (",\n" + indent).join(lines)
            yield text if first else ",\n" + indent + text
            first = False


def counted_hunks(patch: Patch, profile: str) -> tuple[list[tuple[Hunk, FileDiff]], list[int]]:
    """The hunks a profile counts, and the ones it leaves out. `default` counts every
    content hunk; `birch` leaves out sections of files that exist on one side only (the
    study did not count them)."""
    kept: list[tuple[Hunk, FileDiff]] = []
    dropped: list[int] = []
    for file_diff in patch.content_files:
        whole_file = file_diff.status in (FileStatus.ADDED, FileStatus.DELETED)
        for hunk in file_diff.hunks:
            if profile == "birch" and whole_file:
                dropped.append(hunk.index)
            else:
                kept.append((hunk, file_diff))
    return kept, dropped


def compute_divergence(
    patch: Patch,
    sources: Sources | None = None,
    cache: ParseCache | None = None,
    *,
    profile: str = "default",
    distributed_weight: float = DISTRIBUTED_WEIGHT,
) -> DivergenceResult:
    """Div(P) = ln(n) · mean over pairs of L·(S + g·F)/(1 + g) (see docs/metrics.md)."""
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r} (use {' or '.join(PROFILES)})")
    if distributed_weight < 0:
        raise ValueError("the distributed weight must be ≥ 0")
    cache = cache if cache is not None else ParseCache()
    hunks, dropped = counted_hunks(patch, profile)
    warnings: list[str] = []
    if dropped:
        warnings.append(
            f"hunks {','.join(map(str, dropped))}: whole-file sections, not "
            "counted in the birch profile"
        )
    n = len(hunks)
    pair_i, pair_j = np.triu_indices(n, k=1)
    if profile == "birch":
        # BLEU needs only the hunks' text: no tokens or bags, no post-image parse.
        lexical = bleu_distance_pairs([hunk_text(hunk) for hunk, _ in hunks])
        structural, notes = _birch_structural(patch, hunks, sources, cache)
        warnings.extend(notes)
    else:
        features = patch_features(patch, hunks, sources, cache)
        warnings.extend(features.warnings)
        feats = features.hunks
        lexical = token_distance_matrix([f.tokens for f in feats])
        structural = bag_distance_matrix([f.bag for f in feats], [f.language for f in feats])
    paths = [file_diff.path for _, file_diff in hunks]
    file_matrix, same_file = _file_matrices(paths, capped=profile != "birch")
    lex = lexical[pair_i, pair_j]
    struct = structural[pair_i, pair_j]
    fil = file_matrix[pair_i, pair_j]
    gamma = np.where(same_file[pair_i, pair_j], 0.0, distributed_weight)
    values = lex * (struct + gamma * fil) / (1.0 + gamma)
    score = math.log(n) * float(values.mean()) if n >= 2 else 0.0
    indices = np.array([h.index for h, _ in hunks], dtype=np.int64)
    return DivergenceResult(
        profile=profile,
        value=score,
        hunk_indices=tuple(indices.tolist()),
        pair_i=indices[pair_i],
        pair_j=indices[pair_j],
        lexical=lex,
        structural=struct,
        file=fil,
        gamma=gamma,
        pair_value=values,
        distributed_weight=distributed_weight,
        excluded_hunks=tuple(dropped),
        warnings=tuple(warnings),
    )


def _file_matrices(paths: list[str], capped: bool) -> tuple[np.ndarray, np.ndarray]:
    unique = sorted(set(paths))
    position = {p: k for k, p in enumerate(unique)}
    small = np.array([[file_distance(a, b, capped=capped) for b in unique] for a in unique])
    ids = np.array([position[p] for p in paths], dtype=np.int64)
    if not len(ids):
        return np.zeros((0, 0)), np.zeros((0, 0), dtype=bool)
    return small[ids[:, None], ids[None, :]], ids[:, None] == ids[None, :]


def _birch_structural(
    patch: Patch, hunks: list[tuple[Hunk, FileDiff]], sources: Sources | None, cache: ParseCache
) -> tuple[np.ndarray, list[str]]:
    """Same file: AST path distance between the hunks' anchor nodes, normalized by the
    file AST's diameter. Different files: 1. Same file without a full pre-image: the
    default edit-bag distance, with a warning."""
    n = len(hunks)
    out = np.ones((n, n))
    np.fill_diagonal(out, 0.0)
    by_file: dict[str, list[int]] = {}
    for k, (_, file_diff) in enumerate(hunks):
        by_file.setdefault(file_diff.path, []).append(k)
    fallback: list[int] = []
    for path, members in by_file.items():
        if len(members) < 2:
            continue
        file_diff = hunks[members[0]][1]
        rules = rules_for_path(path)
        texts = sources.texts(file_diff) if sources is not None else None
        if rules is None or texts is None or texts.pre is None:
            fallback.extend(members)
            feats = patch_features(patch, [hunks[k] for k in members], sources, cache).hunks
            out[np.ix_(members, members)] = bag_distance_matrix(
                [f.bag for f in feats], [f.language for f in feats]
            )
            continue
        flat = flatten(cache.tree(rules, texts.pre))
        anchors = [
            anchor_node(flat, [line - 1 for line in hunks[k][0].changed_lines] or [0])
            for k in members
        ]
        for a in range(len(members)):
            for b in range(a + 1, len(members)):
                distance = path_distance(flat, anchors[a], anchors[b])
                out[members[a], members[b]] = out[members[b], members[a]] = distance
    notes = []
    if fallback:
        notes.append(
            f"hunks {','.join(str(hunks[k][0].index) for k in sorted(fallback))}: "
            "birch AST distance needs the file's source (--repo); used the default "
            "edit-bag distance for their same-file pairs"
        )
    return out, notes
