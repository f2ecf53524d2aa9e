"""Every table of `summarize` on a small made-up set of attempts, each value worked out
by hand in the comments."""

from __future__ import annotations

import math

import pytest

from hunkmetrics.agents.study import (
    BugTraits,
    HunkTouch,
    Settings,
    StudyAttempt,
    StudySummary,
    summarize,
)

SETTINGS = Settings(top_k=2, windows=(2, 3))


def _a(agent: str, bug: str, **kw: object) -> StudyAttempt:
    return StudyAttempt(id=f"{agent}/{bug}", agent=agent, bug=bug, **kw)  # type: ignore[arg-type]


# Agent A (sequences, Claude-style cache breakdown), agent B (category counts only), and B
# again under the condition `maple` on two of the three bugs.
ATTEMPTS = [
    _a(
        "A", "X_1", ls=True, compiled=True, repaired=True, regression_reduction=2,
        input_tokens=100, input_uncached=10, cache_write=20, cache_read=70, output_tokens=10,
        runtime_s=10.0, sequence=("READ", "WRITE", "BUILD", "TEST"),
        native_tools=("Edit", "Read"), shell_commands=("defects4j test",),
        hunks=(HunkTouch(0, 0, None, 1), HunkTouch(1, 2, None, None)),
    ),
    _a(
        "A", "X_2", ls=False, compiled=True, repaired=False, regression_reduction=-1,
        input_tokens=300, input_uncached=30, cache_write=60, cache_read=210, output_tokens=30,
        runtime_s=30.0, sequence=("READ", "READ", "WRITE"), native_tools=("Read",),
        shell_commands=("git diff",), hunks=(HunkTouch(0, 4, None, 6),),
    ),
    _a(
        "A", "X_3", ls=False, compiled=False, repaired=False, regression_reduction=None,
        input_tokens=200, input_uncached=50, cache_write=50, cache_read=100, output_tokens=20,
        runtime_s=50.0, sequence=("READ", "WRITE", "READ", "WRITE"),
        native_tools=("Edit", "Read"),
    ),
    _a(
        "B", "X_1", ls=True, compiled=True, repaired=True, regression_reduction=0,
        input_tokens=1000, input_uncached=1000, cache_write=0, cache_read=0, output_tokens=100,
        runtime_s=100.0, categories={"READ": 1, "WRITE": 1}, shell_commands=("ls",),
    ),
    _a(
        "B", "X_2", ls=True, compiled=True, repaired=True, regression_reduction=3,
        input_tokens=2000, input_uncached=2000, cache_write=0, cache_read=0, output_tokens=200,
        runtime_s=200.0, categories={"WRITE": 2, "TEST": 2},
    ),
    _a(
        "B", "X_3", ls=False, compiled=True, repaired=False, regression_reduction=0,
        input_tokens=3000, input_uncached=3000, cache_write=0, cache_read=0, output_tokens=300,
        runtime_s=300.0, categories={"READ": 4},
    ),
    _a(
        "B", "X_2", condition="maple", ls=True, compiled=True, repaired=True,
        regression_reduction=1, input_tokens=500, runtime_s=50.0,
    ),
    _a(
        "B", "X_3", condition="maple", ls=True, compiled=True, repaired=True,
        regression_reduction=2, input_tokens=700, runtime_s=70.0,
    ),
    StudyAttempt(id="A/X_9", agent="A", bug="X_9", error="trajectory unreadable"),
]  # fmt: skip
BUGS = {
    "x_1": BugTraits("X_1", 2, 0.2, "Nucleus"),
    "x_2": BugTraits("X_2", 3, 0.5, "Cluster"),
    "x_3": BugTraits("X_3", 4, 0.8, "Nucleus"),
}


@pytest.fixture(scope="module")
def summary() -> StudySummary:
    return summarize(iter(ATTEMPTS), BUGS, SETTINGS)


def test_groups_and_skipped_errors(summary: StudySummary) -> None:
    assert summary.groups == ("A", "B", "B [maple]")
    assert (summary.attempts, summary.skipped) == (8, 1)


def test_table_2(summary: StudySummary) -> None:
    a, b, m = summary.table2.rows
    # A: LS 1 of 3, compiled 2 of 3, RR defined for X_1 (2) and X_2 (−1): mean 0.5.
    assert (a.bugs, a.ls.count, a.compiled.count, a.repaired.count) == (3, 1, 2, 1)
    assert a.ls.value == pytest.approx(1 / 3)
    assert (a.mean_rr, a.rr_n) == (0.5, 2)
    # B: LS 2/3, compiled 3/3, RR 0, 3, 0 → 1.0, repaired 2/3.
    assert (b.ls.count, b.compiled.count, b.mean_rr, b.repaired.count) == (2, 3, 1.0, 2)
    # B with MAPLE: 2 of 2 everywhere, RR 1 and 2 → 1.5; a rate of 1 has the interval [1, 1].
    assert (m.bugs, m.mean_rr, m.repaired.value, m.repaired.low, m.repaired.high) == (
        2,
        1.5,
        1.0,
        1.0,
        1.0,
    )
    for rate in (a.ls, a.compiled, a.repaired, b.ls, b.repaired):
        assert rate.low is not None and rate.high is not None and rate.value is not None
        assert rate.low <= rate.value <= rate.high


def test_table_3(summary: StudySummary) -> None:
    t3 = summary.table3
    assert t3 is not None
    assert t3.classes == ("Nucleus", "Cluster")
    a, b, m = t3.rows
    # A fixed X_1 (0.2); did not fix X_2 (0.5) and X_3 (0.8).
    assert (a.fixed.n, a.fixed.median, a.fixed.max) == (1, 0.2, 0.2)
    assert (a.unfixed.n, a.unfixed.median, a.unfixed.mean, a.unfixed.max) == pytest.approx(
        (2, 0.65, 0.65, 0.8)
    )
    # Nucleus: X_1 fixed, X_3 not → 1/2; Cluster: X_2 not → 0/1.
    assert (a.by_proximity["Nucleus"].count, a.by_proximity["Nucleus"].n) == (1, 2)
    assert a.by_proximity["Cluster"].value == 0.0
    # B fixed X_1, X_2 (0.2, 0.5) → median 0.35; Cluster 1/1.
    assert (b.fixed.n, b.fixed.median, b.fixed.max) == pytest.approx((2, 0.35, 0.5))
    assert b.by_proximity["Cluster"].value == 1.0
    assert (m.unfixed.n, m.unfixed.mean) == (0, None)


def test_table_4(summary: StudySummary) -> None:
    t4 = summary.table4
    # Only plain runs count: X_3 is the one bug neither A nor B fixed.
    assert t4.groups == ("A", "B")
    (bug,) = t4.bugs
    assert (bug.bug, dict(bug.ls), bug.hunk_count, bug.divergence, bug.proximity) == (
        "X_3",
        {"A": False, "B": False},
        4,
        0.8,
        "Nucleus",
    )
    assert dict(t4.ls_unfixed) == {"A": 0.0, "B": 0.0}
    assert dict(t4.ls_all) == pytest.approx({"A": 1 / 3, "B": 2 / 3})
    # Hunks: 4 against (2 + 3 + 4) / 3 = 3; divergence 0.8 against 0.5.
    assert (t4.hunks_unfixed, t4.hunks_all) == (4.0, 3.0)
    assert (t4.divergence_unfixed, t4.divergence_all) == pytest.approx((0.8, 0.5))
    rows = t4.table().rows
    assert rows[-1][0] == "Δ (unfixed − all)"
    assert rows[-1][1:] == pytest.approx((-1 / 3, -2 / 3, 1.0, 0.3, None))


def test_table_5(summary: StudySummary) -> None:
    rows = {(r.group, r.outcome): r for r in summary.table5.rows}
    p, f = rows["A", "passing"], rows["A", "failing"]
    assert (p.n, p.input_mean, p.output_mean, p.input_std) == (1, 100.0, 10.0, None)
    assert (p.new_input_mean, p.cache_write_mean, p.cache_read_mean) == (10.0, 20.0, 70.0)
    # Failing X_2, X_3: input (300 + 200) / 2, σ = √((50² + 50²) / 1) = √5000.
    assert (f.n, f.input_mean, f.output_mean) == (2, 250.0, 25.0)
    assert f.input_std == pytest.approx(math.sqrt(5000))
    assert (f.new_input_mean, f.cache_write_mean, f.cache_read_mean) == (40.0, 55.0, 155.0)
    # B's tokens have no cache: no breakdown.
    bp = rows["B", "passing"]
    assert (bp.n, bp.input_mean, bp.output_mean) == (2, 1500.0, 150.0)
    assert bp.input_std == pytest.approx(math.sqrt(500_000))
    assert (bp.new_input_mean, bp.cache_write_mean, bp.cache_read_mean) == (None, None, None)


def test_table_6(summary: StudySummary) -> None:
    rows = {r.group: r for r in summary.table6.rows}
    assert (rows["A"].passing_mean, rows["A"].failing_mean) == (10.0, 40.0)
    assert (rows["B"].passing_mean, rows["B"].failing_mean) == (150.0, 300.0)
    assert (rows["B [maple]"].passing_mean, rows["B [maple]"].failing_n) == (60.0, 0)
    # The average of the plain agents' means: (10 + 150) / 2 and (40 + 300) / 2.
    avg = summary.table6.average
    assert (avg.group, avg.passing_mean, avg.failing_mean) == ("average of 2 agents", 80.0, 170.0)
    assert (avg.passing_n, avg.failing_n) == (3, 3)


def test_table_7(summary: StudySummary) -> None:
    rows = {r.group: r for r in summary.table7.rows}
    assert rows["A"].native_tools == ("Edit", "Read")
    assert rows["A"].shell_commands == ("defects4j test", "git diff")
    assert (rows["B"].native_tools, rows["B"].shell_commands) == ((), ("ls",))


def test_table_8(summary: StudySummary) -> None:
    t8 = summary.table8
    assert t8.categories == ("BUILD", "READ", "TEST", "WRITE")
    rows = {(r.group, r.outcome): r for r in t8.rows}
    # B [maple] has no category counts: left out.
    assert {g for g, _ in rows} == {"A", "B"}
    # A passing: R W B T, a quarter each; failing: R R W + R W R W = 4 READ, 3 WRITE.
    assert rows["A", "passing"].actions == 4
    assert dict(rows["A", "passing"].shares) == {
        "READ": 0.25,
        "WRITE": 0.25,
        "BUILD": 0.25,
        "TEST": 0.25,
    }
    assert dict(rows["A", "failing"].shares) == pytest.approx({"READ": 4 / 7, "WRITE": 3 / 7})
    assert rows["A", "all"].actions == 11
    # B pooled: passing 1 READ + 3 WRITE + 2 TEST of 6; all 5 READ of 10.
    assert dict(rows["B", "passing"].shares) == pytest.approx(
        {"READ": 1 / 6, "WRITE": 3 / 6, "TEST": 2 / 6}
    )
    assert rows["B", "all"].shares["READ"] == 0.5


def test_sequence_patterns(summary: StudySummary) -> None:
    got = {
        (r.group, r.outcome, r.window, r.rank): (r.pattern, r.frequency)
        for r in summary.patterns.rows
    }
    shares = {(r.group, r.outcome, r.window, r.rank): r.share for r in summary.patterns.rows}
    # Only A carries sequences. Passing, w=2: RW, WB, BT once each; ties go alphabetically.
    assert got["A", "passing", 2, 1] == (("BUILD", "TEST"), 1)
    assert got["A", "passing", 2, 2] == (("READ", "WRITE"), 1)
    assert shares["A", "passing", 2, 1] == pytest.approx(1 / 3)
    assert got["A", "passing", 3, 1] == (("READ", "WRITE", "BUILD"), 1)
    # Failing, w=2: R R W gives RR, RW; R W R W gives RW, WR, RW: RW 3 of 5.
    assert got["A", "failing", 2, 1] == (("READ", "WRITE"), 3)
    assert shares["A", "failing", 2, 1] == pytest.approx(3 / 5)
    assert got["A", "failing", 2, 2] == (("READ", "READ"), 1)
    # All, w=2: 3 + 2 + 3 windows, RW in 4 of them.
    assert got["A", "all", 2, 1] == (("READ", "WRITE"), 4)
    assert shares["A", "all", 2, 1] == 0.5
    assert ("A", "all", 3, 3) not in got  # top 2 only
    assert not any(r.group == "B" for r in summary.patterns.rows)


def test_rr_distribution(summary: StudySummary) -> None:
    rows = {r.group: r for r in summary.rr.rows}
    a, b = rows["A"], rows["B"]
    # A: RR 2 and −1: half positive, half negative; σ = √(1.5² + 1.5²) = √4.5.
    assert (a.positive.value, a.zero.value, a.negative.value) == (0.5, 0.0, 0.5)
    assert (a.spread.mean, a.spread.min, a.spread.max) == (0.5, -1.0, 2.0)
    assert a.spread.std == pytest.approx(math.sqrt(4.5))
    assert a.repair_rate == pytest.approx(1 / 3)
    # B: RR 0, 3, 0: σ = √((1 + 4 + 1) / 2) = √3.
    assert (b.positive.value, b.zero.value) == pytest.approx((1 / 3, 2 / 3))
    assert b.spread.std == pytest.approx(math.sqrt(3))
    # Two plain agents: no correlation.
    assert (summary.rr.correlation.r, summary.rr.correlation.n) == (None, 2)


def test_rr_correlation_over_three_agents() -> None:
    # Repair rates 0, 0.5, 1 and mean RR 0, 2, 1: r = 0.5 / √(0.5 · 2) = 0.5; with 1
    # degree of freedom t = 0.5 / √(0.75 / 1) = 1/√3 and p = 1 − (2/π)·atan(1/√3) = 2/3.
    attempts = [
        _a("C", "X_1", repaired=False, regression_reduction=0, compiled=True),
        _a("D", "X_1", repaired=True, regression_reduction=3, compiled=True),
        _a("D", "X_2", repaired=False, regression_reduction=1, compiled=True),
        _a("E", "X_1", repaired=True, regression_reduction=1, compiled=True),
    ]
    c = summarize(attempts).rr.correlation
    assert c.n == 3
    assert c.r == pytest.approx(0.5)
    assert c.p == pytest.approx(2 / 3)


def test_table_9(summary: StudySummary) -> None:
    t9 = summary.table9
    assert t9 is not None
    rows = {r.measure: r for r in t9.rows}
    assert {(r.agent, r.condition, r.bugs) for r in t9.rows} == {("B", "maple", 2)}
    # Before: B on X_2 (repaired, LS) and X_3 (neither); after: both repaired with LS.
    assert (rows["repaired"].before, rows["repaired"].after, rows["repaired"].delta) == (
        0.5,
        1.0,
        0.5,
    )
    assert (rows["ls"].before, rows["ls"].after) == (0.5, 1.0)
    assert (rows["mean_rr"].before, rows["mean_rr"].after, rows["mean_rr"].delta) == (1.5, 1.5, 0.0)
    assert (rows["mean_input_tokens"].before, rows["mean_input_tokens"].after) == (2500.0, 600.0)
    assert (rows["mean_runtime_s"].before, rows["mean_runtime_s"].after) == (250.0, 60.0)


def test_no_condition_no_table_9() -> None:
    assert summarize([_a("A", "X_1", repaired=True)]).table9 is None


def test_first_touch_by_proximity(summary: StudySummary) -> None:
    ft = summary.first_touch
    assert ft is not None
    rows = {(r.group, r.proximity): r for r in ft.rows}
    assert set(rows) == {("A", "Cluster"), ("A", "Nucleus")}
    # X_1 (Nucleus): hunks read at action 0 and 2 (1 and 3 actions in), one edited at 1.
    n = rows["A", "Nucleus"]
    assert (n.hunks, n.read.value, n.read_actions.median, n.edited.count) == (2, 1.0, 2.0, 1)
    assert n.edit_actions.mean == 2.0
    c = rows["A", "Cluster"]
    assert (c.hunks, c.read_actions.mean, c.edit_actions.mean) == (1, 5.0, 7.0)


def test_first_touch_without_bugs() -> None:
    ft = summarize(ATTEMPTS).first_touch
    assert ft is not None
    (row,) = ft.rows
    # Read at 1, 3 and 5 actions in (median 3); edited 2 of 3 hunks, at 2 and 7 (4.5).
    assert (row.group, row.proximity, row.hunks) == ("A", "all", 3)
    assert (row.read_actions.median, row.edited.value) == (3.0, pytest.approx(2 / 3))
    assert row.edit_actions.median == 4.5


def test_every_table_as_rows(summary: StudySummary) -> None:
    tables = summary.tables()
    assert [t.name for t in tables] == [
        "table2",
        "table3",
        "table4",
        "table5",
        "table6",
        "table7",
        "table8",
        "patterns",
        "rr",
        "table9",
        "first_touch",
    ]
    for t in tables:
        assert all(len(row) == len(t.header) for row in t.rows), t.name
        assert t.percent <= set(t.header), t.name


def test_per_bug_table(summary: StudySummary) -> None:
    rows = summary.per_bug.rows
    # Every attempt but the error, by bug then agent.
    assert [(r.bug, r.group) for r in rows] == [
        ("X_1", "A"),
        ("X_1", "B"),
        ("X_2", "A"),
        ("X_2", "B"),
        ("X_2", "B [maple]"),
        ("X_3", "A"),
        ("X_3", "B"),
        ("X_3", "B [maple]"),
    ]
    x3 = rows[5]
    assert (x3.outcome, x3.compiled, x3.regression_reduction, x3.input_tokens) == (
        "failing",
        False,
        None,
        200,
    )
    assert (x3.hunk_count, x3.divergence, x3.proximity) == (4, 0.8, "Nucleus")
    assert summary.tables(per_bug=True)[-1].name == "per_bug"
    assert "per_bug" not in [t.name for t in summary.tables()]


def test_kept_attempts_lose_only_their_actions() -> None:
    from dataclasses import fields, replace

    from hunkmetrics.agents.study.summary import _scalars

    full = replace(
        ATTEMPTS[0],
        condition="maple",
        source="study-import",
        error="e",
        tool_calls=3,
        actions=4,
        categories={"READ": 4},
        reference=BugTraits(ATTEMPTS[0].bug, 3, 0.5, "Orbit"),
    )
    assert all(getattr(full, f.name) not in (None, ()) for f in fields(full))
    assert _scalars(full) == replace(full, sequence=None, categories={})


def test_traits_carried_by_the_attempt_lines_replace_bugs() -> None:
    from dataclasses import replace

    from hunkmetrics.agents.study.records import parse_attempt

    # A line as `agents evaluate` writes it when it measured against a gold patch.
    line = {
        "id": "A/X_1",
        "agent": "A",
        "bug": "X_1",
        "error": None,
        "repaired": True,
        "reference_traits": {
            "profile": "default",
            "hunk_count": 2,
            "divergence": 0.2,
            "proximity": "Nucleus",
        },
    }
    assert parse_attempt(line).reference == BugTraits("X_1", 2, 0.2, "Nucleus")
    with_traits = [replace(a, reference=BUGS[a.key]) if a.key in BUGS else a for a in ATTEMPTS]
    from_lines = summarize(iter(with_traits), None, SETTINGS)
    from_bugs = summarize(iter(ATTEMPTS), BUGS, SETTINGS)
    assert from_lines.table3 == from_bugs.table3
    assert from_lines.per_bug == from_bugs.per_bug
    # Without traits anywhere, there is no Table 3.
    assert summarize(iter(ATTEMPTS), None, SETTINGS).table3 is None
