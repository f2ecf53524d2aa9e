"""`--style study`: each tool's answer in the study's server's format (golden texts
written by hand from its documented format), and `--log`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("mcp", reason="the maple server needs the mcp package (hunkmetrics[mcp])")

from mcp import Client  # noqa: E402

from hunkmetrics.maple import Maple  # noqa: E402
from hunkmetrics.maple.calllog import CallLog  # noqa: E402
from hunkmetrics.maple.server import build_server  # noqa: E402

from .conftest import index_of  # noqa: E402

pytestmark = pytest.mark.anyio

SHOP = (
    "package p;\n"  # 1
    "\n"  # 2
    "public class Shop {\n"  # 3
    "    int total;\n"  # 4
    "\n"  # 5
    "    void add(int n) {\n"  # 6
    "        total += n;\n"  # 7
    "    }\n"  # 8
    "}\n"  # 9
)


def _maple(tmp_path: Path, extra: int = 0) -> Maple:
    root = tmp_path / "shop"
    (root / "src/p").mkdir(parents=True)
    (root / "src/p/Shop.java").write_text(SHOP)
    for i in range(extra):
        (root / f"src/p/S{i}.java").write_text(
            f"package p;\nclass S{i} {{\n    void add() {{}}\n}}\n"
        )
    return Maple(index_of(root, tmp_path))


async def _call(maple: Maple, tool: str, log: CallLog | None = None, **args: object) -> str:
    async with Client(build_server(maple, style="study", log=log)) as client:
        result = await client.call_tool(tool, args)
    assert not result.is_error  # the original never answered with an MCP error
    return "".join(getattr(c, "text", "") for c in result.content)


async def test_find_class(tmp_path: Path) -> None:
    out = await _call(_maple(tmp_path), "maple_find_class", class_name="Shop")
    assert out == (
        "✅ Tool: maple_find_class\nStatus: SUCCESS\n"
        "Summary: The tool returned information about class `Shop`.\n\n"
        "Result:\nFound 1 classes with name Shop in the codebase:\n\n"
        "- Search result 1:\n```\n<file>src/p/Shop.java</file>\n<class>Shop</class>\n"
        "<code>\npublic class Shop {\n</code>\n```\n"
    )


async def test_find_class_miss_is_a_failed_answer(tmp_path: Path) -> None:
    out = await _call(_maple(tmp_path), "maple_find_class", class_name="p.Shop")
    assert out == (
        "❌ Tool: maple_find_class\nStatus: FAILED\n"
        "Summary: Class p.Shop did not appear in the codebase.\n\n"
        "Error: Could not find class p.Shop in the codebase."
    )


async def test_find_method_in_class(tmp_path: Path) -> None:
    out = await _call(
        _maple(tmp_path), "maple_find_method_in_class", method_name="add", class_name="Shop"
    )
    head = "Found 1 methods with name add in class Shop:\n\n"
    assert out == (
        f"✅ Tool: maple_find_method_in_class\nStatus: SUCCESS\nSummary: {head}\n\n"
        f"Result:\n{head}"
        "- Search result 1:\n```\n<file>src/p/Shop.java</file>\n<class>Shop</class> "
        "<method>add</method>\n<code>\n    void add(int n) {\n        total += n;\n    }\n\n"
        "</code>\n```\n"
    )


async def test_more_than_three_methods_are_counted_per_file(tmp_path: Path) -> None:
    out = await _call(_maple(tmp_path, extra=3), "maple_find_method", method_name="add")
    head = "Found 4 methods with name add in the codebase:\n\n"
    assert out == (
        f"✅ Tool: maple_find_method\nStatus: SUCCESS\nSummary: {head}\n\n"
        f"Result:\n{head}They appeared in the following files:\n"
        "- <file>src/p/S0.java</file> (1 matches)\n"
        "- <file>src/p/S1.java</file> (1 matches)\n"
        "- <file>src/p/S2.java</file> (1 matches)\n"
        "- <file>src/p/Shop.java</file> (1 matches)\n"
    )


async def test_find_code_with_five_lines_either_side(tmp_path: Path) -> None:
    out = await _call(_maple(tmp_path), "maple_find_code", code_snippet="total += n;")
    head = "Found 1 snippets containing `total += n;` in the codebase:\n\n"
    # the match is on line 7 (row 6): rows 1..11 of the file, i.e. lines 2..9; the
    # original looked the method up at row 6 read as a line number: line 6, in add
    assert out == (
        f"✅ Tool: maple_find_code\nStatus: SUCCESS\nSummary: {head}\n\n"
        f"Result:\n{head}"
        "- Search result 1:\n```\n<file>src/p/Shop.java</file>\n<class>Shop</class> "
        "<method>add</method>\n<code>\n\npublic class Shop {\n    int total;\n\n"
        "    void add(int n) {\n        total += n;\n    }\n}\n</code>\n```\n"
    )


async def test_find_code_in_file_drops_a_closing_parenthesis(tmp_path: Path) -> None:
    out = await _call(
        _maple(tmp_path), "maple_find_code_in_file", code_snippet="nothing)", file_name="Shop.java"
    )
    assert out.endswith("Error: Could not find code nothing in file Shop.java.")


async def test_repo_structure_depth_zero_is_the_top_level(tmp_path: Path) -> None:
    maple = _maple(tmp_path)
    out = await _call(maple, "maple_repo_structure", max_depth=0)
    assert out == (
        "✅ Tool: maple_repo_structure\nStatus: SUCCESS\n"
        "Summary: Repository structure with 1 Java files and 1 classes\n\n"
        "Repository Structure:\n```\nshop/\n└── src/\n```"
    )
    deeper = await _call(maple, "maple_repo_structure", max_depth=1)
    assert deeper.endswith("```\nshop/\n└── src/\n    └── p/\n```")


async def test_skeleton_and_file_misses(tmp_path: Path) -> None:
    maple = _maple(tmp_path)
    out = await _call(maple, "maple_extract_class_skeleton", file_name="Shop.java")
    assert out.startswith(
        "✅ Tool: maple_extract_class_skeleton\nStatus: SUCCESS\n"
        "Summary: Successfully extracted class skeleton from Shop.java\n\n"
        "Result:\nClass skeleton extracted from Shop.java:\n\n```java\npackage p;\n"
    )
    assert "    void add(int n);\n" in out and out.endswith("}\n```")
    miss = await _call(maple, "maple_find_method_in_file", method_name="add", file_name="X.java")
    assert miss.endswith("Error: Could not find file X.java in the codebase.")


async def test_every_call_is_logged_as_a_json_line(tmp_path: Path) -> None:
    maple = _maple(tmp_path)
    log = CallLog(tmp_path / "calls.jsonl")
    ok = await _call(maple, "maple_find_class", log, class_name="Shop")
    await _call(maple, "maple_find_class", log, class_name="Nope")
    lines = [json.loads(x) for x in (tmp_path / "calls.jsonl").read_text().splitlines()]
    assert [x["tool"] for x in lines] == ["maple_find_class", "maple_find_class"]
    assert lines[0]["arguments"] == {"class_name": "Shop"}
    assert lines[0]["result_chars"] == len(ok) and lines[0]["error"] is None
    assert lines[1]["error"] == "Could not find class Nope in the codebase."
    assert set(lines[0]) == {"time", "tool", "arguments", "duration_ms", "result_chars", "error"}
