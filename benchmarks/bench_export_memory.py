"""Peak memory of `export` and `report` on a large generated results file (not part of
the test run).

    python benchmarks/bench_export_memory.py                 # 40,000 records (~200 MB)
    python benchmarks/bench_export_memory.py --records 5000  # a quick look

The results file is synthetic and the same for a given seed: each line is a batch
record shaped like a characterize document (summary fields, then per-hunk and per-pair
detail that makes a line about 5 KB). Every measurement is a fresh process, and its
peak RSS is the kernel's (`os.wait4`'s ru_maxrss). As a baseline, one more process holds
every line as a parsed document, as export and report did before they streamed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HOLD_ALL = "import json,sys; d=[json.loads(l) for l in open(sys.argv[1],'rb')]; print(len(d))"


def record(rng: random.Random, n: int) -> dict[str, Any]:
    hunks = rng.randint(2, 12)
    return {
        "id": f"bug-{rng.randrange(10**9):09d}-{n}",
        "error": None if rng.random() > 0.05 else "the source does not match the patch",
        "schema": "hunkmetrics/characterize/v1",
        "tool": {"name": "hunkmetrics", "version": "0.0.0"},
        "config": {"profile": "default", "cutoff": 3, "fingerprint": "f" * 16},
        "patch": f"patches/{n}.diff",
        "profile": "default",
        "hunk_count": hunks,
        "divergence": {
            "value": rng.random(),
            "means": {"lexical": rng.random(), "structural": rng.random(), "file": 0.5},
            "excluded_hunks": [],
            "pairs": [
                {"a": i, "b": i + 1, "lexical": rng.random(), "text": "x" * 300}
                for i in range(hunks)
            ],
        },
        "proximity": {"class": rng.choice(["Nucleus", "Cluster", "Orbit", "Sprawl"])},
        "hunks": [{"index": i, "file": f"src/F{i}.java", "body": "y" * 60} for i in range(hunks)],
        "warnings": [],
    }


def generate(path: Path, count: int, seed: int) -> None:
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as out:
        for n in range(count):
            out.write(json.dumps(record(rng, n), separators=(",", ":")) + "\n")


def peak_mib(command: list[str]) -> tuple[float, float]:
    """(peak RSS in MiB, seconds) of one fresh process running `command`."""
    started = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        assert proc.stderr is not None
        raise SystemExit(f"{command} failed: {proc.stderr.read().decode()[-400:]}")
    return round(usage.ru_maxrss / 1024, 1), round(seconds, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=40_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--report", action="store_true", help="also measure `report`")
    args = parser.parse_args()
    hm = [sys.executable, "-m", "hunkmetrics"]
    with tempfile.TemporaryDirectory() as tmp:
        results = Path(tmp) / "results.jsonl"
        generate(results, args.records, args.seed)
        size = results.stat().st_size / 2**20
        runs = {
            "python, idle": [sys.executable, "-c", "pass"],
            "hold every document (old)": [sys.executable, "-c", HOLD_ALL, str(results)],
            "export csv": [*hm, "export", str(results), "-o", str(Path(tmp) / "t.csv")],
        }
        if args.report:
            runs["report"] = [*hm, "report", str(results), "-o", str(Path(tmp) / "r.html")]
        measured = {name: peak_mib(command) for name, command in runs.items()}
    print(json.dumps({"records": args.records, "results_mib": round(size, 1)}))
    for name, (peak, seconds) in measured.items():
        print(f"{name:28} peak RSS {peak:8.1f} MiB  {seconds:7.2f} s")


if __name__ == "__main__":
    main()
