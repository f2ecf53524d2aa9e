"""The repositories one `mine` run covers: given on the command line, or listed in a CSV
`repo[,since,until,branch,name]` (paths relative to the CSV's folder; an empty cell takes
the command line's value). Each repository has a name, unique in the run, that its
records carry (`repository`) and, when the run has several, that prefixes their ids
(`<name>@<commit>`).

A run over several repositories notes each one it finished in a side file next to the
output (`<out>.repos-done`, one name per line), so that `--resume` does not walk a
finished history again; within an unfinished one, the commits already written are
skipped as in a one-repository run.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..csvfiles import open_csv
from ..errors import HunkmetricsError

COLUMNS = ("repo", "since", "until", "branch", "name")
DONE_SUFFIX = ".repos-done"


@dataclass(frozen=True, slots=True)
class RepoSpec:
    """One repository to mine, with its own dates and branch when the list gives them
    (None: the run's)."""

    path: str
    name: str
    since: str | None = None
    until: str | None = None
    branch: str | None = None


def _name_of(path: str) -> str:
    name = Path(path).resolve().name
    return name[: -len(".git")] if name.endswith(".git") and len(name) > 4 else name


def repo_specs(paths: Iterable[str | Path]) -> list[RepoSpec]:
    """Repositories given as paths, each named after its folder (`x.git` → `x`)."""
    return checked([RepoSpec(str(p), _name_of(str(p))) for p in paths])


def read_repo_list(path: str | Path) -> list[RepoSpec]:
    """The repositories of a CSV `repo[,since,until,branch,name]`; one-line errors name
    the row at fault."""
    path = Path(path)
    specs = []
    with open_csv(path, "the repository list") as handle:
        reader = csv.DictReader(handle)
        header = [h.strip() for h in reader.fieldnames or []]
        if "repo" not in header:
            raise HunkmetricsError(f"{path}: a repository list needs a column repo")
        unknown = [h for h in header if h not in COLUMNS]
        if unknown:
            raise HunkmetricsError(
                f"{path}: unknown columns {', '.join(unknown)} (use {','.join(COLUMNS)})"
            )
        for line, raw in enumerate(reader, start=2):
            row = {k.strip(): (v or "").strip() for k, v in raw.items() if k is not None}
            if not row.get("repo"):
                raise HunkmetricsError(f"{path}:{line}: the repo cell is empty")
            repo = os.path.normpath(path.parent / Path(row["repo"]).expanduser())
            specs.append(
                RepoSpec(
                    repo,
                    row.get("name") or _name_of(repo),
                    row.get("since") or None,
                    row.get("until") or None,
                    row.get("branch") or None,
                )
            )
    if not specs:
        raise HunkmetricsError(f"{path}: lists no repository")
    return checked(specs, where=str(path))


def checked(specs: Sequence[RepoSpec], where: str = "the repositories") -> list[RepoSpec]:
    """`specs` with names that are unique and usable in an id (no `@`, no blank)."""
    seen: dict[str, str] = {}
    for spec in specs:
        if not spec.name or "@" in spec.name or spec.name != spec.name.strip():
            raise HunkmetricsError(f"{where}: {spec.path}: name {spec.name!r} cannot be used")
        if spec.name in seen:
            raise HunkmetricsError(
                f"{where}: two repositories are named {spec.name!r} ({seen[spec.name]}, "
                f"{spec.path}); give each a name (the list's name column)"
            )
        seen[spec.name] = spec.path
    return list(specs)


def record_id(name: str | None, commit: str) -> str:
    """A mined commit's id: the commit, after its repository's name in a run of several."""
    return f"{name}@{commit}" if name is not None else commit


def done_commits(ids: Iterable[str], name: str | None) -> set[str]:
    """The commits of repository `name` among a resumed output's ids."""
    if name is None:
        return set(ids)
    prefix = name + "@"
    return {i[len(prefix) :] for i in ids if i.startswith(prefix)}


def done_path(out: str | Path) -> Path:
    """The side file listing the repositories a run over several has finished."""
    return Path(f"{out}{DONE_SUFFIX}")


def read_done(out: str | Path) -> set[str]:
    """The repositories a run over several finished (none when the side file is absent;
    a torn last line, from a kill while writing it, is not a name)."""
    path = done_path(out)
    if not path.is_file():
        return set()
    text = path.read_text(encoding="utf-8", errors="replace")
    lines = text.split("\n")
    return {line for line in lines[:-1] if line}


def mark_done(out: str | Path, name: str) -> None:
    """Note that repository `name` is finished (appended and flushed to disk)."""
    with open(done_path(out), "a", encoding="utf-8") as handle:
        handle.write(name + "\n")
        handle.flush()
        os.fsync(handle.fileno())
