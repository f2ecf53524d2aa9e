"""The `agents` commands end to end: evaluate (directory and manifest layouts, resume,
two jobs, schema), actions and export."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema
from typer.testing import CliRunner

from hunkmetrics.cli.app import app
from hunkmetrics.documents.shapes import schema

from .fixture_paths import FIXTURES, ROOT

EVAL = FIXTURES / "evaluate"
runner = CliRunner()


def _invoke(*args: str) -> Any:
    return runner.invoke(app, list(args))


def _lines(path: Path) -> dict[str, dict[str, Any]]:
    records = [json.loads(line) for line in path.read_text().splitlines()]
    validator = jsonschema.Draft202012Validator(schema("attempt"))
    for record in records:
        validator.validate(record)
    return {r["id"]: r for r in records}


def test_evaluate_a_runs_directory(tmp_path: Path) -> None:
    out = tmp_path / "attempts.jsonl"
    result = _invoke(
        "agents",
        "evaluate",
        str(EVAL / "runs"),
        "--reference",
        str(EVAL / "dev"),
        "--out",
        str(out),
    )
    assert result.exit_code == 0, result.output
    records = _lines(out)
    assert sorted(records) == ["claude/Chart-1", "codex/Chart-1", "qwen/Chart-1"]

    claude = records["claude/Chart-1"]
    # Before: 2 failing tests; after: 0. The patch changes Foo.java (the developer's only
    # file) and adds scratch/Repro.java.
    assert (claude["compiled"], claude["repaired"], claude["regression_reduction"]) == (
        True,
        True,
        2,
    )
    assert claude["ls"] is True
    assert claude["patch"]["source"].startswith("file: ")
    assert claude["localization"]["extra_files"] == ["scratch/Repro.java"]
    assert (claude["tool_calls"], claude["actions"]) == (8, 10)
    # Session starts 13:00:00; Read of Foo.java at 13:00:25 (action 3, whole file, so the
    # method too); the Edit replacing `if (x > 0)` at 13:01:10 (action 7).
    (hunk,) = claude["hunks"]
    assert hunk["read_file"] == {"action": 3, "at_s": 25.0}
    assert hunk["read_method"] == {"action": 3, "at_s": 25.0}
    assert hunk["edited"] == {"action": 7, "at_s": 70.0}
    assert hunk["edit_match"] == "text"
    # Edit (7) then `defects4j test` (9): one cycle, and the last edit was validated.
    assert claude["cycles"] == {
        "count": 1,
        "edits": 1,
        "validations": 2,
        "last_edit_validated": True,
    }
    # usage counted once per message.id; input includes cache reads and writes.
    tokens = claude["tokens"]
    assert (
        tokens["input"] == tokens["input_uncached"] + tokens["cache_read"] + tokens["cache_write"]
    )
    assert tokens["total"] == tokens["input"] + tokens["output"]

    codex = records["codex/Chart-1"]
    # defects4j reported a compile failure and the rollout has no patch.
    assert (codex["compiled"], codex["repaired"], codex["regression_reduction"], codex["ls"]) == (
        False,
        False,
        None,
        False,
    )
    assert codex["patch"] == {
        "source": "none",
        "empty": True,
        "files": [],
        "error": None,
        "touches": None,
    }
    # The developer patch: one hunk, so
    # Div = ln(1) * mean = 0, and proximity classes multi-hunk patches only: no class.
    assert claude["reference_traits"] == {
        "profile": "default",
        "hunk_count": 1,
        "divergence": 0.0,
        "proximity": None,
    }
    # Both Java files of claude's patch are source: neither is under a test directory.
    assert claude["patch"]["touches"] == {
        "source": ["source/org/jfree/chart/Foo.java", "scratch/Repro.java"],
        "tests": [],
        "other": [],
    }

    assert records["qwen/Chart-1"]["error"].endswith("malformed or truncated JSON: Expecting value")
    assert "1 of 3 runs could not be evaluated" in result.stderr


def test_evaluate_resumes_and_runs_in_parallel(tmp_path: Path) -> None:
    out = tmp_path / "a.jsonl"
    ref = str(EVAL / "dev")
    first = _invoke(
        "agents",
        "evaluate",
        str(EVAL / "runs"),
        "--reference",
        ref,
        "--out",
        str(out),
        "--jobs",
        "2",
    )
    assert first.exit_code == 0, first.output
    lines = out.read_text().splitlines()
    # A killed run leaves a torn last line; --resume cuts it and redoes only that run.
    out.write_text("\n".join(lines[:2]) + "\n" + lines[2][:40])
    again = _invoke(
        "agents", "evaluate", str(EVAL / "runs"), "--reference", ref, "--out", str(out), "--resume"
    )
    assert again.exit_code == 0, again.output
    assert "2 runs already in" in again.stderr
    assert len(_lines(out)) == 3
    refused = _invoke(
        "agents", "evaluate", str(EVAL / "runs"), "--reference", ref, "--out", str(out)
    )
    assert refused.exit_code == 2
    assert "--resume" in refused.stderr


def test_evaluate_a_manifest_with_outcome_columns(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    result = _invoke(
        "agents",
        "evaluate",
        str(EVAL / "manifest.csv"),
        "--reference",
        str(EVAL / "dev"),
        "--out",
        str(out),
    )
    assert result.exit_code == 0, result.output
    records = _lines(out)
    claude = records["claude/chart_1"]  # chart_1 finds the developer's Chart-1.diff
    assert claude["reference"] == "Chart-1"
    # Columns: compiled 1, failing before 2, after 1 → RR 1, not repaired.
    assert (claude["regression_reduction"], claude["repaired"], claude["ls"]) == (1, False, True)
    mini = records["mini/Chart-1"]
    # mini-swe-agent's own submission is the patch; it did not compile.
    assert mini["patch"]["source"].startswith("trajectory")
    assert (mini["compiled"], mini["regression_reduction"]) == (False, None)


def test_evaluate_input_errors_are_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "runs.csv"
    bad.write_text("agent,bug\nx,y\n")
    result = _invoke("agents", "evaluate", str(bad), "--reference", str(EVAL / "dev"))
    assert result.exit_code == 2
    assert result.stderr.strip().count("\n") == 0
    assert "needs the columns agent,bug,trajectory" in result.stderr


def test_evaluate_given_one_trajectory_says_what_runs_are(tmp_path: Path) -> None:
    """A JSON file that is no harness's output (here one Claude Code session) was read as
    a CSV manifest: "needs the columns agent,bug,trajectory (missing agent, bug,
    trajectory)", as if a column were missing."""
    session = next((FIXTURES / "claude").glob("*.jsonl"))
    result = _invoke("agents", "evaluate", str(session), "--out", str(tmp_path / "a.jsonl"))
    assert result.exit_code == 2, result.output
    assert result.stderr.strip().count("\n") == 0
    assert f"{session}: JSON, but not runs hunkmetrics reads: give a runs manifest" in (
        result.stderr
    )
    assert "(one trajectory alone: `agents actions`)" in result.stderr
    assert not (tmp_path / "a.jsonl").exists()


def test_one_bad_run_is_its_own_error_line_and_the_others_go_on(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    shutil.copytree(EVAL / "runs" / "claude", runs / "claude")
    twice = runs / "a" / "Chart-1"
    twice.mkdir(parents=True)
    (twice / "x.jsonl").write_text("")
    (twice / "y.jsonl").write_text("")
    (runs / "b" / "Chart-1").mkdir(parents=True)  # no trajectory at all
    out = tmp_path / "a.jsonl"
    result = _invoke(
        "agents", "evaluate", str(runs), "--reference", str(EVAL / "dev"), "--out", str(out)
    )
    assert result.exit_code == 0, result.output
    records = {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert set(records) == {"a/Chart-1", "b/Chart-1", "claude/Chart-1"}
    assert records["claude/Chart-1"]["error"] is None
    assert records["a/Chart-1"]["error"] == (
        f"{twice}: expected one trajectory (or one named trajectory*), found x.jsonl, y.jsonl"
    )
    assert records["b/Chart-1"]["error"].endswith(
        "expected one trajectory (or one named trajectory*), found nothing"
    )
    assert "2 of 3 runs could not be evaluated" in result.stderr
    # A manifest row naming a missing trajectory: that row's line, not a stop.
    manifest = tmp_path / "runs.csv"
    manifest.write_text(
        "agent,bug,trajectory\n"
        f"claude,Chart-1,{EVAL / 'runs' / 'claude' / 'Chart-1' / 'trajectory.jsonl'}\n"
        "ghost,Chart-1,gone.jsonl\n"
    )
    result = _invoke("agents", "evaluate", str(manifest), "--reference", str(EVAL / "dev"))
    assert result.exit_code == 0, result.output
    lines = {r["id"]: r for r in map(json.loads, result.stdout.splitlines())}
    assert lines["claude/Chart-1"]["error"] is None
    assert lines["ghost/Chart-1"]["error"] == f"{manifest}:3: trajectory gone.jsonl: no such file"


def test_actions_json_csv_and_table(tmp_path: Path) -> None:
    traj = FIXTURES / "claude" / "session.jsonl"
    as_json = _invoke("agents", "actions", str(traj), "--format", "json")
    assert as_json.exit_code == 0, as_json.output
    rows = json.loads(as_json.stdout)
    assert len(rows) == 10
    assert (rows[1]["command"], rows[1]["category"], rows[1]["rule"]) == (
        "defects4j compile 2>&1",  # a command's text keeps its own redirections
        "BUILD",
        "semantic:defects4j-compile",
    )
    paper = json.loads(
        _invoke("agents", "actions", str(traj), "-f", "json", "--profile", "paper").stdout
    )
    assert paper[8]["tool"] == "TodoWrite" and paper[8]["category"] == "WRITE"  # the study's quirk
    as_csv = _invoke("agents", "actions", str(traj), "--format", "csv").stdout.splitlines()
    assert as_csv[0] == "index,call,time,tool,command,category,rule,paths"
    assert len(as_csv) == 11
    # A path with Rich markup in it is printed as is, not styled.
    odd = tmp_path / "odd.jsonl"
    odd.write_text(traj.read_text().replace("Foo.java", "[red]Foo[/red].java"))
    table = runner.invoke(app, ["agents", "actions", str(odd)], env={"COLUMNS": "300"})
    assert table.exit_code == 0, table.output
    assert "/w/chart_1/source/org/jfree/chart/[red]Foo[/red].java" in table.stdout
    assert "U_a: " in table.stdout


def test_actions_errors_and_export() -> None:
    missing = _invoke("agents", "actions", str(FIXTURES / "nope.jsonl"))
    assert missing.exit_code == 2 and "no such file" in missing.stderr
    broken = _invoke("agents", "actions", str(FIXTURES / "broken" / "unknown.json"))
    assert broken.exit_code == 2
    exported = _invoke(
        "agents", "export", str(FIXTURES / "codex" / "envelope.jsonl"), "--format", "atif"
    )
    assert exported.exit_code == 0, exported.output
    doc = json.loads(exported.stdout)
    assert doc["schema_version"].startswith("ATIF-v")
    assert doc["session_id"] == "c-env-1"


def test_docs_cli_lists_the_agents_command() -> None:
    assert "agents" in (ROOT / "docs" / "cli.md").read_text()


def test_evaluate_paper_tokens_to_stdout(tmp_path: Path) -> None:
    manifest = tmp_path / "runs.csv"
    traj = FIXTURES / "claude" / "session.jsonl"
    manifest.write_text(f"agent,bug,trajectory\nclaude,Chart-1,{traj}\n")
    dev = str(EVAL / "dev")
    once = _invoke("agents", "evaluate", str(manifest), "--reference", dev)
    every = _invoke("agents", "evaluate", str(manifest), "--reference", dev, "--paper-tokens")
    assert once.exit_code == every.exit_code == 0, once.output
    a, b = json.loads(once.stdout)["tokens"], json.loads(every.stdout)["tokens"]
    # msg_1 (4 + 800 + 20,000 + 50) and msg_2 (6 + 100 + 20,800 + 40) are each written on two
    # lines; the study's way counts them twice.
    assert b["total"] - a["total"] == 20854 + 20946
    assert json.loads(every.stdout)["config"]["dedupe_usage"] is False
    # No outcome given: compiled, repaired, RR and LS are unknown, not false.
    record = json.loads(once.stdout)
    assert (
        record["compiled"],
        record["repaired"],
        record["regression_reduction"],
        record["ls"],
    ) == (
        None,
        None,
        None,
        None,
    )


def test_evaluate_with_sources_gives_method_recall_and_spans(tmp_path: Path) -> None:
    out = tmp_path / "s.jsonl"
    tree = str(EVAL / "tree")  # Foo.java before the fix: draw(int) spans lines 10-17
    args = ["--reference", str(EVAL / "dev"), "--repo", tree, "--out", str(out)]
    result = _invoke("agents", "evaluate", str(EVAL / "runs"), *args)
    assert result.exit_code == 0, result.output
    claude = _lines(out)["claude/Chart-1"]
    method = "source/org/jfree/chart/Foo.java::org.jfree.chart.Foo.draw(int)"
    assert claude["localization"]["reference_methods"] == [method]
    assert claude["localization"]["method_recall"] == 1.0
    assert claude["hunks"][0]["read_method"] == {"action": 3, "at_s": 25.0}


def test_an_agent_patch_that_does_not_match_the_sources_is_read_alone(tmp_path: Path) -> None:
    out = tmp_path / "mm.jsonl"
    args = ["--reference", str(EVAL / "dev"), "--repo", str(EVAL / "tree"), "--out", str(out)]
    result = _invoke("agents", "evaluate", str(EVAL / "mismatched.csv"), *args)
    assert result.exit_code == 0, result.output
    record = _lines(out)["claude/Chart-1"]
    assert record["error"] is None
    # Its hunk (pre-image lines 13-15) still overlaps the developer's changed line 13.
    assert record["localization"]["hunk_recall"] == 1.0
    assert record["localization"]["method_recall_reason"] == "needs sources for the candidate too"
    assert any(w.startswith("agent patch read without sources") for w in record["warnings"])


def test_a_harness_runtime_column_replaces_the_trajectory_runtime(tmp_path: Path) -> None:
    traj = FIXTURES / "claude" / "session.jsonl"
    manifest = tmp_path / "runs.csv"
    manifest.write_text(f"agent,bug,trajectory,runtime_s\nclaude,Chart-1,{traj},345.5\n")
    result = _invoke("agents", "evaluate", str(manifest), "--reference", str(EVAL / "dev"))
    assert result.exit_code == 0, result.output
    runtime = json.loads(result.stdout)["runtime"]
    assert runtime["seconds"] == 345.5
    assert runtime["source"] == "harness: manifest column runtime_s"
    manifest.write_text(f"agent,bug,trajectory,runtime_s\nclaude,Chart-1,{traj},soon\n")
    bad = json.loads(
        _invoke("agents", "evaluate", str(manifest), "--reference", str(EVAL / "dev")).stdout
    )
    assert bad["error"] == "column runtime_s: 'soon' is not a number"


def test_exclude_tests_leaves_test_files_out(tmp_path: Path) -> None:
    # The agent's patch adds a test file besides fixing Foo.java; with --include-tests it
    # is an extra file, by default (--exclude-tests, as in every command) it is not.
    run = tmp_path / "runs" / "claude" / "Chart-1"
    run.mkdir(parents=True)
    shutil.copy(FIXTURES / "claude" / "session.jsonl", run / "trajectory.jsonl")
    fix = (EVAL / "dev" / "Chart-1.diff").read_text()
    added = (
        "diff --git a/tests/org/jfree/chart/FooTest.java b/tests/org/jfree/chart/FooTest.java\n"
        "new file mode 100644\n--- /dev/null\n+++ b/tests/org/jfree/chart/FooTest.java\n"
        "@@ -0,0 +1 @@\n+class FooTest {}\n"
    )
    (run / "patch.diff").write_text(fix + added)
    ref = ["--reference", str(EVAL / "dev")]
    runs = str(tmp_path / "runs")
    plain = json.loads(_invoke("agents", "evaluate", runs, *ref, "--include-tests").stdout)
    assert plain["localization"]["extra_files"] == ["tests/org/jfree/chart/FooTest.java"]
    assert plain["config"]["exclude_tests"] is False
    out = _invoke("agents", "evaluate", runs, *ref).stdout
    excluded = json.loads(out)
    assert excluded["localization"]["extra_files"] == []
    assert excluded["config"]["exclude_tests"] is True


def test_resume_needs_an_out_file() -> None:
    result = _invoke(
        "agents", "evaluate", str(EVAL / "runs"), "--reference", str(EVAL / "dev"), "--resume"
    )
    assert result.exit_code == 2
    assert "--resume continues an --out file" in result.stderr
