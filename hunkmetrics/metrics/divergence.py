"""Hunk divergence: a profile's pair components combined, weighted by ln(n)."""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, overload

from ..errors import ArgumentError, finite_setting
from ..lang.index import ParseCache
from ..patch.model import FileDiff, Hunk, Patch
from ..sources.resolve import Sources
from .birch_artifacts import PublishedArtifacts
from .divergence_shape import DIVERGENCE, MEANS, PAIR_KEYS
from .filelevel import FileDistanceTable
from .plainsum import numpy_sum
from .profiles import DEFAULT_PROFILE, DISTRIBUTED_WEIGHT, PairInputs, Profile
from .profiles import profile as get_profile
from .profiles.base import DenseTable, PairTable, PairValues, as_table

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True, slots=True)
class PairScore:
    i: int
    j: int
    lexical: float
    structural: float
    file: float
    gamma: float
    value: float


@dataclass(frozen=True, slots=True)
class PairBlock:
    """Consecutive pairs (i < j, row-major order) and their components, as vectors."""

    pair_i: np.ndarray
    pair_j: np.ndarray
    lexical: np.ndarray
    structural: np.ndarray
    file: np.ndarray
    gamma: np.ndarray
    pair_value: np.ndarray

    def __len__(self) -> int:
        return len(self.pair_i)


_ARRAYS = ("pair_i", "pair_j", "lexical", "structural", "file", "gamma", "pair_value")


class PairSource(Protocol):
    """Where a result's pairs come from: `count` of them, in blocks (numpy vectors) or
    as plain lists (`columns`, at most `chunk` pairs at a time, in `_ARRAYS` order), in
    order."""

    @property
    def count(self) -> int: ...

    def blocks(self) -> Iterator[PairBlock]: ...

    def columns(self, chunk: int) -> Iterator[list[list[Any]]]: ...


def _block_columns(blocks: Iterator[PairBlock], chunk: int) -> Iterator[list[list[Any]]]:
    """The blocks' vectors as lists, at most `chunk` pairs at a time."""
    for block in blocks:
        for start in range(0, len(block), chunk):
            yield [getattr(block, name)[start : start + chunk].tolist() for name in _ARRAYS]


@dataclass(frozen=True)
class StoredPairs:
    """The pairs kept as one block (small patches: cheaper to keep than to recompute)."""

    block: PairBlock

    @property
    def count(self) -> int:
        return len(self.block)

    def blocks(self) -> Iterator[PairBlock]:
        if len(self.block):
            yield self.block

    def columns(self, chunk: int) -> Iterator[list[list[Any]]]:
        return _block_columns(self.blocks(), chunk)


@dataclass(frozen=True)
class ListedPairs:
    """The pairs as plain lists, in `_ARRAYS` order (a small patch, computed without
    numpy); `blocks()` makes numpy vectors of them when asked."""

    lists: tuple[list[Any], ...]

    @property
    def count(self) -> int:
        return len(self.lists[0])

    def blocks(self) -> Iterator[PairBlock]:
        import numpy as np

        if self.count:
            pair_i, pair_j, *values = self.lists
            yield PairBlock(
                np.array(pair_i, dtype=np.int64),
                np.array(pair_j, dtype=np.int64),
                *(np.array(v, dtype=np.float64) for v in values),
            )

    def columns(self, chunk: int) -> Iterator[list[list[Any]]]:
        for start in range(0, self.count, chunk):
            yield [values[start : start + chunk] for values in self.lists]


@dataclass(frozen=True)
class FileMatrices:
    """F and same-file as n x n matrices (the published artifacts rearrange them)."""

    file: np.ndarray
    same: np.ndarray

    def rows(self, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        return self.file[start:stop, start:], self.same[start:stop, start:]


#: Cells (pairs of hunks) of one block of rows: its component matrices are a few MB.
BLOCK_CELLS = 1 << 20
#: The published artifacts rearrange whole n x n matrices: only for patches up to this
#: many hunks (the study's patches have a few dozen; 2,000 makes 32 MB matrices).
ARTIFACTS_MAX_HUNKS = 2000
#: Div(P) is computed pair by pair in plain Python where the profile's components can
#: (`PairValues`): the same floats, without numpy. Up to this many pairs that is as fast
#: as numpy's blocks (measured: 24 hunks, 2 ms either way) ...
SMALL_PAIRS = 276  # 24 hunks
#: ... and up to this many while numpy is not imported yet: importing it takes about as
#: long (80 ms) as 2,000 pairs in Python, and is most of a small patch's start-up.
SMALL_PAIRS_WITHOUT_NUMPY = 2016  # 64 hunks
#: Up to this many pairs a result keeps its pairs; beyond, they are computed again from
#: the per-hunk inputs each time they are read (streamed, block by block).
KEEP_PAIRS = 1 << 20


@dataclass(frozen=True)
class ComputedPairs:
    """The pairs computed block by block from the components' tables (per-hunk data):
    nothing of size n x n is ever held."""

    indices: np.ndarray
    lexical: PairTable
    structural: PairTable
    files: FileDistanceTable | FileMatrices
    weight: float
    block_cells: int = BLOCK_CELLS

    @property
    def count(self) -> int:
        n = len(self.indices)
        return n * (n - 1) // 2

    def columns(self, chunk: int) -> Iterator[list[list[Any]]]:
        return _block_columns(self.blocks(), chunk)

    def blocks(self) -> Iterator[PairBlock]:
        import numpy as np

        n, indices = len(self.indices), self.indices
        start = 0
        while start < n - 1:
            width = n - start
            stop = min(n - 1, start + max(1, self.block_cells // width))
            # the pairs i < j of rows start..stop-1: cells [r, c] with c > r
            upper = np.triu(np.ones((stop - start, width), dtype=bool), k=1)
            lex = self.lexical.rows(start, stop)[upper]
            struct = self.structural.rows(start, stop)[upper]
            file_rows, same_rows = self.files.rows(start, stop)
            fil, same = file_rows[upper], same_rows[upper]
            del file_rows, same_rows
            gamma = np.where(same, 0.0, self.weight)
            # lex * (struct + gamma * fil) / (1 + gamma), in place: the same operations on
            # the same operands (IEEE + and * commute exactly), so the same floats
            values = gamma * fil
            values += struct
            values *= lex
            values /= 1.0 + gamma
            rows = np.broadcast_to(indices[start:stop, None], upper.shape)[upper]
            columns = np.broadcast_to(indices[None, start:], upper.shape)[upper]
            yield PairBlock(rows, columns, lex, struct, fil, gamma, values)
            start = stop


def _concatenated(blocks: list[PairBlock]) -> PairBlock:
    import numpy as np

    if len(blocks) == 1:
        return blocks[0]
    empty = [np.zeros(0, dtype=np.int64)] * 2 + [np.zeros(0)] * 5
    return PairBlock(
        *(
            np.concatenate([getattr(b, name) for b in blocks]) if blocks else empty[k]
            for k, name in enumerate(_ARRAYS)
        )
    )


@dataclass(frozen=True, eq=False)
class DivergenceResult:
    """Div(P), the means of its components and every pair's components. The pairs (hunk
    indices i < j as in `hunkmetrics hunks`, row-major order) are read with `pairs()` or
    `blocks()`, streamed; a large patch's pairs are not held but computed again, block
    by block, each time they are read. The vectors `pair_i` … `pair_value` hold them
    all (for small patches)."""

    profile: str
    value: float
    hunk_indices: tuple[int, ...]
    means: dict[str, float | None]
    source: PairSource = field(repr=False)
    distributed_weight: float = DISTRIBUTED_WEIGHT
    excluded_hunks: tuple[int, ...] = ()
    warnings: tuple[str, ...] = field(default=())
    artifacts: PublishedArtifacts = field(default_factory=PublishedArtifacts)

    @property
    def hunk_count(self) -> int:
        return len(self.hunk_indices)

    @property
    def pair_count(self) -> int:
        return self.source.count

    def blocks(self) -> Iterator[PairBlock]:
        """The pairs in consecutive blocks (vectors), in order."""
        return self.source.blocks()

    def _all(self) -> PairBlock:
        return _concatenated(list(self.source.blocks()))

    pair_i = property(lambda self: self._all().pair_i)
    pair_j = property(lambda self: self._all().pair_j)
    lexical = property(lambda self: self._all().lexical)
    structural = property(lambda self: self._all().structural)
    file = property(lambda self: self._all().file)
    gamma = property(lambda self: self._all().gamma)
    pair_value = property(lambda self: self._all().pair_value)

    def __eq__(self, other: object) -> bool:
        """Equal when every field is and so is every pair (NaN equals NaN)."""
        if not isinstance(other, DivergenceResult):
            return NotImplemented
        for name in self.__dataclass_fields__:
            if name != "source" and getattr(self, name) != getattr(other, name):
                return False
        import numpy as np

        mine, theirs = self._all(), other._all()
        return all(
            np.array_equal(
                getattr(mine, name), getattr(theirs, name), equal_nan=name not in _ARRAYS[:2]
            )
            for name in _ARRAYS
        )

    __hash__ = None  # type: ignore[assignment]

    def pairs(self) -> Iterator[PairScore]:
        for columns in self.source.columns(PairRows.CHUNK):
            for i, j, lx, st, fl, g, v in zip(*columns, strict=True):
                yield PairScore(i, j, lx, st, fl, g, v)

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
    """A result's pairs as JSON-ready dicts, built chunk by chunk from its blocks (read
    in order, they are streamed; indexing reads them all)."""

    CHUNK = 20_000

    def __init__(self, result: DivergenceResult) -> None:
        self._result = result

    def __len__(self) -> int:
        return self._result.pair_count

    def _chunks(self) -> Iterator[list[list[Any]]]:
        """The pairs' columns as lists, at most CHUNK pairs at a time."""
        return self._result.source.columns(self.CHUNK)

    @overload
    def __getitem__(self, key: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, key: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, key: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        block = self._result._all()
        if isinstance(key, slice):
            start, stop, step = key.indices(len(self))
            return _dicts([getattr(block, n)[start:stop:step].tolist() for n in _ARRAYS])
        index = key + len(self) if key < 0 else key
        if not 0 <= index < len(self):
            raise IndexError(key)
        return _dicts([getattr(block, n)[index : index + 1].tolist() for n in _ARRAYS])[0]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for columns in self._chunks():
            yield from _dicts(columns)

    def json_chunks(self, indent: str = "") -> Iterator[str]:
        """The pairs as JSON array elements (one object a line), exactly as json.dumps
        writes them, joined with ",\n" + indent; chunk by chunk."""
        first = True
        for columns in self._chunks():
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


def _dicts(columns: list[list[Any]]) -> list[dict[str, Any]]:
    return [dict(zip(PAIR_KEYS, values, strict=True)) for values in zip(*columns, strict=True)]


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
    weight = finite_setting(
        "the distributed weight",
        prof.distributed_weight if distributed_weight is None else distributed_weight,
    )
    artifacts = artifacts or PublishedArtifacts()
    if artifacts and not prof.reproduces_published_artifacts:
        raise ArgumentError(f"the published artifacts are the birch study's, not {prof.name}'s")
    hunks, dropped = prof.counted_hunks(patch)
    if artifacts and len(hunks) + len(dropped) > ARTIFACTS_MAX_HUNKS:
        raise ArgumentError(
            f"the published artifacts are reproduced on whole pair matrices, for patches of "
            f"up to {ARTIFACTS_MAX_HUNKS:,} hunks; this one has {len(hunks) + len(dropped):,}"
        )
    inputs = PairInputs(patch, hunks, sources, cache if cache is not None else ParseCache())
    if dropped:
        inputs.warnings.append(prof.dropped_note(dropped))
    n = len(hunks)
    lexical = as_table(prof.lexical(inputs))
    if artifacts.lexical_hunks and dropped:
        every = [(hunk, file_diff) for file_diff in patch.content_files for hunk in file_diff.hunks]
        whole = as_table(prof.lexical(PairInputs(patch, every, sources, inputs.cache)))
        lexical = DenseTable(whole.rows(0, len(every))[:n, :n])
    structural = as_table(prof.structural(inputs))
    paths = [file_diff.path for _, file_diff in hunks]
    files: FileDistanceTable | FileMatrices = FileDistanceTable(paths, capped=prof.file_capped)
    if artifacts:
        inputs.warnings.extend(
            f"file order: {path} is not a file of the counted hunks"
            for path in artifacts.unknown_files(paths)
        )
        file_matrix, same_file = files.rows(0, n)
        applied, file_matrix, same_file = artifacts.apply(
            paths, structural.rows(0, n).copy(), file_matrix, same_file
        )
        structural, files = DenseTable(applied), FileMatrices(file_matrix, same_file)
    indices = [h.index for h, _ in hunks]
    if (
        _pair_by_pair_is_faster(n * (n - 1) // 2)
        and isinstance(files, FileDistanceTable)
        and isinstance(lexical, PairValues)
        and isinstance(structural, PairValues)
    ):
        score, means, source = _pair_by_pair(indices, lexical, structural, files, weight)
    else:
        score, means, source = _reduce(
            ComputedPairs(_vector(indices), lexical, structural, files, weight, BLOCK_CELLS)
        )
    return DivergenceResult(
        profile=prof.name,
        value=math.log(n) * score if n >= 2 else 0.0,
        hunk_indices=tuple(indices),
        means=means,
        source=source,
        distributed_weight=weight,
        excluded_hunks=tuple(dropped),
        warnings=tuple(inputs.warnings),
        artifacts=artifacts,
    )


def _pair_by_pair_is_faster(pairs: int) -> bool:
    """Whether plain Python computes `pairs` pairs sooner than numpy would, counting the
    cost of importing numpy when this process has not yet."""
    most = SMALL_PAIRS if "numpy" in sys.modules else SMALL_PAIRS_WITHOUT_NUMPY
    return pairs <= most


def _vector(indices: list[int]) -> np.ndarray:
    import numpy as np

    return np.array(indices, dtype=np.int64)


Means = dict[str, float | None]
_NO_MEANS: Means = dict.fromkeys(("lexical", "structural", "file"))


def _pair_by_pair(
    indices: list[int],
    lexical: PairValues,
    structural: PairValues,
    files: FileDistanceTable,
    weight: float,
) -> tuple[float, Means, PairSource]:
    """`_reduce`'s results for a small patch, pair by pair in plain Python: the same
    operations on the same floats (each component's `pair` gives the float of its rows;
    `numpy_sum` is numpy's summation), so the same results, without importing numpy."""
    g = float(weight)
    lists: tuple[list[Any], ...] = ([], [], [], [], [], [], [])
    pair_i, pair_j, lex_of, struct_of, file_of, gamma_of, value_of = lists
    n = len(indices)
    for a in range(n - 1):
        for b in range(a + 1, n):
            lex, struct = lexical.pair(a, b), structural.pair(a, b)
            fil, same_file = files.pair(a, b)
            gamma = 0.0 if same_file else g
            pair_i.append(indices[a])
            pair_j.append(indices[b])
            lex_of.append(lex)
            struct_of.append(struct)
            file_of.append(fil)
            gamma_of.append(gamma)
            # as ComputedPairs.blocks: (gamma·F + S)·L / (1 + gamma), IEEE's + and ·
            # commuting exactly
            value_of.append(lex * (struct + gamma * fil) / (1.0 + gamma))
    count = len(value_of)
    if not count:
        return 0.0, dict(_NO_MEANS), ListedPairs(lists)
    means: Means = {
        "lexical": numpy_sum(lex_of) / count,
        "structural": numpy_sum(struct_of) / count,
        "file": numpy_sum(file_of) / count,
    }
    return numpy_sum(value_of) / count, means, ListedPairs(lists)


def _reduce(computed: ComputedPairs) -> tuple[float, Means, PairSource]:
    """The mean pair value and the components' means, block by block, as numpy's `mean`
    of the whole vectors gives them to the last bit (pairsum.py); and where the pairs
    are read from afterwards: kept when few, else computed again on demand."""
    from .pairsum import PairwiseSum, PairwiseTree

    count = computed.count
    tree = PairwiseTree(count)
    names = ("pair_value", "lexical", "structural", "file")
    sums = {name: PairwiseSum(tree) for name in names}
    keep = count <= KEEP_PAIRS
    kept: list[PairBlock] = []
    for block in computed.blocks():
        for name in names:
            sums[name].add(getattr(block, name))
        if keep:
            kept.append(block)
    if not count:
        means: Means = dict(_NO_MEANS)
        score = 0.0
    else:
        score = sums["pair_value"].value() / count
        means = {name: sums[name].value() / count for name in names[1:]}
    source: PairSource = computed
    if keep:
        source = StoredPairs(_concatenated(kept))
    return score, means, source


__all__ = [
    "DISTRIBUTED_WEIGHT",
    "DivergenceResult",
    "PairBlock",
    "PairRows",
    "PairScore",
    "compute_divergence",
    "counted_hunks",
]
