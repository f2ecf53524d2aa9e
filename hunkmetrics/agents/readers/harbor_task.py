"""The task of a Harbor trial and its gold patch (read from harbor 0.26.0's layout).

A trial's `result.json` names its task in `task_id` (`LocalTaskId{path}`,
`GitTaskId{git_url, git_commit_id, path}`, `PackageTaskId{org, name, ref}`) and in
`config.task` (`path`, `download_dir`). A task directory holds `task.toml`,
`instruction.md`, `environment/`, `solution/solve.sh` and `tests/`.

The gold patch is the one `.diff`/`.patch` file under `solution/` (when several, the one
`solve.sh` applies), else the one unified diff `solve.sh` holds in a heredoc (as the
SWE-bench adapters write it); when `solve.sh` applies it with `--reverse`/`-R` (SWE-smith:
the file is the bug), its reverse. The repository and base commit come from `task.toml`'s
`[metadata]` (`repo` or `repository`, `base_commit`), else from `tests/config.json` (the
SWE-bench instance the adapters keep there).
"""

from __future__ import annotations

import json
import posixpath
import tomllib
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

from hunkmetrics.agents.jsonio import Record, as_dict, as_str
from hunkmetrics.agents.model import Command, TaskContext
from hunkmetrics.errors import HunkmetricsError

_PATCH_SUFFIXES = (".diff", ".patch")
_PACKAGES = Path("~/.cache/harbor/tasks/packages")  # harbor.constants.PACKAGE_CACHE_DIR


@dataclass(frozen=True, slots=True)
class TaskLookup:
    """Where a trial's task is (`folder`, None when not here) and how it was named."""

    folder: Path | None
    named: str


def _origin(folder: Path, result: Record) -> Path | None:
    """The directory Harbor ran in: `trial_uri` less `config.trials_dir/<trial>`."""
    uri = urlparse(as_str(result.get("trial_uri")) or "")
    trials_dir = as_str(as_dict(result.get("config")).get("trials_dir"))
    if uri.scheme != "file" or not trials_dir or Path(trials_dir).is_absolute():
        return None
    trial = Path(unquote(uri.path))
    depth = len(Path(trials_dir).parts) + 1
    if trial.name != folder.name or len(trial.parts) <= depth:
        return None
    return Path(*trial.parts[:-depth])


def _is_task(folder: Path) -> bool:
    return (folder / "task.toml").is_file() or (folder / "solution").is_dir()


def find_task(folder: Path, result: Record) -> TaskLookup:
    """The trial's task directory: a local task's path as recorded, relative to the trial's
    own ancestors first (where the job is now), then to the directory Harbor ran in; a git
    task in its `download_dir`; a package task in Harbor's cache."""
    task_id = as_dict(result.get("task_id"))
    config = as_dict(as_dict(result.get("config")).get("task"))
    path = as_str(task_id.get("path")) or as_str(config.get("path"))
    if as_str(task_id.get("org")) and as_str(task_id.get("name")):
        org, name, ref = (as_str(task_id.get(k)) or "" for k in ("org", "name", "ref"))
        named = f"package {org}/{name}" + (f"@{ref}" if ref else "")
        digest = ref.removeprefix("sha256:") if ref.startswith("sha256:") else None
        found = _PACKAGES.expanduser() / org / name / digest if digest else None
        return TaskLookup(found if found is not None and _is_task(found) else None, named)
    if path is None:
        return TaskLookup(None, "no task path in result.json")
    url = as_str(task_id.get("git_url")) or as_str(config.get("git_url"))
    if url:
        commit = as_str(task_id.get("git_commit_id")) or ""
        named = f"git task {url}" + (f"@{commit}" if commit else "") + f" {path}"
        download = as_str(config.get("download_dir"))
        found = Path(download) / Path(path).name if download else None
        return TaskLookup(found if found is not None and _is_task(found) else None, named)
    named = f"task {path}"
    recorded = Path(path).expanduser()
    if recorded.is_absolute():
        return TaskLookup(recorded if _is_task(recorded) else None, named)
    origin = _origin(folder, result)
    bases = [*folder.resolve().parents, *([origin] if origin is not None else [])]
    found = next((b / recorded for b in bases if _is_task(b / recorded)), None)
    return TaskLookup(found, named)


def _commands(script: str) -> tuple[Command, ...]:
    from hunkmetrics.agents.shell import split

    return split(script).commands


def _applies(command: Command) -> bool:
    args = command.args
    return command.name == "patch" or (command.name == "git" and args[:1] == ("apply",))


def _reversed(command: Command) -> bool:
    for arg in command.args:
        if arg == "--reverse" or (arg[:1] == "-" and arg[1:2] != "-" and "R" in arg[1:]):
            return True
    return False


def _names(command: Command, name: str) -> bool:
    """Whether `command` reads the file called `name` (an argument, `-iFILE`,
    `--input=FILE`, or `< FILE`)."""
    words = [*command.args, *(r.target for r in command.redirects if r.op == "<")]
    for word in words:
        for value in (word, word.partition("=")[2], word[2:] if word[:2] == "-i" else ""):
            if value and posixpath.basename(value) == name:
                return True
    return False


def _is_diff(text: str) -> bool:
    from hunkmetrics.patch.parse import parse_patch

    try:
        return bool(parse_patch(text).files)
    except HunkmetricsError:
        return False


@dataclass(frozen=True, slots=True)
class _Gold:
    text: str
    source: str
    reverse: bool


def _solution_file(task: Path, applied: list[Command]) -> _Gold | str | None:
    solution = task / "solution"
    files = sorted(
        p for p in solution.rglob("*") if p.is_file() and p.suffix.lower() in _PATCH_SUFFIXES
    )
    named = [p for p in files if any(_names(c, p.name) for c in applied)]
    chosen = files if len(files) == 1 else named
    if len(chosen) != 1:
        return (
            None
            if not files
            else f"{len(files)} diffs in solution/ and solve.sh applies "
            + ("none of them" if not named else f"{len(named)} of them")
        )
    path = chosen[0]
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    reverse = any(_reversed(c) for c in applied if _names(c, path.name))
    return _Gold(text, f"solution/{path.relative_to(solution).as_posix()}", reverse)


def _solution_heredoc(commands: tuple[Command, ...], applied: list[Command]) -> _Gold | str | None:
    found: list[_Gold] = []
    for command in commands:
        for red in command.redirects:
            if red.op not in ("<<", "<<-") or not _is_diff(red.body):
                continue
            targets = [posixpath.basename(r.target) for r in command.redirects if r.op == ">"]
            reverse = (_applies(command) and _reversed(command)) or any(
                _reversed(c) for c in applied for t in targets if _names(c, t)
            )
            text = red.body if red.body.endswith("\n") else red.body + "\n"
            found.append(_Gold(text, f"solution/solve.sh (heredoc {red.target})", reverse))
    if len(found) > 1:
        return f"solve.sh holds {len(found)} diffs"
    return found[0] if found else None


def _gold(task: Path) -> _Gold | str | None:
    """The task's gold patch, a reason why there is none that can be told, or None."""
    solve = task / "solution" / "solve.sh"
    script = solve.read_text(encoding="utf-8", errors="replace") if solve.is_file() else ""
    commands = _commands(script) if script else ()
    applied = [c for c in commands if _applies(c)]
    found = _solution_file(task, applied)
    if found is None and commands:
        found = _solution_heredoc(commands, applied)
    return found


def _repository(task: Path) -> tuple[str | None, str | None]:
    """`org/repo` and the base commit: task.toml `[metadata]`, else tests/config.json."""
    meta: Record = {}
    toml = task / "task.toml"
    if toml.is_file():
        try:
            meta = as_dict(tomllib.loads(toml.read_text(encoding="utf-8")).get("metadata"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError):
            meta = {}
    repo = as_str(meta.get("repo")) or as_str(meta.get("repository"))
    commit = as_str(meta.get("base_commit"))
    instance = task / "tests" / "config.json"
    if (repo is None or commit is None) and instance.is_file():
        try:
            data = as_dict(json.loads(instance.read_text(encoding="utf-8")))
        except (json.JSONDecodeError, UnicodeDecodeError):
            data = {}
        name, org = as_str(data.get("repo")), as_str(data.get("org"))
        if name and "/" not in name and org:
            name = f"{org}/{name}"
        repo = repo or (name if name and "/" in name else None)
        commit = commit or as_str(data.get("base_commit"))
    return repo, commit


def task_context(folder: Path, result: Record, warnings: list[str]) -> TaskContext | None:
    """The trial's task as a `TaskContext` with its gold patch; None (and a warning that
    says why) when the task or its gold patch is not to be had here."""
    lookup = find_task(folder, result)
    if lookup.folder is None:
        warnings.append(
            f"harbor {lookup.named} is not here: no gold patch from its solution/ "
            "(name one with --reference)"
        )
        return None
    gold = _gold(lookup.folder)
    if not isinstance(gold, _Gold):
        why = gold or "no .diff/.patch in solution/ and no diff in solution/solve.sh"
        warnings.append(f"harbor task {lookup.folder.name}: no gold patch ({why})")
        return None
    source = f"harbor task {lookup.folder.name}/{gold.source}"
    if gold.reverse:
        source += ", reversed (solve.sh applies it with --reverse)"
    repo, commit = _repository(lookup.folder)
    return TaskContext(
        gold_patch=gold.text,
        gold_source=source,
        repository=repo,
        base_commit=commit,
        reverse=gold.reverse,
    )
