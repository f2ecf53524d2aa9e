"""Predictions files, as the SWE-bench harness reads them (`get_predictions_from_file`):
`.jsonl` rows, a `.json` list, or a `.json` object keyed by instance id (mini-swe-agent's
and SWE-agent's `preds.json`), each `{instance_id, model_name_or_path, model_patch}`; and
Multi-SWE-bench's patch files, rows `{org, repo, number, fix_patch}`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hunkmetrics.agents.swebench.dataset import is_dataset_row, is_multi, multi_id
from hunkmetrics.agents.swebench.rows import first_row, read_rows
from hunkmetrics.errors import HunkmetricsError


@dataclass(frozen=True, slots=True)
class Prediction:
    """One agent's patch for one instance; `patch` None or empty when it gave none."""

    instance_id: str
    model: str | None
    patch: str | None
    where: str
    multi: bool = False  # a Multi-SWE-bench patch row


def is_prediction_row(row: dict[str, Any]) -> bool:
    if "model_patch" in row:
        return True
    return is_multi(row) and "fix_patch" in row and not is_dataset_row(row)


def is_predictions(path: Path) -> bool:
    """`path` is a predictions file (told by its first row, not its name)."""
    if not path.is_file():
        return False
    row = first_row(path)
    return row is not None and is_prediction_row(row)


def read_predictions(path: Path) -> list[Prediction]:
    """Every prediction of the file. A row without an instance id (or with a patch that
    is not text), or an instance given twice for one model, is a HunkmetricsError
    naming the file and row: without its id no run can be named."""
    found: list[Prediction] = []
    seen: set[tuple[str | None, str]] = set()
    for row in read_rows(path):
        data = row.data
        multi = "model_patch" not in data and is_multi(data)
        instance = multi_id(data) if multi else data.get("instance_id")
        if not isinstance(instance, str) or not instance.strip():
            raise HunkmetricsError(f"{row.where}: a prediction without instance_id")
        patch = data.get("fix_patch" if multi else "model_patch")
        if patch is not None and not isinstance(patch, str):
            raise HunkmetricsError(f"{row.where}: {instance}: the patch is not text")
        model = data.get("model_name_or_path")
        name = model.strip() if isinstance(model, str) and model.strip() else None
        if (name, instance) in seen:
            raise HunkmetricsError(f"{row.where}: {instance} appears twice for one model")
        seen.add((name, instance))
        found.append(Prediction(instance.strip(), name, patch, row.where, multi))
    if not found:
        raise HunkmetricsError(f"{path}: no predictions")
    return found
