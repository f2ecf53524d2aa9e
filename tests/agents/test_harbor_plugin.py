"""The Harbor plug-in (`hunkmetrics.integrations.harbor`): on a copy of the fixture job
(fixtures/harnesses/harbor-job/, made by make_harbor_job.py), the attempts and summary
tables it writes, by hand: trials a1 (reward 1), b2 (0, timed out) and c3 (two steps, mean
reward 0.5), so with reward_threshold 0.5 two of three are repaired.

The Harbor test runs Harbor's own plug-in code (entry-point lookup, `attach_job_plugins`,
`finalize_job_plugins`) in the side venv `HUNKMETRICS_HARBOR_PYTHON` names (.ci/run builds
it and installs hunkmetrics there); it skips when that is unset or lacks either."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from .fixture_paths import ROOT

pytest.importorskip("tree_sitter_bash")

FIXTURE = ROOT / "fixtures" / "harnesses" / "harbor-job"
RUNNER = ROOT / "tests" / "harbor_plugin_run.py"
AGENT = "mini-swe-agent (deterministic_response_api_toolcall)"


def job_copy(tmp_path: Path) -> Path:
    """The fixture job and its tasks, copied: the plug-in writes into the job."""
    shutil.copytree(FIXTURE, tmp_path / "harbor-job")
    return tmp_path / "harbor-job" / "toy-job"


def check_report(job: Path) -> None:
    out = job / "hunkmetrics"
    assert sorted(p.name for p in out.iterdir()) == ["attempts.jsonl", "summary.json", "summary.md"]
    lines = [json.loads(line) for line in (out / "attempts.jsonl").read_text().splitlines()]
    assert [(a["bug"], a["repaired"]) for a in lines] == [
        ("calc-fix", True),  # reward 1
        ("calc-fix", False),  # reward 0
        ("calc-steps", True),  # mean reward 0.5 reaches 0.5
    ]
    assert {a["config"]["reward_threshold"] for a in lines} == {0.5}
    # every trial measured against its task's gold patch (two hunks, both reached by a1, c3)
    assert [a["localization"]["hunks_found"] for a in lines] == [2, 0, 2]
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["attempts"], summary["agents"]) == (3, [AGENT])
    (row,) = summary["tables"]["table2"]["rows"]
    assert (row["bugs"], row["repaired"]) == (3, 2)
    assert row["repaired_rate"] == pytest.approx(2 / 3)
    runtime = summary["tables"]["table6"]["rows"][0]
    # passing: a1 42.5 s and c3 12.5 + 31 s, mean 43; failing: b2 600 s
    assert (runtime["passing_n"], runtime["passing_mean_s"]) == (2, 43.0)
    assert (runtime["failing_n"], runtime["failing_mean_s"]) == (1, 600.0)
    tokens = {r["outcome"]: r for r in summary["tables"]["table5"]["rows"]}
    # input: a1 1,000 + 200 cached, c3 1,000 + 400 cached; output 90 and 110
    assert (tokens["passing"]["input_mean"], tokens["passing"]["output_mean"]) == (1300.0, 100.0)
    markdown = (out / "summary.md").read_text()
    assert markdown.startswith("# hunkmetrics: Harbor job toy-job\n")
    assert "### Table 2: effectiveness per agent" in markdown
    assert f"| {AGENT} | 3 |" in markdown


def test_the_module_imports_without_harbor_and_nothing_heavy():
    code = (
        "import sys, hunkmetrics.integrations.harbor as h; "
        "print([m for m in ('harbor', 'numpy', 'hunkmetrics.agents', 'tree_sitter') "
        "if m in sys.modules])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip() == "[]"


def test_options_are_checked_when_harbor_builds_the_plugin():
    from hunkmetrics.integrations.harbor import HunkmetricsPlugin

    # Harbor turns a TypeError into "Failed to construct plugin …" before the job runs
    with pytest.raises(TypeError, match="reward_threshold must be a number"):
        HunkmetricsPlugin(reward_threshold="high")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="out_dir must be a folder name inside the job"):
        HunkmetricsPlugin(out_dir="../elsewhere")
    assert HunkmetricsPlugin(reward_threshold=1).options.reward_threshold == 1.0


def test_on_job_end_writes_the_report(tmp_path):
    from hunkmetrics.integrations.harbor import HunkmetricsPlugin

    job = job_copy(tmp_path)
    plugin = HunkmetricsPlugin(reward_threshold=0.5)
    asyncio.run(plugin.on_job_start(SimpleNamespace(job_dir=job)))  # type: ignore[arg-type]
    asyncio.run(plugin.on_job_end(SimpleNamespace(trial_results=[])))  # type: ignore[arg-type]
    check_report(job)
    # a resumed job: the report is made again, not appended to
    asyncio.run(plugin.on_job_end(SimpleNamespace(trial_results=[])))  # type: ignore[arg-type]
    check_report(job)


def test_on_job_end_never_raises_into_harbor(tmp_path, caplog):
    from hunkmetrics.integrations.harbor import HunkmetricsPlugin

    job = job_copy(tmp_path)
    plugin = HunkmetricsPlugin(references=str(tmp_path / "missing"))
    asyncio.run(plugin.on_job_start(SimpleNamespace(job_dir=job)))  # type: ignore[arg-type]
    with caplog.at_level(logging.WARNING, logger="hunkmetrics.integrations.harbor"):
        asyncio.run(plugin.on_job_end(SimpleNamespace(trial_results=[])))  # type: ignore[arg-type]
    (record,) = caplog.records
    assert record.getMessage().startswith("hunkmetrics: no report for this job: ")
    assert "missing" in record.getMessage() and "\n" not in record.getMessage()
    # without on_job_start, the job is found from its trials' trial_uri
    caplog.clear()
    orphan = HunkmetricsPlugin()
    result = SimpleNamespace(trial_results=[SimpleNamespace(trial_uri=(job / "x").as_uri())])
    with caplog.at_level(logging.INFO, logger="hunkmetrics.integrations.harbor"):
        asyncio.run(orphan.on_job_end(result))  # type: ignore[arg-type]
    assert [r.getMessage() for r in caplog.records] == [
        f"hunkmetrics: attempts and summary tables written to {job / 'hunkmetrics'}"
    ]


def harbor_python() -> str:
    python = os.environ.get("HUNKMETRICS_HARBOR_PYTHON")
    if not python:
        pytest.skip("HUNKMETRICS_HARBOR_PYTHON is unset (no side venv with harbor; see .ci/run)")
    probe = subprocess.run(
        [
            python,
            "-c",
            "import harbor.cli.job_plugins, harbor.models.job.result, sys; "
            "from harbor.cli.plugin_registry import list_plugin_entry_points as e; "
            "sys.exit('hunkmetrics' not in e())",
        ],
        capture_output=True,
        check=False,
    )
    if probe.returncode != 0:
        pytest.skip(
            f"{python} lacks harbor's plug-in code or hunkmetrics' harbor.plugins entry point "
            "(pip install this checkout there, as .ci/run does)"
        )
    return python


def test_harbor_loads_and_runs_the_plugin(tmp_path):
    python = harbor_python()
    job = job_copy(tmp_path)
    # this checkout's code first on the path; the entry point is the installed metadata
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    done = subprocess.run(
        [python, str(RUNNER), str(job), "reward_threshold=0.5"],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.splitlines()[-1])
    assert (
        seen["entry_points"]["hunkmetrics"] == "hunkmetrics.integrations.harbor:HunkmetricsPlugin"
    )
    assert seen["plugins"] == ["hunkmetrics.integrations.harbor:HunkmetricsPlugin"]
    assert seen["trials"] == 3
    assert seen["hunkmetrics"] == str(ROOT / "hunkmetrics" / "__init__.py")
    check_report(job)
