"""The JSON documents hunkmetrics produces (schemas in docs/schemas/)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from . import __version__
from .lang.languages import rules_for_path
from .lang.locate import LocatedHunk
from .metrics.divergence import DivergenceResult
from .metrics.localization import LocalizationResult
from .metrics.proximity import ProximityResult
from .workspace import Workspace

TOOL = {"name": "hunkmetrics", "version": __version__}


def config_block(**settings: Any) -> dict[str, Any]:
    """The settings in force, with a short fingerprint of them: documents made under
    different settings never look alike."""
    canonical = json.dumps(settings, sort_keys=True, separators=(",", ":"))
    return {**settings, "fingerprint": hashlib.sha256(canonical.encode()).hexdigest()[:12]}


def source_block(workspace: Workspace) -> dict[str, str] | None:
    if workspace.sources is None:
        return None
    return {"description": workspace.sources.description, "side": workspace.sources.side}


def hunk_record(item: LocatedHunk) -> dict[str, Any]:
    """One hunk as in the `hunkmetrics/hunks/v1` document."""
    hunk, loc = item.hunk, item.location
    return {
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
    }


def file_records(workspace: Workspace) -> list[dict[str, Any]]:
    out = []
    for f in workspace.patch.files:
        rules = rules_for_path(f.path)
        out.append(
            {
                "file": f.path,
                "old_path": f.old_path,
                "status": f.status.value,
                "language": rules.name if rules else None,
                "hunks": len(f.hunks),
                "excluded": f.excluded_reason,
            }
        )
    return out


def _base(schema: str, workspace: Workspace, **config: Any) -> dict[str, Any]:
    patch = workspace.patch
    return {
        "schema": schema,
        "tool": dict(TOOL),
        "config": config_block(**config, hunking=patch.hunking, reverse=patch.reversed),
        "patch": patch.name,
        "source": source_block(workspace),
    }


def hunks_document(workspace: Workspace) -> dict[str, Any]:
    """The `hunkmetrics/hunks/v1` JSON document."""
    return {
        **_base("hunkmetrics/hunks/v1", workspace),
        "excluded_files": [
            {"file": f.path, "reason": f.excluded_reason}
            for f in workspace.patch.files
            if f.excluded_reason
        ],
        "hunks": [hunk_record(item) for item in workspace.located()],
        "warnings": workspace.warnings,
    }


def divergence_document(
    workspace: Workspace, result: DivergenceResult, *, lazy_pairs: bool = False
) -> dict[str, Any]:
    """The `hunkmetrics/divergence/v1` JSON document (see DivergenceResult.to_dict for
    `lazy_pairs`)."""
    return {
        **_base(
            "hunkmetrics/divergence/v1",
            workspace,
            profile=result.profile,
            distributed_weight=result.distributed_weight,
        ),
        "hunk_count": result.hunk_count,
        "divergence": result.to_dict(lazy_pairs=lazy_pairs),
        "warnings": workspace.warnings + list(result.warnings),
    }


def proximity_document(workspace: Workspace, result: ProximityResult) -> dict[str, Any]:
    """The `hunkmetrics/proximity/v1` JSON document."""
    located = {item.hunk.index: item for item in workspace.located()}
    return {
        **_base(
            "hunkmetrics/proximity/v1", workspace, profile=result.profile, cutoff=result.cutoff
        ),
        "hunk_count": len(result.hunk_indices),
        "proximity": result.to_dict(),
        "hunks": [hunk_record(located[i]) for i in result.hunk_indices],
        "warnings": workspace.warnings + list(result.warnings),
    }


def localization_document(
    reference: Workspace,
    candidate: Workspace | None,
    result: LocalizationResult,
    candidate_name: str,
) -> dict[str, Any]:
    """The `hunkmetrics/localization/v1` JSON document."""
    warnings = reference.warnings + (candidate.warnings if candidate else [])
    return {
        "schema": "hunkmetrics/localization/v1",
        "tool": dict(TOOL),
        "config": config_block(
            exclude_tests=result.exclude_tests,
            hunking=reference.patch.hunking,
            reverse_reference=reference.patch.reversed,
            reverse_candidate=candidate.patch.reversed if candidate else False,
        ),
        "reference": reference.patch.name,
        "candidate": candidate_name,
        "source": source_block(reference),
        "localization": result.to_dict(),
        "warnings": warnings,
    }
