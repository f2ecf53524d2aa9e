"""Packages guessed from a file's path alone."""

from __future__ import annotations

from pathlib import PurePosixPath


def directory_package(path: str) -> str:
    """The file's directory, `/`-separated ("" at the repository root)."""
    return str(PurePosixPath(path).parent).replace("\\", "/").removeprefix(".")


def dotted_directory(path: str, source_roots: tuple[str, ...]) -> str:
    """The file's directory, dotted, once the first matching source root is dropped."""
    directory = directory_package(path)
    for root in source_roots:
        if directory == root:
            return ""
        if directory.startswith(root + "/"):
            return directory[len(root) + 1 :].replace("/", ".")
    return directory.replace("/", ".")
