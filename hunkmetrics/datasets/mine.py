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
   `git diff <parent> <commit> -- <source paths>` prints). It is parsed, its hunks are
   counted by the profile's rule (`counted_hunks`, as the characterize document's
   `hunk_count`) and commits outside `[min_hunks, max_hunks]` are dropped, and so are
   commits with fewer than `min_code_hunks` (default 2) hunks that change code rather
   than only comments or whitespace (lang/hunk_kind.py, from the diff alone).
5. **Characterize** each candidate against its parent (the exact pre-image):
   `open_workspace(diff, repo=repo, rev=parent)` then `Workspace.characterize`, in
   worker processes when `jobs > 1`. The driver writes every record through
   `JsonlWriter`.

Steps 1, 3 and 4 run git through `commits` (and so `sources.git`); this module decides
what counts.
"""

from __future__ import annotations

import re
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from datetime import time as dtime
from pathlib import Path
from typing import Any

from ..documents import omit_pairs
from ..errors import HunkmetricsError, MemoryLimitError, PatchError, error_line
from ..lang.hunk_kind import hunk_kind
from ..lang.index import ParseCache
from ..lang.languages import all_rules
from ..lang.selection import (
    DEFAULT_SELECTION,
    EXCLUDE_TESTS_DEFAULT,
    PathSelection,
    path_selection,
)
from ..memory import AUTO, resolve_limit
from ..metrics.profiles import DEFAULT_PROFILE, PROFILE_NAMES
from ..metrics.profiles import profile as profile_named
from ..patch.model import Patch
from ..patch.parse import parse_patch
from ..sources.git import CatFilePool
from ..sources.readers import open_reader
from ..sources.resolve import resolve_sources
from ..workspace import Workspace, load_patch, open_workspace
from .commits import (
    Change,
    CommitInfo,
    changed_files,
    check_repository,
    pathspec_bytes,
    resolve_ref,
    source_diffs,
    walk_commits,
)
from .executors import WorkerContext, call, make_executor, uses_context
from .lock import output_lock
from .records import JsonlWriter
from .repos import RepoSpec, done_commits, mark_done, read_done, record_id, repo_specs
from .scheduler import run_tasks

DEFAULT_GREP = r"\b(fix(e[sd])?|fixing|bug|issue)\b|#\d+"

BATCH_COMMITS = 64  # commits per `git diff-tree --stdin` call
MAX_PATHSPEC_BYTES = 1024 * 1024  # a commit whose source paths exceed this is an error
WINDOW_PER_JOB = 4  # tasks in flight per worker process
PROGRESS_EVERY = 0.2  # seconds between progress callbacks


# --------------------------------------------------------------------------- options


MAX_HUNKS_DEFAULT = 1000  # a bug fix rarely has more; beyond, characterizing takes seconds
OVER_MAX = ("keep", "drop")


@dataclass(frozen=True)
class MineOptions:
    """What to mine. Build it with `mine_options(...)`, which validates the inputs."""

    grep: re.Pattern[str] = field(default_factory=lambda: re.compile(DEFAULT_GREP, re.I))
    since: datetime | None = None
    until: datetime | None = None
    min_hunks: int = 2
    # Commits with fewer hunks that change code (not only comments or whitespace) are
    # dropped; None: min(2, min_hunks).
    min_code_hunks: int | None = None
    max_hunks: int | None = MAX_HUNKS_DEFAULT
    # Above max_hunks: "keep" writes the commit with its counts and why it was not
    # characterized; "drop" leaves it out like a commit below min_hunks.
    over_max: str = "keep"
    profile: str = DEFAULT_PROFILE
    branch: str | None = None
    selection: PathSelection = DEFAULT_SELECTION
    pairs: bool = False  # each record's divergence pairs (n(n-1)/2 of them): on request

    @property
    def languages(self) -> frozenset[str]:
        """The languages whose files count (with `all_files`: every known one, but
        every file counts)."""
        chosen = self.selection.languages
        return chosen if chosen is not None else frozenset(all_rules())

    @property
    def exclude_tests(self) -> bool:
        return self.selection.exclude_tests


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
    min_code_hunks: int | None = None,
    max_hunks: int | None = MAX_HUNKS_DEFAULT,
    over_max: str = "keep",
    languages: str | Iterable[str] | None = None,
    profile: str = DEFAULT_PROFILE,
    exclude_tests: bool = EXCLUDE_TESTS_DEFAULT,
    branch: str | None = None,
    all_files: bool = False,
    include: Iterable[str] | None = None,
    exclude: Iterable[str] | None = None,
    ignore_comment_only: bool = False,
    pairs: bool = False,
) -> MineOptions:
    """Validated options; every problem is a HunkmetricsError with a one-line message.
    `languages`, `all_files`, `include`, `exclude` and `exclude_tests` make the path
    selection (lang/selection.py), the same as every other command's."""
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
    if min_code_hunks is not None and min_code_hunks < 0:
        raise HunkmetricsError("--min-code-hunks must be at least 0")
    if min_hunks < 1:
        raise HunkmetricsError("--min-hunks must be at least 1")
    if over_max not in OVER_MAX:
        raise HunkmetricsError(f"--over-max-hunks {over_max!r}: use keep or drop")
    if max_hunks is not None and max_hunks <= 0:
        max_hunks = None  # 0: no limit
    if max_hunks is not None and max_hunks < min_hunks:
        raise HunkmetricsError(f"--max-hunks ({max_hunks}) is below --min-hunks ({min_hunks})")
    if profile not in PROFILE_NAMES:
        raise HunkmetricsError(f"unknown profile {profile!r} (use {' or '.join(PROFILE_NAMES)})")
    return MineOptions(
        grep=compile_grep(DEFAULT_GREP if grep is None else grep),
        since=since,
        until=until,
        min_hunks=min_hunks,
        min_code_hunks=min_code_hunks,
        max_hunks=max_hunks,
        over_max=over_max,
        profile=profile,
        branch=branch,
        selection=path_selection(
            all_files=all_files,
            include=include,
            exclude=exclude,
            exclude_tests=exclude_tests,
            languages=None if languages is None else parse_languages(languages),
            ignore_comment_only=ignore_comment_only,
        ),
        pairs=pairs,
    )


# --------------------------------------------------------------------------- files and hunks


def is_source_change(change: Change, selection: PathSelection = DEFAULT_SELECTION) -> bool:
    """Whether the path selection counts this change (its language by the new path,
    else the old; tests by the pre-image path): the same rule as every command's."""
    path = change.new_path or change.old_path
    assert path is not None
    return selection.reason(path, change.old_path) is None


def source_paths(changes: list[Change], options: MineOptions) -> list[str]:
    """The pathspec of a commit's source change (both sides of a renamed file)."""
    paths: dict[str, None] = {}
    for change in changes:
        if is_source_change(change, options.selection):
            paths.update(dict.fromkeys(change.paths))
    return list(paths)


def count_hunks(diff: bytes, profile: str = DEFAULT_PROFILE) -> int:
    """The hunks of a git diff that `profile` counts: `counted_hunks` of the parsed diff,
    so exactly the characterize document's `hunk_count` (for `birch`, hunks of added
    and deleted files are left out). A diff that does not parse raises PatchError."""
    kept, _dropped = profile_named(profile).counted_hunks(parse_patch(diff))
    return len(kept)


# --------------------------------------------------------------------------- scanning


@dataclass(frozen=True)
class Candidate:
    """A bug-fix commit whose source change has the right number of hunks."""

    commit: CommitInfo
    parent: str
    paths: tuple[str, ...]
    diff: bytes
    hunk_count: int  # -1: unknown (the diff could not be made or parsed)
    # The parsed diff, when the scan has it: not compared, and not sent to workers
    # (they parse `diff`, which is smaller to send).
    patch: Patch | None = field(default=None, compare=False, repr=False)
    problem: str | None = None  # why the scan could not make its diff: its error line
    # The path selection the scan used: the characterize document records it.
    selection: PathSelection = field(default=DEFAULT_SELECTION, compare=False, repr=False)
    # Hunks that change code, from the diff alone (-1: unknown), and the least the run
    # asks for: the characterize step checks it again with the sources.
    code_hunks: int = -1
    min_code_hunks: int = 0
    # The repository (its path, for the workers; its name, for the record) and whether
    # the run has several, whose ids then start with the name.
    repo: str = ""
    repository: str | None = None
    qualified: bool = False

    def meta(self) -> dict[str, Any]:
        named = self.repository if self.qualified else None
        return {
            "id": record_id(named, self.commit.hash),
            **({"repository": self.repository} if self.repository is not None else {}),
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
    repositories: int = 0  # scanned to the end in this run
    repositories_resumed: int = 0  # finished by an earlier run (--resume), not walked again
    warnings: list[str] = field(default_factory=list)  # resume: the damaged lines removed
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
    tick: Callable[[], None] | None = None,
) -> Iterator[Candidate]:
    """The candidates of `repo`, oldest first, without characterizing them. Commits in
    `skip` (already written) are passed over before any diff is made."""
    options = options or MineOptions()
    stats = stats if stats is not None else MineStats()
    repo = check_repository(repo)
    walk = walk_commits(repo, options.branch)
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
    too_long = {c for c, paths in selected.items() if pathspec_bytes(paths) > MAX_PATHSPEC_BYTES}
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
        chosen = tuple(selected[commit.hash])
        if commit.hash in too_long:  # characterizing it fails with a clear error
            stats.candidates += 1
            problem = f"{len(chosen)} source files: too many to diff in one command"
            found.append(Candidate(commit, commit.parents[0], chosen, b"", -1, problem=problem))
            continue
        diff = diffs.get(commit.hash, b"")
        try:
            patch: Patch | None = options.selection.apply(parse_patch(diff))
        except PatchError:  # characterizing it gives the same error, on its line
            patch = None
        hunks, code = _hunk_counts(patch, options)
        over = patch is not None and options.max_hunks is not None and hunks > options.max_hunks
        if over and options.over_max == "keep" and code >= _min_code(options):
            stats.candidates += 1  # a curator's candidate: its counts, not its metrics
            problem = (
                f"{hunks:,} hunks, more than --max-hunks {options.max_hunks:,}: kept with its "
                "counts, not characterized (raise --max-hunks to characterize it)"
            )
            found.append(Candidate(commit, commit.parents[0], chosen, b"", hunks, problem=problem))
            continue
        if patch is not None and (hunks < options.min_hunks or over or code < _min_code(options)):
            stats.out_of_range += 1
            continue
        stats.candidates += 1
        found.append(
            Candidate(
                commit,
                commit.parents[0],
                chosen,
                diff,
                hunks,
                patch,
                selection=options.selection,
                code_hunks=code,
                min_code_hunks=_min_code(options),
            )
        )
    return found


def _min_code(options: MineOptions) -> int:
    if options.min_code_hunks is not None:
        return options.min_code_hunks
    return min(2, options.min_hunks)


def _hunk_counts(patch: Patch | None, options: MineOptions) -> tuple[int, int]:
    """(hunks the profile counts, those of them that change code), from the diff alone;
    with `ignore_comment_only` the first is the second. (-1, -1) without a patch."""
    if patch is None:
        return -1, -1
    counted = profile_named(options.profile).counted_hunks(patch)[0]
    cache = ParseCache()
    code = sum(1 for hunk, file in counted if hunk_kind(hunk, file, None, cache) == "code")
    return (code if options.selection.ignore_comment_only else len(counted)), code


# --------------------------------------------------------------------------- characterizing


def _workspace(candidate: Candidate, repo: str, objects: CatFilePool | None) -> Workspace:
    """The candidate's workspace against its parent; with `objects`, read through the
    worker's `git cat-file` for `repo` (as `open_workspace` does with its own)."""
    patch = candidate.diff if candidate.patch is None else candidate.patch
    if objects is None:
        return open_workspace(patch, repo=repo, rev=candidate.parent, selection=candidate.selection)
    parsed = load_patch(patch, selection=candidate.selection)
    reader = open_reader(repo, candidate.parent, objects=objects)
    try:
        sources = resolve_sources(parsed, reader)
    except Exception:
        reader.close()
        raise
    return Workspace(parsed, sources, ParseCache(), candidate.selection)


@uses_context
def characterize_candidate(
    candidate: Candidate,
    repo: str,
    profile: str = DEFAULT_PROFILE,
    pairs: bool = False,
    *,
    context: WorkerContext | None = None,
) -> dict[str, Any]:
    """One output record: the commit's fields, then the characterize/v1 document (its
    divergence pairs with `pairs`), or `error` (one line) and `hunk_count` when it
    could not be characterized. `context`: the worker's, whose `git cat-file` serves
    every commit (by default, each commit starts its own)."""
    record = candidate.meta()
    objects = context.git if context is not None else None
    try:
        if candidate.problem is not None:
            raise HunkmetricsError(candidate.problem)
        with _workspace(candidate, repo, objects) as workspace:
            # lazy unless the pairs are written: listing n(n-1)/2 pairs as dicts only to
            # drop them took ~500 bytes a pair (a 10,000-hunk commit ran out of memory)
            document = workspace.characterize(profile=profile).to_dict(lazy_pairs=not pairs)
        _check_code_hunks(candidate, document)
        if not pairs:
            document = omit_pairs(document)
    except Exception as exc:
        if objects is not None and not isinstance(exc, HunkmetricsError):
            objects.discard(repo)  # a bug may have left the process in any state
        record["error"] = error_line(exc)
        record["hunk_count"] = candidate.hunk_count if candidate.hunk_count >= 0 else None
        return record
    record.update(document)
    return record


def _check_code_hunks(candidate: Candidate, document: dict[str, Any]) -> None:
    """The scan counts code hunks from the diff alone; the sources can show that fewer
    change code (a Javadoc line the hunk did not show as one). Such a commit is no
    multi-hunk code fix: an error row saying so, not a document that contradicts the
    selection."""
    code = document["hunk_kinds"]["code"]
    if code < candidate.min_code_hunks:
        raise HunkmetricsError(
            f"not a multi-hunk code fix: with the sources {code} hunk(s) change code, fewer "
            f"than --min-code-hunks {candidate.min_code_hunks} (the diff alone counted "
            f"{candidate.code_hunks})"
        )


def _arguments(candidate: Candidate, repo: str, profile: str, pairs: bool) -> tuple[Any, ...]:
    """characterize_candidate's arguments; `pairs` only when asked for (a replacement
    of the function, as tests make, may take the first three only)."""
    return (candidate, repo, profile, *((True,) if pairs else ()))


def _crashed(candidate: Candidate, exc: BaseException | None = None) -> dict[str, Any]:
    record = candidate.meta()
    record["error"] = (
        str(exc)
        if isinstance(exc, MemoryLimitError)
        else "the worker process died while characterizing this commit (a crash, or out of "
        "memory: lower --max-memory so that it is stopped in time)"
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
    profile: str,
    emit: Callable[[dict[str, Any]], None],
    check: Callable[[], None],
    pairs: bool = False,
    max_memory: int | None = None,
    executor_kind: str = "local",
    scheduler: str | None = None,
) -> None:
    """Characterize in `jobs` worker processes (batch's executor and task loop), each
    under `max_memory` bytes (a commit that needs more gets a record that says so), or
    on a Dask cluster at `scheduler`. A commit whose worker dies, alone as well, gets a
    crash record; but when workers die before any commit ever succeeded, no commit is to
    blame and the run stops."""
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
        if succeeded or isinstance(exc, MemoryLimitError):  # the latter is the commit's
            emit(_crashed(candidate, exc))
        else:
            unproven.append(candidate)

    executor = make_executor(
        executor_kind, jobs=jobs, scheduler=scheduler, preload=(__name__,), max_memory=max_memory
    )
    finished = False
    try:
        # characterize_candidate is looked up here, at call time (tests replace it).
        run_tasks(
            executor,
            candidates,
            characterize_candidate,
            arguments=lambda candidate: _arguments(
                replace(candidate, patch=None), candidate.repo, profile, pairs
            ),
            deliver=deliver,
            crashed=crashed,
            window=executor.slots * WINDOW_PER_JOB,
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
    repo: str | Path | Sequence[RepoSpec],
    out: str | Path,
    options: MineOptions | None = None,
    *,
    jobs: int = 1,
    resume: bool = False,
    on_progress: Callable[[MineStats], None] | None = None,
    max_memory: int | str | None = AUTO,
    executor: str = "local",
    scheduler: str | None = None,
) -> MineStats:
    """Mine `repo` (a repository, or several as `RepoSpec`s: `repos.read_repo_list`)
    into the JSON Lines file `out` (one record per candidate; see
    `characterize_candidate`). `jobs > 1` characterizes in that many processes
    (executors.start_method: where they are spawned, a script calling this needs an
    `if __name__ == "__main__":` guard), `executor="dask"` on the cluster at `scheduler`;
    records are then written as they finish. With `resume`, commits already in `out`
    are skipped (and a torn last line is repaired), and so are the repositories a run
    over several finished; without it, an existing non-empty `out` is an error. Ctrl-C
    stops at the next record, raising KeyboardInterrupt; what was written stays valid
    for `resume`. With `jobs > 1` each worker runs under `max_memory`
    (`memory.resolve_limit`: by default a share of the machine's memory); `jobs=1` works
    in this process, unlimited. Returns the counts."""
    options = options or MineOptions()
    if jobs < 1:
        raise HunkmetricsError("--jobs must be at least 1")
    specs = repo_specs([repo]) if isinstance(repo, str | Path) else list(repo)
    if not specs:
        raise HunkmetricsError("no repository to mine")
    plans = []
    for spec in specs:
        path = check_repository(spec.path)
        spec_options = _options_for(spec, options)
        resolve_ref(path, spec_options.branch)  # fail before creating the output
        plans.append(_Plan(spec, path, spec_options))
    with output_lock(out, "mine", keep_empty=True):
        limit = resolve_limit(max_memory, jobs)
        return _mine_locked(
            plans, out, jobs, resume, on_progress, limit, executor, scheduler, options
        )


@dataclass(frozen=True)
class _Plan:
    """One repository of a run: its spec, its checked path, and its options."""

    spec: RepoSpec
    path: Path
    options: MineOptions


def _options_for(spec: RepoSpec, options: MineOptions) -> MineOptions:
    """The run's options with the repository's own dates and branch, where it has them."""
    changed: dict[str, Any] = {}
    if spec.since is not None:
        changed["since"] = parse_date(spec.since, option=f"{spec.name}: since")
    if spec.until is not None:
        changed["until"] = parse_date(spec.until, end_of_day=True, option=f"{spec.name}: until")
    if spec.branch is not None:
        changed["branch"] = spec.branch
    if not changed:
        return options
    merged = replace(options, **changed)
    if merged.since is not None and merged.until is not None and merged.since > merged.until:
        raise HunkmetricsError(f"{spec.name}: since is after until")
    return merged


class _Finished:
    """Which repositories of a run over several are done: scanned to the end, with every
    candidate written; each is noted in the side file (repos.py) as it completes."""

    def __init__(self, out: str | Path, active: bool) -> None:
        self.out, self.active = out, active
        self.pending: dict[str, int] = {}
        self.scanned: set[str] = set()

    def sent(self, name: str) -> None:
        self.pending[name] = self.pending.get(name, 0) + 1

    def written(self, name: str | None) -> None:
        if name is not None and name in self.pending:
            self.pending[name] -= 1
            self._check(name)

    def scan_done(self, name: str) -> None:
        self.scanned.add(name)
        self._check(name)

    def _check(self, name: str) -> None:
        if self.active and name in self.scanned and not self.pending.get(name):
            self.scanned.discard(name)
            mark_done(self.out, name)


def _mine_locked(
    plans: list[_Plan],
    out: str | Path,
    jobs: int,
    resume: bool,
    on_progress: Callable[[MineStats], None] | None,
    max_memory: int | None,
    executor: str,
    scheduler: str | None,
    options: MineOptions,
) -> MineStats:
    try:
        writer = JsonlWriter(out, resume=resume)
    except FileExistsError as exc:
        raise HunkmetricsError(str(exc)) from None
    except OSError as exc:
        raise HunkmetricsError(f"{out}: cannot write ({exc.strerror or exc})") from None
    stats = MineStats(warnings=writer.repair_warnings())
    many = len(plans) > 1
    finished = read_done(out) if (resume and many) else set()
    tracker = _Finished(out, many)
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
            tracker.written(record.get("repository"))
            tick()

        def candidates() -> Iterator[Candidate]:
            done = frozenset(writer.done_ids)
            for plan in plans:
                name = plan.spec.name
                if name in finished:
                    stats.repositories_resumed += 1
                    continue
                skip = done_commits(done, name if many else None)
                for candidate in scan_candidates(
                    plan.path, plan.options, skip=frozenset(skip), stats=stats, tick=tick
                ):
                    tracker.sent(name)
                    yield replace(candidate, repo=str(plan.path), repository=name, qualified=many)
                stats.repositories += 1
                tracker.scan_done(name)

        try:
            if jobs == 1 and executor == "local":  # in this process, as a library caller expects
                context = WorkerContext()
                try:
                    for candidate in candidates():
                        arguments = _arguments(
                            candidate, candidate.repo, options.profile, options.pairs
                        )
                        emit(call(characterize_candidate, arguments, context))
                finally:
                    context.close()
            else:
                _run_parallel(
                    candidates(),
                    jobs,
                    options.profile,
                    emit,
                    interrupt.check,
                    options.pairs,
                    max_memory,
                    executor,
                    scheduler,
                )
        except HunkmetricsError:
            interrupt.check()  # git killed by the Ctrl-C: report the interrupt instead
            raise
        tick(force=True)
    return stats


__all__ = [
    "DEFAULT_GREP",
    "Candidate",
    "MineOptions",
    "MineStats",
    "characterize_candidate",
    "count_hunks",
    "is_source_change",
    "mine",
    "mine_options",
    "parse_date",
    "scan_candidates",
    "source_paths",
]
