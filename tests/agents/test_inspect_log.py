"""Inspect AI eval logs (issue 21): real logs Inspect itself wrote, offline, with its
`mockllm/model` answering the tool calls scripted in fixtures/harnesses/make_inspect_log.py
(`basic_agent`, the `bash` tool, a local sandbox). Expected values are that script's: the
calls, and the usage it set on every mock output (call n: 100·n input, 10·n output)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("tree_sitter_bash")
pytest.importorskip("inspect_ai", reason="inspect-ai is not installed (extra `inspect`)")

from hunkmetrics.agents import detect_format, read_trajectories  # noqa: E402

from .fixture_paths import ROOT  # noqa: E402
from .inspect_toy import GOLD, toy_repository  # noqa: E402

LOGS = ROOT / "fixtures" / "harnesses" / "inspect"


@pytest.mark.parametrize("name", ["toy.eval", "toy.json"])
def test_every_sample_is_an_attempt(name):
    path = LOGS / name
    assert detect_format(path) == "inspect_log"
    fixed, gave_up = read_trajectories(path)
    assert (fixed.bug_id, gave_up.bug_id) == ("toy-1", "toy-2")
    assert fixed.agent == "inspect:basic_agent_loop" and fixed.model == "mockllm/model"
    assert [c.shell or c.tool_name for c in fixed.calls] == [
        "ls && grep -n 'def ' calc.py",
        "python -m pytest -q 2>&1 | tail -3",
        "sed -i 's/a - b/a + b/' calc.py && sed -i 's/v + k/v * k/' calc.py",
        "git diff > /tmp/fix.diff; cat /tmp/fix.diff | head -20",
        "submit",
    ]
    assert [(a.name, a.category) for a in fixed.actions] == [
        ("ls", "SEARCH_FILES"),
        ("grep", "SEARCH_CONTENT"),
        ("python", "TEST"),
        ("tail", "READ"),
        ("sed", "WRITE"),
        ("sed", "WRITE"),
        ("git", "WRITE"),  # git diff > /tmp/fix.diff: its output goes into a file
        ("cat", "READ"),
        ("head", "READ"),
        ("submit", "OTHER"),
    ]
    assert "1:def add(a, b):" in (fixed.calls[0].output or "")
    assert [c.is_error for c in fixed.calls] == [False] * 5
    # calls 1-5: input 100+…+500 (none cached but call 2's 50 reads), output 10+…+50
    t = fixed.tokens
    assert (t.input_uncached, t.cache_read, t.input_total, t.output) == (1500, 50, 1550, 150)
    assert [c.tool_name for c in gave_up.calls] == ["bash", "submit"]
    assert (gave_up.tokens.input_total, gave_up.tokens.output) == (600 + 700, 60 + 70)
    assert fixed.outcome is not None and fixed.outcome.exit_status == "includes=C"
    assert gave_up.outcome is not None and gave_up.outcome.exit_status == "includes=I"
    assert fixed.runtime_s is not None and fixed.runtime_s > 0
    assert fixed.runtime_source == "inspect sample.total_time (wall clock)"


# A log of a task shaped like inspect_evals' SWE-bench task (make_inspect_log.py
# `swe_task`): metadata `patch`, `repo`, `base_commit`; a `swe_bench_scorer` keeping the
# agent's diff as `metadata["model_patch"]`, then hunkmetrics' `hunk_localization`.
SWE = LOGS / "swe.eval"


def test_the_gold_patch_and_the_agents_patch_of_a_swe_bench_log(tmp_path):
    base = toy_repository(tmp_path / "toy")
    fixed, gamed = read_trajectories(SWE)
    assert (fixed.bug_id, gamed.bug_id) == ("toy__calc-1", "toy__calc-2")
    for attempt in (fixed, gamed):
        assert attempt.task is not None
        assert attempt.task.gold_patch == GOLD
        assert attempt.task.gold_source == "inspect sample.metadata.patch"
        assert (attempt.task.repository, attempt.task.base_commit) == ("toy/calc", base)
        source = "inspect sample.scores[swe_bench_scorer].metadata.model_patch"
        assert attempt.patch_source == source  # the first scorer's, not hunk_localization's
    assert fixed.patch is not None and fixed.patch.startswith("diff --git a/calc.py b/calc.py")
    assert gamed.patch is not None and "diff --git a/test_calc.py b/test_calc.py" in gamed.patch
    assert [c.shell or c.tool_name for c in gamed.calls] == [
        "sed -i 's/a - b/a + b/; s/x \\* 3/3 * x/' calc.py",
        "sed -i '/def test_scale/,$d' test_calc.py",
        "submit",
    ]
    # calls 1-3 and 4-6: input 100·n (call 5 also reads 80 cached), output 10·n
    assert (fixed.tokens.input_total, fixed.tokens.output) == (100 + 200 + 300, 10 + 20 + 30)
    t = gamed.tokens
    assert (t.input_uncached, t.cache_read, t.output) == (400 + 500 + 600, 80, 40 + 50 + 60)
    # the first score of one number is the reward; a scorer of several values is named
    assert fixed.outcome is not None and gamed.outcome is not None
    assert fixed.outcome.exit_status == "swe_bench_scorer=1.0, hunk_localization"
    assert (fixed.outcome.reward, gamed.outcome.reward) == (1.0, 0.0)


def _evaluate(tmp_path, *options):
    from typer.testing import CliRunner

    from hunkmetrics.cli.root import app

    out = tmp_path / "attempts.jsonl"
    done = CliRunner().invoke(app, ["agents", "evaluate", str(SWE), "--out", str(out), *options])
    assert done.exit_code == 0, done.output
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_evaluate_measures_a_swe_bench_log_against_its_gold_patch(tmp_path):
    fixed, gamed = _evaluate(tmp_path)  # no --reference: each sample's metadata["patch"]
    assert fixed["reference"] == gamed["reference"] == "inspect sample.metadata.patch"
    assert fixed["reference_traits"]["hunk_count"] == 2
    # toy__calc-1 changes both gold hunks; toy__calc-2 only `add`'s (line 2), plus `triple`
    # (line 10, off the gold lines 2 and 14) and the test file (left out of localization)
    assert (fixed["localization"]["hunk_recall"], gamed["localization"]["hunk_recall"]) == (
        1.0,
        0.5,
    )
    assert gamed["localization"]["hunk_precision"] == 0.5
    assert gamed["patch"]["touches"] == {
        "source": ["calc.py"],
        "tests": ["test_calc.py"],
        "other": [],
    }
    assert "the agent's patch edits test files: test_calc.py" in gamed["warnings"]
    assert (fixed["repaired"], gamed["repaired"]) == (True, False)
    # without the repository the hunks are placed from the diffs: no methods
    assert fixed["localization"]["method_recall"] is None


def test_evaluate_places_the_gold_patch_at_the_base_commit_with_repos(tmp_path):
    toy_repository(tmp_path / "repos" / "toy" / "calc")  # toy/calc, committed as in the log
    fixed, gamed = _evaluate(tmp_path, "--repos", str(tmp_path / "repos"))
    add, scale = "calc.py::calc.add(a,b)", "calc.py::calc.scale(values,k)"
    assert fixed["localization"]["reference_methods"] == [add, scale]
    assert fixed["localization"]["methods_found"] == [add, scale]
    assert gamed["localization"]["methods_found"] == [add]  # triple is no gold method
    assert (fixed["localization"]["method_recall"], gamed["localization"]["method_recall"]) == (
        1.0,
        0.5,
    )


def test_the_reward_is_the_first_score_of_one_number():
    from inspect_ai.scorer import Score

    from hunkmetrics.agents.readers.inspect_log import scores_outcome

    outcome = scores_outcome(
        {
            "hunk_localization": Score(value={"hunk_recall": 0.5}),  # several values
            "unscored": Score(value=float("nan")),  # Inspect's "not scored"
            "tests": Score(value="C"),
            "other": Score(value=0.0),
        }
    )
    assert outcome.exit_status == "hunk_localization, unscored=nan, tests=C, other=0.0"
    assert outcome.reward == 1.0
