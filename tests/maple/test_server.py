"""Every MAPLE tool through the MCP protocol, in process (mcp's `Client`), on the Java
and Python fixture projects."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("mcp", reason="the maple server needs the mcp package (hunkmetrics[mcp])")

from mcp import Client  # noqa: E402

from hunkmetrics.maple import Maple  # noqa: E402
from hunkmetrics.maple.server import EXTRA_TOOLS, MAPLE_TOOLS, build_server  # noqa: E402

from .conftest import CART, INVENTORY  # noqa: E402

pytestmark = pytest.mark.anyio

NINE = {
    "maple_find_class",
    "maple_find_class_in_file",
    "maple_find_method",
    "maple_find_method_in_class",
    "maple_find_method_in_file",
    "maple_find_code",
    "maple_find_code_in_file",
    "maple_extract_class_skeleton",
    "maple_repo_structure",
}


async def call(maple: Maple, tool: str, **args: object) -> tuple[bool, str]:
    async with Client(build_server(maple, extra_tools=True)) as client:
        result = await client.call_tool(tool, args)
    text = "".join(getattr(c, "text", "") for c in result.content)
    return result.is_error, text


async def test_the_nine_tools_names_arguments_and_annotations(java: Maple) -> None:
    async with Client(build_server(java)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == NINE == set(MAPLE_TOOLS)
    arguments = {name: sorted(t.input_schema["properties"]) for name, t in tools.items()}
    assert arguments == {
        "maple_find_class": ["class_name"],
        "maple_find_class_in_file": ["class_name", "file_name"],
        "maple_find_method": ["method_name"],
        "maple_find_method_in_class": ["class_name", "method_name"],
        "maple_find_method_in_file": ["file_name", "method_name"],
        "maple_find_code": ["code_snippet"],
        "maple_find_code_in_file": ["code_snippet", "file_name"],
        "maple_extract_class_skeleton": ["file_name"],
        "maple_repo_structure": ["max_depth"],
    }
    assert tools["maple_repo_structure"].input_schema["properties"]["max_depth"]["default"] == 100
    for tool in tools.values():
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is True
        assert tool.annotations.destructive_hint is False


async def test_extra_tools_only_under_the_flag(java: Maple) -> None:
    async with Client(build_server(java, extra_tools=True)) as client:
        names = {t.name for t in (await client.list_tools()).tools}
    assert names == NINE | set(EXTRA_TOOLS)


async def test_java_tools_over_mcp(java: Maple) -> None:
    error, text = await call(java, "maple_find_class", class_name="Retry$1$1")
    assert not error
    assert "class com.acme.core.util.Retry$1$1" in text and "lines 41-50" in text
    error, text = await call(
        java, "maple_find_class_in_file", class_name="Order", file_name="core/Order.java"
    )
    assert "class com.acme.core.Order\n" in text and "lines 6-46" in text  # javadoc on 6
    error, text = await call(java, "maple_find_method", method_name="pad")
    assert "com.acme.core.util.Strings.pad(String,int)" in text
    assert "com.acme.core.util.Strings.pad(String,int,char)" in text
    assert "lines 27-29" in text and "lines 31-37" in text
    error, text = await call(
        java, "maple_find_method_in_class", method_name="Inventory", class_name="Inventory"
    )
    assert text.startswith("Found 3 matches")  # the three constructors
    assert "lines 39-41" in text and "lines 43-45" in text and "lines 47-50" in text
    error, text = await call(
        java, "maple_find_method_in_file", method_name="record", file_name="Telemetry.java"
    )
    assert "org.other.Telemetry.record(String,Duration)" in text and "lines 38-43" in text
    error, text = await call(java, "maple_find_code", code_snippet="return updated;")
    assert f"{INVENTORY}, line 66" in text
    error, text = await call(
        java, "maple_find_code_in_file", code_snippet="count += line", file_name="Order.java"
    )
    assert "line 26 (in class com.acme.core.Order, method com.acme.core.Order.itemCount())" in text
    error, text = await call(java, "maple_extract_class_skeleton", file_name="Order.java")
    assert " 7: public record Order(String id, List<Line> lines, BigDecimal total) {" in text
    assert "23:     public int itemCount();" in text
    error, text = await call(java, "maple_repo_structure")
    assert "Telemetry.java" in text
    error, text = await call(java, "maple_find_enclosing", file_name="Strings.java", line=45)
    assert "method: com.acme.core.util.Strings.Splitter.accept(char) (lines 44-50)" in text
    error, text = await call(java, "maple_find_references", name="isBlank")
    assert not error and "[call]" in text


async def test_python_tools_over_mcp(python: Maple) -> None:
    error, text = await call(python, "maple_find_class", class_name="Line")
    assert not error
    assert "class shop.cart.Cart.Line\n" in text
    assert f"file: {CART}, lines 23-43" in text  # from the @dataclass decorator
    assert "merge(self,other)  lines 39-43" in text
    error, text = await call(python, "maple_find_class_in_file", class_name="Cart", file_name=CART)
    assert "lines 20-81" in text
    error, text = await call(python, "maple_find_method", method_name="is_empty")
    assert "lines 72-74" in text and "    @property\n    def is_empty(self) -> bool:" in text
    error, text = await call(
        python, "maple_find_method_in_class", method_name="discount", class_name="Threshold"
    )
    assert "shop.pricing.rules.threshold_rule.Threshold.discount(self,cart)" in text
    assert "lines 77-78" in text
    error, text = await call(
        python, "maple_find_method_in_file", method_name="add", file_name="cart.py"
    )
    assert "shop.cart.Cart.add(self,sku,quantity,*tags,**options)" in text
    assert "lines 51-61" in text
    error, text = await call(python, "maple_find_code", code_snippet="merged.add(line.sku")
    assert f"{CART}, line 88 (in method shop.cart.merge_carts(first,second,owner))" in text
    error, text = await call(
        python, "maple_find_code_in_file", code_snippet="cart.add(sku)", file_name="cart.py"
    )
    assert (
        "line 80 (in class shop.cart.Cart, method shop.cart.Cart.from_skus(cls,owner,skus))" in text
    )
    error, text = await call(python, "maple_extract_class_skeleton", file_name="cart.py")
    assert "39:         def merge(self, other: Cart.Line) -> None: ..." in text
    assert (
        "84: def merge_carts(first: Cart, second: Cart, owner: str | None = None) -> Cart: ..."
        in text
    )
    error, text = await call(python, "maple_repo_structure", max_depth=2)
    assert text.splitlines()[1:] == [".", "└── src/", "    └── shop/"]


async def test_misses_and_bad_arguments_are_tool_errors_with_suggestions(java: Maple) -> None:
    error, text = await call(java, "maple_find_class", class_name="Inventroy")
    assert error
    assert "Could not find class 'Inventroy'. Close classes: com.acme.core.Inventory" in text
    error, text = await call(java, "maple_find_method", method_name="")
    assert error and "method_name is empty" in text
    error, text = await call(java, "maple_repo_structure", max_depth=-3)
    assert error and "at least 1" in text
    error, text = await call(java, "maple_repo_structure", max_depth="deep")
    assert error  # rejected by the input schema, the server lives on
    error, text = await call(java, "maple_find_code", code_snippet="x" * 100_000)
    assert error and "longer than 4096" in text
    error, text = await call(java, "maple_find_method", method_name="a\0b")
    assert error and "NUL" in text
    error, text = await call(java, "maple_find_class", class_name="Order")  # still serving
    assert not error


async def test_unexpected_failures_are_one_line_errors(java: Maple, tmp_path: Path) -> None:
    def boom(class_name: str) -> str:
        raise RuntimeError("disk on fire")

    java.find_class = boom  # type: ignore[method-assign]
    error, text = await call(java, "maple_find_class", class_name="Order")
    assert error
    assert "internal error in maple_find_class: RuntimeError: disk on fire" in text
    assert "Traceback" not in text
