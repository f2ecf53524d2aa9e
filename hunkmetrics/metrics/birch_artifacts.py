"""Two artifacts of the BIRCH study's pipeline that change published numbers
(../shared/spec/birch-exact.md, "Published artifacts"), as pure functions.

1. Key order: the study stored each same-file pair's distance under the key "a_b" in the
   `java.util.HashMap` iteration order of the hunk ids "0".."n-1" and looked pairs up as
   "i_j" (i < j), reading a missing key as distance 0. For n >= 12 the iteration order is
   not numeric, so some pairs get S = 0 (`lost_pairs`).
2. File order: S and F followed Defects4J's `modified_classes` order of the files while L
   followed the patch's order (`study_order`, `remap`).
3. Lexical hunk list: L was computed over every hunk of the patch, whole-file sections
   included (files absent from the post-image, which S, F and the hunk count leave out),
   and its rows read by position: row (i, j) of the n counted hunks carries L of the i-th
   and j-th hunks of the full list (Closure_169, Codec_13, Jsoup_71).

The command line reads the options (PublishedArtifacts, ARTIFACT_NAMES) for every
command; numpy is imported only where the pair matrices are rearranged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from ..errors import ArgumentError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    BoolMatrix: TypeAlias = npt.NDArray[np.bool_]

_HASHMAP_CAPACITY = 16
_LOAD_FACTOR = 0.75


def java_string_hash(text: str) -> int:
    """Java's `String.hashCode()`: s[0]·31^(n-1) + … + s[n-1] over UTF-16 code units, as a
    signed 32-bit int."""
    h = 0
    data = text.encode("utf-16-be")
    for k in range(0, len(data), 2):
        h = (31 * h + (data[k] << 8 | data[k + 1])) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


def hashmap_capacity(n: int) -> int:
    """The table size of a default `HashMap` after n insertions (16, doubled whenever the
    size passes 0.75 of the capacity)."""
    capacity = _HASHMAP_CAPACITY
    while n > _LOAD_FACTOR * capacity:
        capacity *= 2
    return capacity


def hashmap_key_order(n: int) -> list[int]:
    """The iteration order of the keys "0".."n-1" inserted in order into a default
    `java.util.HashMap`: by bucket (h ^ (h >>> 16)) & (capacity - 1), then insertion order."""
    capacity = hashmap_capacity(n)

    def bucket(key: int) -> int:
        h = java_string_hash(str(key)) & 0xFFFFFFFF
        return (h ^ (h >> 16)) & (capacity - 1)

    return sorted(range(n), key=lambda key: (bucket(key), key))  # sorted() is stable


def lost_pairs(n: int) -> frozenset[tuple[int, int]]:
    """The pairs (i, j), i < j, whose key "i_j" the study never stored: those where j comes
    before i in the HashMap order. Empty for n <= 11."""
    position = {key: rank for rank, key in enumerate(hashmap_key_order(n))}
    return frozenset((i, j) for i in range(n) for j in range(i + 1, n) if position[j] < position[i])


def study_order(hunk_files: Sequence[str], file_order: Sequence[str]) -> list[int]:
    """The hunks (patch positions) in the study's order: files as in `file_order` (files
    not listed keep their patch order after the listed ones), hunks of a file in patch
    order. `hunk_files` gives each hunk's file, in patch order."""
    rank = {path: k for k, path in enumerate(file_order)}
    first_seen: dict[str, int] = {}
    for path in hunk_files:
        first_seen.setdefault(path, len(first_seen))

    def key(position: int) -> tuple[int, int, int]:
        path = hunk_files[position]
        return (0, rank[path], position) if path in rank else (1, first_seen[path], position)

    return sorted(range(len(hunk_files)), key=key)


def remap(matrix: npt.NDArray[np.float64], order: Sequence[int]) -> npt.NDArray[np.float64]:
    """A pair matrix over patch positions re-indexed by study position: entry (i, j) of
    the result is entry (order[i], order[j]) of `matrix`. The published row (i, j) holds
    L of patch pair (i, j) but S and F of `remap`'s (i, j)."""
    import numpy as np

    index = np.asarray(order, dtype=np.int64)
    return matrix[np.ix_(index, index)]


KEY_ORDER = "key-order"
LEXICAL_HUNKS = "lexical-hunks"
ARTIFACT_NAMES = (KEY_ORDER, LEXICAL_HUNKS)  # those that need no input (--published-artifacts)


@dataclass(frozen=True)
class PublishedArtifacts:
    """Which of the study's artifacts to reproduce (none by default: the intended metric).

    - `key_order`: same-file pairs whose key the study's HashMap lost get S = 0;
    - `file_order`: the study's order of the patch's files (paths as in the patch); S, F
      and g of each published row then come from the pair at the study's positions while
      L stays in patch order;
    - `lexical_hunks`: L of counted pair (i, j) is L of the i-th and j-th hunks of all
      the patch's content hunks, whole-file sections included."""

    key_order: bool = False
    file_order: tuple[str, ...] | None = None
    lexical_hunks: bool = False

    def __bool__(self) -> bool:
        return self.key_order or self.lexical_hunks or self.file_order is not None

    @classmethod
    def named(
        cls, names: Sequence[str], file_order: Sequence[str] | None = None
    ) -> PublishedArtifacts:
        """The artifacts called `names` (ARTIFACT_NAMES), with an optional file order."""
        unknown = sorted(set(names) - set(ARTIFACT_NAMES))
        if unknown:
            raise ArgumentError(f"unknown published artifact(s) {', '.join(unknown)}")
        return cls(
            key_order=KEY_ORDER in names,
            file_order=tuple(file_order) if file_order is not None else None,
            lexical_hunks=LEXICAL_HUNKS in names,
        )

    def config(self) -> dict[str, Any]:
        """The document config keys for the artifacts in force (none when none are)."""
        out: dict[str, Any] = {}
        names = [KEY_ORDER] * self.key_order + [LEXICAL_HUNKS] * self.lexical_hunks
        if names:
            out["published_artifacts"] = names
        if self.file_order is not None:
            out["file_order"] = list(self.file_order)
        return out

    def unknown_files(self, paths: Sequence[str]) -> list[str]:
        """The `file_order` entries that name none of `paths` (typos, files not counted)."""
        known = set(paths)
        return [path for path in self.file_order or () if path not in known]

    def apply(
        self,
        paths: Sequence[str],
        structural: npt.NDArray[np.float64],
        file: npt.NDArray[np.float64],
        same_file: BoolMatrix,
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], BoolMatrix]:
        """S, F and the same-file mask (pair matrices over the counted hunks, whose files
        are `paths`, in patch order) as the published rows carry them."""
        import numpy as np

        if self.file_order is not None:
            order = study_order(paths, self.file_order)
            index = np.asarray(order, dtype=np.int64)
            structural, file = remap(structural, order), remap(file, order)
            same_file = same_file[np.ix_(index, index)]
        if self.key_order:
            structural = structural.copy()
            for i, j in lost_pairs(len(paths)):
                if same_file[i, j]:
                    structural[i, j] = structural[j, i] = 0.0
        return structural, file, same_file


def read_file_order(text: str) -> tuple[str, ...]:
    """A file-order list: one patch path a line; blank lines and `#` comments skipped."""
    lines = (line.strip() for line in text.splitlines())
    return tuple(line for line in lines if line and not line.startswith("#"))
