"""Where a batch's tasks run: local worker processes, or an existing Dask cluster.

Both executors offer the same three calls to the driver (`batch.run_batch`): `submit`
a task, wait for `some_done` of the tasks in flight, and `recover` after a task failed
for a reason outside the task itself (a worker that died). The driver alone decides what
to submit and when, and writes every result; executors hold no queue of their own.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Collection, Hashable, Sequence
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar, cast

from ..errors import HunkmetricsError, MemoryLimitError, out_of_memory_line, size_text
from ..memory import limit_this_process
from ..sources.git import CatFilePool

T = TypeVar("T")

DASK_CONNECT_TIMEOUT = 10.0  # seconds to reach the scheduler
DASK_WORKER_TIMEOUT = 30.0  # seconds to wait for a first worker


class Executor:
    """The interface the driver uses (see the module docstring)."""

    name = "executor"
    slots = 1  # tasks that can run at the same time
    ships_patches = False  # True: the driver sends each patch's bytes with its item

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Start `fn(*args)`; return a future (`.result()` gives its value or raises)."""
        raise NotImplementedError

    def some_done(self, futures: Collection[Any]) -> list[Any]:
        """Block until at least one of `futures` is done; return those done."""
        raise NotImplementedError

    def recover(self, future: Any, exc: BaseException) -> None:
        """`future` failed with `exc`, an error outside the task's own code. Make the
        executor usable again, or raise HunkmetricsError if it cannot go on."""

    def release(self, future: Any) -> None:
        """The driver is done with `future` (its outcome was handled)."""

    def close(self, cancel: bool = False) -> None:
        pass

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close(cancel=exc[0] is not None)


def one_line(text: object) -> str:
    return " ".join(str(text).split())


def crash_line(exc: BaseException, what: str) -> str:
    """The row of an item whose task failed outside its own code: out of memory under
    the worker's limit, or its worker died (a crash, or the kernel's out-of-memory
    killer)."""
    if isinstance(exc, MemoryLimitError):
        return str(exc)
    return (
        f"internal error: the worker died on this {what} ({type(exc).__name__}: "
        f"{one_line(exc)}); if it ran out of memory, lower --max-memory so that it is "
        "stopped in time, or split it"
    )


PR_SET_PDEATHSIG = 1  # prctl option (linux/prctl.h)
WATCH_PARENT_EVERY = 0.5  # seconds between the watchdog's looks at the parent


def _die_with_parent(parent: int) -> None:
    """Make this worker end when the driver `parent` dies, even by SIGKILL (which gives
    the driver no chance to stop its pool). On Linux the kernel sends SIGKILL at once
    (prctl PR_SET_PDEATHSIG); everywhere a daemon thread also polls the parent id."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):  # no libc to load: the thread still watches
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # died before the line above took effect
        os._exit(1)
    watch_parent(parent)


def watch_parent(parent: int) -> None:
    """Start a daemon thread that ends this process (at once, without clean-up: the
    driver that wanted its results is gone) when its parent is no longer `parent`."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_PARENT_EVERY)
        os._exit(1)

    threading.Thread(target=watch, name="hunkmetrics-parent-watchdog", daemon=True).start()


def _init_worker(driver: int, forked_by_server: bool) -> None:
    # Ctrl-C is the driver's to handle: it stops submitting and closes the output. The
    # workers finish their task instead of each printing a KeyboardInterrupt traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Started by the fork server, a worker's parent is that server, which ends when the
    # driver does; forked or spawned, it is the driver itself.
    parent = os.getppid()
    if parent != driver and not forked_by_server:
        os._exit(1)  # the driver died before this worker got going
    _die_with_parent(parent)


def start_method() -> str:
    """How worker processes start. On Linux, `fork` while the driver runs no other
    thread (a worker starts in milliseconds with every module the driver imported),
    else `forkserver` (a server that imported the workers' modules once forks them; no
    thread is ever forked). Elsewhere `spawn`, the same on macOS and Windows."""
    if not sys.platform.startswith("linux"):
        return "spawn"
    if threading.active_count() == 1:
        return "fork"
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


def worker_context(modules: Sequence[str], method: str | None = None) -> Any:
    """The multiprocessing context to start a worker with now (`method`, by default
    `start_method()`); a fork server imports `modules` before forking workers, and the
    parent's `__main__` first, as the workers would import it anyway."""
    context = multiprocessing.get_context(method or start_method())
    if context.get_start_method() == "forkserver":
        context.set_forkserver_preload(["__main__", __name__, *modules])
    return context


class WorkerContext:
    """What one worker keeps between its tasks: git object readers by repository
    (`git.CatFilePool`, at most `MAX_REPOSITORIES` processes). Made by the worker's
    loop and passed to each task function that asks for it (`uses_context`)."""

    MAX_REPOSITORIES = 2
    KEPT = 2  # results kept for the tasks that follow (`kept`)

    def __init__(self) -> None:
        self.git = CatFilePool(self.MAX_REPOSITORIES)
        self._kept: OrderedDict[Hashable, Any] = OrderedDict()

    def kept(self, key: Hashable, make: Callable[[], T]) -> T:
        """`make()`, made once while `key` is among this worker's `KEPT` latest keys:
        what several tasks in a row share (the attempts of a file that holds many)."""
        if key in self._kept:
            self._kept.move_to_end(key)
            return cast(T, self._kept[key])
        value = make()
        self._kept[key] = value
        while len(self._kept) > self.KEPT:
            self._kept.popitem(last=False)
        return value

    def close(self) -> None:
        self.git.close()


def uses_context(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a task function that takes its worker's WorkerContext as `context=`."""
    fn.uses_worker_context = True  # type: ignore[attr-defined]
    return fn


def call(fn: Callable[..., Any], args: tuple[Any, ...], context: WorkerContext | None) -> Any:
    """`fn(*args)`, with `context=` when `fn` asks for one."""
    if context is not None and getattr(fn, "uses_worker_context", False):
        return fn(*args, context=context)
    return fn(*args)


# A worker that died having used this share of its limit is taken to have run out of it:
# one failed allocation (a parser's buffer doubling) can ask for as much as it holds.
NEAR_LIMIT = 0.5
SAMPLE_EVERY = 0.02  # seconds between a limited worker's looks at its own size


def _watch_size(peak: Any) -> None:
    """Keep `peak` (a shared integer) at the largest address space this process has had,
    so that the driver can tell a worker that died at its limit (C code such as a parser
    may abort on a failed allocation instead of raising MemoryError) from a crash."""

    def watch() -> None:
        page = os.sysconf("SC_PAGE_SIZE")
        with open("/proc/self/statm", "rb") as statm:
            while True:
                statm.seek(0)
                size = int(statm.read().split()[0]) * page
                if size > peak.value:
                    peak.value = size
                time.sleep(SAMPLE_EVERY)

    if os.path.exists("/proc/self/statm"):
        threading.Thread(target=watch, name="hunkmetrics-size-watch", daemon=True).start()


def _serve(
    conn: Connection,
    driver: int,
    forked_by_server: bool,
    max_memory: int | None = None,
    peak: Any = None,
) -> None:
    """A worker's loop: run each (fn, args) the driver sends and send back
    ("ok", value) or ("error", exception), until it sends None or goes away. Under
    `max_memory` bytes of address space: a task that needs more fails with a
    MemoryLimitError that says so, and the worker ends after it (a fresh one replaces
    it, with none of the memory the task left fragmented)."""
    _init_worker(driver, forked_by_server)
    limit_this_process(max_memory)
    if max_memory is not None and peak is not None:
        _watch_size(peak)
    context = WorkerContext()
    try:
        while True:
            try:
                task = conn.recv()
            except (EOFError, OSError):
                return
            if task is None:
                return
            fn, args = task
            exhausted = False
            try:
                reply: tuple[str, Any] = ("ok", call(fn, args, context))
            except MemoryError:
                reply, exhausted = ("error", MemoryLimitError(out_of_memory_line())), True
            except BaseException as exc:  # the driver decides what a failure means
                reply = ("error", exc)
            try:
                conn.send(reply)
            except Exception as exc:  # an unpicklable value or exception
                conn.send(("error", RuntimeError(f"{type(exc).__name__}: {one_line(exc)}")))
            if exhausted:
                return
    finally:
        context.close()


class _Worker:
    """One worker process of a LocalExecutor, and the task it runs (if any)."""

    def __init__(self, context: Any, max_memory: int | None = None) -> None:
        self.conn, child = context.Pipe()
        self.max_memory = max_memory
        self.peak = context.Value("q", 0, lock=False) if max_memory is not None else None
        self.process = context.Process(
            target=_serve,
            args=(
                child,
                os.getpid(),
                context.get_start_method() == "forkserver",
                max_memory,
                self.peak,
            ),
            name="hunkmetrics-worker",
            daemon=True,
        )
        self.process.start()
        child.close()
        self.future: cf.Future[Any] | None = None

    def stop(self, timeout: float | None = None) -> None:
        with contextlib.suppress(Exception):
            self.conn.send(None)
        self.process.join(timeout)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join()
        self.conn.close()


def _died(worker: _Worker) -> BaseException:
    """Why `worker` stopped answering: it reached its memory limit, or it crashed."""
    limit, peak = worker.max_memory, worker.peak
    if limit is not None and peak is not None and peak.value >= NEAR_LIMIT * limit:
        return MemoryLimitError(
            f"needs more than {size_text(limit)} of memory (its worker died at "
            f"{size_text(peak.value)} of its {size_text(limit)}); raise --max-memory or split it"
        )
    return BrokenProcessPool(
        "A process in the process pool was terminated abruptly while the future was "
        "running or pending."
    )


class LocalExecutor(Executor):
    """`jobs` worker processes on this machine (see `start_method`), each running one
    task at a time and keeping a WorkerContext across its tasks, each under `max_memory`
    bytes of address space (None: no limit). A worker that dies fails its own task only
    (BrokenProcessPool) and is replaced."""

    name = "local"

    def __init__(
        self,
        jobs: int,
        preload: Sequence[str] = (),
        method: str | None = None,
        max_memory: int | None = None,
    ) -> None:
        if jobs < 1:
            raise HunkmetricsError(f"--jobs must be at least 1, not {jobs}")
        self.slots = jobs
        self.max_memory = max_memory
        self._preload = tuple(preload)
        self._method = method  # None: start_method() at each worker's start
        self._workers: list[_Worker] = []
        self._queue: deque[tuple[cf.Future[Any], Callable[..., Any], tuple[Any, ...]]] = deque()

    def _idle(self) -> _Worker | None:
        for worker in list(self._workers):
            if worker.future is None:
                if worker.process.is_alive():
                    return worker
                self._replace(worker)  # died between tasks: nothing of its to fail
        if len(self._workers) < self.slots:
            worker = _Worker(worker_context(self._preload, self._method), self.max_memory)
            self._workers.append(worker)
            return worker
        return None

    def _dispatch(self) -> None:
        while self._queue:
            worker = self._idle()
            if worker is None:
                return
            future, fn, args = self._queue.popleft()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                worker.conn.send((fn, args))
            except Exception as exc:  # cannot be pickled, or the worker is gone
                future.set_exception(exc)
                self._replace(worker)
                continue
            worker.future = future

    def _replace(self, worker: _Worker) -> None:
        self._workers.remove(worker)
        worker.stop(timeout=1)

    def submit(self, fn: Callable[..., Any], *args: Any) -> cf.Future[Any]:
        future: cf.Future[Any] = cf.Future()
        self._queue.append((future, fn, args))
        self._dispatch()
        return future

    def _collect(self) -> None:
        """Wait for at least one busy worker to answer or die; settle its future."""
        busy = [w for w in self._workers if w.future is not None]
        if not busy:
            return
        handles: dict[Any, _Worker] = {}
        for worker in busy:
            handles[worker.conn] = worker
            handles[worker.process.sentinel] = worker
        for ready in wait(list(handles)):
            worker = handles[ready]
            future = worker.future
            if future is None:
                continue  # answered through its other handle in this round
            try:
                kind, value = worker.conn.recv()
            except (EOFError, OSError):
                worker.future = None
                future.set_exception(_died(worker))
                self._replace(worker)
                continue
            except Exception as exc:  # an answer that cannot be unpickled here
                kind, value = "error", RuntimeError(f"{type(exc).__name__}: {one_line(exc)}")
            worker.future = None
            if kind == "ok":
                future.set_result(value)
            else:
                future.set_exception(value)
        self._dispatch()

    def some_done(self, futures: Collection[Any]) -> list[Any]:
        while True:
            done = [f for f in futures if f.done()]
            if done:
                return done
            self._collect()

    def close(self, cancel: bool = False) -> None:
        """Cancel what has not started (with `cancel`), let the running tasks finish
        and stop the workers; a Ctrl-C meanwhile terminates them."""
        try:
            if cancel:
                for future, _fn, _args in self._queue:
                    future.cancel()
                self._queue.clear()
            while self._queue or any(w.future is not None for w in self._workers):
                self._collect()
            for worker in self._workers:
                worker.stop()
            self._workers.clear()
        except KeyboardInterrupt:
            for worker in self._workers:
                with contextlib.suppress(Exception):
                    worker.process.terminate()
            raise


class InlineExecutor(Executor):
    """Runs each task at once in the driver's own process (for the library, tests and
    debugging: a traceback shows where it happened)."""

    name = "inline"

    def __init__(self) -> None:
        self._worker: WorkerContext | None = None

    def submit(self, fn: Callable[..., Any], *args: Any) -> cf.Future[Any]:
        future: cf.Future[Any] = cf.Future()
        if self._worker is None:
            self._worker = WorkerContext()
        try:
            future.set_result(call(fn, args, self._worker))
        except Exception as exc:
            future.set_exception(exc)
        return future

    def some_done(self, futures: Collection[Any]) -> list[Any]:
        return list(futures)

    def close(self, cancel: bool = False) -> None:
        if self._worker is not None:
            self._worker.close()
            self._worker = None


def _hunkmetrics_version() -> str:
    """Run on each Dask worker: proves the worker can import hunkmetrics."""
    from ..version import __version__

    return __version__


class DaskExecutor(Executor):
    """Tasks on an existing Dask distributed cluster, through `distributed.Client`.

    Workers need hunkmetrics installed (with its `dask` extra); they are sent each
    patch's bytes, but read sources from the repository paths in the items."""

    name = "dask"
    ships_patches = True

    def __init__(
        self,
        address: str | None,
        *,
        client: Any = None,
        connect_timeout: float = DASK_CONNECT_TIMEOUT,
        worker_timeout: float = DASK_WORKER_TIMEOUT,
    ) -> None:
        try:
            import distributed
        except ImportError:
            raise HunkmetricsError(
                "--executor dask needs Dask distributed: pip install 'hunkmetrics[dask]'"
            ) from None
        self._distributed = distributed
        self._owns_client = client is None
        if client is None:
            if not address:
                raise HunkmetricsError(
                    "--executor dask needs --scheduler ADDRESS (e.g. tcp://scheduler-host:8786)"
                )
            client = self._connect(address, connect_timeout)
        self.client = client
        self.address = address or str(getattr(client.scheduler, "address", "the scheduler"))
        try:
            self.client.wait_for_workers(1, timeout=worker_timeout)
        except Exception:
            self.close()
            raise HunkmetricsError(
                f"no Dask worker joined the scheduler at {self.address} "
                f"within {worker_timeout:g} s (start some with "
                f"`dask worker {self.address}`)"
            ) from None
        self._check_workers()
        self.slots = max(1, sum(self.client.nthreads().values()))
        self._completed: Any = distributed.as_completed(loop=self.client.loop)  # type: ignore[no-untyped-call]

    def _connect(self, address: str, timeout: float) -> Any:
        try:  # a bad address fails here, before a half-made Client complains at exit
            from distributed.comm.addressing import get_address_host_port, parse_address
            from distributed.comm.registry import get_backend

            scheme, _ = parse_address(address)
            get_backend(scheme)
            if scheme != "inproc":  # a cluster in this very process has no port
                get_address_host_port(address)
        except Exception as exc:
            raise HunkmetricsError(
                f"--scheduler {address!r} is not a Dask address "
                f"({one_line(exc)}); e.g. tcp://host:8786"
            ) from None
        try:
            return self._distributed.Client(  # type: ignore[no-untyped-call]
                address, timeout=timeout, set_as_default=False
            )
        except Exception as exc:
            detail = one_line(exc) or type(exc).__name__
            raise HunkmetricsError(
                f"cannot reach the Dask scheduler at {address}: {detail}"
            ) from None

    def _check_workers(self) -> None:
        from ..version import __version__

        try:
            versions = self.client.run(_hunkmetrics_version)
        except Exception as exc:
            self.close()
            detail = one_line(exc) or type(exc).__name__
            raise HunkmetricsError(
                "a Dask worker cannot run hunkmetrics (install it on "
                f"every worker: pip install 'hunkmetrics[dask]'): "
                f"{type(exc).__name__}: {detail}"
            ) from None
        other = sorted({v for v in versions.values() if v != __version__})
        if other:
            self.close()
            raise HunkmetricsError(
                f"Dask workers run hunkmetrics {', '.join(other)}, this "
                f"driver {__version__}: install the same version on "
                "every worker"
            )

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        # pure=False: a task resubmitted after a failure must run again, not reuse a key.
        future = self.client.submit(fn, *args, pure=False)
        self._completed.add(future)
        return future

    def some_done(self, futures: Collection[Any]) -> list[Any]:
        first = next(self._completed)
        return [first, *self._completed.next_batch(block=False)]

    def recover(self, future: Any, exc: BaseException) -> None:
        if self.client.status not in ("running", "connecting"):
            raise HunkmetricsError(
                f"lost the Dask scheduler at {self.address} "
                f"({type(exc).__name__}); re-run with --resume"
            )

    def close(self, cancel: bool = False) -> None:
        if self._owns_client and getattr(self, "client", None) is not None:
            self.client.close()


def make_executor(
    kind: str,
    *,
    jobs: int | None = None,
    scheduler: str | None = None,
    preload: Sequence[str] = (),
    max_memory: int | None = None,
) -> Executor:
    """`local` (worker processes, whose fork server imports `preload` once, each under
    `max_memory` bytes), `dask` (a cluster at `scheduler`; its workers' memory is the
    cluster's to limit) or `inline`."""
    if kind == "local":
        return LocalExecutor(jobs or os.cpu_count() or 1, preload, max_memory=max_memory)
    if kind == "dask":
        return DaskExecutor(scheduler)
    if kind == "inline":
        return InlineExecutor()
    raise HunkmetricsError(f"unknown executor {kind!r} (use local or dask)")
