"""`import_study` on a small made-up folder laid out like the study's results: every
file kind read, ids normalized, gaps reported, MAPLE runs as a condition."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema
import pytest

from hunkmetrics.agents.study import parse_attempt, summarize
from hunkmetrics.agents.study.importer import import_study
from hunkmetrics.documents.shapes import schema
from hunkmetrics.errors import HunkmetricsError

REPAIR = "bug_id,repair,failed_test_prior,failed_test_after,regression_reduction,compile_fail\n"
FILES = {
    "alpha_results/alpha_repair_ability.csv": REPAIR
    + "Chart_1,1,2,0,2,0\nChart-2,0,3,4,-1,0\nchart_3,0,1,0,undefined,1\n",
    # Chart_3 has no localization row.
    "alpha_results/alpha_localization_ability.csv": "bug_id,localization\nChart-1,1\nChart_2,0\n",
    # Chart_9 is in no repair file.
    "alpha_results/token_and_duration_alpha.csv": (
        "bug_id,total_input_token,total_output_token,cache_creation_tokens,"
        "cache_read_tokens,time_duration\n"
        "chart_1,10,5,20,70,12.5\nchart_2,1,2,3,4,8\nCHART-3,0,0,0,0,100\nChart_9,1,1,1,1,1\n"
    ),
    "alpha_results/tools_count_all_abstracted_alpha.csv": (
        "bug,READ,SEARCH_FILES,WRITE\nchart_1,2,1,1\nchart_2,1,0,0\nchart_3,0,0,0\n"
    ),
    "alpha_results/tools_count_all_alpha.csv": (
        "bug,Bash,Bash_file_operations,Bash_other,Edit,Read\n"
        "chart_1,1,1,0,1,1\nchart_2,0,0,0,0,1\nchart_3,0,0,0,0,0\n"
    ),
    "alpha_results/tools_count_detailed_alpha.csv": (
        "bug,tool,command,parsed_command,category\n"
        "chart_1,Read,,Read,READ\n"
        'chart_1,Bash,"ls -la | tail -1",ls,SEARCH_FILES\n'
        'chart_1,Bash,"ls -la | tail -1",tail,READ\n'
        "chart_1,Edit,,Edit,WRITE\n"
        "chart_2,Read,,Read,READ\n"
    ),
    "alpha_results/mcp-alpha/alpha_repair_ability.csv": REPAIR + "Chart_2,1,3,0,3,0\n",
    # Beta: a time column in milliseconds, no cache split, no other files.
    "beta/beta_repair_ability.csv": REPAIR + "Lang-1,1,1,0,1,0\nLang-2,0,1,1,0,0\n",
    "beta/token_and_duration_beta.csv": (
        "bug_id,input_token,output_token,time_duration\nLang_1,100,10,120000\nLang_2,300,30,240000\n"
    ),
    "beta/unrelated_notes.csv": "a,b\n1,2\n",
}


def _folder(root: Path, files: dict[str, str] = FILES) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


@pytest.fixture()
def imported(tmp_path: Path) -> tuple[dict[str, dict[str, Any]], list[str]]:
    result = import_study(_folder(tmp_path))
    validator = jsonschema.Draft202012Validator(schema("attempt"))
    for record in result.records:
        validator.validate(record)
    return {r["id"]: r for r in result.records}, result.warnings


def test_one_attempt_per_repair_row(imported: tuple[dict[str, dict[str, Any]], list[str]]) -> None:
    records, _ = imported
    assert list(records) == [
        "alpha/Chart_1",
        "alpha/Chart_2",
        "alpha/Chart_3",
        "beta/Lang_1",
        "beta/Lang_2",
        "alpha/maple/Chart_2",  # conditions after the plain runs
    ]
    assert records["alpha/maple/Chart_2"]["condition"] == "maple"
    assert records["alpha/Chart_1"]["condition"] is None
    assert {r["source"] for r in records.values()} == {"study-import"}


def test_outcome_columns(imported: tuple[dict[str, dict[str, Any]], list[str]]) -> None:
    records, _ = imported
    one, two, three = (records[f"alpha/Chart_{i}"] for i in (1, 2, 3))
    assert (one["ls"], one["compiled"], one["repaired"], one["regression_reduction"]) == (
        True,
        True,
        True,
        2,
    )
    assert (two["ls"], two["repaired"], two["regression_reduction"]) == (False, False, -1)
    # Chart_3 did not compile: RR undefined, no failing-after count; no localization row.
    assert (three["compiled"], three["regression_reduction"], three["ls"]) == (False, None, None)
    assert three["outcome"]["failing_after"] is None
    assert three["outcome"]["failing_before"] == 1


def test_tokens_and_runtime(imported: tuple[dict[str, dict[str, Any]], list[str]]) -> None:
    records, _ = imported
    t = records["alpha/Chart_1"]["tokens"]
    # New input 10 + cache creation 20 + cache read 70 = every prompt token.
    assert (t["input"], t["input_uncached"], t["cache_write"], t["cache_read"]) == (
        100,
        10,
        20,
        70,
    )
    assert (t["output"], t["total"]) == (5, 105)
    assert records["alpha/Chart_1"]["runtime"]["seconds"] == 12.5
    # Beta's median time is 180,000: milliseconds, so 120 s and 240 s.
    lang1 = records["beta/Lang_1"]
    assert lang1["runtime"]["seconds"] == 120.0
    assert "milliseconds" in lang1["runtime"]["source"]
    assert (lang1["tokens"]["input"], lang1["tokens"]["output"]) == (100, 10)
    # No token file for the MAPLE run: unknown, not zero.
    maple = records["alpha/maple/Chart_2"]
    assert maple["tokens"]["source"].startswith("none:")
    assert parse_attempt(maple).input_tokens is None
    assert maple["runtime"]["seconds"] is None


def test_actions_tools_and_sequence(imported: tuple[dict[str, dict[str, Any]], list[str]]) -> None:
    records, _ = imported
    one = records["alpha/Chart_1"]
    assert one["sequence"] == ["READ", "SEARCH_FILES", "READ", "WRITE"]
    assert one["actions"] == 4
    assert {c["category"]: c["actions"] for c in one["categories"]} == {
        "READ": 2,
        "SEARCH_FILES": 1,
        "WRITE": 1,
    }
    # Calls: Bash 1 (its kinds not counted again) + Edit 1 + Read 1.
    assert one["tool_calls"] == 3
    assert (one["unique_native_tools"], one["unique_shell_commands"]) == (
        ["Edit", "Read"],
        ["ls", "tail"],
    )
    # R S R W: one edit, never validated after.
    assert one["cycles"] == {"count": 0, "edits": 1, "validations": 0, "last_edit_validated": False}
    # Chart_3 has no per-action rows: no sequence.
    assert "sequence" not in records["alpha/Chart_3"]
    # Beta has no tool files: no actions.
    assert (records["beta/Lang_1"]["actions"], records["beta/Lang_1"]["categories"]) == (0, [])


def test_gaps_are_reported(imported: tuple[dict[str, dict[str, Any]], list[str]]) -> None:
    _, warnings = imported
    text = "\n".join(warnings)
    assert "alpha_localization_ability.csv: no row for 1 bugs of the repair file: Chart_3" in text
    assert "token_and_duration_alpha.csv: 1 bugs not in alpha_repair_ability.csv" in text
    assert "Chart_9" in text
    assert "tools_count_detailed_alpha.csv: no row for 1 bugs of the repair file: Chart_3" in text
    assert "beta: no categories file found" in text


def test_summary_of_the_import(tmp_path: Path) -> None:
    result = import_study(_folder(tmp_path))
    s = summarize(parse_attempt(r) for r in result.records)
    rows = {r.group: r for r in s.table2.rows}
    # Alpha: 3 bugs, LS 1 (Chart_3 unknown), compiled 2, RR 2 and −1 → 0.5, repaired 1.
    a = rows["alpha"]
    assert (a.bugs, a.ls.count, a.compiled.count, a.mean_rr, a.repaired.count) == (
        3,
        1,
        2,
        0.5,
        1,
    )
    assert rows["alpha [maple]"].repaired.count == 1
    # Table 7 knows alpha's shell commands (from the per-action table), not beta's.
    t7 = {r.group: r for r in s.table7.rows}
    assert t7["alpha"].shell_commands == ("ls", "tail")
    assert t7["beta"].shell_commands is None


def test_two_files_of_one_kind_are_an_error(tmp_path: Path) -> None:
    files = dict(FILES)
    files["elsewhere/alpha_repair_ability.csv"] = REPAIR
    with pytest.raises(HunkmetricsError, match="two repair files for alpha"):
        import_study(_folder(tmp_path, files))


def test_a_checkout_is_searched_under_hunk4j_results(tmp_path: Path) -> None:
    files = {f"hunk4j-results/results/{k}": v for k, v in FILES.items()}
    files["swe-bench/results/alpha_repair_ability.csv"] = REPAIR + "x_1,1,1,0,1,0\n"
    result = import_study(_folder(tmp_path, files))
    assert len(result.records) == 6


def test_no_repair_file(tmp_path: Path) -> None:
    (tmp_path / "token_and_duration_x.csv").write_text("bug_id,time_duration\nA_1,1\n")
    with pytest.raises(HunkmetricsError, match="no \\*_repair_ability"):
        import_study(tmp_path)
    with pytest.raises(HunkmetricsError, match="not a folder"):
        import_study(tmp_path / "nothing")
