"""The Agents part on the study's published data: `agents import-study` of
../shared/agent-study (4 agents × 372 Hunk4J bugs, and the MAPLE runs), `batch` of the 42
developer patches of ../shared/hunk4j-sample, then `report --attempts`. Figures 3-8 are
drawn, Table 2's download holds the published numbers, and the page passes the headless
Chromium check. Figures 9-10 need per-action sequences, which the published files do not
have: the page says so. Skipped when ../shared is absent (a fresh clone)."""

from __future__ import annotations

import csv
import io
import re
from html import unescape
from pathlib import Path

import pytest
from test_report import assert_self_contained
from typer.testing import CliRunner

from hunkmetrics.cli.app import app
from hunkmetrics.report.downloads import decode_csv_href

pytest.importorskip("matplotlib")

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
STUDY = SHARED / "agent-study"
SAMPLE = SHARED / "hunk4j-sample"
pytestmark = pytest.mark.skipif(
    not (STUDY / "hunk4j-results").is_dir() or not (SAMPLE / "patches").is_dir(),
    reason="../shared/agent-study or ../shared/hunk4j-sample is absent (a fresh clone)",
)
runner = CliRunner()

FIGURES_3_TO_8 = (
    "fig-agents-upset",  # Fig. 3
    "fig-agents-divergence",  # Fig. 4
    "fig-agents-rr",  # Fig. 5
    "fig-agents-input-tokens",  # Fig. 6
    "fig-agents-output-tokens",  # Fig. 7
    "fig-agents-cache-0",  # Fig. 8: Claude Code, the only agent with a cache breakdown
)


@pytest.fixture(scope="module")
def study_page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    work = tmp_path_factory.mktemp("study")
    attempts, results, page = work / "attempts.jsonl", work / "dev.jsonl", work / "page.html"
    ran = runner.invoke(app, ["agents", "import-study", str(STUDY), "--out", str(attempts)])
    assert ran.exit_code == 0, ran.output
    ran = runner.invoke(app, ["batch", str(SAMPLE / "patches"), "--reverse", "--out", str(results)])
    assert ran.exit_code == 0, ran.output
    ran = runner.invoke(
        app, ["report", str(results), "--attempts", str(attempts), "--out", str(page)]
    )
    assert ran.exit_code == 0, ran.output
    return page, page.read_text(encoding="utf-8"), ran.output


def test_figures_3_to_8_from_the_published_data(study_page) -> None:
    _, page, output = study_page
    assert_self_contained(page)
    # 4 patch figures, then Figures 3-8.
    assert "1588 attempt(s), 10 figure(s)" in output
    for anchor in FIGURES_3_TO_8:
        figure = re.search(rf'<figure id="{anchor}">.*?</figure>', page, re.DOTALL)
        assert figure, anchor
        assert figure[0].count("<svg ") == 1 and "<figcaption>" in figure[0]
    assert "claude-code: input tokens by kind and outcome" in page
    # No sequences in the published files: no Figures 9-10, and a note says why.
    assert "fig-agents-patterns" not in page
    assert "No attempt carries its action sequence" in page
    # 10 bugs no agent fixed (the published Table 4 lists them), 372 bugs in all.
    assert "10 of the 372 bugs attempted were fixed by no agent" in page


def test_table2_download_holds_the_published_numbers(study_page) -> None:
    _, page, _ = study_page
    href = re.search(r'<a class="csv" download="table2.csv" href="([^"]+)"', page)
    assert href
    rows = list(csv.reader(io.StringIO(decode_csv_href(unescape(href[1])))))
    table = {r[0]: dict(zip(rows[0], r, strict=True)) for r in rows[1:]}
    # The paper's Table 2: LS, compiled, mean RR, repaired.
    published = {
        "claude-code": ("238", "372", 2.47, "347"),
        "codex": ("279", "367", 2.25, "324"),
        "gemini-cli": ("173", "347", -1.92, "155"),
        "qwen-code": ("142", "364", -1.34, "96"),
    }
    for agent, (ls, compiled, rr, repaired) in published.items():
        row = table[agent]
        assert (row["ls"], row["compiled"], row["repaired"]) == (ls, compiled, repaired)
        assert round(float(row["mean_rr"]), 2) == rr


def test_every_dot_links_to_one_of_the_372_rows(study_page) -> None:
    _, page, _ = study_page
    rows = re.findall(r'<tr id="(bug-[^"]+)">', page)
    assert len(rows) == len(set(rows)) == 372
    links = set(re.findall(r'xlink:href="#(bug-[^"]+)"', page))
    assert links and links <= set(rows)


def test_the_page_passes_the_chromium_check(study_page, tmp_path: Path) -> None:
    browser_test = pytest.importorskip("test_report_agents_browser")
    if not browser_test.CHROMIUM.exists():
        pytest.skip("/usr/bin/chromium is absent: apt-get install -y chromium")
    path, _, _ = study_page
    chromium = browser_test.Chromium(tmp_path)
    try:
        chromium.open_page()
        facts = browser_test.agents_page_facts(chromium, path)  # no problem, real sizes
        png = tmp_path / "study.png"
        png.write_bytes(chromium.screenshot())
        browser_test.assert_ink(png, facts)
        assert len(facts["figures"]) == 10
    finally:
        chromium.close()
