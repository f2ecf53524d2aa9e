"""How long `import hunkmetrics` takes (not part of the test run).

    python benchmarks/bench_import.py            # median of 15 fresh interpreters
    python benchmarks/bench_import.py --runs 40 --module hunkmetrics.api

Each run is a fresh subprocess that times only the import (time.perf_counter around
`importlib.import_module`), so interpreter start-up is not counted. The target is under
150 ms for `hunkmetrics`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

TARGET_MS = 150.0
PROBE = """
import importlib, json, sys, time
start = time.perf_counter()
importlib.import_module({module!r})
elapsed = time.perf_counter() - start
heavy = {{'numpy', 'typer', 'rich', 'nltk', 'rapidfuzz'}}
heavy = sorted({{m.split('.')[0] for m in sys.modules}} & heavy)
print(json.dumps({{"ms": elapsed * 1000, "heavy": heavy}}))
"""


def measure(module: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(module=module)],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="fresh interpreters (default 15)")
    parser.add_argument("--module", default="hunkmetrics", help="module to import")
    args = parser.parse_args()
    measure(args.module)  # warm the file system cache and byte-code
    runs = [measure(args.module) for _ in range(args.runs)]
    times = sorted(float(str(r["ms"])) for r in runs)
    median = statistics.median(times)
    print(
        json.dumps(
            {
                "module": args.module,
                "runs": args.runs,
                "median_ms": round(median, 2),
                "min_ms": round(times[0], 2),
                "max_ms": round(times[-1], 2),
                "heavy_modules_loaded": runs[0]["heavy"],
                "under_target": median < TARGET_MS if args.module == "hunkmetrics" else None,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
