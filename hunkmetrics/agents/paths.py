"""The file paths an action touched, as far as its arguments say.

Native tools: the usual path arguments (`file_path`, `path`, `filename`, …) and the file
headers of an `apply_patch` patch. Shell commands: the arguments that look like paths (contain
a `/` or end in `.ext`, are not flags, have no glob or expansion) and redirection targets.
The shell part is a heuristic: paths are as written, relative or absolute, not resolved.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from hunkmetrics.agents.model import Command, JSONValue

_PATH_KEYS = (
    "file_path",
    "path",
    "absolute_path",
    "filename",
    "file_name",
    "notebook_path",
    "file",
    "dir_path",
    "relative_path",
)
_LIST_KEYS = ("paths", "file_paths", "absolute_paths")
_PATCH_HEADER = re.compile(
    r"^\*\*\* (?:Update|Add|Delete) File: (.+?)\s*$|^\*\*\* Move to: (.+?)\s*$"
)
_LOOKS_LIKE_FILE = re.compile(r"(/|\.[A-Za-z0-9]{1,8}$)")
_NOT_A_PATH = re.compile(r"[*?\[\]{}$`<>|;&()'\"\s=]|^-|^[a-z]+://")
_PATCH_KEYS = ("input", "patch")
_ANY_KEY = frozenset(_PATH_KEYS + _LIST_KEYS + _PATCH_KEYS)


def tool_paths(arguments: Mapping[str, JSONValue]) -> list[str]:
    if _ANY_KEY.isdisjoint(arguments):  # most calls: no path argument at all
        return []
    out: list[str] = []
    for key in _PATH_KEYS:
        value = arguments.get(key)
        if isinstance(value, str) and value and "\n" not in value:
            out.append(value)
    for key in _LIST_KEYS:
        value = arguments.get(key)
        if isinstance(value, tuple):
            out.extend(v for v in value if isinstance(v, str) and v)
    for key in _PATCH_KEYS:
        value = arguments.get(key)
        if isinstance(value, str) and "*** Begin Patch" in value:
            out.extend(patch_paths(value))
    return unique(out)


def patch_paths(patch: str) -> list[str]:
    """Files named by an `apply_patch` patch (`*** Update File: p`, Add, Delete, Move to)."""
    out = []
    for line in patch.splitlines():
        match = _PATCH_HEADER.match(line)
        if match:
            out.append(match.group(1) or match.group(2))
    return out


def command_paths(cmd: Command) -> list[str]:
    out = [a for a in cmd.args if _LOOKS_LIKE_FILE.search(a) and not _NOT_A_PATH.search(a)]
    for red in cmd.redirects:
        if red.op in ("<", ">", ">>", "&>", ">|") and red.target and red.target != "/dev/null":
            out.append(red.target)
    if cmd.name in ("apply_patch", "applypatch"):
        for arg in cmd.args:
            out.extend(patch_paths(arg))
    return unique(out)


def unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))
