"""`hunkmetrics report`: the numbers by hand, outcome parsing, the page being
self-contained, graceful degradation and the command's exit codes.

Every expected number below is worked out by hand in the comments, never by running
the code. The browser-side checks (rendering, console errors) are in
test_report_browser.py."""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import hunkmetrics
from hunkmetrics.cli.app import app
from hunkmetrics.errors import HunkmetricsError
from hunkmetrics.report import build_report, write_report
from hunkmetrics.report.data import (
    NO_CLASS,
    class_order,
    join,
    load_outcomes,
    load_results,
    parse_bool,
)
from hunkmetrics.report.stats import (
    ALL,
    agent_rows,
    auc,
    auc_rows,
    average_ranks,
    class_rows,
    roc_points,
)

pytest.importorskip("matplotlib")

ROOT = Path(__file__).resolve().parents[1]
FP1, FP2 = "aaaaaaaaaaaa", "bbbbbbbbbbbb"
runner = CliRunner()


# ---------------------------------------------------------------- synthetic inputs


def record(
    rid: str,
    div: float,
    hunks: int,
    label: str | None,
    fingerprint: str = FP1,
    profile: str = "default",
) -> dict:
    """A minimal results line: what a batch run writes, cut to what the report reads."""
    return {
        "id": rid,
        "error": None,
        "schema": "hunkmetrics/characterize/v1",
        "tool": {"name": "hunkmetrics", "version": "0.1.0"},
        "config": {
            "profile": profile,
            "distributed_weight": 2.0,
            "cutoff": None,
            "hunking": "as-given",
            "reverse": False,
            "fingerprint": fingerprint,
        },
        "profile": profile,
        "hunk_count": hunks,
        "divergence": {
            "value": div,
            "means": {"lexical": 0.5, "structural": 0.5, "file": 0.0},
            "pairs": [],
        },
        "proximity": {"class": label},
    }


def failed(rid: str, message: str = "SourceError: sources do not match") -> dict:
    return {"id": rid, "error": message}


def write_jsonl(path: Path, lines: list[dict | str]) -> Path:
    path.write_text(
        "".join((json.dumps(x) if isinstance(x, dict) else x) + "\n" for x in lines),
        encoding="utf-8",
    )
    return path


# The hand-made study: six bugs, two agents.
#   id  Div   n  class      A fixed?  B fixed?  A localized?
#   b1  0.2   2  Cluster    yes       yes       yes
#   b2  0.4   3  Cluster    yes       no        yes
#   b3  0.9   4  Cluster    yes       yes       no
#   b4  0.5   2  Cluster    no        yes       no
#   b5  1.0   5  Fragment   no        no        yes
#   b6  1.2   6  Fragment   no        yes       (empty)
STUDY = [
    ("b1", 0.2, 2, "Cluster"),
    ("b2", 0.4, 3, "Cluster"),
    ("b3", 0.9, 4, "Cluster"),
    ("b4", 0.5, 2, "Cluster"),
    ("b5", 1.0, 5, "Fragment"),
    ("b6", 1.2, 6, "Fragment"),
]
OUTCOMES = """id,agent,fixed,localized
b1,A,true,true
b2,A,1,yes
b3,A,yes,false
b4,A,false,0
b5,A,no,1
b6,A,0,
b1,B,TRUE,
b2,B,False,
b3,B,Yes,
b4,B,1,
b5,B,0,
b6,B,true,
ghost,A,true,true
"""


@pytest.fixture
def study(tmp_path: Path) -> tuple[Path, Path]:
    results = write_jsonl(
        tmp_path / "results.jsonl", [record(*row) for row in STUDY] + [failed("broken")]
    )
    outcomes = tmp_path / "outcomes.csv"
    outcomes.write_text(OUTCOMES, encoding="utf-8")
    return results, outcomes


# ---------------------------------------------------------------- AUC


def brute_auc(pos: list[float], neg: list[float]) -> float:
    """The definition: P(pos > neg) + ½ P(pos = neg) over all pairs."""
    wins = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def test_average_ranks_share_ties() -> None:
    # 10 → rank 1; the two 20s take ranks 2 and 3 → 2.5 each; 30 → 4.
    assert average_ranks([20, 10, 30, 20]) == [2.5, 1, 4, 2.5]
    assert average_ranks([5, 5, 5]) == [2, 2, 2]
    assert average_ranks([]) == []


def test_auc_perfect_reversed_equal() -> None:
    assert auc([2, 3], [0, 1]) == 1.0  # every positive above every negative
    assert auc([0, 1], [2, 3]) == 0.0  # every positive below
    assert auc([1, 1], [1, 1, 1]) == 0.5  # all tied: each pair counts ½
    assert auc([7], [7]) == 0.5


def test_auc_with_ties_by_hand() -> None:
    # positives 1, 2, 2; negatives 0, 2. Pairs: 1>0 (1), 1<2 (0), 2>0 (1), 2=2 (½),
    # 2>0 (1), 2=2 (½) → 4 of 6 = 0.6667.
    # By ranks: pooled 0,1,2,2,2 → ranks 1,2,4,4,4; positives 2+4+4 = 10;
    # U = 10 − 3·4/2 = 4; AUC = 4/(3·2).
    assert auc([1, 2, 2], [0, 2]) == pytest.approx(4 / 6)


def test_auc_empty_group_is_undefined() -> None:
    assert auc([], [1, 2]) is None
    assert auc([1], []) is None


def test_auc_agrees_with_the_definition_on_random_ties() -> None:
    rng = random.Random(7)
    for _ in range(300):
        pos = [rng.randint(0, 4) for _ in range(rng.randint(1, 9))]
        neg = [rng.randint(0, 4) for _ in range(rng.randint(1, 9))]
        assert auc(pos, neg) == pytest.approx(brute_auc(pos, neg))


def test_roc_points_enclose_the_auc() -> None:
    rng = random.Random(3)
    for _ in range(100):
        pos = [rng.randint(0, 5) / 2 for _ in range(rng.randint(1, 8))]
        neg = [rng.randint(0, 5) / 2 for _ in range(rng.randint(1, 8))]
        points = roc_points(pos, neg)
        assert points[0] == (0.0, 0.0) and points[-1] == (1.0, 1.0)
        area = sum((x1 - x0) * (y0 + y1) / 2 for (x0, y0), (x1, y1) in itertools.pairwise(points))
        assert area == pytest.approx(auc(pos, neg))
    assert roc_points([], [1]) == []


# ---------------------------------------------------------------- outcomes CSV


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("true", True),
        ("TRUE", True),
        (" yes ", True),
        ("1", True),
        ("Yes", True),
        ("false", False),
        ("No", False),
        ("0", False),
        ("", None),
        ("maybe", None),
        ("2", None),
    ],
)
def test_parse_bool(text: str, value: bool | None) -> None:
    assert parse_bool(text) is value


def test_outcomes_any_column_order_case_bom_and_extras(tmp_path: Path) -> None:
    path = tmp_path / "o.csv"
    path.write_text(
        "\ufeffAgent, FIXED ,notes,ID\ncodex,yes,hard one,Lang_1\n\n"
        "codex,0,,Lang_2\nclaude,1,,Lang_1\ncodex,true,,Lang_2\n",
        encoding="utf-8",
    )
    outcomes = load_outcomes(path)
    assert not outcomes.has_localized
    assert outcomes.agents == ["claude", "codex"]
    # Lang_2/codex appears twice: the later line (true) wins and is counted.
    assert outcomes.duplicates == 1
    got = {(o.id, o.agent): (o.fixed, o.localized) for o in outcomes.rows}
    assert got == {
        ("Lang_1", "codex"): (True, None),
        ("Lang_1", "claude"): (True, None),
        ("Lang_2", "codex"): (True, None),
    }


def test_outcomes_localized_column(study) -> None:
    _, path = study
    outcomes = load_outcomes(path)
    assert outcomes.has_localized
    got = {(o.id, o.agent): o.localized for o in outcomes.rows}
    assert got["b1", "A"] is True and got["b3", "A"] is False and got["b6", "A"] is None
    assert got["b1", "B"] is None


@pytest.mark.parametrize(
    "header", ["id,agent", "bug,agent,fixed", "", "id,agent,fixed,id", "id;agent;fixed"]
)
def test_bad_outcomes_header_is_an_input_error(tmp_path: Path, header: str) -> None:
    path = tmp_path / "o.csv"
    path.write_text(header + ("\n" if header else ""), encoding="utf-8")
    with pytest.raises(HunkmetricsError, match="outcomes header") as caught:
        load_outcomes(path)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("b1,A,maybe", r"o\.csv:3: fixed must be"),
        ("b1,A,true,perhaps", r"o\.csv:3: localized must be"),
        (",A,true", r"o\.csv:3: empty id"),
        ("b1,,true", r"o\.csv:3: empty agent"),
    ],
)
def test_bad_outcome_value_names_the_line(tmp_path: Path, row: str, message: str) -> None:
    path = tmp_path / "o.csv"
    path.write_text(f"id,agent,fixed,localized\nb0,A,true,\n{row}\n", encoding="utf-8")
    with pytest.raises(HunkmetricsError, match=message):
        load_outcomes(path)


def test_missing_outcomes_file(tmp_path: Path) -> None:
    with pytest.raises(HunkmetricsError, match="no such outcomes file"):
        load_outcomes(tmp_path / "nope.csv")


# ---------------------------------------------------------------- results


def test_results_reading_counts_bad_lines_and_keeps_the_last_duplicate(tmp_path) -> None:
    path = write_jsonl(
        tmp_path / "r.jsonl",
        [
            record("x", 0.3, 2, "Cluster"),
            failed("y"),
            "[1, 2]",
            record("x", 0.7, 3, "Orbit"),
            {"id": "z", "error": None, "hunk_count": 2},  # no divergence: reported as an error
            {
                "id": 5,
                "error": None,
                "hunk_count": 1,
                "divergence": {"value": 0, "means": {}},
                "proximity": {"class": None},
            },
            '{"id": "torn", "err',
        ],
    )
    results = load_results(path)
    assert results.unreadable == [3, 7]
    assert results.duplicates == 1
    assert [r.id for r in results.records] == ["y", "x", "z", "5"]
    x = results.by_id["x"]
    assert (x.divergence, x.hunk_count, x.label, x.fingerprint) == (0.7, 3, "Orbit", FP1)
    assert results.by_id["z"].error == "record has no divergence.value"
    assert results.by_id["5"].label == NO_CLASS
    assert [r.id for r in results.errors] == ["y", "z"]


def test_a_real_characterize_document_is_read(tmp_path: Path) -> None:
    """The reader follows the real `hunkmetrics/characterize/v1` document, not only the
    hand-made dicts of these tests."""
    document = hunkmetrics.characterize(
        ROOT / "fixtures/patches/java_packages_near.diff", repo=ROOT / "fixtures/java-project"
    ).to_dict()
    path = write_jsonl(tmp_path / "r.jsonl", [{"id": "near", "error": None, **document}])
    (got,) = load_results(path).records
    assert got.ok
    assert got.divergence == document["divergence"]["value"]
    assert got.hunk_count == document["hunk_count"]
    assert got.proximity == document["proximity"]["class"]
    assert got.fingerprint == document["config"]["fingerprint"]
    assert got.lexical == document["divergence"]["means"]["lexical"]


def test_missing_results_file(tmp_path: Path) -> None:
    with pytest.raises(HunkmetricsError, match=r"nope\.jsonl: no such file \(results file\)"):
        load_results(tmp_path / "nope.jsonl")


def test_class_order() -> None:
    assert class_order({NO_CLASS, "Fragment", "Weird", "Nucleus", "Orbit"}) == [
        "Nucleus",
        "Orbit",
        "Fragment",
        "Weird",
        NO_CLASS,
    ]


# ---------------------------------------------------------------- Table 3 by hand


def test_class_table_by_hand(study) -> None:
    results, outcomes = study
    joined = join(load_results(results), load_outcomes(outcomes))
    assert joined.missing_ids == ["ghost"] and joined.errored_ids == []
    rows = {(r.agent, r.label): r for r in class_rows(joined)}
    assert list(rows) == [
        ("A", "Cluster"),
        ("A", "Fragment"),
        ("A", ALL),
        ("B", "Cluster"),
        ("B", "Fragment"),
        ("B", ALL),
    ]

    # A, Cluster: fixed b1 b2 b3 = 0.2 0.4 0.9 → median 0.4, mean 1.5/3 = 0.5, max 0.9;
    # unfixed b4 = 0.5; 3 of 4 fixed = 75%.
    a = rows["A", "Cluster"]
    assert (a.fixed.n, a.fixed.median, a.fixed.max) == (3, 0.4, 0.9)
    assert a.fixed.mean == pytest.approx(0.5)
    assert (a.unfixed.n, a.unfixed.median, a.unfixed.mean, a.unfixed.max) == (1, 0.5, 0.5, 0.5)
    assert a.pct_fixed == 75.0
    # A, Fragment: nothing fixed; unfixed 1.0 1.2 → median 1.1, mean 1.1, max 1.2; 0%.
    f = rows["A", "Fragment"]
    assert (f.fixed.n, f.fixed.median, f.fixed.mean, f.fixed.max) == (0, None, None, None)
    assert f.unfixed.median == pytest.approx(1.1) and f.unfixed.mean == pytest.approx(1.1)
    assert f.unfixed.max == 1.2 and f.pct_fixed == 0.0
    # A, all: unfixed 0.5 1.0 1.2 → median 1.0, mean 2.7/3 = 0.9; 3 of 6 = 50%.
    t = rows["A", ALL]
    assert t.unfixed.median == 1.0 and t.unfixed.mean == pytest.approx(0.9)
    assert t.fixed.median == 0.4 and t.pct_fixed == 50.0
    # B, Cluster: fixed b1 b3 b4 = 0.2 0.9 0.5 → median 0.5, mean 1.6/3, max 0.9;
    # unfixed b2 = 0.4; 75%. B, Fragment: fixed b6 = 1.2, unfixed b5 = 1.0; 50%.
    b = rows["B", "Cluster"]
    assert (b.fixed.median, b.fixed.max, b.unfixed.median) == (0.5, 0.9, 0.4)
    assert b.fixed.mean == pytest.approx(1.6 / 3) and b.pct_fixed == 75.0
    assert rows["B", "Fragment"].pct_fixed == 50.0
    assert rows["B", ALL].pct_fixed == pytest.approx(400 / 6)


def test_auc_and_localization_by_hand(study) -> None:
    results, outcomes = study
    joined = join(load_results(results), load_outcomes(outcomes))
    got = {(r.agent, r.predictor): r for r in auc_rows(joined)}
    # A, divergence: unfixed 0.5 1.0 1.2 vs fixed 0.2 0.4 0.9. 0.5 beats 2 of the
    # fixed, 1.0 and 1.2 beat all 3 → 8 of 9.
    a = got["A", "divergence"]
    assert (a.n_fixed, a.n_unfixed) == (3, 3)
    assert a.auc == pytest.approx(8 / 9)
    assert "unreliable" in a.note  # 3 < 5 on both sides
    # A, hunk count: unfixed 2 5 6 vs fixed 2 3 4. 2: tie with 2 (½), below 3 and 4 →
    # ½; 5 and 6 beat all 3 → 6.5 of 9.
    assert got["A", "hunk count"].auc == pytest.approx(6.5 / 9)
    # B, divergence: unfixed 0.4 (b2) 1.0 (b5) vs fixed 0.2 0.9 0.5 1.2:
    # 0.4 beats 0.2 → 1; 1.0 beats 0.2 0.9 0.5 → 3; 4 of 8.
    assert got["B", "divergence"].auc == pytest.approx(4 / 8)

    rows = {r.agent: r for r in agent_rows(joined)}
    # A: localized known for b1..b5 (b6 empty); true for b1 b2 b5 → 3/5 = 60%.
    # Fixed among localized: b1 b2 → 2; among not localized (b3 b4): b3 → 1.
    a = rows["A"]
    assert (a.n, a.fixed, a.known_localized, a.localized) == (6, 3, 5, 3)
    assert a.pct_localized == 60.0
    assert (a.fixed_when_localized, a.fixed_when_not_localized) == (2, 1)
    assert rows["B"].known_localized == 0 and rows["B"].pct_localized is None


def test_table_numbers_appear_in_the_page(study) -> None:
    results, outcomes = study
    page = build_report(results, outcomes).html
    table = page[page.index('id="table-classes"') :]
    table = table[: table.index("</table>")]
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", table)
    # A, Cluster row: bugs 4 | fixed n 3, median, mean, max | unfixed n 1, … | % fixed
    start = cells.index("Cluster")
    assert cells[start : start + 11] == [
        "Cluster",
        "4",
        "3",
        "0.400",
        "0.500",
        "0.900",
        "1",
        "0.500",
        "0.500",
        "0.500",
        "75.0%",
    ]
    start = cells.index("Fragment")
    assert cells[start : start + 11] == [
        "Fragment",
        "2",
        "0",
        "—",
        "—",
        "—",
        "2",
        "1.100",
        "1.100",
        "1.200",
        "0.0%",
    ]
    assert "0.889" in page  # A's divergence AUC
    assert "60.0%" in page  # A's localization rate


# ---------------------------------------------------------------- the page


SECTIONS = [
    "Summary",
    "Patches",
    "Proximity classes",
    "Divergence",
    "Divergence against hunk count",
    "Divergence by proximity class",
    "Agent outcomes",
    "Fixed and unfixed bugs",
    "Fixed per proximity class",
    "Divergence of fixed and unfixed bugs per class",
    "Localization",
    "Predicting failure",
    "ROC curves",
    "Errors",
]
EXTERNAL = re.compile(
    r"""\b(?:src|href|xlink:href|action|poster|data)\s*=\s*["']?\s*"""
    r"""(?:[a-z][a-z0-9+.-]*:)?//""",
    re.IGNORECASE,
)


def assert_self_contained(page: str) -> None:
    assert page.startswith("<!DOCTYPE html>")
    assert not EXTERNAL.search(page), EXTERNAL.search(page)
    lowered = page.lower()
    for needle in ("<script", "<link", "<iframe", "@import", "url(http", "url(//"):
        assert needle not in lowered, needle
    # Every other reference is in-page (#anchor), or an embedded data: image.
    for ref in re.findall(r"""(?:src|href)\s*=\s*["']([^"']*)""", page, re.IGNORECASE):
        assert ref.startswith(("#", "data:")), ref


def headings(page: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", h) for h in re.findall(r"<h[23][^>]*>(.*?)</h[23]>", page)]


def test_full_page_is_self_contained_with_every_figure(study) -> None:
    results, outcomes = study
    report = build_report(results, outcomes)
    page = report.html
    assert_self_contained(page)
    assert [h for h in headings(page) if h in SECTIONS] == SECTIONS  # all, in this order
    # 4 patch figures + fixed/unfixed + fixed per class + ROC.
    assert report.figures == 7
    figures = re.findall(r"<figure\b.*?</figure>", page, re.DOTALL)
    assert len(figures) == 7
    for fig in figures:
        assert fig.count("<svg ") == 1 and "</svg>" in fig and "<figcaption>" in fig
        assert re.search(r'<svg [^>]*viewBox="0 0 [\d.]+ [\d.]+"', fig)
    assert page.count("<svg ") == 7
    assert len(set(re.findall(r'\bid="([^"]+)"', page))) == len(re.findall(r'\bid="', page))
    assert "Warning:" in page and "ghost" in page  # the outcome id not in the results
    assert report.warnings == ("1 outcome id(s) are not in the results and are left out: ghost",)
    assert "broken" in page[page.index('id="errors"') :]


def test_mixed_fingerprints_are_warned_about(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "r.jsonl",
        [record("a", 0.3, 2, "Cluster", FP1), record("b", 0.6, 3, "Orbit", FP2, "birch")],
    )
    report = build_report(path)
    assert any("mix 2 different configurations" in w for w in report.warnings)
    assert "Warning:</strong> these results mix 2 different configurations" in report.html
    assert FP1 in report.html and FP2 in report.html


def test_empty_results(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text("", encoding="utf-8")
    report = build_report(path)
    assert_self_contained(report.html)
    assert (report.records, report.errors, report.figures) == (0, 0, 0)
    assert "holds no records" in report.html and "<svg" not in report.html


def test_only_errors(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "r.jsonl", [failed("e1", "PatchError: empty <diff>"), failed("e2")]
    )
    outcomes = tmp_path / "o.csv"
    outcomes.write_text("id,agent,fixed\ne1,A,true\n", encoding="utf-8")
    report = build_report(path, outcomes)
    assert_self_contained(report.html)
    assert (report.records, report.errors, report.figures) == (2, 2, 0)
    assert "every line is an error" in report.html
    assert "No outcome matches a characterized record" in report.html
    assert "PatchError: empty &lt;diff&gt;" in report.html  # escaped
    errors = report.html[report.html.index('id="errors"') :]
    assert "e1" in errors and "e2" in errors


def test_single_class_and_single_hunk_patches(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "r.jsonl", [record("a", 0.3, 2, "Cluster"), record("b", 0.3, 2, "Cluster")]
    )
    outcomes = tmp_path / "o.csv"
    outcomes.write_text("id,agent,fixed\na,A,1\nb,A,1\n", encoding="utf-8")  # nothing unfixed
    report = build_report(path, outcomes)
    assert_self_contained(report.html)
    assert "Every characterized patch is in one class (Cluster)" in report.html
    assert "undefined: no unfixed bugs" in report.html
    assert report.figures == 6  # no ROC curve without an unfixed bug

    path = write_jsonl(tmp_path / "one.jsonl", [record("solo", 0.0, 1, None)])
    report = build_report(path)
    assert report.figures == 4 and NO_CLASS in report.html


def test_outcomes_without_matches_and_idle_agents(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "r.jsonl", [record("a", 0.3, 2, "Cluster")])
    outcomes = tmp_path / "o.csv"
    outcomes.write_text("id,agent,fixed\nzz1,A,1\nzz2,B,0\na,C,0\n", encoding="utf-8")
    report = build_report(path, outcomes)
    assert_self_contained(report.html)
    assert "2 outcome id(s) are not in the results" in report.html
    assert "No matched bugs for agent(s)" in report.html
    outcomes.write_text("id,agent,fixed\n", encoding="utf-8")
    assert "header but no rows" in build_report(path, outcomes).html


def test_write_report_replaces_the_file_whole(tmp_path: Path, study) -> None:
    results, outcomes = study
    out = tmp_path / "deeper" / "report.html"
    write_report(results, out, outcomes)
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert [p.name for p in out.parent.iterdir()] == ["report.html"]
    with pytest.raises(HunkmetricsError, match=r"x\.html: cannot write"):
        write_report(results, results / "x.html")  # a file where a directory should be


# ---------------------------------------------------------------- the command


def invoke(*args: str):
    return runner.invoke(app, ["report", *map(str, args)])


def test_cli_writes_the_report(tmp_path: Path, study) -> None:
    results, outcomes = study
    out = tmp_path / "report.html"
    result = invoke(results, "--outcomes", outcomes, "--out", out)
    assert result.exit_code == 0, result.output
    assert out.is_file() and "<svg" in out.read_text(encoding="utf-8")
    assert "warning: 1 outcome id(s) are not in the results" in result.stderr
    assert f"wrote {out}: 7 record(s), 1 error(s), 7 figure(s)" in result.stderr


def test_cli_bad_outcomes_header_is_one_line_exit_2(tmp_path: Path, study) -> None:
    results, _ = study
    bad = tmp_path / "bad.csv"
    bad.write_text("bug,model,passed\nb1,A,true\n", encoding="utf-8")
    out = tmp_path / "report.html"
    result = invoke(results, "--outcomes", bad, "--out", out)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("hunkmetrics: error: ")
    assert "lacks id,agent,fixed" in lines[0]
    assert not out.exists()


@pytest.mark.parametrize("case", ["missing results", "missing outcomes", "bad value", "directory"])
def test_cli_input_errors_exit_2(tmp_path: Path, study, case: str) -> None:
    results, outcomes = study
    if case == "missing results":
        results = tmp_path / "nope.jsonl"
    elif case == "missing outcomes":
        outcomes = tmp_path / "nope.csv"
    elif case == "bad value":
        outcomes.write_text("id,agent,fixed\nb1,A,sometimes\n", encoding="utf-8")
    else:
        results = tmp_path
    result = invoke(results, "--outcomes", outcomes, "--out", tmp_path / "r.html")
    assert result.exit_code == 2, result.output
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_cli_graceful_inputs_exit_0(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    only_errors = write_jsonl(tmp_path / "errors.jsonl", [failed("e")])
    for results in (empty, only_errors):
        result = invoke(results, "--out", tmp_path / f"{results.stem}.html")
        assert result.exit_code == 0, result.output


def test_cli_usage_error_without_out(study) -> None:
    results, _ = study
    assert invoke(results).exit_code == 2


def test_cli_needs_no_display(tmp_path: Path, study) -> None:
    """A GUI backend in the environment and no DISPLAY: the command still draws (Agg)."""
    results, outcomes = study
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["MPLBACKEND"] = "TkAgg"
    out = tmp_path / "report.html"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "hunkmetrics",
            "report",
            str(results),
            "--outcomes",
            str(outcomes),
            "--out",
            str(out),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert out.read_text(encoding="utf-8").count("<svg ") == 7


def test_the_page_is_the_same_from_run_to_run(study) -> None:
    results, outcomes = study
    assert build_report(results, outcomes).html == build_report(results, outcomes).html


def test_names_from_the_inputs_cannot_inject_markup(tmp_path: Path) -> None:
    evil = "<script>alert(1)</script>--><img src=x onerror=alert(1)>"
    path = write_jsonl(
        tmp_path / "r.jsonl",
        [record(evil, 0.3, 2, "Cluster"), record("b", 0.6, 3, evil), failed("c", evil)],
    )
    outcomes = tmp_path / "o.csv"
    outcomes.write_text(f"id,agent,fixed\n{evil},{evil},1\nb,{evil},0\n", encoding="utf-8")
    report = build_report(path, outcomes)
    assert report.figures == 7
    assert_self_contained(report.html)  # no <script, and no src= but data:/# ones
    assert "<img" not in report.html


def test_auc_interval_by_hand() -> None:
    from hunkmetrics.report.stats import auc_interval

    # Perfect separation survives every resample: [1, 1]; all values tied: [0.5, 0.5].
    assert auc_interval([2, 3], [0, 1]) == (1.0, 1.0)
    assert auc_interval([1, 1, 1], [1, 1]) == (0.5, 0.5)
    # One positive (1) and negatives {0, 2}: a resample of the negatives is {0, 0}
    # (AUC 1), {0, 2} or {2, 0} (0.5) or {2, 2} (0), with chances 1/4, 1/2, 1/4: the
    # 2.5 % and 97.5 % quantiles of 2,000 draws are 0 and 1.
    assert auc_interval([1], [0, 2]) == (0.0, 1.0)
    assert auc_interval([], [1]) is None
    # Seeded: the same interval every time, and it holds the AUC itself.
    pos, neg = [0.9, 0.4, 0.8, 0.7, 0.3, 0.95], [0.1, 0.5, 0.2, 0.6, 0.35]
    low, high = auc_interval(pos, neg)
    assert (low, high) == auc_interval(pos, neg)
    assert low <= auc(pos, neg) <= high


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.integers(0, 5), min_size=1, max_size=8),
    st.lists(st.integers(0, 5), min_size=1, max_size=8),
)
def test_numpy_auc_equals_the_rank_auc(pos: list[int], neg: list[int]) -> None:
    import numpy as np

    from hunkmetrics.report.stats import _auc_sorted

    assert _auc_sorted(np.array(pos, float), np.array(neg, float)) == pytest.approx(auc(pos, neg))


def test_a_patch_of_many_hunks_gets_a_log_axis(tmp_path: Path) -> None:
    # Past 40 hunks the scatter's x axis turns logarithmic (docs/report.md); a mined
    # commit of 316 hunks made that branch fail before.
    path = write_jsonl(
        tmp_path / "r.jsonl",
        [record("a", 0.3, 2, "Cluster"), record("b", 4.1, 316, "Fragment")],
    )
    report = build_report(path)
    assert_self_contained(report.html)
    assert report.records == 2
    assert "hunks in the patch (n), log scale" in report.html


def test_agent_names_with_dollar_signs_are_text_not_math(tmp_path: Path) -> None:
    # matplotlib read `$\x$` as math text and failed (ParseFatalException): labels from the
    # data are plain text.
    path = write_jsonl(
        tmp_path / "r.jsonl",
        [record("a", 0.3, 2, "Cluster"), record("b", 0.6, 3, "Orbit")],
    )
    outcomes = tmp_path / "o.csv"
    outcomes.write_text(
        "id,agent,fixed\na,$\\x$,1\nb,$\\x$,0\na,$5 $6,0\nb,$5 $6,1\n", encoding="utf-8"
    )
    report = build_report(path, outcomes)
    assert_self_contained(report.html)
    assert "$\\x$" in report.html and "$5 $6" in report.html
