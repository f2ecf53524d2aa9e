"""What a profile is: the pair components and rules a divergence or proximity run uses.

Each profile module (default.py, birch.py) builds one `Profile` that says everything the
profile changes; metrics and clients ask it instead of comparing profile names."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypeAlias, runtime_checkable

from ...lang.paths import path_parts
from ...patch.model import FileDiff, FileStatus, Hunk, Patch
from ...shortlist import few

if TYPE_CHECKING:
    import numpy as np

    from ...lang.index import ParseCache
    from ...sources.resolve import Sources
    from ..features import FeatureSet

DISTRIBUTED_WEIGHT = 2.0  # the published g for hunks in different files
PROXIMITY_CLASSES = ("Nucleus", "Cluster", "Orbit", "Sprawl", "Fragment")
UNCAPPED_FILE_DISTANCE_MAX = 2.0  # 1 + 1/m with m = 1: two one-segment paths

CountedHunks = list[tuple[Hunk, FileDiff]]


@dataclass
class PairInputs:
    """What a pair component reads: the counted hunks (in order) with their patch,
    sources and parse cache. Per-hunk features are computed once, on first use, and
    their warnings join `warnings` (the run's, in order)."""

    patch: Patch
    hunks: CountedHunks
    sources: Sources | None
    cache: ParseCache
    warnings: list[str] = field(default_factory=list)
    _features: FeatureSet | None = None

    def features(self) -> FeatureSet:
        if self._features is None:
            from ..features import patch_features

            self._features = patch_features(self.patch, self.hunks, self.sources, self.cache)
            self.warnings.extend(self._features.warnings)
        return self._features


@runtime_checkable
class PairTable(Protocol):
    """A pair component over n hunks, read by blocks of rows: `rows(start, stop)` is the
    (stop - start) x (n - start) matrix whose cell [r, c] is the component of hunks
    start + r and start + c (only c > r, the pairs i < j, is read). What it holds is
    per-hunk (tokens, bags, n-grams, one file's tree distances), never n x n."""

    def rows(self, start: int, stop: int) -> np.ndarray: ...


@runtime_checkable
class PairValues(Protocol):
    """A PairTable that also gives one pair's value in plain Python, the very float its
    rows hold: a small patch's Div(P) is then computed without numpy (divergence.py)."""

    def rows(self, start: int, stop: int) -> np.ndarray: ...

    def pair(self, i: int, j: int) -> float: ...


@dataclass(frozen=True)
class DenseTable:
    """A pair component given as a whole n x n matrix (small inputs, the published
    artifacts)."""

    matrix: np.ndarray

    def rows(self, start: int, stop: int) -> np.ndarray:
        return self.matrix[start:stop, start:]


def as_table(component: PairTable | np.ndarray) -> PairTable:
    """A component's value as a PairTable (an n x n matrix is wrapped)."""
    return component if isinstance(component, PairTable) else DenseTable(component)


# A pair component: a PairTable (or an n×n matrix) over the counted hunks (only i < j is
# read). It may append warnings to `inputs.warnings`.
Component: TypeAlias = "Callable[[PairInputs], PairTable | np.ndarray]"


def directory_package(path: str) -> tuple[str, ...]:
    """The file's directories."""
    return path_parts(path)[:-1]


def median_half_cutoff(packages: Sequence[tuple[str, ...]]) -> int:
    """floor(median package depth / 2); the median of an even count is the mean of the
    middle two (statistics.median's, without importing it: 4 ms of start-up)."""
    depths = sorted(len(p) for p in packages)
    if not depths:
        return 0
    middle = len(depths) // 2
    median = depths[middle] if len(depths) % 2 else (depths[middle - 1] + depths[middle]) / 2
    return math.floor(median / 2)


@dataclass(frozen=True)
class Profile:
    """Everything a profile decides, in one place.

    - `lexical`, `structural`: the pair components L and S (functions of PairInputs);
    - `counts_whole_files`: whether hunks of files that exist on one side only count;
    - `package_rule`: the package a proximity class compares, from a file path;
    - `cutoff`: the Sprawl cutoff, or None for floor(median package depth / 2);
    - `file_capped`: whether the file-level distance F is capped at 1;
    - `distributed_weight`: the default g for hunks in different files;
    - `reproduces_published_artifacts`: whether the published study's artifacts
      (birch_artifacts.PublishedArtifacts) can be asked of this profile."""

    name: str
    summary: str
    lexical: Component
    structural: Component
    counts_whole_files: bool
    package_rule: Callable[[str], tuple[str, ...]]
    cutoff: int | None
    file_capped: bool
    distributed_weight: float = DISTRIBUTED_WEIGHT
    reproduces_published_artifacts: bool = False

    def counts_status(self, status: FileStatus) -> bool:
        """Whether the hunks of a file section with this status count (birch: not those
        of files that exist on one side only)."""
        whole_file = status in (FileStatus.ADDED, FileStatus.DELETED)
        return self.counts_whole_files or not whole_file

    def counted_hunks(self, patch: Patch) -> tuple[CountedHunks, list[int]]:
        """The content hunks this profile counts (with their files), and the indices of
        those it leaves out."""
        kept: CountedHunks = []
        dropped: list[int] = []
        for file_diff in patch.content_files:
            counts = self.counts_status(file_diff.status)
            for hunk in file_diff.hunks:
                if counts:
                    kept.append((hunk, file_diff))
                else:
                    dropped.append(hunk.index)
        return kept, dropped

    def dropped_note(self, dropped: Sequence[int]) -> str:
        """The warning for hunks `counted_hunks` left out."""
        return f"hunks {few(dropped)}: whole-file sections, not counted in the {self.name} profile"

    def package_of(self, path: str) -> tuple[str, ...]:
        """The package of `path` as proximity compares it."""
        return self.package_rule(path)

    def cutoff_for(self, packages: Sequence[tuple[str, ...]]) -> int:
        """The Sprawl cutoff for hunks in these packages."""
        return self.cutoff if self.cutoff is not None else median_half_cutoff(packages)

    def file_distance(self, path_a: str, path_b: str) -> float:
        """F between two files under this profile's cap."""
        from ..filelevel import file_distance

        return file_distance(path_a, path_b, capped=self.file_capped)

    def max_pair_distance(self, distributed_weight: float | None = None) -> float:
        """The largest d = L·(S + g·F)/(1 + g) a pair can have: L and S are at most 1; F
        at most 1 capped, 2 uncapped (two one-segment paths: 1 + 1/1). Div(P) then lies
        in [0, this · ln n]."""
        g = self.distributed_weight if distributed_weight is None else distributed_weight
        f_max = 1.0 if self.file_capped else UNCAPPED_FILE_DISTANCE_MAX
        return max(1.0, (1.0 + g * f_max) / (1.0 + g))
