"""No input may take the machine down (issue 24): a device (/dev/zero never ends), a FIFO
(it waits for a writer) or an oversized document as any kind of input is one line on
stderr and exit 2. Each command runs in its own process under a 2 GB address-space
limit and a timeout, so a regression fails the test instead of the machine."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUNS = ROOT / "fixtures" / "agents" / "evaluate" / "runs"
SESSION = ROOT / "fixtures" / "agents" / "claude" / "session.jsonl"
REFUSED = "a device, FIFO or socket, not a regular file"


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def run(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hunkmetrics.cli.app", *map(str, args)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        preexec_fn=_limit,
        timeout=60,
    )


def one_line(result: subprocess.CompletedProcess[str], *expected: str) -> None:
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for text in expected:
        assert text in lines[0], lines[0]


DEVICE_INPUTS = {
    "trajectory": ("agents", "actions", "{x}"),
    "export": ("agents", "export", "{x}"),
    "runs": ("agents", "evaluate", "{x}"),
    "reference": ("agents", "evaluate", str(RUNS), "--reference", "{x}"),
    "attempts": ("agents", "summary", "{x}"),
    "rules": ("agents", "rules", "check", "{x}"),
    "results to export": ("export", "{x}", "-o", "{out}"),
    "results to report": ("report", "{x}", "--out", "{out}"),
    "batch manifest": ("batch", "{x}", "--out", "{out}"),
    "repository list": ("mine", "--repo-list", "{x}", "--out", "{out}"),
    "patch": ("hunks", "{x}"),
}


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero on this system")
@pytest.mark.parametrize("kind", sorted(DEVICE_INPUTS))
def test_dev_zero_as_every_kind_of_input(kind: str, tmp_path: Path) -> None:
    args = [a.format(x="/dev/zero", out=tmp_path / "out") for a in DEVICE_INPUTS[kind]]
    result = run(*args)
    assert result.returncode == 2, result.stderr
    assert "/dev/zero" in result.stderr and "internal error" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "t.jsonl"
    os.mkfifo(fifo)
    one_line(run("agents", "actions", fifo), str(fifo), REFUSED, "(trajectory)")
    one_line(run("agents", "summary", fifo), REFUSED, "(attempts)")


def test_a_trajectory_over_the_size_cap(tmp_path: Path) -> None:
    size = SESSION.stat().st_size
    result = run("agents", "actions", SESSION, env={"HUNKMETRICS_MAX_INPUT_BYTES": str(size - 1)})
    one_line(result, f"larger than {size - 1:,} bytes", "HUNKMETRICS_MAX_INPUT_BYTES")
    assert (
        run("agents", "actions", SESSION, env={"HUNKMETRICS_MAX_INPUT_BYTES": str(size)}).returncode
        == 0
    )
