"""`hunkmetrics report`: one self-contained HTML page about a batch run's results.jsonl,
and, given an outcomes CSV, about which bugs each agent fixed.

    data     reading results.jsonl and the outcomes CSV, matching them
    stats    summaries, the per-class table, ROC AUC, localization rates
    figures  matplotlib figures as inline SVG
    html     the page

and, given attempt records (`agents evaluate` / `agents import-study` output), the
Agents part: agents_data (reading and summarizing the attempts), agents_tables (the
study's tables and the per-bug table), agents_plots (which attempts go in which figure,
and the captions), agents_figures (drawing them), agents_stats (violin marks, UpSet
intersections), downloads (tables as CSV links) and agents_page (the section).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from ..datasets.lock import output_lock
from ..errors import HunkmetricsError
from .data import load_outcomes, load_results


@dataclass(frozen=True)
class Report:
    html: str
    records: int
    errors: int
    figures: int
    warnings: tuple[str, ...]
    attempts: int | None = None  # attempts in the Agents part (None: no attempts given)


def build_report(
    results: str | Path,
    outcomes: str | Path | None = None,
    attempts: Sequence[str | Path] = (),
) -> Report:
    """Read the inputs and build the page (input problems raise HunkmetricsError).
    `attempts`: attempt files (or glob patterns) for the Agents part."""
    from . import figures, html  # matplotlib is imported only when a report is made

    figures.require_matplotlib()
    loaded = load_results(results)
    outs = load_outcomes(outcomes) if outcomes is not None else None
    extra = None
    paths: tuple[str, ...] = ()
    count = None
    if attempts:
        from .agents_data import load_agents
        from .agents_page import agents_section

        data = load_agents(attempts, results)
        extra, paths = partial(agents_section, data=data), data.paths
        count = data.summary.attempts
    page = html.render(loaded, outs, extra)
    return Report(
        html.document(page, loaded, outs, paths),
        len(loaded.records),
        len(loaded.errors),
        page.figures,
        tuple(page.warnings),
        count,
    )


def write_report(
    results: str | Path,
    out: str | Path,
    outcomes: str | Path | None = None,
    attempts: Sequence[str | Path] = (),
) -> Report:
    """Build the page and write it to `out` (whole or not at all), holding the output's
    lock (another run writing it is an error)."""
    out = Path(out)
    with output_lock(out, "report"):
        report = build_report(results, outcomes, attempts)
        tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(report.html, encoding="utf-8")
            os.replace(tmp, out)
        except OSError as exc:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise HunkmetricsError(
                f"{out}: cannot write the report: {exc.strerror or exc}"
            ) from None
    return report


__all__ = ["Report", "build_report", "write_report"]
