"""MAPLE: a repository-context MCP server for coding agents, on hunkmetrics' code index.

The index and the tools import without the `mcp` package; only `maple.server` needs it."""

from .index import RepoIndex, open_index
from .tools import Maple, MapleError

__all__ = ["Maple", "MapleError", "RepoIndex", "open_index"]
