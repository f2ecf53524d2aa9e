"""Localization per reference hunk (reached or missed, with its methods) and the
candidate's hunk precision; `--reverse-candidate` on the command line."""

from __future__ import annotations

import difflib
import json
from pathlib import Path

from typer.testing import CliRunner

import hunkmetrics
from hunkmetrics.cli.app import app

runner = CliRunner()

PATH = "src/main/java/com/acme/Calc.java"
KEY = PATH + "::com.acme.Calc."


def _calc(add: str, sub: str, mul: str, div: str) -> str:
    lines = ["package com.acme;", "", "public class Calc {"]
    for name, expression in (("add", add), ("sub", sub), ("mul", mul), ("div", div)):
        lines += [
            f"    public int {name}(int a, int b) {{",
            "        int unused = 0;",
            "        unused++;",
            "        unused++;",
            f"        return {expression};",
            "    }",
            "",
            "    // spacer one",
            "    // spacer two",
            "",
        ]
    return "\n".join([*lines, "}", ""])


BUGGY = _calc("a - b", "b - a", "a / b", "a * b")
# the developer fixes add, sub and mul; the agent fixes add and touches div
FIXED = _calc("a + b", "Math.subtractExact(a, b)", "Math.multiplyExact(a, b)", "a * b")
AGENT = _calc("a + b", "b - a", "a / b", "b == 0 ? 0 : a * b")


def _diff(before: str, after: str) -> bytes:
    lines = difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), "a/" + PATH, "b/" + PATH
    )
    return "".join(lines).encode()


def _tree(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    (tree / PATH).parent.mkdir(parents=True)
    (tree / PATH).write_text(BUGGY)
    return tree


def test_reached_missed_and_precision_by_hand(tmp_path: Path) -> None:
    """Reference: hunks 0 (add, line 8), 1 (sub, line 18), 2 (mul, line 28). Candidate:
    hunk 0 changes line 8 (add), hunk 1 line 38 (div). Reached: hunk 0 only; methods:
    add reached, sub and mul missed. Candidate precision: 1 of 2 hunks changes a line
    the reference changes; hunk 1 is off the reference."""
    reference, candidate = _diff(BUGGY, FIXED), _diff(BUGGY, AGENT)
    found = hunkmetrics.localization(reference, candidate, source=_tree(tmp_path))
    data = found.to_dict()
    assert [(h["index"], h["reached"]) for h in data["hunks"]] == [
        (0, True),
        (1, False),
        (2, False),
    ]
    assert [h["methods"] for h in data["hunks"]] == [
        [KEY + "add(int,int)"],
        [KEY + "sub(int,int)"],
        [KEY + "mul(int,int)"],
    ]
    assert data["hunks"][0]["methods_reached"] == [KEY + "add(int,int)"]
    assert data["hunks"][1]["methods_reached"] == []
    assert data["methods_missed"] == [KEY + "mul(int,int)", KEY + "sub(int,int)"]
    assert (data["candidate_hunks"], data["candidate_hunks_on_reference"]) == (2, 1)
    assert data["hunk_precision"] == 0.5
    assert data["candidate_hunks_off_reference"] == [1]


def test_reverse_candidate_on_the_command_line(tmp_path: Path) -> None:
    """The agent's patch written after → before, read back with --reverse-candidate:
    the same result as the patch written before → after."""
    tree = _tree(tmp_path)
    ref = tmp_path / "dev.diff"
    ref.write_bytes(_diff(BUGGY, FIXED))
    forward = tmp_path / "agent.diff"
    forward.write_bytes(_diff(BUGGY, AGENT))
    backward = tmp_path / "agent_reversed.diff"
    backward.write_bytes(_diff(AGENT, BUGGY))
    common = ["localization", "--reference", str(ref), "--repo", str(tree), "-f", "json"]
    plain = runner.invoke(app, [*common, "--candidate", str(forward)])
    flipped = runner.invoke(app, [*common, "--candidate", str(backward), "--reverse-candidate"])
    assert plain.exit_code == 0 and flipped.exit_code == 0, plain.output + flipped.output
    first, second = json.loads(plain.stdout), json.loads(flipped.stdout)
    assert second["config"]["reverse_candidate"] is True
    assert second["localization"] == first["localization"]
    assert first["localization"]["hunk_recall"] == 1 / 3
    table = runner.invoke(app, [*common[:-2], "--candidate", str(forward)])
    assert "missed hunk 1 (src/main/java/com/acme/Calc.java)" in table.stdout
    assert "hunk precision 50% (1/2 candidate hunks" in table.stdout
