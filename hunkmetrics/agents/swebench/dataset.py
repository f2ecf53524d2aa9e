"""Gold patches from a SWE-bench or Multi-SWE-bench dataset file, never downloaded.

A SWE-bench row (`princeton-nlp/SWE-bench*`, SWE-bench Multilingual) gives `instance_id`,
`repo` (`org/repo`), `base_commit` and `patch`, the gold patch; `test_patch` is the tests
the harness adds and is never taken for it. A Multi-SWE-bench row gives `org`, `repo`,
`number`, `base.sha` and `fix_patch`; its instance id is `org__repo-number`, as
Multi-SWE-bench's predictions and SWE-bench-style tools name it (`instance_id` when the
row has one)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hunkmetrics.agents.model import TaskContext
from hunkmetrics.agents.swebench.rows import Row, first_row, read_rows
from hunkmetrics.errors import HunkmetricsError


def is_multi(row: dict[str, Any]) -> bool:
    """A Multi-SWE-bench row (dataset or prediction): `org`, `repo`, `number`."""
    return all(k in row for k in ("org", "repo", "number"))


def multi_id(row: dict[str, Any]) -> str:
    """A Multi-SWE-bench instance id: `org__repo-number`."""
    return f"{row['org']}__{row['repo']}-{row['number']}"


def is_dataset_row(row: dict[str, Any]) -> bool:
    """A dataset row, not a prediction: the gold patch beside what the harness needs."""
    if "model_patch" in row:
        return False
    if "instance_id" in row and "patch" in row:
        return True
    return is_multi(row) and "fix_patch" in row and ("base" in row or "test_patch" in row)


def is_dataset(path: Path) -> bool:
    """`path` is a dataset file (told by its first row, not its name)."""
    if not path.is_file():
        return False
    row = first_row(path)
    return row is not None and is_dataset_row(row)


def task_of(row: Row, source: str) -> tuple[str, TaskContext]:
    """The instance id and the task (gold patch, repository, base commit) of one row."""
    data = row.data
    if is_multi(data) and "instance_id" not in data:
        instance = multi_id(data)
    else:
        instance = _text(data.get("instance_id"))
        if not instance:
            raise HunkmetricsError(f"{row.where}: a dataset row without instance_id")
    gold = data.get("patch") if "patch" in data else data.get("fix_patch")
    if not isinstance(gold, str) or not gold.strip():
        raise HunkmetricsError(
            f"{row.where}: instance {instance} has no gold patch (`patch`, or Multi-SWE-bench's "
            "`fix_patch`); its `test_patch` is not one"
        )
    if is_multi(data):
        repository = f"{data['org']}/{data['repo']}"
        base = data.get("base")
        commit = _text(base.get("sha")) if isinstance(base, dict) else None
        commit = commit or _text(data.get("base_commit"))
    else:
        repository = _text(data.get("repo"))
        commit = _text(data.get("base_commit"))
    return instance, TaskContext(
        gold_patch=gold,
        gold_source=f"dataset {source}: {instance}",
        repository=repository or None,
        base_commit=commit or None,
    )


def read_dataset(path: Path) -> dict[str, TaskContext]:
    """Every instance's task by instance id; a row without an id or a gold patch, or an
    id given twice, is a HunkmetricsError naming the file and row."""
    tasks: dict[str, TaskContext] = {}
    for row in read_rows(path):
        instance, task = task_of(row, path.name)
        if instance in tasks:
            raise HunkmetricsError(f"{row.where}: instance {instance} appears twice")
        tasks[instance] = task
    if not tasks:
        raise HunkmetricsError(f"{path}: no dataset rows")
    return tasks


def _text(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""
