"""Options shared by every command, defined once."""

from __future__ import annotations

import math
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from ..errors import HunkmetricsError
from ..lang.selection import PathSelection, path_selection
from ..metrics.birch_artifacts import (
    ARTIFACT_NAMES,
    KEY_ORDER,
    LEXICAL_HUNKS,
    PublishedArtifacts,
    read_file_order,
)
from ..metrics.profiles import DEFAULT_PROFILE, DISTRIBUTED_WEIGHT, PROFILE_NAMES, PROFILES


class Hunking(StrEnum):
    as_given = "as-given"
    regions = "regions"


PROFILE_DEFAULT = DEFAULT_PROFILE


def finite_number(value: float | None) -> float | None:
    """An option callback: NaN and infinities refused (NaN passes a range check, compares
    false with everything, and JSON has no NaN)."""
    if value is not None and not math.isfinite(value):
        raise typer.BadParameter(f"{value} is not a finite number")
    return value


def resumable_file(path: Path | None) -> Path | None:
    """An option callback for an output that runs resume from (`--resume`): a file, so
    `-` (standard output elsewhere) is refused rather than made a file named `-`."""
    if path is not None and str(path) == "-":
        raise typer.BadParameter(
            "'-' is no file: this output is resumed from and locked while written; name "
            "a file (e.g. results.jsonl)"
        )
    return path


def named_file(path: Path | None) -> Path | None:
    """An option callback for an output written as a file (a report): `-` is refused
    rather than made a file named `-`."""
    if path is not None and str(path) == "-":
        raise typer.BadParameter("'-' is no file: name the file to write (e.g. report.html)")
    return path


def standard_output_as_none(path: Path | None) -> Path | None:
    """An option callback for an output that defaults to standard output: `-` says so
    too (None), rather than naming a file `-`."""
    return None if path is not None and str(path) == "-" else path


def _known_profile(name: str) -> str:
    if name not in PROFILE_NAMES:
        raise typer.BadParameter(f"{name!r} is not one of {', '.join(PROFILE_NAMES)}")
    return name


class Format(StrEnum):
    table = "table"
    json = "json"
    csv = "csv"


PatchArg = Annotated[
    str,
    typer.Argument(
        help="Unified diff (git or plain) to read; '-' reads standard input.", show_default=False
    ),
]
RepoOpt = Annotated[
    Path | None,
    typer.Option(
        "--repo",
        help="Source tree: a working tree, or with --rev a git repository (bare is "
        "fine). Its side of the patch is detected; the other side is derived in memory.",
        rich_help_panel="Sources",
    ),
]
RevOpt = Annotated[
    str | None,
    typer.Option(
        "--rev",
        help="Read files from this git revision of --repo (default repo: '.').",
        rich_help_panel="Sources",
    ),
]
ReverseOpt = Annotated[
    bool,
    typer.Option(
        "--reverse",
        help="Swap the patch's sides. Defects4J patches go fixed → buggy: use "
        "--reverse to read them as fixes.",
        rich_help_panel="Patch",
    ),
]
HunksOpt = Annotated[
    Hunking,
    typer.Option(
        "--hunks",
        help="'as-given': the @@ blocks; 'regions': re-cut as git would with 3 lines "
        "of context, so -U0 and -U10 diffs give the same hunks.",
        rich_help_panel="Patch",
    ),
]
FormatOpt = Annotated[
    Format,
    typer.Option("--format", "-f", help="Output: a table for people, json or csv for programs."),
]
ProfileOpt = Annotated[
    str,
    typer.Option(
        "--profile",
        metavar="[" + "|".join(PROFILE_NAMES) + "]",
        callback=_known_profile,
        help="; ".join(f"'{p.name}': {p.summary}" for p in PROFILES.values()) + ".",
        rich_help_panel="Metric",
    ),
]
CutoffOpt = Annotated[
    int | None,
    typer.Option(
        "--sprawl-cutoff",
        min=0,
        help="Sprawl needs every pair of hunks to share MORE than "
        "this many leading package segments (default: floor(median package depth / 2)"
        + "".join(f"; {p.name}: {p.cutoff}" for p in PROFILES.values() if p.cutoff is not None)
        + ").",
        rich_help_panel="Metric",
    ),
]
WeightOpt = Annotated[
    float,
    typer.Option(
        "--distributed-weight",
        min=0.0,
        callback=finite_number,
        help=f"g for hunks in different files (the published value is {DISTRIBUTED_WEIGHT:g}).",
        rich_help_panel="Metric",
    ),
]
ReferenceOpt = Annotated[
    str | None,
    typer.Option(
        "--reference",
        help="The developer's patch to compare against (localization).",
        rich_help_panel="Localization",
    ),
]
ReverseReferenceOpt = Annotated[
    bool,
    typer.Option(
        "--reverse-reference",
        help="Swap the reference patch's sides only (a Defects4J "
        "developer patch against an agent's fix).",
        rich_help_panel="Localization",
    ),
]
ReverseCandidateOpt = Annotated[
    bool,
    typer.Option(
        "--reverse-candidate",
        help="Swap the candidate patch's sides only (as the library's reverse_candidate).",
        rich_help_panel="Localization",
    ),
]
PairsOpt = Annotated[
    bool,
    typer.Option(
        "--pairs",
        help="Put every pair's components in the JSON document (or record): n hunks make "
        "n(n-1)/2 pairs. Without it, divergence.pairs is an empty list and the config says "
        "pairs: false.",
        rich_help_panel="Metric",
    ),
]
MaxMemoryOpt = Annotated[
    str,
    typer.Option(
        "--max-memory",
        help="Memory each worker process may use, e.g. 4G or 512M; 0 for no limit. "
        "Default 'auto': three quarters of the machine's memory shared equally between the "
        "--jobs workers (mine and agents evaluate with --jobs 1 work in their own process, "
        "unlimited; batch always has workers). An "
        "input that needs more becomes one row: 'needs more than N GB of memory; raise "
        "--max-memory or split it'; the other rows are unaffected.",
        rich_help_panel="Running",
    ),
]


# One default for `batch`, `mine` and `agents evaluate`: one worker, so that a run never
# takes every CPU (and their memory) unasked; `--jobs N` to spread it.
JOBS_DEFAULT = 1
JobsOpt = Annotated[
    int,
    typer.Option(
        "--jobs",
        "-j",
        min=1,
        help="How many patches to work on at once, each in its own process; with more than "
        "one, lines come in the order they finish.",
        rich_help_panel="Running",
    ),
]


class ExecutorKind(StrEnum):
    local = "local"
    dask = "dask"


ExecutorOpt = Annotated[
    ExecutorKind,
    typer.Option(
        "--executor",
        help="'local': worker processes on this machine; 'dask': an "
        "existing Dask cluster (needs --scheduler and hunkmetrics\\[dask]).",
        rich_help_panel="Running",
    ),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        help="The Dask scheduler's address, e.g. tcp://host:8786.",
        show_default=False,
        rich_help_panel="Running",
    ),
]


def check_executor(executor: ExecutorKind, scheduler: str | None) -> None:
    """--scheduler goes with --executor dask."""
    if scheduler is not None and executor is not ExecutorKind.dask:
        raise HunkmetricsError("--scheduler is for --executor dask")


ExcludeTestsOpt = Annotated[
    bool,
    typer.Option(
        "--exclude-tests/--include-tests",
        help="Leave test files out (the default; patterns per language in "
        "lang/rules/*.toml) or count them.",
        rich_help_panel="Files",
    ),
]
AllFilesOpt = Annotated[
    bool,
    typer.Option(
        "--all-files",
        help="Count every file, not only source files of a known language (docs, "
        "changelogs, build files and data are left out by default).",
        rich_help_panel="Files",
    ),
]
IncludeOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--include",
        metavar="GLOB",
        help="Count only the files matching GLOB (repeatable; a GLOB without '/' also "
        "matches the base name).",
        rich_help_panel="Files",
    ),
]
ExcludeOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--exclude",
        metavar="GLOB",
        help="Leave out the files matching GLOB (repeatable).",
        rich_help_panel="Files",
    ),
]

IgnoreCommentOnlyOpt = Annotated[
    bool,
    typer.Option(
        "--ignore-comment-only",
        help="Leave out hunks that change only comments or whitespace (each hunk's kind "
        "is in the output either way).",
        rich_help_panel="Files",
    ),
]


def selection_from(
    all_files: bool,
    include: list[str] | None,
    exclude: list[str] | None,
    exclude_tests: bool,
    ignore_comment_only: bool = False,
) -> PathSelection:
    """The path selection the file options ask for (lang/selection.py)."""
    return path_selection(
        all_files=all_files,
        include=include,
        exclude=exclude,
        exclude_tests=exclude_tests,
        ignore_comment_only=ignore_comment_only,
    )


PathPrefixOpt = Annotated[
    str | None,
    typer.Option(
        "--path-prefix",
        metavar="DIR",
        help="The patch's paths are relative to DIR inside --repo (a monorepo's project; "
        "Defects4J's Joda-Time patches at commits that keep the sources under JodaTime/). "
        "Output keeps the patch's paths.",
        rich_help_panel="Sources",
    ),
]


class Artifact(StrEnum):
    key_order = KEY_ORDER
    lexical_hunks = LEXICAL_HUNKS


PublishedArtifactsOpt = Annotated[
    list[Artifact] | None,
    typer.Option(
        "--published-artifacts",
        metavar="[" + "|".join(ARTIFACT_NAMES) + "]",
        help="birch: reproduce an artifact of the published study (repeatable; "
        "docs/metrics.md). 'key-order': same-file pairs the study's HashMap lost (12 hunks "
        "or more) get S = 0. 'lexical-hunks': L read from the list of all hunks, "
        "whole-file sections included, by position.",
        rich_help_panel="Metric",
    ),
]
FileOrderOpt = Annotated[
    Path | None,
    typer.Option(
        "--file-order",
        metavar="FILE",
        help="birch: reproduce the study's file order: FILE lists the patch's paths, one a "
        "line, in the order the study took S and F (Defects4J's modified_classes).",
        rich_help_panel="Metric",
    ),
]


def published_artifacts(
    artifacts: list[Artifact] | None, file_order: Path | None
) -> PublishedArtifacts:
    """The artifacts the command line asks for (none by default)."""
    order = None
    if file_order is not None:
        try:
            order = read_file_order(file_order.read_text(encoding="utf-8"))
        except OSError as exc:
            raise HunkmetricsError(f"{file_order}: cannot read ({exc.strerror})") from None
    return PublishedArtifacts.named([a.value for a in artifacts or []], order)
