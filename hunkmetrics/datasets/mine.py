"""Mine a git history for multi-hunk bug fixes and characterize each one.

The pipeline (docs/mine.md explains the choices and gives the figures):

1. **Walk**: one `git log --no-merges` process streams hash, parents, committer date,
   author and message of every commit. No diff is computed here.
2. **Filter by message and date** in Python (a case-insensitive regex; exact dates).
   Root commits and, with `resume`, commits already in the output are dropped here too.
3. **Which files**: the commits left are fed, in batches, to one
   `git diff-tree --stdin -r -M -z` per batch (names and statuses only, no content).
   A change is *source* when its language is one of the chosen ones and, by default,
   it is not a test file.
4. **Count hunks**: one `git diff-tree --stdin -p` per batch, limited to the batch's
   source paths, gives each commit's source diff (the bytes
   `git diff <parent> <commit> -- <source paths>` prints). Its `@@` headers are counted
   and commits outside `[min_hunks, max_hunks]` are dropped.
5. **Characterize** each candidate against its parent (the exact pre-image):
   `open_workspace(diff, repo=repo, rev=parent)` then `characterize_workspace`, in
   worker processes when `jobs > 1`. The driver writes every record through
   `JsonlWriter`.

The library needs no PyDriller: `walker="pydriller"` walks with PyDriller instead of
`git log` (same commits; slower, and PyDriller writes to the repository's config).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from datetime import time as dtime
from pathlib import Path
from typing import Any, BinaryIO

from ..api import characterize_workspace
from ..errors import HunkmetricsError, error_line
from ..lang.languages import all_rules, rules_for_path
from ..metrics.localization import is_test_file
from ..workspace import open_workspace
from .executors import LocalExecutor
from .records import JsonlWriter
from .scheduler import run_tasks

DEFAULT_GREP = r"\b(fix(e[sd])?|fixing|bug|issue)\b|#\d+"
PROFILES = ("default", "birch")
WALKERS = ("git", "pydriller")

BATCH_COMMITS = 64  # commits per `git diff-tree --stdin` call
PATHSPEC_BYTES = 256 * 1024  # at most this much pathspec on one command line
MAX_PATHSPEC_BYTES = 1024 * 1024  # a commit whose source paths exceed this is an error
WINDOW_PER_JOB = 4  # tasks in flight per worker process
PROGRESS_EVERY = 0.2  # seconds between progress callbacks

_FIELD = b"\x1f"
_LOG_FORMAT = "--format=%H%x1f%P%x1f%cI%x1f%an%x1f%B"
_COMMIT_LINE = re.compile(rb"^([0-9a-f]{40}|[0-9a-f]{64})\n", re.M)
_HUNK_HEADER = re.compile(rb"^@@ -", re.M)
_FILE_HEADER = re.compile(rb"^diff --git ", re.M)
_WHOLE_FILE = re.compile(rb"^(?:new|deleted) file mode ", re.M)


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class MineOptions:
    """What to mine. Build it with `mine_options(...)`, which validates the inputs."""

    grep: re.Pattern[str] = field(default_factory=lambda: re.compile(DEFAULT_GREP, re.I))
    since: datetime | None = None
    until: datetime | None = None
    min_hunks: int = 2
    max_hunks: int | None = None
    languages: frozenset[str] = field(default_factory=lambda: frozenset(all_rules()))
    profile: str = "default"
    exclude_tests: bool = True
    branch: str | None = None


def parse_date(text: str, *, end_of_day: bool = False, option: str = "date") -> datetime:
    """An ISO 8601 date or date-time. Without a time zone it is UTC. A bare date is the
    start of that day, or with `end_of_day` its last microsecond (so `--until
    2024-01-31` includes the 31st)."""
    value = text.strip()
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            day = date.fromisoformat(value)
            moment = datetime.combine(day, dtime.max if end_of_day else dtime.min)
        else:
            moment = datetime.fromisoformat(value)
    except ValueError:
        raise HunkmetricsError(
            f"{option}: not an ISO 8601 date: {text!r} (use e.g. "
            "2024-01-31 or 2024-01-31T12:00:00+02:00)"
        ) from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def compile_grep(pattern: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern, re.IGNORECASE)
    except re.error as exc:
        raise HunkmetricsError(
            f"--grep: not a valid regular expression: {pattern!r} ({exc})"
        ) from None


def parse_languages(names: str | Iterable[str] | None) -> frozenset[str]:
    """`"java,python"` (or a list) → the language names; None → every language."""
    known = all_rules()
    if names is None:
        return frozenset(known)
    items = names.split(",") if isinstance(names, str) else list(names)
    chosen = {item.strip().lower() for item in items if item.strip()}
    unknown = sorted(chosen - set(known))
    if unknown or not chosen:
        raise HunkmetricsError(
            f"--lang: unknown language {', '.join(unknown) or '(none)'}"
            f" (use a comma-separated list of {', '.join(sorted(known))})"
        )
    return frozenset(chosen)


def mine_options(
    *,
    grep: str | None = None,
    since: str | datetime | None = None,
    until: str | datetime | None = None,
    min_hunks: int = 2,
    max_hunks: int | None = None,
    languages: str | Iterable[str] | None = None,
    profile: str = "default",
    exclude_tests: bool = True,
    branch: str | None = None,
) -> MineOptions:
    """Validated options; every problem is a HunkmetricsError with a one-line message."""
    if isinstance(since, str):
        since = parse_date(since, option="--since")
    if isinstance(until, str):
        until = parse_date(until, end_of_day=True, option="--until")
    if since is not None and since.tzinfo is None:
        since = since.replace(tzinfo=UTC)
    if until is not None and until.tzinfo is None:
        until = until.replace(tzinfo=UTC)
    if since is not None and until is not None and since > until:
        raise HunkmetricsError(
            f"--since ({since.isoformat()}) is after --until ({until.isoformat()})"
        )
    if min_hunks < 1:
        raise HunkmetricsError("--min-hunks must be at least 1")
    if max_hunks is not None and max_hunks < min_hunks:
        raise HunkmetricsError(f"--max-hunks ({max_hunks}) is below --min-hunks ({min_hunks})")
    if profile not in PROFILES:
        raise HunkmetricsError(f"unknown profile {profile!r} (use {' or '.join(PROFILES)})")
    return MineOptions(
        grep=compile_grep(DEFAULT_GREP if grep is None else grep),
        since=since,
        until=until,
        min_hunks=min_hunks,
        max_hunks=max_hunks,
        languages=parse_languages(languages),
        profile=profile,
        exclude_tests=exclude_tests,
        branch=branch,
    )


# --------------------------------------------------------------------------- git


def _git(repo: str | Path, *args: str, input: bytes | None = None) -> bytes:
    """Run a git command in `repo`; its stdout, or a HunkmetricsError with git's message."""
    try:
        done = subprocess.run(
            ["git", "--no-pager", "-C", str(repo), *args],
            input=input,
            capture_output=True,
            check=False,
        )
    except FileNotFoundError:
        raise HunkmetricsError("git is not installed or not on PATH") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise HunkmetricsError(
            f"git {args[0]} failed in {repo}: "
            f"{message[0] if message else 'exit ' + str(done.returncode)}"
        )
    return done.stdout


def check_repository(repo: str | Path) -> Path:
    """`repo` as a Path, or a HunkmetricsError when it is not a git repository."""
    path = Path(repo)
    if not path.exists():
        raise HunkmetricsError(f"{repo}: no such directory")
    if not path.is_dir():
        raise HunkmetricsError(f"{repo}: not a directory")
    try:
        _git(path, "rev-parse", "--git-dir")
    except HunkmetricsError:
        raise HunkmetricsError(f"{repo}: not a git repository") from None
    return path


def resolve_ref(repo: str | Path, ref: str | None) -> str:
    """The commit id `ref` (default HEAD) names, or a HunkmetricsError."""
    name = ref or "HEAD"
    try:
        out = _git(
            repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{name}^{{commit}}"
        )
    except HunkmetricsError:
        if ref is None:
            raise HunkmetricsError(
                f"{repo}: the repository has no commits (HEAD does not name a commit)"
            ) from None
        raise HunkmetricsError(f"--branch: revision {ref!r} does not exist in {repo}") from None
    return out.decode().strip()


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


def _split_stream(stream: BinaryIO, separator: bytes, chunk: int = 1 << 16) -> Iterator[bytes]:
    buffer = b""
    while True:
        data = stream.read(chunk)
        if not data:
            break
        buffer += data
        *records, buffer = buffer.split(separator)
        yield from records
    if buffer:
        yield buffer


def walk_commits(repo: str | Path, ref: str | None = None) -> Iterator[CommitInfo]:
    """Every non-merge commit reachable from `ref` (default HEAD), oldest first, read by
    one streaming `git log` (hash, parents, committer date, author, message)."""
    start = resolve_ref(repo, ref)
    cmd = [
        "git",
        "--no-pager",
        "-C",
        str(repo),
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
    ]
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        try:
            for record in _split_stream(proc.stdout, b"\0"):
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
        finally:
            if proc.poll() is None:
                proc.kill()
            stderr = proc.stderr.read()
            code = proc.wait()
        if code not in (0, -9):
            line = stderr.decode("utf-8", "replace").strip().splitlines()
            raise HunkmetricsError(
                f"git log failed in {repo}: {line[0] if line else 'exit ' + str(code)}"
            )


def walk_commits_pydriller(repo: str | Path, ref: str | None = None) -> Iterator[CommitInfo]:
    """The same walk through PyDriller (`Repository(...).traverse_commits()`, no merges),
    reading only the attributes that need no diff. Needs the `mine` extra. Note that
    PyDriller writes `blame.markUnblamableLines` into the repository's config."""
    try:
        from pydriller import Repository
    except ImportError:
        raise HunkmetricsError(
            "walker 'pydriller' needs PyDriller: pip install 'hunkmetrics[mine]'"
        ) from None
    start = resolve_ref(repo, ref)
    walk = Repository(str(Path(repo).resolve()), only_no_merge=True, only_in_branch=start)
    for commit in walk.traverse_commits():
        yield CommitInfo(
            commit.hash,
            tuple(commit.parents),
            commit.committer_date,
            commit.author.name or "",
            commit.msg,
        )


# --------------------------------------------------------------------------- files and hunks


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
    out = _git(
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


def is_source_change(change: Change, languages: frozenset[str], exclude_tests: bool) -> bool:
    """In one of `languages` (by the new path, else the old) and, with `exclude_tests`,
    not a test file (by the pre-image path, as localization compares files)."""
    path = change.new_path or change.old_path
    assert path is not None
    rules = rules_for_path(path)
    if rules is None or rules.name not in languages:
        return False
    key = change.old_path if change.old_path is not None else path
    return not (exclude_tests and is_test_file(key))


def source_paths(changes: list[Change], options: MineOptions) -> list[str]:
    """The pathspec of a commit's source change (both sides of a renamed file)."""
    paths: dict[str, None] = {}
    for change in changes:
        if is_source_change(change, options.languages, options.exclude_tests):
            paths.update(dict.fromkeys(change.paths))
    return list(paths)


_DIFF_ARGS = ("diff-tree", "-r", "-M", "-p", "-U3", "--no-color")


def commit_diff(repo: str | Path, parent: str, commit: str, paths: list[str]) -> bytes:
    """The diff of `paths` from `parent` to `commit` with 3 lines of context: the bytes
    `git diff <parent> <commit> -- <paths>` prints with git's default configuration
    (plumbing, so no user diff setting changes them)."""
    return _git(repo, "--literal-pathspecs", *_DIFF_ARGS, parent, commit, "--", *paths)


def _pathspec_bytes(paths: Iterable[str]) -> int:
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
        size = _pathspec_bytes(paths)
        if groups[-1] and union_size + size > PATHSPEC_BYTES:
            groups.append([])
            union_size = 0
        groups[-1].append(commit)
        union_size += size
    for group in groups:
        if not group:
            continue
        union = set().union(*(selected[c] for c in group))
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
            out = _git(
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


def count_hunks(diff: bytes, profile: str = "default") -> int:
    """The `@@` hunks of a git diff that a profile counts: every one, or for `birch` those
    outside added and deleted files (as `hunk_count` in the characterize document)."""
    if profile != "birch":
        return len(_HUNK_HEADER.findall(diff))
    starts = [m.start() for m in _FILE_HEADER.finditer(diff)] + [len(diff)]
    total = 0
    for begin, end in zip(starts, starts[1:], strict=False):
        section = diff[begin:end]
        first_hunk = _HUNK_HEADER.search(section)
        header = section[: first_hunk.start()] if first_hunk else section
        if not _WHOLE_FILE.search(header):
            total += len(_HUNK_HEADER.findall(section))
    return total


# --------------------------------------------------------------------------- scanning


@dataclass(frozen=True)
class Candidate:
    """A bug-fix commit whose source change has the right number of hunks."""

    commit: CommitInfo
    parent: str
    paths: tuple[str, ...]
    diff: bytes
    hunk_count: int

    def meta(self) -> dict[str, Any]:
        return {
            "id": self.commit.hash,
            "commit": self.commit.hash,
            "parent": self.parent,
            "summary": self.commit.summary,
            "date": self.commit.date.isoformat(),
            "author": self.commit.author,
            "error": None,
        }


@dataclass
class MineStats:
    """Counts of one run. Every scanned commit ends in one bucket: out_of_dates, not
    matched by the message (not counted), roots, or matched; every matched one in
    resumed, no_source, out_of_range or candidates; every candidate is written (errors
    among them) unless the run is interrupted."""

    scanned: int = 0
    out_of_dates: int = 0
    matched: int = 0
    roots: int = 0
    resumed: int = 0
    no_source: int = 0
    out_of_range: int = 0
    candidates: int = 0
    written: int = 0
    errors: int = 0
    scan_seconds: float = 0.0
    seconds: float = 0.0
    started: float = field(default_factory=time.perf_counter)

    def to_dict(self) -> dict[str, Any]:
        return {
            k: (round(v, 3) if isinstance(v, float) else v)
            for k, v in self.__dict__.items()
            if k != "started"
        }


def scan_candidates(
    repo: str | Path,
    options: MineOptions | None = None,
    *,
    skip: set[str] | frozenset[str] = frozenset(),
    stats: MineStats | None = None,
    walker: str = "git",
    tick: Callable[[], None] | None = None,
) -> Iterator[Candidate]:
    """The candidates of `repo`, oldest first, without characterizing them. Commits in
    `skip` (already written) are passed over before any diff is made."""
    options = options or MineOptions()
    stats = stats if stats is not None else MineStats()
    repo = check_repository(repo)
    if walker not in WALKERS:
        raise HunkmetricsError(f"unknown walker {walker!r} (use {' or '.join(WALKERS)})")
    walk = (walk_commits if walker == "git" else walk_commits_pydriller)(repo, options.branch)
    batch: list[CommitInfo] = []
    clock = time.perf_counter
    for commit in walk:
        stats.scanned += 1
        if tick is not None:
            tick()
        if (options.since is not None and commit.date < options.since) or (
            options.until is not None and commit.date > options.until
        ):
            stats.out_of_dates += 1
            continue
        if not options.grep.search(commit.message):
            continue
        if not commit.parents:
            stats.roots += 1
            continue
        stats.matched += 1
        if commit.hash in skip:
            stats.resumed += 1
            continue
        batch.append(commit)
        if len(batch) >= BATCH_COMMITS:
            began = clock()
            found = _examine(repo, batch, options, stats)
            stats.scan_seconds += clock() - began
            yield from found
            batch = []
    if batch:
        began = clock()
        found = _examine(repo, batch, options, stats)
        stats.scan_seconds += clock() - began
        yield from found


def _examine(
    repo: Path, batch: list[CommitInfo], options: MineOptions, stats: MineStats
) -> list[Candidate]:
    changed = changed_files(repo, [c.hash for c in batch])
    selected: dict[str, list[str]] = {}
    for commit in batch:
        paths = source_paths(changed.get(commit.hash, []), options)
        if paths:
            selected[commit.hash] = paths
        else:
            stats.no_source += 1
    too_long = {c for c, paths in selected.items() if _pathspec_bytes(paths) > MAX_PATHSPEC_BYTES}
    diffs = source_diffs(
        repo,
        {c: p for c, p in selected.items() if c not in too_long},
        changed,
        {c.hash: c.parents[0] for c in batch},
    )
    found: list[Candidate] = []
    for commit in batch:
        if commit.hash not in selected:
            continue
        paths = tuple(selected[commit.hash])
        if commit.hash in too_long:  # characterizing it fails with a clear error
            stats.candidates += 1
            found.append(Candidate(commit, commit.parents[0], paths, b"", -1))
            continue
        diff = diffs.get(commit.hash, b"")
        hunks = count_hunks(diff, options.profile)
        if hunks < options.min_hunks or (
            options.max_hunks is not None and hunks > options.max_hunks
        ):
            stats.out_of_range += 1
            continue
        stats.candidates += 1
        found.append(Candidate(commit, commit.parents[0], paths, diff, hunks))
    return found


# --------------------------------------------------------------------------- characterizing


def characterize_candidate(
    candidate: Candidate, repo: str, profile: str = "default"
) -> dict[str, Any]:
    """One output record: the commit's fields, then the characterize/v1 document, or
    `error` (one line) and `hunk_count` when it could not be characterized."""
    record = candidate.meta()
    try:
        if candidate.hunk_count < 0:
            raise HunkmetricsError(
                f"{len(candidate.paths)} source files: too many to diff in one command"
            )
        with open_workspace(candidate.diff, repo=repo, rev=candidate.parent) as workspace:
            document = characterize_workspace(workspace, profile=profile).to_dict()
    except Exception as exc:
        record["error"] = error_line(exc)
        record["hunk_count"] = candidate.hunk_count if candidate.hunk_count >= 0 else None
        return record
    record.update(document)
    return record


def _crashed(candidate: Candidate) -> dict[str, Any]:
    record = candidate.meta()
    record["error"] = (
        "the worker process died while characterizing this commit (a crash or out of memory)"
    )
    record["hunk_count"] = candidate.hunk_count
    return record


class _Interrupt:
    """Ctrl-C while mining: the first one asks the driver to stop at the next safe point
    (never inside the process pool's machinery, which can hang when interrupted); a
    second one interrupts at once."""

    def __init__(self) -> None:
        self.requested = False
        self._previous: Any = None
        self._installed = False

    def __enter__(self) -> _Interrupt:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
            self._installed = True
        return self

    def _handle(self, signum: int, frame: object) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True

    def check(self) -> None:
        if self.requested:
            raise KeyboardInterrupt

    def __exit__(self, *exc: object) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, self._previous)


def _run_parallel(
    candidates: Iterable[Candidate],
    jobs: int,
    repo: str,
    profile: str,
    emit: Callable[[dict[str, Any]], None],
    check: Callable[[], None],
) -> None:
    """Characterize in `jobs` worker processes (batch's executor and task loop). A
    commit whose worker dies, alone as well, gets a crash record; but when workers die
    before any commit ever succeeded, no commit is to blame and the run stops."""
    succeeded = False
    unproven: list[Candidate] = []  # crashed before anything succeeded

    def deliver(candidate: Candidate, record: dict[str, Any]) -> None:
        nonlocal succeeded
        succeeded = True
        for earlier in unproven:
            emit(_crashed(earlier))
        unproven.clear()
        emit(record)

    def crashed(candidate: Candidate, exc: BaseException) -> None:
        if succeeded:
            emit(_crashed(candidate))
        else:
            unproven.append(candidate)

    executor = LocalExecutor(jobs)
    finished = False
    try:
        # characterize_candidate is looked up here, at call time (tests replace it).
        run_tasks(
            executor,
            candidates,
            characterize_candidate,
            arguments=lambda candidate: (candidate, repo, profile),
            deliver=deliver,
            crashed=crashed,
            window=jobs * WINDOW_PER_JOB,
            check=check,
        )
        finished = True
    finally:
        executor.close(cancel=not finished)
    if unproven:
        raise HunkmetricsError(
            "the worker processes die before characterizing any commit (a script calling "
            "mine() with jobs > 1 needs an `if __name__ == '__main__':` guard; try --jobs 1 "
            "to find a crashing commit)"
        )


def mine(
    repo: str | Path,
    out: str | Path,
    options: MineOptions | None = None,
    *,
    jobs: int = 1,
    resume: bool = False,
    walker: str = "git",
    on_progress: Callable[[MineStats], None] | None = None,
) -> MineStats:
    """Mine `repo` into the JSON Lines file `out` (one record per candidate; see
    `characterize_candidate`). `jobs > 1` characterizes in that many processes
    ("spawn" start method: a script calling this needs an `if __name__ == "__main__":`
    guard); records are then written as they finish. With `resume`, commits already in
    `out` are skipped (and a torn last line is repaired); without it, an existing
    non-empty `out` is an error. Ctrl-C stops at the next record, raising
    KeyboardInterrupt; what was written stays valid for `resume`. Returns the counts."""
    options = options or MineOptions()
    if jobs < 1:
        raise HunkmetricsError("--jobs must be at least 1")
    repo_path = check_repository(repo)
    resolve_ref(repo_path, options.branch)  # fail before creating the output
    try:
        writer = JsonlWriter(out, resume=resume)
    except FileExistsError as exc:
        raise HunkmetricsError(str(exc)) from None
    except OSError as exc:
        raise HunkmetricsError(f"{out}: cannot write ({exc.strerror or exc})") from None
    stats = MineStats()
    last = [0.0]
    with _Interrupt() as interrupt, writer:

        def tick(force: bool = False) -> None:
            interrupt.check()
            now = time.perf_counter()
            stats.seconds = now - stats.started
            if on_progress is not None and (force or now - last[0] >= PROGRESS_EVERY):
                last[0] = now
                on_progress(stats)

        def emit(record: dict[str, Any]) -> None:
            if record.get("error"):
                # After a Ctrl-C, git children of this process may have been killed by
                # it: such an error is not the commit's; leave the commit for --resume.
                interrupt.check()
            writer.write(record)
            stats.written += 1
            if record.get("error"):
                stats.errors += 1
            tick()

        candidates = scan_candidates(
            repo_path,
            options,
            skip=frozenset(writer.done_ids),
            stats=stats,
            walker=walker,
            tick=tick,
        )
        try:
            if jobs == 1:
                for candidate in candidates:
                    emit(characterize_candidate(candidate, str(repo), options.profile))
            else:
                _run_parallel(candidates, jobs, str(repo), options.profile, emit, interrupt.check)
        except HunkmetricsError:
            interrupt.check()  # git killed by the Ctrl-C: report the interrupt instead
            raise
        tick(force=True)
    return stats


__all__ = [
    "DEFAULT_GREP",
    "Candidate",
    "Change",
    "CommitInfo",
    "MineOptions",
    "MineStats",
    "changed_files",
    "characterize_candidate",
    "commit_diff",
    "count_hunks",
    "mine",
    "mine_options",
    "scan_candidates",
    "source_diffs",
    "source_paths",
    "walk_commits",
    "walk_commits_pydriller",
]
