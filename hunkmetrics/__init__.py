"""hunkmetrics: characterize multi-hunk bug fixes.

    >>> import hunkmetrics
    >>> with hunkmetrics.open_workspace("fix.diff", repo=".", rev="HEAD~1") as ws:
    ...     for item in ws.located():
    ...         print(item.hunk.index, item.location.method)

The library needs none of the CLI's packages (typer, rich).
"""

__version__ = "0.1.0"

from .api import Workspace, divergence, hunk_record, hunks_document, open_workspace  # noqa: E402
from .errors import HunkmetricsError, PatchError, SourceError  # noqa: E402
from .lang import LocatedHunk, Location, ParseCache, locate_patch  # noqa: E402
from .metrics.divergence import DivergenceResult, PairScore  # noqa: E402
from .patch import FileDiff, FileStatus, Hunk, Line, LineKind, Patch, parse_patch, read_patch  # noqa: E402,I001
from .sources import GitRevisionReader, WorktreeReader, resolve_sources  # noqa: E402

__all__ = [
    "FileDiff", "FileStatus", "GitRevisionReader", "Hunk", "HunkmetricsError", "ParseCache",
    "Line", "LineKind", "LocatedHunk", "Location", "Patch", "PatchError", "SourceError",
    "Workspace", "WorktreeReader", "__version__", "divergence", "DivergenceResult",
    "PairScore", "hunk_record", "hunks_document",
    "locate_patch", "open_workspace", "parse_patch", "read_patch", "resolve_sources",
]
