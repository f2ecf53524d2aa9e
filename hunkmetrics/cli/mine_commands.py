"""The `mine` command(s)."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from ..datasets.mine import DEFAULT_GREP, MAX_HUNKS_DEFAULT, MineStats, mine_options
from ..datasets.mine import mine as mine_repository
from ..errors import HunkmetricsError
from ..lang.selection import EXCLUDE_TESTS_DEFAULT
from .common import command_group, guarded, plain, rich_console
from .options import (
    JOBS_DEFAULT,
    PROFILE_DEFAULT,
    AllFilesOpt,
    ExcludeOpt,
    ExcludeTestsOpt,
    ExecutorKind,
    ExecutorOpt,
    IgnoreCommentOnlyOpt,
    IncludeOpt,
    JobsOpt,
    MaxMemoryOpt,
    PairsOpt,
    ProfileOpt,
    SchedulerOpt,
    check_executor,
    resumable_file,
)


class OverMax(StrEnum):
    keep = "keep"
    drop = "drop"


app = command_group()  # cli/root.py adds these commands to the application

_FILTERS = "Filters"
_RUN = "Run"


def _describe(stats: MineStats) -> str:
    text = (
        f"scanned {stats.scanned:,} commits · {stats.matched:,} matched · "
        f"{stats.candidates:,} candidates · {stats.written:,} written"
    )
    if stats.errors:
        text += f" · {stats.errors:,} errors"
    if stats.resumed:
        text += f" · {stats.resumed:,} already done"
    return text


@app.command()
def mine(
    ctx: typer.Context,
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            callback=resumable_file,
            help="JSON Lines output, one line per candidate commit. It must not "
            "exist yet, unless --resume.",
            show_default=False,
        ),
    ],
    repos: Annotated[
        list[Path] | None,
        typer.Argument(
            help="The git repositories to mine (working trees, bare or mirrors); or give "
            "--repo-list.",
            show_default=False,
        ),
    ] = None,
    since: Annotated[
        str | None,
        typer.Option(
            "--since",
            help="Only commits committed on or after this ISO 8601 date "
            "(2024-01-31, or with a time and zone; no zone = UTC).",
            rich_help_panel=_FILTERS,
        ),
    ] = None,
    until: Annotated[
        str | None,
        typer.Option(
            "--until",
            help="Only commits committed on or before this date (a bare date "
            "includes that whole day).",
            rich_help_panel=_FILTERS,
        ),
    ] = None,
    grep: Annotated[
        str,
        typer.Option(
            "--grep",
            help="Bug-fix commits: a regular expression searched in the whole "
            "message, case-insensitive.",
            rich_help_panel=_FILTERS,
        ),
    ] = DEFAULT_GREP,
    min_hunks: Annotated[
        int,
        typer.Option(
            "--min-hunks",
            min=1,
            help="Keep commits whose source change has at least this many hunks.",
            rich_help_panel=_FILTERS,
        ),
    ] = 2,
    min_code_hunks: Annotated[
        int | None,
        typer.Option(
            "--min-code-hunks",
            min=0,
            help="Keep commits with at least this many hunks that change code, not only "
            "comments or whitespace (default: 2, or --min-hunks when lower).",
            show_default=False,
            rich_help_panel=_FILTERS,
        ),
    ] = None,
    max_hunks: Annotated[
        int,
        typer.Option(
            "--max-hunks",
            min=0,
            help="...and at most this many; 0 for no limit. A commit with more is written "
            "with its counts and an error saying it was not characterized (so that a "
            "curator keeps it as a candidate: a 10,000-hunk commit would take minutes), or "
            "left out with --over-max-hunks drop.",
            rich_help_panel=_FILTERS,
        ),
    ] = MAX_HUNKS_DEFAULT,
    over_max_hunks: Annotated[
        OverMax,
        typer.Option(
            "--over-max-hunks",
            help="What to do with a commit above --max-hunks: keep it (its counts, not "
            "characterized) or drop it.",
            rich_help_panel=_FILTERS,
        ),
    ] = OverMax.keep,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help="Source languages, comma-separated: java, python, javascript, "
            "typescript, tsx, go, c, cpp (default: all).",
            rich_help_panel=_FILTERS,
        ),
    ] = None,
    all_files: AllFilesOpt = False,
    include: IncludeOpt = None,
    exclude: ExcludeOpt = None,
    exclude_tests: ExcludeTestsOpt = EXCLUDE_TESTS_DEFAULT,
    ignore_comment_only: IgnoreCommentOnlyOpt = False,
    branch: Annotated[
        str | None,
        typer.Option(
            "--branch",
            help="Walk the history of this branch or revision (default: HEAD).",
            rich_help_panel=_FILTERS,
        ),
    ] = None,
    repo_list: Annotated[
        Path | None,
        typer.Option(
            "--repo-list",
            help="A CSV of repositories, one per row: repo[,since,until,branch,name] (paths "
            "relative to the CSV; an empty cell takes the command line's value; name "
            "defaults to the folder's).",
            show_default=False,
            rich_help_panel=_FILTERS,
        ),
    ] = None,
    profile: ProfileOpt = PROFILE_DEFAULT,
    pairs: PairsOpt = False,
    jobs: JobsOpt = JOBS_DEFAULT,
    max_memory: MaxMemoryOpt = "auto",
    executor: ExecutorOpt = ExecutorKind.local,
    scheduler: SchedulerOpt = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="Continue an interrupted run: keep --out and skip the commits already in it.",
            rich_help_panel=_RUN,
        ),
    ] = False,
) -> None:
    """Mine git histories for multi-hunk bug fixes and characterize each one.

    Walks the non-merge commits of each repository (oldest first), keeps those whose
    message matches --grep and whose source change (files in the chosen languages, tests
    left out) has between --min-hunks and --max-hunks hunks, and characterizes each
    against its parent, as `characterize` does. Each line of --out holds id, repository,
    commit, parent, summary, date, author and error (null, or why the commit could not
    be characterized) followed by the hunkmetrics/characterize/v1 document. Root commits
    are skipped. With several repositories, ids are <repository>@<commit>, the
    repositories are mined one after another with every worker busy, and --resume skips
    the repositories finished before (listed in <out>.repos-done) and the commits written.

    Examples:

      hunkmetrics mine ~/src/commons-lang --out lang.jsonl --lang java --jobs 4

      hunkmetrics mine . -o fixes.jsonl --since 2023-01-01 --max-hunks 10 --resume

      hunkmetrics mine --repo-list repos.csv -o all.jsonl --jobs 8 --resume
    """

    def run() -> None:
        from ..datasets.repos import read_repo_list, repo_specs

        check_executor(executor, scheduler)
        if repo_list is not None and repos:
            raise HunkmetricsError("give repositories as arguments or with --repo-list, not both")
        if repo_list is not None:
            specs = read_repo_list(repo_list)
        elif repos:
            specs = repo_specs(repos)
        else:
            raise HunkmetricsError("give a repository to mine (or --repo-list FILE)")
        options = mine_options(
            grep=grep,
            since=since,
            until=until,
            min_hunks=min_hunks,
            min_code_hunks=min_code_hunks,
            max_hunks=max_hunks,
            over_max=over_max_hunks.value,
            languages=lang,
            profile=profile,
            exclude_tests=exclude_tests,
            all_files=all_files,
            include=include,
            exclude=exclude,
            ignore_comment_only=ignore_comment_only,
            branch=branch,
            pairs=pairs,
        )
        err = rich_console(stderr=True, soft_wrap=True)
        progress = None
        if sys.stderr.isatty():
            progress = Progress(
                SpinnerColumn(),
                TextColumn("{task.description}", markup=False),
                TimeElapsedColumn(),
                console=err,
                transient=True,
            )
            task = progress.add_task("starting", total=None)
        try:
            if progress is not None:
                progress.start()
            stats = mine_repository(
                specs,
                out,
                options,
                jobs=jobs,
                executor=executor.value,
                scheduler=scheduler,
                resume=resume,
                max_memory=max_memory,
                on_progress=(lambda s: progress.update(task, description=_describe(s)))
                if progress is not None
                else None,
            )
        except KeyboardInterrupt:
            if progress is not None:
                progress.stop()
            err.print(
                plain(
                    f"hunkmetrics: interrupted; the lines written so far are in {out} "
                    "(run again with --resume to continue)"
                )
            )
            raise typer.Exit(130) from None
        finally:
            if progress is not None:
                progress.stop()
        for warning in stats.warnings:
            err.print(plain(f"hunkmetrics: warning: {warning}"))
        summary = (
            f"hunkmetrics: scanned {stats.scanned:,} commits: {stats.matched:,} "
            f"fixes by message, {stats.candidates:,} candidates by hunk count; wrote "
            f"{stats.written:,} lines to {out} ({stats.errors:,} with an error)"
        )
        if stats.resumed:
            summary += f"; {stats.resumed:,} were already there"
        if len(specs) > 1:
            summary += f"; {stats.repositories} of {len(specs)} repositories walked"
            if stats.repositories_resumed:
                summary += f" ({stats.repositories_resumed} finished before)"
        seconds = f"{stats.seconds:.1f}" if stats.seconds >= 1 else f"{stats.seconds:.2f}"
        err.print(plain(f"{summary} in {seconds} s"))

    guarded(ctx, run)
