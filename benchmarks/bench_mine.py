#!/usr/bin/env python3
"""Benchmark: `hunkmetrics mine` on a real history of about 10,000 commits.

Measures, on a local mirror clone of the repository:

  walk-git        the commit walk alone through `git log` (what `mine` uses)
  walk-pydriller  the same walk through PyDriller's Repository.traverse_commits()
                  (PyDriller is not a dependency of hunkmetrics any more: these two
                  comparisons run only when it is installed)
  pydriller-diff  PyDriller's per-commit `modified_files` (+ diff) on a sample of the
                  commits that pass the message filter: the cost `mine` avoids
  scan            message filter + source files + hunk counts (scan_candidates), no
                  characterization: commits scanned per second, candidates found
  mine-jN         the whole run, `mine(..., jobs=N)`, for each --jobs value: wall time,
                  characterized per second, peak RSS of the driver and of each worker

Each measurement runs in a fresh interpreter so that its peak RSS is its own.

    python benchmarks/bench_mine.py [--repo PATH] [--jobs 1,2]

This is a standalone script, not a test: pytest does not collect it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from _common import compact_json, mib, snapshot_hunkmetrics, vm_hwm_kib
from _common import machine as common_machine

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "mine.json"
DEFAULT_REPO = Path("/work/.mirror/apache+commons-lang/repo")
SAMPLE = 200  # commits for the pydriller-diff measurement
SHOWN = ("commits", "matched", "candidates", "sampled", "files")


# --------------------------------------------------------------------------- child


class WorkerSampler(threading.Thread):
    """The peak VmHWM of this process's worker processes, read from /proc every 0.1 s:
    every Python process descending from this one (spawned, or forked by a fork server,
    whose parent is the server), git children left out. ru_maxrss of children is no good
    here: a child forked from this process counts this process's RSS at the fork."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.peak = 0
        self._done = threading.Event()

    def run(self) -> None:
        me = str(os.getpid())
        while not self._done.wait(0.1):
            parents: dict[str, str] = {}
            peaks: dict[str, int] = {}
            for entry in Path("/proc").iterdir():
                if not entry.name.isdigit():
                    continue
                try:
                    status = (entry / "status").read_text()
                    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
                    parents[entry.name] = fields.get("PPid", "").strip()
                    if "VmHWM" in fields and b"python" in (entry / "cmdline").read_bytes():
                        peaks[entry.name] = int(fields["VmHWM"].split()[0])
                except OSError:
                    continue
            for pid, peak in peaks.items():
                ancestor, hops = parents.get(pid), 0
                while ancestor and ancestor != me and hops < 8:
                    ancestor, hops = parents.get(ancestor), hops + 1
                if ancestor == me:
                    self.peak = max(self.peak, peak)

    def stop(self) -> None:
        self._done.set()
        self.join()


def walk_pydriller(repo: str) -> list:
    """The walk `mine` once offered as `--walker pydriller`: the attributes that need no
    diff, for every non-merge commit."""
    from pydriller import Repository

    from hunkmetrics.datasets.commits import CommitInfo

    walk = Repository(str(Path(repo).resolve()), only_no_merge=True)
    return [
        CommitInfo(c.hash, tuple(c.parents), c.committer_date, c.author.name or "", c.msg)
        for c in walk.traverse_commits()
    ]


def child(mode: str, repo: str, out: str, jobs: int) -> None:
    from hunkmetrics.datasets import commits as history
    from hunkmetrics.datasets import mine as mining

    options = mining.mine_options()
    result: dict = {"mode": mode}
    t0 = time.perf_counter()
    if mode == "walk-git":
        commits = list(history.walk_commits(repo))
        result["commits"] = len(commits)
        result["matched"] = sum(1 for c in commits if c.parents and options.grep.search(c.message))
    elif mode == "walk-pydriller":
        commits = list(walk_pydriller(repo))
        result["commits"] = len(commits)
        result["matched"] = sum(1 for c in commits if c.parents and options.grep.search(c.message))
    elif mode == "pydriller-diff":
        from pydriller import Repository

        sampled = files = 0
        spent = 0.0
        for commit in Repository(repo, only_no_merge=True).traverse_commits():
            if not commit.parents or not options.grep.search(commit.msg):
                continue
            began = time.perf_counter()
            for modified in commit.modified_files:
                files += 1
                _ = modified.diff
            spent += time.perf_counter() - began
            sampled += 1
            if sampled >= SAMPLE:
                break
        result.update(sampled=sampled, files=files, modified_files_seconds=spent)
    elif mode == "scan":
        stats = mining.MineStats()
        found = sum(1 for _ in mining.scan_candidates(repo, options, stats=stats))
        result.update(candidates=found, stats=stats.to_dict())
    elif mode in ("mine", "mine-many"):
        from hunkmetrics.datasets.repos import read_repo_list

        sampler = WorkerSampler()
        sampler.start()
        target = read_repo_list(repo) if mode == "mine-many" else repo  # a CSV list
        stats = mining.mine(target, out, options, jobs=jobs)
        sampler.stop()
        result.update(stats=stats.to_dict(), worker_vm_hwm_kib=sampler.peak or None)
    else:
        raise SystemExit(f"unknown mode {mode}")
    result["seconds"] = time.perf_counter() - t0
    result["self_maxrss_kib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result["vm_hwm_kib"] = vm_hwm_kib()
    result["children_maxrss_kib"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(json.dumps(result))


# --------------------------------------------------------------------------- parent


def run_child(mode: str, work: Path, repo: Path, jobs: int = 1) -> dict:
    out = work / f"{mode}.jsonl"
    out.unlink(missing_ok=True)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(work / "snapshot"), env.get("PYTHONPATH")) if p
    )
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--child",
        mode,
        "--repo",
        str(repo),
        "--out",
        str(out),
        "--jobs",
        str(jobs),
    ]
    t0 = time.perf_counter()
    done = subprocess.run(cmd, check=True, env=env, capture_output=True, text=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["process_seconds"] = time.perf_counter() - t0
    if out.exists():
        records = [json.loads(line) for line in out.read_text().splitlines()]
        result["records"] = len(records)
        result["errors"] = sum(1 for r in records if r["error"])
        # what the errors say, their ids and commit-specific numbers left out
        kinds = Counter(re.sub(r"\d[\d,.]*", "N", r["error"])[:120] for r in records if r["error"])
        result["error_kinds"] = dict(kinds.most_common(10))
        result["ids"] = sorted(r["id"] for r in records)
        result["out_bytes"] = out.stat().st_size
    return result


def version_of(module: str) -> str | None:
    try:
        from importlib.metadata import version

        return version(module)
    except Exception:
        return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--repo", type=Path, default=None, help=f"git repository to mine (default: {DEFAULT_REPO})"
    )
    ap.add_argument("--jobs", default="1,2", help="--jobs values to measure (default 1,2)")
    ap.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="runs of each whole mine; the fastest is kept (default 1)",
    )
    ap.add_argument(
        "--skip-pydriller", action="store_true", help="leave out the PyDriller comparison"
    )
    ap.add_argument("--out", type=Path, default=RESULTS)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.child, str(args.repo), str(args.out), int(args.jobs))
        return 0
    repo = args.repo or DEFAULT_REPO
    if not (repo / "HEAD").exists() and not (repo / ".git").exists():
        print(
            f"no git repository at {repo}. Give --repo PATH: a clone of a project with "
            "about 10,000 commits (e.g. git clone --mirror "
            "https://github.com/apache/commons-lang).",
            file=sys.stderr,
        )
        return 2
    jobs = [int(j) for j in args.jobs.split(",") if j.strip()]
    with tempfile.TemporaryDirectory(prefix="bench-mine-") as tmp:
        return run(args, repo, jobs, Path(tmp))


def run(args: argparse.Namespace, source: Path, jobs: list[int], work: Path) -> int:
    info = common_machine(pydriller=version_of("pydriller"), tree_sitter=version_of("tree-sitter"))
    print(
        f"machine: {info['cpu_model']}, {info['cpu_count']} CPUs, "
        f"{info['memory_gib']} GiB, Python {info['python']}, {info['git']}"
    )
    measured = snapshot_hunkmetrics(work)
    # A local mirror clone (hard links, well under a second). PyDriller writes
    # blame.markUnblamableLines into the config of the repository it opens: it must not
    # touch the original. `mine` itself needs no work tree.
    repo = work / "repo.git"
    t0 = time.perf_counter()
    subprocess.run(
        ["git", "clone", "--quiet", "--mirror", "--", str(source), str(repo)], check=True
    )
    clone_seconds = time.perf_counter() - t0
    head = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    total = int(
        subprocess.run(
            ["git", "-C", str(repo), "rev-list", "--count", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    print(
        f"repository: {source} (HEAD {head[:12]}, {total} commits), cloned in {clone_seconds:.2f} s"
    )

    results: dict[str, dict] = {}
    modes = ["walk-git", "scan"]
    if not args.skip_pydriller and version_of("pydriller") is not None:
        modes[1:1] = ["walk-pydriller", "pydriller-diff"]
    for mode in modes:
        results[mode] = run_child(mode, work, repo)
        shown = {k: v for k, v in results[mode].items() if k in SHOWN}
        print(f"  {mode:15s} {results[mode]['seconds']:7.2f} s  {json.dumps(shown)}")
    for n in jobs:
        key = f"mine-j{n}"
        runs = [run_child("mine", work, repo, n) for _ in range(args.repeat)]
        best = min(runs, key=lambda r: r["seconds"])
        best["seconds_all"] = [round(r["seconds"], 2) for r in runs]
        best["scan_seconds_all"] = [r["stats"]["scan_seconds"] for r in runs]
        for peak in ("vm_hwm_kib", "worker_vm_hwm_kib"):
            values = [r[peak] for r in runs if r.get(peak)]
            best[peak] = max(values) if values else None
        results[key] = best
        stats = results[key]["stats"]
        print(
            f"  {key:15s} {results[key]['seconds']:7.2f} s  {stats['written']} written, "
            f"{results[key]['errors']} errors, driver {mib(results[key]['vm_hwm_kib'])} "
            f"MiB, each worker {mib(results[key].get('worker_vm_hwm_kib'))} MiB"
        )

    scan = results["scan"]
    summary: dict = {
        "commits_scanned": scan["stats"]["scanned"],
        "matched_by_message": scan["stats"]["matched"],
        "no_source_change": scan["stats"]["no_source"],
        "out_of_hunk_range": scan["stats"]["out_of_range"],
        "candidates": scan["candidates"],
        "scan_seconds": round(scan["seconds"], 2),
        "scanned_per_second": round(scan["stats"]["scanned"] / scan["seconds"]),
        "walk_git_seconds": round(results["walk-git"]["seconds"], 2),
    }
    if "walk-pydriller" in results:
        pd = results["walk-pydriller"]
        sample = results["pydriller-diff"]
        summary["walk_pydriller_seconds"] = round(pd["seconds"], 2)
        summary["same_commits_both_walks"] = (
            pd["commits"] == results["walk-git"]["commits"]
            and pd["matched"] == results["walk-git"]["matched"]
        )
        summary["pydriller_modified_files_ms_per_commit"] = round(
            1000 * sample["modified_files_seconds"] / max(1, sample["sampled"]), 1
        )
        summary["mine_scan_ms_per_matched_commit"] = round(
            1000 * scan["stats"]["scan_seconds"] / max(1, scan["stats"]["matched"]), 2
        )
    ids = None
    for n in jobs:
        r = results[f"mine-j{n}"]
        summary[f"jobs{n}"] = {
            "wall_seconds": round(r["seconds"], 2),
            "wall_seconds_median": round(statistics.median(r["seconds_all"]), 2),
            "wall_seconds_all": r["seconds_all"],
            "process_seconds": round(r["process_seconds"], 2),
            "written": r["stats"]["written"],
            "errors": r["errors"],
            "characterized_per_second": round(r["stats"]["written"] / r["seconds"], 1),
            "characterized_per_second_median": round(
                r["stats"]["written"] / statistics.median(r["seconds_all"]), 1
            ),
            "driver_peak_rss_mib": mib(r["vm_hwm_kib"]),
            "worker_peak_rss_mib": mib(r.get("worker_vm_hwm_kib")),
            "out_mib": round(r.get("out_bytes", 0) / 1024 / 1024, 1),
        }
        ids = r["ids"] if ids is None else ids
        summary[f"jobs{n}"]["same_commits_as_first_run"] = r["ids"] == ids
    for r in results.values():
        r.pop("ids", None)

    document = {
        "benchmark": "mine",
        "machine": info,
        "hunkmetrics": measured,
        "repository": {
            "source": str(source),
            "head": head,
            "commits": total,
            "clone": "git clone --mirror (local, hard links)",
            "clone_seconds": round(clone_seconds, 2),
            "grep": "default",
            "min_hunks": 2,
            "profile": "default",
            "exclude_tests": True,
            "languages": "all",
        },
        "summary": summary,
        "results": results,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(compact_json(document), encoding="utf-8")
    print(json.dumps(summary, indent=1))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
