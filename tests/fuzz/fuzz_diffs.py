"""Structure-aware fuzzing of the diff parser and the locator (issue 15).

    python tests/fuzz/fuzz_diffs.py --count 20000 --seed 1 [--git] [--limit 10]

Each input is a diff built from generated files (git or plain headers, prefixes,
quoted and non-ASCII names, renames, copies, mode and type changes, binary sections,
CRLF, NUL, BOM, UTF-16, mbox mail, combined diffs, huge numbers), then, for most
inputs, mutated (lines dropped, doubled or cut, bytes flipped, numbers replaced).
Every input goes through `hunkmetrics.parse_patch` and, when it parses, the locate
step without sources. Counted: inputs tried, parsed, refused with a PatchError,
internal errors (any exception that is not a HunkmetricsError), error messages
spanning more than one line, hangs (over the per-input limit), and unmutated diffs
we refuse. With `--git`, unmutated text diffs are also checked with
`git apply --check` against their generated pre-image, and located with those
sources (`--repo`): valid diffs we reject are listed. With `--commands`, every input
also goes through the command line in-process (typer's CliRunner): `hunks`,
`divergence` (default and birch profiles), `proximity`, `localization` (the input as
the candidate against a fixed reference) and `characterize`, in a rotating output
format, without sources and, when the input has a pre-image, with it as a working tree
(`--repo`) or, for one input in 25, as a git commit (`--repo --rev`). Counted per
command: runs, exit codes, internal errors (exit 1 or any code but 0 and 2), hangs and
error messages over one line.

Not part of the default test run; tests/fuzz/test_fuzz_slice.py runs a short slice."""

from __future__ import annotations

import argparse
import difflib
import hashlib
import io
import json
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType, SimpleNamespace
from typing import Any

import hunkmetrics
from hunkmetrics import HunkmetricsError

_CODE = {
    ".java": [
        "package org.ex;",
        "import java.util.List;",
        "public class Foo {",
        "    int x;",
        "    void m(int a) {",
        "        call(a);",
        "        if (a > 1) {",
        "        }",
        "    }",
        "}",
        "    /** doc */",
        "    List<Map<K, V>> f() { return null; }",
    ],
    ".py": [
        "import os",
        "class A:",
        "    def m(self, a):",
        "        return a",
        "def f(x, y=2):",
        "    x += 1",
        "    # comment",
        '    s = "é"',
        "",
        "    @property",
    ],
    ".js": [
        "const f = (a) => {",
        "function g(b) {",
        "  return b;",
        "}",
        "};",
        "class C { m() { return 1; } }",
        "// note",
    ],
    ".c": ["#include <stdio.h>", "int main(void) {", "  return 0;", "}", "static int x;"],
    ".go": ["package main", "func (r *R) M() {", "\tx := 1", "}", 'import "fmt"'],
    ".txt": ["hello", "world", "\u00e9t\u00e9", "tab\there", "a b/c"],
}
_NAMES = [
    "src/pkg/m",
    "lib/util",
    "a/b/c",
    "x b/y",
    "d\u00e9j\u00e0/v",
    "sp ace/f",
    'q"uote',
    "tab\tname",
    "b/a",
    "app/[slug]/page",
    "n\u00b2/\u0661",
]
_PREFIXES = [("a/", "b/"), ("a/", "b/"), ("", ""), ("c/", "w/"), ("i/", "w/")]
_HUNK_ENDS = [
    b"99999999",
    "\u0661\u0662".encode(),
    "\uff11".encode(),
    b"-3",
    b"0",
    b"18446744073709551617",
]


@dataclass
class Case:
    """One generated input: the diff, the files it applies to (name → bytes, None for
    absent), and whether it is meant to be valid."""

    data: bytes
    pre: dict[str, bytes | None] = field(default_factory=dict)
    valid: bool = True
    text_only: bool = True  # no binary, mode-only or special section: git can check it
    strip: int = 1  # path components git apply must strip (-p)
    kinds: list[str] = field(default_factory=list)


def _blob(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _quote(name: str) -> str:
    """A name as git writes it: C-quoted when it holds special or non-ASCII bytes."""
    raw = name.encode("utf-8", "surrogateescape")
    if all(32 <= b < 127 and b not in b'"\\' for b in raw):
        return name
    out = []
    for b in raw:
        ch = chr(b)
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\n":
            out.append("\\n")
        elif 32 <= b < 127:
            out.append(ch)
        else:
            out.append(f"\\{b:03o}")
    return '"' + "".join(out) + '"'


def _file_lines(rng: random.Random, ext: str, eol: str) -> list[str]:
    vocab = _CODE[ext]
    lines = [rng.choice(vocab) + eol for _ in range(rng.randint(0, 30))]
    if rng.random() < 0.05:
        lines.insert(rng.randint(0, len(lines)), "nul\0byte" + eol)
    if lines and rng.random() < 0.15:
        # No newline at end of file; an empty last line cannot lack one (it would be
        # no line at all, a "line" git matches anywhere and applies as nothing).
        lines[-1] = lines[-1].rstrip("\r\n") or lines[-1]
    return lines


def _edit(rng: random.Random, lines: list[str], ext: str, eol: str) -> list[str]:
    new = list(lines)
    for _ in range(rng.randint(1, 4)):
        op = rng.random()
        at = rng.randint(0, len(new))
        if op < 0.4 or not new:
            new.insert(at, rng.choice(_CODE[ext]) + "  // edit" * (ext != ".py") + eol)
        elif op < 0.7:
            del new[min(at, len(new) - 1)]
        else:
            new[min(at, len(new) - 1)] = rng.choice(_CODE[ext]) + " " + eol
    if new and not new[-1].endswith("\n") and rng.random() < 0.5:
        new[-1] += eol
    return new if new != lines else [*new, "extra" + eol]


def _hunks(rng: random.Random, old: list[str], new: list[str]) -> list[str]:
    context = rng.choice([0, 1, 3, 3, 3, 5, 10])
    out: list[str] = []
    for line in list(difflib.unified_diff(old, new, n=context))[2:]:
        if line.startswith("@@"):
            out.append(line if line.endswith("\n") else line + "\n")
        elif not line.endswith("\n"):
            out.append(line + "\n\\ No newline at end of file\n")
        else:
            out.append(line)
    return out


def _section(
    rng: random.Random, case: Case, used: set[str], git: bool, prefixes: tuple[str, str]
) -> list[str]:
    """One file section, its pre-image recorded in `case.pre`."""
    ext = rng.choice(list(_CODE))
    stem = rng.choice(_NAMES) + str(rng.randint(0, 99))
    name = stem + ext
    if name in used:
        name = f"u{len(used)}/{name}"
    used.add(name)
    eol = "\r\n" if rng.random() < 0.1 else "\n"
    old = _file_lines(rng, ext, eol)
    kind = rng.choice(
        ["modify"] * 8 + ["add", "delete", "rename", "copy", "empty", "mode", "binary", "symlink"]
    )
    if not git and kind in ("rename", "copy", "mode", "symlink"):
        kind = "modify"
    if kind == "empty":
        old = []
    new = _edit(rng, old, ext, eol)
    new_name = name
    if kind in ("rename", "copy"):
        new_name = f"moved{len(used)}/{name}"
        used.add(new_name)
    case.kinds.append(kind)
    pre_bytes = "".join(old).encode("utf-8", "surrogateescape")
    post_bytes = "".join(new).encode("utf-8", "surrogateescape")
    if kind == "add":
        old, pre_bytes = [], b""
    if kind == "delete":
        new, post_bytes = [], b""
    case.pre[name] = None if kind == "add" else pre_bytes
    if kind in ("mode", "binary", "symlink"):
        case.text_only = False
    src, dst = prefixes
    body = _hunks(rng, old, new) if kind not in ("mode", "binary") else []
    if not git:
        stamp = "\t2024-01-01 10:00:00.000000000 +0000" if rng.random() < 0.5 else ""
        head_old = "/dev/null" if kind == "add" else _quote(src + name) + stamp
        head_new = "/dev/null" if kind == "delete" else _quote(dst + name) + stamp
        if kind == "binary":
            return [f"Binary files {src}{name} and {dst}{name} differ\n"]
        return [f"--- {head_old}\n", f"+++ {head_new}\n", *body]
    out = [f"diff --git {_quote(src + name)} {_quote(dst + new_name)}\n"]
    index = f"index {_blob(pre_bytes)[:7]}..{_blob(post_bytes)[:7]}"
    if kind == "add":
        out += ["new file mode 100644\n", f"index 0000000..{_blob(post_bytes)[:7]}\n"]
    elif kind == "delete":
        out += ["deleted file mode 100644\n", f"index {_blob(pre_bytes)[:7]}..0000000\n"]
    elif kind in ("rename", "copy"):
        verb = "rename" if kind == "rename" else "copy"
        out += ["similarity index 80%\n", f"{verb} from {_quote(name)}\n"]
        out += [f"{verb} to {_quote(new_name)}\n", index + " 100644\n"]
    elif kind == "mode":
        return [*out, "old mode 100644\n", "new mode 100755\n"]
    elif kind == "binary":
        if rng.random() < 0.5:
            return [
                *out,
                index + " 100644\n",
                "GIT binary patch\n",
                "literal 3\n",
                "KcmZQz\n",
                "\n",
            ]
        return [*out, index + " 100644\n", f"Binary files {src}{name} and {dst}{name} differ\n"]
    elif kind == "symlink":
        out += ["new file mode 120000\n", f"index 0000000..{_blob(b'target')[:7]}\n"]
        body = ["@@ -0,0 +1 @@\n", "+target\n", "\\ No newline at end of file\n"]
        case.pre[name] = None
        return [*out, "--- /dev/null\n", f"+++ {_quote(dst + name)}\n", *body]
    else:
        out.append(index + " 100644\n")
    tab = "\t" if " " in name else ""
    old_head = "/dev/null" if kind == "add" else _quote(src + name) + tab
    new_head = "/dev/null" if kind == "delete" else _quote(dst + new_name) + tab
    if not body:
        return out
    return [*out, f"--- {old_head}\n", f"+++ {new_head}\n", *body]


def generate(rng: random.Random) -> Case:
    """One input: a valid diff, wrapped or re-encoded, then maybe mutated."""
    case = Case(b"")
    git = rng.random() < 0.75
    used: set[str] = set()
    lines: list[str] = []
    plain = [("a/", "b/"), ("p.orig/", "p/"), ("", "")]
    prefixes = rng.choice(_PREFIXES) if git else rng.choice(plain)
    case.strip = 1 if prefixes[0] else 0
    for _ in range(rng.randint(1, 4)):
        lines += _section(rng, case, used, git, prefixes)
    if not any(line.startswith("@@") for line in lines):
        case.text_only = False
    wrap = rng.random()
    if wrap < 0.08:
        mail = ["From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n"]
        mail += ["From: A <a@example.org>\n", "Subject: [PATCH] fix --- it\n", "\n", "---\n"]
        mail += [" x | 2 +-\n", "\n"]
        lines = [*mail, *lines, "-- \n", "2.39.5\n", "\n"]
        case.kinds.append("mbox")
    elif wrap < 0.11:
        lines = [
            "diff --cc merged.py\n",
            "index 1,2..3\n",
            "--- a/merged.py\n",
            "+++ b/merged.py\n",
        ]
        lines += ["@@@ -1,1 -1,1 +1,1 @@@\n", "- a\n", " -b\n", "++c\n"]
        case.valid, case.kinds = False, [*case.kinds, "combined"]
    data = "".join(lines).encode("utf-8", "surrogateescape")
    encoding = rng.random()
    if encoding < 0.05:
        data, case.text_only = b"\xef\xbb\xbf" + data, False
        case.kinds.append("bom")
    elif encoding < 0.07:
        data = b"\xff\xfe" + data.decode("utf-8", "replace").encode("utf-16-le")
        case.text_only = False
        case.kinds.append("utf16")
    elif encoding < 0.12:
        data, case.text_only = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"), False
        case.kinds.append("crlf")
    if rng.random() < 0.6:
        data = mutate(rng, data)
        case.valid, case.text_only = False, False
        case.kinds.append("mutated")
    case.data = data
    return case


def mutate(rng: random.Random, data: bytes) -> bytes:
    """A few random damages, most of them structure-aware."""
    lines = data.split(b"\n")
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(10)
        at = rng.randrange(len(lines))
        if op == 0:
            del lines[at]
        elif op == 1:
            lines.insert(at, lines[at])
        elif op == 2 and lines[at].startswith(b"@@"):
            head = lines[at].split(b" ")
            if len(head) > 2:
                pos = rng.choice([1, 2])
                head[pos] = head[pos][:1] + rng.choice(_HUNK_ENDS) + b",3" * rng.randrange(2)
                lines[at] = b" ".join(head)
        elif op == 3:
            line = bytearray(lines[at] or b" ")
            line[rng.randrange(len(line))] = rng.randrange(256)
            lines[at] = bytes(line)
        elif op == 4:
            lines.insert(at, rng.choice([b"@@ -1 +1 @@", b"diff --git a/x b/x", b"--- a/x", b"\\"]))
        elif op == 5:
            lines[at] = rng.choice([b" ", b"-", b"+", b"", b"\\", b"\x00", b"\r"]) + lines[at][1:]
        elif op == 6:
            lines.insert(
                at, rng.choice([b"\x00", b"\r", b"\x0b\x0c\x1c", "\u2028".encode(), b"\xff"])
            )
        elif op == 7:
            cut = sum(len(x) + 1 for x in lines[:at])
            return b"\n".join(lines)[: cut + rng.randrange(1 + len(lines[at]))]
        elif op == 8:
            lines[at] = lines[at].replace(b"a/", b"").replace(b"b/", b"")
        else:
            lines.insert(at, b"@@ -" + rng.choice(_HUNK_ENDS) + b" +1 @@")
    return b"\n".join(lines)


class _Hang(BaseException):
    """Raised by the alarm: a BaseException, so that no command's handler catches it."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise _Hang


@dataclass
class Report:
    """What a run found."""

    tried: int = 0
    parsed: int = 0
    refused: int = 0
    located: int = 0
    internal: int = 0
    multi_line: int = 0
    hangs: int = 0
    valid_refused: int = 0
    git_checked: int = 0
    git_accepts_we_refuse: int = 0
    we_accept_git_refuses: int = 0
    sources_checked: int = 0
    sources_refused: int = 0
    internal_kinds: Counter[str] = field(default_factory=Counter)
    command_runs: Counter[str] = field(default_factory=Counter)
    command_exits: Counter[str] = field(default_factory=Counter)
    command_internal: int = 0
    command_hangs: int = 0
    command_multi_line: int = 0
    samples: dict[str, str] = field(default_factory=dict)

    def note(self, key: str, case: Case, detail: str) -> None:
        """Keep a few examples of each kind of finding (the text before the colon)."""
        kind = key.split(":", 1)[0]
        if key not in self.samples and sum(k.startswith(kind) for k in self.samples) < 5:
            self.samples[key] = f"{detail} | kinds={case.kinds} | {case.data[:300]!r}"

    def to_dict(self) -> dict[str, object]:
        counters = ("internal_kinds", "command_runs", "command_exits", "samples")
        out = {k: v for k, v in vars(self).items() if k not in counters}
        return {
            **out,
            "internal_kinds": dict(self.internal_kinds),
            "command_runs": dict(self.command_runs),
            "command_exits": dict(sorted(self.command_exits.items())),
            "samples": self.samples,
        }


def _check(case: Case, report: Report, limit: float) -> None:
    report.tried += 1
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        patch = hunkmetrics.parse_patch(case.data, name="fuzz.diff")
        report.parsed += 1
        for hunking in ("as-given", "regions"):
            hunkmetrics.parse_patch(case.data, hunking=hunking, reverse=True)
        with hunkmetrics.open_workspace(patch) as workspace:
            workspace.located()
        report.located += 1
    except _Hang:
        report.hangs += 1
        report.note("hang", case, "over the time limit")
    except HunkmetricsError as exc:
        report.refused += 1
        if "\n" in str(exc) or "\r" in str(exc):
            report.multi_line += 1
            report.note(f"multi-line: {str(exc)[:60]}", case, str(exc))
        if case.valid:
            report.valid_refused += 1
            report.note(f"valid refused: {str(exc)[:60]}", case, str(exc))
    except Exception as exc:  # noqa: BLE001 - counting internal errors is the point
        report.internal += 1
        where = traceback.extract_tb(exc.__traceback__)[-1]
        key = f"{type(exc).__name__} at {Path(where.filename).name}:{where.lineno}"
        report.internal_kinds[key] += 1
        report.note(key, case, f"{type(exc).__name__}: {exc}")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _git_compare(case: Case, report: Report, work: Path) -> None:
    """`git apply --check` against the generated pre-image, and locating with it."""
    if not case.text_only or not case.valid:
        return
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    for name, data in case.pre.items():
        if data is not None:
            target = work / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    (work / ".fuzz.diff").write_bytes(case.data)
    git = subprocess.run(
        ["git", "apply", "--check", "--unidiff-zero", f"-p{case.strip}", ".fuzz.diff"],
        cwd=work,
        capture_output=True,
    )
    report.git_checked += 1
    try:
        hunkmetrics.parse_patch(case.data)
        ours = True
    except HunkmetricsError as exc:
        ours = False
        if git.returncode == 0:
            report.git_accepts_we_refuse += 1
            report.note(f"git accepts: {str(exc)[:60]}", case, str(exc))
    if ours and git.returncode != 0:
        report.we_accept_git_refuses += 1
        report.note(f"git refuses: {git.stderr[:60]!r}", case, git.stderr.decode(errors="replace"))
    if ours and git.returncode == 0:
        report.sources_checked += 1
        try:
            # The diff's bytes, as a user passes a file: a plain diff's names may then
            # be read another way (-p0/-p1) when the guess does not fit the tree.
            with hunkmetrics.open_workspace(case.data, repo=work) as workspace:
                workspace.located()
        except HunkmetricsError as exc:
            report.sources_refused += 1
            report.note(f"sources: {str(exc)[:50]}", case, str(exc))
        except Exception as exc:  # noqa: BLE001
            report.internal += 1
            where = traceback.extract_tb(exc.__traceback__)[-1]
            key = f"{type(exc).__name__} at {Path(where.filename).name}:{where.lineno} (sources)"
            report.internal_kinds[key] += 1
            report.note(key, case, f"{type(exc).__name__}: {exc}")


# A fixed reference for `localization`: a Java file every source tree also holds.
_REF_NAME = "ref/org/ex/Ref.java"
_REF_OLD = "package org.ex;\nclass Ref {\n    void m() {\n        a();\n    }\n}\n"
_REF_DIFF = (
    f"diff --git a/{_REF_NAME} b/{_REF_NAME}\n--- a/{_REF_NAME}\n+++ b/{_REF_NAME}\n"
    "@@ -4 +4 @@\n-        a();\n+        b();\n"
)
_FORMATS = ["json", "table", "csv"]
_GIT = ["git", "-c", "user.name=F", "-c", "user.email=f@example.invalid"]
_GIT += ["-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"]


def _commands(
    patch: str, fmt: str, reference: str
) -> list[tuple[str, Callable[..., None], dict[str, Any]]]:
    """Every command that reads a patch: its name, its function in hunkmetrics.cli and
    the options given (the others keep their command-line defaults)."""
    from hunkmetrics.cli import commands as c
    from hunkmetrics.cli.options import Format

    doc = Format(fmt)
    whole = Format.json if doc is Format.csv else doc  # no CSV form
    return [
        ("hunks", c.hunks, {"patch": patch, "format": doc}),
        ("divergence", c.divergence, {"patch": patch, "pairs": True, "format": doc}),
        ("divergence-birch", c.divergence, {"patch": patch, "profile": "birch", "format": doc}),
        ("proximity", c.proximity, {"patch": patch, "format": doc}),
        (
            "localization",
            c.localization,
            {"reference": reference, "candidate": patch, "format": whole},
        ),
        ("characterize", c.characterize, {"patch": patch, "format": whole}),
    ]


def _tree(case: Case, work: Path, git: bool) -> dict[str, Any]:
    """The input's pre-image (and the reference's file) as a directory, or a git commit;
    the options that point a command at it."""
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    files = {k: v for k, v in case.pre.items() if v is not None}
    files[_REF_NAME] = _REF_OLD.encode()
    for name, data in files.items():
        target = work / name
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        except OSError:
            continue  # a name the file system refuses (a directory and a file of one name)
    if not git:
        return {"repo": work}
    for step in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "pre"]):
        subprocess.run([*_GIT, *step], cwd=work, check=True, capture_output=True)
    return {"repo": work, "rev": "HEAD"}


@dataclass
class _Outcome:
    code: int
    stderr: str
    exception: BaseException | None = None


def _call(command: Callable[..., None], options: dict[str, Any]) -> _Outcome:
    """Run one command function as the command line does (its error handling, output
    and renderers), stdout and stderr captured; the exit code it would give."""
    import typer

    # As a terminal's: stdout strict UTF-8, stderr escaping what it cannot encode.
    out = io.TextIOWrapper(io.BytesIO(), "utf-8")
    err = io.TextIOWrapper(io.BytesIO(), "utf-8", errors="backslashreplace")
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    ctx = SimpleNamespace(obj={"debug": False})
    try:
        command(ctx, **options)
        code, exception = 0, None
    except typer.Exit as exc:
        code, exception = exc.exit_code, None
    except Exception as exc:  # noqa: BLE001 - anything escaping the command is a bug
        code, exception = 1, exc
    finally:
        sys.stdout, sys.stderr = saved
    err.flush()
    text = err.buffer.getvalue().decode("utf-8", "replace")  # type: ignore[attr-defined]
    return _Outcome(code, text, exception)


def _run_commands(case: Case, report: Report, work: Path, limit: float) -> None:
    """Each command on the input, without sources and, when it has a pre-image, with."""
    fmt = _FORMATS[report.tried % len(_FORMATS)]
    reference = work.parent / "reference.diff"
    patch = work.parent / "input.diff"
    if not reference.exists():
        reference.write_text(_REF_DIFF, encoding="utf-8")
    patch.write_bytes(case.data)
    settings: list[tuple[str, dict[str, Any]]] = [("", {})]
    if case.pre:
        settings.append((" sources", _tree(case, work, git=report.tried % 25 == 0)))
    for suffix, extra in settings:
        for name, command, options in _commands(str(patch), fmt, str(reference)):
            key = name + suffix
            report.command_runs[key] += 1
            signal.setitimer(signal.ITIMER_REAL, limit)
            try:
                outcome = _call(command, {**options, **extra})
            except _Hang:
                report.command_hangs += 1
                report.note(f"command hang: {key}", case, "over the time limit")
                continue
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            report.command_exits[f"{key}: {outcome.code}"] += 1
            if outcome.code not in (0, 2):
                report.command_internal += 1
                first = (outcome.stderr or repr(outcome.exception)).strip()[:80]
                report.note(f"command internal: {key} {first}", case, outcome.stderr[:300])
            elif outcome.code == 2:
                message = outcome.stderr.split("hunkmetrics: error:", 1)[-1]
                if message.strip("\n").count("\n") or "\r" in message:
                    report.command_multi_line += 1
                    report.note(f"command multi-line: {key}", case, message[:300])


def cases(count: int, seed: int) -> Iterator[Case]:
    rng = random.Random(seed)
    for _ in range(count):
        yield generate(rng)


def run(
    count: int, seed: int, *, limit: float = 10.0, git: bool = False, commands: bool = False
) -> Report:
    """Fuzz `count` inputs from `seed`; deterministic for a given seed."""
    report = Report()
    previous = signal.signal(signal.SIGALRM, _alarm)
    use_git = git and shutil.which("git") is not None
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for case in cases(count, seed):
                _check(case, report, limit)
                if commands:
                    _run_commands(case, report, Path(tmp) / "sources", limit)
                if use_git:
                    _git_compare(case, report, Path(tmp) / "tree")
    finally:
        signal.signal(signal.SIGALRM, previous)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=float, default=10.0, help="seconds per input")
    parser.add_argument("--git", action="store_true", help="compare with git apply --check")
    parser.add_argument("--commands", action="store_true", help="run every command too")
    parser.add_argument("--json", type=Path, help="write the report here too")
    args = parser.parse_args(argv)
    started = time.time()
    report = run(args.count, args.seed, limit=args.limit, git=args.git, commands=args.commands)
    result = {**report.to_dict(), "seed": args.seed, "seconds": round(time.time() - started, 1)}
    text = json.dumps(result, indent=2, ensure_ascii=False)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    found = report.internal + report.hangs + report.multi_line
    found += report.command_internal + report.command_hangs + report.command_multi_line
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
