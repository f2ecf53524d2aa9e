"""A unified diff's text, reversed: what `git apply -R` or `patch -R` would apply.

Harbor tasks built from SWE-smith write the bug-introducing patch and apply it with
`--reverse` to fix the bug; its reverse is the fix. The text is reversed rather than the
parsed model so that it can be handed on like any other gold patch."""

from __future__ import annotations

import re

from ..errors import PatchError

_HUNK_RE = re.compile(r"@@ -([0-9]+)(,[0-9]+)? \+([0-9]+)(,[0-9]+)? @@(.*)", re.S)
# git header lines that name the two sides: each becomes its partner.
_SWAPS = (
    ("new file mode ", "deleted file mode "),
    ("old mode ", "new mode "),
    ("rename from ", "rename to "),
)
_INDEX_RE = re.compile(r"index ([0-9a-fA-F]+)\.\.([0-9a-fA-F]+)(.*)", re.S)


def _count(text: str | None) -> int:
    return 1 if text is None else int(text[1:])


def _header(line: str) -> str:
    for a, b in _SWAPS:
        if line.startswith(a):
            return b + line[len(a) :]
        if line.startswith(b):
            return a + line[len(b) :]
    found = _INDEX_RE.match(line)
    if found:
        return f"index {found[2]}..{found[1]}{found[3]}"
    if line.startswith(("copy from ", "copy to ", "GIT binary patch", "Binary files ")):
        raise PatchError(f"cannot reverse a diff with {line.split()[0]} {line.split()[1]} lines")
    if line.startswith("diff --git "):
        names = line[len("diff --git ") :].rstrip("\n").split(" ")
        if len(names) == 2 and names[0][2:] != names[1][2:]:
            return f"diff --git {names[0][:2]}{names[1][2:]} {names[1][:2]}{names[0][2:]}\n"
    return line


def _flush(out: list[str], removed: list[str], added: list[str]) -> None:
    out.extend(removed)
    out.extend(added)
    removed.clear()
    added.clear()


def reverse_diff(text: str) -> str:
    """`text` (a unified diff, git or plain) with its two sides swapped: headers, `@@`
    ranges, `+`/`-` lines (each change run's removed lines first again). PatchError when
    it holds what text cannot reverse (binary data, copies)."""
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    i = 0
    while i < len(lines):
        found = _HUNK_RE.match(lines[i])
        if lines[i].startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ "):
            out += ["--- " + lines[i + 1][4:], "+++ " + lines[i][4:]]
            i += 2
            continue
        if not found:
            out.append(_header(lines[i]))
            i += 1
            continue
        old, new = _count(found[2]), _count(found[4])
        out.append(f"@@ -{found[3]}{found[4] or ''} +{found[1]}{found[2] or ''} @@{found[5]}")
        i += 1
        removed: list[str] = []
        added: list[str] = []
        last: list[str] = out
        while i < len(lines) and (old > 0 or new > 0 or lines[i].startswith("\\")):
            line = lines[i]
            i += 1
            if line.startswith("\\"):  # "\ No newline at end of file": its line's
                last.append(line)
                continue
            kind = line[:1]
            if kind == "-":
                old -= 1
                added.append("+" + line[1:])
                last = added
            elif kind == "+":
                new -= 1
                removed.append("-" + line[1:])
                last = removed
            else:
                old -= 1
                new -= 1
                _flush(out, removed, added)
                out.append(line)
                last = out
        _flush(out, removed, added)
    return "".join(out)
