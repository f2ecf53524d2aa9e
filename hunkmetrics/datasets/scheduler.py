"""One driver loop for every parallel run (batch and mine): a bounded window of tasks on
an Executor, and recovery when a worker dies so that only the culprit fails."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from .executors import Executor

Task = TypeVar("Task")


def run_tasks(
    executor: Executor,
    tasks: Iterable[Task],
    work: Callable[..., Any],
    *,
    deliver: Callable[[Task, Any], None],
    crashed: Callable[[Task, BaseException], None],
    split: Callable[[Task], list[Task]] = lambda task: [task],
    arguments: Callable[[Task], tuple[Any, ...]] = lambda task: (task,),
    window: int | None = None,
    hold: Callable[[], bool] = lambda: False,
    check: Callable[[], None] = lambda: None,
) -> int:
    """Run `work(*arguments(task))` on `executor` for every task (only what `arguments`
    picks travels to the worker), pulling tasks lazily with at most `window` in flight
    (default 2 × slots + 1) and none while `hold()` is true. Results go to
    `deliver(task, result)` as they finish; `check()` runs after every round (it may
    raise, e.g. on Ctrl-C).

    A task that fails outside its own code (its worker died) is `split` into parts that
    are re-run one at a time, alone, before anything new starts; a part that fails again
    goes to `crashed(part, exc)`. `work` must catch its own errors: any exception from a
    future is taken for a dead worker. Returns how many tasks lost their worker."""
    window = window or 2 * executor.slots + 1
    pending: dict[Any, tuple[Task, bool]] = {}  # future → (task, run alone as a suspect)
    suspects: deque[Task] = deque()
    source = iter(tasks)
    exhausted = False
    failures = 0

    def submit(task: Task, alone: bool) -> None:
        pending[executor.submit(work, *arguments(task))] = (task, alone)

    while True:
        if suspects:
            if not pending:
                submit(suspects.popleft(), alone=True)
        else:
            # Hold back only while something runs: with nothing in flight, holding
            # would wait forever.
            while not exhausted and len(pending) < window and (not pending or not hold()):
                task = next(source, _END)
                if task is _END:
                    exhausted = True
                    break
                submit(task, alone=False)
        if not pending:
            if exhausted and not suspects:
                return failures
            continue
        for future in executor.some_done(list(pending)):
            task, alone = pending.pop(future)
            try:
                result = future.result()
            except Exception as exc:  # the task did not run to its end
                executor.recover(future, exc)
                if alone:
                    crashed(task, exc)
                else:
                    failures += 1
                    suspects.extend(split(task))
            else:
                deliver(task, result)
            finally:
                executor.release(future)
        check()


_END: Any = object()
