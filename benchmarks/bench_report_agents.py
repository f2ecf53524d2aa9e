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
import tempfile
import time
from pathlib import Path

from _common import compact_json, machine, snapshot_hunkmetrics
from bench_agents_summary import generate, input_facts, input_options, run_hunkmetrics

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "report_agents.json"
TARGET_S = 60


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    input_options(parser)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-report-agents-") as tmp:
        code = snapshot_hunkmetrics(Path(tmp), copy=False)
        attempts, results = Path(tmp) / "attempts.jsonl", Path(tmp) / "results.jsonl"
        page = Path(tmp) / "report.html"
        started = time.perf_counter()
        generate(attempts, results, args.count, args.actions, args.seed)
        generated = time.perf_counter() - started
        facts = input_facts(args, attempts, generated)
        run = run_hunkmetrics(
            "report", str(results), "--attempts", str(attempts), "--out", str(page)
        )
        html = page.read_text(encoding="utf-8")
        figures = len(re.findall(r"<figure\b", html))
        downloads = len(re.findall(r'<a class="csv"', html))
        page_mib = round(page.stat().st_size / 2**20, 1)
    result = {
        "benchmark": "report --attempts",
        "machine": machine(load_average=list(os.getloadavg())),
        "code": code,
        "input": facts,
        "report": {
            "wall_s": round(run.wall_s, 2),
            "cpu_s": round(run.cpu_s, 2),
            "peak_rss_mib": run.peak_rss_mib,
            "page_mib": page_mib,
            "figures": figures,
            "csv_downloads": downloads,
            "stderr": run.stderr.strip().splitlines()[-1:],
        },
        "targets": {"wall_s": TARGET_S},
        "met": {"wall_s": run.wall_s < TARGET_S},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(compact_json(result))
    print(compact_json(result), end="")


if __name__ == "__main__":
    main()
