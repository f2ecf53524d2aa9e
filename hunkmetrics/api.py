"""One call per metric, and `characterize` for all of them: each opens a workspace for
the call. To compute several metrics over one patch, open the workspace yourself
(`open_workspace`) and call its methods; each file is then parsed once."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Literal

from .errors import ArgumentError
from .lang.selection import DEFAULT_SELECTION, PathSelection
from .metrics.birch_artifacts import PublishedArtifacts
from .metrics.divergence import DivergenceResult
from .metrics.localization import LocalizationResult
from .metrics.profiles import Profile
from .metrics.proximity import ProximityResult
from .workspace import (
    Characterization,
    Hunking,
    PatchInput,
    Workspace,
    open_candidate,
    open_workspace,
)

Source = str | Path | tuple[str | Path, str] | None
ProfileName = Literal["default", "birch"]
"""The profiles' names (PROFILE_NAMES), for type checkers."""


def _repo_rev(
    source: Source, repo: str | Path | None, rev: str | None
) -> tuple[str | Path | None, str | None]:
    """`source` or `repo`/`rev`; both at once is an ArgumentError."""
    if isinstance(source, tuple):
        if repo is not None or rev is not None:
            raise ArgumentError("give source=(repo, rev) or repo=/rev=, not both")
        if len(source) != 2:
            raise ArgumentError("source as a tuple must be (repo, rev)")
        return source
    if source is not None:
        if repo is not None:
            raise ArgumentError("give source= or repo=, not both")
        return source, rev
    return repo, rev


def _workspace(
    patch: PatchInput | Workspace,
    source: Source,
    repo: str | Path | None,
    rev: str | None,
    reverse: bool,
    hunking: Hunking,
    path_prefix: str | None = None,
    selection: PathSelection = DEFAULT_SELECTION,
) -> tuple[Workspace, bool]:
    """The workspace to use, and whether this call opened it (and must close it)."""
    if isinstance(patch, Workspace):
        return patch, False
    repo, rev = _repo_rev(source, repo, rev)
    workspace = open_workspace(
        patch,
        repo=repo,
        rev=rev,
        reverse=reverse,
        hunking=hunking,
        path_prefix=path_prefix,
        selection=selection,
    )
    return workspace, True


def _with_tests(selection: PathSelection, exclude_tests: bool | None) -> PathSelection:
    if exclude_tests is None or exclude_tests == selection.exclude_tests:
        return selection
    return replace(selection, exclude_tests=exclude_tests)


def divergence(
    patch: PatchInput | Workspace,
    *,
    profile: ProfileName | Profile = "default",
    source: Source = None,
    repo: str | Path | None = None,
    rev: str | None = None,
    reverse: bool = False,
    hunking: Hunking = "as-given",
    distributed_weight: float | None = None,
    artifacts: PublishedArtifacts | None = None,
    path_prefix: str | None = None,
    selection: PathSelection = DEFAULT_SELECTION,
) -> DivergenceResult:
    """Hunk divergence of a patch (docs/metrics.md). `source` is a working tree or a
    `(repo, rev)` pair; without it the AST parts come from the diff's own lines.
    `path_prefix`: the patch's paths are relative to this directory of the source;
    `artifacts`: reproduce the published study's artifacts (birch only). `selection`:
    which files count (default: source files of a known language, tests left out;
    `ALL_FILES` counts every file; docs/cli.md "Which files count")."""
    ws, owned = _workspace(patch, source, repo, rev, reverse, hunking, path_prefix, selection)
    try:
        return ws.divergence(
            profile=profile, distributed_weight=distributed_weight, artifacts=artifacts
        )
    finally:
        if owned:
            ws.close()


def proximity(
    patch: PatchInput | Workspace,
    *,
    profile: ProfileName | Profile = "default",
    source: Source = None,
    cutoff: int | None = None,
    repo: str | Path | None = None,
    rev: str | None = None,
    reverse: bool = False,
    hunking: Hunking = "as-given",
    path_prefix: str | None = None,
    selection: PathSelection = DEFAULT_SELECTION,
) -> ProximityResult:
    """Spatial proximity class of a patch and the facts behind it (docs/metrics.md)."""
    ws, owned = _workspace(patch, source, repo, rev, reverse, hunking, path_prefix, selection)
    try:
        return ws.proximity(profile=profile, cutoff=cutoff)
    finally:
        if owned:
            ws.close()


def localization(
    reference: PatchInput,
    candidate: PatchInput,
    *,
    source: Source = None,
    repo: str | Path | None = None,
    rev: str | None = None,
    exclude_tests: bool | None = None,
    reverse_reference: bool = False,
    reverse_candidate: bool = False,
    hunking: Hunking = "as-given",
    path_prefix: str | None = None,
    selection: PathSelection = DEFAULT_SELECTION,
) -> LocalizationResult:
    """Does `candidate` (an agent's patch) touch every file `reference` (the developer's)
    does, and how many of its hunks and methods? Both are compared in the direction
    before → after the fix; use the `reverse_*` flags for patches that go the other way
    (Defects4J's). Method recall needs `source`. `selection` applies to both patches;
    `exclude_tests` (None: the selection's) overrides its test rule."""
    repo, rev = _repo_rev(source, repo, rev)
    selection = _with_tests(selection, exclude_tests)
    with open_workspace(
        reference,
        repo=repo,
        rev=rev,
        reverse=reverse_reference,
        hunking=hunking,
        path_prefix=path_prefix,
        selection=selection,
    ) as ref_ws:
        cand_ws, error = open_candidate(
            candidate,
            repo=repo,
            rev=rev,
            cache=ref_ws.cache,
            reverse=reverse_candidate,
            hunking=hunking,
            path_prefix=path_prefix,
            selection=selection,
        )
        try:
            return ref_ws.localization(cand_ws, candidate_error=error)
        finally:
            if cand_ws is not None:
                cand_ws.close()


def characterize(
    patch: PatchInput,
    *,
    profile: ProfileName | Profile = "default",
    source: Source = None,
    repo: str | Path | None = None,
    rev: str | None = None,
    reverse: bool = False,
    hunking: Hunking = "as-given",
    cutoff: int | None = None,
    distributed_weight: float | None = None,
    reference: PatchInput | None = None,
    reverse_reference: bool = False,
    exclude_tests: bool | None = None,
    artifacts: PublishedArtifacts | None = None,
    path_prefix: str | None = None,
    selection: PathSelection = DEFAULT_SELECTION,
) -> Characterization:
    """Divergence, proximity, hunks and (with a `reference`) localization of one patch.
    The result keeps its workspace open for inspection; it holds no processes.
    `exclude_tests` (None: the selection's) overrides `selection`'s test rule."""
    repo, rev = _repo_rev(source, repo, rev)
    selection = _with_tests(selection, exclude_tests)
    ws = open_workspace(
        patch,
        repo=repo,
        rev=rev,
        reverse=reverse,
        hunking=hunking,
        path_prefix=path_prefix,
        selection=selection,
    )
    ref_ws = None
    try:
        ws.located()
        if reference is not None:
            ref_ws = open_workspace(
                reference,
                repo=repo,
                rev=rev,
                reverse=reverse_reference,
                hunking=hunking,
                cache=ws.cache,
                path_prefix=path_prefix,
                selection=selection,
            )
        return ws.characterize(
            profile=profile,
            cutoff=cutoff,
            distributed_weight=distributed_weight,
            reference=ref_ws,
            artifacts=artifacts,
        )
    finally:
        ws.close()
        if ref_ws is not None:
            ref_ws.close()


__all__ = [
    "Characterization",
    "ProfileName",
    "Source",
    "characterize",
    "divergence",
    "localization",
    "open_candidate",
    "proximity",
]
