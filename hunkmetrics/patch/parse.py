"""Unified diff bytes → the project's Patch model.

The diff is read line by line (lines end in `\\n` only; a CR is content). Git sections
(`diff --git`) take their names and status from their own header lines; plain sections
(`---`/`+++`) from their two names. A hunk's `@@` counts say how many lines it holds.
Every error is one PatchError line."""

from __future__ import annotations

import os
import re
import stat
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import BinaryIO

from ..errors import HunkmetricsError, PatchError
from ..inputfile import env_bytes, read_capped
from ..memory import no_cyclic_gc
from .lines import DiffLines
from .model import FileDiff, FileStatus, Hunk, Line, LineKind, Patch, pack
from .names import (
    DEV_NULL,
    drop_component,
    header_name,
    plain_paths,
    split_git_header,
    strips_first_directory,
)

ENCODING = "utf-8"
ERRORS = "surrogateescape"  # keeps bytes that are not UTF-8, round-trips them exactly
MAX_LINE = 10_000_000  # larger line numbers or counts in an @@ header are refused

# ASCII digits only: `\d` would accept Arabic-Indic or fullwidth digits.
_MBOX_FROM_BYTES_RE = re.compile(rb"^From [0-9a-f]{40} ", re.M)  # git format-patch mails
_HUNK_RE = re.compile(r"@@ -([0-9]+)(?:,([0-9]+))? \+([0-9]+)(?:,([0-9]+))? @@ ?(.*)")
_INDEX_RE = re.compile(r"^index ([0-9a-fA-F]+)\.\.([0-9a-fA-F]+)(?: ([0-7]+))?", re.M)
_MODE_RE = {
    "old": re.compile(r"^(?:old mode|deleted file mode) ([0-7]+)", re.M),
    "new": re.compile(r"^(?:new mode|new file mode) ([0-7]+)", re.M),
}
_HEADER_RE = re.compile(rb"^(?:--- |\+\+\+ |@@ |diff )", re.M)
_BINARY_RE = re.compile(r"^Binary files (.+?) and (.+?) differ\r?$")
_EXTENDED = (
    "old mode ",
    "new mode ",
    "deleted file mode ",
    "new file mode ",
    "copy from ",
    "copy to ",
    "rename from ",
    "rename to ",
    "rename old ",
    "rename new ",
    "similarity index ",
    "dissimilarity index ",
    "index ",
)
_SPECIAL_MODES = {"120000": "symlink", "160000": "submodule"}
_KINDS = {" ": LineKind.CONTEXT, "-": LineKind.REMOVED, "+": LineKind.ADDED}  # by marker
_BOMS = {b"\xef\xbb\xbf": "utf-8", b"\xff\xfe": "utf-16-le", b"\xfe\xff": "utf-16-be"}


def decode(data: bytes) -> str:
    """Bytes → str, keeping undecodable bytes as surrogates so they round-trip."""
    return data.decode(ENCODING, ERRORS)


def encode(text: str) -> bytes:
    return text.encode(ENCODING, ERRORS)


def show(text: str, limit: int | None = None) -> str:
    """Text from the input, fit for a one-line message: control characters escaped,
    cut to `limit` characters when one is given."""
    cut = text if limit is None else text[: limit + 1]
    shown = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in cut)
    return shown[:limit] + "…" if limit is not None and len(shown) > limit else shown


def patch_error(message: str) -> PatchError:
    """A PatchError whose message is one line, whatever the input held (every line
    break, Unicode ones included, becomes a space)."""
    return PatchError(" ".join(message.splitlines()))


def read_patch(
    source: str | Path,
    *,
    reverse: bool = False,
    hunking: str = "as-given",
    stdin: bytes | None = None,
    strip: int | None = None,
) -> Patch:
    """Read a diff from a path (or `-` with `stdin` bytes) and parse it."""
    if str(source) == "-":
        if stdin is None:
            raise patch_error("no diff on standard input")
        return parse_patch(stdin, name="<stdin>", reverse=reverse, hunking=hunking, strip=strip)
    data = read_patch_bytes(source)
    return parse_patch(data, name=str(source), reverse=reverse, hunking=hunking, strip=strip)


MAX_PATCH_BYTES_ENV = "HUNKMETRICS_MAX_PATCH_BYTES"
# A 64 MiB diff takes `hunks` about 0.55 GB and 2 minutes on a 2-core EPYC with 24 GB
# (docs/security.md, "Sizes, caps and figures"); 256 MiB would take 8+ minutes, and the
# pairwise metrics grow with the square of the hunks.
DEFAULT_MAX_PATCH_BYTES = 64 * 1024 * 1024


def max_patch_bytes() -> int:
    """The largest patch file read: `HUNKMETRICS_MAX_PATCH_BYTES` (bytes) or 64 MiB."""
    try:
        return env_bytes(MAX_PATCH_BYTES_ENV, DEFAULT_MAX_PATCH_BYTES)
    except HunkmetricsError as exc:
        raise patch_error(str(exc)) from None


def read_stdin_bytes(stream: BinaryIO, max_bytes: int | None = None) -> bytes:
    """A diff from standard input, under the same size limit as a patch file."""
    limit = max_patch_bytes() if max_bytes is None else max_bytes
    data = read_capped(stream, limit)
    if len(data) > limit:
        raise patch_error(
            f"standard input: larger than {limit:,} bytes, the most hunkmetrics reads of a "
            f"patch (set {MAX_PATCH_BYTES_ENV} to read more)"
        )
    return data


def read_patch_bytes(path: str | Path, max_bytes: int | None = None) -> bytes:
    """A patch file's bytes; what is not a readable regular file, or is larger than
    `max_bytes` (default `max_patch_bytes()`), is a one-line PatchError (a device or
    FIFO such as /dev/zero would never end)."""
    limit = max_patch_bytes() if max_bytes is None else max_bytes
    target = Path(path)
    shown = show(str(path))
    if not target.exists():
        raise patch_error(f"{shown}: no such file")
    if target.is_dir():
        raise patch_error(f"{shown}: is a directory, expected a diff file")
    try:
        # Non-blocking, so that a FIFO does not wait for a writer before it is refused.
        fd = os.open(target, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise patch_error(f"{shown}: cannot read ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise patch_error(f"{shown}: not a regular file (a device, FIFO or socket)")
        try:
            data = read_capped(handle, limit, os.fstat(fd).st_size)
        except OSError as exc:
            raise patch_error(f"{shown}: cannot read ({exc.strerror})") from None
    if len(data) > limit:
        raise patch_error(
            f"{shown}: larger than {limit:,} bytes, the most hunkmetrics reads of a patch "
            f"(set {MAX_PATCH_BYTES_ENV} to read more)"
        )
    return data


def parse_patch(
    data: bytes | str,
    *,
    name: str = "<patch>",
    reverse: bool = False,
    hunking: str = "as-given",
    strip: int | None = None,
) -> Patch:
    """Parse a unified diff (git or plain) into a Patch.

    `reverse` swaps pre- and post-image; `hunking` is "as-given" (the `@@` blocks) or
    "regions" (re-cut as git would with 3 lines of context). `strip`: how many leading
    directories to remove from a plain (non-git) diff's names, as `patch -p<strip>`;
    None (the default) guesses from the names (docs/patches.md). `diff --git` sections
    carry their own prefixes and ignore it."""
    if hunking not in ("as-given", "regions"):
        raise patch_error(f"unknown hunking {show(hunking)!r} (use as-given or regions)")
    if strip is not None and (isinstance(strip, bool) or not isinstance(strip, int) or strip < 0):
        raise patch_error(f"strip must be a whole number of directories >= 0, not {strip!r}")
    raw = data if isinstance(data, bytes) else encode(data)
    warnings: list[str] = []
    raw = _drop_bom(raw, name, warnings)
    if not raw.strip():
        raise patch_error(f"{show(name)}: empty diff")
    if _is_crlf_converted(raw):
        raw = raw.replace(b"\r\n", b"\n")
        warnings.append("the whole diff has CRLF line endings; read it with LF endings")
    with no_cyclic_gc():
        sections = _Reader(DiffLines(raw), name).sections()
    if not sections:
        raise patch_error(
            f"{show(name)}: no file changes found (expected a unified diff with '---', '+++' "
            "and '@@' lines)"
        )
    files: list[FileDiff] = []
    index = 0
    strip_lone = _plain_strip(sections)
    for section in sections:
        file_diff = _file_diff(section, index, name, strip_lone, strip)
        section.hunks = []  # read as placeholders: the file's own hunks replace them
        index += len(file_diff.hunks)
        files.append(file_diff)
        reason = file_diff.excluded_reason
        if reason == "no content change" and file_diff.status is FileStatus.MODIFIED:
            raise patch_error(
                f"{show(name)}: {show(file_diff.path)} has a file header but no hunk; "
                "the diff looks truncated"
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


def _drop_bom(raw: bytes, name: str, warnings: list[str]) -> bytes:
    """A byte-order mark is no part of the diff: UTF-8's is dropped, a UTF-16 diff (as
    Windows PowerShell writes `git diff > x`) is re-encoded as UTF-8."""
    for bom, codec in _BOMS.items():
        if raw.startswith(bom):
            if codec == "utf-8":
                return raw[len(bom) :]
            try:
                text = raw[len(bom) :].decode(codec)
            except UnicodeDecodeError:
                raise patch_error(
                    f"{show(name)}: not valid {codec.upper()} after its BOM"
                ) from None
            warnings.append(f"the diff is {codec.upper()}; read it as UTF-8")
            return text.encode(ENCODING, ERRORS)
    return raw


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


@dataclass
class _Section:
    """One file's part of the diff, as read, before names and status are decided."""

    git: tuple[str, str] | None  # the `diff --git` names, when that line was there
    git_line: str | None
    extended: list[str] = field(default_factory=list)
    old_name: str | None = None  # from `---`
    new_name: str | None = None  # from `+++`
    binary: bool = False
    hunks: list[Hunk] = field(default_factory=list)


class _Reader:
    """Walks the lines once, cutting them into file sections and hunks."""

    def __init__(self, lines: DiffLines, name: str) -> None:
        self.lines = lines
        self.name = name
        self.at = 0

    def fail(self, line: int, message: str) -> PatchError:
        return patch_error(f"{show(self.name)}: line {line + 1}: {message}")

    def sections(self) -> list[_Section]:
        out: list[_Section] = []
        lines = self.lines
        mails = lines.matching(_MBOX_FROM_BYTES_RE)
        if len(mails) > 1:
            raise self.fail(
                mails[1],
                f"an mbox of {len(mails)} commits (git format-patch): one patch is one "
                "commit; give them one at a time, or make one diff with "
                "`git diff <first commit>^ <last commit>`",
            )
        while self.at < len(lines):
            line = lines[self.at]
            if line.startswith("diff --git "):
                out.append(self._git_section())
            elif line.startswith(("diff --cc ", "diff --combined ")) or line.startswith("@@@ "):
                raise self.fail(
                    self.at,
                    "combined diff (of a merge): make one with `git diff <parent> <commit>`",
                )
            elif line.startswith("--- ") and self._next_is("+++ "):
                section = _Section(None, None)
                section.old_name, section.new_name = self._names()
                self._hunks(section)
                out.append(section)
            elif line.startswith("@@ -") and _HUNK_RE.match(line):
                raise self.fail(self.at, "a hunk outside any file section (no ---/+++ before it)")
            elif _BINARY_RE.match(line):
                match = _BINARY_RE.match(line)
                assert match is not None
                section = _Section(None, None, binary=True)
                section.old_name, section.new_name = header_name(match[1]), header_name(match[2])
                out.append(section)
                self.at += 1
            else:
                self.at += 1  # text around the diff: a mail, a commit message, a diffstat
        return out

    def _next_is(self, prefix: str) -> bool:
        return self.at + 1 < len(self.lines) and self.lines[self.at + 1].startswith(prefix)

    def _names(self) -> tuple[str, str]:
        old = header_name(self.lines[self.at][4:])
        new = header_name(self.lines[self.at + 1][4:])
        self.at += 2
        return old, new

    def _git_section(self) -> _Section:
        line = self.lines[self.at]
        section = _Section(split_git_header(line[len("diff --git ") :]), line)
        self.at += 1
        lines = self.lines
        while self.at < len(lines):
            line = lines[self.at]
            if line.startswith(_EXTENDED):
                section.extended.append(line)
                self.at += 1
            elif _BINARY_RE.match(line):
                section.binary = True
                self.at += 1
            elif line.rstrip("\r") == "GIT binary patch":
                section.binary = True
                self.at += 1
                while self.at < len(lines) and not lines[self.at].startswith("diff "):
                    self.at += 1
            elif line.startswith("--- ") and self._next_is("+++ "):
                section.old_name, section.new_name = self._names()
                break
            else:
                break
        self._hunks(section)
        return section

    def _hunks(self, section: _Section) -> None:
        """The `@@` blocks that follow a file header (blank lines between them allowed)."""
        lines = self.lines
        while True:
            ahead = self.at
            while ahead < len(lines) and not lines[ahead].strip():
                ahead += 1
            if ahead >= len(lines) or not lines[ahead].startswith("@@"):
                return
            if lines[ahead].startswith("@@@"):
                raise self.fail(
                    ahead, "a combined diff (of a merge) is not supported; diff against one parent"
                )
            self.at = ahead
            section.hunks.append(self._hunk())

    def _hunk(self) -> Hunk:
        lines = self.lines
        header_at = self.at
        header = lines[header_at]
        match = _HUNK_RE.fullmatch(header)
        if match is None:
            raise self.fail(header_at, f"malformed @@ header {show(header, 80)!r}")
        old_start, new_start = int(match[1]), int(match[3])
        old_count = int(match[2]) if match[2] is not None else 1
        new_count = int(match[4]) if match[4] is not None else 1
        for value in (old_start, old_count, new_start, new_count):
            if value > MAX_LINE:
                raise self.fail(
                    header_at, f"line number or count {value} in the @@ header is over {MAX_LINE}"
                )
        if (old_start == 0 and old_count) or (new_start == 0 and new_count):
            raise self.fail(header_at, f"@@ header {show(header, 80)!r} counts lines from line 0")
        body: list[Line] = []
        old_no, new_no = old_start, new_start
        old_left, new_left = old_count, new_count
        changed = False
        self.at += 1
        while old_left or new_left:
            if self.at >= len(lines):
                raise self.fail(
                    header_at, "a hunk has fewer lines than its @@ header says; truncated?"
                )
            line = lines[self.at]
            marker = line[:1]
            if marker == "\\":
                if body:
                    body[-1] = replace(body[-1], eol="")
                self.at += 1
                continue
            if marker == "":
                kind, text, eol, ok = LineKind.CONTEXT, "", "\n", old_left > 0 and new_left > 0
            elif line == "\r":  # an empty context line of a CRLF file
                kind, text, eol, ok = LineKind.CONTEXT, "", "\r\n", old_left > 0 and new_left > 0
            elif marker in " -+":
                kind = _KINDS[marker]
                text, eol = line[1:], "\n"
                if text.endswith("\r"):
                    text, eol = text[:-1], "\r\n"
                ok = (old_left > 0 or kind is LineKind.ADDED) and (
                    new_left > 0 or kind is LineKind.REMOVED
                )
            elif line.startswith(("diff ", "--- ", "+++ ")) or marker == "@":
                raise self.fail(
                    header_at, "a hunk has fewer lines than its @@ header says; truncated?"
                )
            else:
                raise self.fail(
                    self.at,
                    f"a hunk line must start with ' ', '-', '+' or '\\': {show(line, 80)!r}",
                )
            if not ok:
                raise self.fail(self.at, "a hunk has more lines than its @@ header says")
            if kind is LineKind.CONTEXT:
                body.append(Line(kind, text, old_no, new_no, eol))
                old_no, new_no, old_left, new_left = (
                    old_no + 1,
                    new_no + 1,
                    old_left - 1,
                    new_left - 1,
                )
            elif kind is LineKind.REMOVED:
                body.append(Line(kind, text, old_no, None, eol))
                old_no, old_left, changed = old_no + 1, old_left - 1, True
            else:
                body.append(Line(kind, text, None, new_no, eol))
                new_no, new_left, changed = new_no + 1, new_left - 1, True
            self.at += 1
        if self.at < len(lines) and lines[self.at].startswith("\\") and body:
            body[-1] = replace(body[-1], eol="")
            self.at += 1
        if not changed:
            raise self.fail(
                header_at, f"the hunk {show(header, 80)!r} changes no line (git calls it corrupt)"
            )
        return Hunk(
            index=0,
            path="",
            old_start=old_start,
            old_lines=old_count,
            new_start=new_start,
            new_lines=new_count,
            section=(match[5] or "").strip(),
            lines=pack(body),
        )


def _plain_strip(sections: list[_Section]) -> bool:
    """Whether the plain sections, taken together, show a `-p1` prefix: a name facing
    /dev/null is then stripped like the others."""
    votes = Counter(
        strips_first_directory(s.old_name, s.new_name) for s in sections if s.git_line is None
    )
    return votes[True] > votes[False]


def _file_diff(
    section: _Section, first_index: int, name: str, strip_lone: bool, strip: int | None
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


def _extended(section: _Section, *keys: str) -> str | None:
    for line in section.extended:
        for key in keys:
            if line.startswith(key):
                return header_name(line[len(key) :])
    return None


def _git_paths(section: _Section, name: str) -> tuple[str | None, str | None, FileStatus]:
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


def _git_prefixed(section: _Section) -> bool:
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
    section: _Section, strip_lone: bool, strip: int | None
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
