"""Builders of every JSON document, each through its shape (shapes.py)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ..jsonshape import JSON
from ..lang.hunk_kind import HUNK_KINDS, HunkKind
from ..lang.languages import rules_for_path
from ..lang.locate import LocatedHunk
from ..lang.selection import DEFAULT_SELECTION, PathSelection
from ..patch.model import Patch
from ..sources.resolve import Sources
from ..version import __version__
from .shapes import (
    CHARACTERIZE_LOCALIZATION,
    CONFIGS,
    DOCUMENTS,
    EXCLUDED_FILE,
    FILE,
    HUNK,
    KIND_COUNTS,
)

if TYPE_CHECKING:
    from ..metrics.divergence import DivergenceResult
    from ..metrics.localization import LocalizationResult
    from ..metrics.proximity import ProximityResult

TOOL = {"name": "hunkmetrics", "version": __version__}


class DocumentSource(Protocol):
    """What a document is made from: a Workspace (patch, sources, located hunks)."""

    @property
    def patch(self) -> Patch: ...

    @property
    def sources(self) -> Sources | None: ...

    @property
    def warnings(self) -> list[str]: ...

    @property
    def selection(self) -> PathSelection: ...

    def located(self) -> list[LocatedHunk]: ...

    def kinds(self) -> dict[int, HunkKind]: ...


def config_block(**settings: Any) -> dict[str, Any]:
    """The settings in force, with a short fingerprint of them: documents made under
    different settings never look alike."""
    canonical = json.dumps(settings, sort_keys=True, separators=(",", ":"))
    return {**settings, "fingerprint": hashlib.sha256(canonical.encode()).hexdigest()[:12]}


def source_block(workspace: DocumentSource) -> dict[str, str] | None:
    if workspace.sources is None:
        return None
    return {"description": workspace.sources.description, "side": workspace.sources.side}


def hunk_record(item: LocatedHunk, kind: HunkKind | None = None) -> dict[str, Any]:
    """One hunk as in the `hunkmetrics/hunks/v1` document (`kind`: code, comment or
    whitespace, when known; `evidence`: how its package, class and method are known)."""
    hunk, loc = item.hunk, item.location
    return HUNK.build(
        {
            "index": hunk.index,
            "file": item.file.path,
            "old_path": item.file.old_path,
            "status": item.file.status.value,
            "old_start": hunk.old_start,
            "old_lines": hunk.old_lines,
            "new_start": hunk.new_start,
            "new_lines": hunk.new_lines,
            "added": len(hunk.added),
            "removed": len(hunk.removed),
            "changed_lines": list(hunk.changed_lines),
            "language": loc.language,
            "package": loc.package,
            "class": loc.class_name,
            "method": loc.method,
            "methods": list(loc.methods),
            "method_span": list(loc.method_span) if loc.method_span else None,
            "located_by": loc.located_by,
            "placed": loc.placed,
            "note": loc.note,
            **({"kind": kind} if kind is not None else {}),
            "evidence": loc.evidence.code(),
        }
    )


def hunk_records(workspace: DocumentSource, indices: list[int] | None = None) -> list[JSON]:
    """The records of the workspace's hunks (of `indices`, in that order), with kinds."""
    kinds = workspace.kinds()
    located = workspace.located()
    if indices is not None:
        by_index = {item.hunk.index: item for item in located}
        located = [by_index[i] for i in indices]
    return [hunk_record(item, kinds.get(item.hunk.index)) for item in located]


def kind_counts(workspace: DocumentSource) -> dict[str, int]:
    """How many hunks of each kind the patch has."""
    values = list(workspace.kinds().values())
    return KIND_COUNTS.build({kind: values.count(kind) for kind in HUNK_KINDS})


def file_records(workspace: DocumentSource) -> list[dict[str, Any]]:
    """Every file section of the patch (the characterize document's `files`)."""
    out = []
    for f in workspace.patch.files:
        rules = rules_for_path(f.path)
        out.append(
            FILE.build(
                {
                    "file": f.path,
                    "old_path": f.old_path,
                    "status": f.status.value,
                    "language": rules.name if rules else None,
                    "hunks": len(f.hunks),
                    "excluded": f.excluded_reason,
                }
            )
        )
    return out


def _build(name: str, workspace: DocumentSource, body: dict[str, Any], **config: Any) -> JSON:
    """A document: its head (schema, tool, config with the patch's hunking and
    direction) and `body`, in the shape's key order."""
    patch = workspace.patch
    head = PatchHead(patch.name, patch.hunking, patch.reversed, workspace.selection)
    return build_document(name, head, source_block(workspace), body, **config)


@dataclass(frozen=True, slots=True)
class PatchHead:
    """What a document's head says of its patch: its name, how it was read, which files
    count."""

    name: str
    hunking: str
    reversed: bool
    selection: PathSelection


def build_document(
    name: str,
    head: PatchHead,
    source: dict[str, str] | None,
    body: dict[str, Any],
    **config: Any,
) -> JSON:
    """The `hunkmetrics/<name>/v1` document of a patch (`head`) read against `source`
    (`source_block`, None without sources): schema, tool, config (`config` and the
    patch's hunking, direction and selection), then `body`, in the shape's key order."""
    settings = config_block(
        **config,
        hunking=head.hunking,
        reverse=head.reversed,
        selection=head.selection.config(),
    )
    return DOCUMENTS[name].build(
        {
            "schema": f"hunkmetrics/{name}/v1",
            "tool": dict(TOOL),
            "config": CONFIGS[name].build(settings),
            "patch": head.name,
            "source": source,
            **body,
        }
    )


def excluded_files(patch: Patch) -> list[dict[str, Any]]:
    """The files of `patch` that take no part in the metrics, each with its reason."""
    return [
        EXCLUDED_FILE.build({"file": f.path, "reason": f.excluded_reason})
        for f in patch.files
        if f.excluded_reason
    ]


def hunks_document(workspace: DocumentSource) -> JSON:
    """The `hunkmetrics/hunks/v1` JSON document."""
    return _build(
        "hunks",
        workspace,
        {
            "excluded_files": excluded_files(workspace.patch),
            "hunk_kinds": kind_counts(workspace),
            "hunks": hunk_records(workspace),
            "warnings": workspace.warnings,
        },
    )


def divergence_document(
    workspace: DocumentSource, result: DivergenceResult, *, lazy_pairs: bool = False
) -> JSON:
    """The `hunkmetrics/divergence/v1` JSON document (see DivergenceResult.to_dict for
    `lazy_pairs`)."""
    return _build(
        "divergence",
        workspace,
        {
            "hunk_count": result.hunk_count,
            "excluded_files": excluded_files(workspace.patch),
            "hunk_kinds": kind_counts(workspace),
            "divergence": result.to_dict(lazy_pairs=lazy_pairs),
            "warnings": workspace.warnings + list(result.warnings),
        },
        profile=result.profile,
        distributed_weight=result.distributed_weight,
        **result.artifacts.config(),
    )


def proximity_document(workspace: DocumentSource, result: ProximityResult) -> JSON:
    """The `hunkmetrics/proximity/v1` JSON document."""
    return _build(
        "proximity",
        workspace,
        {
            "hunk_count": len(result.hunk_indices),
            "excluded_files": excluded_files(workspace.patch),
            "hunk_kinds": kind_counts(workspace),
            "proximity": result.to_dict(),
            "hunks": hunk_records(workspace, list(result.hunk_indices)),
            "warnings": workspace.warnings + list(result.warnings),
        },
        profile=result.profile,
        cutoff=result.requested_cutoff,
    )


def localization_document(
    reference: DocumentSource,
    candidate: DocumentSource | None,
    result: LocalizationResult,
    candidate_name: str,
) -> JSON:
    """The `hunkmetrics/localization/v1` JSON document."""
    warnings = reference.warnings + (candidate.warnings if candidate else [])
    settings = config_block(
        exclude_tests=result.exclude_tests,
        hunking=reference.patch.hunking,
        reverse_reference=reference.patch.reversed,
        reverse_candidate=candidate.patch.reversed if candidate else False,
        selection=reference.selection.config(),
    )
    return DOCUMENTS["localization"].build(
        {
            "schema": "hunkmetrics/localization/v1",
            "tool": dict(TOOL),
            "config": CONFIGS["localization"].build(settings),
            "reference": reference.patch.name,
            "candidate": candidate_name,
            "source": source_block(reference),
            "localization": result.to_dict(),
            "warnings": warnings,
        }
    )


def characterize_document(
    workspace: DocumentSource,
    divergence: DivergenceResult,
    proximity: ProximityResult,
    *,
    warnings: Sequence[str],
    localization: LocalizationResult | None = None,
    reference_name: str | None = None,
    lazy_pairs: bool = False,
) -> JSON:
    """The `hunkmetrics/characterize/v1` JSON document (Characterization.to_dict)."""
    body: dict[str, Any] = {
        "profile": divergence.profile,
        "hunk_count": divergence.hunk_count,
        "hunk_kinds": kind_counts(workspace),
        "files": file_records(workspace),
        "hunks": hunk_records(workspace),
        "divergence": divergence.to_dict(lazy_pairs=lazy_pairs),
        "proximity": proximity.to_dict(),
        "warnings": list(warnings),
    }
    if localization is not None:
        body["localization"] = CHARACTERIZE_LOCALIZATION.build(
            {"reference": reference_name, **localization.to_dict()}
        )
    return _build(
        "characterize",
        workspace,
        body,
        profile=divergence.profile,
        distributed_weight=divergence.distributed_weight,
        cutoff=proximity.requested_cutoff,
        **divergence.artifacts.config(),
    )


def omit_pairs(document: JSON) -> JSON:
    """A divergence or characterize document without its pairs (n hunks have
    n(n-1)/2 of them): `divergence.pairs` is an empty list and the config says
    `pairs: false`, so the fingerprint tells it from the whole document."""
    name = str(document["schema"]).split("/")[1]
    settings = {k: v for k, v in document["config"].items() if k != "fingerprint"}
    config = CONFIGS[name].build(config_block(**settings, pairs=False))
    return {**document, "config": config, "divergence": {**document["divergence"], "pairs": []}}


def characterize_head(
    patch_name: str,
    *,
    profile: str,
    distributed_weight: float,
    cutoff: int | None,
    hunking: str,
    reverse: bool,
    selection: PathSelection = DEFAULT_SELECTION,
    pairs: bool = True,
) -> JSON:
    """The leading keys of a characterize/v1 document (schema, tool, config, patch,
    profile) for a patch that could not be characterized: a dataset's error record.
    `cutoff` is as requested (None: the profile's); `pairs` as for `omit_pairs`."""
    settings = config_block(
        profile=profile,
        distributed_weight=distributed_weight,
        cutoff=cutoff,
        hunking=hunking,
        reverse=reverse,
        selection=selection.config(),
        **({} if pairs else {"pairs": False}),
    )
    return {
        "schema": "hunkmetrics/characterize/v1",
        "tool": dict(TOOL),
        "config": CONFIGS["characterize"].build(settings),
        "patch": patch_name,
        "profile": profile,
    }
