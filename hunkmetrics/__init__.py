"""hunkmetrics: characterize multi-hunk bug fixes.

    >>> import hunkmetrics
    >>> with hunkmetrics.open_workspace("fix.diff", repo=".", rev="HEAD~1") as ws:
    ...     for item in ws.located():
    ...         print(item.hunk.index, item.location.method)
    ...     print(ws.divergence(profile="birch").value, ws.proximity().label)
    >>> hunkmetrics.characterize("fix.diff", source=(".", "HEAD~1")).to_dict()

The library needs none of the CLI's packages (typer, rich). Its names are imported on
first use, so `import hunkmetrics` stays light (no numpy until a metric is asked for).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .errors import HunkmetricsError, MissingExtraError, PatchError, SourceError
from .version import __version__

if TYPE_CHECKING:
    from .api import characterize, divergence, localization, proximity
    from .documents import (
        characterize_document,
        divergence_document,
        hunk_record,
        hunks_document,
        localization_document,
        proximity_document,
    )
    from .lang import LocatedHunk, Location, ParseCache, locate_patch
    from .lang.selection import ALL_FILES, DEFAULT_SELECTION, PathSelection, path_selection
    from .metrics.birch_artifacts import PublishedArtifacts
    from .metrics.divergence import DivergenceResult, PairScore
    from .metrics.localization import LocalizationResult
    from .metrics.profiles import PROFILE_NAMES, Profile, profile
    from .metrics.proximity import ProximityResult
    from .patch import FileDiff, FileStatus, Hunk, Line, LineKind, Patch, parse_patch, read_patch
    from .sources import GitRevisionReader, WorktreeReader, resolve_sources
    from .workspace import Characterization, Workspace, open_candidate, open_workspace

# name -> the module (relative to this package) that defines it, imported on first use
_LAZY = {
    **dict.fromkeys(("characterize", "divergence", "localization", "proximity"), ".api"),
    **dict.fromkeys(
        (
            "characterize_document",
            "divergence_document",
            "hunk_record",
            "hunks_document",
            "localization_document",
            "proximity_document",
        ),
        ".documents",
    ),
    **dict.fromkeys(("LocatedHunk", "Location", "ParseCache", "locate_patch"), ".lang"),
    **dict.fromkeys(
        ("ALL_FILES", "DEFAULT_SELECTION", "PathSelection", "path_selection"), ".lang.selection"
    ),
    **dict.fromkeys(("DivergenceResult", "PairScore"), ".metrics.divergence"),
    "LocalizationResult": ".metrics.localization",
    **dict.fromkeys(("PROFILE_NAMES", "Profile", "profile"), ".metrics.profiles"),
    "ProximityResult": ".metrics.proximity",
    "PublishedArtifacts": ".metrics.birch_artifacts",
    **dict.fromkeys(
        (
            "FileDiff",
            "FileStatus",
            "Hunk",
            "Line",
            "LineKind",
            "Patch",
            "parse_patch",
            "read_patch",
        ),
        ".patch",
    ),
    **dict.fromkeys(("GitRevisionReader", "WorktreeReader", "resolve_sources"), ".sources"),
    **dict.fromkeys(
        ("Characterization", "Workspace", "open_candidate", "open_workspace"), ".workspace"
    ),
}

__all__ = [
    "ALL_FILES",
    "DEFAULT_SELECTION",
    "PathSelection",
    "path_selection",
    "Characterization",
    "DivergenceResult",
    "FileDiff",
    "FileStatus",
    "GitRevisionReader",
    "Hunk",
    "HunkmetricsError",
    "Line",
    "LineKind",
    "LocalizationResult",
    "LocatedHunk",
    "Location",
    "MissingExtraError",
    "PROFILE_NAMES",
    "PairScore",
    "ParseCache",
    "Patch",
    "PatchError",
    "Profile",
    "ProximityResult",
    "PublishedArtifacts",
    "SourceError",
    "Workspace",
    "WorktreeReader",
    "__version__",
    "characterize",
    "characterize_document",
    "divergence",
    "divergence_document",
    "hunk_record",
    "hunks_document",
    "localization",
    "localization_document",
    "locate_patch",
    "open_candidate",
    "open_workspace",
    "parse_patch",
    "profile",
    "proximity",
    "proximity_document",
    "read_patch",
    "resolve_sources",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value  # later lookups skip __getattr__
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
