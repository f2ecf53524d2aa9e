"""`agents evaluate` on SWE-bench and Multi-SWE-bench output. The SWE-bench fixture is a
real run (fixtures/harnesses/make_swebench_run.py: mini-swe-agent's own preds.json and
trajectories, SWE-bench's own grading); the Multi-SWE-bench files are written here from
its documented schema (multi_swe_bench/harness/report.py, 1.1.0). Every expected value is
worked out by hand from the fixture's patches and report.json files."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("tree_sitter_bash")

from hunkmetrics.agents.batch import evaluate_runs, read_references  # noqa: E402
from hunkmetrics.agents.evaluate import Reference, Settings  # noqa: E402
from hunkmetrics.agents.runs import read_runs  # noqa: E402
from hunkmetrics.agents.study.records import read_attempts  # noqa: E402
from hunkmetrics.agents.study.summary import summarize  # noqa: E402
from hunkmetrics.agents.swebench.dataset import read_dataset  # noqa: E402
from hunkmetrics.agents.swebench.predictions import read_predictions  # noqa: E402
from hunkmetrics.errors import HunkmetricsError  # noqa: E402

from .fixture_paths import ROOT  # noqa: E402

SWEBENCH = ROOT / "fixtures" / "harnesses" / "swebench"
DATASET = SWEBENCH / "dataset.jsonl"
LOGS = SWEBENCH / "logs" / "run_evaluation" / "toy-run"
MINI = SWEBENCH / "mini" / "preds.json"
TOY = SWEBENCH / "toy-model" / "all_preds.jsonl"
PATCH = "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n"


def _evaluate(
    runs: Path,
    out: Path,
    references: dict[str, Reference] | None = None,
    logs: tuple[Path, ...] = (),
) -> dict[str, Any]:
    refs = read_references(DATASET) if references is None else references
    evaluate_runs(runs, refs, Settings(), out=out, logs=logs)
    return {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}


def test_mini_swe_agent_predictions_with_their_trajectories_and_logs(tmp_path: Path) -> None:
    got = _evaluate(MINI, tmp_path / "a.jsonl", logs=(LOGS,))
    one, two, three = (got[f"deterministic/toy-org__calc-{n}"] for n in (1, 2, 3))
    # calls and actions from the scripted commands (`a && b | c` is three actions)
    assert (one["tool_calls"], one["actions"]) == (6, 12)
    assert (two["tool_calls"], two["actions"]) == (4, 7)
    assert (three["tool_calls"], three["actions"]) == (2, 4)
    assert one["format"] == "mini_swe_agent" and one["patch"]["source"] == "prediction"
    # calc-1: both FAIL_TO_PASS tests pass, both PASS_TO_PASS still pass
    assert (one["compiled"], one["repaired"], one["regression_reduction"]) == (True, True, 2)
    assert (one["outcome"]["failing_before"], one["outcome"]["failing_after"]) == (2, 0)
    # calc-2: add fixed, scale not: test_scale still fails
    assert (two["compiled"], two["repaired"], two["regression_reduction"]) == (True, False, 1)
    assert two["outcome"]["failing_tests"] == ["test_calc.py::test_scale"]
    # calc-3: an empty patch, never evaluated; SWE-bench counts it unresolved
    assert (three["compiled"], three["repaired"], three["outcome"]["resolved"]) == (
        None,
        False,
        False,
    )
    # the gold patch's two hunks (add, scale): both found, one, none
    loc = [r["localization"] for r in (one, two, three)]
    assert [(x["reference_hunks"], x["hunks_found"]) for x in loc] == [(2, 2), (2, 1), (2, 0)]
    assert one["reference_traits"]["hunk_count"] == 2


def test_predictions_alone_are_trajectory_less_never_zero(tmp_path: Path) -> None:
    got = _evaluate(TOY, tmp_path / "a.jsonl", logs=(LOGS,))
    solved, broken = got["toy-model/toy-org__calc-1"], got["toy-model/toy-org__calc-2"]
    for record in (solved, broken):
        assert record["tool_calls"] is None and record["actions"] is None
        assert record["unique_shell_commands"] is None and record["sequence"] is None
        assert record["cycles"] is None and record["runtime"]["seconds"] is None
        assert record["tokens"]["source"].startswith("none:")
        assert record["format"] == "none"
    assert (solved["repaired"], solved["regression_reduction"]) == (True, 2)
    # calc-2's patch did not apply: not resolved, compiled unknown, and said so
    assert (broken["repaired"], broken["compiled"], broken["ls"]) == (False, None, None)
    assert any(w.startswith("compiled unknown:") for w in broken["warnings"])


def test_summary_leaves_trajectory_less_attempts_out_of_tables_5_to_8(tmp_path: Path) -> None:
    _evaluate(TOY, tmp_path / "a.jsonl", logs=(LOGS,))
    summary = summarize(read_attempts(tmp_path / "a.jsonl"))
    rows5 = [r for r in summary.table5.rows if r.group == "toy-model"]
    assert [(r.outcome, r.n) for r in rows5] == [("passing", 1), ("failing", 1)]
    assert all(r.input_mean is None and r.output_mean is None for r in rows5)
    rows6 = [r for r in summary.table6.rows if r.group == "toy-model"]
    assert (rows6[0].passing_n, rows6[0].failing_n) == (0, 0)
    (row7,) = [r for r in summary.table7.rows if r.group == "toy-model"]
    assert (row7.native_tools, row7.from_actions, row7.from_counts) == ((), 0, 0)
    assert not [r for r in summary.table8.rows if r.group == "toy-model"]


def test_a_swebench_log_folder_is_runs_of_every_model(tmp_path: Path) -> None:
    runs = read_runs(LOGS)
    assert [r.id for r in runs] == [
        "deterministic/toy-org__calc-1",
        "deterministic/toy-org__calc-2",
        "toy-model/toy-org__calc-1",
        "toy-model/toy-org__calc-2",
    ]
    got = _evaluate(LOGS, tmp_path / "a.jsonl")
    assert [r["repaired"] for r in got.values()] == [True, False, True, False]
    assert got["deterministic/toy-org__calc-2"]["patch"]["source"].endswith("patch.diff")


def test_a_run_report_gives_the_verdict_without_instance_logs(tmp_path: Path) -> None:
    report = SWEBENCH / "reports" / "deterministic.toy-run.json"
    got = _evaluate(MINI, tmp_path / "a.jsonl", logs=(report,))
    verdicts = [got[f"deterministic/toy-org__calc-{n}"]["repaired"] for n in (1, 2, 3)]
    assert verdicts == [True, False, False]
    assert got["deterministic/toy-org__calc-1"]["compiled"] is None  # no test counts


def test_a_missing_log_is_that_runs_error_line(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    (logs / "deterministic" / "toy-org__calc-1").mkdir(parents=True)
    source = LOGS / "deterministic" / "toy-org__calc-1" / "report.json"
    (logs / "deterministic" / "toy-org__calc-1" / "report.json").write_bytes(source.read_bytes())
    got = _evaluate(MINI, tmp_path / "a.jsonl", logs=(logs,))
    assert got["deterministic/toy-org__calc-1"]["error"] is None
    error = got["deterministic/toy-org__calc-2"]["error"]
    assert (
        error
        == f"{logs}/deterministic/toy-org__calc-2/report.json: no such file (SWE-bench report)"
    )
    assert got["deterministic/toy-org__calc-3"]["error"] is None  # empty: never evaluated


def _write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_predictions_as_json_dict_list_and_jsonl(tmp_path: Path) -> None:
    rows = [
        {"instance_id": "o__r-1", "model_name_or_path": "m", "model_patch": PATCH},
        {"instance_id": "o__r-2", "model_name_or_path": "m", "model_patch": None},
    ]
    (tmp_path / "list.json").write_text(json.dumps(rows))
    (tmp_path / "dict.json").write_text(json.dumps({r["instance_id"]: r for r in rows}))
    _write_jsonl(tmp_path / "p.jsonl", rows)
    for name in ("list.json", "dict.json", "p.jsonl"):
        got = read_predictions(tmp_path / name)
        assert [(p.instance_id, p.model, p.patch) for p in got] == [
            ("o__r-1", "m", PATCH),
            ("o__r-2", "m", None),
        ]
        assert [r.id for r in read_runs(tmp_path / name)] == ["m/o__r-1", "m/o__r-2"]


def test_a_prediction_without_instance_id_is_one_line_naming_file_and_row(tmp_path: Path) -> None:
    path = _write_jsonl(
        tmp_path / "p.jsonl",
        [
            {"instance_id": "o__r-1", "model_name_or_path": "m", "model_patch": PATCH},
            {"model_name_or_path": "m", "model_patch": PATCH},
        ],
    )
    with pytest.raises(HunkmetricsError) as caught:
        read_runs(path)
    assert str(caught.value) == f"{path}:2: a prediction without instance_id"


def test_a_dataset_row_without_its_gold_patch_is_an_error(tmp_path: Path) -> None:
    path = _write_jsonl(
        tmp_path / "d.jsonl",
        [
            {"instance_id": "o__r-1", "repo": "o/r", "base_commit": "a", "patch": PATCH},
            {"instance_id": "o__r-2", "repo": "o/r", "base_commit": "a", "patch": ""},
        ],
    )
    with pytest.raises(HunkmetricsError) as caught:
        read_references(path)
    assert str(caught.value).startswith(f"{path}:2: instance o__r-2 has no gold patch")


def test_multi_swe_bench_dataset_rows_give_fix_patch_at_base_sha(tmp_path: Path) -> None:
    row = {
        "org": "alibaba",
        "repo": "fastjson2",
        "number": 2775,
        "base": {"label": "x", "ref": "main", "sha": "abc123"},
        "fix_patch": PATCH,
        "test_patch": "diff --git a/t.py b/t.py\n",
    }
    path = tmp_path / "msb.json"
    path.write_text(json.dumps([row]))
    (task,) = read_dataset(path).values()
    assert list(read_dataset(path)) == ["alibaba__fastjson2-2775"]
    assert (task.gold_patch, task.repository, task.base_commit) == (
        PATCH,
        "alibaba/fastjson2",
        "abc123",
    )
    refs = read_references(path)
    assert refs["alibaba__fastjson2_2775"].data == PATCH.encode()


def test_a_parquet_dataset(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow is not installed (extra parquet)")
    import pyarrow as pa

    table = pa.Table.from_pylist(
        [{"instance_id": "o__r-1", "repo": "o/r", "base_commit": "a", "patch": PATCH}]
    )
    pq.write_table(table, tmp_path / "d.parquet")
    assert read_references(tmp_path / "d.parquet")["o__r_1"].data == PATCH.encode()


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True)
    return done.stdout.strip()


def test_repos_place_the_gold_patch_in_its_methods(tmp_path: Path) -> None:
    """The toy repository rebuilt at a base commit of its own: the gold patch's hunks are
    in `add` and `scale`; calc-2's patch reaches `add` only: method recall 1/2."""
    repo = tmp_path / "repos" / "toy-org__calc"
    repo.mkdir(parents=True)
    _git(repo, "init", "-q")
    dataset = [json.loads(line) for line in DATASET.read_text().splitlines()]
    # the toy's calc.py is the gold patch's pre-image: rebuild it from make_swebench_run.py
    calc = (
        "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n\n\n"
        "def mul(a, b):\n    return a * b\n\n\ndef scale(values, k):\n"
        "    return [v + k for v in values]\n"
    )
    (repo / "calc.py").write_text(calc)
    _git(repo, "add", ".")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base")
    base = _git(repo, "rev-parse", "HEAD")
    rows = [{**row, "base_commit": base} for row in dataset]
    path = _write_jsonl(tmp_path / "dataset.jsonl", rows)
    refs = read_references(path, repos=tmp_path / "repos")
    got = _evaluate(MINI, tmp_path / "a.jsonl", refs, logs=(LOGS,))
    one, two = got["deterministic/toy-org__calc-1"], got["deterministic/toy-org__calc-2"]
    # methods are named file::module.function(parameters)
    add, scale = "calc.py::calc.add(a,b)", "calc.py::calc.scale(values,k)"
    assert one["localization"]["reference_methods"] == [add, scale]
    assert (one["localization"]["method_recall"], two["localization"]["method_recall"]) == (
        1.0,
        0.5,
    )
    assert two["localization"]["methods_missed"] == [scale]
    assert not any("diff alone" in w for w in one["warnings"])


def _msb_result(passed: list[str], failed: list[str]) -> dict[str, Any]:
    return {
        "passed_count": len(passed),
        "failed_count": len(failed),
        "skipped_count": 0,
        "passed_tests": passed,
        "failed_tests": failed,
        "skipped_tests": [],
    }


def test_a_multi_swe_bench_workdir_with_its_final_report(tmp_path: Path) -> None:
    """Written from Multi-SWE-bench's Report and FinalReport (harness/report.py)."""
    work = tmp_path / "work"
    for number, after in ((1, []), (2, ["T.b"])):
        folder = work / "o" / "r" / "evals" / f"pr-{number}"
        folder.mkdir(parents=True)
        (folder / "fix.patch").write_text(PATCH)
        report = {
            "org": "o",
            "repo": "r",
            "number": number,
            "valid": not after,
            "error_msg": "",
            "run_result": _msb_result([], ["T.a", "T.b"]),
            "test_patch_result": _msb_result(["T.c"], ["T.a", "T.b"]),
            "fix_patch_result": _msb_result(["T.a", "T.c"] + (["T.b"] if not after else []), after),
        }
        (folder / "report.json").write_text(json.dumps(report))
    final = tmp_path / "final_report.json"
    ids = {"resolved_ids": ["o/r:pr-1"], "unresolved_ids": ["o/r:pr-2"], "error_ids": []}
    final.write_text(json.dumps(ids))
    refs = {"o__r_1": Reference("gold", "gold", data=PATCH.encode())}
    got = _evaluate(work, tmp_path / "a.jsonl", refs, logs=(final,))
    one, two = got["work/o__r-1"], got["work/o__r-2"]
    assert (one["compiled"], one["repaired"], one["regression_reduction"]) == (True, True, 2)
    assert (two["compiled"], two["repaired"], two["regression_reduction"]) == (True, False, 1)
    assert two["outcome"]["failing_tests"] == ["T.b"]
    assert one["ls"] is True and one["tool_calls"] is None


def test_evaluate_then_summary_from_the_command_line(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from hunkmetrics.cli.root import app

    out = tmp_path / "attempts.jsonl"
    runner = CliRunner()
    args = ["agents", "evaluate", str(MINI), "--reference", str(DATASET)]
    done = runner.invoke(app, [*args, "--swebench-logs", str(LOGS), "--out", str(out)])
    assert done.exit_code == 0, done.output
    table = runner.invoke(app, ["agents", "summary", str(out), "-f", "csv", "--table", "table2"])
    assert table.exit_code == 0, table.output
    header, row = table.stdout.splitlines()[:2]
    cells = dict(zip(header.split(","), row.split(","), strict=False))
    # 3 instances, 1 resolved; LS and compiled known for the 2 evaluated patches (both
    # touch calc.py and compiled); mean RR (2 + 1) / 2
    assert (cells["bugs"], cells["repaired"], cells["repaired_rate"]) == (
        "3",
        "1",
        "0.3333333333333333",
    )
    assert (cells["ls"], cells["compiled"], cells["mean_rr"]) == ("2", "2", "1.5")
