"""A diff's lines → its file sections, one at a time, each with its hunks.

The lines are read once, in order, one line ahead at most (`LineCursor`). Git sections
(`diff --git`) carry their header lines; plain sections (`---`/`+++`) their two names. A
hunk's `@@` counts say how many lines it holds. Every error is one PatchError line,
naming the line where it is."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from ..errors import PatchError
from .lines import LineCursor
from .model import Hunk, Line, LineKind, pack
from .names import header_name, split_git_header
from .text import patch_error, show

MAX_LINE = 10_000_000  # larger line numbers or counts in an @@ header are refused

# ASCII digits only: `\d` would accept Arabic-Indic or fullwidth digits.
_HUNK_RE = re.compile(r"@@ -([0-9]+)(?:,([0-9]+))? \+([0-9]+)(?:,([0-9]+))? @@ ?(.*)")
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
_KINDS = {" ": LineKind.CONTEXT, "-": LineKind.REMOVED, "+": LineKind.ADDED}  # by marker


@dataclass
class Section:
    """One file's part of the diff, as read, before names and status are decided."""

    git: tuple[str, str] | None  # the `diff --git` names, when that line was there
    git_line: str | None
    extended: list[str] = field(default_factory=list)
    old_name: str | None = None  # from `---`
    new_name: str | None = None  # from `+++`
    binary: bool = False
    hunks: list[Hunk] = field(default_factory=list)


def mbox_error(name: str, mails: list[int], count: int) -> PatchError:
    """The error for a diff holding `count` mails (more than one), the second at line
    number `mails[1]` (from 0)."""
    return patch_error(
        f"{show(name)}: line {mails[1] + 1}: an mbox of {count} commits (git format-patch): "
        "one patch is one commit; give them one at a time, or make one diff with "
        "`git diff <first commit>^ <last commit>`"
    )


class SectionReader:
    """Walks the lines once, cutting them into file sections and hunks. `keep_lines`
    False reads and checks every line but keeps none in the hunks (a pass that only
    needs the sections' names and the hunks' headers)."""

    def __init__(self, lines: LineCursor, name: str, *, keep_lines: bool = True) -> None:
        self.lines = lines
        self.name = name
        self.keep_lines = keep_lines

    def fail(self, line: int, message: str) -> PatchError:
        return patch_error(f"{show(self.name)}: line {line + 1}: {message}")

    def sections(self) -> Iterator[Section]:
        """Every file section, in order."""
        lines = self.lines
        while lines.line is not None:
            line = lines.line
            if line.startswith("diff --git "):
                yield self._git_section(line)
            elif line.startswith(("diff --cc ", "diff --combined ")) or line.startswith("@@@ "):
                raise self.fail(
                    lines.number,
                    "combined diff (of a merge): make one with `git diff <parent> <commit>`",
                )
            elif line.startswith("--- ") and self._next_is("+++ "):
                section = Section(None, None)
                section.old_name, section.new_name = self._names()
                self._hunks(section)
                yield section
            elif line.startswith("@@ -") and _HUNK_RE.match(line):
                raise self.fail(
                    lines.number, "a hunk outside any file section (no ---/+++ before it)"
                )
            elif match := _BINARY_RE.match(line):
                section = Section(None, None, binary=True)
                section.old_name, section.new_name = header_name(match[1]), header_name(match[2])
                lines.advance()
                yield section
            else:
                lines.advance()  # text around the diff: a mail, a commit message, a diffstat

    def _next_is(self, prefix: str) -> bool:
        return self.lines.ahead is not None and self.lines.ahead.startswith(prefix)

    def _names(self) -> tuple[str, str]:
        lines = self.lines
        assert lines.line is not None and lines.ahead is not None
        old, new = header_name(lines.line[4:]), header_name(lines.ahead[4:])
        lines.advance()
        lines.advance()
        return old, new

    def _git_section(self, first: str) -> Section:
        lines = self.lines
        section = Section(split_git_header(first[len("diff --git ") :]), first)
        lines.advance()
        while (line := lines.line) is not None:
            if line.startswith(_EXTENDED):
                section.extended.append(line)
                lines.advance()
            elif _BINARY_RE.match(line):
                section.binary = True
                lines.advance()
            elif line.rstrip("\r") == "GIT binary patch":
                section.binary = True
                lines.advance()
                while lines.line is not None and not lines.line.startswith("diff "):
                    lines.advance()
            elif line.startswith("--- ") and self._next_is("+++ "):
                section.old_name, section.new_name = self._names()
                break
            else:
                break
        self._hunks(section)
        return section

    def _hunks(self, section: Section) -> None:
        """The `@@` blocks that follow a file header (blank lines between them allowed:
        they are passed over, as the lines around the diff would be)."""
        lines = self.lines
        while True:
            while lines.line is not None and not lines.line.strip():
                lines.advance()
            if lines.line is None or not lines.line.startswith("@@"):
                return
            if lines.line.startswith("@@@"):
                raise self.fail(
                    lines.number,
                    "a combined diff (of a merge) is not supported; diff against one parent",
                )
            section.hunks.append(self._hunk(lines.line))

    def _hunk(self, header: str) -> Hunk:
        lines = self.lines
        header_at = lines.number
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
        keep = self.keep_lines
        body: list[Line] = []
        old_no, new_no = old_start, new_start
        old_left, new_left = old_count, new_count
        changed = seen = False  # seen: a line of the hunk was read
        lines.advance()
        while old_left or new_left:
            line = lines.line
            if line is None:
                raise self.fail(
                    header_at, "a hunk has fewer lines than its @@ header says; truncated?"
                )
            marker = line[:1]
            if marker == "\\":
                if body:
                    body[-1] = replace(body[-1], eol="")
                lines.advance()
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
                    lines.number,
                    f"a hunk line must start with ' ', '-', '+' or '\\': {show(line, 80)!r}",
                )
            if not ok:
                raise self.fail(lines.number, "a hunk has more lines than its @@ header says")
            seen = True
            if kind is LineKind.CONTEXT:
                if keep:
                    body.append(Line(kind, text, old_no, new_no, eol))
                old_no, new_no, old_left, new_left = (
                    old_no + 1,
                    new_no + 1,
                    old_left - 1,
                    new_left - 1,
                )
            elif kind is LineKind.REMOVED:
                if keep:
                    body.append(Line(kind, text, old_no, None, eol))
                old_no, old_left, changed = old_no + 1, old_left - 1, True
            else:
                if keep:
                    body.append(Line(kind, text, None, new_no, eol))
                new_no, new_left, changed = new_no + 1, new_left - 1, True
            lines.advance()
        if lines.line is not None and lines.line.startswith("\\") and seen:
            if body:
                body[-1] = replace(body[-1], eol="")
            lines.advance()
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
