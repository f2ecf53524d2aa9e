"""`agents evaluate` as a library call: every run measured in parallel, one record per
attempt written with the datasets' no-loss JSON Lines writer, resumable."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from hunkmetrics.agents.evaluate import (
    Reference,
    Settings,
    error_record,
    evaluate_run,
    read_attempts,
    task_reference,
)
from hunkmetrics.agents.model import Attempt
from hunkmetrics.agents.runs import Run, bug_key, read_runs
from hunkmetrics.datasets.executors import WorkerContext, crash_line, make_executor, uses_context
from hunkmetrics.datasets.inputs import Defaults, open_input
from hunkmetrics.datasets.lock import output_lock
from hunkmetrics.datasets.records import JsonlWriter, encode_record
from hunkmetrics.datasets.scheduler import run_tasks
from hunkmetrics.errors import HunkmetricsError
from hunkmetrics.memory import AUTO, resolve_limit


def read_references(
    path: str | Path,
    *,
    repo: str | Path | None = None,
    rev: str | None = None,
    reverse: bool = False,
    repos: str | Path | None = None,
) -> dict[str, Reference]:
    """The developer patches by bug key (`bug_key`): a directory of `<bug>.diff` files or
    a manifest CSV `id,patch[,repo,rev,reverse]`, as `batch` reads them, or a SWE-bench
    or Multi-SWE-bench dataset file (`.jsonl`, `.json`, Parquet: told by its rows), each
    gold patch placed in its repository under `repos` at its base commit."""
    from hunkmetrics.agents.swebench.dataset import is_dataset, read_dataset

    if is_dataset(Path(path)):
        references = {}
        for instance, task in read_dataset(Path(path)).items():
            warnings: list[str] = []
            if repos is None:
                warnings.append(
                    f"no --repos: the gold patch of {instance} is placed from the diff alone"
                )
            ref = task_reference(task, str(repos) if repos is not None else None, warnings)
            references[bug_key(instance)] = replace(ref, warnings=tuple(warnings))
        return references
    checked = open_input(path, Defaults(repo=repo, rev=rev, reverse=reverse))
    return {
        bug_key(item.id): Reference(item.id, item.patch, item.repo, item.rev, item.reverse)
        for item in checked.items()
    }


@dataclass
class Summary:
    """What a run of `evaluate_runs` did."""

    total: int
    skipped: int
    written: int
    errors: int
    crashed: int


@uses_context
def _work(
    run: Run, reference: Reference | None, settings: Settings, *, context: WorkerContext
) -> dict[str, Any]:
    def read(path: str, fmt: str | None, s: Settings) -> list[Attempt]:
        # A file of many runs (an Inspect log, an OpenHands output.jsonl) is read once
        # by this worker, not once a run; its runs come one after the other.
        key = ("attempts", path, fmt, s.profile, s.dedupe_usage)
        return context.kept(key, lambda: read_attempts(path, fmt, s))

    return evaluate_run(run, reference, settings, read)


def evaluate_runs(
    runs_path: str | Path,
    references: dict[str, Reference],
    settings: Settings,
    *,
    out: str | Path | None = None,
    jobs: int = 1,
    resume: bool = False,
    on_start: Callable[[int], None] = lambda total: None,
    on_record: Callable[[dict[str, Any]], None] = lambda record: None,
    max_memory: int | str | None = AUTO,
    to_stdout: bool = True,
    logs: Sequence[str | Path] = (),
) -> Summary:
    """Evaluate every run under `runs_path` against `references`, writing one attempt
    record per line to `out` (stdout when None and `to_stdout`; else only `on_record`
    sees them). With `resume`, runs already in `out`
    are skipped; `jobs` > 1 uses that many worker processes, each under `max_memory`
    (`memory.resolve_limit`: by default a share of the machine's memory). `logs` are
    SWE-bench evaluation logs and run reports for SWE-bench predictions."""
    runs = read_runs(runs_path, logs)
    with contextlib.ExitStack() as held:
        writer = None
        if out is not None:  # one writer at a time (datasets/lock.py), as batch and mine
            held.enter_context(output_lock(out, "agents evaluate", keep_empty=True))
            try:
                writer = JsonlWriter(out, resume=resume)
            except FileExistsError as exc:
                raise HunkmetricsError(str(exc)) from None
        return _evaluate_into(
            writer, runs, references, settings, jobs, to_stdout, on_start, on_record, max_memory
        )


def _evaluate_into(
    writer: JsonlWriter | None,
    runs: list[Run],
    references: dict[str, Reference],
    settings: Settings,
    jobs: int,
    to_stdout: bool,
    on_start: Callable[[int], None],
    on_record: Callable[[dict[str, Any]], None],
    max_memory: int | str | None,
) -> Summary:
    done = writer.done_ids if writer is not None else set()
    todo = [r for r in runs if r.id not in done]
    summary = Summary(len(runs), len(runs) - len(todo), 0, 0, 0)
    on_start(len(todo))

    def emit(record: dict[str, Any]) -> None:
        if writer is not None:
            writer.write(record)
        elif to_stdout:
            sys.stdout.buffer.write(encode_record(record))
            sys.stdout.flush()
        summary.written += 1
        summary.errors += record.get("error") is not None
        on_record(record)

    def crashed(run: Run, exc: BaseException) -> None:
        summary.crashed += 1
        emit(error_record(run, settings, crash_line(exc, "run")))

    executor = make_executor(
        "local" if jobs > 1 else "inline", jobs=jobs, max_memory=resolve_limit(max_memory, jobs)
    )
    try:
        with executor:
            run_tasks(
                executor,
                todo,
                _work,
                deliver=lambda run, record: emit(record),
                crashed=crashed,
                arguments=lambda run: (run, references.get(bug_key(run.bug)), settings),
            )
    finally:
        if writer is not None:
            writer.close()
    return summary
