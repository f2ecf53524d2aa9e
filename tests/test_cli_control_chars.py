"""Control characters from the input never reach the terminal as themselves: file names,
commands in trajectories and error messages print with ESC, OSC, C1 and bidi controls
shown as escapes (issue 24). Each command is run for real and its raw bytes searched."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hunkmetrics.cli.common import plain

ROOT = Path(__file__).resolve().parents[1]
CLAUDE = ROOT / "fixtures" / "agents" / "claude" / "session.jsonl"
# ESC [5m (blink), OSC 0 (window title) ended by BEL, OSC 8 hyperlink, a C1 CSI, a bidi
# override: what a terminal would act on.
NASTY = "\x1b[5mX\x1b]0;owned\x07\x1b]8;;http://e.x\x1b\\\x9b2J\u202e"
SHOWN = "\\x1b[5mX\\x1b]0;owned\\x07\\x1b]8;;http://e.x\\x1b\\\\x9b2J\\u202e"
RAW = (b"\x1b", b"\x07", b"\xc2\x9b", "\u202e".encode())
# The same without `/` (a file name's directories would split it) and short enough for a
# table cell: ESC [5m, OSC 0 ended by BEL, a C1 CSI and a bidi override.
NAME = "\x1b[5mX\x1b]0;t\x07\x9b2J\u202e"
NAME_SHOWN = "\\x1b[5mX\\x1b]0;t\\x07\\x9b2J\\u202e"


def run(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "COLUMNS": "400", "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "hunkmetrics.cli.app", *map(str, args)],
        capture_output=True,
        env=env,
        cwd=cwd,
        timeout=120,
    )


def clean(output: bytes) -> str:
    for raw in RAW:
        assert raw not in output, f"{raw!r} reached the terminal in:\n{output!r}"
    return output.decode("utf-8")


def test_plain_shows_every_control_as_an_escape() -> None:
    assert plain(NASTY) == SHOWN
    assert plain("tab\there\r\nnew") == "tab\\there\\r\\nnew"
    assert plain("naïve/日本語.py") == "naïve/日本語.py"  # printable text is left alone
    assert plain("bad\udcff") == "bad\\udcff"


@pytest.mark.parametrize("command", ["hunks", "characterize"])
def test_a_git_quoted_name_with_escapes_in_tables(command: str, tmp_path: Path) -> None:
    # git writes such a name quoted, with octal escapes; the parser unquotes it.
    quoted = '"\\033[5mX.java"'
    diff = tmp_path / "e.diff"
    diff.write_text(
        f"diff --git {quoted[:1]}a/{quoted[1:]} {quoted[:1]}b/{quoted[1:]}\n"
        f"--- {quoted[:1]}a/{quoted[1:]}\n+++ {quoted[:1]}b/{quoted[1:]}\n"
        "@@ -1 +1 @@\n-a\n+b\n"
    )
    result = run(command, diff.name, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "\\x1b[5mX.java" in clean(result.stdout)
    clean(result.stderr)


def test_a_plain_name_with_escapes(tmp_path: Path) -> None:
    name = f"{NAME}.java"
    diff = tmp_path / "e.diff"
    diff.write_bytes(
        f"diff --git a/{name} b/{name}\n--- a/{name}\n+++ b/{name}\n@@ -1 +1 @@\n-a\n+b\n".encode()
    )
    result = run("hunks", diff.name, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"{NAME_SHOWN}.java" in clean(result.stdout)


def test_an_agent_command_with_escapes(tmp_path: Path) -> None:
    session = CLAUDE.read_text()
    assert "defects4j compile" in session
    odd = tmp_path / "s.jsonl"
    # json.dumps writes the controls as \\u escapes inside the JSON string
    word = "\x1b[5mX\x07\x9b2J\u202e"  # no `;`: the shell would split the command there
    odd.write_text(session.replace("defects4j compile", json.dumps(f"echo {word}")[1:-1]))
    result = run("agents", "actions", odd)
    assert result.returncode == 0, result.stderr
    assert "echo \\x1b[5mX\\x07\\x9b2J\\u202e" in clean(result.stdout)


def test_an_error_naming_a_file_with_escapes(tmp_path: Path) -> None:
    result = run("hunks", f"missing{NASTY}.diff", cwd=tmp_path)
    assert result.returncode == 2
    assert f"missing{SHOWN}.diff" in clean(result.stderr)
