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
from collections.abc import Callable, Collection
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..errors import HunkmetricsError

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


def _init_worker(parent: int) -> None:
    # Ctrl-C is the driver's to handle: it stops submitting and closes the output. The
    # workers finish their task instead of each printing a KeyboardInterrupt traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent(parent)


class LocalExecutor(Executor):
    """A `ProcessPoolExecutor` of `jobs` processes, started with `spawn` (so it behaves
    the same on Linux, macOS and Windows, and never forks the driver's threads)."""

    name = "local"

    def __init__(self, jobs: int) -> None:
        if jobs < 1:
            raise HunkmetricsError(f"--jobs must be at least 1, not {jobs}")
        self.slots = jobs
        self._context = multiprocessing.get_context("spawn")
        self._generation = 0
        self._pool = self._new_pool()
        self._born: dict[Any, int] = {}  # future → the pool generation it was submitted to

    def _new_pool(self) -> cf.ProcessPoolExecutor:
        self._generation += 1
        return cf.ProcessPoolExecutor(
            max_workers=self.slots,
            mp_context=self._context,
            initializer=_init_worker,
            initargs=(os.getpid(),),
        )

    def submit(self, fn: Callable[..., Any], *args: Any) -> cf.Future[Any]:
        future = self._pool.submit(fn, *args)
        self._born[future] = self._generation
        return future

    def some_done(self, futures: Collection[Any]) -> list[Any]:
        done, _ = cf.wait(futures, return_when=cf.FIRST_COMPLETED)
        return list(done)

    def recover(self, future: Any, exc: BaseException) -> None:
        born = self._born.get(future, self._generation)
        if isinstance(exc, BrokenProcessPool) and born == self._generation:
            # A worker died (killed, out of memory, a crash in native code): the pool is
            # unusable. Every other task in flight fails the same way; start a new pool
            # once, for the first of them.
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()

    def release(self, future: Any) -> None:
        self._born.pop(future, None)

    def close(self, cancel: bool = False) -> None:
        """Cancel what has not started (with `cancel`) and let the running tasks finish;
        a Ctrl-C meanwhile terminates the workers."""
        try:
            self._pool.shutdown(wait=True, cancel_futures=cancel)
        except KeyboardInterrupt:
            for process in list((getattr(self._pool, "_processes", None) or {}).values()):
                with contextlib.suppress(Exception):
                    process.terminate()
            raise


class InlineExecutor(Executor):
    """Runs each task at once in the driver's own process (for the library, tests and
    debugging: a traceback shows where it happened)."""

    name = "inline"

    def submit(self, fn: Callable[..., Any], *args: Any) -> cf.Future[Any]:
        future: cf.Future[Any] = cf.Future()
        try:
            future.set_result(fn(*args))
        except Exception as exc:
            future.set_exception(exc)
        return future

    def some_done(self, futures: Collection[Any]) -> list[Any]:
        return list(futures)


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


def make_executor(kind: str, *, jobs: int | None = None, scheduler: str | None = None) -> Executor:
    """`local` (worker processes), `dask` (a cluster at `scheduler`) or `inline`."""
    if kind == "local":
        return LocalExecutor(jobs or os.cpu_count() or 1)
    if kind == "dask":
        return DaskExecutor(scheduler)
    if kind == "inline":
        return InlineExecutor()
    raise HunkmetricsError(f"unknown executor {kind!r} (use local or dask)")
