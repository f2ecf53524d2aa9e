"""`agents evaluate` on what harnesses write (issue 21): a Harbor job and an Inspect log,
each one attempt per trial or sample, the reward or score as the outcome, then `agents
summary` on the attempts. Expected values are those the fixtures' scripts put there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("tree_sitter_bash")

from hunkmetrics.agents.batch import evaluate_runs  # noqa: E402
from hunkmetrics.agents.evaluate import Settings  # noqa: E402
from hunkmetrics.agents.runs import read_runs  # noqa: E402

from .fixture_paths import ROOT  # noqa: E402

HARNESSES = ROOT / "fixtures" / "harnesses"


def _attempts(path, tmp_path, **settings):
    out = tmp_path / "attempts.jsonl"
    summary = evaluate_runs(path, {}, Settings(**settings), out=out, jobs=1)
    assert summary.errors == 0
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_a_harbor_job_is_one_run_per_trial(tmp_path):
    runs = read_runs(HARNESSES / "harbor-job" / "toy-job")
    agent = "mini-swe-agent (deterministic_response_api_toolcall)"
    assert [r.id for r in runs] == [
        f"{agent}/calc-fix/calc-fix__a1",  # two trials of one task: each its own run
        f"{agent}/calc-fix/calc-fix__b2",
        f"{agent}/calc-steps",  # the one trial of the multi-step task
    ]
    # each run reads its own trial folder, not the whole job again
    assert [Path(r.trajectory).name for r in runs] == [
        "calc-fix__a1",
        "calc-fix__b2",
        "calc-steps__c3",
    ]
    assert [r.row for r in runs] == [None, None, None]
    solved, timed_out, steps = _attempts(HARNESSES / "harbor-job" / "toy-job", tmp_path)
    assert [a["outcome"]["reward"] for a in (solved, timed_out, steps)] == [1.0, 0.0, 0.5]
    assert [a["repaired"] for a in (solved, timed_out, steps)] == [True, False, False]
    assert solved["compiled"] is None and solved["ls"] is None  # no test counts: no LS
    assert solved["config"]["reward_threshold"] == 1.0
    assert solved["tool_calls"] == steps["tool_calls"] == 6
    assert solved["actions"] == steps["actions"] == 11
    assert [a["runtime"]["seconds"] for a in (solved, timed_out, steps)] == [42.5, 600.0, 43.5]
    # a1: 1,000 uncached + 200 cached + 90 out; c3: 1,000 + 400 + 110 over its two steps
    assert (solved["tokens"]["total"], steps["tokens"]["total"]) == (1290, 1510)


def test_a_harbor_job_is_measured_against_its_tasks_gold_patches(tmp_path):
    solved, timed_out, steps = _attempts(HARNESSES / "harbor-job" / "toy-job", tmp_path)
    assert solved["reference"] == "harbor task calc-fix/solution/solve.sh (heredoc __SOLUTION__)"
    assert steps["reference"] == "harbor task calc-steps/solution/fix.patch"
    # the gold patch: two hunks of calc.py (lines 1-3 and 5-6); the agent's diff: one hunk
    # over lines 1-6, so it reaches both and lies on the gold patch
    for a in (solved, steps):
        loc = a["localization"]
        assert (loc["reference_files"], loc["candidate_files"]) == (["calc.py"], ["calc.py"])
        assert (loc["reference_hunks"], loc["hunks_found"], loc["hunk_recall"]) == (2, 2, 1.0)
        assert (loc["candidate_hunks"], loc["candidate_hunks_on_reference"]) == (1, 1)
        assert loc["hunk_precision"] == 1.0
        assert a["reference_traits"]["hunk_count"] == 2
        # calc.py is read by action 1 (`cat`, after `ls`), first edited by action 5 (the
        # first `sed`: ls, cat, grep, python, tail come before it); sed edits match by file
        assert [(h["read_file"]["action"], h["edited"]["action"]) for h in a["hunks"]] == [
            (1, 5),
            (1, 5),
        ]
        assert [h["edit_match"] for h in a["hunks"]] == ["file", "file"]
    # the timed-out trial left no diff: no file, no hunk of the gold patch reached
    loc = timed_out["localization"]
    assert (loc["candidate_files"], loc["hunks_found"], loc["hunk_recall"]) == ([], 0, 0.0)
    assert not any("no developer patch" in w for w in solved["warnings"])


def test_a_reference_named_by_the_user_wins_over_the_task(tmp_path):
    from typer.testing import CliRunner

    from hunkmetrics.cli.root import app

    refs = tmp_path / "refs"
    refs.mkdir()
    # the bug id is the task's name: calc-fix.diff is calc-fix's developer patch
    (refs / "calc-fix.diff").write_text(
        "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n"
        "-    return a - b\n+    return a + b\n"
    )
    out = tmp_path / "attempts.jsonl"
    job = str(HARNESSES / "harbor-job" / "toy-job")
    done = CliRunner().invoke(
        app, ["agents", "evaluate", job, "--reference", str(refs), "--out", str(out)]
    )
    assert done.exit_code == 0, done.output
    solved, timed_out, steps = [json.loads(line) for line in out.read_text().splitlines()]
    assert solved["reference"] == timed_out["reference"] == "calc-fix"
    assert solved["localization"]["reference_hunks"] == 1  # the named patch's one hunk
    assert solved["localization"]["hunks_found"] == 1
    # calc-steps has no file there: its task's gold patch still serves
    assert steps["reference"] == "harbor task calc-steps/solution/fix.patch"


def test_a_reward_threshold_decides_what_counts_as_repaired(tmp_path):
    pytest.importorskip("inspect_ai", reason="inspect-ai is not installed (extra `inspect`)")
    log = HARNESSES / "inspect" / "toy.eval"
    strict = _attempts(log, tmp_path / "a", reward_threshold=1.0)
    assert [(a["bug"], a["outcome"]["reward"], a["repaired"]) for a in strict] == [
        ("toy-1", 1.0, True),  # scored C
        ("toy-2", 0.0, False),  # scored I
    ]
    lenient = _attempts(log, tmp_path / "b", reward_threshold=0.0)
    assert [a["repaired"] for a in lenient] == [True, True]


def test_summary_tables_of_a_harbor_job(tmp_path):
    from typer.testing import CliRunner

    from hunkmetrics.cli.root import app

    out = tmp_path / "attempts.jsonl"
    runner = CliRunner()
    job = str(HARNESSES / "harbor-job" / "toy-job")
    done = runner.invoke(app, ["agents", "evaluate", job, "--out", str(out)])
    assert done.exit_code == 0, done.output
    table = runner.invoke(app, ["agents", "summary", str(out), "-f", "csv", "--table", "table2"])
    assert table.exit_code == 0, table.output
    header, row = table.stdout.splitlines()[:2]
    cells = dict(zip(header.split(","), row.split(","), strict=False))
    # three attempts, one repaired (calc-steps's mean reward 0.5 is under the threshold 1)
    assert (cells["bugs"], cells["repaired"]) == ("3", "1")
    assert float(cells["repaired_rate"]) == pytest.approx(1 / 3)
    assert cells["ls"] == "" and cells["compiled"] == ""  # known for none: no rate
