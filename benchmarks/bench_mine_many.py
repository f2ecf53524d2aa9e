#!/usr/bin/env python3
"""Benchmark: `hunkmetrics mine` over many repositories, whole history, one run.

By default the 17 Defects4J projects plus spring-framework, as mirrors fetched under
/work/.mirror/<owner>+<name>/repo (missing ones are named and left out). Prints, with
the machine: commits scanned per second, candidates per repository, wall time, and the
peak memory of the driver and of each worker.

    python benchmarks/bench_mine_many.py [--mirrors DIR] [--jobs 2] [--only a,b]

This is a standalone script, not a test: pytest does not collect it.
"""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import compact_json, mib, snapshot_hunkmetrics
from _common import machine as common_machine
from bench_mine import run_child

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "mine_many.json"
MIRRORS = Path("/work/.mirror")
PROJECTS = (
    "apache+commons-lang",
    "apache+commons-math",
    "jfree+jfreechart",
    "JodaOrg+joda-time",
    "google+closure-compiler",
    "mockito+mockito",
    "apache+commons-cli",
    "apache+commons-codec",
    "apache+commons-collections",
    "apache+commons-compress",
    "apache+commons-csv",
    "google+gson",
    "FasterXML+jackson-core",
    "FasterXML+jackson-databind",
    "FasterXML+jackson-dataformat-xml",
    "jhy+jsoup",
    "apache+commons-jxpath",
    "spring-projects+spring-framework",
)


def commit_count(repo: Path) -> int:
    done = subprocess.run(
        ["git", "--git-dir", str(repo), "rev-list", "--count", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mirrors", type=Path, default=MIRRORS)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="", help="comma-separated owner+name subset")
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)
    wanted = [p for p in PROJECTS if not args.only or p in args.only.split(",")]
    found = [(p, args.mirrors / p / "repo") for p in wanted]
    missing = [p for p, path in found if not (path / "HEAD").exists()]
    present = [(p, path) for p, path in found if (path / "HEAD").exists()]
    if missing:
        print(f"left out (no mirror): {', '.join(missing)}", file=sys.stderr)
    if not present:
        print(f"no repository under {args.mirrors}", file=sys.stderr)
        return 2
    info = common_machine()
    print(
        f"machine: {info['cpu_model']}, {info['cpu_count']} CPUs, "
        f"{info['memory_gib']} GiB, Python {info['python']}"
    )
    commits = {p.split("+", 1)[1]: commit_count(path) for p, path in present}
    with tempfile.TemporaryDirectory(prefix="bench-mine-many-") as tmp:
        work = Path(tmp)
        measured = snapshot_hunkmetrics(work)
        listing = work / "repos.csv"
        listing.write_text(
            "repo,name\n" + "".join(f"{path},{p.split('+', 1)[1]}\n" for p, path in present)
        )
        result = run_child("mine-many", work, listing, args.jobs)
    stats = result["stats"]
    per_repo = collections.Counter(i.split("@", 1)[0] for i in result.pop("ids"))
    summary = {
        "repositories": len(present),
        "commits": sum(commits.values()),
        "scanned": stats["scanned"],
        "matched_by_message": stats["matched"],
        "candidates": stats["candidates"],
        "written": stats["written"],
        "errors": result["errors"],
        "error_kinds": result.get("error_kinds", {}),
        "wall_seconds": round(result["seconds"], 1),
        "scan_seconds": round(stats["scan_seconds"], 1),
        "commits_scanned_per_second": round(stats["scanned"] / result["seconds"]),
        "driver_peak_rss_mib": mib(result["vm_hwm_kib"]),
        "worker_peak_rss_mib": mib(result.get("worker_vm_hwm_kib")),
        "jobs": args.jobs,
        "per_repository": {
            name: {"commits": n, "candidates": per_repo.get(name, 0)} for name, n in commits.items()
        },
    }
    document = {
        "benchmark": "mine-many",
        "machine": info,
        "hunkmetrics": measured,
        "summary": summary,
        "result": result,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(compact_json(document), encoding="utf-8")
    print(json.dumps(summary, indent=1))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
