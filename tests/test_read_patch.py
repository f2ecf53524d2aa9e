"""One way to read a patch file, shared by the library, the CLI and batch."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from hunkmetrics import PatchError, read_patch
from hunkmetrics.patch import source
from hunkmetrics.patch.parse import read_patch_bytes


def test_missing_file_and_directory_are_one_line_patch_errors(tmp_path: Path) -> None:
    with pytest.raises(PatchError, match=r"^.*nope\.diff: no such file$"):
        read_patch(tmp_path / "nope.diff")
    with pytest.raises(PatchError, match=r"is a directory, expected a diff file$"):
        read_patch_bytes(tmp_path)


def test_an_unreadable_file_is_a_patch_error_not_an_internal_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "locked.diff"
    target.write_bytes(b"")

    def refuse(*args: object) -> int:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(source.os, "open", refuse)
    with pytest.raises(PatchError) as caught:
        read_patch(target)
    assert str(caught.value) == f"{target}: cannot read (Permission denied)"


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.diff"
    os.mkfifo(fifo)
    with pytest.raises(PatchError) as caught:
        read_patch(fifo)
    assert str(caught.value) == f"{fifo}: not a regular file (a device, FIFO or socket)"


def test_a_patch_over_the_size_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    big = tmp_path / "big.diff"
    big.write_bytes(b"x" * 20)
    assert read_patch_bytes(big, max_bytes=20) == b"x" * 20  # exactly the limit: read
    with pytest.raises(PatchError) as caught:
        read_patch_bytes(big, max_bytes=19)
    assert str(caught.value) == (
        f"{big}: larger than 19 bytes, the most hunkmetrics reads of a patch "
        "(set HUNKMETRICS_MAX_PATCH_BYTES to read more)"
    )
    monkeypatch.setenv("HUNKMETRICS_MAX_PATCH_BYTES", "10")
    with pytest.raises(PatchError, match="larger than 10 bytes"):
        read_patch(big)
    monkeypatch.setenv("HUNKMETRICS_MAX_PATCH_BYTES", "ten")
    with pytest.raises(PatchError, match="expected a number of bytes"):
        read_patch(big)
