"""`hunkmetrics report --attempts`: the Agents part, checked against a small made-up
attempt set whose numbers are worked out by hand below (never copied from the code's
output). The rendering in a real browser is in test_report_agents_browser.py; the study's
published data in test_report_agents_study.py."""

from __future__ import annotations

import csv
import io
import json
import re
from html import unescape
from pathlib import Path

import pytest
from test_report import STUDY, assert_self_contained, record, write_jsonl
from typer.testing import CliRunner

from hunkmetrics.cli.app import app
from hunkmetrics.errors import HunkmetricsError
from hunkmetrics.report import build_report
from hunkmetrics.report.agents_data import bug_anchors, expand_attempt_paths, load_agents
from hunkmetrics.report.agents_stats import (
    NOT_CHARACTERIZED,
    Spread,
    csv_text,
    quantile,
    upset_intersections,
)
from hunkmetrics.report.agents_tables import cell_text
from hunkmetrics.report.downloads import decode_csv_href, safe_filename

pytest.importorskip("matplotlib")
runner = CliRunner()

# ---------------------------------------------------------------- the made-up attempts
#
# Three agents over the six bugs of test_report.STUDY (b1-b4 Cluster, b5-b6 Fragment;
# Div(P) 0.2, 0.4, 0.9, 0.5, 1.0, 1.2). Per bug: repaired, regression reduction, LS.
#
#   bug  A             B            C
#   b1   ✓ RR 2  LS    ✓ RR 1  LS   ✓ RR 1
#   b2   ✓ RR 1  LS    ✓ RR 2       ✗ RR -1
#   b3   ✓ RR 0        ✗ RR 0       ✗ RR -1
#   b4   ✓ RR 3  LS    ✗ RR 0       ✗ RR -1
#   b5   ✗ RR -1       ✗ RR 0       ✓ RR 2
#   b6   ✗ (did not compile: no RR)  ✗ RR 0   ✗ RR -1
#
# A's tokens have a cache breakdown (Claude-style); A and B carry action sequences.
FIXED = {
    "A": {"b1", "b2", "b3", "b4"},
    "B": {"b1", "b2"},
    "C": {"b1", "b5"},
}
RR = {
    "A": [2, 1, 0, 3, -1, None],
    "B": [1, 2, 0, 0, 0, 0],
    "C": [1, -1, -1, -1, 2, -1],
}
LS = {"A": {"b1", "b2", "b4"}, "B": {"b1"}, "C": set()}
BUGS = ["b1", "b2", "b3", "b4", "b5", "b6"]
SEQUENCE = {  # A passes with read-write-test; B's attempts all read and search
    "A": ["READ", "WRITE", "TEST", "READ", "WRITE", "TEST"],
    "B": ["READ", "SEARCH_CONTENT", "READ", "SEARCH_CONTENT"],
}


def attempt(agent: str, k: int) -> dict:
    bug = BUGS[k]
    rr = RR[agent][k]
    cached = agent == "A"
    line = {
        "id": f"{agent}/{bug}",
        "agent": agent,
        "bug": bug,
        "error": None,
        "ls": bug in LS[agent],
        "compiled": rr is not None,
        "repaired": bug in FIXED[agent],
        "regression_reduction": rr,
        "tokens": {
            "input": 1000 * (k + 1) + (5000 if cached else 0),
            "output": 100 * (k + 1),
            "input_uncached": 1000 * (k + 1),
            "cache_read": 4000 if cached else 0,
            "cache_write": 1000 if cached else 0,
        },
        "runtime": {"seconds": 10.0 * (k + 1)},
        "unique_native_tools": ["Read"],
        "unique_shell_commands": ["ls"],
    }
    if agent in SEQUENCE:
        line["sequence"] = SEQUENCE[agent]
    return line


@pytest.fixture
def agents_study(tmp_path: Path) -> tuple[Path, Path]:
    results = write_jsonl(tmp_path / "results.jsonl", [record(*row) for row in STUDY])
    attempts = write_jsonl(
        tmp_path / "attempts.jsonl",
        [attempt(agent, k) for agent in ("A", "B", "C") for k in range(6)],
    )
    return results, attempts


# ---------------------------------------------------------------- the numbers


def test_quantiles_and_extremes_of_five_values() -> None:
    # Sorted: -1 0 1 2 3 (A's regression reductions). Type 7 quantiles sit at rank
    # q·(n−1): 0.25·4 = 1 → 0, 0.5·4 = 2 → 1, 0.75·4 = 3 → 2.
    spread = Spread.of([2, 1, 0, 3, -1])
    assert spread == Spread(5, -1, 0, 1, 2, 3)
    # Four values 1 2 3 4: rank 0.75 → 1 + 0.75·(2−1) = 1.75; rank 1.5 → 2.5; 2.25 → 3.25.
    assert Spread.of([4, 1, 3, 2]) == Spread(4, 1, 1.75, 2.5, 3.25, 4)
    assert Spread.of([7]) == Spread(1, 7, 7, 7, 7, 7)
    assert Spread.of([]) is None
    assert quantile([10.0, 20.0], 0.5) == 15.0


def test_the_violin_marks_the_quartiles_and_extremes() -> None:
    from matplotlib.collections import PathCollection

    from hunkmetrics.report import agents_figures as draw
    from hunkmetrics.report.figures import new_figure

    values = [2, 1, 0, 3, -1]
    links = ["#bug-b1", "#bug-b2", "#bug-b3", "#bug-b4", None]
    with new_figure("t", 3) as (_, (ax,)):
        draw._violin(ax, draw.Group(0.0, values, "#123456", links), 0.6, seed=1)
        segments = [
            [tuple(map(float, point)) for point in seg]
            for collection in ax.collections
            if hasattr(collection, "get_segments")
            for seg in collection.get_segments()
        ]
        # The thin line spans min..max (−1..3), the thick one q1..q3 (0..2).
        assert [(0.0, -1.0), (0.0, 3.0)] in segments
        assert [(0.0, 0.0), (0.0, 2.0)] in segments
        scatters = [c for c in ax.collections if isinstance(c, PathCollection)]
        (median,) = [c for c in scatters if len(c.get_offsets()) == 1]
        assert [float(v) for v in median.get_offsets()[0]] == [0.0, 1.0]  # the white dot
        (dots,) = [c for c in scatters if len(c.get_offsets()) == 5]
        assert sorted(float(y) for _, y in dots.get_offsets()) == [-1, 0, 1, 2, 3]
        ys = [float(y) for _, y in dots.get_offsets()]
        by_value = dict(zip(ys, dots.get_urls(), strict=True))
        assert by_value[2.0] == "#bug-b1" and by_value[-1.0] is None


def test_upset_intersections_of_three_agents_over_six_bugs() -> None:
    labels = {"b1": "Cluster", "b2": "Cluster", "b3": "Cluster", "b4": "Cluster"}
    labels |= {"b5": "Fragment"}  # b6 (fixed by none) and unlisted bugs: not in results
    found = upset_intersections(["A", "B", "C"], FIXED, labels, ["Cluster", "Fragment"])
    # b1 → {A,B,C}; b2 → {A,B}; b3, b4 → {A}; b5 → {C}; b6 → nobody (no bar).
    # Largest first (A alone: 2), then the single bugs by fewer agents: C, A+B, A+B+C.
    assert [(i.agents, i.bugs, i.by_class) for i in found] == [
        (("A",), ("b3", "b4"), (("Cluster", 2),)),
        (("C",), ("b5",), (("Fragment", 1),)),
        (("A", "B"), ("b2",), (("Cluster", 1),)),
        (("A", "B", "C"), ("b1",), (("Cluster", 1),)),
    ]
    assert sum(i.size for i in found) == 5  # every fixed bug once
    unknown = upset_intersections(["A"], {"A": {"zz"}}, {}, ["Cluster"])
    assert unknown[0].by_class == ((NOT_CHARACTERIZED, 1),)


def test_csv_text_quotes_and_empty_cells() -> None:
    text = csv_text(["a", "b"], [["x,y", None], ['say "hi"', 1.5]])
    assert text == 'a,b\r\n"x,y",\r\n"say ""hi""",1.5\r\n'
    assert safe_filename("table 2/../x") == "table_2_.._x"


def test_bug_anchors_are_unique_and_safe() -> None:
    anchors = bug_anchors(["a/b", "a_b", "chart_1"])
    assert anchors == {"a/b": "bug-a_b", "a_b": "bug-a_b~2", "chart_1": "bug-chart_1"}


def test_cell_text() -> None:
    assert cell_text(None) == "—"
    assert cell_text(True) == "yes"
    assert cell_text(12345) == "12,345"
    assert cell_text(0.6667, percent=True) == "66.7%"
    assert cell_text(2.4666) == "2.47"
    assert cell_text(857123.4) == "857,123"
    assert cell_text(0.0012) == "0.0012"
    assert cell_text("<b>") == "&lt;b&gt;"


def test_attempt_paths_globs_and_repeats(tmp_path: Path) -> None:
    for name in ("b.jsonl", "a.jsonl", "c.txt"):
        (tmp_path / name).write_text("", encoding="utf-8")
    found = expand_attempt_paths([str(tmp_path / "*.jsonl"), tmp_path / "c.txt"])
    assert found == [tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.txt"]
    with pytest.raises(HunkmetricsError, match="no attempts file matches"):
        expand_attempt_paths([str(tmp_path / "none*.jsonl")])


# ---------------------------------------------------------------- the page


def links_and_ids(page: str) -> tuple[list[str], set[str]]:
    links = re.findall(r'xlink:href="#(bug-[^"]+)"', page)
    return links, set(re.findall(r'\bid="([^"]+)"', page))


def csv_links(page: str) -> dict[str, list[list[str]]]:
    """Each download link's file name → its CSV decoded and parsed."""
    found = {}
    for name, href in re.findall(r'<a class="csv" download="([^"]+)" href="([^"]+)"', page):
        found[name] = list(csv.reader(io.StringIO(decode_csv_href(unescape(href)))))
    return found


def html_table(page: str, table_id: str) -> list[list[str]]:
    """The cells of a table of the page, as text (tags stripped, bracketed interval kept)."""
    body = re.search(rf'<table id="{table_id}">(.*?)</table>', page, re.DOTALL)
    assert body, table_id
    return [
        [
            unescape(re.sub(r"<[^>]+>", "", cell)).strip()
            for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.DOTALL)
        ]  # fmt: skip
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body[1], re.DOTALL)
    ]


def test_the_agents_part_by_hand(agents_study) -> None:
    results, attempts = agents_study
    report = build_report(results, attempts=[attempts])
    page = report.html
    assert_self_contained(page)
    assert report.attempts == 18
    # 4 patch figures; then UpSet, divergence, RR, input and output tokens, A's cache
    # breakdown (only A has one), and the patterns of A and B (C has no sequence).
    assert report.figures == 4 + 5 + 1 + 2
    for anchor in (
        "fig-agents-upset",
        "fig-agents-divergence",
        "fig-agents-rr",
        "fig-agents-input-tokens",
        "fig-agents-output-tokens",
        "fig-agents-cache-0",
        "fig-agents-patterns-0",
        "fig-agents-patterns-1",
    ):
        assert f'<figure id="{anchor}">' in page, anchor
    for fig in re.findall(r'<figure id="fig-agents.*?</figure>', page, re.DOTALL):
        assert fig.count("<svg ") == 1 and "<figcaption>" in fig
    # The UpSet caption: b6 alone was fixed by nobody; the 4 combinations all drawn.
    assert "1 of the 6 bugs attempted were fixed by no agent" in page
    assert "4 of 4 combinations are drawn" in page
    assert len(set(re.findall(r'\bid="([^"]+)"', page))) == len(re.findall(r'\bid="', page))


def test_every_dot_links_to_its_bug_row(agents_study) -> None:
    results, attempts = agents_study
    page = build_report(results, attempts=[attempts]).html
    links, ids = links_and_ids(page)
    assert links and set(links) <= ids
    assert set(links) == {f"bug-{b}" for b in BUGS}
    assert "_blank" not in page  # in-page links scroll this page, never open another
    rr = re.search(r'<figure id="fig-agents-rr">.*?</figure>', page, re.DOTALL)
    assert rr
    # Fig. 5 has a dot per attempt with an RR: A 5 (b6 did not compile), B 6, C 6.
    assert len(re.findall(r'xlink:href="#bug-', rr[0])) == 17
    # Fig. 4 (divergence by outcome): every attempt, all six bugs have a divergence.
    div = re.search(r'<figure id="fig-agents-divergence">.*?</figure>', page, re.DOTALL)
    assert div and len(re.findall(r'xlink:href="#bug-', div[0])) == 18


def test_per_bug_table_and_its_csv(agents_study) -> None:
    results, attempts = agents_study
    page = build_report(results, attempts=[attempts]).html
    rows = html_table(page, "table-bugs")
    assert rows[0] == ["bug", "hunks", "divergence", "proximity", "fixed by", "A", "B", "C"]
    assert rows[1] == ["b1", "2", "0.20", "Cluster", "3", "✓", "✓", "✓"]
    assert rows[5] == ["b5", "5", "1.00", "Fragment", "1", "✗", "✗", "✓"]
    assert rows[6] == ["b6", "6", "1.20", "Fragment", "0", "✗", "✗", "✗"]
    assert '<tr id="bug-b3">' in page
    table = csv_links(page)["bugs.csv"]
    assert table[0] == ["bug", "hunks", "divergence", "proximity", "fixed_by", "A", "B", "C"]
    assert table[1] == ["b1", "2", "0.2", "Cluster", "3", "true", "true", "true"]
    assert table[6] == ["b6", "6", "1.2", "Fragment", "0", "false", "false", "false"]
    assert len(table) == 7


def test_table2_csv_download_matches_the_table(agents_study) -> None:
    results, attempts = agents_study
    page = build_report(results, attempts=[attempts]).html
    downloads = csv_links(page)
    assert {"table2.csv", "table3.csv", "table4.csv", "table5.csv", "table6.csv"} <= set(downloads)
    assert {"table7.csv", "table8.csv", "patterns.csv", "rr.csv", "bugs.csv"} <= set(downloads)
    table = downloads["table2.csv"]
    header = table[0]
    row = {r[0]: dict(zip(header, r, strict=True)) for r in table[1:]}
    # A: 6 attempts; LS b1 b2 b4 = 3 (50%); compiled 5 of 6; RR over the 5 compiled:
    # (2 + 1 + 0 + 3 − 1) / 5 = 1.0; repaired 4 of 6.
    a = row["A"]
    assert (a["bugs"], a["ls"], a["compiled"], a["rr_n"], a["repaired"]) == (
        "6", "3", "5", "5", "4",
    )  # fmt: skip
    assert float(a["ls_rate"]) == 0.5 and float(a["mean_rr"]) == 1.0
    assert float(a["compiled_rate"]) == pytest.approx(5 / 6)
    assert float(a["repaired_ci_low"]) <= 4 / 6 <= float(a["repaired_ci_high"])
    # B: RR (1 + 2 + 0 + 0 + 0 + 0) / 6 = 0.5; C: (1 − 1 − 1 − 1 + 2 − 1) / 6 = −1/6.
    assert float(row["B"]["mean_rr"]) == 0.5
    assert float(row["C"]["mean_rr"]) == pytest.approx(-1 / 6)
    assert (row["C"]["ls"], row["C"]["repaired"]) == ("0", "2")
    # The page's table shows the same numbers, rates as % with the interval in brackets.
    shown = html_table(page, "table-table2")
    assert shown[0][:4] == ["agent", "bugs", "ls", "ls rate"]
    cells = {r[0]: r for r in shown[1:]}
    assert cells["A"][1:3] == ["6", "3"]
    assert cells["A"][3].startswith("50.0% [")
    head = shown[0]
    assert cells["A"][head.index("mean rr")] == "1.00"
    assert cells["C"][head.index("mean rr")] == "-0.17"
    assert cells["A"][head.index("repaired rate")].startswith("66.7% [")
    for r in table[1:]:  # every agent's row is in the page too
        assert r[0] in cells and cells[r[0]][1] == r[1]


def test_the_page_is_the_same_from_run_to_run(agents_study) -> None:
    results, attempts = agents_study
    assert (
        build_report(results, attempts=[attempts]).html
        == build_report(results, attempts=[attempts]).html
    )


def test_two_attempt_files_and_a_bug_missing_from_the_results(tmp_path: Path) -> None:
    results = write_jsonl(tmp_path / "results.jsonl", [record("Chart_1", 0.3, 2, "Orbit")])
    first = write_jsonl(
        tmp_path / "run-1.jsonl", [attempt("A", 0) | {"bug": "chart-1", "id": "A/1"}]
    )
    write_jsonl(tmp_path / "run-2.jsonl", [attempt("B", 1) | {"bug": "Chart_2", "id": "B/2"}])
    data = load_agents([first, str(tmp_path / "run-2*")], results)
    assert data.paths == (str(first), str(tmp_path / "run-2.jsonl"))
    assert [p.key for p in data.points] == ["chart_1", "chart_2"]
    report = build_report(results, attempts=[str(tmp_path / "run-*.jsonl")])
    # Chart_2 has no line in the results: one warning, and its UpSet bar is "not in results".
    assert any("Chart_2" in w and "results file" in w for w in report.warnings)
    assert "--bugs" not in report.html
    assert "not in results" in report.html


def test_attempts_with_nothing_to_show(tmp_path: Path) -> None:
    results = write_jsonl(tmp_path / "results.jsonl", [record("b1", 0.3, 2, "Orbit")])
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    report = build_report(results, attempts=[empty])
    assert "hold no attempt without an error" in report.html
    assert report.figures == 4 and report.attempts == 0
    errors = write_jsonl(tmp_path / "err.jsonl", [{"id": "x", "agent": "A", "error": "boom"}])
    report = build_report(results, attempts=[errors])
    assert "1 error line(s) left out" in report.html


def test_names_from_attempts_cannot_inject_markup(tmp_path: Path) -> None:
    evil = "<script>alert(1)</script>"
    results = write_jsonl(tmp_path / "results.jsonl", [record(evil, 0.3, 2, "Orbit")])
    attempts = write_jsonl(
        tmp_path / "a.jsonl",
        [attempt("A", 0) | {"agent": evil, "bug": evil}, attempt("B", 1) | {"bug": evil}],
    )
    page = build_report(results, attempts=[attempts]).html
    assert_self_contained(page)
    assert evil not in page


# ---------------------------------------------------------------- the command


def test_cli_attempts_option(tmp_path: Path, agents_study) -> None:
    results, attempts = agents_study
    out = tmp_path / "page.html"
    ran = runner.invoke(
        app,
        ["report", str(results), "--attempts", str(attempts.parent / "att*.jsonl"), "-o", str(out)],
    )
    assert ran.exit_code == 0, ran.output
    assert "18 attempt(s), 12 figure(s)" in ran.output
    assert out.read_text(encoding="utf-8").count("<svg ") == 12
    ran = runner.invoke(
        app, ["report", str(results), "--attempts", str(tmp_path / "no*.jsonl"), "-o", str(out)]
    )
    assert ran.exit_code == 2 and "no attempts file matches" in ran.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"id": "x"}) + "\n" + "{}\n", encoding="utf-8")
    ran = runner.invoke(app, ["report", str(results), "--attempts", str(bad), "-o", str(out)])
    assert ran.exit_code == 2 and "not an attempt line" in ran.output


def test_a_dollar_in_a_name_is_drawn_as_a_dollar(tmp_path: Path) -> None:
    from hunkmetrics.report.figures import new_figure

    # Every figure, the patch report's too: labels come from the data (issue 24).
    with new_figure("t", 2) as (_, (ax,)):
        assert ax.set_title("pay $x_1$").get_parse_math() is False  # text, not a formula
    results = write_jsonl(tmp_path / "results.jsonl", [record(*row) for row in STUDY])
    attempts = write_jsonl(
        tmp_path / "a.jsonl", [attempt("A", k) | {"agent": "pay $x_1$ $"} for k in range(6)]
    )
    report = build_report(results, attempts=[attempts])  # an odd "$" is no error either
    assert report.figures == 4 + 5 + 1 + 1
