"""Unified diff bytes → the project's Patch model (unidiff does the parsing)."""

from __future__ import annotations

import os
import re
import stat
from dataclasses import replace
from pathlib import Path

from unidiff.errors import UnidiffParseError
from unidiff.patch import Hunk as UnidiffHunk
from unidiff.patch import PatchedFile, PatchSet

from ..errors import PatchError
from .model import FileDiff, FileStatus, Hunk, Line, LineKind, Patch

ENCODING = "utf-8"
ERRORS = "surrogateescape"  # keeps bytes that are not UTF-8, round-trips them exactly

_INDEX_RE = re.compile(r"^index ([0-9a-fA-F]+)\.\.([0-9a-fA-F]+)(?: (\d+))?", re.M)
_MODE_RE = {
    "old": re.compile(r"^(?:old mode|deleted file mode) (\d+)", re.M),
    "new": re.compile(r"^(?:new mode|new file mode) (\d+)", re.M),
}
_HEADER_RE = re.compile(rb"^(?:--- |\+\+\+ |@@ |diff )", re.M)


def decode(data: bytes) -> str:
    """Bytes → str, keeping undecodable bytes as surrogates so they round-trip."""
    return data.decode(ENCODING, ERRORS)


def encode(text: str) -> bytes:
    return text.encode(ENCODING, ERRORS)


def read_patch(
    source: str | Path,
    *,
    reverse: bool = False,
    hunking: str = "as-given",
    stdin: bytes | None = None,
) -> Patch:
    """Read a diff from a path (or `-` with `stdin` bytes) and parse it."""
    if str(source) == "-":
        if stdin is None:
            raise PatchError("no diff on standard input")
        return parse_patch(stdin, name="<stdin>", reverse=reverse, hunking=hunking)
    data = read_patch_bytes(source)
    return parse_patch(data, name=str(source), reverse=reverse, hunking=hunking)


def read_patch_bytes(path: str | Path) -> bytes:
    """A patch file's bytes; what is not a readable regular file is a one-line
    PatchError (a device or FIFO such as /dev/zero would never end)."""
    target = Path(path)
    if not target.exists():
        raise PatchError(f"{path}: no such file")
    if target.is_dir():
        raise PatchError(f"{path}: is a directory, expected a diff file")
    try:
        # Non-blocking, so that a FIFO does not wait for a writer before it is refused.
        fd = os.open(target, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise PatchError(f"{path}: cannot read ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise PatchError(f"{path}: not a regular file (a device, FIFO or socket)")
        try:
            return handle.read()
        except OSError as exc:
            raise PatchError(f"{path}: cannot read ({exc.strerror})") from None


def parse_patch(
    data: bytes | str, *, name: str = "<patch>", reverse: bool = False, hunking: str = "as-given"
) -> Patch:
    """Parse a unified diff (git or plain) into a Patch.

    `reverse` swaps pre- and post-image; `hunking` is "as-given" (the `@@` blocks) or
    "regions" (re-cut as git would with 3 lines of context)."""
    if hunking not in ("as-given", "regions"):
        raise PatchError(f"unknown hunking {hunking!r} (use as-given or regions)")
    raw = data if isinstance(data, bytes) else encode(data)
    if not raw.strip():
        raise PatchError(f"{name}: empty diff")
    warnings: list[str] = []
    if _is_crlf_converted(raw):
        raw = raw.replace(b"\r\n", b"\n")
        warnings.append("the whole diff has CRLF line endings; read it with LF endings")
    text = decode(raw)
    try:
        patch_set = PatchSet(text)
    except UnidiffParseError as exc:
        detail = str(exc)
        if "shorter than expected" in detail:
            detail = "a hunk has fewer lines than its @@ header says; truncated?"
        raise PatchError(f"{name}: not a valid unified diff ({detail})") from None
    if len(patch_set) == 0:
        raise PatchError(
            f"{name}: no file changes found (expected a unified diff with '---', '+++' "
            "and '@@' lines)"
        )
    files: list[FileDiff] = []
    index = 0
    for patched in patch_set:
        file_diff = _convert_file(patched, index)
        index += len(file_diff.hunks)
        files.append(file_diff)
        reason = file_diff.excluded_reason
        if reason == "no content change" and file_diff.status is FileStatus.MODIFIED:
            raise PatchError(
                f"{name}: {file_diff.path} has a file header but no hunk; the diff looks truncated"
            )
        if reason is not None:
            warnings.append(f"{file_diff.path}: {reason}, excluded from metrics")
    patch = Patch(name=name, files=tuple(files), warnings=tuple(warnings))
    if reverse:
        patch = replace(patch, files=tuple(f.swapped() for f in patch.files), reversed=True)
    if hunking == "regions":
        from .regions import recut_regions

        patch = recut_regions(patch)
    return patch


def _is_crlf_converted(raw: bytes) -> bool:
    """True when the diff's own header lines end in CRLF: the file was converted as a
    whole (e.g. saved on Windows), so every CR belongs to the transport, not the code."""
    headers = [m.start() for m in _HEADER_RE.finditer(raw)]
    if not headers:
        return False
    for start in headers:
        end = raw.find(b"\n", start)
        if end <= 0 or raw[end - 1 : end] != b"\r":
            return False
    return True


def _strip_prefixes(old: str | None, new: str | None) -> tuple[str | None, str | None]:
    """Drop git's a/ b/ prefixes, or a plain diff's differing first directory (-p1)."""

    def clean(path: str | None) -> str | None:
        if path is None or path == "/dev/null":
            return None
        path = path.split("\t", 1)[0].strip()
        return path[2:] if path.startswith("./") else path

    old, new = clean(old), clean(new)
    git_style = (old is None or old.startswith("a/")) and (new is None or new.startswith("b/"))
    if git_style and (old is not None or new is not None):
        return (old[2:] if old else None), (new[2:] if new else None)
    if old and new and "/" in old and "/" in new:
        old_rest, new_rest = old.split("/", 1)[1], new.split("/", 1)[1]
        if old_rest == new_rest:
            return old_rest, new_rest
    return old, new


def _convert_file(patched: PatchedFile, first_index: int) -> FileDiff:
    info = str(patched.patch_info or "")
    old_path, new_path = _strip_prefixes(patched.source_file, patched.target_file)
    if patched.is_added_file:
        status, old_path = FileStatus.ADDED, None
    elif patched.is_removed_file:
        status, new_path = FileStatus.DELETED, None
    elif re.search(r"^copy from ", info, re.M):
        status = FileStatus.COPIED
    elif re.search(r"^rename from ", info, re.M) or old_path != new_path:
        status = FileStatus.RENAMED
    else:
        status = FileStatus.MODIFIED
    if old_path is None and new_path is None:
        raise PatchError(f"file section without a path: {info.splitlines()[0:1]}")
    path = new_path if new_path is not None else old_path
    index_match = _INDEX_RE.search(info)
    old_mode = _MODE_RE["old"].search(info)
    new_mode = _MODE_RE["new"].search(info)
    mode = index_match.group(3) if index_match and index_match.group(3) else None
    hunks = tuple(_convert_hunk(h, first_index + i, path or "") for i, h in enumerate(patched))
    is_binary = bool(patched.is_binary_file) or "GIT binary patch" in info
    return FileDiff(
        old_path=old_path,
        new_path=new_path,
        status=status,
        hunks=() if is_binary else hunks,
        old_blob=_null_blob(index_match.group(1)) if index_match else None,
        new_blob=_null_blob(index_match.group(2)) if index_match else None,
        old_mode=old_mode.group(1) if old_mode else mode,
        new_mode=new_mode.group(1) if new_mode else mode,
        is_binary=is_binary,
    )


def _null_blob(abbrev: str) -> str | None:
    return None if set(abbrev) == {"0"} else abbrev.lower()


def _convert_hunk(hunk: UnidiffHunk, index: int, path: str) -> Hunk:
    lines: list[Line] = []
    for raw in hunk:
        if raw.line_type == "\\":
            if lines:
                last = lines[-1]
                lines[-1] = replace(last, eol="")
            continue
        value = raw.value
        if value.endswith("\n"):
            value = value[:-1]
        eol = "\n"
        if value.endswith("\r"):
            value, eol = value[:-1], "\r\n"
        kind = {"+": LineKind.ADDED, "-": LineKind.REMOVED}.get(raw.line_type, LineKind.CONTEXT)
        lines.append(Line(kind, value, raw.source_line_no, raw.target_line_no, eol))
    return Hunk(
        index=index,
        path=path,
        old_start=hunk.source_start,
        old_lines=hunk.source_length,
        new_start=hunk.target_start,
        new_lines=hunk.target_length,
        section=(hunk.section_header or "").strip(),
        lines=tuple(lines),
    )
