"""A client that cancels a long call (`notifications/cancelled`) stops the server's
search at its next file, through the official client; other calls go on."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("mcp", reason="the maple server needs the mcp package (hunkmetrics[mcp])")

import anyio  # noqa: E402
import anyio.to_thread  # noqa: E402
from mcp import Client  # noqa: E402

from hunkmetrics.maple import Maple  # noqa: E402
from hunkmetrics.maple.server import build_server  # noqa: E402

from .conftest import index_of  # noqa: E402

pytestmark = pytest.mark.anyio
_SAFETY = 30  # seconds: only so that a broken test fails instead of hanging


def _repo(tmp_path: Path, count: int) -> Path:
    root = tmp_path / "repo"
    for i in range(count):
        path = root / f"p/C{i:02}.java"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"package p;\nclass C{i:02} {{\n    int value = {i};\n}}\n")
    return root


def test_a_cancelled_search_stops_at_its_next_file(tmp_path: Path) -> None:
    maple = Maple(index_of(_repo(tmp_path, 30), tmp_path))
    started, release, done = threading.Event(), threading.Event(), threading.Event()
    flags: list[threading.Event] = []
    reads: list[str] = []
    outcome: list[BaseException] = []
    searched: list[str] = []  # the files read by the cancelled search
    data, cancellable = maple.index.data, maple.cancellable

    def slow_data(path: str, keep: bool = True) -> bytes:
        reads.append(path)
        if len(reads) == 1:
            started.set()
            release.wait(_SAFETY)  # the first file takes until the test lets it go
        return data(path, keep)

    @contextmanager
    def watched(flag: threading.Event) -> Iterator[None]:
        flags.append(flag)
        try:
            with cancellable(flag):
                yield
        except BaseException as exc:
            outcome.append(exc)
            raise
        finally:
            done.set()

    maple.index.data = slow_data  # type: ignore[method-assign]
    maple.cancellable = watched  # type: ignore[method-assign]

    async def main() -> None:
        async with Client(build_server(maple)) as client:
            async with anyio.create_task_group() as group:
                scope = anyio.CancelScope()

                async def search() -> None:
                    with scope:
                        await client.call_tool("maple_find_code", {"code_snippet": "int value"})

                group.start_soon(search)
                assert await anyio.to_thread.run_sync(started.wait, _SAFETY)
                scope.cancel()  # the client sends notifications/cancelled
            # the server sets the call's flag; then the blocked read returns
            assert await anyio.to_thread.run_sync(flags[0].wait, _SAFETY)
            release.set()
            assert await anyio.to_thread.run_sync(done.wait, _SAFETY)
            searched.extend(reads)
            # the server still answers
            other = await client.call_tool("maple_find_class", {"class_name": "C07"})
            assert not other.is_error

    anyio.run(main)
    assert searched == ["p/C00.java"]  # the first of the 30 files holding "int value"
    # the search raised `Cancelled`, a tool error whose answer the server drops
    assert [str(e) for e in outcome] == ["the call was cancelled after 1 of 30 files"]


def test_a_call_that_is_not_cancelled_answers_in_full(tmp_path: Path) -> None:
    maple = Maple(index_of(_repo(tmp_path, 30), tmp_path), max_results=1)

    async def main() -> str:
        async with Client(build_server(maple)) as client:
            result = await client.call_tool("maple_find_code", {"code_snippet": "int value"})
        return "".join(getattr(c, "text", "") for c in result.content)

    assert anyio.run(main).startswith("Found 30 matches for the code.")
