"""Mine's walk of a git history: commits, the files each changed, and their diffs.

All git runs through `sources.git`. Nothing here knows about languages or hunks; `mine`
decides which files and commits count.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from ..errors import HunkmetricsError
from ..sources import git

PATHSPEC_BYTES = 256 * 1024  # at most this much pathspec on one command line

_FIELD = b"\x1f"
_LOG_FORMAT = "--format=%H%x1f%P%x1f%cI%x1f%an%x1f%B"
_COMMIT_LINE = re.compile(rb"^([0-9a-f]{40}|[0-9a-f]{64})\n", re.M)
_DIFF_ARGS = ("diff-tree", "-r", "-M", "-p", "-U3", "--no-color")


def check_repository(repo: str | Path) -> Path:
    """`repo` as a Path, or a HunkmetricsError when it is not a git repository."""
    path = Path(repo)
    if not path.exists():
        raise HunkmetricsError(f"{repo}: no such directory")
    if not path.is_dir():
        raise HunkmetricsError(f"{repo}: not a directory")
    try:
        found = git.is_repository(path)
    except HunkmetricsError:  # git itself is missing
        found = False
    if not found:
        raise HunkmetricsError(f"{repo}: not a git repository")
    return path


def resolve_ref(repo: str | Path, ref: str | None) -> str:
    """The commit id `ref` (default HEAD) names, or a HunkmetricsError."""
    try:
        commit = git.resolve_commit(repo, ref or "HEAD")
    except HunkmetricsError:
        commit = None
    if commit is not None:
        return commit
    if ref is None:
        raise HunkmetricsError(
            f"{repo}: the repository has no commits (HEAD does not name a commit)"
        )
    raise HunkmetricsError(f"--branch: revision {ref!r} does not exist in {repo}")


@dataclass(frozen=True)
class CommitInfo:
    """What the walk reads of a commit: no diff."""

    hash: str
    parents: tuple[str, ...]
    date: datetime  # committer date, with its time zone
    author: str
    message: str

    @property
    def summary(self) -> str:
        lines = self.message.strip().splitlines()
        return lines[0].strip() if lines else ""


def walk_commits(repo: str | Path, ref: str | None = None) -> Iterator[CommitInfo]:
    """Every non-merge commit reachable from `ref` (default HEAD), oldest first, read by
    one streaming `git log` (hash, parents, committer date, author, message)."""
    start = resolve_ref(repo, ref)
    records = git.stream(
        repo,
        "log",
        "--no-merges",
        "--reverse",
        "-z",
        "--no-show-signature",
        "--no-color",
        "--encoding=UTF-8",
        _LOG_FORMAT,
        start,
        "--",
    )
    for record in records:
        record = record.lstrip(b"\n")
        if not record:
            continue
        parts = record.split(_FIELD, 4)
        if len(parts) != 5:
            continue
        sha, parents, when, author, message = parts
        yield CommitInfo(
            sha.decode(),
            tuple(parents.decode().split()),
            datetime.fromisoformat(when.decode()),
            author.decode("utf-8", "replace"),
            message.decode("utf-8", "replace"),
        )


@dataclass(frozen=True)
class Change:
    """One entry of `git diff-tree --raw`: status letter and the paths on each side."""

    status: str
    old_path: str | None
    new_path: str | None

    @property
    def paths(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(p for p in (self.old_path, self.new_path) if p))


def _path(raw: bytes) -> str:
    return os.fsdecode(raw)


def changed_files(repo: str | Path, hashes: list[str]) -> dict[str, list[Change]]:
    """Each commit's changed files against its parent, with rename detection: one
    `git diff-tree --stdin -r -M -z` for all of `hashes` (names only, no content)."""
    result: dict[str, list[Change]] = {h: [] for h in hashes}
    if not hashes:
        return result
    out = git.output(
        repo, "diff-tree", "--stdin", "-r", "-M", "-z", input=("\n".join(hashes) + "\n").encode()
    )
    tokens = out.split(b"\0")
    current: list[Change] | None = None
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if not token:
            i += 1
        elif token.startswith(b":"):
            status = token.split()[-1].decode()
            kind = status[:1]
            old: str | None
            new: str | None
            if kind in ("R", "C"):
                old, new = _path(tokens[i + 1]), _path(tokens[i + 2])
                i += 3
            else:
                path = _path(tokens[i + 1])
                old = None if kind == "A" else path
                new = None if kind == "D" else path
                i += 2
            if current is not None:
                current.append(Change(kind, old, new))
        else:
            current = result.setdefault(token.decode(), [])
            i += 1
    return result


def commit_diff(repo: str | Path, parent: str, commit: str, paths: list[str]) -> bytes:
    """The diff of `paths` from `parent` to `commit` with 3 lines of context: the bytes
    `git diff <parent> <commit> -- <paths>` prints with git's default configuration
    (plumbing, so no user diff setting changes them)."""
    return git.output(repo, "--literal-pathspecs", *_DIFF_ARGS, parent, commit, "--", *paths)


def pathspec_bytes(paths: Iterable[str]) -> int:
    """How much room `paths` take on a command line."""
    return sum(len(os.fsencode(p)) + 1 for p in paths)


def source_diffs(
    repo: str | Path,
    selected: dict[str, list[str]],
    changed: dict[str, list[Change]],
    parents: dict[str, str],
) -> dict[str, bytes]:
    """Each commit's source diff (`selected`: commit → its source paths; `changed`: its
    changed files; `parents`: its parent). Commits are diffed together by one
    `git diff-tree --stdin -p` limited to the union of their paths; a commit whose own
    changes hit that union beyond its selection (a test path another commit renamed,
    say) is diffed on its own instead."""
    diffs: dict[str, bytes] = {}
    groups: list[list[str]] = [[]]
    union_size = 0
    for commit, paths in selected.items():
        size = pathspec_bytes(paths)
        if groups[-1] and union_size + size > PATHSPEC_BYTES:
            groups.append([])
            union_size = 0
        groups[-1].append(commit)
        union_size += size
    for group in groups:
        if not group:
            continue
        union: set[str] = set().union(*(selected[c] for c in group))
        together = [
            c
            for c in group
            if {p for ch in changed[c] for p in ch.paths} & union == set(selected[c])
        ]
        alone = [c for c in group if c not in set(together)]
        if len(together) == 1:
            alone += together
            together = []
        if together:
            out = git.output(
                repo,
                "--literal-pathspecs",
                *_DIFF_ARGS,
                "--stdin",
                "--",
                *sorted(union),
                input=("\n".join(together) + "\n").encode(),
            )
            wanted = {c.encode() for c in together}
            heads = [m for m in _COMMIT_LINE.finditer(out) if m.group(1) in wanted]
            for k, match in enumerate(heads):
                end = heads[k + 1].start() if k + 1 < len(heads) else len(out)
                diffs[match.group(1).decode()] = out[match.end() : end]
        for commit in alone:
            diffs[commit] = commit_diff(repo, parents[commit], commit, selected[commit])
    return diffs


__all__ = [
    "Change",
    "CommitInfo",
    "changed_files",
    "check_repository",
    "commit_diff",
    "pathspec_bytes",
    "resolve_ref",
    "source_diffs",
    "walk_commits",
]
