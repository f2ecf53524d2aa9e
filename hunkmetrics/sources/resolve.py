"""Decide which side of the patch a tree holds, and derive the other side in memory."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from ..errors import SourceError
from ..patch.model import FileDiff, FileStatus, Patch
from ..patch.parse import decode
from .apply import apply_file, mismatch, split_lines
from .readers import FileReader

Side = Literal["pre", "post"]


@dataclass(frozen=True, slots=True)
class FileTexts:
    """Both images of one file (None where the file does not exist on that side)."""

    pre: bytes | None
    post: bytes | None


@dataclass(frozen=True, slots=True)
class Sources:
    """The patch's files, both images, as read from a tree and derived by applying it."""

    side: Side  # the side the tree held
    description: str
    files: Mapping[str, FileTexts]  # keyed by FileDiff.path
    reader: FileReader

    def texts(self, file_diff: FileDiff) -> FileTexts | None:
        return self.files.get(file_diff.path)


def blob_hash(data: bytes, algorithm: str = "sha1") -> str:
    """Git's object name of a blob with these bytes (`sha1`, or `sha256` repositories)."""
    return hashlib.new(algorithm, b"blob %d\0" % len(data) + data).hexdigest()


def blob_matches(data: bytes, abbreviation: str) -> bool:
    """Whether an `index` line's abbreviated blob name names these bytes. Abbreviations
    longer than 40 digits can only be SHA-256; shorter ones are tried with both."""
    algorithms = ("sha256",) if len(abbreviation) > 40 else ("sha1", "sha256")
    return any(blob_hash(data, a).startswith(abbreviation) for a in algorithms)


def _side_of(
    file_diff: FileDiff, reader: FileReader
) -> tuple[set[Side], str, bytes | None, bytes | None]:
    """The sides this tree is consistent with for one file, why not, and the texts read."""
    old = reader.read(file_diff.old_path) if file_diff.old_path else None
    new = reader.read(file_diff.new_path) if file_diff.new_path else None
    sides: set[Side] = set()
    reasons: list[str] = []
    if file_diff.status is FileStatus.ADDED:
        return (
            ({"pre"} if new is None else _matches(file_diff, new, "post", reasons)),
            "; ".join(reasons),
            None,
            new,
        )
    if file_diff.status is FileStatus.DELETED:
        return (
            ({"post"} if old is None else _matches(file_diff, old, "pre", reasons)),
            "; ".join(reasons),
            old,
            None,
        )
    if old is not None:
        sides |= _matches(file_diff, old, "pre", reasons)
    if new is not None:
        sides |= _matches(file_diff, new, "post", reasons)
    if old is None and new is None:
        reasons.append("file not found")
    return sides, "; ".join(reasons), old, new


def _matches(file_diff: FileDiff, data: bytes, side: Side, reasons: list[str]) -> set[Side]:
    blob = file_diff.old_blob if side == "pre" else file_diff.new_blob
    if blob:
        if blob_matches(data, blob):
            return {side}
        reasons.append(f"{side}-image blob {blob} does not match")
        return set()
    oriented = file_diff if side == "pre" else file_diff.swapped()
    problem = mismatch(oriented, split_lines(decode(data)))
    if problem is None:
        return {side}
    reasons.append(f"as {side}-image: {problem}")
    return set()


def resolve_sources(patch: Patch, reader: FileReader) -> Sources:
    """Read every content file of the patch from `reader`, decide the side, derive the
    other one. Raises SourceError naming the first file that fits neither side."""
    votes: dict[str, set[Side]] = {}
    read: dict[str, tuple[bytes | None, bytes | None]] = {}
    for file_diff in patch.content_files:
        sides, why, old, new = _side_of(file_diff, reader)
        if not sides:
            raise SourceError(
                f"{file_diff.path}: the {reader.description} matches neither side of the "
                f"patch ({why})"
            )
        votes[file_diff.path] = sides
        read[file_diff.path] = (old, new)
    side = _decide(votes, reader.description)
    files: dict[str, FileTexts] = {}
    for file_diff in patch.content_files:
        old, new = read[file_diff.path]
        if side == "pre":
            pre = old if file_diff.status is not FileStatus.ADDED else None
            post = apply_file(pre or b"", file_diff) if file_diff.new_path else None
        else:
            post = new if file_diff.status is not FileStatus.DELETED else None
            pre = apply_file(post or b"", file_diff.swapped()) if file_diff.old_path else None
        files[file_diff.path] = FileTexts(pre, post)
    return Sources(side, reader.description, files, reader)


def _decide(votes: dict[str, set[Side]], description: str) -> Side:
    if not votes:
        return "pre"
    definite = {path: next(iter(s)) for path, s in votes.items() if len(s) == 1}
    kinds = set(definite.values())
    if len(kinds) > 1:
        pre = next(p for p, s in definite.items() if s == "pre")
        post = next(p for p, s in definite.items() if s == "post")
        raise SourceError(
            f"the {description} holds {pre} as the pre-image but {post} as the post-image"
        )
    return kinds.pop() if kinds else "pre"
