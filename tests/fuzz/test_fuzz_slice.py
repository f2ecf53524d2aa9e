"""A short, seeded slice of the diff fuzzer (tests/fuzz/fuzz_diffs.py) in the default
run: no internal error, no message over one line, no valid diff refused."""

from __future__ import annotations

import shutil

import pytest
from fuzz_diffs import run


def test_three_hundred_fuzzed_diffs() -> None:
    report = run(300, seed=15, limit=60.0)
    assert report.tried == 300
    # Every input either parses and is located, or is refused with a PatchError.
    assert report.parsed + report.refused == 300
    assert report.located == report.parsed
    assert (report.internal, report.multi_line, report.hangs) == (0, 0, 0), report.samples
    assert report.valid_refused == 0, report.samples


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_git_accepts_nothing_we_refuse() -> None:
    report = run(100, seed=16, limit=60.0, git=True)
    assert report.git_checked > 0
    assert report.git_accepts_we_refuse == 0, report.samples
    # Whatever git applies to the pre-image, hunkmetrics reads with it as its source.
    assert report.sources_refused == 0, report.samples
    assert report.internal == 0, report.samples


def test_every_command_on_forty_fuzzed_diffs() -> None:
    """The commands that read a patch, in-process, with and without sources."""
    report = run(40, seed=17, limit=60.0, commands=True)
    assert report.command_runs["hunks"] == 40
    assert report.command_runs["characterize"] == 40
    assert report.command_runs["localization sources"] > 0
    assert (report.command_internal, report.command_multi_line, report.command_hangs) == (
        0,
        0,
        0,
    ), report.samples
    # Only exit codes 0 (a result) and 2 (an input error) occur.
    assert {key.rsplit(": ", 1)[1] for key in report.command_exits} <= {"0", "2"}
