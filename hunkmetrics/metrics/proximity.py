"""Spatial proximity: Nucleus, Cluster, Orbit, Sprawl or Fragment, and why."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import ArgumentError
from ..jsonshape import COUNT, COUNTS, STR, Nullable, Obj, enum
from ..lang.locate import LocatedHunk
from ..shortlist import few
from .profiles import DEFAULT_PROFILE, PROFILE_NAMES, PROXIMITY_CLASSES, Profile
from .profiles import profile as get_profile
from .profiles.base import median_half_cutoff as default_cutoff

CLASSES = PROXIMITY_CLASSES
NUCLEUS, CLUSTER, ORBIT, SPRAWL, FRAGMENT = PROXIMITY_CLASSES


def proximity_package(path: str, profile: str | Profile) -> tuple[str, ...]:
    """The package a proximity class compares, by the profile's rule."""
    return get_profile(profile).package_of(path)


def _shared(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    count = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        count += 1
    return count


PROXIMITY = Obj(
    {
        "class": Nullable(enum(*PROXIMITY_CLASSES)),
        "profile": enum(*PROFILE_NAMES),
        "cutoff": COUNT,
        "hunk_count": COUNT,
        "files": COUNT,
        "packages": COUNT,
        "classes": COUNT,
        "methods": COUNT,
        "shared_package_prefix": STR,
        "shared_package_depth": COUNT,
        "located_by": enum("source", "diff", "mixed", "none"),
        "reason": STR,
        "unplaced_hunks": COUNTS,
    }
)
"""The `proximity` object of the proximity/v1 and characterize/v1 documents."""


@dataclass(frozen=True)
class ProximityResult:
    """The class (None for fewer than two hunks) and the facts that decided it."""

    label: str | None
    profile: str
    cutoff: int
    hunk_indices: tuple[int, ...]
    files: int
    packages: int
    classes: int
    methods: int
    shared_prefix: tuple[str, ...]  # the shortest package prefix shared by every pair
    located_by: str  # "source", "diff", "mixed" (or "none" without hunks)
    reason: str
    unplaced_hunks: tuple[int, ...] = ()
    warnings: tuple[str, ...] = field(default=())
    # The cutoff asked for (a setting); None: the profile's, worked out per patch as `cutoff`.
    requested_cutoff: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The `proximity` object (PROXIMITY)."""
        return PROXIMITY.build(
            {
                "class": self.label,
                "profile": self.profile,
                "cutoff": self.cutoff,
                "hunk_count": len(self.hunk_indices),
                "files": self.files,
                "packages": self.packages,
                "classes": self.classes,
                "methods": self.methods,
                "shared_package_prefix": "/".join(self.shared_prefix),
                "shared_package_depth": len(self.shared_prefix),
                "located_by": self.located_by,
                "reason": self.reason,
                "unplaced_hunks": list(self.unplaced_hunks),
            }
        )


def classify(
    located: list[LocatedHunk],
    *,
    profile: str | Profile = DEFAULT_PROFILE,
    cutoff: int | None = None,
) -> ProximityResult:
    """Classify located hunks (see docs/metrics.md, "Spatial proximity") with the
    profile's package rule and, unless `cutoff` is given, its Sprawl cutoff."""
    if cutoff is not None and cutoff < 0:
        raise ArgumentError(f"the Sprawl cutoff must be ≥ 0, not {cutoff}")
    prof = get_profile(profile)
    paths = [item.file.path for item in located]
    packages = [prof.package_of(p) for p in paths]
    requested = cutoff
    if cutoff is None:
        cutoff = prof.cutoff_for(packages)
    origins = {item.location.located_by for item in located}
    located_by = (origins.pop() if len(origins) == 1 else "mixed") if origins else "none"
    methods = {(item.file.path, item.location.method) for item in located if item.location.method}
    classes = {
        (item.file.path, item.location.class_name) for item in located if item.location.class_name
    }
    unplaced = tuple(item.hunk.index for item in located if not item.location.placed)
    # The least prefix any pair shares is the one every package shares: the first
    # package's with each other one, at its least (no list of the n(n-1)/2 pairs).
    depth = min((_shared(packages[0], other) for other in packages[1:]), default=0)
    prefix = packages[0][:depth] if packages else ()
    facts = ProximityResult(
        label=None,
        reason="fewer than two hunks: no class",
        profile=prof.name,
        cutoff=cutoff,
        hunk_indices=tuple(item.hunk.index for item in located),
        files=len(set(paths)),
        packages=len(set(packages)),
        classes=len(classes),
        methods=len(methods),
        shared_prefix=prefix,
        located_by=located_by,
        unplaced_hunks=unplaced,
        requested_cutoff=requested,
    )
    if len(located) < 2:
        return facts
    warnings: list[str] = []
    if len(set(paths)) == 1:
        all_methods = [item.location.method for item in located]
        if all_methods[0] is not None and len(set(all_methods)) == 1:
            label, reason = NUCLEUS, f"all hunks in one method, {all_methods[0]}"
        else:
            label = CLUSTER
            outside = sum(1 for m in all_methods if m is None)
            reason = f"one file, {len(methods)} method(s)" + (
                f"; {outside} hunk(s) outside any single method" if outside else ""
            )
        if unplaced:
            warnings.append(
                f"hunks {few(unplaced)}: method not found (no source); "
                f"the {NUCLEUS}/{CLUSTER} split may be wrong ({label}); give --repo/--rev"
            )
        return replace(facts, label=label, reason=reason, warnings=tuple(warnings))
    if len(set(packages)) == 1:
        return replace(
            facts,
            label=ORBIT,
            reason=f"{len(set(paths))} files in one package ({'/'.join(packages[0]) or '.'})",
        )
    if depth > cutoff:
        return replace(
            facts,
            label=SPRAWL,
            reason=f"every pair shares {depth} > cutoff {cutoff} leading package segments",
        )
    return replace(
        facts,
        label=FRAGMENT,
        reason=f"some pair shares only {depth} ≤ cutoff {cutoff} leading package segments",
    )


__all__ = ["CLASSES", "ProximityResult", "classify", "default_cutoff", "proximity_package"]
