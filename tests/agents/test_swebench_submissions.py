"""Published SWE-bench submissions, read as they are: a submission folder is one RUNS
argument (predictions, trajectories, instance logs and run reports found inside).

Two real folders nobody here wrote, taken from fetched mirrors (skipped when absent):
- Multi-SWE-bench's experiments, `evaluation/java/verified/20240825_SWE-agent_deepseek-
  chat-v2`: `all_preds.jsonl`, SWE-agent `trajs/<id>.traj`, `logs/<id>/run_instance.log`
  only (no report.json) and `results/results.json`;
- gruckion/mini-swe-agent's `swebench_results/20251118_gemini-3-pro-74pct` (mini-swe-agent
  1.15 on SWE-bench Verified): `trajs/` holding the mini-swe-agent output folder
  (`preds.json`, `<id>/<id>.traj.json`) and sb-cli's run report, `logs/<id>/report.json`
  without its instance-id wrapper.
Every expected value below is read by hand from those files (noted beside it).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from hunkmetrics.agents.batch import evaluate_runs
from hunkmetrics.agents.evaluate import Settings
from hunkmetrics.agents.runs import read_runs
from hunkmetrics.agents.swebench.reports import read_instance_log, read_run_report

MIRRORS = Path(os.environ.get("HUNKMETRICS_MIRRORS", "/work/.mirror"))
MULTI = (
    "multi-swe-bench+experiments",
    "evaluation/java/verified/20240825_SWE-agent_deepseek-chat-v2",
)
MINI = ("gruckion+mini-swe-agent", "swebench_results/20251118_gemini-3-pro-74pct")


def _export(mirror: str, folder: str, paths: list[str], into: Path) -> Path:
    """`paths` (under `folder`) of the mirror's HEAD written under `into`; skips the test
    when the mirror is absent. Files whose blobs the mirror lacks are left out."""
    repo = MIRRORS / mirror / "repo"
    if not repo.is_dir():
        pytest.skip(f"{repo} is absent (fetch {mirror.replace('+', '/')} to run this)")
    listed = subprocess.run(
        ["git", "--git-dir", str(repo), "ls-tree", "-r", "--name-only", "HEAD", "--"]
        + [f"{folder}/{p}" for p in paths],
        capture_output=True,
        check=True,
    ).stdout.decode()
    names = [n for n in listed.splitlines() if n]
    if not names:
        pytest.skip(f"{mirror} holds no {folder}")
    for name in names:
        shown = subprocess.run(
            ["git", "--git-dir", str(repo), "show", f"HEAD:{name}"], capture_output=True
        )
        if shown.returncode == 0:
            target = into / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(shown.stdout)
    return into / folder


def _evaluate(runs_path: Path, out: Path) -> dict[str, dict[str, Any]]:
    evaluate_runs(runs_path, {}, Settings(), out=out)
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    return {line["bug"]: line for line in lines}


def test_a_multi_swe_bench_submission_folder(tmp_path: Path) -> None:
    folder = _export(*MULTI, ["."], tmp_path)
    got = _evaluate(folder, tmp_path / "a.jsonl")
    # all_preds.jsonl: 91 predictions, one model
    assert len(got) == 91
    assert {line["error"] for line in got.values()} == {None}
    assert {line["agent"] for line in got.values()} == {
        "deepseek-chat__swe-bench-java__default__t-0.00__p-0.95__c-3.00__install-0__swe-bench-java"
    }
    # results/results.json: resolved 9, unresolved 74, empty patch 7, error 1 (unknown)
    verdicts = [line["outcome"]["resolved"] if line["outcome"] else None for line in got.values()]
    assert verdicts.count(True) == 9
    assert verdicts.count(False) == 74 + 7
    assert verdicts.count(None) == 1
    # trajs/apache__dubbo-10638.traj: 17 steps; info.model_stats tokens_sent 217,733 and
    # tokens_received 2,364. Its run_instance.log's report line: FAIL_TO_PASS failure
    # ['dubbo-common:org.apache.dubbo.common.utils.PojoUtilsTest'], nothing else, applied.
    dubbo = got["apache__dubbo-10638"]  # the SWE-bench id is kept as it is spelled
    assert dubbo["format"] == "swe_agent"
    assert dubbo["tool_calls"] == 17
    assert dubbo["tokens"]["total"] == 217_733 + 2_364
    outcome = dubbo["outcome"]
    assert (outcome["compiled"], outcome["failing_before"], outcome["failing_after"]) == (
        True,
        1,
        1,
    )
    assert outcome["resolved"] is False
    assert outcome["failing_tests"] == ["dubbo-common:org.apache.dubbo.common.utils.PojoUtilsTest"]
    assert "run_instance.log" in outcome["source"]
    # Eq. 6: 1 failing before, 1 after: RR 0; not repaired (a test still fails)
    assert (dubbo["regression_reduction"], dubbo["repaired"]) == (0, False)


def test_a_mini_swe_agent_submission_folder(tmp_path: Path) -> None:
    ids = ["django__django-11532", "astropy__astropy-13033"]
    parts = ["trajs/preds.json", "trajs/sb-cli-reports"]
    parts += [f"trajs/{i}" for i in ids] + [f"logs/{i}" for i in ids]
    folder = _export(*MINI, parts, tmp_path)
    got = _evaluate(folder, tmp_path / "a.jsonl")
    # trajs/preds.json: 500 predictions of google/gemini-3-pro-preview; the sb-cli report
    # (swe-bench_verified__test__…json): resolved_ids 371, unresolved_ids 129, error_ids 0
    assert len(got) == 500
    assert {line["error"] for line in got.values()} == {None}
    assert {line["agent"] for line in got.values()} == {"google/gemini-3-pro-preview"}
    verdicts = [line["outcome"]["resolved"] for line in got.values()]
    assert (verdicts.count(True), verdicts.count(False)) == (371, 129)
    # Only the two exported instances have a trajectory (the others: unknown calls).
    with_steps = {bug for bug, line in got.items() if line["tool_calls"] is not None}
    assert with_steps == set(ids)
    # django__django-11532: 30 assistant messages, the 22nd with two ```bash blocks, which
    # mini-swe-agent refused ("Please always provide EXACTLY ONE action … found 2"): 29
    # commands ran. logs/…/report.json (no wrapper): resolved, FAIL_TO_PASS 1 success,
    # PASS_TO_PASS 148 successes, no failure.
    django = got["django__django-11532"]
    assert django["format"] == "mini_swe_agent"
    assert django["tool_calls"] == 29
    # mini-swe-agent 1 stamps no message; its responses' `created` run from 1763511895
    # (the first answer) to 1763512068 (the last)
    assert django["runtime"]["seconds"] == 1763512068 - 1763511895
    assert "created" in django["runtime"]["source"]
    outcome = django["outcome"]
    assert (outcome["compiled"], outcome["failing_before"], outcome["failing_after"]) == (
        True,
        1,
        0,
    )
    assert outcome["resolved"] is True
    # Eq. 6: 1 failing before, 0 after: RR 1; Eq. 5: a non-empty patch, compiled, no
    # failing test after it: repaired
    assert (django["regression_reduction"], django["repaired"]) == (1, True)
    assert django["patch"]["touches"]["source"] == [
        "django/core/mail/message.py",
        "django/core/mail/utils.py",
    ]
    # astropy__astropy-13033: FAIL_TO_PASS failure test_required_columns, not resolved
    astropy = got["astropy__astropy-13033"]["outcome"]
    assert astropy["resolved"] is False
    assert astropy["failing_tests"][0] == (
        "astropy/timeseries/tests/test_sampled.py::test_required_columns"
    )


# ---- the formats, on small files written here --------------------------------------


def _log(tmp_path: Path, body: str) -> Path:
    folder = tmp_path / "logs" / "o__r-1"
    folder.mkdir(parents=True)
    log = folder / "run_instance.log"
    log.write_text(body, encoding="utf-8")
    return log


REPORT = (
    "{'o__r-1': {'patch_is_None': False, 'patch_exists': True, "
    "'patch_successfully_applied': True, 'resolved': True, 'tests_status': "
    "{'FAIL_TO_PASS': {'success': ['t1', 't2'], 'failure': []}, "
    "'PASS_TO_PASS': {'success': ['t3'], 'failure': []}}}}"
)


def test_the_report_line_of_an_instance_log(tmp_path: Path) -> None:
    log = _log(
        tmp_path,
        "2024-08-22 20:13:10,360 - INFO - Patch applied\n"
        f"2024-08-22 20:13:10,360 - INFO - report: {REPORT}\n"
        "Result for o__r-1: resolved: True\n",
    )
    outcome = read_instance_log(log)
    # F2P 2 tests (failing before), nothing failing after
    assert (outcome.compiled, outcome.failing_before, outcome.failing_after) == (True, 2, 0)
    assert outcome.resolved is True


def test_a_log_without_a_report_line_knows_nothing(tmp_path: Path) -> None:
    log = _log(tmp_path, "2024-08-22 - INFO - Error building image\n")
    outcome = read_instance_log(log)
    assert outcome.resolved is None and outcome.compiled is None
    assert "stopped before grading" in outcome.source


@pytest.mark.parametrize(
    "line",
    [
        "report: {'o__r-1': __import__('os').system('true')}",  # code is never run
        "report: {'o__r-1': {'resolved': 'yes'}}",
        "report: {" + "[" * 5000 + "]" * 5000 + "}",
    ],
)
def test_a_report_line_that_is_not_a_report_is_one_error(tmp_path: Path, line: str) -> None:
    from hunkmetrics.errors import HunkmetricsError

    log = _log(tmp_path, f"x - INFO - {line}\n")
    with pytest.raises(HunkmetricsError, match="run_instance.log"):
        read_instance_log(log)


def test_a_results_json_of_the_experiments_layout(tmp_path: Path) -> None:
    results = tmp_path / "results.json"
    results.write_text(
        json.dumps(
            {
                "no_generation": ["a"],
                "generated": ["b", "c", "d", "e"],
                "with_logs": ["b", "c", "d", "e"],
                "install_fail": ["e"],
                "no_apply": ["b"],
                "applied": ["c", "d"],
                "test_errored": [],
                "resolved": ["d"],
            }
        )
    )
    # a: no patch → false; b: did not apply → false; c: evaluated, not resolved → false;
    # d: resolved; e: the harness failed to install → unknown (left out)
    assert read_run_report(results) == {"a": False, "b": False, "c": False, "d": True}


def test_a_folder_of_trajectories_without_predictions(tmp_path: Path) -> None:
    folder = tmp_path / "20250101_agent"
    traj = folder / "trajs" / "o__r-1" / "o__r-1.traj.json"
    traj.parent.mkdir(parents=True)
    traj.write_text(
        json.dumps(
            {
                "trajectory_format": "mini-swe-agent-1",
                "instance_id": "o__r-1",
                "info": {"exit_status": "Submitted", "submission": "", "model_stats": {}},
                "messages": [
                    {"role": "system", "content": "s"},
                    {"role": "user", "content": "u"},
                    {"role": "assistant", "content": "```bash\nls\n```"},
                ],
            }
        )
    )
    log = _log(folder, f"x - INFO - report: {REPORT}\n")
    runs = read_runs(folder)
    assert [(r.agent, r.bug, r.trajectory, r.outcome) for r in runs] == [
        ("20250101_agent", "o__r-1", str(traj), str(log))
    ]


def test_a_submission_whose_rows_name_two_models_is_still_one_submission(tmp_path: Path) -> None:
    folder = _export(
        MULTI[0], MULTI[1].replace("deepseek-chat-v2", "doubao-pro-128k"), ["."], tmp_path
    )
    got = _evaluate(folder, tmp_path / "a.jsonl")
    # all_preds.jsonl: 90 rows of `ep-…-swe-bench-java` and one of `ep-…-swe-bench-java-test`;
    # results/results.json: resolved 1 (its `resolved` list), 22 empty patches
    agents = [line["agent"] for line in got.values()]
    assert sorted({a.rsplit("__", 1)[1] for a in agents}) == [
        "swe-bench-java",
        "swe-bench-java-test",
    ]
    assert [a.endswith("-test") for a in agents].count(True) == 1
    assert [line["outcome"]["resolved"] for line in got.values()].count(True) == 1


def test_the_one_command_summary_of_a_submission(tmp_path: Path) -> None:
    import sys

    folder = _export(*MULTI, ["."], tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "hunkmetrics", "agents", "summary", str(folder), "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    (row,) = json.loads(done.stdout)["tables"]["table2"]["rows"]
    # results/results.json: 91 submitted, 9 resolved, 1 error (unknown): 9 of the 90
    # instances whose outcome is known are repaired
    assert (row["bugs"], row["repaired"]) == (91, 9)
    assert row["repaired_rate"] == pytest.approx(9 / 90)
    # the RR table's repair rate counts the same way: 9 of 90, not 9 of all 91 (0.0989)
    rr_rows = [r for r in json.loads(done.stdout)["tables"]["rr"]["rows"] if r["n"] is not None]
    assert [r["repair_rate"] for r in rr_rows] == [pytest.approx(9 / 90)]  # one agent
