"""The options that say how agent runs are measured, shared by `agents evaluate` and by
`agents summary` when it is given runs instead of attempt lines."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..errors import HunkmetricsError
from .options import finite_number

if TYPE_CHECKING:
    from ..agents.evaluate import Reference

ReferenceOpt = Annotated[
    Path | None,
    typer.Option(
        "--reference",
        help="The developer patches: a directory of <bug>.diff, a manifest CSV "
        "id,patch[,repo,rev,reverse], or a SWE-bench / Multi-SWE-bench dataset file "
        "(.jsonl, .json, .parquet with pyarrow: its patch / fix_patch; never downloaded). "
        "Without it, a harness's own gold patch is used where it records one (a Harbor "
        "task's solution, an Inspect sample's metadata); else localization is not measured "
        "(each attempt says so).",
        show_default=False,
    ),
]
ReposOpt = Annotated[
    Path | None,
    typer.Option(
        "--repos",
        help="A folder of git repositories, one per org/repo (named org/repo, org__repo "
        "or repo): a harness's gold patch is placed in its sources at the task's base "
        "commit. Without it, gold patches are placed from the diff alone.",
        show_default=False,
    ),
]
SwebenchLogsOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--swebench-logs",
        help="Outcomes for SWE-bench predictions (repeatable): a SWE-bench log folder "
        "logs/run_evaluation/<run_id> (or its <model> folder) (each <instance>/report.json), "
        "a Multi-SWE-bench workdir (<org>/<repo>/evals/pr-N/report.json), or a run report "
        "(<model>.<run_id>.json, final_report.json, results.json: resolved ids). A "
        "non-empty prediction with neither a report nor a verdict is that run's error line.",
        metavar="<path>",
        show_default=False,
    ),
]
RewardThresholdOpt = Annotated[
    float,
    typer.Option(
        "--reward-threshold",
        callback=finite_number,
        help="A harness that scores instead of counting tests (Harbor's reward, an "
        "Inspect score: C=1, P=0.5, I=0): repaired when the score reaches this.",
    ),
]


def load_references(
    reference: Path | None,
    *,
    repo: Path | None = None,
    rev: str | None = None,
    reverse: bool = False,
    repos: Path | None = None,
) -> dict[str, Reference]:
    """The developer patches `--reference` names, by bug key (none without it); a
    dataset's gold patches placed in `repos` at their base commits."""
    from ..agents.batch import read_references

    if reference is None:
        return {}
    return read_references(
        reference, repo=repo, rev=rev, reverse=reverse, repos=repos.resolve() if repos else None
    )


def repos_folder(repos: Path | None) -> str | None:
    """`--repos` checked and made absolute (workers may run elsewhere)."""
    if repos is None:
        return None
    if not repos.is_dir():
        raise HunkmetricsError(f"--repos {repos}: not a folder")
    return str(repos.resolve())
