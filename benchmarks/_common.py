"""What every benchmark script shares: the machine it ran on, the code it measured, peak
memory and a compact JSON layout for result files. Not a test module."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import platform
import shutil
import subprocess
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any


def _proc_field(path: str, key: str) -> int | None:
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path(path).read_text().splitlines():
            if line.startswith(key):
                return int(line.split()[1])
    return None


def vm_hwm_kib() -> int | None:
    """This process's own peak RSS (ru_maxrss can include the parent's at exec)."""
    return _proc_field("/proc/self/status", "VmHWM:")


def mib(kib: int | None) -> float | None:
    return None if kib is None else round(kib / 1024, 1)


def memory_gib() -> float | None:
    total = _proc_field("/proc/meminfo", "MemTotal:")
    return None if total is None else round(total / 2**20, 1)


def cpu_model() -> str | None:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return None


def cat_file_blobs(git_dir: str | Path, names: Iterable[str]) -> Iterator[tuple[str, bytes]]:
    """(name, bytes) of each `rev:path` name that exists, read as asked through one
    `git cat-file --batch` (a generator: each blob is read when the caller asks for it)."""
    proc = subprocess.Popen(
        ["git", "--git-dir", str(git_dir), "cat-file", "--batch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for name in names:
            proc.stdin.write(name.encode() + b"\n")
            proc.stdin.flush()
            header = proc.stdout.readline().split()
            if len(header) != 3:
                continue  # "<name> missing"
            data = proc.stdout.read(int(header[2]))
            proc.stdout.read(1)
            yield name, data
    finally:
        proc.stdin.close()
        proc.wait()


def machine(**extra: Any) -> dict[str, Any]:
    """The machine a figure was measured on (benchmarks report figures with it)."""
    return {
        "processor": platform.processor() or platform.machine(),
        "cpu_model": cpu_model(),
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
        "memory_gib": memory_gib(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "system": f"{platform.system()} {platform.release()}",
        "git": subprocess.run(["git", "--version"], capture_output=True, text=True).stdout.strip(),
        **extra,
    }


def snapshot_hunkmetrics(work: Path, copy: bool = True) -> dict[str, Any]:
    """Which hunkmetrics is measured. With `copy`, the package is copied once into
    `work/snapshot` so that every child measures the same code even while its sources
    are being edited."""
    spec = importlib.util.find_spec("hunkmetrics")  # finds it without importing it
    if spec is None or spec.origin is None:
        raise SystemExit("hunkmetrics is not importable from this interpreter")
    source = Path(spec.origin).parent
    status = subprocess.run(
        ["git", "-C", str(source), "status", "--porcelain", "--", "."],
        capture_output=True,
        text=True,
    )
    commit = subprocess.run(
        ["git", "-C", str(source), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    if copy:
        shutil.copytree(
            source, work / "snapshot" / "hunkmetrics", ignore=shutil.ignore_patterns("__pycache__")
        )
    return {
        "source": str(source),
        "commit": commit.stdout.strip() or None,
        "uncommitted_changes": len(status.stdout.splitlines()) if status.returncode == 0 else None,
        "snapshot": copy,
    }


def code_to_measure(code: Path | None, work: Path) -> tuple[str, dict[str, Any]]:
    """Where the children import hunkmetrics from, and what that code is: `code` (another
    checkout) as given, else a snapshot of this one copied under `work`."""
    if code is not None:
        return str(code.resolve()), {"source": str(code), "snapshot": False}
    return str(work / "snapshot"), snapshot_hunkmetrics(work)


def print_machine() -> dict[str, Any]:
    """The machine (`machine()`), said in one line first."""
    about = machine()
    print(f"machine: {about['cpu_model']}, {about['cpu_count']} cores, {about['memory_gib']} GiB")
    return about


def compact_json(document: dict[str, Any]) -> str:
    """Two levels of keys on their own lines, anything deeper on one line: a result file
    that stays short and diffs well."""
    out = ["{"]
    for i, (key, value) in enumerate(document.items()):
        comma = "," if i < len(document) - 1 else ""
        if isinstance(value, dict) and value:
            out.append(f" {json.dumps(key)}: {{")
            for j, (sub, item) in enumerate(value.items()):
                sub_comma = "," if j < len(value) - 1 else ""
                out.append(f"  {json.dumps(sub)}: {json.dumps(item)}{sub_comma}")
            out.append(f" }}{comma}")
        else:
            out.append(f" {json.dumps(key)}: {json.dumps(value)}{comma}")
    out.append("}")
    return "\n".join(out) + "\n"


# Identifiers the synthetic Java generators draw names and strings from.
WORDS = [
    "count",
    "total",
    "items",
    "buffer",
    "index",
    "cache",
    "result",
    "value",
    "node",
    "entry",
    "offset",
    "limit",
    "queue",
    "state",
]
