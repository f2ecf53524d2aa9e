"""The `batch` and `export` commands: datasets at scale (docs/batch.md)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.progress import Progress as RichProgress
from rich.text import Text

from ..errors import HunkmetricsError
from ..lang.selection import EXCLUDE_TESTS_DEFAULT
from ..metrics.profiles import DISTRIBUTED_WEIGHT, PROFILES
from .common import command_group, guarded, plain, print_warnings, rich_console
from .options import (
    JOBS_DEFAULT,
    PROFILE_DEFAULT,
    AllFilesOpt,
    CutoffOpt,
    ExcludeOpt,
    ExcludeTestsOpt,
    ExecutorKind,
    ExecutorOpt,
    Hunking,
    HunksOpt,
    IgnoreCommentOnlyOpt,
    IncludeOpt,
    JobsOpt,
    MaxMemoryOpt,
    PairsOpt,
    PathPrefixOpt,
    ProfileOpt,
    PublishedArtifactsOpt,
    RepoOpt,
    ReverseOpt,
    RevOpt,
    SchedulerOpt,
    WeightOpt,
    check_executor,
    resumable_file,
    selection_from,
)

app = command_group()  # cli/root.py adds these commands to the application


class ExportFormat(StrEnum):
    csv = "csv"
    parquet = "parquet"


def _stderr() -> Console:
    return rich_console(stderr=True, soft_wrap=True)


class _Rate(ProgressColumn):
    def render(self, task: Any) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:.1f} patches/s" if speed else "– patches/s", style="cyan")


class _Errors(ProgressColumn):
    def render(self, task: Any) -> Text:
        errors = task.fields.get("errors", 0)
        return Text(f"{errors} error{'s' * (errors != 1)}", style="red" if errors else "dim")


class BarProgress:
    """The batch's progress on stderr: items done, rate, ETA and errors so far. Shown
    only when stderr is a terminal (never in logs or pipes)."""

    def __init__(self) -> None:
        console = _stderr()
        self._bar = RichProgress(
            TextColumn("batch", style="bold", markup=False),
            BarColumn(),
            MofNCompleteColumn(),
            _Rate(),
            TextColumn("eta"),
            TimeRemainingColumn(),
            TextColumn("elapsed"),
            TimeElapsedColumn(),
            _Errors(),
            console=console,
            disable=not console.is_terminal,
            transient=False,
        )
        self._task: Any = None
        self._errors = 0

    def __enter__(self) -> BarProgress:
        self._bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._bar.stop()

    def start(self, total: int) -> None:
        self._task = self._bar.add_task("batch", total=total, errors=0)

    def advance(self, written: int, errors: int) -> None:
        self._errors += errors
        self._bar.update(self._task, advance=written, errors=self._errors)


InputArg = Annotated[
    Path,
    typer.Argument(
        help="A directory of *.diff / *.patch files (id = file name without extension), or a "
        "manifest CSV with columns id,patch and optional repo,rev,reverse (paths relative to "
        "the manifest; a non-empty cell overrides the option's default for that row).",
        show_default=False,
    ),
]


@app.command()
def batch(
    ctx: typer.Context,
    input: InputArg,
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            callback=resumable_file,
            help="The JSON Lines file to write: one line per patch. Never "
            "overwritten: an existing non-empty file needs --resume.",
            show_default=False,
        ),
    ],
    repo: RepoOpt = None,
    rev: RevOpt = None,
    path_prefix: PathPrefixOpt = None,
    reverse: ReverseOpt = False,
    hunks: HunksOpt = Hunking.as_given,
    all_files: AllFilesOpt = False,
    include: IncludeOpt = None,
    exclude: ExcludeOpt = None,
    exclude_tests: ExcludeTestsOpt = EXCLUDE_TESTS_DEFAULT,
    ignore_comment_only: IgnoreCommentOnlyOpt = False,
    profile: ProfileOpt = PROFILE_DEFAULT,
    cutoff: CutoffOpt = None,
    weight: WeightOpt = DISTRIBUTED_WEIGHT,
    artifact: PublishedArtifactsOpt = None,
    pairs: PairsOpt = False,
    jobs: JobsOpt = JOBS_DEFAULT,
    max_memory: MaxMemoryOpt = "auto",
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="Continue an interrupted run: skip the ids already in --out, "
            "and remove a torn last line or any damaged line (each named in a "
            "warning; its patch is done again).",
            rich_help_panel="Running",
        ),
    ] = False,
    ordered: Annotated[
        bool,
        typer.Option(
            "--ordered",
            help="Write lines in input order (results that finish early wait "
            "in memory). Default: as they finish.",
            rich_help_panel="Running",
        ),
    ] = False,
    executor: ExecutorOpt = ExecutorKind.local,
    scheduler: SchedulerOpt = None,
    chunk_size: Annotated[
        int | None,
        typer.Option(
            "--chunk-size",
            min=1,
            help="Patches per task (consecutive ones sharing a "
            "repo/rev share its reader). Default: automatic, at most 16.",
            show_default=False,
            rich_help_panel="Running",
        ),
    ] = None,
) -> None:
    """Characterize every patch of a dataset into a JSON Lines file, in parallel.

    Each line is the `characterize` JSON document of one patch plus "id" and "error"
    (null, or a one-line message: a bad patch never stops the run). Interrupted or
    killed runs continue with --resume; every id ends up in the file exactly once.
    The last line on stderr sums up: written, skipped as already done, errors, torn
    lines repaired.

    Examples:

      hunkmetrics batch patches/ --out results.jsonl --repo ~/src/project --rev base

      hunkmetrics batch manifest.csv --out results.jsonl --profile birch --jobs 8

      hunkmetrics batch manifest.csv --out results.jsonl --resume

      hunkmetrics batch data.csv -o results.jsonl --executor dask --scheduler tcp://host:8786
    """
    from ..datasets.batch import Settings, run_batch
    from ..datasets.inputs import Defaults

    def run() -> None:
        check_executor(executor, scheduler)
        if executor is ExecutorKind.dask and jobs != JOBS_DEFAULT:
            print_warnings(
                [
                    "--jobs is ignored with --executor dask: every thread of the "
                    "cluster's workers is used"
                ]
            )
        names = tuple(a.value for a in artifact or [])
        if names and not PROFILES[profile].reproduces_published_artifacts:
            raise HunkmetricsError(
                "--published-artifacts reproduces the birch study's numbers: use --profile birch"
            )
        settings = Settings(
            profile=profile,
            cutoff=cutoff,
            distributed_weight=weight,
            hunking=hunks.value,
            selection=selection_from(
                all_files, include, exclude, exclude_tests, ignore_comment_only
            ),
            pairs=pairs,
            artifacts=names,
        )
        with BarProgress() as progress:
            summary = run_batch(
                input,
                out,
                settings=settings,
                defaults=Defaults(repo=repo, rev=rev, reverse=reverse, path_prefix=path_prefix),
                executor=executor.value,
                jobs=jobs,
                scheduler=scheduler,
                resume=resume,
                ordered=ordered,
                chunk_size=chunk_size,
                progress=progress,
                max_memory=max_memory,
            )
        print_warnings(summary.warnings)
        _stderr().print(plain(f"hunkmetrics: {summary.line()}"))
        if summary.interrupted:
            raise typer.Exit(130)

    guarded(ctx, run)


@app.command()
def export(
    ctx: typer.Context,
    results: Annotated[
        Path, typer.Argument(help="A batch's JSON Lines output.", show_default=False)
    ],
    out: Annotated[
        str,
        typer.Option(
            "--out",
            "-o",
            help="The table to write ('-': CSV on standard output).",
            show_default=False,
        ),
    ],
    format: Annotated[
        ExportFormat | None,
        typer.Option(
            "--format",
            "-f",
            help="csv or parquet (default: from --out's extension, "
            "else csv). Parquet needs pyarrow (hunkmetrics\\[parquet]).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """One table row per patch of a batch's results, sorted by id.

    Columns: id, error, patch, commit, parent, date, author, summary (mine's records),
    hunk_count, divergence, lexical_mean, structural_mean, file_mean, proximity, files,
    packages, classes, methods, shared_package_depth, located_by, unplaced_hunks,
    excluded_hunks, source, source_side, warnings, warning_text, profile, cutoff,
    distributed_weight, hunking, reverse, tool_version, config_fingerprint
    (docs/batch.md). Torn or invalid lines are skipped with a warning.

    Examples:

      hunkmetrics export results.jsonl --out results.csv

      hunkmetrics export results.jsonl --format parquet --out results.parquet
    """
    from ..datasets.export import export as export_table

    def run() -> None:
        summary = export_table(results, out, format.value if format else None)
        print_warnings([f"{results}: {w}" for w in summary.warnings])
        if out != "-":
            _stderr().print(
                plain(
                    f"hunkmetrics: export: {summary.rows} rows ({summary.errors} "
                    f"with an error) → {out}"
                )
            )

    guarded(ctx, run)
