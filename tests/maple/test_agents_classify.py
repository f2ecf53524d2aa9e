"""`hunkmetrics agents` counts MAPLE calls as repository-context search."""

from __future__ import annotations

import pytest

from hunkmetrics.agents.classify import load_profile

TOOLS = [
    "maple_find_class",
    "maple_find_class_in_file",
    "maple_find_method",
    "maple_find_method_in_class",
    "maple_find_method_in_file",
    "maple_find_code",
    "maple_find_code_in_file",
    "maple_extract_class_skeleton",
    "maple_repo_structure",
    "maple_find_references",
    "maple_find_enclosing",
]


@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize("form", ["mcp__maple__{}", "maple__{}", "mcp__hunkmetrics__{}"])
def test_maple_calls_are_repository_context_search(tool: str, form: str) -> None:
    category, rule = load_profile("semantic").classify_tool(form.format(tool), {})
    assert (category, rule) == ("SEARCH_CONTEXT", "semantic:maple-context")
    category, rule = load_profile("paper").classify_tool(form.format(tool), {})
    assert (category, rule) == ("SEARCH_CONTENT", "paper:maple-tools")
