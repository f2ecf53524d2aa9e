"""The report opened in a real headless Chromium: it loads with no console error and no
request leaving the file, every figure is drawn with a real size, and a full-page
screenshot is kept (under $HUNKMETRICS_ARTIFACTS if set, else pytest's tmp dir).

Chromium is driven over the DevTools protocol on a pipe (tests/chromium.py; the
`browser` and `artifacts` fixtures in conftest.py). Install the browser with
`apt-get install -y chromium`; without /usr/bin/chromium these tests skip."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from chromium import CHROMIUM, PAGE_FACTS, WIDTH, Chromium
from test_report import OUTCOMES, STUDY, failed, record, write_jsonl

from hunkmetrics.report import write_report

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="/usr/bin/chromium is absent: apt-get install -y chromium to run the browser tests",
)
pytest.importorskip("matplotlib")


def full_study(directory: Path) -> tuple[Path, Path]:
    """The hand-made study of test_report.py, grown: more bugs, two configurations, an
    error and an outcome id that is not in the results, so every part of the page shows."""
    lines: list[dict | str] = [record(*row) for row in STUDY]
    labels = ["Nucleus", "Cluster", "Orbit", "Sprawl", "Fragment"]
    for k in range(60):
        hunks = 1 + (k * 7) % 12
        label = labels[k % 5] if hunks > 1 else None
        div = round(min(0.95, 0.08 * (k % 12)) * (0.4 + (k % 5) / 5), 3) if hunks > 1 else 0
        lines.append(
            record(f"bug{k}", div, hunks, label, "bbbbbbbbbbbb" if k == 59 else "aaaaaaaaaaaa")
        )
    lines += [failed("Closure_1", "SourceError: revision 1a2b3c does not exist"), "not json"]
    results = write_jsonl(directory / "results.jsonl", lines)
    text = OUTCOMES
    for k in range(60):
        for agent, skill in (("A", 7), ("B", 5)):
            fixed = (k * 13 + skill) % 10 < skill - k % 4
            text += f"bug{k},{agent},{fixed},{'true' if fixed or k % 3 else 'false'}\n"
    outcomes = directory / "outcomes.csv"
    outcomes.write_text(text, encoding="utf-8")
    return results, outcomes


def test_report_renders_without_errors(browser: Chromium, tmp_path: Path, artifacts: Path) -> None:
    results, outcomes = full_study(tmp_path)
    out = tmp_path / "report.html"
    report = write_report(results, out, outcomes)
    browser.load(out.as_uri())
    facts = browser.evaluate(PAGE_FACTS)
    png = browser.screenshot()
    (artifacts / "report.png").write_bytes(png)
    shutil.copyfile(out, artifacts / "report.html")

    assert browser.problems() == [], browser.log_tail()
    assert "Uncaught" not in browser.log_path.read_text(errors="replace")
    assert facts["title"].startswith("hunkmetrics report")
    assert len(facts["figures"]) == report.figures == 7
    assert facts["svgs"] == 7 and facts["imgs"] == 0
    for figure in facts["figures"]:
        assert len(figure["svgs"]) == 1, figure["id"]
        (svg,) = figure["svgs"]
        assert svg["w"] > 300 and svg["h"] > 150, figure
        assert svg["x"] >= 0 and svg["x"] + svg["w"] <= WIDTH + 0.5, figure
    assert facts["scrollWidth"] <= facts["innerWidth"]  # nothing runs off to the side
    for title in (
        "Summary",
        "Proximity classes",
        "Fixed per proximity class",
        "Divergence of fixed and unfixed bugs per class",
        "Localization",
        "Predicting failure",
        "Errors",
    ):
        assert title in facts["headings"]
    assert any("mix 2 different configurations" in w for w in facts["warnings"])
    assert any("not JSON records" in w for w in facts["warnings"])

    # The screenshot shows what the DOM says: every figure's box holds drawn ink.
    from PIL import Image

    with Image.open(artifacts / "report.png") as image:
        assert image.width == WIDTH and image.height > 3000
        gray = image.convert("L")
        for figure in facts["figures"]:
            (svg,) = figure["svgs"]
            box = gray.crop(
                (int(svg["x"]), int(svg["y"]), int(svg["x"] + svg["w"]), int(svg["y"] + svg["h"]))
            )
            histogram = box.histogram()
            ink = sum(histogram[:200]) / (box.width * box.height)
            assert 0.01 < ink < 0.6, (figure["id"], ink)


def test_degraded_reports_render_too(browser: Chromium, tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    only_errors = write_jsonl(tmp_path / "errors.jsonl", [failed("e1"), failed("e2")])
    for results, notes in ((empty, "holds no records"), (only_errors, "every line is")):
        out = tmp_path / f"{results.stem}.html"
        write_report(results, out)
        browser.load(out.as_uri())
        facts = browser.evaluate(PAGE_FACTS)
        assert browser.problems() == []
        assert facts["svgs"] == 0 and facts["figures"] == []
        assert notes in browser.evaluate("document.body.textContent")


def test_the_harness_sees_errors(browser: Chromium, tmp_path: Path) -> None:
    """The checks above can fail: a page with a console error, an uncaught exception,
    a missing image and a remote stylesheet is caught on every count."""
    page = tmp_path / "bad.html"
    page.write_text(
        "<!DOCTYPE html><html><head><link rel=stylesheet "
        "href='https://example.invalid/x.css'></head><body>"
        "<img src='missing.png'><script>console.error('boom');"
        "nothing_here();</script></body></html>",
        encoding="utf-8",
    )
    browser.load(page.as_uri())
    problems = "\n".join(browser.problems())
    assert "console.error: boom" in problems
    assert "nothing_here" in problems
    assert "request: https://example.invalid/x.css" in problems
    assert "missing.png" in problems or "ERR_FILE_NOT_FOUND" in problems
