"""The library's front door: load a patch with its sources and locate its hunks."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import __version__
from .lang.index import ParseCache
from .lang.locate import LocatedHunk, locate_patch
from .metrics.divergence import DISTRIBUTED_WEIGHT, DivergenceResult, compute_divergence
from .patch.model import Patch
from .patch.parse import parse_patch, read_patch
from .sources.readers import open_reader
from .sources.resolve import Sources, resolve_sources


@dataclass
class Workspace:
    """A patch, the sources it was resolved against (if any) and a parse cache: the
    inputs every metric starts from. Close it (or use `with`) to stop a git reader."""

    patch: Patch
    sources: Sources | None = None
    cache: ParseCache = field(default_factory=ParseCache)
    _located: list[LocatedHunk] | None = None

    def located(self) -> list[LocatedHunk]:
        """Every hunk with its location, computed once."""
        if self._located is None:
            self._located = locate_patch(self.patch, self.sources, self.cache)
        return self._located

    @property
    def warnings(self) -> list[str]:
        return list(self.patch.warnings)

    def close(self) -> None:
        if self.sources is not None:
            self.sources.reader.close()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_workspace(patch: str | Path | bytes | Patch, *, repo: str | Path | None = None,
                   rev: str | None = None, reverse: bool = False,
                   hunking: str = "as-given", stdin: bytes | None = None) -> Workspace:
    """Parse `patch` (a path, `-` with `stdin`, raw diff bytes, or a Patch) and, with
    `repo` (and `rev`), resolve its sources: which side the tree holds, and the other
    side derived by applying the patch in memory."""
    if isinstance(patch, Patch):
        parsed = patch
    elif isinstance(patch, bytes):
        parsed = parse_patch(patch, reverse=reverse, hunking=hunking)
    else:
        parsed = read_patch(patch, reverse=reverse, hunking=hunking, stdin=stdin)
    if rev is not None and repo is None:
        repo = "."
    sources = None
    if repo is not None:
        reader = open_reader(repo, rev)
        try:
            sources = resolve_sources(parsed, reader)
        except Exception:
            reader.close()
            raise
    return Workspace(parsed, sources)


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


def hunks_document(workspace: Workspace) -> dict[str, Any]:
    """The `hunkmetrics/hunks/v1` JSON document."""
    patch = workspace.patch
    return {
        "schema": "hunkmetrics/hunks/v1",
        "tool": {"name": "hunkmetrics", "version": __version__},
        "patch": patch.name,
        "reversed": patch.reversed,
        "hunking": patch.hunking,
        "config": config_block(hunking=patch.hunking, reverse=patch.reversed),
        "source": source_block(workspace),
        "excluded_files": [{"file": f.path, "reason": f.excluded_reason}
                           for f in patch.files if f.excluded_reason],
        "hunks": [hunk_record(item) for item in workspace.located()],
        "warnings": workspace.warnings,
    }


def divergence(patch: str | Path | bytes | Patch | Workspace, *, profile: str = "default",
               source: str | Path | tuple[str | Path, str] | None = None,
               repo: str | Path | None = None, rev: str | None = None, reverse: bool = False,
               hunking: str = "as-given",
               distributed_weight: float = DISTRIBUTED_WEIGHT) -> DivergenceResult:
    """Hunk divergence of a patch (docs/metrics.md). `source` is a working tree or a
    `(repo, rev)` pair; without it the AST parts come from the diff's own lines."""
    if isinstance(patch, Workspace):
        return compute_divergence(patch.patch, patch.sources, patch.cache, profile=profile,
                                  distributed_weight=distributed_weight)
    if isinstance(source, tuple):
        repo, rev = source
    elif source is not None:
        repo = source
    with open_workspace(patch, repo=repo, rev=rev, reverse=reverse, hunking=hunking) as ws:
        return compute_divergence(ws.patch, ws.sources, ws.cache, profile=profile,
                                  distributed_weight=distributed_weight)


def config_block(**settings: Any) -> dict[str, Any]:
    """The settings in force, with a short fingerprint: documents made under different
    settings never look alike."""
    canonical = json.dumps(settings, sort_keys=True, separators=(",", ":"))
    return {**settings, "fingerprint": hashlib.sha256(canonical.encode()).hexdigest()[:12]}


def source_block(workspace: Workspace) -> dict[str, str] | None:
    if workspace.sources is None:
        return None
    return {"description": workspace.sources.description, "side": workspace.sources.side}


def divergence_document(workspace: Workspace, result: DivergenceResult) -> dict[str, Any]:
    """The `hunkmetrics/divergence/v1` JSON document."""
    patch = workspace.patch
    return {
        "schema": "hunkmetrics/divergence/v1",
        "tool": {"name": "hunkmetrics", "version": __version__},
        "config": config_block(profile=result.profile,
                               distributed_weight=result.distributed_weight,
                               hunking=patch.hunking, reverse=patch.reversed),
        "patch": patch.name,
        "source": source_block(workspace),
        "hunk_count": result.hunk_count,
        "divergence": result.to_dict(),
        "warnings": workspace.warnings + list(result.warnings),
    }
