"""The metric profiles, one module each, and the registry: `profile("birch")`.

Every command reads the registry (names, rules, help), so it imports no numpy: a
profile's pair components import their implementations when they are called."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ...errors import ArgumentError
from .base import DISTRIBUTED_WEIGHT, PROXIMITY_CLASSES, Component, PairInputs, Profile
from .birch import BIRCH
from .default import DEFAULT

PROFILES: Mapping[str, Profile] = MappingProxyType({p.name: p for p in (DEFAULT, BIRCH)})
PROFILE_NAMES: tuple[str, ...] = tuple(PROFILES)
DEFAULT_PROFILE = DEFAULT.name


def profile(name: str | Profile) -> Profile:
    """The profile called `name` (a Profile is returned as is). ValueError if unknown."""
    if isinstance(name, Profile):
        return name
    try:
        return PROFILES[name]
    except KeyError:
        raise ArgumentError(
            f"unknown profile {name!r} (use {' or '.join(PROFILE_NAMES)})"
        ) from None


__all__ = [
    "DEFAULT_PROFILE",
    "DISTRIBUTED_WEIGHT",
    "PROFILES",
    "PROFILE_NAMES",
    "PROXIMITY_CLASSES",
    "Component",
    "PairInputs",
    "Profile",
    "profile",
]
