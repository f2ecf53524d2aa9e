"""A patch with its sources and one parse cache, and every metric computed over it.

Open a workspace once, then ask it for several metrics: each file is parsed once for all
of them.

    with open_workspace("fix.diff", repo=".", rev="HEAD~1") as ws:
        ws.divergence(profile="birch").value
        ws.proximity().label
        ws.characterize(profile="birch").to_dict()
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from .documents import characterize_document
from .errors import ArgumentError, PatchError, SourceError
from .lang.hunk_kind import COMMENT_ONLY, HunkKind, comment_only_left_out, hunk_kind, no_code_hunk
from .lang.index import ParseCache
from .lang.locate import LocatedHunk, locate_patch
from .lang.selection import DEFAULT_SELECTION, PathSelection, without_hunks
from .metrics.localization import LocalizationResult, compare
from .metrics.profiles import DEFAULT_PROFILE, Profile
from .metrics.profiles import profile as get_profile
from .metrics.proximity import ProximityResult, classify
from .patch.model import Patch
from .patch.parse import parse_patch, read_patch, read_patch_bytes
from .patch.regions import recut_regions
from .shortlist import few
from .sources.readers import FileReader, open_reader
from .sources.resolve import Sources, resolve_sources

if TYPE_CHECKING:
    from .metrics.birch_artifacts import PublishedArtifacts
    from .metrics.divergence import DivergenceResult

PatchInput = str | Path | bytes | Patch
Hunking = Literal["as-given", "regions"]
HUNKINGS: tuple[Hunking, ...] = ("as-given", "regions")


@dataclass
class Workspace:
    """A patch, the sources it was resolved against (if any) and a parse cache. Close it
    (or use `with`) to stop a git reader. `selection`: the path selection the patch was
    read with (recorded in every document's config)."""

    patch: Patch
    sources: Sources | None = None
    cache: ParseCache = field(default_factory=ParseCache)
    selection: PathSelection = DEFAULT_SELECTION
    _located: list[LocatedHunk] | None = None
    _kinds: dict[int, HunkKind] | None = None

    def __post_init__(self) -> None:
        # A patch given as is gets the selection too (a no-op when already applied).
        self.patch = self.selection.apply(self.patch)
        self._note_derived_images()
        if self.selection.ignore_comment_only:
            self._drop_non_code()

    def _note_derived_images(self) -> None:
        """Tell the parse cache which post-image is which pre-image with which hunks, so
        that a post-image parsed after its pre-image is re-parsed incrementally."""
        if self.sources is None:
            return
        for file_diff in self.patch.content_files:
            texts = self.sources.texts(file_diff)
            if texts is not None and texts.pre is not None and texts.post is not None:
                self.cache.derive(texts.pre, texts.post, file_diff.hunks)

    def _drop_non_code(self) -> None:
        dropped = {i for i, kind in self.kinds().items() if kind != "code"}
        if not dropped:
            return
        reasons = dict.fromkeys((f.path for f in self.patch.files), COMMENT_ONLY)
        patch = without_hunks(self.patch, dropped, reasons)
        self.patch = replace(
            patch, warnings=(*patch.warnings, comment_only_left_out(few(sorted(dropped))))
        )
        self._kinds = None

    def kinds(self) -> dict[int, HunkKind]:
        """Each hunk's kind by index: code, comment or whitespace (lang/hunk_kind.py),
        computed once."""
        if self._kinds is None:
            self._kinds = {
                h.index: hunk_kind(h, f, self.sources, self.cache)
                for f in self.patch.files
                for h in f.hunks
            }
        return self._kinds

    def located(self) -> list[LocatedHunk]:
        """Every hunk with its location, computed once."""
        if self._located is None:
            self._located = locate_patch(self.patch, self.sources, self.cache)
        return self._located

    def counted(self, profile: str | Profile = DEFAULT_PROFILE) -> list[LocatedHunk]:
        """The located hunks `profile` counts (birch leaves out whole-file sections)."""
        kept = {hunk.index for hunk, _ in get_profile(profile).counted_hunks(self.patch)[0]}
        return [item for item in self.located() if item.hunk.index in kept]

    def divergence(
        self,
        *,
        profile: str | Profile = DEFAULT_PROFILE,
        distributed_weight: float | None = None,
        artifacts: PublishedArtifacts | None = None,
    ) -> DivergenceResult:
        """Hunk divergence Div(P) (docs/metrics.md); `distributed_weight` (g) defaults
        to the profile's (2); `artifacts` reproduces the published study's artifacts
        (birch only; none by default)."""
        from .metrics.divergence import compute_divergence  # numpy: 75 ms at start-up

        return compute_divergence(
            self.patch,
            self.sources,
            self.cache,
            profile=profile,
            distributed_weight=distributed_weight,
            artifacts=artifacts,
        )

    def proximity(
        self, *, profile: str | Profile = DEFAULT_PROFILE, cutoff: int | None = None
    ) -> ProximityResult:
        """Spatial proximity class of the hunks the profile counts; `cutoff` defaults to
        the profile's Sprawl cutoff."""
        return classify(self.counted(profile), profile=profile, cutoff=cutoff)

    def localization(
        self,
        candidate: Workspace | None,
        *,
        exclude_tests: bool | None = None,
        candidate_error: str | None = None,
    ) -> LocalizationResult:
        """Localization of `candidate` (an agent's patch) against this workspace's patch
        (the developer's). `candidate` None (with `candidate_error`, see
        `open_candidate`) localizes nothing. `exclude_tests` defaults to this
        workspace's path selection."""
        if exclude_tests is None:
            exclude_tests = self.selection.exclude_tests
        return compare(
            self.patch,
            candidate.patch if candidate else None,
            reference_located=self.located(),
            candidate_located=candidate.located() if candidate else None,
            exclude_tests=exclude_tests,
            candidate_error=candidate_error,
        )

    def characterize(
        self,
        *,
        profile: str | Profile = DEFAULT_PROFILE,
        cutoff: int | None = None,
        distributed_weight: float | None = None,
        reference: Workspace | None = None,
        exclude_tests: bool | None = None,
        artifacts: PublishedArtifacts | None = None,
    ) -> Characterization:
        """Divergence, proximity, hunks and (with a `reference` workspace, the
        developer's patch) localization of this patch."""
        divergence = self.divergence(
            profile=profile, distributed_weight=distributed_weight, artifacts=artifacts
        )
        proximity = self.proximity(profile=profile, cutoff=cutoff)
        localization = (
            reference.localization(self, exclude_tests=exclude_tests)
            if reference is not None
            else None
        )
        return Characterization(
            self,
            divergence.profile,
            divergence,
            proximity,
            localization,
            reference.patch.name if reference else None,
            tuple(reference.warnings) if reference else (),
        )

    @property
    def warnings(self) -> list[str]:
        """The patch's warnings, then the sources' (e.g. a hunk that could not be checked
        against the tree)."""
        extra = list(self.sources.warnings) if self.sources is not None else []
        kinds = self.kinds()
        if kinds and "code" not in kinds.values():
            extra.append(no_code_hunk(len(kinds)))
        return list(self.patch.warnings) + extra

    def close(self) -> None:
        if self.sources is not None:
            self.sources.reader.close()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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
        return characterize_document(
            self.workspace,
            self.divergence,
            self.proximity,
            warnings=self.warnings,
            localization=self.localization,
            reference_name=self.reference_name,
            lazy_pairs=lazy_pairs,
        )


def is_diff_text(text: str) -> bool:
    """The rule for a `str` patch argument: diff text when it holds a line break or
    starts like a diff (`diff `, `--- `, `From `, `Index: `); a path otherwise."""
    return "\n" in text or text.startswith(DIFF_STARTS)


DIFF_STARTS = ("diff ", "--- ", "From ", "Index: ")


def patch_path(name: str) -> str | Path:
    """A file name given as a `str` (a command-line argument, a manifest cell), so that it
    is read as a path even when it looks like diff text to `is_diff_text` (a file named
    `From alice.patch`); `-` (standard input) and every other name are kept as given."""
    return Path(name) if name != "-" and is_diff_text(name) else name


def load_patch(
    patch: PatchInput,
    *,
    reverse: bool = False,
    hunking: Hunking = "as-given",
    stdin: bytes | None = None,
    selection: PathSelection = DEFAULT_SELECTION,
    strip: int | None = None,
) -> Patch:
    """A Patch from a path (`-` with `stdin`), diff text (`str`, see `is_diff_text`),
    raw diff bytes, or a Patch (swapped with `reverse`, re-cut with `hunking="regions"`),
    with the files `selection` leaves out marked excluded (lang/selection.py). `strip`:
    leading directories to remove from a plain diff's names (None: guessed)."""
    if hunking not in HUNKINGS:
        raise ArgumentError(f"hunking must be one of {', '.join(HUNKINGS)}, not {hunking!r}")
    if isinstance(patch, Patch):
        parsed = _adjusted(patch, reverse, hunking)
    elif isinstance(patch, bytes) or isinstance(patch, str) and is_diff_text(patch):
        parsed = parse_patch(patch, reverse=reverse, hunking=hunking, strip=strip)
    elif isinstance(patch, str | Path):
        parsed = read_patch(patch, reverse=reverse, hunking=hunking, stdin=stdin, strip=strip)
    else:
        raise ArgumentError(
            f"patch must be a path, diff text, bytes or a Patch, not {type(patch).__name__}"
        )
    return selection.apply(parsed)


def _adjusted(patch: Patch, reverse: bool, hunking: str) -> Patch:
    """A Patch given as is, swapped when `reverse` asks it and re-cut into regions."""
    if reverse:
        patch = replace(
            patch, files=tuple(f.swapped() for f in patch.files), reversed=not patch.reversed
        )
    if hunking == "regions" and patch.hunking != "regions":
        patch = recut_regions(patch)
    return patch


def open_workspace(
    patch: PatchInput,
    *,
    repo: str | Path | None = None,
    rev: str | None = None,
    reverse: bool = False,
    hunking: Hunking = "as-given",
    stdin: bytes | None = None,
    cache: ParseCache | None = None,
    path_prefix: str | None = None,
    selection: PathSelection = DEFAULT_SELECTION,
    strip: int | None = None,
) -> Workspace:
    """Parse `patch` (a path, `-` with `stdin`, raw diff bytes, or a Patch) and, with
    `repo` (and `rev`), resolve its sources: which side the tree holds, and the other
    side derived by applying the patch in memory. Pass another workspace's `cache` to
    share its parses (same tree). `path_prefix`: the patch's paths are relative to this
    directory of the tree (the documents keep the patch's paths). `selection`: which
    files count (default: source files of a known language, tests left out). `strip`:
    leading directories to remove from a plain diff's names; when None and the guessed
    names do not fit the tree, the other readings (-p0, -p1) are tried against it."""
    parsed = load_patch(
        patch, reverse=reverse, hunking=hunking, stdin=stdin, selection=selection, strip=strip
    )
    if rev is not None and repo is None:
        repo = "."
    sources = None
    if repo is not None:
        reader = open_reader(repo, rev, path_prefix=path_prefix)
        try:
            try:
                sources = resolve_sources(parsed, reader)
            except SourceError as exc:
                if strip is not None or isinstance(patch, Patch):
                    raise
                retry = _Retry.of(patch, stdin, reverse, hunking, selection)
                parsed, sources = _other_strip(retry, parsed, reader, exc)
        except Exception:
            reader.close()
            raise
    return Workspace(parsed, sources, cache if cache is not None else ParseCache(), selection)


@dataclass(frozen=True, slots=True)
class _Retry:
    """The patch's text, read once, and what parsing it again needs."""

    data: bytes | str
    name: str
    reverse: bool
    hunking: Hunking
    selection: PathSelection

    @classmethod
    def of(
        cls,
        patch: PatchInput,
        stdin: bytes | None,
        reverse: bool,
        hunking: Hunking,
        selection: PathSelection,
    ) -> _Retry:
        """`patch` as `load_patch` took it (not a Patch): diff text, `-` or a path."""
        if isinstance(patch, bytes) or isinstance(patch, str) and is_diff_text(patch):
            data, name = patch, "<patch>"
        elif str(patch) == "-" and stdin is not None:
            data, name = stdin, "<stdin>"
        else:
            data, name = read_patch_bytes(str(patch)), str(patch)
        return cls(data, name, reverse, hunking, selection)

    def load(self, strip: int) -> Patch:
        parsed = parse_patch(
            self.data, name=self.name, reverse=self.reverse, hunking=self.hunking, strip=strip
        )
        return self.selection.apply(parsed)


def _other_strip(
    retry: _Retry, guessed: Patch, reader: FileReader, first_error: SourceError
) -> tuple[Patch, Sources]:
    """A plain diff's names read with -p0, then -p1, when the guessed reading does not
    fit the tree (as `patch` looks for the files it is to change). Raises the guessed
    reading's `first_error` when no other reading fits."""
    guessed_paths = _paths(guessed)
    for strip in PLAIN_STRIPS:
        try:
            other = retry.load(strip)
        except PatchError:
            continue
        if _paths(other) == guessed_paths:
            continue
        try:
            sources = resolve_sources(other, reader)
        except SourceError:
            continue
        note = f"the plain diff's names fit the tree when read with -p{strip}, not as guessed"
        return replace(other, warnings=(*other.warnings, note)), sources
    raise first_error


PLAIN_STRIPS = (0, 1)
"""The readings of a plain diff's names tried against a tree (`patch -p0`, `-p1`)."""


def _paths(patch: Patch) -> list[tuple[str | None, str | None]]:
    return [(f.old_path, f.new_path) for f in patch.files]


def open_candidate(
    candidate: PatchInput,
    *,
    repo: str | Path | None = None,
    rev: str | None = None,
    reverse: bool = False,
    hunking: Hunking = "as-given",
    stdin: bytes | None = None,
    cache: ParseCache | None = None,
    path_prefix: str | None = None,
    selection: PathSelection = DEFAULT_SELECTION,
    strip: int | None = None,
) -> tuple[Workspace | None, str | None]:
    """Open an agent's patch, which may be empty or garbage: that is a result (it
    localizes nothing), not an error. Returns `(workspace, None)`, or `(None, message)`
    when the patch does not parse; pass both to `reference.localization(workspace,
    candidate_error=message)`. Pass the reference's `cache`: both read the same tree."""
    try:
        parsed = load_patch(
            candidate,
            reverse=reverse,
            hunking=hunking,
            stdin=stdin,
            selection=selection,
            strip=strip,
        )
    except PatchError as exc:
        return None, str(exc)
    workspace = open_workspace(
        parsed, repo=repo, rev=rev, cache=cache, path_prefix=path_prefix, selection=selection
    )
    return workspace, None
