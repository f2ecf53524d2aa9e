"""A trajectory file that holds many runs (an Inspect log's samples) is read once by the
worker that evaluates them, not once a run: each reading builds every attempt of the file,
so reading it per run made an N-sample log cost N² attempts (300 samples: 271 s)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import hunkmetrics.agents.evaluate as evaluate_module
from hunkmetrics.agents.batch import evaluate_runs
from hunkmetrics.agents.evaluate import Settings

LOG = Path(__file__).resolve().parents[2] / "fixtures" / "harnesses" / "inspect" / "toy.json"


def test_an_inspect_log_is_read_once_for_all_its_samples(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = evaluate_module.read_trajectories
    reads: list[str] = []

    def counting(path: Any, *args: Any, **kwargs: Any) -> Any:
        reads.append(str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(evaluate_module, "read_trajectories", counting)
    out = tmp_path / "a.jsonl"
    evaluate_runs(LOG, {}, Settings(), out=out)
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    # toy.json: two samples, two runs, each its own line, no error
    assert len(lines) == 2 and [line["error"] for line in lines] == [None, None]
    assert len({line["bug"] for line in lines}) == 2
    assert reads == [str(LOG)]
