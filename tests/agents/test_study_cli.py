"""`agents import-study` and `agents summary` end to end on a small made-up folder."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hunkmetrics.cli.app import app

from .fixture_paths import ROOT
from .test_study_import import _folder

runner = CliRunner()


def _invoke(*args: str) -> Any:
    return runner.invoke(app, list(args))


def _imported(tmp_path: Path) -> Path:
    out = tmp_path / "attempts.jsonl"
    result = _invoke("agents", "import-study", str(_folder(tmp_path / "study")), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "6 attempts of 3 agents written" in result.output
    assert "no row for 1 bugs of the repair file: Chart_3" in result.output
    return out


def test_import_study_writes_lines_and_never_overwrites(tmp_path: Path) -> None:
    out = _imported(tmp_path)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in lines][:2] == ["alpha/Chart_1", "alpha/Chart_2"]
    again = _invoke("agents", "import-study", str(tmp_path / "study"), "--out", str(out))
    assert again.exit_code == 2
    assert "exists" in again.output


def test_import_study_to_stdout(tmp_path: Path) -> None:
    result = _invoke("agents", "import-study", str(_folder(tmp_path)))
    assert result.exit_code == 0
    ids = [json.loads(x)["id"] for x in result.stdout.splitlines() if x.startswith("{")]
    assert len(ids) == 6


def test_summary_json(tmp_path: Path) -> None:
    out = _imported(tmp_path)
    result = _invoke("agents", "summary", str(out), "--format", "json", "--seed", "3")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["settings"]["bootstrap_seed"] == 3
    assert doc["attempts"] == 6
    t2 = {row["agent"]: row for row in doc["tables"]["table2"]["rows"]}
    # Alpha: LS 1 of 3, compiled 2, RR 2 and −1, repaired 1.
    assert (t2["alpha"]["ls"], t2["alpha"]["compiled"], t2["alpha"]["mean_rr"]) == (1, 2, 0.5)
    assert t2["alpha"]["repaired_rate"] == 1 / 3
    assert "table9" in doc["tables"]


def test_summary_csv_of_one_table(tmp_path: Path) -> None:
    out = _imported(tmp_path)
    result = _invoke("agents", "summary", str(out), "-f", "csv", "--table", "table6")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    by = {r["agent"]: r for r in rows}
    # Alpha: Chart_1 passing (12.5 s); Chart_2, Chart_3 failing (8 s, 100 s) → 54 s.
    assert (by["alpha"]["passing_mean_s"], by["alpha"]["failing_mean_s"]) == ("12.5", "54.0")
    # Beta: 120 s passing, 240 s failing; MAPLE's run has no runtime.
    assert by["alpha [maple]"]["passing_mean_s"] == ""
    assert by["average of 2 agents"]["passing_mean_s"] == str((12.5 + 120.0) / 2)


def test_summary_min_runtime(tmp_path: Path) -> None:
    out = _imported(tmp_path)
    result = _invoke(
        "agents", "summary", str(out), "-f", "csv", "--table", "table6", "--min-runtime", "10"
    )
    by = {r["agent"]: r for r in csv.DictReader(io.StringIO(result.stdout))}
    assert by["alpha"]["failing_mean_s"] == "100.0"  # Chart_2's 8 s left out


@pytest.mark.parametrize(
    ("option", "value"),
    [("--min-runtime", "nan"), ("--reward-threshold", "nan"), ("--reward-threshold", "inf")],
)
def test_summary_refuses_a_number_that_is_not_finite(
    option: str, value: str, tmp_path: Path
) -> None:
    """NaN compares false with everything: as a minimum runtime it left nothing out, as a
    reward threshold it made every scored run unrepaired, silently."""
    out = _imported(tmp_path)
    result = _invoke("agents", "summary", str(out), option, value)
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '{option}': {value} is not a finite number" in result.output


def test_summary_refuses_a_negative_seed(tmp_path: Path) -> None:
    """numpy's generator takes no negative seed: it was an internal error (exit 1)."""
    out = _imported(tmp_path)
    result = _invoke("agents", "summary", str(out), "--seed", "-1")
    assert result.exit_code == 2, result.output
    assert "Invalid value for '--seed': -1 is not in the range x>=0" in result.output


def test_summary_given_a_trajectory_says_where_attempt_lines_come_from() -> None:
    session = ROOT / "fixtures" / "agents" / "claude" / "session.jsonl"
    result = _invoke("agents", "summary", str(session))
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == (
        f"hunkmetrics: error: {session}:1: not an attempt line (no id or agent): attempt "
        "lines are what `agents evaluate` and `agents import-study` write (one trajectory: "
        "`agents actions`)"
    )


def test_summary_markdown_and_table(tmp_path: Path) -> None:
    out = _imported(tmp_path)
    md = _invoke("agents", "summary", str(out), "-f", "markdown")
    assert md.exit_code == 0, md.output
    assert "### Table 2: effectiveness per agent" in md.stdout
    # LS: 1 of the 2 attempts whose LS is known (Chart_3's is not in the files): an
    # unknown is left out of the rate, not counted as a failure.
    assert "| alpha | 3 | 1 · 50.0 % [" in md.stdout
    assert "| 1 · 33.3 % [0.0, 100.0] |\n" in md.stdout  # repaired: 1 of 3
    table = _invoke("agents", "summary", str(out))
    assert table.exit_code == 0, table.output
    assert "Table 8: category shares of actions" in table.stdout
    assert "6 attempts, 3 agents" in table.stdout


def test_summary_per_bug_only_when_asked(tmp_path: Path) -> None:
    out = _imported(tmp_path)
    doc = json.loads(_invoke("agents", "summary", str(out), "-f", "json").stdout)
    assert "per_bug" not in doc["tables"]
    result = _invoke("agents", "summary", str(out), "-f", "csv", "--table", "per_bug")
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [(r["bug"], r["agent"]) for r in rows][:3] == [
        ("Chart_1", "alpha"),
        ("Chart_2", "alpha"),
        ("Chart_2", "alpha [maple]"),
    ]
    assert rows[0]["actions"] == "4"


def test_summary_errors(tmp_path: Path) -> None:
    out = _imported(tmp_path)
    bad = _invoke("agents", "summary", str(out), "--table", "table42")
    assert bad.exit_code == 2
    assert "--table table42: not in this summary" in bad.output
    missing = _invoke("agents", "summary", str(tmp_path / "none.jsonl"))
    assert missing.exit_code == 2
    assert "none.jsonl: no such file (attempts)" in missing.output


def test_summary_with_bugs(tmp_path: Path) -> None:
    out = _imported(tmp_path)
    bugs = tmp_path / "results.jsonl"
    bugs.write_text(
        "\n".join(
            json.dumps(
                {
                    "id": bug,
                    "error": None,
                    "hunk_count": n,
                    "divergence": {"value": d},
                    "proximity": {"class": c},
                }
            )
            for bug, n, d, c in (
                ("Chart-1", 2, 0.5, "Nucleus"),
                ("Chart-2", 3, 0.25, "Cluster"),
                ("Chart-3", 4, 0.75, "Nucleus"),
            )
        )
        + "\n"
    )
    result = _invoke(
        "agents", "summary", str(out), "--bugs", str(bugs), "-f", "json", "--table", "table3"
    )
    assert result.exit_code == 0, result.output
    rows = {r["agent"]: r for r in json.loads(result.stdout)["tables"]["table3"]["rows"]}
    # Alpha fixed Chart_1 (0.5); did not fix Chart_2, Chart_3 (0.25, 0.75): median 0.5.
    assert (rows["alpha"]["fixed_median"], rows["alpha"]["unfixed_median"]) == (0.5, 0.5)
    assert rows["alpha"]["fixed_Nucleus_rate"] == 0.5
    # Lang_1 and Lang_2 are not in --bugs: reported.
    assert "2 bugs have no developer record in --bugs: Lang_1, Lang_2" in result.output


def test_evaluate_then_summary(tmp_path: Path) -> None:
    """`agents evaluate` writes each attempt's category sequence and its condition, and
    `summary` reads them: the same Claude run listed plain and with MAPLE."""
    evaluate = Path(__file__).resolve().parents[2] / "fixtures" / "agents" / "evaluate"
    claude = evaluate / "runs" / "claude" / "Chart-1"
    manifest = tmp_path / "runs.csv"
    manifest.write_text(
        "agent,bug,trajectory,patch,compiled,failing_before,failing_after,condition\n"
        f"claude,Chart-1,{claude / 'trajectory.jsonl'},{claude / 'patch.diff'},1,2,0,\n"
        f"claude,Chart-1,{claude / 'trajectory.jsonl'},{claude / 'patch.diff'},1,2,1,maple\n"
    )
    out = tmp_path / "attempts.jsonl"
    result = _invoke(
        "agents", "evaluate", str(manifest), "--reference", str(evaluate / "dev"), "-o", str(out)
    )
    assert result.exit_code == 0, result.output
    records = {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert set(records) == {"claude/Chart-1", "claude/maple/Chart-1"}
    plain = records["claude/Chart-1"]
    assert (plain["source"], plain["condition"]) == ("evaluate", None)
    # The fixture's ten actions (agents actions lists them), in order.
    assert plain["sequence"] == [
        "NAVIGATE",
        "BUILD",
        "READ",
        "READ",
        "SEARCH_CONTEXT",
        "OTHER",
        "SEARCH_CONTENT",
        "WRITE",
        "OTHER",
        "TEST",
    ]
    doc = json.loads(_invoke("agents", "summary", str(out), "-f", "json", "--top-k", "1").stdout)
    t9 = {r["measure"]: r for r in doc["tables"]["table9"]["rows"]}
    assert (t9["repaired"]["before"], t9["repaired"]["after"]) == (1.0, 0.0)
    patterns = doc["tables"]["patterns"]["rows"]
    # One passing attempt of 10 actions: 8 windows of 3, each once; the first
    # alphabetically is BUILD → READ → READ.
    first = next(p for p in patterns if p["agent"] == "claude" and p["window"] == 3)
    assert (first["outcome"], first["pattern"], first["frequency"]) == (
        "passing",
        "BUILD -> READ -> READ",
        1,
    )
    assert first["share"] == 1 / 8
    touch = doc["tables"]["first_touch"]["rows"]
    # Foo.java's hunk: read at action 3 (4 actions in), edited at action 7 (8 in).
    row = next(r for r in touch if r["agent"] == "claude")
    assert (row["read_median_actions"], row["edit_median_actions"]) == (4.0, 8.0)


def test_summary_of_no_attempts_is_an_input_error(tmp_path: Path) -> None:
    empty = tmp_path / "none.jsonl"
    empty.write_text("\n")  # a blank line is no attempt
    result = runner.invoke(app, ["agents", "summary", str(empty)])
    assert result.exit_code == 2
    assert "no attempt lines" in result.stderr


def test_summary_of_runs_evaluates_them_first() -> None:
    repo = Path(__file__).resolve().parents[2]
    runs = repo / "fixtures" / "agents" / "evaluate"
    result = _invoke(
        "agents",
        "summary",
        str(runs / "runs"),
        "--reference",
        str(runs / "dev"),
        "-f",
        "json",
        "--table",
        "table2",
    )
    assert result.exit_code == 0, result.output
    rows = {r["agent"]: r for r in json.loads(result.stdout)["tables"]["table2"]["rows"]}
    # claude edited Foo.java (the developer's file), defects4j compiled and passed it;
    # codex's outcome is a compile failure with no patch; qwen's telemetry is unreadable.
    assert (rows["claude"]["ls"], rows["claude"]["compiled"], rows["claude"]["repaired"]) == (
        1,
        1,
        1,
    )
    assert (rows["codex"]["ls"], rows["codex"]["compiled"], rows["codex"]["repaired"]) == (0, 0, 0)
    assert "qwen" not in rows
    assert "run qwen/Chart-1: " in result.stderr
    assert "1 attempt lines are errors and were left out" in result.stderr


def test_summary_of_a_harbor_job_in_one_command() -> None:
    repo = Path(__file__).resolve().parents[2]
    job = repo / "fixtures" / "harnesses" / "harbor-job" / "toy-job"
    result = _invoke("agents", "summary", str(job), "-f", "json")
    assert result.exit_code == 0, result.output
    tables = json.loads(result.stdout)["tables"]
    (row,) = tables["table2"]["rows"]
    # Three trials of one agent: rewards 1 (a1), 0 (b2) and 0.5 (c3, the mean of its two
    # steps); at the default threshold 1 only a1 is repaired.
    assert (row["bugs"], row["repaired"], row["repaired_rate"]) == (3, 1, 1 / 3)
    # Harbor reports no compilation, so LS (a compiled patch in the right file) is unknown.
    assert (row["compiled"], row["ls"]) == (None, None)
    # Table 3 comes from the tasks' own gold patches (solution/): each has two hunks in
    # two methods of one file, so every bug is Cluster.
    (t3,) = tables["table3"]["rows"]
    assert (t3["fixed_n"], t3["unfixed_n"], t3["fixed_Cluster"]) == (1, 2, 1)
    # Their divergence: each hunk swaps one operator of a `return` (add's `-`/`+`, scale's
    # `+`/`*` in a comprehension's element), the same syntax change, so S = 0; one file,
    # so g = 0 and d = L · (S + g·F) / (1 + g) = 0: Div = ln 2 · 0 = 0 for every bug.
    assert (t3["fixed_median"], t3["unfixed_median"], t3["unfixed_max"]) == (0.0, 0.0, 0.0)


def test_summary_refuses_references_for_attempt_lines(tmp_path: Path) -> None:
    out = _imported(tmp_path)
    result = _invoke("agents", "summary", str(out), "--reference", str(tmp_path))
    assert result.exit_code == 2
    assert "attempt lines are measured already" in result.output


def test_summary_of_a_swebench_run_in_one_command() -> None:
    repo = Path(__file__).resolve().parents[2]
    run = repo / "fixtures" / "harnesses" / "swebench"
    result = _invoke(
        "agents", "summary", str(run / "mini" / "preds.json"),
        "--reference", str(run / "dataset.jsonl"),
        "--swebench-logs", str(run / "logs" / "run_evaluation" / "toy-run"),
        "-f", "json", "--table", "table2",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)["tables"]["table2"]["rows"]
    # Three instances (fixtures/harnesses/swebench/README.md): calc-1 resolved, calc-2
    # applied but a FAIL_TO_PASS test still fails, calc-3 an empty prediction (no report:
    # compiled and LS unknown). RR: calc-1 2 - 0, calc-2 2 - 1 → mean 1.5.
    assert (row["bugs"], row["ls"], row["compiled"], row["repaired"]) == (3, 2, 2, 1)
    assert row["mean_rr"] == 1.5
    # mini-swe-agent's deterministic model records no token usage: Table 5 says unknown,
    # never a mean of zeros.
    tokens = _invoke(
        "agents", "summary", str(run / "mini" / "preds.json"),
        "--reference", str(run / "dataset.jsonl"),
        "--swebench-logs", str(run / "logs" / "run_evaluation" / "toy-run"),
        "-f", "json", "--table", "table5",
    )  # fmt: skip
    rows = json.loads(tokens.stdout)["tables"]["table5"]["rows"]
    assert [(r["outcome"], r["n"], r["input_mean"], r["output_mean"]) for r in rows] == [
        ("passing", 1, None, None),
        ("failing", 2, None, None),
    ]


def test_summary_of_an_inspect_log_in_one_command() -> None:
    pytest.importorskip("inspect_ai", reason="the inspect extra is not installed")
    repo = Path(__file__).resolve().parents[2]
    log = repo / "fixtures" / "harnesses" / "inspect" / "swe.eval"
    result = _invoke("agents", "summary", str(log), "-f", "json")
    assert result.exit_code == 0, result.output
    tables = json.loads(result.stdout)["tables"]
    (row,) = tables["table2"]["rows"]
    # Two samples (make_inspect_log.py): toy__calc-1 fixes both functions (score C = 1),
    # toy__calc-2 only `add` (I = 0).
    assert (row["bugs"], row["repaired"]) == (2, 1)
    # Table 3 from each sample's gold patch (metadata["patch"]): two hunks in two
    # functions of calc.py, so both bugs are Cluster.
    (t3,) = tables["table3"]["rows"]
    assert (t3["fixed_n"], t3["unfixed_n"], t3["fixed_Cluster"]) == (1, 1, 1)


def test_the_library_and_the_harbor_plugin_refuse_the_same_numbers() -> None:
    """The command line's checks live in the settings themselves, so a library call or
    Harbor's `--plugin-kwarg reward_threshold=nan` gets them too (a silent wrong verdict
    before: NaN compares false with every score)."""
    import pytest

    from hunkmetrics.agents.evaluate import Settings as EvaluateSettings
    from hunkmetrics.agents.study.summary import Settings as SummarySettings
    from hunkmetrics.errors import ArgumentError
    from hunkmetrics.integrations.harbor import HunkmetricsPlugin

    cases = [
        (lambda: EvaluateSettings(reward_threshold=float("nan")), "the reward threshold"),
        (lambda: SummarySettings(min_runtime_s=float("nan")), "the shortest runtime"),
        (lambda: SummarySettings(seed=-1), "the bootstrap's seed must be a finite number ≥ 0"),
        (lambda: HunkmetricsPlugin(reward_threshold=float("inf")), "reward_threshold must be"),
    ]
    for make, words in cases:
        with pytest.raises(ArgumentError, match=words):
            make()
    assert EvaluateSettings(reward_threshold=-0.5).reward_threshold == -0.5  # any finite
    assert SummarySettings(min_runtime_s=30.0, seed=7).seed == 7
