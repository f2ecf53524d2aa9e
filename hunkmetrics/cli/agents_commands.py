"""The `agents` commands: coding-agent runs (docs/agents.md).

hunkmetrics agents actions TRAJECTORY|DIR... [--row N] [--profile semantic|paper]
    [--format table|json|jsonl|csv] [--explain] [--action N]
hunkmetrics agents export TRAJECTORY [--row N] --format atif
hunkmetrics agents evaluate RUNS --reference DEV [--out attempts.jsonl] [--jobs N] [--resume]
hunkmetrics agents import-study DIR / summary ATTEMPTS (agents_study_commands.py)
hunkmetrics agents rules check FILE / show [PROFILE] (agents_rules_commands.py)
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..errors import EXIT_INPUT, HunkmetricsError
from .agents_actions_output import ActionsWriter
from .agents_inputs import is_events_dir, read_items
from .agents_rules_commands import app as rules_app
from .agents_run_options import (
    ReferenceOpt,
    ReposOpt,
    RewardThresholdOpt,
    SwebenchLogsOpt,
    load_references,
    repos_folder,
)
from .agents_study_commands import group as study_commands
from .common import fail, guarded, include, plain, print_warnings, rich_console
from .options import (
    JOBS_DEFAULT,
    ExcludeTestsOpt,
    JobsOpt,
    MaxMemoryOpt,
    RepoOpt,
    ReverseOpt,
    RevOpt,
    standard_output_as_none,
)
from .output import write_text

if TYPE_CHECKING:  # the agents package is imported by the commands that use it
    from ..agents import Action, Attempt

app = typer.Typer(
    help="Coding-agent runs: read trajectories, classify their actions, measure attempts.",
    no_args_is_help=True,
)


class CategoryProfile(StrEnum):
    semantic = "semantic"
    paper = "paper"


class ActionsFormat(StrEnum):
    table = "table"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"


class ExportFormat(StrEnum):
    atif = "atif"


TrajectoryArg = Annotated[
    Path,
    typer.Argument(
        help="A trajectory file (or an OpenHands events directory); the format is detected.",
        show_default=False,
    ),
]
ProfileOpt = Annotated[
    CategoryProfile,
    typer.Option(
        "--profile",
        help="Category rules: 'semantic' (what each action does) or 'paper' (the study's "
        "16 categories, quirks included).",
    ),
]
TrajFormatOpt = Annotated[
    str | None,
    typer.Option("--trajectory-format", help="Override format detection (a reader name)."),
]

ACTION_COLUMNS = ("index", "call", "time", "tool", "command", "category", "rule", "paths")


def _row(action: Action) -> dict[str, Any]:
    cmd = action.command
    return {
        "index": action.index,
        "call": action.call_index,
        "time": action.timestamp.isoformat() if action.timestamp else None,
        "tool": action.tool_name,
        "command": cmd.text if cmd is not None else None,
        "category": action.category,
        "rule": action.rule,
        "paths": list(action.paths),
        "is_error": action.is_error,
        "subagent": action.subagent,
    }


def _table(attempt: Attempt) -> None:
    console = rich_console()
    title = (
        f"{attempt.agent} ({attempt.source_format}), {attempt.tool_call_count} tool calls, "
        f"{attempt.action_count} actions, profile {attempt.profile}"
    )
    table = Table(title=title, title_justify="left")
    for column in ("#", "call", "tool", "command", "category", "rule"):
        table.add_column(column, overflow="fold")
    for action in attempt.actions:
        cmd = action.command
        text = cmd.text if cmd is not None else ", ".join(action.paths)
        table.add_row(
            str(action.index),
            str(action.call_index),
            plain(action.tool_name),
            plain(" ".join(text.split())[:200]),
            plain(action.category),
            plain(action.rule),
        )
    console.print(table)
    shares = attempt.category_shares()
    summary = ", ".join(f"{k} {v:.1%}" for k, v in sorted(shares.items(), key=lambda kv: -kv[1]))
    console.print(plain(f"U_a: {summary or 'no actions'}"))


TrajectoriesArg = Annotated[
    list[Path],
    typer.Argument(
        help="Trajectory files, OpenHands events directories, or directories to scan for "
        "them (recursively: *.json, *.jsonl, *.traj files and OpenHands sessions).",
        metavar="TRAJECTORY",
        show_default=False,
    ),
]
RowOpt = Annotated[
    int | None,
    typer.Option(
        "--row",
        min=0,
        help="Only this attempt of a file holding several (an OpenHands output.jsonl: "
        "row 0 is its first attempt).",
        metavar="N",
        show_default=False,
    ),
]


@app.command()
def actions(
    ctx: typer.Context,
    trajectories: TrajectoriesArg,
    profile: ProfileOpt = CategoryProfile.semantic,
    format: Annotated[
        ActionsFormat,
        typer.Option(
            "--format",
            "-f",
            help="table, json, jsonl (one action a line, with its file and row) or csv.",
        ),
    ] = ActionsFormat.table,
    trajectory_format: TrajFormatOpt = None,
    row: RowOpt = None,
    explain: Annotated[
        bool,
        typer.Option(
            "--explain",
            help="Say why each action got its category: the rule that fired, the wrappers "
            "looked through, and the rules for the same name that nearly did.",
        ),
    ] = False,
    only: Annotated[
        int | None,
        typer.Option("--action", min=0, help="Explain only action N (implies --explain)."),
    ] = None,
) -> None:
    """The action sequence of each run, each action with its category and the rule that
    gave it.

    Several trajectories (or a directory) are read in one run: json is then a list of
    {file, row, agent, bug, actions} documents and csv starts with file,row; an OpenHands
    output.jsonl gives each of its rows (attempts) unless --row picks one. A file that
    cannot be read is one error line on stderr and the others are still read; the exit
    code is then 2 (1 if the failure was an internal error)."""

    def body() -> None:
        from ..agents import load_profile, read_trajectories

        rules = load_profile(profile.value)  # loaded once for every file
        items, failures = read_items(
            trajectories,
            lambda path: read_trajectories(path, trajectory_format, rules),
            row,
            _report,
            debug=bool(ctx.obj and ctx.obj.get("debug")),
        )
        one = trajectories[0]
        writer = ActionsWriter(
            format.value,
            ACTION_COLUMNS,
            _row,
            _table,
            one_argument=len(trajectories) == 1 and (not one.is_dir() or is_events_dir(one)),
            row_given=row is not None,
        )
        if explain or only is not None:
            from .agents_explain import write_explanations

            for item in items:  # one attempt's explanations after another
                write_explanations(item.attempt, rules, only, format is ActionsFormat.json)
                print_warnings(list(item.attempt.warnings))
        else:
            for item in items:
                writer.add(item)
            writer.close()
        if failures.exit_code:
            raise typer.Exit(failures.exit_code)

    guarded(ctx, body)


def _report(line: str) -> None:
    """`hunkmetrics: <line>` on stderr (a file's error, the run goes on)."""
    rich_console(stderr=True, soft_wrap=True).print(plain(f"hunkmetrics: {line}"))


@app.command()
def export(
    ctx: typer.Context,
    trajectory: TrajectoryArg,
    format: Annotated[
        ExportFormat, typer.Option("--format", "-f", help="The output format (atif).")
    ] = ExportFormat.atif,
    trajectory_format: TrajFormatOpt = None,
    row: RowOpt = None,
) -> None:
    """Write a trajectory in another format (ATIF, Harbor's interchange format).

    A file holding several attempts (an OpenHands output.jsonl) gives one ATIF document
    per row as JSON Lines, in file order; --row N writes that row's document alone."""

    def body() -> None:
        from ..agents import read_trajectories
        from ..agents.atif import dumps as atif_dumps

        attempts = read_trajectories(trajectory, trajectory_format)
        if row is not None:
            if row >= len(attempts):
                fail(
                    f"error: {trajectory}: no row {row}: it holds {len(attempts)} attempt(s)",
                    EXIT_INPUT,
                )
            attempts = [attempts[row]]
        if len(attempts) == 1:
            write_text(atif_dumps(attempts[0]) + "\n")
        else:
            write_text("".join(atif_dumps(a, indent=None) + "\n" for a in attempts))
        for index, attempt in enumerate(attempts):
            prefix = f"row {index}: " if len(attempts) > 1 else ""
            print_warnings([prefix + w for w in attempt.warnings])

    guarded(ctx, body)


@app.command()
def evaluate(
    ctx: typer.Context,
    runs: Annotated[
        Path,
        typer.Argument(
            help="A runs manifest CSV (agent,bug,trajectory[,format,patch,outcome,...]), a "
            "directory RUNS/<agent>/<bug>/, a harness's output (Harbor job, Inspect log, "
            "OpenHands V1), SWE-bench predictions (.jsonl, .json list or preds.json; "
            "trajectories beside them are read), a SWE-bench log folder "
            "logs/run_evaluation/<run_id> (or its <model> folder), a Multi-SWE-bench workdir, "
            "or a published submission folder (all_preds.jsonl, trajs/, logs/, "
            "results/results.json, as SWE-bench/experiments holds them) (docs/agents.md).",
            show_default=False,
        ),
    ],
    reference: ReferenceOpt = None,
    reward_threshold: RewardThresholdOpt = 1.0,
    repos: ReposOpt = None,
    swebench_logs: SwebenchLogsOpt = None,
    repo: RepoOpt = None,
    rev: RevOpt = None,
    reverse: ReverseOpt = False,
    exclude_tests: ExcludeTestsOpt = True,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="JSON Lines file, one attempt per line (default, or '-': standard "
            "output). Never overwritten: an existing file needs --resume.",
            callback=standard_output_as_none,
        ),
    ] = None,
    jobs: JobsOpt = JOBS_DEFAULT,
    max_memory: MaxMemoryOpt = "auto",
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue --out, skipping the runs it has.")
    ] = False,
    profile: ProfileOpt = CategoryProfile.semantic,
    paper_tokens: Annotated[
        bool,
        typer.Option(
            "--paper-tokens",
            help="Count Claude usage on every transcript line, as the study did, instead "
            "of once per message.id.",
        ),
    ] = False,
) -> None:
    """Measure every attempt: LS, compilation, repair, regression reduction, tokens,
    runtime, tool use, localization, fault-site timing and edit/test cycles."""

    def body() -> None:
        if resume and out is None:
            raise HunkmetricsError("--resume continues an --out file: give --out")
        from ..agents.batch import evaluate_runs
        from ..agents.evaluate import Settings

        refs = load_references(reference, repo=repo, rev=rev, reverse=reverse, repos=repos)
        settings = Settings(
            profile=profile.value,
            dedupe_usage=not paper_tokens,
            reverse=reverse,
            exclude_tests=exclude_tests,
            reward_threshold=reward_threshold,
            repos=repos_folder(repos),
        )
        err = rich_console(stderr=True)
        bar = Progress(
            TextColumn("agents evaluate", style="bold", markup=False),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=err,
            disable=not err.is_terminal or out is None,
        )
        task = bar.add_task("evaluate", total=None)
        with bar:
            summary = evaluate_runs(
                runs,
                refs,
                settings,
                out=out,
                jobs=jobs,
                resume=resume,
                max_memory=max_memory,
                logs=swebench_logs or (),
                on_start=lambda total: bar.update(task, total=total),
                on_record=lambda record: bar.advance(task),
            )
        notes = []
        if summary.skipped:
            notes.append(f"{summary.skipped} runs already in {out} were skipped")
        if summary.errors:
            notes.append(f"{summary.errors} of {summary.written} runs could not be evaluated")
        print_warnings(notes)

    guarded(ctx, body)


include(app, study_commands)
app.add_typer(rules_app, name="rules")
