"""The library without surprises: diff text as `str`, conflicting or bad arguments as
one-line HunkmetricsErrors, a Patch with reverse=True, DivergenceResult equality."""

from __future__ import annotations

from pathlib import Path
from typing import Any, get_args

import pytest

import hunkmetrics
from hunkmetrics.api import ProfileName
from hunkmetrics.errors import ArgumentError, HunkmetricsError
from hunkmetrics.workspace import is_diff_text

TWO_HUNKS = """\
--- a/pkg/calc.py
+++ b/pkg/calc.py
@@ -1,3 +1,3 @@
 def add(a, b):
-    return a - b
+    return a + b
 
@@ -20,3 +20,3 @@
 def mul(a, b):
-    return a / b
+    return a * b
 
"""


def test_diff_text_as_str_is_read_as_a_diff(tmp_path: Path) -> None:
    from_text = hunkmetrics.divergence(TWO_HUNKS)
    path = tmp_path / "fix.diff"
    path.write_text(TWO_HUNKS)
    from_file = hunkmetrics.divergence(str(path))
    assert from_text.hunk_count == 2
    assert from_text == from_file  # DivergenceResult compares its arrays too
    assert is_diff_text(TWO_HUNKS) and is_diff_text("diff --git a/x b/x")
    assert not is_diff_text("fix.diff") and not is_diff_text("patches/--- odd name")


def test_divergence_results_compare_by_value() -> None:
    first = hunkmetrics.divergence(TWO_HUNKS)
    one_hunk = TWO_HUNKS[: TWO_HUNKS.index("@@ -20")]
    other = hunkmetrics.divergence(one_hunk)
    assert other.hunk_count == 1
    assert first == hunkmetrics.divergence(TWO_HUNKS)
    assert first != other
    assert first != "not a result"


def test_conflicting_and_bad_arguments_are_one_line_hunkmetrics_errors(tmp_path: Path) -> None:
    cases = [
        (lambda: hunkmetrics.divergence(TWO_HUNKS, source=tmp_path, repo=tmp_path), "not both"),
        (
            lambda: hunkmetrics.proximity(TWO_HUNKS, source=(tmp_path, "HEAD"), rev="HEAD"),
            "not both",
        ),
        (lambda: hunkmetrics.divergence(TWO_HUNKS, hunking="lines"), "hunking must be"),  # type: ignore[arg-type]
        (lambda: hunkmetrics.divergence(42), "not int"),  # type: ignore[arg-type]
    ]
    for call, words in cases:
        with pytest.raises(ArgumentError, match=words) as caught:
            call()
        assert isinstance(caught.value, HunkmetricsError)
        assert "\n" not in str(caught.value)


def test_a_patch_given_with_reverse_is_reversed() -> None:
    patch = hunkmetrics.parse_patch(TWO_HUNKS)
    with hunkmetrics.open_workspace(patch, reverse=True) as ws:
        assert ws.patch.reversed is True
        # after → before: the fix's added line is now the removed one
        assert ws.patch.hunks[0].removed_text == ["    return a + b"]
        assert ws.patch.hunks[0].added_text == ["    return a - b"]
    with hunkmetrics.open_workspace(patch) as ws:
        assert ws.patch.reversed is False


def test_profile_names_are_a_literal() -> None:
    assert get_args(ProfileName) == tuple(hunkmetrics.PROFILE_NAMES)


def test_debug_is_accepted_after_the_command() -> None:
    from hunkmetrics.cli.app import debug_first

    assert debug_first(["hunks", "x.diff", "--debug"]) == ["--debug", "hunks", "x.diff"]
    assert debug_first(["--debug", "hunks", "x.diff"]) == ["--debug", "hunks", "x.diff"]
    assert debug_first(["hunks", "--", "--debug"]) == ["hunks", "--", "--debug"]


def test_shared_flags_show_no_bool_value() -> None:
    from typer.testing import CliRunner

    from hunkmetrics.cli.app import app

    text = CliRunner().invoke(app, ["characterize", "--help"], env={"COLUMNS": "200"}).stdout
    for flag in ("--reverse ", "--all-files ", "--ignore-comment-only "):
        line = next(row for row in text.splitlines() if flag in row)
        assert "<bool>" not in line, line


def test_bad_metric_arguments_are_argument_errors() -> None:
    for call, words in (
        (lambda: hunkmetrics.divergence(TWO_HUNKS, profile="nope"), "unknown profile 'nope'"),  # type: ignore[arg-type]
        (
            lambda: hunkmetrics.divergence(TWO_HUNKS, distributed_weight=-1),
            "must be a finite number ≥ 0, not -1",
        ),
        (lambda: hunkmetrics.proximity(TWO_HUNKS, cutoff=-1), "cutoff must be ≥ 0, not -1"),
    ):
        with pytest.raises(ArgumentError, match=words):
            call()


def test_no_command_shows_a_value_for_a_flag() -> None:
    """Every command's help, nested ones too: a flag (`--resume`, `--pairs`, `--help`)
    takes no value, so its help row shows none."""
    import typer
    from typer.testing import CliRunner

    from hunkmetrics.cli.app import app

    def paths(command: Any, prefix: list[str]) -> list[list[str]]:
        found = [prefix]
        for name, sub in getattr(command, "commands", {}).items():
            found += paths(sub, [*prefix, name])
        return found

    commands = paths(typer.main.get_command(app), [])
    assert ["agents", "evaluate"] in commands and ["mine"] in commands
    for words in commands:
        text = CliRunner().invoke(app, [*words, "--help"], env={"COLUMNS": "200"}).stdout
        assert "--help" in text, words
        assert "<bool>" not in text, (words, [r for r in text.splitlines() if "<bool>" in r])


@pytest.mark.parametrize("name", ["From alice.patch", "diff fix.patch", "Index: 3.diff"])
def test_a_file_whose_name_looks_like_a_diff_is_read_as_a_file_by_the_commands(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command-line argument is a file name, whatever it starts with: these names were
    read as diff text ("<patch>: no file changes found")."""
    import json

    from typer.testing import CliRunner

    from hunkmetrics.cli.app import app

    monkeypatch.chdir(tmp_path)
    Path(name).write_text(TWO_HUNKS, encoding="utf-8")
    for args in (
        ["divergence", name],
        ["proximity", name],
        ["characterize", name, "--reference", name],
        ["localization", "--reference", name, "--candidate", name],
    ):
        done = CliRunner().invoke(app, [*args, "--format", "json"])
        assert done.exit_code == 0, (args, done.output)
        document = json.loads(done.stdout)
        assert document.get("patch", document.get("reference")) == name
    assert hunkmetrics.divergence(TWO_HUNKS).hunk_count == 2  # the library's str rule stays
