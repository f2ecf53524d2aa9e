"""The range Div(P) can take, per profile, and the range the table prints."""

from __future__ import annotations

import math

import pytest
from typer.testing import CliRunner

import hunkmetrics
from hunkmetrics.cli.app import app
from hunkmetrics.metrics.profiles import PROFILES

# Two one-segment files with nothing in common: L = 1 (no shared token), S = 1 (different
# files), F = 1 - (0 - 1)/1 = 2 uncapped, 1 capped; g = 2.
WORST_PAIR = """\
diff --git a/A.java b/A.java
--- a/A.java
+++ b/A.java
@@ -1 +1 @@
-alpha
+beta
diff --git a/B.java b/B.java
--- a/B.java
+++ b/B.java
@@ -1 +1 @@
-gamma
+delta
"""


@pytest.mark.parametrize(
    ("profile", "g", "factor"),
    [
        ("default", 2.0, 1.0),
        ("birch", 2.0, 5 / 3),  # (1 + 2·2)/(1 + 2)
        ("birch", 0.0, 1.0),  # g = 0: d = L·S
        ("birch", 1.0, 1.5),  # (1 + 1·2)/(1 + 1)
    ],
)
def test_largest_pair_distance(profile: str, g: float, factor: float) -> None:
    assert PROFILES[profile].max_pair_distance(g) == pytest.approx(factor)


def test_birch_reaches_its_bound() -> None:
    # d = 1·(1 + 2·2)/3 = 5/3 for the one pair; Div = ln 2 · 5/3, above ln 2.
    result = hunkmetrics.divergence(WORST_PAIR, profile="birch")
    assert result.value == pytest.approx(math.log(2) * 5 / 3)
    # default: the token sequences [alpha, SEP, beta] and [gamma, SEP, delta] share the
    # separator, L = 2/3; both hunks swap one identifier for another, so their AST edit
    # bags are equal, S = 0; F capped at 1: d = 2/3 · (0 + 2·1)/3 = 4/9, within ln 2.
    assert hunkmetrics.divergence(WORST_PAIR).value == pytest.approx(math.log(2) * 4 / 9)


def test_the_table_prints_the_profiles_range() -> None:
    runner = CliRunner()
    default = runner.invoke(app, ["divergence", "-"], input=WORST_PAIR, env={"COLUMNS": "200"})
    birch = runner.invoke(
        app, ["divergence", "-", "--profile", "birch"], input=WORST_PAIR, env={"COLUMNS": "200"}
    )
    assert "range [0, ln n = 0.6931]" in default.stdout
    assert "range [0, 1.667 · ln n = 1.1552]" in birch.stdout
