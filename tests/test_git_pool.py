"""Issue 13's I/O: one long-lived `git cat-file --batch` per repository per worker.

- CatFile.resolve answers `rev-parse --verify <rev>^{commit}` through the batch pipe;
- CatFilePool keeps at most `size` processes, the least recently used closed first;
- readers sharing a pool's process do not end it; a path read twice in a row is asked
  of git once; a process that ended is started again;
- LocalExecutor's workers keep their WorkerContext (so their processes) across tasks,
  and a worker that dies fails its own task only.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest
from gitrepo import build_fixture_repo, git

from hunkmetrics.datasets.executors import (
    LocalExecutor,
    WorkerContext,
    start_method,
    uses_context,
)
from hunkmetrics.errors import SourceError
from hunkmetrics.sources import git as hgit
from hunkmetrics.sources.readers import GitRevisionReader, open_reader

INVENTORY = "src/main/java/com/acme/core/Inventory.java"


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_fixture_repo(tmp_path_factory.mktemp("pool"), "java-project").path


@pytest.fixture(scope="module")
def other(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_fixture_repo(tmp_path_factory.mktemp("pool2"), "python-project").path


def rev_parse(repo: Path, rev: str) -> str:
    return git(repo, "rev-parse", f"{rev}^{{commit}}").decode().strip()


def test_resolve_through_the_pipe(repo: Path, tmp_path: Path) -> None:
    objects = hgit.CatFile(repo)
    try:
        assert objects.resolve("base") == rev_parse(repo, "base")  # a tag, peeled
        assert objects.resolve("main~1") == rev_parse(repo, "main~1")
        assert objects.resolve("fix/java_lambdas") == rev_parse(repo, "fix/java_lambdas")
        assert objects.resolve("no-such-branch") is None
        tree = git(repo, "rev-parse", "base^{tree}").decode().strip()
        assert objects.resolve(tree) is None  # a tree names no commit
        assert objects.resolve("a\nb") == hgit.UNAVAILABLE
    finally:
        objects.close()
    plain = tmp_path / "plain"
    plain.mkdir()
    lonely = hgit.CatFile(plain)
    assert lonely.resolve("HEAD") == hgit.UNAVAILABLE  # git cannot start: rev-parse says why
    lonely.close()
    with pytest.raises(SourceError, match="not a git repository"):
        GitRevisionReader(plain, "HEAD")


def test_pool_keeps_two_repositories_least_recently_used_first(
    repo: Path, other: Path, tmp_path: Path
) -> None:
    third = build_fixture_repo(tmp_path, "python-project").path
    pool = hgit.CatFilePool(2)
    try:
        first = pool.get(repo)
        assert first.resolve("base") is not None
        second = pool.get(other)
        assert second.resolve("base") is not None
        assert pool.get(repo) is first  # now the most recent
        assert pool.get(third) is not None and len(pool) == 2  # `other` went
        assert second.pid is None and first.pid is not None
        again = pool.get(other)  # a new one; `repo`'s, now the oldest, goes
        assert again is not second and first.pid is None
        assert again.resolve("base") is not None
        if Path("/proc/self/status").exists():
            assert pool.resident_bytes() > 0
    finally:
        pool.close()
    assert len(pool) == 0 and again.pid is None


def test_readers_share_the_process_and_read_a_path_once(repo: Path) -> None:
    pool = hgit.CatFilePool(2)
    try:
        base = open_reader(repo, "base", objects=pool)
        fixed = open_reader(repo, "fix/java_lambdas", objects=pool)
        objects = pool.get(repo)
        pid = objects.pid
        assert pid is not None
        asked: list[str] = []
        real = objects.read

        def counting(name: str, limit: int | None = None) -> tuple[bytes, bytes] | None:
            asked.append(name)
            return real(name, limit)

        objects.read = counting  # type: ignore[method-assign]
        text = base.read(INVENTORY)
        assert text is not None and base.read(INVENTORY) == text  # old path, new path
        assert len(asked) == 1
        assert fixed.read(INVENTORY) != text  # the fix changed it
        assert base.read("no/such/File.java") is None
        base.close()
        fixed.close()
        assert objects.pid == pid  # the readers did not end the shared process
    finally:
        pool.close()


def test_a_process_that_ended_is_started_again(repo: Path) -> None:
    objects = hgit.CatFile(repo)
    try:
        assert objects.read(f"base:{INVENTORY}") is not None
        first = objects.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)
        deadline = time.monotonic() + 5
        while objects.pid == first and time.monotonic() < deadline:
            time.sleep(0.01)
        found = objects.read(f"base:{INVENTORY}")
        assert found is not None and found[0] == b"blob"
        assert objects.pid not in (None, first)
    finally:
        objects.close()


@uses_context
def cat_file_of(repo: str, context: WorkerContext | None = None) -> tuple[int, int | None]:
    """A task: this worker's process id and its `git cat-file` for `repo`."""
    assert context is not None
    objects = context.git.get(repo)
    assert objects.resolve("base") is not None
    return os.getpid(), objects.pid


def exit_on(value: int) -> int:
    if value == 2:
        os._exit(3)
    return value * 10


def test_workers_keep_their_git_processes_across_tasks(repo: Path) -> None:
    with LocalExecutor(1) as executor:
        runs = [executor.submit(cat_file_of, str(repo)) for _ in range(3)]
        done: set[object] = set()
        while len(done) < len(runs):
            done.update(executor.some_done([f for f in runs if f not in done]))
        results = [f.result() for f in runs]
    assert len(set(results)) == 1  # one worker, one `git cat-file`, three tasks
    assert results[0][1] is not None


def test_a_dead_worker_fails_its_own_task_only() -> None:
    from concurrent.futures.process import BrokenProcessPool

    with LocalExecutor(2) as executor:
        futures = [executor.submit(exit_on, k) for k in range(5)]
        done: set[object] = set()
        while len(done) < len(futures):
            done.update(executor.some_done([f for f in futures if f not in done]))
        with pytest.raises(BrokenProcessPool):
            futures[2].result()
        assert [futures[k].result() for k in (0, 1, 3, 4)] == [0, 10, 30, 40]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux start methods")
def test_fork_only_while_the_driver_has_no_other_thread() -> None:
    # pytest runs the tests in its main thread; an earlier test may have left a thread.
    assert start_method() == ("fork" if threading.active_count() == 1 else "forkserver")
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert start_method() == "forkserver"
    finally:
        stop.set()
        thread.join()
