"""A diff's file sections → the patch model's FileDiffs: names, status, hunks numbered.

Git sections take their names and status from their own header lines; plain sections
from their two names (with the `-p1` prefix the diff's plain sections show together,
`plain_strip`). A section with a file header but no hunk is a truncated diff."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace

from ..errors import PatchError
from .model import FileDiff, FileStatus
from .names import DEV_NULL, drop_component, header_name, plain_paths, strips_first_directory
from .regions import recut_file
from .sections import Section
from .text import patch_error, show

_INDEX_RE = re.compile(r"^index ([0-9a-fA-F]+)\.\.([0-9a-fA-F]+)(?: ([0-7]+))?", re.M)
_MODE_RE = {
    "old": re.compile(r"^(?:old mode|deleted file mode) ([0-7]+)", re.M),
    "new": re.compile(r"^(?:new mode|new file mode) ([0-7]+)", re.M),
}


def check_options(hunking: str, strip: int | None) -> None:
    """`hunking` and `strip` as `parse_patch` takes them, or a PatchError."""
    if hunking not in ("as-given", "regions"):
        raise patch_error(f"unknown hunking {show(hunking)!r} (use as-given or regions)")
    if strip is not None and (isinstance(strip, bool) or not isinstance(strip, int) or strip < 0):
        raise patch_error(f"strip must be a whole number of directories >= 0, not {strip!r}")


def no_file_changes(name: str) -> PatchError:
    """The error for a diff without any file section."""
    return patch_error(
        f"{show(name)}: no file changes found (expected a unified diff with '---', '+++' "
        "and '@@' lines)"
    )


def file_diffs(
    sections: Iterable[Section],
    name: str,
    strip_lone: bool,
    strip: int | None,
    *,
    reverse: bool = False,
    hunking: str = "as-given",
    warn: Callable[[str], None] | None = None,
) -> Iterator[FileDiff]:
    """Each section as a FileDiff, its hunks numbered on from the previous file's;
    swapped with `reverse`, re-cut into regions with `hunking="regions"`. `warn` is
    told of each file excluded from the metrics (binary, mode change only, …)."""
    parsed = index = 0
    for section in sections:
        file_diff = _file_diff(section, parsed, name, strip_lone, strip)
        section.hunks = []  # read as placeholders: the file's own hunks replace them
        parsed += len(file_diff.hunks)
        reason = file_diff.excluded_reason
        if reason == "no content change" and file_diff.status is FileStatus.MODIFIED:
            raise patch_error(
                f"{show(name)}: {show(file_diff.path)} has a file header but no hunk; "
                "the diff looks truncated"
            )
        if reason is not None and warn is not None:
            warn(f"{file_diff.path}: {reason}, excluded from metrics")
        if reverse:
            file_diff = file_diff.swapped()
        if hunking == "regions":
            file_diff = replace(file_diff, hunks=recut_file(file_diff, index))
        index += len(file_diff.hunks)
        yield file_diff


class StripVotes:
    """Whether the plain sections, taken together, show a `-p1` prefix (a name facing
    /dev/null is then stripped like the others): each plain section votes as it is read."""

    def __init__(self) -> None:
        self.votes: Counter[bool | None] = Counter()
        self.sections = 0  # sections seen, git ones included

    def add(self, section: Section) -> None:
        self.sections += 1
        if section.git_line is None:
            self.votes[strips_first_directory(section.old_name, section.new_name)] += 1

    @property
    def strip_lone(self) -> bool:
        return self.votes[True] > self.votes[False]


def plain_strip(sections: Iterable[Section]) -> bool:
    """`StripVotes.strip_lone` of all `sections`."""
    votes = StripVotes()
    for section in sections:
        votes.add(section)
    return votes.strip_lone


def _file_diff(
    section: Section, first_index: int, name: str, strip_lone: bool, strip: int | None
) -> FileDiff:
    info = "\n".join(section.extended)
    guessed = False
    if section.git_line is not None:
        old_path, new_path, status = _git_paths(section, name)
    else:
        try:
            old_path, new_path, status = _plain_paths(section, strip_lone, strip)
        except PatchError as exc:
            raise patch_error(f"{show(name)}: {exc}") from None
        guessed = status in (FileStatus.ADDED, FileStatus.DELETED) and DEV_NULL not in (
            section.old_name,
            section.new_name,
        )
    path = new_path if new_path is not None else old_path
    if path is None:
        raise patch_error(f"{show(name)}: a file section without a path")
    index_match = _INDEX_RE.search(info)
    old_mode = _MODE_RE["old"].search(info)
    new_mode = _MODE_RE["new"].search(info)
    mode = index_match.group(3) if index_match and index_match.group(3) else None
    hunks = tuple(replace(h, index=first_index + i, path=path) for i, h in enumerate(section.hunks))
    file_diff = FileDiff(
        old_path=old_path,
        new_path=new_path,
        status=status,
        hunks=() if section.binary else hunks,
        old_blob=_null_blob(index_match.group(1)) if index_match else None,
        new_blob=_null_blob(index_match.group(2)) if index_match else None,
        old_mode=old_mode.group(1) if old_mode else mode,
        new_mode=new_mode.group(1) if new_mode else mode,
        is_binary=section.binary,
        status_guessed=guessed,
    )
    # Like a binary file, a symlink's or submodule's "lines" are no source: no hunks.
    return replace(file_diff, hunks=()) if file_diff.special_kind else file_diff


def _extended(section: Section, *keys: str) -> str | None:
    for line in section.extended:
        for key in keys:
            if line.startswith(key):
                return header_name(line[len(key) :])
    return None


def _git_paths(section: Section, name: str) -> tuple[str | None, str | None, FileStatus]:
    """Names and status of a git section, from its own header lines only (a hunk
    `@@ -0,0 …` on an existing file is no sign of a new file)."""
    copy_from, copy_to = _extended(section, "copy from "), _extended(section, "copy to ")
    rename_from = _extended(section, "rename from ", "rename old ")
    rename_to = _extended(section, "rename to ", "rename new ")
    from_name, to_name = copy_from or rename_from, copy_to or rename_to
    prefixed = _git_prefixed(section)
    old_raw, new_raw = section.old_name, section.new_name
    header_old, header_new = section.git if section.git is not None else (None, None)

    def strip(raw: str | None) -> str | None:
        if raw is None or raw == DEV_NULL:
            return None
        return drop_component(raw) if prefixed else raw

    old = from_name or strip(old_raw) or strip(header_old)
    new = to_name or strip(new_raw) or strip(header_new)
    if old is None and new is None:
        raise patch_error(
            f"{show(name)}: cannot tell the names apart in {show(section.git_line or '', 120)!r}"
        )
    if _extended(section, "new file mode ") is not None or old_raw == DEV_NULL:
        return None, new if new is not None else old, FileStatus.ADDED
    if _extended(section, "deleted file mode ") is not None or new_raw == DEV_NULL:
        return old if old is not None else new, None, FileStatus.DELETED
    old = old if old is not None else new
    new = new if new is not None else old
    if copy_from is not None:
        return old, new, FileStatus.COPIED
    if rename_from is not None or old != new:
        return old, new, FileStatus.RENAMED
    return old, new, FileStatus.MODIFIED


def _git_prefixed(section: Section) -> bool:
    """Whether this git section's names carry prefixes (a/ b/, or mnemonic ones) or not
    (`git diff --no-prefix`). Git writes the same name twice on the `diff --git` line of
    a file that is neither renamed nor copied: prefixes make the two differ."""
    renamed = any(line.startswith(("rename ", "copy ")) for line in section.extended)
    if section.git is not None and not renamed:
        return section.git[0] != section.git[1]
    old, new = section.old_name, section.new_name
    if not renamed and old not in (None, DEV_NULL) and new not in (None, DEV_NULL):
        return old != new
    if section.git is not None:  # renamed: compare with the exact names
        from_name = _extended(section, "rename from ", "rename old ", "copy from ")
        return section.git[0] != from_name
    candidates = [n for n in (old, new) if n not in (None, DEV_NULL)]
    return bool(candidates) and all(n.startswith(("a/", "b/")) for n in candidates)


def _plain_paths(
    section: Section, strip_lone: bool, strip: int | None
) -> tuple[str | None, str | None, FileStatus]:
    old, new = plain_paths(section.old_name, section.new_name, strip_lone, strip)
    hunks = section.hunks
    # A plain diff has no other sign of a new or deleted file than /dev/null or one
    # hunk with an empty side.
    if old is None or (len(hunks) == 1 and hunks[0].old_start == 0 and not hunks[0].old_lines):
        return None, new if new is not None else old, FileStatus.ADDED
    if new is None or (len(hunks) == 1 and hunks[0].new_start == 0 and not hunks[0].new_lines):
        return old, None, FileStatus.DELETED
    return old, new, (FileStatus.RENAMED if old != new else FileStatus.MODIFIED)


def _null_blob(abbrev: str) -> str | None:
    return None if set(abbrev) == {"0"} else abbrev.lower()
