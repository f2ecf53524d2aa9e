"""The action model is immutable and its token arithmetic is exact."""

from __future__ import annotations

import dataclasses
from types import MappingProxyType

import pytest

from hunkmetrics.agents.model import (
    Action,
    Attempt,
    Tokens,
    ToolCall,
    freeze,
    freeze_mapping,
    thaw,
)


def test_arguments_are_frozen_all_the_way_down():
    raw = {"todos": [{"content": "a", "status": "done"}], "n": 1, "ok": True, "x": None}
    frozen = freeze_mapping(raw)
    with pytest.raises(TypeError):
        frozen["n"] = 2  # type: ignore[index]
    todos = frozen["todos"]
    assert isinstance(todos, tuple)
    assert isinstance(todos[0], MappingProxyType)
    assert thaw(frozen) == raw
    raw["n"] = 5  # the frozen copy does not follow the original
    assert frozen["n"] == 1
    assert freeze(3.5) == 3.5


def test_dataclasses_are_frozen():
    call = ToolCall(index=0, step=1, tool_name="Read")
    with pytest.raises(dataclasses.FrozenInstanceError):
        call.tool_name = "Write"  # type: ignore[misc]
    action = Action(0, call, None, "READ", "semantic:read-tools")
    assert (action.name, action.tool_name, action.call_index, action.commands) == (
        "Read",
        "Read",
        0,
        (),
    )


def test_token_totals_and_sums():
    a = Tokens(4, 100, 10, 50, 5, MappingProxyType({"input_tokens": 4}), "x")
    b = Tokens(6, 200, 0, 20, 0, MappingProxyType({"input_tokens": 6, "other": 1}), "y")
    assert a.input_total == 114
    assert a.output_total == 55
    assert a.total == 169
    s = a + b
    assert (s.input_uncached, s.cache_read, s.cache_write, s.output, s.reasoning) == (
        10,
        300,
        10,
        70,
        5,
    )
    assert dict(s.raw) == {"input_tokens": 10, "other": 1}
    assert s.source == "x"
    assert "input_uncached + cache_read + cache_write" in s.convention


def test_shares_of_an_empty_attempt():
    attempt = Attempt("a", "f", "p")
    assert attempt.category_shares() == {}
    assert attempt.category_counts() == {}
    assert (attempt.tool_call_count, attempt.action_count) == (0, 0)
