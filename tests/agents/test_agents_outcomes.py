"""Harness outcomes: defects4j output, JUnit XML, manifest columns (hand-written fixtures)."""

from __future__ import annotations

import pytest

from hunkmetrics.agents.model import Outcome
from hunkmetrics.agents.outcomes import (
    OutcomeError,
    merge,
    outcome_from_columns,
    parse_defects4j,
    read_outcome,
)

from .fixture_paths import FIXTURES

OUT = FIXTURES / "outcomes"


def test_defects4j_failing_tests_and_their_names() -> None:
    outcome = read_outcome(OUT / "d4j-failing.txt")
    assert outcome.compiled is True
    assert outcome.failing_after == 2
    assert outcome.failing_tests == (
        "org.jfree.chart.FooTests::testDraw",
        "org.jfree.chart.FooTests::testDrawZero",
    )


def test_defects4j_passing() -> None:
    outcome = read_outcome(OUT / "d4j-passing.txt")
    assert (outcome.compiled, outcome.failing_after, outcome.failing_tests) == (True, 0, ())


def test_defects4j_compile_failure_has_no_counts() -> None:
    outcome = read_outcome(OUT / "d4j-compile-fail.txt")
    assert outcome.compiled is False
    assert outcome.failing_after is None
    assert "compilation failed" in outcome.source


def test_defects4j_miscounted_and_unrelated_output_are_errors() -> None:
    with pytest.raises(OutcomeError, match="says 3 failing tests but lists 1"):
        read_outcome(OUT / "d4j-miscounted.txt")
    with pytest.raises(OutcomeError, match="no `Failing tests: N` line"):
        parse_defects4j("BUILD SUCCESSFUL\n")


def test_surefire_report_directory() -> None:
    # CalcTest: `divides` fails (`skips` is skipped, not failing); ParseTest: an error.
    outcome = read_outcome(OUT / "surefire")
    assert outcome.compiled is True
    assert outcome.failing_after == 2
    assert outcome.failing_tests == (
        "org.example.CalcTest::divides",
        "org.example.ParseTest::parsesEmpty",
    )


def test_pytest_junitxml() -> None:
    outcome = read_outcome(OUT / "pytest.xml")
    assert outcome.failing_after == 1
    assert outcome.failing_tests == ("tests.test_calc::test_div[2-0]",)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("entities.xml", "DTD or entity"),
        ("not-junit.xml", "not a JUnit test report"),
        ("truncated.xml", "not well-formed"),
    ],
)
def test_unsafe_or_bad_xml_is_refused(name: str, message: str) -> None:
    with pytest.raises(OutcomeError, match=message):
        read_outcome(OUT / name)


def test_manifest_columns() -> None:
    assert outcome_from_columns(
        {"compiled": "1", "failing_before": "3", "failing_after": "0"}
    ) == Outcome(True, 3, 0, source="manifest columns")
    # The study's compile_fail column, inverted.
    got = outcome_from_columns({"compile_fail": "1", "failing_before": "2"})
    assert got is not None and (got.compiled, got.failing_before) == (False, 2)
    assert outcome_from_columns({"compiled": "", "failing_after": " "}) is None
    with pytest.raises(OutcomeError, match="column compiled"):
        outcome_from_columns({"compiled": "maybe"})
    with pytest.raises(OutcomeError, match="column failing_after"):
        outcome_from_columns({"failing_after": "-1"})


def test_merge_before_after_and_columns() -> None:
    after = read_outcome(OUT / "d4j-passing.txt")
    before = read_outcome(OUT / "d4j-failing.txt")
    merged = merge(after, before)
    assert merged is not None
    assert (merged.compiled, merged.failing_before, merged.failing_after) == (True, 2, 0)
    # Columns fill only what the files leave unknown.
    cols = Outcome(False, 9, 9, source="manifest columns")
    filled = merge(after, None, cols)
    assert filled is not None
    assert (filled.compiled, filled.failing_before, filled.failing_after) == (True, 9, 0)
    assert merge(None, None, cols) == cols
    assert merge(None) is None


def test_gradle_report_with_cdata() -> None:
    # Gradle's JUnit XML: JUnit 5 display names, CDATA stack traces and system-out (which
    # holds a `<!DOCTYPE html>` a test printed: data, not a DTD).
    outcome = read_outcome(OUT / "gradle")
    assert outcome.failing_after == 1
    assert outcome.failing_tests == ("com.example.ListsTest::reverse(int)[1]",)
