"""The study's own per-bug results: feeding each row's inputs through hunkmetrics' metric
functions gives the row's values, and Table 2 follows. Skips when the data is absent."""

from __future__ import annotations

import csv
from pathlib import Path
from statistics import mean

import pytest

from hunkmetrics.agents.metrics import pooled_shares, regression_reduction, repaired

from .fixture_paths import STUDY

RESULTS = STUDY / "hunk4j-results" / "results"
AGENTS = {
    "claude": "claude_code_results/claude_results/claude_{}.csv",
    "codex": "openai_codex_results/results-codex/codex_{}.csv",
    "gemini": "gemini_cli_results/gemini_{}.csv",
    "qwen": "qwen_code_results/qwen_results/qwen_{}.csv",
}
MCP = {
    "gemini-mcp": "gemini_cli_results/mcp-gemini/gemini_repair_ability_mcp.csv",
    "qwen-mcp": "qwen_code_results/qwen_results/mcp-qwen-code/qwen_repair_ability.csv",
}
# Rows whose repair flag the study's own counts cannot give: Closure_110 (Gemini, with and
# without MAPLE) and Jsoup_21 (Qwen with MAPLE) compiled with no failing test after, yet
# are not repaired — consistent with Eq. 5 only if the patch was empty, which the CSV does
# not record; Lang_62 (Gemini with MAPLE) is marked repaired with one failing test left.
NOT_FROM_COUNTS = {
    ("gemini", "Closure_110"): "repair 0 with 0 failing after",
    ("gemini-mcp", "Closure_110"): "repair 0 with 0 failing after",
    ("qwen-mcp", "Jsoup_21"): "repair 0 with 0 failing after",
    ("gemini-mcp", "Lang_62"): "repair 1 with 1 failing after",
}
# Table 2 of the paper: LS, compiled, mean RR over compiled attempts, repaired.
TABLE_2 = {
    "claude": (238, 372, 2.47, 347),
    "codex": (279, 367, 2.25, 324),
    "gemini": (173, 347, -1.92, 155),
    "qwen": (142, 364, -1.34, 96),
}


def _rows(path: Path) -> list[dict[str, str]]:
    if not path.exists():
        pytest.skip(f"the study's results are not here ({path})")
    with path.open(newline="", encoding="utf-8-sig") as handle:
        return [
            {k.strip(): (v or "").strip() for k, v in row.items()} for row in csv.DictReader(handle)
        ]


def _inputs(row: dict[str, str]) -> tuple[bool, int, int]:
    return row["compile_fail"] != "1", int(row["failed_test_prior"]), int(row["failed_test_after"])


ALL = {agent: pattern.format("repair_ability") for agent, pattern in AGENTS.items()} | MCP


@pytest.mark.parametrize("agent", sorted(ALL))
def test_rr_and_repair_reproduce_every_row(agent: str) -> None:
    rows = _rows(RESULTS / ALL[agent])
    assert rows
    mismatched = []
    for row in rows:
        compiled, before, after = _inputs(row)
        rr = regression_reduction(compiled, before, after)
        expected_rr = (
            None if row["regression_reduction"] == "undefined" else int(row["regression_reduction"])
        )
        assert rr == expected_rr, row
        # The CSV does not say whether the patch was empty: every row takes it as non-empty.
        if repaired(True, compiled, after) != (row["repair"] == "1"):
            mismatched.append(row["bug_id"])
    assert {(agent, bug) for bug in mismatched} == {k for k in NOT_FROM_COUNTS if k[0] == agent}


@pytest.mark.parametrize("agent", sorted(TABLE_2))
def test_table_2_follows(agent: str) -> None:
    rows = _rows(RESULTS / AGENTS[agent].format("repair_ability"))
    loc = _rows(RESULTS / AGENTS[agent].format("localization_ability"))
    compiled = [r for r in rows if _inputs(r)[0]]
    rrs = [regression_reduction(*_inputs(r)) for r in compiled]
    ls, n_compiled, mean_rr, n_repaired = TABLE_2[agent]
    assert len(rows) == len(loc) == 372
    assert sum(r["localization"] == "1" for r in loc) == ls
    assert len(compiled) == n_compiled
    assert round(mean(rr for rr in rrs if rr is not None), 2) == mean_rr
    assert sum(r["repair"] == "1" for r in rows) == n_repaired


# Per bug, the actions in each of the study's categories (only Claude Code and Codex).
ABSTRACTED = {
    "claude": "claude_code_results/claude_results/tools_count_all_abstracted_claude.csv",
    "codex": "openai_codex_results/results-codex/tools_count_all_abstracted_codex.csv",
}
# Table 8 of the paper: category shares (%) of passing vs failing attempts.
TABLE_8 = {
    "claude": {"WRITE": (22.1, 17.3), "SEARCH_CONTENT": (8.9, 13.9)},
    "codex": {"WRITE": (44.6, 41.4), "BUILD": (6.1, 10.2)},
}


def _bug(bug: str) -> str:
    return bug.strip().lower().replace("-", "_")


@pytest.mark.parametrize("agent", sorted(TABLE_8))
def test_table_8_follows_from_pooled_shares(agent: str) -> None:
    counts = _rows(RESULTS / ABSTRACTED[agent])
    repair = {
        _bug(r["bug_id"]): r["repair"] == "1"
        for r in _rows(RESULTS / AGENTS[agent].format("repair_ability"))
    }
    groups: dict[bool, list[dict[str, int]]] = {True: [], False: []}
    for row in counts:
        groups[repair[_bug(row["bug"])]].append({k: int(v) for k, v in row.items() if k != "bug"})
    passing, failing = pooled_shares(groups[True]), pooled_shares(groups[False])
    for category, (yes, no) in TABLE_8[agent].items():
        assert round(100 * passing[category], 1) == yes
        assert round(100 * failing[category], 1) == no


def test_a_real_swe_agent_run_against_its_own_submission(tmp_path: Path) -> None:
    """pydicom-1458 (SWE-agent, GPT-4): its submission changes numpy_handler.py lines
    285-293; the agent opened the file at action 4 and ran `edit 287:295` at action 5."""
    from hunkmetrics.agents.batch import evaluate_runs, read_references
    from hunkmetrics.agents.evaluate import Settings

    traj = STUDY / "trajectories" / "swe-agent" / "pydicom__pydicom-1458.traj"
    if not traj.exists():
        pytest.skip(f"{traj} is not here")
    import json

    dev = tmp_path / "dev"
    dev.mkdir()
    (dev / "pydicom-1458.diff").write_text(json.loads(traj.read_text())["info"]["submission"])
    runs = tmp_path / "runs.csv"
    runs.write_text(f"agent,bug,trajectory\nswe-agent,pydicom-1458,{traj}\n")
    out = tmp_path / "a.jsonl"
    evaluate_runs(runs, read_references(dev), Settings(), out=out)
    record = json.loads(out.read_text())
    assert record["patch"]["source"].startswith("trajectory")
    assert record["localization"]["file_superset"] is True
    (hunk,) = record["hunks"]
    assert hunk["read_file"] == {"action": 4, "at_s": None}  # no per-step times in .traj
    assert hunk["edited"] == {"action": 5, "at_s": None}
    assert hunk["edit_match"] == "range"
