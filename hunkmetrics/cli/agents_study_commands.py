"""The study's commands, added to `hunkmetrics agents` (docs/agents.md, "The study's
tables"):

hunkmetrics agents import-study DIR [--out attempts.jsonl]
hunkmetrics agents summary ATTEMPTS|RUNS [--bugs results.jsonl] [--format table|json|csv|markdown]
                           [--top-k N] [--table NAME] [--resamples N] [--seed N]
                           [--min-runtime S] [--reference DEV] [--repos DIR] [--jobs N]
"""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from ..bootstrap import RESAMPLES, SEED
from ..errors import HunkmetricsError
from .agents_run_options import (
    ReferenceOpt,
    ReposOpt,
    RewardThresholdOpt,
    SwebenchLogsOpt,
    load_references,
    repos_folder,
)
from .common import command_group, guarded, plain, print_warnings, rich_console
from .options import JOBS_DEFAULT, JobsOpt, finite_number, standard_output_as_none
from .output import write_text

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..agents.study.records import StudyAttempt
    from ..agents.study.tables import TableRows

# The study package (numpy, the tables) is imported by the commands that use it, so that
# the rest of the CLI starts without it.

group = command_group()


class SummaryFormat(StrEnum):
    table = "table"
    json = "json"
    csv = "csv"
    markdown = "markdown"


@group.command("import-study")
def import_study_command(
    ctx: typer.Context,
    folder: Annotated[
        Path,
        typer.Argument(
            help="The study's results: a checkout of its repository or its "
            "hunk4j-results/results folder (files found by name).",
            show_default=False,
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="JSON Lines file, one attempt per line (default, or '-': standard "
            "output). Never overwritten.",
            callback=standard_output_as_none,
        ),
    ] = None,
) -> None:
    """Read the study's published per-bug files into attempt lines (docs/agents.md)."""

    def body() -> None:
        from ..agents.study.importer import import_study
        from ..datasets.lock import output_lock
        from ..datasets.records import JsonlWriter, encode_record

        result = import_study(folder)
        if out is None:
            for record in result.records:
                write_text(encode_record(record).decode("utf-8"))
        else:
            with output_lock(out, "agents import-study"):
                try:
                    writer = JsonlWriter(out)
                except FileExistsError:
                    raise HunkmetricsError(f"{out}: exists; give a new file") from None
                with writer:
                    for record in result.records:
                        writer.write(record)
        agents = len({(r["agent"], r.get("condition")) for r in result.records})
        print_warnings(result.warnings)
        if out is not None:
            rich_console(stderr=True).print(
                f"{len(result.records)} attempts of {agents} agents written to {plain(out)}"
            )

    guarded(ctx, body)


def evaluated(
    runs: Path,
    reference: Path | None,
    repos: Path | None,
    reward_threshold: float,
    jobs: int,
    logs: list[Path] | None = None,
) -> list[StudyAttempt]:
    """Every run of `runs` evaluated as `agents evaluate` does (its defaults), as typed
    attempts; a line per run that could not be evaluated goes to stderr."""
    from ..agents.batch import evaluate_runs
    from ..agents.evaluate import Settings as EvaluateSettings
    from ..agents.study.records import parse_attempt

    found: list[StudyAttempt] = []

    def keep(record: dict[str, Any]) -> None:
        if record.get("error") is not None:
            print_warnings([f"run {record['id']}: {record['error']}"])
        found.append(parse_attempt(record))

    evaluate_runs(
        runs,
        load_references(reference, repos=repos),
        EvaluateSettings(reward_threshold=reward_threshold, repos=repos_folder(repos)),
        jobs=jobs,
        to_stdout=False,
        on_record=keep,
        logs=logs or (),
    )
    return found


def _rich(full: TableRows) -> Table:
    from ..agents.study.render import format_cell, readable

    table = readable(full)
    out = Table(title=plain(table.title), title_justify="left")
    for i, name in enumerate(table.header):
        out.add_column(plain(name), justify="left" if i == 0 else "right", overflow="fold")
    for row in table.rows:
        out.add_row(*(plain(format_cell(v)) for v in row))
    return out


@group.command()
def summary(
    ctx: typer.Context,
    attempts: Annotated[
        Path,
        typer.Argument(
            help="Attempt lines (agents evaluate or agents import-study output), or runs "
            "to evaluate first, as `agents evaluate` takes them: a Harbor job, an Inspect "
            "log, OpenHands V1 conversations, a runs manifest or RUNS/<agent>/<bug>/.",
            show_default=False,
        ),
    ],
    bugs: Annotated[
        Path | None,
        typer.Option(
            "--bugs",
            help="The developer patches' batch results (hunk count, divergence, proximity "
            "per bug): needed for Table 3 and the proximity columns.",
        ),
    ] = None,
    format: Annotated[
        SummaryFormat,
        typer.Option("--format", "-f", help="table, json, csv or markdown."),
    ] = SummaryFormat.table,
    top_k: Annotated[
        int, typer.Option("--top-k", min=1, help="Sequence patterns shown per window size.")
    ] = 10,
    only: Annotated[
        str | None,
        typer.Option(
            "--table",
            help="Only this table (table2 … table9, patterns, rr, first_touch; per_bug: "
            "every attempt with its bug's traits, shown only when asked for).",
        ),
    ] = None,
    resamples: Annotated[
        int, typer.Option("--resamples", min=100, help="Bootstrap resamples per rate.")
    ] = RESAMPLES,
    seed: Annotated[
        int, typer.Option("--seed", min=0, help="The bootstrap's random seed (0 or more).")
    ] = SEED,
    min_runtime: Annotated[
        float | None,
        typer.Option(
            "--min-runtime",
            min=0,
            callback=finite_number,
            help="Leave attempts that ran less than this many seconds out of Tables 5 and 6 "
            "(the study's Table 5 left out runs under 30 s).",
        ),
    ] = None,
    reference: ReferenceOpt = None,
    repos: ReposOpt = None,
    reward_threshold: RewardThresholdOpt = 1.0,
    swebench_logs: SwebenchLogsOpt = None,
    jobs: JobsOpt = JOBS_DEFAULT,
) -> None:
    """The study's tables over attempts: effectiveness (Table 2), divergence and proximity
    (3), unfixed bugs (4), tokens (5), runtime (6), tool diversity (7), category shares
    (8), tool-sequence patterns, regression reduction, MAPLE before/after (9) and first
    touch of each fault site; every rate with a bootstrap 95 % interval."""

    def body() -> None:
        from ..agents.study import Settings, iter_attempts, read_bug_traits, summarize
        from ..agents.study.render import summary_json, table_csv, table_markdown

        traits = read_bug_traits(bugs) if bugs is not None else None
        settings = Settings(top_k=top_k, resamples=resamples, seed=seed, min_runtime_s=min_runtime)
        lines: Iterable[StudyAttempt]
        from ..agents.runs import holds_runs

        if holds_runs(attempts):
            lines = evaluated(attempts, reference, repos, reward_threshold, jobs, swebench_logs)
        elif reference is not None or repos is not None or swebench_logs:
            raise HunkmetricsError(
                f"{attempts}: attempt lines are measured already; --reference, --repos and "
                "--swebench-logs apply to runs (a harness's output, a runs manifest or folder)"
            )
        else:
            lines = iter_attempts(attempts)
        result = summarize(lines, traits, settings)
        if result.attempts == 0:
            raise HunkmetricsError(
                f"{attempts}: no attempt lines (make them with `agents evaluate` or "
                "`agents import-study`)"
            )
        tables = result.tables()
        if only is not None:
            tables = [t for t in result.tables(per_bug=True) if t.name == only]
            if not tables:
                names = ", ".join(t.name for t in result.tables(per_bug=True))
                raise HunkmetricsError(f"--table {only}: not in this summary (one of {names})")
        if format is SummaryFormat.json:
            document = summary_json(result, per_bug=only == "per_bug")
            if only is not None:
                document["tables"] = {only: document["tables"][only]}
            write_text(json.dumps(document, ensure_ascii=False, indent=2) + "\n")
        elif format is SummaryFormat.csv:
            parts = []
            for t in tables:
                text = table_csv(t)
                parts.append(text if len(tables) == 1 else f"# {t.name}: {t.title}\n{text}")
            write_text("\n".join(parts))
        elif format is SummaryFormat.markdown:
            write_text("\n".join(table_markdown(t) for t in tables))
        else:
            console = rich_console()
            for t in tables:
                console.print(_rich(t))
            console.print(
                f"{result.attempts} attempts, {len(result.groups)} agents; rates with "
                f"bootstrap 95 % intervals ({resamples} resamples, seed {seed})"
            )
        notes = list(result.warnings)
        if result.skipped:
            notes.append(f"{result.skipped} attempt lines are errors and were left out")
        print_warnings(notes)

    guarded(ctx, body)
