"""hunkmetrics: characterize multi-hunk bug fixes.

    >>> import hunkmetrics
    >>> with hunkmetrics.open_workspace("fix.diff", repo=".", rev="HEAD~1") as ws:
    ...     for item in ws.located():
    ...         print(item.hunk.index, item.location.method)
    >>> hunkmetrics.characterize("fix.diff", source=(".", "HEAD~1")).to_dict()

The library needs none of the CLI's packages (typer, rich).
"""

__version__ = "0.1.0"

# ruff: noqa: E402, I001
from .errors import HunkmetricsError, PatchError, SourceError
from .patch import FileDiff, FileStatus, Hunk, Line, LineKind, Patch, parse_patch, read_patch
from .sources import GitRevisionReader, WorktreeReader, resolve_sources
from .lang import LocatedHunk, Location, ParseCache, locate_patch
from .workspace import Workspace, open_workspace
from .metrics.divergence import DivergenceResult, PairScore
from .metrics.localization import LocalizationResult
from .metrics.proximity import ProximityResult
from .documents import hunk_record, hunks_document
from .api import Characterization, characterize, divergence, localization, proximity

__all__ = [
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
    "PairScore",
    "ParseCache",
    "Patch",
    "PatchError",
    "ProximityResult",
    "SourceError",
    "Workspace",
    "WorktreeReader",
    "__version__",
    "characterize",
    "divergence",
    "hunk_record",
    "hunks_document",
    "localization",
    "locate_patch",
    "open_workspace",
    "parse_patch",
    "proximity",
    "read_patch",
    "resolve_sources",
]
