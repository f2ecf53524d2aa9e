"""Every command that writes --out holds the output's lock, as batch and mine do (issue
24): while another run writes a file, a second writer stops with exit 2 and one line,
and two `agents evaluate --resume` started at once write each attempt exactly once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from agents.test_study_import import _folder
from typer.testing import CliRunner

from hunkmetrics.cli.app import app
from hunkmetrics.datasets.lock import output_lock

ROOT = Path(__file__).resolve().parents[1]
EVAL = ROOT / "fixtures" / "agents" / "evaluate"
cli = CliRunner()


def _results(tmp_path: Path) -> Path:
    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps({"id": "a", "error": "no diff"}) + "\n")
    return path


def _commands(tmp_path: Path, out: Path) -> dict[str, list[str]]:
    study = _folder(tmp_path / "study")  # the study's published files, a small made-up set
    return {
        "agents evaluate": [
            "agents", "evaluate", str(EVAL / "runs"), "--reference", str(EVAL / "dev"),
            "--out", str(out), "--resume",
        ],
        "agents import-study": ["agents", "import-study", str(study), "--out", str(out)],
        "export": ["export", str(_results(tmp_path)), "--out", str(out)],
        "report": ["report", str(_results(tmp_path)), "--out", str(out)],
    }  # fmt: skip


@pytest.mark.parametrize("command", ["agents evaluate", "agents import-study", "export", "report"])
def test_a_second_writer_is_refused(command: str, tmp_path: Path) -> None:
    out = tmp_path / "out.file"
    args = _commands(tmp_path, out)[command]
    with output_lock(out, "batch"):
        result = cli.invoke(app, args)
        assert out.stat().st_size == 0  # nothing was written under the other's lock
    assert result.exit_code == 2, result.output
    assert f"{out}: another hunkmetrics {command} is writing this file" in result.output


def test_two_evaluations_started_together_write_each_attempt_once(tmp_path: Path) -> None:
    out = tmp_path / "a.jsonl"
    args = [
        sys.executable, "-m", "hunkmetrics.cli.app", "agents", "evaluate", str(EVAL / "runs"),
        "--reference", str(EVAL / "dev"), "--out", str(out), "--resume",
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    both = [subprocess.Popen(args, env=env, stderr=subprocess.PIPE) for _ in range(2)]
    codes = [p.wait(timeout=120) for p in both]
    errors = [p.stderr.read().decode() if p.stderr else "" for p in both]
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    # claude, codex and qwen each once: the second run either waited its turn (resume:
    # nothing left to do) or was refused.
    assert sorted(ids) == ["claude/Chart-1", "codex/Chart-1", "qwen/Chart-1"]
    for code, error in zip(codes, errors, strict=True):
        assert code == 0 or (code == 2 and "is writing this file" in error), error
