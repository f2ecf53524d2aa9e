"""One way to read a patch file, shared by the library, the CLI and batch."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from hunkmetrics import PatchError, read_patch
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

    def refuse(self: Path) -> bytes:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(Path, "read_bytes", refuse)
    with pytest.raises(PatchError) as caught:
        read_patch(target)
    assert str(caught.value) == f"{target}: cannot read (Permission denied)"
