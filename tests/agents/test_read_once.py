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


def test_the_last_file_read_is_remembered_per_thread(tmp_path: Path) -> None:
    """The text a detection hands on to its reader is the calling thread's own: another
    thread's read (a harness reading trajectories in a thread pool) never replaces it
    halfway, which could hand one file's text to a read of another."""
    import threading

    from hunkmetrics.agents import jsonio

    mine, theirs = tmp_path / "mine.jsonl", tmp_path / "theirs.jsonl"
    mine.write_text('{"a": 1}\n', encoding="utf-8")
    theirs.write_text('{"b": 2}\n', encoding="utf-8")
    assert jsonio.read_text_once(mine) == '{"a": 1}\n'
    seen: list[object] = []

    def other() -> None:
        seen.append(jsonio._LAST.key)  # nothing read in this thread yet
        assert jsonio.read_text_once(theirs) == '{"b": 2}\n'

    worker = threading.Thread(target=other)
    worker.start()
    worker.join()
    assert seen == [None]
    assert jsonio._LAST.key is not None and jsonio._LAST.key[0] == str(mine)
    assert jsonio._LAST.text == '{"a": 1}\n'
