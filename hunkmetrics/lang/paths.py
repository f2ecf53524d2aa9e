"""Packages guessed from a file's path alone."""

from __future__ import annotations

from pathlib import PurePosixPath


def directory_package(path: str) -> str:
    """The file's directory, `/`-separated ("" at the repository root)."""
    return str(PurePosixPath(path).parent).replace("\\", "/").removeprefix(".")


def dotted_directory(path: str, source_roots: tuple[str, ...]) -> str:
    """The file's directory, dotted, once the first matching source root (in the rules'
    order) is dropped with everything before it. A root of several segments
    (`src/main/java`) is recognized anywhere in the path, as multi-module builds nest it
    (`gson/src/main/java/com/google/gson/...` -> `com.google.gson...`); a one-segment
    root (`src`, `java`) only at the start, where it cannot be a package's own name."""
    directory = directory_package(path)
    for root in source_roots:
        if directory == root:
            return ""
        if directory.startswith(root + "/"):
            return directory[len(root) + 1 :].replace("/", ".")
        if "/" in root:
            if directory.endswith("/" + root):
                return ""
            at = directory.find("/" + root + "/")
            if at >= 0:
                return directory[at + len(root) + 2 :].replace("/", ".")
    return directory.replace("/", ".")
