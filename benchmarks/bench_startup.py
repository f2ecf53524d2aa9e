#!/usr/bin/env python3
"""Start-up per command: `hunkmetrics hunks|divergence|characterize|proximity` on a
one-hunk patch, each in a fresh process, as a shell loop over commits calls them.

Prints, with the machine and its load average, the wall time and the CPU time (user +
system, which load on a shared machine disturbs less) of each command, the fastest and
the median of `--runs` runs, beside `python -c pass`; then, per command, the modules that
took longest to import (`python -X importtime`). Goal (issue 22): 0.15 s.

    python benchmarks/bench_startup.py [--runs 15] [--out benchmarks/results/startup.json]

This is a standalone script, not a test: pytest does not collect it.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import compact_json
from _common import machine as common_machine

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "startup.json"
COMMANDS = ("hunks", "divergence", "proximity", "characterize")
GOAL_S = 0.15
PATCH = (
    "diff --git a/src/p/A.java b/src/p/A.java\n--- a/src/p/A.java\n+++ b/src/p/A.java\n"
    "@@ -1,3 +1,3 @@\n class A {\n-    int f() { return 1; }\n+    int f() { return 2; }\n }\n"
)


def timed(argv: list[str], runs: int) -> dict[str, float]:
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        began = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        walls.append(time.perf_counter() - began)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return {
        "wall_min_s": round(min(walls), 4),
        "wall_median_s": round(statistics.median(walls), 4),
        "cpu_min_s": round(min(cpus), 4),
        "cpu_median_s": round(statistics.median(cpus), 4),
    }


def slowest_imports(argv: list[str], top: int = 8) -> list[tuple[str, float]]:
    """The packages whose import took longest (cumulative ms of the package itself, the
    first time it was imported): what a command's start-up is made of."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *argv], capture_output=True, text=True, check=False
    )
    rows: dict[str, float] = {}
    for line in done.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            name = parts[2].strip()
            if "." not in name or name.startswith("hunkmetrics."):
                rows[name] = max(rows.get(name, 0.0), int(parts[1]) / 1000)
    return sorted(rows.items(), key=lambda r: -r[1])[:top]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)
    info = common_machine()
    load = os.getloadavg()
    print(
        f"machine: {info['cpu_model']}, {info['cpu_count']} CPUs, {info['memory_gib']} GiB, "
        f"Python {info['python']}; load average {load[0]:.2f}"
    )
    results: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        patch = Path(tmp) / "one.diff"
        patch.write_text(PATCH)
        results["python -c pass"] = timed([sys.executable, "-c", "pass"], args.runs)
        for command in COMMANDS:
            line = ["-m", "hunkmetrics", command, str(patch)]
            figures: dict[str, object] = timed([sys.executable, *line], args.runs)
            figures["meets_goal"] = figures["wall_min_s"] <= GOAL_S  # type: ignore[operator]
            figures["slowest_imports_ms"] = slowest_imports(line)
            results[command] = figures
    for name, figures in results.items():
        print(
            f"  {name:15s} wall {figures['wall_min_s']:.3f} s (median "
            f"{figures['wall_median_s']:.3f})  cpu {figures['cpu_min_s']:.3f} s"
        )
        for module, ms in figures.get("slowest_imports_ms", []):  # type: ignore[attr-defined]
            print(f"      {ms:7.1f} ms  {module}")
    document = {
        "benchmark": "startup",
        "machine": info,
        "load_average": load,
        "goal_s": GOAL_S,
        "runs": args.runs,
        "results": results,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(compact_json(document), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
