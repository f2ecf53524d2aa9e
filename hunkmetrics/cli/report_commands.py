"""The `report` command(s)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Annotated

import typer

from .common import command_group, guarded, plain, print_warnings, rich_console
from .options import named_file

app = command_group()  # cli/root.py adds these commands to the application


@app.command()
def report(
    ctx: typer.Context,
    results: Annotated[
        Path,
        typer.Argument(
            help="A batch run's results.jsonl (one characterize document per line, with "
            '"id" and "error").',
            show_default=False,
        ),
    ],
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            callback=named_file,
            help="The HTML file to write (one self-contained page).",
            show_default=False,
        ),
    ],
    outcomes: Annotated[
        Path | None,
        typer.Option(
            "--outcomes",
            help="CSV with the header id,agent,fixed[,localized] (fixed/"
            "localized: true/false, 1/0, yes/no): adds the per-agent figures and tables.",
            show_default=False,
        ),
    ] = None,
    attempts: Annotated[
        list[str] | None,
        typer.Option(
            "--attempts",
            help="Attempt records (agents evaluate / agents import-study output), a file or "
            "a glob such as 'runs/*.jsonl'; repeat for more. Adds the Agents part: the "
            "study's tables (CSV downloads) and Figures 3-10. RESULTS is then the "
            "developer patches' batch results.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Write an HTML report of a batch run: figures of proximity and divergence.

    With --outcomes it adds which bugs each agent fixed, per proximity class, and how
    well divergence and hunk count predict failure (ROC AUC).

    With --attempts it adds the Agents part of the "Beyond Accuracy" study: Tables 2-9
    (each downloadable as CSV, rates with bootstrap 95% intervals), the UpSet plot of
    bugs fixed per combination of agents, violins of divergence, regression reduction
    and tokens by outcome, the cache breakdown, the top tool-sequence patterns, and a
    per-bug table that every dot links to.

    The page needs no network to open: CSS and figures (SVG) are inline. See
    docs/report.md for what each figure and table shows.

    Examples:

      hunkmetrics report results.jsonl --out report.html

      hunkmetrics report results.jsonl --outcomes outcomes.csv --out report.html

      hunkmetrics report dev-results.jsonl --attempts attempts.jsonl --out report.html
    """

    def run() -> None:
        with contextlib.suppress(ImportError):  # without it, the report says what to install
            import matplotlib

            matplotlib.use("Agg")  # the command owns the process: never look for a display
        from ..report import write_report

        made = write_report(results, out, outcomes, attempts or ())
        print_warnings(list(made.warnings))
        rich_console(stderr=True, soft_wrap=True).print(
            plain(
                f"hunkmetrics: wrote {out}: {made.records} record(s), {made.errors} error(s), "
                + ("" if made.attempts is None else f"{made.attempts} attempt(s), ")
                + f"{made.figures} figure(s)"
            )
        )

    guarded(ctx, run)
