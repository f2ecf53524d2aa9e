"""A trajectory cut anywhere (a run killed mid-write) or fed odd JSON never crashes a reader:
it is read up to the cut, with a warning, or refused with a `TrajectoryError`."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("tree_sitter_bash")

from hunkmetrics.agents import TrajectoryError, read_trajectories, read_trajectory  # noqa: E402
from hunkmetrics.agents.atif import dumps  # noqa: E402

from .fixture_paths import FIXTURES  # noqa: E402

CUT = [
    "claude/session.jsonl",
    "claude/stream.jsonl",
    "codex/legacy.jsonl",
    "codex/envelope.jsonl",
    "gemini/telemetry.json",
    "qwen/telemetry.json",
    "gemini/chat.jsonl",
    "qwen/chat.jsonl",
    "openhands/output.jsonl",
    "atif/trajectory.json",
    "mini-swe-agent/v2.traj.json",
]


def calls_of(path: Path, fmt: str | None = None) -> list[tuple[str, str | None, str | None]]:
    calls = []
    for attempt in read_trajectories(path, fmt):
        calls += [(c.tool_name, c.call_id, c.shell) for c in attempt.calls]
    return calls


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CUT), st.floats(min_value=0.0, max_value=1.0))
def test_a_cut_file_reads_a_prefix_or_is_refused(relative, fraction):
    source = FIXTURES / relative
    data = source.read_bytes()
    cut = data[: int(len(data) * fraction)]
    full = calls_of(source)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / source.name
        path.write_bytes(cut)
        try:
            got = calls_of(path)
        except TrajectoryError as exc:
            assert str(path) in str(exc)
            return
    # the gemini chat recording rewrites a message: its first version may be the one cut
    assert got == full[: len(got)] or relative == "gemini/chat.jsonl"
    assert len(got) <= len(full)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
KEYS = ["type", "message", "payload", "attributes", "content", "role", "tool_calls", "id"]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["claude_session", "codex_rollout", "qwen_chat", "gemini_chat"]),
    st.lists(
        st.dictionaries(st.sampled_from(KEYS), json_values, max_size=5), min_size=1, max_size=5
    ),
)
def test_odd_records_never_crash_a_line_reader(fmt, records):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "odd.jsonl"
        path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
        with contextlib.suppress(TrajectoryError):
            read_trajectory(path, format=fmt)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["swe_agent", "mini_swe_agent", "atif", "claude_json", "gemini_telemetry"]),
    st.dictionaries(
        st.sampled_from(
            ["trajectory", "messages", "steps", "info", "schema_version", "attributes"]
        ),
        json_values,
        max_size=4,
    ),
)
def test_odd_documents_never_crash_a_document_reader(fmt, doc):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "odd.json"
        path.write_text(json.dumps(doc))
        with contextlib.suppress(TrajectoryError):
            read_trajectory(path, format=fmt)


def test_local_real_samples():
    """Real trajectories kept outside the repository (HUNKMETRICS_AGENT_SAMPLES, a folder of
    files in any supported format) all read, and export to ATIF and back to the same calls."""
    folder = os.environ.get("HUNKMETRICS_AGENT_SAMPLES")
    if not folder:
        pytest.skip("HUNKMETRICS_AGENT_SAMPLES is not set")
    files = sorted(p for p in Path(folder).iterdir() if p.is_file() and p.stat().st_size)
    assert files
    for path in files:
        for attempt in read_trajectories(path):
            with tempfile.TemporaryDirectory() as tmp:
                out = Path(tmp) / "t.json"
                out.write_text(dumps(attempt))
                back = read_trajectory(out)
            assert [(c.tool_name, c.shell) for c in back.calls] == [
                (c.tool_name, c.shell) for c in attempt.calls
            ], path


def test_json_nested_hundreds_of_levels_is_bad_input(tmp_path: Path) -> None:
    deep: list[object] = []
    inner = deep
    for _ in range(600):
        inner.append([])
        inner = inner[0]  # type: ignore[assignment]
    line = {
        "type": "assistant",
        "uuid": "u1",
        "timestamp": "2025-01-01T00:00:00Z",
        "sessionId": "s",
        "message": {
            "id": "m",
            "role": "assistant",
            "model": "claude",
            "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"x": deep}}],
        },
    }
    path = tmp_path / "deep.jsonl"
    path.write_text(json.dumps(line) + "\n")
    with pytest.raises(TrajectoryError, match="nested too deeply"):
        read_trajectory(path)


def test_a_swe_agent_action_of_megabytes_is_read(tmp_path: Path) -> None:
    # shlex read such a line in quadratic time (2 MB: 35 s); a shell command is parsed
    # whole, and a bundle command line that long is split on white space.
    shell = "echo " + "x" * 2_000_000
    bundle = "create " + "a " * 100_000
    path = tmp_path / "big.traj"
    path.write_text(
        json.dumps(
            {
                "trajectory": [
                    {"action": shell, "observation": "", "thought": ""},
                    {"action": bundle, "observation": "", "thought": ""},
                ],
                "history": [],
                "info": {},
            }
        )
    )
    attempt = read_trajectory(path, "swe_agent")
    assert [c.tool_name for c in attempt.calls] == ["bash", "create"]
    assert attempt.calls[1].arguments["filename"] == "a"
    assert len(attempt.calls[1].arguments["argv"]) == 100_000


def _with_raw_separators(value: object, key: str = "") -> object:
    """The free texts of a JSON value (`text`, `content`, `output`) with U+2028, U+2029
    and U+0085 added, as Node's JSON.stringify and serde_json write them: raw."""
    if isinstance(value, str):
        return value + "\u2028\u2029\u0085" if key in ("text", "content", "output") else value
    if isinstance(value, list):
        return [_with_raw_separators(v, key) for v in value]
    if isinstance(value, dict):
        return {k: _with_raw_separators(v, k) for k, v in value.items()}
    return value


@pytest.mark.parametrize("relative", ["claude/session.jsonl", "codex/envelope.jsonl"])
def test_line_separators_inside_json_strings_do_not_end_a_line(
    relative: str, tmp_path: Path
) -> None:
    """JSON Lines end at "\\n" only: U+2028 (which Node writes raw in a pasted text) ended
    a line too, and the session was refused ("not a JSON line") or, at its end, cut."""
    source = FIXTURES / relative
    if not source.exists():
        pytest.skip(f"{relative} is not among the fixtures")
    lines = [line for line in source.read_text(encoding="utf-8").split("\n") if line.strip()]
    changed = tmp_path / source.name
    changed.write_text(
        "\n".join(
            json.dumps(_with_raw_separators(json.loads(line)), ensure_ascii=False) for line in lines
        )
        + "\n",
        encoding="utf-8",
    )
    assert "\u2028" in changed.read_text(encoding="utf-8")
    before, after = read_trajectory(source), read_trajectory(changed)
    assert after.warnings == before.warnings
    assert [a.tool_name for a in after.actions] == [a.tool_name for a in before.actions]
    assert len(after.actions) == len(before.actions) > 0


@pytest.mark.parametrize(
    "relative", ["claude/session.jsonl", "codex/envelope.jsonl", "gemini/telemetry.json"]
)
def test_a_utf8_byte_order_mark_is_ignored(relative: str, tmp_path: Path) -> None:
    """A trajectory saved with a BOM (Windows PowerShell's `Out-File -Encoding utf8`)
    was refused: "malformed or truncated JSON: Expecting value"."""
    source = FIXTURES / relative
    if not source.exists():
        pytest.skip(f"{relative} is not among the fixtures")
    marked = tmp_path / source.name
    marked.write_bytes(b"\xef\xbb\xbf" + source.read_bytes())
    before, after = read_trajectory(source), read_trajectory(marked)
    assert after.source_format == before.source_format
    assert after.warnings == before.warnings
    assert [a.command for a in after.actions] == [a.command for a in before.actions]
    assert len(after.actions) == len(before.actions) > 0
