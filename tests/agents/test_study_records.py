"""Attempt lines read back typed, bug ids normalized, and the developer patches' traits
read from a `batch` results file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hunkmetrics.agents.study import (
    iter_attempts,
    normalize_bug_id,
    parse_attempt,
    read_attempts,
    read_bug_traits,
)
from hunkmetrics.errors import HunkmetricsError


@pytest.mark.parametrize(
    ("raw", "spelled"),
    [
        ("Chart_14", "Chart_14"),
        ("Chart-14", "Chart_14"),
        ("chart_14", "Chart_14"),
        ("Jacksoncore-1", "JacksonCore_1"),
        ("jacksondatabind_103", "JacksonDatabind_103"),
        (" JxPath-2 ", "JxPath_2"),
        # not Defects4J: kept as given, a SWE-bench instance id is what people join on
        ("pydicom-1458", "pydicom-1458"),
        ("django__django-11099", "django__django-11099"),
        (" apache__dubbo-10638 ", "apache__dubbo-10638"),
        ("no-number", "no-number"),
    ],
)
def test_normalize_bug_id(raw: str, spelled: str) -> None:
    assert normalize_bug_id(raw) == spelled


LINE: dict[str, Any] = {
    "id": "claude/chart-1",
    "agent": "claude",
    "bug": "chart-1",
    "error": None,
    "ls": True,
    "compiled": True,
    "repaired": False,
    "regression_reduction": -2,
    "tokens": {"input": 90, "output": 7, "input_uncached": 10, "cache_read": 50, "cache_write": 30},
    "runtime": {"seconds": 12.5},
    "tool_calls": 3,
    "actions": 4,
    "categories": [
        {"category": "READ", "actions": 3, "share": 0.75},
        {"category": "WRITE", "actions": 1, "share": 0.25},
    ],
    "unique_native_tools": ["Read"],
    "unique_shell_commands": ["ls"],
    "hunks": [
        {"hunk": 0, "read_file": {"action": 2, "at_s": 1.0}, "read_method": None, "edited": None}
    ],
}


def test_parse_an_evaluate_line() -> None:
    a = parse_attempt(LINE)
    assert (a.agent, a.bug, a.condition, a.source, a.key) == (
        "claude",
        "Chart_1",
        None,
        "evaluate",
        "chart_1",
    )
    assert (a.ls, a.compiled, a.repaired, a.regression_reduction) == (True, True, False, -2)
    assert (a.input_tokens, a.output_tokens, a.cache_read, a.cache_write) == (90, 7, 50, 30)
    assert (a.runtime_s, a.actions, dict(a.categories)) == (12.5, 4, {"READ": 3, "WRITE": 1})
    assert (a.sequence, a.native_tools, a.shell_commands) == (None, ("Read",), ("ls",))
    assert (a.hunks[0].read_file, a.hunks[0].edited) == (2, None)
    assert (a.outcome, a.group) == ("failing", "claude")


def test_parse_an_imported_line() -> None:
    line = {
        **LINE,
        "source": "study-import",
        "condition": "maple",
        "tokens": {"input": 0, "output": 0, "source": "none: not in the study's files"},
        "unique_shell_commands": [],
    }
    a = parse_attempt(line)
    assert (a.condition, a.group, a.source) == ("maple", "claude [maple]", "study-import")
    # Placeholder zeros of unknown tokens are unknown; commands not named are unknown.
    assert (a.input_tokens, a.output_tokens) == (None, None)
    assert a.shell_commands is None
    # No category counts for an imported bug: its action and call counts are unknown.
    bare = parse_attempt({**line, "categories": [], "actions": 0, "tool_calls": 0})
    assert (bare.actions, bare.tool_calls) == (None, None)
    with_sequence = parse_attempt({**line, "sequence": ["READ", "WRITE"]})
    assert (with_sequence.sequence, with_sequence.shell_commands) == (("READ", "WRITE"), ())


def test_wrong_types_are_unknown() -> None:
    a = parse_attempt({"id": 1, "agent": "x", "bug": "b", "ls": "yes", "repaired": 1})
    assert (a.id, a.ls, a.repaired, a.outcome, a.runtime_s) == ("1", None, None, None, None)


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(lines))
    return path


def test_iter_attempts(tmp_path: Path) -> None:
    good = json.dumps(LINE) + "\n"
    error = json.dumps({"id": "x/y", "agent": "x", "bug": "y", "error": "bad trajectory"})
    path = _write(tmp_path / "a.jsonl", [good, "\n", error + "\n", '{"id": "torn'])
    got = read_attempts(path)  # the torn last line of a killed run is skipped
    assert [a.id for a in got] == ["claude/chart-1", "x/y"]
    assert got[1].error == "bad trajectory"


def test_a_bad_line_before_the_end_is_an_error(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.jsonl", ["not json\n", json.dumps(LINE) + "\n"])
    with pytest.raises(HunkmetricsError, match=r"a\.jsonl:1: not a JSON line"):
        list(iter_attempts(path))
    other = _write(tmp_path / "b.jsonl", ['{"id": "r"}\n'])
    with pytest.raises(HunkmetricsError, match="not an attempt line"):
        list(iter_attempts(other))
    with pytest.raises(HunkmetricsError, match=r"missing\.jsonl: no such file \(attempts\)"):
        list(iter_attempts(tmp_path / "missing.jsonl"))


def test_read_bug_traits(tmp_path: Path) -> None:
    lines = [
        {
            "id": "Chart_14_patch",
            "error": None,
            "hunk_count": 3,
            "divergence": {"value": 0.42},
            "proximity": {"class": "Cluster"},
        },
        {"id": "Lang-7", "error": None, "hunk_count": 1, "divergence": {"value": None}},
        {"id": "Math_2", "error": "no hunks"},
    ]
    path = _write(tmp_path / "results.jsonl", [json.dumps(x) + "\n" for x in lines])
    traits = read_bug_traits(path)
    assert set(traits) == {"chart_14", "lang_7", "math_2"}
    c = traits["chart_14"]
    assert (c.bug, c.hunk_count, c.divergence, c.proximity) == ("Chart_14", 3, 0.42, "Cluster")
    assert (traits["lang_7"].divergence, traits["lang_7"].proximity) == (None, None)
    assert traits["math_2"].hunk_count is None
