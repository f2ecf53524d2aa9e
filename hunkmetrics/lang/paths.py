"""Repository paths (`/`-separated, relative) taken apart as `PurePosixPath` does, and
packages guessed from a file's path alone.

The hot paths ask for a suffix or a directory thousands of times per batch; building a
`PurePosixPath` for each costs more than the answer. A plain relative path (no empty
or `.` segment) is split directly; any other goes through `PurePosixPath`."""

from __future__ import annotations

from pathlib import PurePosixPath


def _plain(segments: list[str]) -> bool:
    """Whether the segments of a relative path are what PurePosixPath keeps of it."""
    return "" not in segments and "." not in segments


def path_parts(path: str) -> tuple[str, ...]:
    """`PurePosixPath(path).parts`."""
    segments = path.split("/")
    return tuple(segments) if _plain(segments) else PurePosixPath(path).parts


def parent(path: str) -> str:
    """`str(PurePosixPath(path).parent)` ("." for a file at the top)."""
    segments = path.split("/")
    if not _plain(segments):
        return str(PurePosixPath(path).parent)
    return "/".join(segments[:-1]) or "."


def suffix(path: str) -> str:
    """`PurePosixPath(path).suffix`: the file name's last `.ext`, or ""."""
    name = path.rpartition("/")[2]
    if name in ("", "."):  # a path ending in `/` or `/.`: its last segment is another
        return PurePosixPath(path).suffix
    dot = name.rfind(".")
    return name[dot:] if 0 < dot < len(name) - 1 else ""


def directory_package(path: str) -> str:
    """The file's directory, `/`-separated ("" at the repository root)."""
    return parent(path).replace("\\", "/").removeprefix(".")


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
