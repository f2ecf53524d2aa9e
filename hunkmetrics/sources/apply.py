"""Apply one file's hunks to a text in memory, checking every context and removed line."""

from __future__ import annotations

from ..errors import SourceError
from ..patch.model import FileDiff, LineKind
from ..patch.parse import decode, encode


def split_lines(text: str) -> list[str]:
    """Split on "\\n" only, keeping the endings (str.splitlines also splits on \\r, \\f…)."""
    if not text:
        return []
    parts = text.split("\n")
    lines = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _content(line: str) -> str:
    return line[:-1].removesuffix("\r") if line.endswith("\n") else line.removesuffix("\r")


def mismatch(file_diff: FileDiff, lines: list[str]) -> str | None:
    """Why `lines` are not this file's pre-image (first bad line), or None if they are."""
    for hunk in file_diff.hunks:
        if hunk.old_lines == 0 and hunk.old_start > len(lines):
            return (
                f"the insertion point, line {hunk.old_start}, is past the end of the file "
                f"({len(lines)} lines)"
            )
        for line in hunk.lines:
            if line.kind is LineKind.ADDED or line.old_lineno is None:
                continue
            n = line.old_lineno
            if n > len(lines):
                return f"line {n} is past the end of the file ({len(lines)} lines)"
            if _content(lines[n - 1]) != line.text:
                return f"line {n} differs from the diff's {line.kind.value} line"
    return None


def unchecked_hunks(file_diff: FileDiff) -> list[str]:
    """The headers of hunks with no context and no removed line (as `-U0` insertions
    have): nothing but their insertion point can be checked against a text."""
    return [
        f"@@ -{h.old_start},{h.old_lines} +{h.new_start},{h.new_lines} @@"
        for h in file_diff.hunks
        if all(line.kind is LineKind.ADDED for line in h.lines)
    ]


def apply_file(pre: bytes, file_diff: FileDiff) -> bytes:
    """The post-image of `pre` under `file_diff`, byte for byte."""
    lines = split_lines(decode(pre))
    problem = mismatch(file_diff, lines)
    if problem:
        raise SourceError(f"{file_diff.path}: the source does not match the patch: {problem}")
    out: list[str] = []
    cursor = 0  # index into lines of the next line not yet copied
    for hunk in file_diff.hunks:
        start = hunk.old_start - 1 if hunk.old_lines else hunk.old_start
        if start < cursor:
            raise SourceError(f"{file_diff.path}: hunks overlap or are out of order")
        out.extend(lines[cursor:start])
        cursor = start
        for line in hunk.lines:
            if line.kind is LineKind.ADDED:
                out.append(line.text + line.eol)
            else:
                if cursor >= len(lines):  # numbering the checks could not see (no line number)
                    raise SourceError(
                        f"{file_diff.path}: the source does not match the patch: line "
                        f"{cursor + 1} is past the end of the file ({len(lines)} lines)"
                    )
                if line.kind is LineKind.CONTEXT:
                    kept = lines[cursor]
                    # The file's incomplete last line, followed by more lines: end it.
                    out.append(kept if kept.endswith("\n") else kept + line.eol)
                cursor += 1
    out.extend(lines[cursor:])
    return encode("".join(out))
