"""End to end: `hunkmetrics maple` in a subprocess, spoken to over stdio."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp", reason="the maple server needs the mcp package (hunkmetrics[mcp])")

from mcp import Client, StdioServerParameters  # noqa: E402

from .conftest import FIXTURES  # noqa: E402

pytestmark = pytest.mark.anyio


async def test_the_cli_server_answers_over_stdio(tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "hunkmetrics",
            "maple",
            "--repo",
            str(FIXTURES / "java-project"),
            "--cache",
            str(tmp_path / "cache"),
            "--extra-tools",
        ],
        env={"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path)},
    )
    async with Client(params, read_timeout_seconds=60) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        assert len(names) == 11 and "maple_find_enclosing" in names
        result = await client.call_tool(
            "maple_find_method_in_class", {"method_name": "split", "class_name": "Strings"}
        )
        text = "".join(getattr(c, "text", "") for c in result.content)
        assert not result.is_error
        assert "com.acme.core.util.Strings.split(String,char)" in text
        assert "lines 39-63" in text
        miss = await client.call_tool("maple_find_class", {"class_name": "../../etc/passwd"})
        assert miss.is_error
    # one entry, named after the working tree's path and HEAD's tree (or nogit)
    assert len(list((tmp_path / "cache").glob("worktree-*/index.bin"))) == 1
