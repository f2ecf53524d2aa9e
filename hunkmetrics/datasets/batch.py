"""Characterize every patch of a dataset, in parallel, into one JSON Lines file.

The driver (`run_batch`) reads the input, cuts it into small tasks, keeps a bounded
number of them in flight on an executor (local processes or a Dask cluster), and is the
only one to write the output, through `JsonlWriter`: one complete line per patch, so a
killed run loses nothing that was written and `resume=True` picks up where it stopped.

A task (`run_chunk`) is a few consecutive items. Consecutive items with the same source
share one reader, opened once and closed when the source changes or the task ends. Git
readers take their `git cat-file --batch` from the worker's context (executors.py), which
keeps one per repository across tasks (at most two): a new revision is resolved in that
same process. Workers hold no global state: the context is their loop's, passed down.

Per item, anything that goes wrong becomes that item's error line; the run goes on.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from ..documents import characterize_head, omit_pairs
from ..errors import HunkmetricsError, error_line, finite_setting
from ..lang.selection import DEFAULT_SELECTION, PathSelection
from ..memory import AUTO, resolve_limit
from ..metrics.birch_artifacts import PublishedArtifacts, read_file_order
from ..metrics.profiles import DEFAULT_PROFILE, DISTRIBUTED_WEIGHT
from ..metrics.profiles import profile as profile_named
from ..patch.parse import parse_patch, read_patch_bytes
from ..sources.git import CatFilePool
from ..sources.readers import FileReader, open_reader
from ..sources.resolve import resolve_sources
from ..workspace import Workspace
from .executors import (
    Executor,
    WorkerContext,
    crash_line,
    make_executor,
    one_line,
    uses_context,
)
from .inputs import BatchInput, Defaults, Item, open_input
from .lock import output_lock
from .records import JsonlWriter
from .scheduler import run_tasks

SCHEMA = "hunkmetrics/characterize/v1"
MAX_CHUNK = 16  # items per task at most (auto chunk size)


@dataclass(frozen=True, slots=True)
class Settings:
    """The metric settings shared by every item of a run (sent with each task)."""

    profile: str = DEFAULT_PROFILE
    cutoff: int | None = None
    distributed_weight: float = DISTRIBUTED_WEIGHT
    hunking: str = "as-given"
    selection: PathSelection = DEFAULT_SELECTION
    pairs: bool = False  # each record's divergence pairs (n(n-1)/2 of them): on request
    # The published study's artifacts to reproduce (birch; `--published-artifacts`): every
    # row's, unless its manifest row names its own.
    artifacts: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # before any row, not as every row's error
        finite_setting("the distributed weight", self.distributed_weight)


# --- the worker's side ------------------------------------------------------------------


def error_record(item: Item, settings: Settings, message: str) -> dict[str, Any]:
    """The line for an item that could not be characterized: id, error, schema, and
    the settings it was run with (`config` as requested: the cutoff may be null)."""
    return {
        "id": item.id,
        "error": one_line(message) or "unknown error",
        **characterize_head(
            item.patch,
            profile=settings.profile,
            distributed_weight=settings.distributed_weight,
            cutoff=settings.cutoff,
            hunking=settings.hunking,
            reverse=item.reverse,
            selection=settings.selection,
            pairs=settings.pairs,
        ),
    }


class _Readers:
    """The source reader of a task's current run of items: consecutive items with the
    same repository and revision share it; it is closed when the source changes and at
    the end of the task. Git readers take their `git cat-file` from `objects`, the
    worker's pool (one process per repository, kept across tasks)."""

    def __init__(self, objects: CatFilePool) -> None:
        self.objects = objects
        self._key: tuple[str | None, str | None, str | None] | None = None
        self._reader: FileReader | HunkmetricsError | None = None

    def get(self, item: Item) -> FileReader | None:
        if item.repo is None:
            return None
        if item.source_key != self._key:
            self.close()
            self._key = item.source_key
            try:
                self._reader = open_reader(
                    item.repo, item.rev, item.path_prefix, objects=self.objects
                )
            except HunkmetricsError as exc:  # e.g. no such revision: same for the run
                self._reader = exc
        if isinstance(self._reader, HunkmetricsError):
            raise self._reader
        return self._reader

    def discard(self, item: Item) -> None:
        """Close `item`'s reader and its git process (after an internal error their
        state is unknown: the next item opens fresh ones)."""
        if item.source_key == self._key:
            self.close()
        if item.repo is not None:
            self.objects.discard(item.repo)

    def close(self) -> None:
        if self._reader is not None and not isinstance(self._reader, HunkmetricsError):
            _close_quietly(self._reader)
        self._key = self._reader = None


def _close_quietly(reader: FileReader) -> None:
    with contextlib.suppress(Exception):  # a reader that fails to close: not the item's
        reader.close()


def item_artifacts(item: Item, settings: Settings) -> PublishedArtifacts | None:
    """The study's artifacts for the item: its row's (or the run's) named artifacts, and
    its file order when its row names a file-order list; None when there are none."""
    names = item.published_artifacts if item.published_artifacts is not None else settings.artifacts
    order = read_file_order(read_text(item.file_order)) if item.file_order is not None else None
    artifacts = PublishedArtifacts.named(names, order)
    if not artifacts:
        return None
    if not profile_named(settings.profile).reproduces_published_artifacts:
        raise HunkmetricsError(
            "published artifacts (--published-artifacts, the manifest's published_artifacts "
            f"or file_order) reproduce the birch study's numbers: use --profile birch, not "
            f"{settings.profile}"
        )
    return artifacts


def read_text(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise HunkmetricsError(f"{path}: cannot read the file order ({exc.strerror})") from None


def characterize_item(
    item: Item, settings: Settings, readers: _Readers | None = None
) -> dict[str, Any]:
    """One output line: the characterize document with `id` and `"error": null`, or an
    error line. Never raises for a problem of this item."""
    own = readers is None
    readers = readers or _Readers(CatFilePool(1))
    try:
        data = item.data if item.data is not None else read_patch_bytes(item.patch)
        patch = settings.selection.apply(
            parse_patch(data, name=item.patch, reverse=item.reverse, hunking=settings.hunking)
        )
        reader = readers.get(item)
        sources = resolve_sources(patch, reader) if reader is not None else None
        document = (
            Workspace(patch, sources, selection=settings.selection)
            .characterize(
                profile=settings.profile,
                cutoff=settings.cutoff,
                distributed_weight=settings.distributed_weight,
                artifacts=item_artifacts(item, settings),
            )
            # without --pairs the pairs are never listed: n(n-1)/2 dicts would be most
            # of the worker's memory (a 10,000-hunk patch has 50 M of them)
            .to_dict(lazy_pairs=not settings.pairs)
        )
        if not settings.pairs:
            document = omit_pairs(document)
        return {"id": item.id, "error": None, **document}
    except Exception as exc:  # this item's problem only: its line says so, the run goes on
        if not isinstance(exc, HunkmetricsError):
            readers.discard(item)  # a bug may have left the reader in any state
        return error_record(item, settings, error_line(exc))
    finally:
        if own:
            readers.close()
            readers.objects.close()


@uses_context
def run_chunk(
    settings: Settings, items: list[Item], context: WorkerContext | None = None
) -> list[dict[str, Any]]:
    """A task: characterize `items` in order, sharing a reader per source, and the
    worker's git processes (`context`) with its other tasks."""
    objects = context.git if context is not None else CatFilePool(WorkerContext.MAX_REPOSITORIES)
    readers = _Readers(objects)
    try:
        return [characterize_item(item, settings, readers) for item in items]
    finally:
        readers.close()
        if context is None:
            objects.close()


# --- the driver's side ------------------------------------------------------------------


class Progress(Protocol):
    def start(self, total: int) -> None: ...

    def advance(self, written: int, errors: int) -> None: ...


@dataclass
class Summary:
    """What a run did. `written` counts lines written by this run (`errors` of them are
    error lines); `skipped` items were already in the output (resume)."""

    output: Path
    total: int = 0  # items in the input
    written: int = 0
    errors: int = 0
    skipped: int = 0
    repaired: int = 0  # torn lines cut off the end of the output (resume)
    foreign: int = 0  # ids in the output that are not in this input
    worker_failures: int = 0  # tasks whose worker died (their items were retried alone)
    interrupted: bool = False
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)

    @property
    def remaining(self) -> int:
        return self.total - self.skipped - self.written

    def line(self) -> str:
        parts = [
            f"{self.written} written ({self.errors} error{'s' * (self.errors != 1)})",
            f"{self.skipped} skipped as already done",
            f"{self.repaired} torn line{'s' * (self.repaired != 1)} repaired",
        ]
        text = f"batch: {', '.join(parts)} in {self.seconds:.1f} s → {self.output}"
        if self.interrupted:
            text += f"; interrupted with {self.remaining} to go: re-run with --resume"
        return text


def auto_chunk_size(todo: int, slots: int) -> int:
    """Enough tasks for every slot to get several (load balance), at most MAX_CHUNK
    items each (a killed run redoes at most one task per slot)."""
    return max(1, min(MAX_CHUNK, todo // max(1, 4 * slots)))


def shrinking_sizes(todo: int, slots: int) -> Callable[[int], int]:
    """The automatic chunk size once `done` of `todo` items are chunked: the size for
    the items still to go, so chunks shrink towards the end and no slot is left with a
    long last task while the others idle."""
    return lambda done: auto_chunk_size(todo - done, slots)


def chunked(
    items: Iterable[tuple[int, Item]], size: int | Callable[[int], int]
) -> Iterator[list[tuple[int, Item]]]:
    """Consecutive items, `size` per chunk (or `size(items chunked so far)`)."""
    sizes = size if callable(size) else (lambda done: size)
    chunk: list[tuple[int, Item]] = []
    done = 0
    for pair in items:
        chunk.append(pair)
        if len(chunk) >= sizes(done):
            done += len(chunk)
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def open_writer(out: str | Path, resume: bool) -> JsonlWriter:
    if Path(out).is_dir():
        raise HunkmetricsError(f"{out}: is a directory; --out names a file")
    try:
        return JsonlWriter(out, resume=resume)
    except FileExistsError as exc:
        raise HunkmetricsError(str(exc)) from None
    except IsADirectoryError:
        raise HunkmetricsError(f"{out}: is a directory; --out names a file") from None
    except OSError as exc:
        raise HunkmetricsError(f"{out}: cannot write ({exc.strerror})") from None


Chunk = list[tuple[int, Item]]  # consecutive items with their input positions


class _Driver:
    """Feeds chunks to `run_tasks` and writes every record, in input order when asked."""

    def __init__(
        self,
        writer: JsonlWriter,
        executor: Executor,
        settings: Settings,
        summary: Summary,
        *,
        ordered: bool,
        chunk_size: int | Callable[[int], int],
        progress: Progress | None,
    ) -> None:
        self.writer = writer
        self.executor = executor
        self.settings = settings
        self.summary = summary
        self.ordered = ordered
        self.chunk_size = chunk_size
        self.progress = progress
        largest = chunk_size if isinstance(chunk_size, int) else chunk_size(0)
        self.window_items = max(64, 4 * executor.slots * largest)  # --ordered: look-ahead
        self.buffer: dict[int, dict[str, Any]] = {}  # --ordered: done, not yet written
        self.next_write = 0
        self.next_submit = 0

    def deliver(self, seq: int, record: dict[str, Any]) -> None:
        if not self.ordered:
            self._write(record)
            return
        self.buffer[seq] = record
        while self.next_write in self.buffer:
            self._write(self.buffer.pop(self.next_write))
            self.next_write += 1

    def _write(self, record: dict[str, Any]) -> None:
        self.writer.write(record)
        failed = record.get("error") is not None
        self.summary.written += 1
        self.summary.errors += failed
        if self.progress is not None:
            self.progress.advance(1, int(failed))

    def _chunks(self, todo: Iterable[Item]) -> Iterator[Chunk]:
        """Chunks to run; remote workers get each patch's bytes (an unreadable patch is
        its error line at once)."""
        for chunk in chunked(((seq, item) for seq, item in enumerate(todo)), self.chunk_size):
            self.next_submit = chunk[-1][0] + 1
            if self.executor.ships_patches:
                chunk = self._ship(chunk)
            if chunk:
                yield chunk

    def _ship(self, chunk: Chunk) -> Chunk:
        shipped = []
        for seq, item in chunk:
            if item.data is None:
                try:
                    item = replace(item, data=read_patch_bytes(item.patch))
                except HunkmetricsError as exc:
                    self.deliver(seq, error_record(item, self.settings, str(exc)))
                    continue
            shipped.append((seq, item))
        return shipped

    def _deliver_chunk(self, chunk: Chunk, records: list[dict[str, Any]]) -> None:
        for (seq, _item), record in zip(chunk, records, strict=True):
            self.deliver(seq, record)

    def _crashed(self, chunk: Chunk, exc: BaseException) -> None:
        seq, item = chunk[0]  # run alone: it is this item's doing
        self.deliver(seq, error_record(item, self.settings, crash_line(exc, "patch")))

    def run(self, todo: Iterable[Item]) -> None:
        self.summary.worker_failures += run_tasks(
            self.executor,
            self._chunks(todo),
            run_chunk,
            arguments=lambda chunk: (self.settings, [item for _, item in chunk]),
            deliver=self._deliver_chunk,
            crashed=self._crashed,
            split=lambda chunk: [[pair] for pair in chunk],
            hold=lambda: self.ordered and self.next_submit - self.next_write >= self.window_items,
        )


def run_batch(
    source: str | Path | BatchInput,
    out: str | Path,
    *,
    settings: Settings | None = None,
    defaults: Defaults | None = None,
    executor: str | Executor = "local",
    jobs: int | None = None,
    scheduler: str | None = None,
    resume: bool = False,
    ordered: bool = False,
    chunk_size: int | None = None,
    progress: Progress | None = None,
    max_memory: int | str | None = AUTO,
) -> Summary:
    """Characterize every item of `source` (a directory of patches, a manifest CSV, or
    an opened BatchInput) into the JSON Lines file `out`. Each local worker runs under
    `max_memory` (`memory.resolve_limit`: by default a share of the machine's memory); a
    patch that needs more is an error line that says so.

    Raises HunkmetricsError for a bad input, an existing output without `resume`, or an
    executor that cannot start. Problems of single patches are error lines. On Ctrl-C
    the output is closed cleanly and the summary says `interrupted`."""
    started = time.perf_counter()
    settings = settings or Settings()
    batch = source if isinstance(source, BatchInput) else open_input(source, defaults)
    with output_lock(out, "batch"):
        return _run_locked(
            batch,
            out,
            settings,
            executor=executor,
            jobs=jobs,
            scheduler=scheduler,
            resume=resume,
            ordered=ordered,
            chunk_size=chunk_size,
            progress=progress,
            started=started,
            max_memory=max_memory,
        )


def _run_locked(
    batch: BatchInput,
    out: str | Path,
    settings: Settings,
    *,
    executor: str | Executor,
    jobs: int | None,
    scheduler: str | None,
    resume: bool,
    ordered: bool,
    chunk_size: int | None,
    progress: Progress | None,
    started: float,
    max_memory: int | str | None = AUTO,
) -> Summary:
    writer = open_writer(out, resume)
    summary = Summary(output=Path(out), total=batch.count, repaired=writer.repaired)
    summary.warnings.extend(writer.repair_warnings())
    try:
        summary.skipped = len(batch.ids & writer.done_ids)
        summary.foreign = len(writer.done_ids) - summary.skipped
        if summary.foreign:
            summary.warnings.append(
                f"{out} has {summary.foreign} line(s) whose id is not "
                f"in {batch.path}: is this the right --out?"
            )
        todo_count = batch.count - summary.skipped
        if todo_count == 0:
            return summary
        owned = isinstance(executor, str)
        pool = (
            make_executor(
                executor,
                jobs=jobs,
                scheduler=scheduler,
                preload=(__name__,),
                max_memory=resolve_limit(max_memory, jobs or os.cpu_count() or 1),
            )
            if isinstance(executor, str)
            else executor
        )
        interrupted = False
        try:
            size = chunk_size or shrinking_sizes(todo_count, pool.slots)
            driver = _Driver(
                writer, pool, settings, summary, ordered=ordered, chunk_size=size, progress=progress
            )
            if progress is not None:
                progress.start(todo_count)
            done = writer.done_ids
            try:
                driver.run(item for item in batch.items() if item.id not in done)
            except KeyboardInterrupt:
                interrupted = summary.interrupted = True
        finally:
            if owned:
                pool.close(cancel=interrupted)
    finally:
        writer.close()
        summary.seconds = time.perf_counter() - started
    return summary
