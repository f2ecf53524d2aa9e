"""A source file larger than `HUNKMETRICS_MAX_SOURCE_BYTES` is refused with one line, from a
working tree and from a git revision alike, and the git reader stays usable afterwards
(the oversized blob is read past, not left in the pipe)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hunkmetrics import SourceError
from hunkmetrics.sources import GitRevisionReader, WorktreeReader

BIG = b"x = 1\n" * 2_000  # 12,000 bytes
SMALL = b"y = 2\n"
CAP = "10000"


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        capture_output=True,
        check=True,
    )
    return done.stdout.decode()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "big.py").write_bytes(BIG)
    (root / "small.py").write_bytes(SMALL)
    _git(root, "init", "-q")
    _git(root, "add", ".")
    _git(root, "commit", "-q", "-m", "two files")
    return root


def test_worktree_reader_refuses_a_file_over_the_cap(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HUNKMETRICS_MAX_SOURCE_BYTES", CAP)
    reader = WorktreeReader(repo)
    with pytest.raises(SourceError) as refused:
        reader.read("big.py")
    message = str(refused.value)
    assert message.startswith("big.py: 12,000 bytes in the working tree")
    assert "more than the 10,000 bytes" in message
    assert "HUNKMETRICS_MAX_SOURCE_BYTES" in message
    assert reader.read("small.py") == SMALL


def test_git_reader_refuses_a_blob_over_the_cap_and_reads_on(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HUNKMETRICS_MAX_SOURCE_BYTES", CAP)
    reader = GitRevisionReader(repo, "HEAD")
    try:
        with pytest.raises(SourceError, match=r"^big\.py: 12,000 bytes in the git revision HEAD"):
            reader.read("big.py")
        # the same `git cat-file` process answers the next request correctly
        assert reader.read("small.py") == SMALL
        with pytest.raises(SourceError):
            reader.read("big.py")
    finally:
        reader.close()


def test_at_the_cap_a_file_is_read(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HUNKMETRICS_MAX_SOURCE_BYTES", str(len(BIG)))
    assert WorktreeReader(repo).read("big.py") == BIG
    reader = GitRevisionReader(repo, "HEAD")
    try:
        assert reader.read("big.py") == BIG
    finally:
        reader.close()


def test_the_command_line_says_it_in_one_line_with_exit_2(repo: Path, tmp_path: Path) -> None:
    patch = tmp_path / "p.diff"
    patch.write_text(
        "--- a/big.py\n+++ b/big.py\n@@ -1,2 +1,2 @@\n x = 1\n-x = 1\n+x = 3\n", encoding="utf-8"
    )
    for source in (["--repo", str(repo)], ["--repo", str(repo), "--rev", "HEAD"]):
        done = subprocess.run(
            [sys.executable, "-m", "hunkmetrics", "hunks", str(patch), *source],
            capture_output=True,
            text=True,
            env={"HUNKMETRICS_MAX_SOURCE_BYTES": CAP, "PATH": "/usr/bin:/bin"},
        )
        assert done.returncode == 2, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1, done.stderr
        assert "big.py: 12,000 bytes" in lines[0]
        assert "Traceback" not in done.stderr


def test_a_malformed_cap_is_an_input_error(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HUNKMETRICS_MAX_SOURCE_BYTES", "64MB")
    with pytest.raises(Exception, match="HUNKMETRICS_MAX_SOURCE_BYTES='64MB'"):
        WorktreeReader(repo).read("small.py")
