"""Hunk divergence: a profile's pair components combined, weighted by ln(n)."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

import numpy as np

from ..errors import ArgumentError
from ..jsonshape import COUNT, COUNTS, UNIT, Array, Nullable, Obj, enum
from ..lang.index import ParseCache
from ..patch.model import FileDiff, Hunk, Patch
from ..sources.resolve import Sources
from .birch_artifacts import PublishedArtifacts
from .profiles import DEFAULT_PROFILE, DISTRIBUTED_WEIGHT, PROFILE_NAMES, PairInputs, Profile
from .profiles import profile as get_profile

PAIR = Obj(
    {
        "i": COUNT,
        "j": COUNT,
        "lexical": UNIT,
        "structural": UNIT,
        "file": UNIT,
        "gamma": UNIT,
        "value": UNIT,
    }
)
PAIR_KEYS = PAIR.keys
MEANS = Obj({"lexical": Nullable(UNIT), "structural": Nullable(UNIT), "file": Nullable(UNIT)})
DIVERGENCE = Obj(
    {
        "profile": enum(*PROFILE_NAMES),
        "value": UNIT,
        "means": MEANS,
        "distributed_weight": UNIT,
        "excluded_hunks": COUNTS,
        "pairs": Array(PAIR),
    }
)
"""The `divergence` object of the divergence/v1 and characterize/v1 documents."""


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
    artifacts: PublishedArtifacts = field(default_factory=PublishedArtifacts)

    @property
    def hunk_count(self) -> int:
        return len(self.hunk_indices)

    _ARRAYS = ("pair_i", "pair_j", "lexical", "structural", "file", "gamma", "pair_value")

    def __eq__(self, other: object) -> bool:
        """Equal when every field is: the arrays element by element (NaN equals NaN)."""
        if not isinstance(other, DivergenceResult):
            return NotImplemented
        for name in self.__dataclass_fields__:
            mine, theirs = getattr(self, name), getattr(other, name)
            if name in self._ARRAYS:
                if not np.array_equal(mine, theirs, equal_nan=mine.dtype.kind == "f"):
                    return False
            elif mine != theirs:
                return False
        return True

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
        return DIVERGENCE.build(
            {
                "profile": self.profile,
                "value": self.value,
                "means": MEANS.build(self.means),
                "distributed_weight": self.distributed_weight,
                "excluded_hunks": list(self.excluded_hunks),
                "pairs": rows if lazy_pairs else list(rows),
            }
        )


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

    @overload
    def __getitem__(self, key: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, key: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, key: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
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
            # PAIR's keys spelled out: an f-string is the fastest way to write millions of
            # pairs (tests/test_streaming.py checks these lines against json.dumps).
            lines = [
                f'{{"i": {i}, "j": {j}, "lexical": {lx!r}, "structural": {st!r}, '
                f'"file": {fl!r}, "gamma": {g!r}, "value": {v!r}}}'
                for i, j, lx, st, fl, g, v in zip(*columns, strict=True)
            ]
            text = (",\n" + indent).join(lines)
            yield text if first else ",\n" + indent + text
            first = False


def counted_hunks(
    patch: Patch, profile: str | Profile
) -> tuple[list[tuple[Hunk, FileDiff]], list[int]]:
    """The hunks a profile counts, and the ones it leaves out (see Profile.counted_hunks)."""
    return get_profile(profile).counted_hunks(patch)


def compute_divergence(
    patch: Patch,
    sources: Sources | None = None,
    cache: ParseCache | None = None,
    *,
    profile: str | Profile = DEFAULT_PROFILE,
    distributed_weight: float | None = None,
    artifacts: PublishedArtifacts | None = None,
) -> DivergenceResult:
    """Div(P) = ln(n) · mean over pairs of L·(S + g·F)/(1 + g) (see docs/metrics.md), with
    L, S, F and the counted hunks as the profile says; g defaults to the profile's.
    `artifacts` reproduces the published study's artifacts (birch only; default none)."""
    prof = get_profile(profile)
    weight = prof.distributed_weight if distributed_weight is None else distributed_weight
    if weight < 0:
        raise ArgumentError("the distributed weight must be ≥ 0")
    artifacts = artifacts or PublishedArtifacts()
    if artifacts and not prof.reproduces_published_artifacts:
        raise ArgumentError(f"the published artifacts are the birch study's, not {prof.name}'s")
    hunks, dropped = prof.counted_hunks(patch)
    inputs = PairInputs(patch, hunks, sources, cache if cache is not None else ParseCache())
    if dropped:
        inputs.warnings.append(prof.dropped_note(dropped))
    n = len(hunks)
    # The pairs i < j in row-major order (np.triu_indices' order), taken with one boolean
    # mask rather than two index arrays, each matrix dropped as soon as it is read.
    upper = np.triu(np.ones((n, n), dtype=bool), k=1)
    lexical = prof.lexical(inputs)
    if artifacts.lexical_hunks and dropped:
        every = [(hunk, file_diff) for file_diff in patch.content_files for hunk in file_diff.hunks]
        lexical = prof.lexical(PairInputs(patch, every, sources, inputs.cache))[:n, :n]
    lex = lexical[upper]
    del lexical
    structural = prof.structural(inputs)
    paths = [file_diff.path for _, file_diff in hunks]
    if artifacts:
        file_matrix, same_file = _file_matrices(paths, prof)
        inputs.warnings.extend(
            f"file order: {path} is not a file of the counted hunks"
            for path in artifacts.unknown_files(paths)
        )
        structural, file_matrix, same_file = artifacts.apply(
            paths, structural, file_matrix, same_file
        )
        fil, same = file_matrix[upper], same_file[upper]
        del file_matrix, same_file
    else:
        fil, same = _file_pairs(paths, prof)
    struct = structural[upper]
    del structural
    gamma = np.where(same, 0.0, weight)
    del same
    # lex * (struct + gamma * fil) / (1 + gamma), in place: the same operations on the
    # same operands (IEEE + and * commute exactly), so the same floats
    values = gamma * fil
    values += struct
    values *= lex
    values /= 1.0 + gamma
    score = math.log(n) * float(values.mean()) if n >= 2 else 0.0
    indices = np.array([h.index for h, _ in hunks], dtype=np.int64)
    pair_i = np.broadcast_to(indices[:, None], (n, n))[upper]
    pair_j = np.broadcast_to(indices[None, :], (n, n))[upper]
    del upper
    return DivergenceResult(
        profile=prof.name,
        value=score,
        hunk_indices=tuple(indices.tolist()),
        pair_i=pair_i,
        pair_j=pair_j,
        lexical=lex,
        structural=struct,
        file=fil,
        gamma=gamma,
        pair_value=values,
        distributed_weight=weight,
        excluded_hunks=tuple(dropped),
        warnings=tuple(inputs.warnings),
        artifacts=artifacts,
    )


def _file_codes(paths: list[str], prof: Profile) -> tuple[np.ndarray, np.ndarray]:
    """F between every two distinct paths, and each hunk's path as a row of it."""
    unique = sorted(set(paths))
    position = {p: k for k, p in enumerate(unique)}
    small = np.array([[prof.file_distance(a, b) for b in unique] for a in unique])
    return small, np.array([position[p] for p in paths], dtype=np.int64)


def _file_matrices(paths: list[str], prof: Profile) -> tuple[np.ndarray, np.ndarray]:
    """F and the same-file mask as n x n matrices."""
    small, ids = _file_codes(paths, prof)
    if not len(ids):
        return np.zeros((0, 0)), np.zeros((0, 0), dtype=bool)
    return small[ids[:, None], ids[None, :]], ids[:, None] == ids[None, :]


def _file_pairs(paths: list[str], prof: Profile) -> tuple[np.ndarray, np.ndarray]:
    """F and same-file of the pairs i < j in row-major order, row by row (no n x n
    matrix)."""
    small, ids = _file_codes(paths, prof)
    n = len(ids)
    count = n * (n - 1) // 2
    fil, same = np.empty(count), np.empty(count, dtype=bool)
    at = 0
    for i in range(n - 1):
        row = ids[i + 1 :]
        fil[at : at + len(row)] = small[ids[i], row]
        same[at : at + len(row)] = row == ids[i]
        at += len(row)
    return fil, same


__all__ = [
    "DISTRIBUTED_WEIGHT",
    "DivergenceResult",
    "PairRows",
    "PairScore",
    "compute_divergence",
    "counted_hunks",
]
