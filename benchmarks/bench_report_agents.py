"""`hunkmetrics report --attempts` over many attempts: wall time, peak memory and the
page's size (not part of the test run).

    python benchmarks/bench_report_agents.py                  # 100,000 × 200 actions
    python benchmarks/bench_report_agents.py --count 10000     # a quick look

The attempt lines and the developer patches' results are those of
bench_agents_summary.py (same generator and seed): 4 agents, 25,000 bugs, every line
with its outcome, tokens with a cache split, runtime, categories and a sequence of
`--actions` categories, every bug with a hunk count, divergence and class. The report
runs as the command does (`report RESULTS --attempts FILE --out page.html`) in a child
process; its wall time is measured from the parent and its peak RSS is the child's
(`ru_maxrss` of the one waited-for child). Target: under 60 s.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import compact_json, machine, snapshot_hunkmetrics
from bench_agents_summary import generate

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "report_agents.json"
TARGET_S = 60


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100_000, help="attempt lines")
    parser.add_argument("--actions", type=int, default=200, help="actions per attempt")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-report-agents-") as tmp:
        code = snapshot_hunkmetrics(Path(tmp), copy=False)
        attempts, results = Path(tmp) / "attempts.jsonl", Path(tmp) / "results.jsonl"
        page = Path(tmp) / "report.html"
        started = time.perf_counter()
        generate(attempts, results, args.count, args.actions, args.seed)
        generated = time.perf_counter() - started
        size = attempts.stat().st_size
        command = [
            sys.executable,
            "-m",
            "hunkmetrics",
            "report",
            str(results),
            "--attempts",
            str(attempts),
            "--out",
            str(page),
        ]
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, env=dict(os.environ))
        wall = time.perf_counter() - started
        if done.returncode != 0:
            raise SystemExit(f"report failed: {done.stderr}")
        child = resource.getrusage(resource.RUSAGE_CHILDREN)
        html = page.read_text(encoding="utf-8")
        figures = len(re.findall(r"<figure\b", html))
        downloads = len(re.findall(r'<a class="csv"', html))
        page_mib = round(page.stat().st_size / 2**20, 1)
    peak_mib = round(child.ru_maxrss / 1024, 1)  # Linux: KiB
    result = {
        "benchmark": "report --attempts",
        "machine": machine(load_average=list(os.getloadavg())),
        "code": code,
        "input": {
            "attempts": args.count,
            "actions_per_attempt": args.actions,
            "actions": args.count * args.actions,
            "file_mib": round(size / 2**20, 1),
            "generated_s": round(generated, 1),
            "seed": args.seed,
        },
        "report": {
            "wall_s": round(wall, 2),
            "cpu_s": round(child.ru_utime + child.ru_stime, 2),
            "peak_rss_mib": peak_mib,
            "page_mib": page_mib,
            "figures": figures,
            "csv_downloads": downloads,
            "stderr": done.stderr.strip().splitlines()[-1:],
        },
        "targets": {"wall_s": TARGET_S},
        "met": {"wall_s": wall < TARGET_S},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(compact_json(result))
    print(compact_json(result), end="")


if __name__ == "__main__":
    main()
