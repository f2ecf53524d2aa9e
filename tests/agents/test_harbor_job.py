"""Harbor job directories (issue 21): a job laid out as Harbor lays one out, every
document made by Harbor's own code (fixtures/harnesses/make_harbor_job.py: `TrialResult`
dumped by pydantic, the trajectory by Harbor's `convert_mini_swe_agent_to_atif` from a real
mini-swe-agent run; the tasks written as Harbor adapters write them). Expected values are
worked out by hand from what that script puts there."""

from __future__ import annotations

import pytest

pytest.importorskip("tree_sitter_bash")

from hunkmetrics.agents import (  # noqa: E402
    TrajectoryError,
    detect_format,
    read_trajectories,
    read_trajectory,
)

from .fixture_paths import ROOT  # noqa: E402

JOB = ROOT / "fixtures" / "harnesses" / "harbor-job" / "toy-job"
CALLS = [
    "ls && cat calc.py && grep -n 'def ' *.py",
    "python -m pytest -q 2>&1 | tail -5",
    "sed -i 's/a - b/a + b/' calc.py",
    "sed -i 's/v + k/v * k/' calc.py",
    "python -m pytest -q 2>&1 | tail -3",
    "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff",
]


def test_every_trial_of_a_job_is_an_attempt():
    assert detect_format(JOB) == detect_format(JOB / "calc-fix__a1") == "harbor_job"
    solved, timed_out, _ = read_trajectories(JOB)
    for a in (solved, timed_out):
        assert (a.agent, a.agent_version, a.bug_id) == ("mini-swe-agent", "2.4.6", "calc-fix")
        assert a.model == "deterministic_response_api_toolcall"
        assert [c.shell for c in a.calls] == CALLS
    assert (solved.session_id, timed_out.session_id) == ("calc-fix__a1", "calc-fix__b2")
    assert solved.outcome is not None and solved.outcome.exit_status == "reward=1"
    assert timed_out.outcome is not None and timed_out.outcome.exit_status == "reward=0"
    assert (solved.runtime_s, timed_out.runtime_s) == (42.5, 600.0)  # agent_execution
    assert solved.patch is not None and "+    return a + b" in solved.patch
    assert solved.patch_source == "harbor artifact artifacts/agent.diff"
    assert timed_out.patch is None
    # a1's agent_result: 1,200 input tokens of which 200 cached, 90 output
    t = solved.tokens
    assert (t.input_uncached, t.cache_read, t.output) == (1000, 200, 90)
    assert timed_out.warnings == (
        "harbor trial ended with AgentTimeoutError: Agent execution timed out after 600 seconds",
    )


def test_a_trial_alone(tmp_path):
    a = read_trajectory(JOB / "calc-fix__a1")
    assert a.source_format == "harbor_job" and len(a.actions) == 11
    (tmp_path / "result.json").write_text('{"trial_name": "x", "task_name": "t"}')
    with pytest.raises(TrajectoryError, match="without agent/trajectory.json"):
        read_trajectory(tmp_path)


def test_a_multi_step_trial_is_one_attempt_of_its_steps_in_order():
    a = read_trajectory(JOB / "calc-steps__c3")
    assert (a.bug_id, a.session_id) == ("calc-steps", "calc-steps__c3")
    # steps/diagnose holds the run's first two calls, steps/fix the other four
    assert [c.shell for c in a.calls] == CALLS
    # ATIF steps: diagnose = system, user, 2 agent turns; fix = system, user, 3 agent turns
    assert len(a.steps) == 4 + 5
    # steps numbered from 1 across the trial: 1-4 diagnose's, 5-9 fix's
    assert [c.step for c in a.calls] == [3, 4, 7, 7, 8, 9]
    # actions: ls, cat, grep | python, tail | sed | sed | python, tail | echo, git
    assert a.action_count == 3 + 2 + 1 + 1 + 2 + 2
    # the trial's reward is Harbor's mean of its steps' (0 and 1)
    assert a.outcome is not None and a.outcome.reward == 0.5
    assert a.outcome.exit_status == "reward=0.5"
    # no trial-level timing: the steps' agent_execution, 12.5 s + 31 s
    assert a.runtime_s == 43.5
    assert (
        a.runtime_source == "harbor result.json agent_execution (wall clock, summed over the steps)"
    )
    # the steps' agent_result: (500 - 100) + (900 - 300) uncached, 100 + 300 cached, 40 + 70 out
    t = a.tokens
    assert (t.input_uncached, t.cache_read, t.output) == (1000, 400, 110)
    assert a.patch_source == "harbor artifact steps/fix/artifacts/agent.diff"
    assert a.warnings == ()


GOLD = """\
diff --git a/calc.py b/calc.py
--- a/calc.py
+++ b/calc.py
@@ -1,3 +1,3 @@
 def add(a, b):
-    return a - b
+    return a + b
 
@@ -5,2 +5,2 @@
 def scale(values, k):
-    return [v + k for v in values]
+    return [v * k for v in values]
"""


def test_the_gold_patch_comes_from_the_task_next_to_the_job():
    # calc-fix: in a heredoc of solution/solve.sh, repository and base commit in task.toml
    solved = read_trajectory(JOB / "calc-fix__a1")
    assert solved.task is not None
    assert solved.task.gold_patch == GOLD
    assert (
        solved.task.gold_source == "harbor task calc-fix/solution/solve.sh (heredoc __SOLUTION__)"
    )
    assert (solved.task.repository, solved.task.base_commit) == ("toy/calc", "35f9119")
    # calc-steps: solution/fix.patch, no repository named
    steps = read_trajectory(JOB / "calc-steps__c3")
    assert steps.task is not None and steps.task.gold_patch == GOLD
    assert steps.task.gold_source == "harbor task calc-steps/solution/fix.patch"
    assert (steps.task.repository, steps.task.base_commit) == (None, None)


def test_a_task_that_is_not_here_is_said(tmp_path):
    import shutil

    shutil.copytree(JOB / "calc-fix__a1", tmp_path / "job" / "calc-fix__a1")
    a = read_trajectory(tmp_path / "job" / "calc-fix__a1")
    assert a.task is None
    assert a.warnings == (
        "harbor task tasks/calc-fix is not here: no gold patch from its solution/ "
        "(name one with --reference)",
    )
