"""File-level component: how far apart two files sit in the directory tree."""

from __future__ import annotations


def file_distance(path_a: str, path_b: str, *, capped: bool = True) -> float:
    """0 for the same file; else 1 - c/m, with m the longer path's segment count and c the
    number of equal leading segments minus one. `capped=False` keeps the published quirk
    that two paths with no common first segment score 1 + 1/m."""
    if path_a == path_b:
        return 0.0
    a, b = path_a.split("/"), path_b.split("/")
    longest = max(len(a), len(b))
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    value = 1.0 - (common - 1) / longest
    return min(1.0, value) if capped else value
