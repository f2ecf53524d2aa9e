"""Decide which side of the patch a tree holds, and derive the other side in memory."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal

from ..errors import SourceError
from ..patch.model import FileDiff, FileStatus, Patch
from ..patch.parse import decode
from .apply import apply_file, mismatch, split_lines, unchecked_hunks
from .readers import FileReader, LinkReader

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
    # Hunks that could not be checked against the tree (`unverified`), one sentence each.
    warnings: tuple[str, ...] = ()

    def texts(self, file_diff: FileDiff) -> FileTexts | None:
        return self.files.get(file_diff.path)


def blob_hash(data: bytes, algorithm: str = "sha1") -> str:
    """Git's object name of a blob with these bytes (`sha1`, or `sha256` repositories)."""
    digest = hashlib.new(algorithm, b"blob %d\0" % len(data))
    digest.update(data)
    return digest.hexdigest()


def blob_matches(data: bytes, abbreviation: str, hashes: dict[str, str] | None = None) -> bool:
    """Whether an `index` line's abbreviated blob name names these bytes. Abbreviations
    longer than 40 digits can only be SHA-256; shorter ones are tried with both.
    `hashes`: these bytes' blob names by algorithm, as far as known (filled in)."""
    known = hashes if hashes is not None else {}
    algorithms = ("sha256",) if len(abbreviation) > 40 else ("sha1", "sha256")
    for algorithm in algorithms:
        if algorithm not in known:
            known[algorithm] = blob_hash(data, algorithm)
        if known[algorithm].startswith(abbreviation):
            return True
    return False


SYMLINK_MODE = "120000"


def _existed(file_diff: FileDiff) -> bool:
    """Whether the `index` line says the pre-image exists: a blob name that is not all
    zeros, or a mode (git gives none for the missing side of an added file)."""
    blob = file_diff.old_blob
    return bool(blob and blob.strip("0")) or file_diff.old_mode is not None


def as_git_means(file_diff: FileDiff) -> FileDiff:
    """The section as git means it. A lone hunk at `-0,0` (an insertion at the top of a
    file, as `-U0` diffs have, or into an empty file) can be read as an added file, and
    one at `+0,0` (a file emptied) as a deleted one. When the `index` line names a blob
    on the missing side, or gives the mode without a `new file`/`deleted file` line,
    the file exists on both sides: a modification."""
    added, deleted = FileStatus.ADDED, FileStatus.DELETED
    if file_diff.status is added and file_diff.new_path is not None and _existed(file_diff):
        return replace(file_diff, old_path=file_diff.new_path, status=FileStatus.MODIFIED)
    if (
        file_diff.status is deleted
        and file_diff.old_path is not None
        and _existed(file_diff.swapped())
    ):
        return replace(file_diff, new_path=file_diff.old_path, status=FileStatus.MODIFIED)
    return file_diff


def _read(reader: FileReader, path: str, mode: str | None) -> bytes | None:
    """A file's bytes; for a symbolic link (mode 120000), its target as git stores it."""
    if mode == SYMLINK_MODE and isinstance(reader, LinkReader):
        return reader.read_link(path)
    return reader.read(path)


@dataclass
class _Check:
    """One section checked against the tree: the sides it fits, why not, what was read."""

    sides: set[Side]
    why: list[str]
    old: bytes | None
    new: bytes | None


def _side_of(file_diff: FileDiff, reader: FileReader) -> _Check:
    """The sides this tree is consistent with for one file, why not, and the texts read."""
    old = _read(reader, file_diff.old_path, file_diff.old_mode) if file_diff.old_path else None
    new = _read(reader, file_diff.new_path, file_diff.new_mode) if file_diff.new_path else None
    reasons: list[str] = []
    sides: set[Side]
    if file_diff.status is FileStatus.ADDED:
        sides = {"pre"} if new is None else _whole(file_diff, new, "post", reasons)
        return _Check(sides, reasons, None, new)
    if file_diff.status is FileStatus.DELETED:
        sides = {"post"} if old is None else _whole(file_diff, old, "pre", reasons)
        return _Check(sides, reasons, old, None)
    sides = set()
    old_hashes: dict[str, str] = {}
    # the same path read twice is one text: its blob names are worked out once
    new_hashes = old_hashes if new is old else {}
    if old is not None:
        sides |= _matches(file_diff, old, "pre", reasons, old_hashes)
    if new is not None:
        sides |= _matches(file_diff, new, "post", reasons, new_hashes)
    if old is None and new is None:
        reasons.append("file not found")
    return _Check(sides, reasons, old, new)


def _found(file_diff: FileDiff, check: _Check, reader: FileReader) -> tuple[FileDiff, _Check]:
    """A status the parser guessed (a plain diff's lone `@@ -0,0` or `+0,0` hunk, no
    /dev/null) read as git reads it, by what the tree holds: an "added" file that exists
    there is an insertion at the top of it, a "deleted" one that exists a deletion from
    it (a file emptied), unless the tree holds exactly the added file's post-image or
    the deleted file's pre-image."""
    if not file_diff.status_guessed:
        return file_diff, check
    if file_diff.status is FileStatus.ADDED and check.new is not None and "post" not in check.sides:
        modified = replace(file_diff, old_path=file_diff.new_path, status=FileStatus.MODIFIED)
    elif (
        file_diff.status is FileStatus.DELETED
        and check.old is not None
        and "pre" not in check.sides
    ):
        modified = replace(file_diff, new_path=file_diff.old_path, status=FileStatus.MODIFIED)
    else:
        return file_diff, check
    return modified, _side_of(modified, reader)


def _type_change(deleted: _Check, added: _Check) -> set[Side]:
    """The sides a tree fits for a path whose type changes (a file becoming a symbolic
    link, or back: git writes one section deleting it, one adding it). The tree holds
    the deleted section's pre-image or the added section's post-image."""
    sides: set[Side] = set()
    if deleted.old is not None and "pre" in deleted.sides:
        sides.add("pre")
    if added.new is not None and "post" in added.sides:
        sides.add("post")
    return sides


def _whole(file_diff: FileDiff, data: bytes, side: Side, reasons: list[str]) -> set[Side]:
    """`_matches` for an added file's post-image or a deleted file's pre-image, which the
    hunks give whole: a tree file with more lines than they hold is not that image."""
    sides = _matches(file_diff, data, side, reasons)
    if not sides or _blob(file_diff, side):
        return sides  # no fit, or an exact one by blob name
    held = sum(h.new_lines if side == "post" else h.old_lines for h in file_diff.hunks)
    lines = len(split_lines(decode(data)))
    if lines != held:
        reasons.append(f"as {side}-image: the file has {lines} lines, the diff's whole file {held}")
        return set()
    return sides


def _blob(file_diff: FileDiff, side: Side) -> str | None:
    """The `index` line's blob name of `side`, if any."""
    return file_diff.old_blob if side == "pre" else file_diff.new_blob


def _matches(
    file_diff: FileDiff,
    data: bytes,
    side: Side,
    reasons: list[str],
    hashes: dict[str, str] | None = None,
) -> set[Side]:
    blob = _blob(file_diff, side)
    if blob:
        if blob_matches(data, blob, hashes):
            return {side}
        reasons.append(f"{side}-image blob {blob} does not match")
        return set()
    oriented = file_diff if side == "pre" else file_diff.swapped()
    problem = mismatch(oriented, split_lines(decode(data)))
    if problem is None:
        return {side}
    reasons.append(f"as {side}-image: {problem}")
    return set()


def unverified(file_diff: FileDiff, side: Side) -> list[str]:
    """Warnings for the hunks a tree holding `side` could not confirm: without a blob
    name to compare, a hunk with neither context nor removed lines (on that side) is
    checked only for its insertion point."""
    oriented = file_diff if side == "pre" else file_diff.swapped()
    if oriented.old_path is None or oriented.old_blob:
        return []  # nothing to read on that side, or checked by its blob name
    return [
        f"{file_diff.path}: hunk {header} could not be verified against the source "
        "(no context lines and no blob name in the diff: only its insertion point was "
        "checked)"
        for header in unchecked_hunks(oriented)
    ]


def _checked_sections(patch: Patch) -> list[FileDiff]:
    """The content files, plus the symbolic-link half of a type change (file → link or
    back): it takes no part in the metrics, but which side the tree holds shows in it."""
    content = {f.path for f in patch.content_files}
    return [
        f
        for f in patch.files
        if f.excluded_reason is None or (f.special_kind == "symlink" and f.path in content)
    ]


def resolve_sources(patch: Patch, reader: FileReader) -> Sources:
    """Read every content file of the patch from `reader`, decide the side, derive the
    other one. Raises SourceError naming the first file that fits neither side."""
    found = [
        _found(f, _side_of(f, reader), reader) for f in map(as_git_means, _checked_sections(patch))
    ]
    sections = [f for f, _ in found]
    checks = [c for _, c in found]
    deleted = {f.path: c for f, c in zip(sections, checks, strict=True) if f.new_path is None}
    added = {f.path: c for f, c in zip(sections, checks, strict=True) if f.old_path is None}
    changed_type = deleted.keys() & added.keys()
    votes: dict[str, set[Side]] = {}
    for file_diff, check in zip(sections, checks, strict=True):
        sides = check.sides
        if file_diff.path in changed_type:
            sides = _type_change(deleted[file_diff.path], added[file_diff.path])
            why = "; ".join(deleted[file_diff.path].why + added[file_diff.path].why)
        else:
            why = "; ".join(check.why)
        if not sides:
            raise SourceError(
                f"{file_diff.path}: the {reader.description} matches neither side of the "
                f"patch ({why})"
            )
        votes[file_diff.path] = sides
    side = _decide(votes, reader.description)
    files: dict[str, FileTexts] = {}
    warnings: list[str] = []
    for file_diff, check in zip(sections, checks, strict=True):
        if file_diff.excluded_reason is not None:
            continue  # the link half of a type change: it voted, it has no source text
        if side == "pre":
            pre = check.old if file_diff.status is not FileStatus.ADDED else None
            post = apply_file(pre or b"", file_diff) if file_diff.new_path else None
        else:
            post = check.new if file_diff.status is not FileStatus.DELETED else None
            pre = apply_file(post or b"", file_diff.swapped()) if file_diff.old_path else None
        files[file_diff.path] = FileTexts(pre, post)
        warnings.extend(unverified(file_diff, side))
    return Sources(side, reader.description, files, reader, tuple(warnings))


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
