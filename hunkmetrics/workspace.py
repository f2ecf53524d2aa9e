"""A patch with its sources and one parse cache: the inputs every metric starts from."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .lang.index import ParseCache
from .lang.locate import LocatedHunk, locate_patch
from .patch.model import Patch
from .patch.parse import parse_patch, read_patch
from .sources.readers import open_reader
from .sources.resolve import Sources, resolve_sources


@dataclass
class Workspace:
    """A patch, the sources it was resolved against (if any) and a parse cache. Close it
    (or use `with`) to stop a git reader."""

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


PatchInput = str | Path | bytes | Patch


def load_patch(
    patch: PatchInput,
    *,
    reverse: bool = False,
    hunking: str = "as-given",
    stdin: bytes | None = None,
) -> Patch:
    if isinstance(patch, Patch):
        return patch
    if isinstance(patch, bytes):
        return parse_patch(patch, reverse=reverse, hunking=hunking)
    return read_patch(patch, reverse=reverse, hunking=hunking, stdin=stdin)


def open_workspace(
    patch: PatchInput,
    *,
    repo: str | Path | None = None,
    rev: str | None = None,
    reverse: bool = False,
    hunking: str = "as-given",
    stdin: bytes | None = None,
    cache: ParseCache | None = None,
) -> Workspace:
    """Parse `patch` (a path, `-` with `stdin`, raw diff bytes, or a Patch) and, with
    `repo` (and `rev`), resolve its sources: which side the tree holds, and the other
    side derived by applying the patch in memory."""
    parsed = load_patch(patch, reverse=reverse, hunking=hunking, stdin=stdin)
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
    return Workspace(parsed, sources, cache if cache is not None else ParseCache())
