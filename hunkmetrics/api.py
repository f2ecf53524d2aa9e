"""The library's entry points: one call per metric, and `characterize` for all of them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .documents import (
    TOOL,
    config_block,
    file_records,
    hunk_record,
    source_block,
)
from .errors import PatchError
from .lang.index import ParseCache
from .metrics.divergence import (
    DISTRIBUTED_WEIGHT,
    DivergenceResult,
    compute_divergence,
    counted_hunks,
)
from .metrics.localization import LocalizationResult, compare
from .metrics.proximity import ProximityResult, classify
from .workspace import PatchInput, Workspace, load_patch, open_workspace

Source = str | Path | tuple[str | Path, str] | None


def _repo_rev(source: Source, repo: str | Path | None, rev: str | None):
    if isinstance(source, tuple):
        return source
    if source is not None:
        return source, rev
    return repo, rev


def _workspace(
    patch: PatchInput | Workspace, source: Source, repo, rev, reverse: bool, hunking: str
) -> tuple[Workspace, bool]:
    """The workspace to use, and whether this call opened it (and must close it)."""
    if isinstance(patch, Workspace):
        return patch, False
    repo, rev = _repo_rev(source, repo, rev)
    return open_workspace(patch, repo=repo, rev=rev, reverse=reverse, hunking=hunking), True


def divergence(
    patch: PatchInput | Workspace,
    *,
    profile: str = "default",
    source: Source = None,
    repo: str | Path | None = None,
    rev: str | None = None,
    reverse: bool = False,
    hunking: str = "as-given",
    distributed_weight: float = DISTRIBUTED_WEIGHT,
) -> DivergenceResult:
    """Hunk divergence of a patch (docs/metrics.md). `source` is a working tree or a
    `(repo, rev)` pair; without it the AST parts come from the diff's own lines."""
    ws, owned = _workspace(patch, source, repo, rev, reverse, hunking)
    try:
        return compute_divergence(
            ws.patch, ws.sources, ws.cache, profile=profile, distributed_weight=distributed_weight
        )
    finally:
        if owned:
            ws.close()


def proximity_of(
    workspace: Workspace, profile: str = "default", cutoff: int | None = None
) -> ProximityResult:
    counted = {h.index for h, _ in counted_hunks(workspace.patch, profile)[0]}
    located = [item for item in workspace.located() if item.hunk.index in counted]
    return classify(located, profile=profile, cutoff=cutoff)


def proximity(
    patch: PatchInput | Workspace,
    *,
    profile: str = "default",
    source: Source = None,
    cutoff: int | None = None,
    repo: str | Path | None = None,
    rev: str | None = None,
    reverse: bool = False,
    hunking: str = "as-given",
) -> ProximityResult:
    """Spatial proximity class of a patch and the facts behind it (docs/metrics.md)."""
    ws, owned = _workspace(patch, source, repo, rev, reverse, hunking)
    try:
        return proximity_of(ws, profile, cutoff)
    finally:
        if owned:
            ws.close()


def localization_of(
    reference: Workspace,
    candidate: Workspace | None,
    *,
    exclude_tests: bool = False,
    candidate_error: str | None = None,
) -> LocalizationResult:
    return compare(
        reference.patch,
        candidate.patch if candidate else None,
        reference_located=reference.located(),
        candidate_located=candidate.located() if candidate else None,
        exclude_tests=exclude_tests,
        candidate_error=candidate_error,
    )


def open_candidate(
    candidate: PatchInput,
    *,
    repo,
    rev,
    reverse: bool,
    hunking: str,
    stdin: bytes | None = None,
    cache: ParseCache | None = None,
) -> tuple[Workspace | None, str | None]:
    """An agent's patch may be empty or garbage: that is a result (it localizes nothing),
    not an error. Pass the reference's `cache`: both read the same tree."""
    try:
        parsed = load_patch(candidate, reverse=reverse, hunking=hunking, stdin=stdin)
    except PatchError as exc:
        return None, str(exc)
    return open_workspace(parsed, repo=repo, rev=rev, cache=cache), None


def localization(
    reference: PatchInput,
    candidate: PatchInput,
    *,
    source: Source = None,
    repo: str | Path | None = None,
    rev: str | None = None,
    exclude_tests: bool = False,
    reverse_reference: bool = False,
    reverse_candidate: bool = False,
    hunking: str = "as-given",
) -> LocalizationResult:
    """Does `candidate` (an agent's patch) touch every file `reference` (the developer's)
    does, and how many of its hunks and methods? Both are compared in the direction
    before → after the fix; use the `reverse_*` flags for patches that go the other way
    (Defects4J's). Method recall needs `source`."""
    repo, rev = _repo_rev(source, repo, rev)
    with open_workspace(
        reference, repo=repo, rev=rev, reverse=reverse_reference, hunking=hunking
    ) as ref_ws:
        cand_ws, error = open_candidate(
            candidate,
            repo=repo,
            rev=rev,
            cache=ref_ws.cache,
            reverse=reverse_candidate,
            hunking=hunking,
        )
        try:
            return localization_of(
                ref_ws, cand_ws, exclude_tests=exclude_tests, candidate_error=error
            )
        finally:
            if cand_ws is not None:
                cand_ws.close()


@dataclass(frozen=True)
class Characterization:
    """Everything about one patch; `to_dict()` is the characterize/v1 document."""

    workspace: Workspace
    profile: str
    divergence: DivergenceResult
    proximity: ProximityResult
    localization: LocalizationResult | None = None
    reference_name: str | None = None
    extra_warnings: tuple[str, ...] = field(default=())

    @property
    def warnings(self) -> list[str]:
        seen: list[str] = []
        for warning in (
            self.workspace.warnings
            + list(self.divergence.warnings)
            + list(self.proximity.warnings)
            + list(self.extra_warnings)
        ):
            if warning not in seen:
                seen.append(warning)
        return seen

    def to_dict(self, *, lazy_pairs: bool = False) -> dict[str, Any]:
        """The characterize/v1 document (`lazy_pairs`: see DivergenceResult.to_dict)."""
        ws = self.workspace
        document: dict[str, Any] = {
            "schema": "hunkmetrics/characterize/v1",
            "tool": dict(TOOL),
            "config": config_block(
                profile=self.profile,
                distributed_weight=self.divergence.distributed_weight,
                cutoff=self.proximity.cutoff,
                hunking=ws.patch.hunking,
                reverse=ws.patch.reversed,
            ),
            "patch": ws.patch.name,
            "profile": self.profile,
            "source": source_block(ws),
            "hunk_count": self.divergence.hunk_count,
            "files": file_records(ws),
            "hunks": [hunk_record(item) for item in ws.located()],
            "divergence": self.divergence.to_dict(lazy_pairs=lazy_pairs),
            "proximity": self.proximity.to_dict(),
            "warnings": self.warnings,
        }
        if self.localization is not None:
            document["localization"] = {
                "reference": self.reference_name,
                **self.localization.to_dict(),
            }
        return document


def characterize_workspace(
    ws: Workspace,
    *,
    profile: str = "default",
    cutoff: int | None = None,
    distributed_weight: float = DISTRIBUTED_WEIGHT,
    reference: Workspace | None = None,
    exclude_tests: bool = False,
) -> Characterization:
    """All metrics over one workspace: every file is parsed once, for all of them."""
    result = compute_divergence(
        ws.patch, ws.sources, ws.cache, profile=profile, distributed_weight=distributed_weight
    )
    prox = proximity_of(ws, profile, cutoff)
    loc = (
        localization_of(reference, ws, exclude_tests=exclude_tests)
        if reference is not None
        else None
    )
    return Characterization(
        ws,
        profile,
        result,
        prox,
        loc,
        reference.patch.name if reference else None,
        tuple(reference.warnings) if reference else (),
    )


def characterize(
    patch: PatchInput,
    *,
    profile: str = "default",
    source: Source = None,
    repo: str | Path | None = None,
    rev: str | None = None,
    reverse: bool = False,
    hunking: str = "as-given",
    cutoff: int | None = None,
    distributed_weight: float = DISTRIBUTED_WEIGHT,
    reference: PatchInput | None = None,
    reverse_reference: bool = False,
    exclude_tests: bool = False,
) -> Characterization:
    """Divergence, proximity, hunks and (with a `reference`) localization of one patch.
    The result keeps its workspace open for inspection; it holds no processes."""
    repo, rev = _repo_rev(source, repo, rev)
    ws = open_workspace(patch, repo=repo, rev=rev, reverse=reverse, hunking=hunking)
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
            )
        return characterize_workspace(
            ws,
            profile=profile,
            cutoff=cutoff,
            distributed_weight=distributed_weight,
            reference=ref_ws,
            exclude_tests=exclude_tests,
        )
    finally:
        ws.close()
        if ref_ws is not None:
            ref_ws.close()


__all__ = [
    "Characterization",
    "characterize",
    "characterize_workspace",
    "divergence",
    "localization",
    "proximity",
]
