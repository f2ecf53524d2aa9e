"""`hunks` streamed and the whole-patch workspace agree on fuzzed diffs (UTF-16 and BOMs,
mbox mails, combined diffs, NUL, quoted names, mode and type changes, damaged diffs),
read in megabyte chunks or a few bytes at a time."""

from __future__ import annotations

import pytest
from fuzz_diffs import cases
from test_hunks_stream import SELECTIONS, streamed, whole

from hunkmetrics.patch import source


@pytest.mark.parametrize("chunk", [source.READ_CHUNK, 7])
def test_streamed_hunks_agree_on_two_hundred_fuzzed_diffs(
    chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    errors = 0
    for number, case in enumerate(cases(200, seed=23)):
        selection = SELECTIONS[number % len(SELECTIONS)]
        reverse, hunking = number % 3 == 0, "regions" if number % 4 == 0 else "as-given"
        expected = whole(case.data, selection, reverse, hunking)
        with monkeypatch.context() as patched:
            patched.setattr(source, "READ_CHUNK", chunk)
            assert streamed(case.data, selection, reverse, hunking) == expected, case.data[:300]
        errors += expected.startswith("error:")
    assert 0 < errors < 200  # damaged and whole diffs both
