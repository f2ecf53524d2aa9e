"""hunkmetrics' Inspect scorer (`hunk_localization`) run live: a real Inspect eval with
`mockllm/model` answering scripted bash calls in a `local` sandbox that holds a copy of a git
repository this test builds. Every expected value is worked out below from the gold patch
and the edits the calls make."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai", reason="inspect-ai is not installed (extra `inspect`)")

from inspect_ai import Task  # noqa: E402
from inspect_ai import eval as inspect_eval  # noqa: E402
from inspect_ai.dataset import Sample  # noqa: E402
from inspect_ai.model import ModelOutput, ModelUsage, get_model  # noqa: E402
from inspect_ai.solver import basic_agent  # noqa: E402
from inspect_ai.tool import bash  # noqa: E402

from hunkmetrics.integrations.diff_score import VALUES, score_diff  # noqa: E402
from hunkmetrics.integrations.inspect import hunk_localization  # noqa: E402

from .inspect_toy import commit  # noqa: E402

SHAPES = """def area(w, h):
    return w + h


def describe(w, h):
    kind = "square" if w == h else "rectangle"
    label = kind.title()
    return label


def perimeter(w, h):
    return 2 * (w + h)
"""
UNITS = """def to_cm(inches):
    return inches * 2.45
"""
TESTS = """from shapes import area


def test_area():
    assert area(2, 3) == 6
"""
# The developer's fix: `area` in shapes.py (line 2) and `to_cm` in units.py (line 2).
GOLD = (
    "diff --git a/shapes.py b/shapes.py\n--- a/shapes.py\n+++ b/shapes.py\n"
    "@@ -1,4 +1,4 @@\n def area(w, h):\n-    return w + h\n+    return w * h\n \n \n"
    "diff --git a/units.py b/units.py\n--- a/units.py\n+++ b/units.py\n"
    "@@ -1,2 +1,2 @@\n def to_cm(inches):\n-    return inches * 2.45\n+    return inches * 2.54\n"
)


def _call(n: int, tool: str, arguments: dict[str, object]) -> ModelOutput:
    out = ModelOutput.for_tool_call(
        model="mockllm/model", tool_name=tool, tool_arguments=arguments, tool_call_id=f"c{n}"
    )
    out.usage = ModelUsage(input_tokens=10, output_tokens=1, total_tokens=11)  # no tiktoken
    return out


def _run(tmp_path: Path) -> tuple[object, list[object]]:
    base = commit(
        tmp_path / "repo", {"shapes.py": SHAPES, "units.py": UNITS, "test_shapes.py": TESTS}
    )
    setup = f"cp -a {tmp_path / 'repo'}/. ."  # each sample's sandbox: a copy of the repository
    samples = [
        Sample(input="fix", id="partial", metadata={"patch": GOLD, "base_commit": base}),
        Sample(input="fix", id="no-gold", metadata={"base_commit": base}),
        Sample(input="fix", id="bad-base", metadata={"patch": GOLD, "base_commit": "0" * 40}),
    ]
    for sample in samples:
        sample.setup = setup
    outputs = [
        # partial: fixes `area`, then writes a new file and a test (both untracked)
        _call(1, "bash", {"command": "sed -i '2s/w + h/w * h/' shapes.py"}),
        _call(2, "bash", {"command": "printf 'X = 1\\n' > notes.py"}),
        _call(3, "bash", {"command": "printf 'def test_x():\\n    pass\\n' > test_more.py"}),
        _call(4, "submit", {"answer": "done"}),
        _call(5, "submit", {"answer": "done"}),  # no-gold
        _call(6, "submit", {"answer": "done"}),  # bad-base
    ]
    task = Task(
        dataset=samples,
        solver=basic_agent(tools=[bash()]),
        scorer=hunk_localization(),
        sandbox="local",
    )
    (log,) = inspect_eval(
        task,
        model=get_model("mockllm/model", custom_outputs=outputs),
        log_dir=str(tmp_path / "logs"),
        display="none",
        max_samples=1,
    )
    assert log.status == "success", log.error
    return log, list(log.samples or [])


def test_the_scorer_in_a_live_eval(tmp_path: Path) -> None:
    log, samples = _run(tmp_path)
    scores = {s.id: s.scores["hunk_localization"] for s in samples}  # type: ignore[attr-defined]
    partial, no_gold, bad_base = scores["partial"], scores["no-gold"], scores["bad-base"]
    # partial: candidate files shapes.py, notes.py against gold shapes.py, units.py;
    # test_more.py is a test file, left out. Gold hunks: area (reached), to_cm (missed).
    # Candidate hunks: area (on a gold line), notes.py (an added file: off the gold patch).
    divergence = partial.value["gold_divergence"]
    assert partial.value == {
        "file_recall": 1 / 2,
        "file_precision": 1 / 2,
        "hunk_recall": 1 / 2,
        "hunk_precision": 1 / 2,
        "method_recall": 1 / 2,  # area of area, to_cm
        "file_superset": 0.0,
        "test_files_touched": 1.0,  # test_more.py
        "gold_hunks": 2.0,
        "gold_divergence": divergence,
    }
    # Div = ln 2 · d(h0, h1), d = L · (S + g·F) / (1 + g) (docs/metrics.md), by hand:
    # L: `return w + h ⟂ return w * h` against `return inches * 2.45 ⟂ return inches
    #    * 2.54`, 9 tokens each; aligned in place they keep return, ⟂, return and the
    #    second `*`, 5 substitutions and no cheaper alignment, so L = 5/9.
    # S: h0's bag is empty (same named nodes, only the anonymous operator differs), h1's
    #    is {~float: 1}: no shared key, S = 1.
    # F: shapes.py vs units.py, no common segment, F = 1; two files, g = 2.
    # d = 5/9 · (1 + 2) / 3 = 5/9.
    assert divergence == pytest.approx(math.log(2) * 5 / 9, abs=1e-12)
    loc = partial.metadata["localization"]
    assert loc["methods_found"] == ["shapes.py::shapes.area(w,h)"]
    assert loc["methods_missed"] == ["units.py::units.to_cm(inches)"]
    assert partial.metadata["gold"]["proximity"] == "Orbit"  # two files of one package
    assert partial.metadata["touches"]["tests"] == ["test_more.py"]
    assert partial.metadata["placed_from"] == "sources"
    assert partial.metadata["model_patch"].startswith("diff --git a/notes.py b/notes.py")
    assert "reaches 1 of its 2 hunks" in (partial.explanation or "")
    assert "It edits test files: test_more.py." in (partial.explanation or "")

    # A sample without a gold patch, and one whose base is no commit: NaN everywhere and
    # the reason, never a failed sample.
    for unscored in (no_gold, bad_base):
        assert isinstance(unscored.value, dict) and set(unscored.value) == set(VALUES)
        assert all(math.isnan(v) for v in unscored.value.values())
    assert "has no gold patch (metadata['patch']" in (no_gold.explanation or "")
    assert f"The sandbox's diff against {'0' * 40} failed" in (bad_base.explanation or "")

    # Inspect's mean over the scored samples only: the NaN scores are "unscored".
    results = {s.name: s for s in log.results.scores}  # type: ignore[attr-defined]
    assert set(results) == set(VALUES)
    assert results["hunk_recall"].metrics["mean"].value == 0.5
    assert (results["hunk_recall"].scored_samples, results["hunk_recall"].unscored_samples) == (
        1,
        2,
    )


def test_a_diff_measured_without_sources_says_so() -> None:
    agent = GOLD.split("diff --git a/units.py")[0]  # the shapes.py half of the gold patch
    result = score_diff(GOLD, agent, None, no_sources="sources=False")
    assert result.values["hunk_recall"] == 1 / 2 and result.values["hunk_precision"] == 1.0
    assert math.isnan(result.values["method_recall"])
    assert "placed from the diffs alone (sources=False)" in result.explanation
    assert "Method recall is not measured" in result.explanation
    assert result.metadata["placed_from"] == "diff"
