#!/usr/bin/env python3
"""Issue 13: the Hunk4J-shaped batch against the read+parse floor measured beside it.

The sample's bugs (../shared/hunk4j-sample) whose upstream repository is mirrored
(bugs, mirrors, fixed commits and path prefixes as benchmarks/agreement maps them) make a
manifest of `id,patch,repo,rev[,path_prefix]` rows. Then, in one run:

  floor      read every pre-image file the batch reads (the patch's source files at the
             fixed commit) through one `git cat-file --batch` per repository, and parse
             each once with tree-sitter-java, in this process (one core);
  batch      `python -m hunkmetrics batch MANIFEST --profile P --jobs J` for P in
             default, birch and J in 1, 2: wall time (its ratio to the floor) and CPU
             time of the whole process tree; the same for the code at --baseline (a git
             worktree of that commit), interleaved with the current code's runs;
  identical  every record of the current code equals the baseline's apart from the tool
             version (asserted);
  start-up   CLI import time and a one-patch batch (start-up of driver and workers);
  git pool   the resident memory of a worker's `git cat-file` processes (LRU of 2);
  mine       `hunkmetrics mine` on commons-lang (--mine-since), jobs 1 and 2, both codes,
             records asserted identical.

The machine is shared: the load average is recorded beside every measurement, and each
figure is the minimum (and median) of --repeat runs.

    python benchmarks/bench_hunk4j_floor.py [--repeat 3] [--baseline 360856a] [--no-mine]

Writes benchmarks/results/hunk4j_floor.json. A standalone script, not a test.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import ctypes
import json
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import tree_sitter_java
from _common import cat_file_blobs, compact_json, snapshot_hunkmetrics
from _common import machine as common_machine
from tree_sitter import Language, Parser

import hunkmetrics
from hunkmetrics.lang.selection import DEFAULT_SELECTION

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks" / "agreement"))
from defects4j import UPSTREAM, Defects4J, git, git_dir, path_prefix  # noqa: E402
from published_agreement import FIXED_COMMIT, PUBLISHED, reference_of  # noqa: E402

SAMPLE = ROOT.parent / "shared" / "hunk4j-sample"
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "hunk4j_floor.json"
PROFILES = ("default", "birch")
JOBS = (1, 2)


# --------------------------------------------------------------------------- the bugs


def sample_bugs(mirrors: Path) -> list[dict[str, Any]]:
    """Each sample bug with a mirrored repository: id, patch, repo, rev, prefix, and the
    pre-image paths the batch reads (source files, tests left out, as batch selects)."""
    d4j = Defects4J.find(mirrors)
    bugs = []
    for patch in sorted((SAMPLE / "patches").glob("*.diff")):
        bug = bug_row(patch.stem, patch, mirrors, d4j)
        if bug is not None:
            bugs.append(bug)
    return bugs


def full_bugs(mirrors: Path, patches: Path) -> list[dict[str, Any]]:
    """Every bug of the study's published Hunk4J table (nashid/birch) whose repository is
    mirrored, its patch written to `patches` from the Defects4J mirror, as `sample_bugs`."""
    d4j = Defects4J.find(mirrors)
    birch = git_dir(mirrors, "nashid/birch")
    if d4j is None or birch is None:
        raise SystemExit("--set full needs the rjust/defects4j and nashid/birch mirrors")
    table = git(birch, "show", f"HEAD:{PUBLISHED}/total_hunk_divergence_results.csv") or ""
    pairs = git(birch, "show", f"HEAD:{PUBLISHED}/pairwise_hunk_divergence_results.csv") or ""
    bugs = []
    for name in sorted(reference_of(table, pairs).bugs):
        data = d4j.patch(name)
        if data is None:
            continue
        patch = patches / f"{name}.diff"
        patch.write_bytes(data)
        bug = bug_row(name, patch, mirrors, d4j)
        if bug is not None:
            bugs.append(bug)
    return bugs


def bug_row(name: str, patch: Path, mirrors: Path, d4j: Defects4J | None) -> dict[str, Any] | None:
    upstream = UPSTREAM.get(name.rsplit("_", 1)[0])
    repo = git_dir(mirrors, upstream) if upstream else None
    rev = d4j.fixed_commit(name) if d4j is not None else FIXED_COMMIT.get(name)
    if repo is None or rev is None or git(repo, "cat-file", "-e", f"{rev}^{{commit}}") is None:
        return None
    parsed = DEFAULT_SELECTION.apply(hunkmetrics.parse_patch(patch.read_bytes(), name=name))
    paths = [f.old_path for f in parsed.content_files if f.old_path is not None]
    prefix = path_prefix(repo, rev, paths)
    return {"id": name, "patch": str(patch), "repo": str(repo), "rev": rev, "prefix": prefix} | {
        "paths": paths
    }


def write_manifest(bugs: list[dict[str, Any]], path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["id", "patch", "repo", "rev", "path_prefix"])
        for bug in bugs:
            writer.writerow([bug["id"], bug["patch"], bug["repo"], bug["rev"], bug["prefix"] or ""])


# --------------------------------------------------------------------------- the floor


def read_and_parse(bugs: list[dict[str, Any]]) -> dict[str, Any]:
    """Read each pre-image file through one `git cat-file --batch` per repository and
    parse it once with tree-sitter-java: the least any characterization must do."""
    parser = Parser(Language(tree_sitter_java.language()))
    by_repo: dict[str, list[str]] = defaultdict(list)
    for bug in bugs:
        prefix = f"{bug['prefix']}/" if bug["prefix"] else ""
        by_repo[bug["repo"]] += [f"{bug['rev']}:{prefix}{p}" for p in bug["paths"]]
    started = time.perf_counter()
    cpu = time.process_time()
    git_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    files = size = 0
    for repo, names in by_repo.items():
        for _, data in cat_file_blobs(repo, names):
            parser.parse(data)
            files += 1
            size += len(data)
    git_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    git_cpu = (git_after.ru_utime - git_before.ru_utime) + (
        git_after.ru_stime - git_before.ru_stime
    )
    return {
        "seconds": time.perf_counter() - started,
        "cpu_seconds": time.process_time() - cpu + git_cpu,  # this process and git's
        "files": files,
        "bytes": size,
        "repositories": len(by_repo),
    }


def pool_memory(bugs: list[dict[str, Any]]) -> dict[str, Any]:
    """The resident memory of one worker's `git cat-file` processes while it reads every
    bug's files (LRU of 2 repositories)."""
    from hunkmetrics.sources.git import CatFilePool  # the code measured, not the baseline's
    from hunkmetrics.sources.readers import open_reader

    pool = CatFilePool(2)
    peak = 0
    try:
        for bug in bugs:
            reader = open_reader(bug["repo"], bug["rev"], bug["prefix"], objects=pool)
            for path in bug["paths"]:
                reader.read(path)
            reader.close()
            peak = max(peak, pool.resident_bytes())
        final = pool.resident_bytes()
    finally:
        pool.close()
    return {"peak_mib": round(peak / 2**20, 1), "final_mib": round(final / 2**20, 1)}


# --------------------------------------------------------------------------- the runs


PR_SET_CHILD_SUBREAPER = 36  # prctl option (linux/prctl.h)


def adopt_orphans() -> None:
    """Become the reaper of every descendant (Linux): a fork server outlives the driver
    that started it for a moment, and its CPU time must count too."""
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def reap() -> None:
    """Wait for every adopted descendant, so that RUSAGE_CHILDREN includes it."""
    with contextlib.suppress(ChildProcessError):
        while True:
            os.waitpid(-1, 0)


def run(code: Path, args: list[str]) -> dict[str, Any]:
    """`python -m hunkmetrics ARGS` with the package at `code`: wall and CPU seconds of
    the whole process tree (this script's children are only these runs)."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = os.getloadavg()[0]
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "hunkmetrics", *args],
        cwd=code,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - started
    reap()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"hunkmetrics {' '.join(args)} failed in {code}:\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "load": load}


def records(path: Path) -> dict[str, str]:
    """Each record by id, as canonical JSON without the tool version."""
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        record.get("tool", {}).pop("version", None)
        out[record["id"]] = json.dumps(record, sort_keys=True)
    return out


def summary(samples: list[dict[str, Any]], floor: float, floor_cpu: float) -> dict[str, Any]:
    """Best and median wall time, best CPU time (the whole process tree, git included),
    and their ratios to the floor's (its wall time on one core; its CPU, git included)."""
    walls = [s["wall"] for s in samples]
    cpus = [s["cpu"] for s in samples]
    return {
        "wall_min": round(min(walls), 3),
        "wall_median": round(statistics.median(walls), 3),
        "cpu_min": round(min(cpus), 3),
        "ratio_to_floor": round(min(walls) / floor, 2),
        "cpu_ratio_to_floor_cpu": round(min(cpus) / floor_cpu, 2),
        "load_avg": [round(s["load"], 2) for s in samples],
    }


def baseline_tree(commit: str, work: Path) -> Path:
    tree = work / "baseline"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(tree), commit],
        check=True,
    )
    return tree


def remove_tree(tree: Path) -> None:
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False
    )


def import_seconds(code: Path, repeat: int) -> float:
    env = {**os.environ, "PYTHONPATH": str(code)}
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c", "import hunkmetrics.cli.root"], cwd=code, env=env, check=True
        )
        best = min(best, time.perf_counter() - started)
    return round(best, 3)


def worker_start(method: str, repeat: int) -> dict[str, float] | None:
    """Seconds from submitting a first (empty) batch task to its result, the worker
    started by `method` (what a run pays per worker before its first patch): the first
    time in this process (a fork server starts then) and the best of `repeat`."""
    from hunkmetrics.datasets.batch import Settings, run_chunk
    from hunkmetrics.datasets.executors import LocalExecutor

    times = []
    try:
        for _ in range(repeat):
            started = time.perf_counter()
            with LocalExecutor(1, ("hunkmetrics.datasets.batch",), method) as executor:
                future = executor.submit(run_chunk, Settings(), [])
                executor.some_done([future])  # the executor settles its futures there
                future.result()
                times.append(time.perf_counter() - started)
    except (ValueError, AttributeError):  # no such start method here
        return None
    return {"first": round(times[0], 3), "best": round(min(times), 3)}


def worker_starts(repeat: int) -> dict[str, Any]:
    """`worker_start` for each start method, in a process of its own (its fork server
    and resource tracker end with it, and `reap` waits for them)."""
    code = (
        "import json, bench_hunk4j_floor as b; print(json.dumps({m: b.worker_start(m, "
        f"{repeat}) for m in ('fork', 'forkserver', 'spawn')}}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=Path(__file__).parent,
        capture_output=True,
        text=True,
        check=True,
    )
    reap()
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline", default="360856a")
    parser.add_argument("--mine-since", default="2020-01-01")
    parser.add_argument("--no-mine", action="store_true")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument(
        "--set",
        choices=("sample", "full"),
        default="sample",
        help="sample: the shared sample's bugs, --copies rows each; full: every Hunk4J bug "
        "of the study's table with a mirrored history (patches from the Defects4J mirror)",
    )
    parser.add_argument(
        "--copies", type=int, default=9, help="rows per sample bug (9: about Hunk4J's 360)"
    )
    args = parser.parse_args(argv)
    patches = tempfile.TemporaryDirectory()

    adopt_orphans()
    # A `timeout` or kill ends the run through `finally`: the baseline worktree goes too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.set == "full":
        bugs = full_bugs(args.mirrors, Path(patches.name))
        args.copies = 1
    else:
        sample = sample_bugs(args.mirrors)
        # Rows by project, as a dataset's manifest usually is: each project's bugs, copy
        # by copy.
        projects = sorted({bug["repo"] for bug in sample})
        bugs = [
            bug | {"id": f"{bug['id']}#{k}"}
            for repo in projects
            for k in range(args.copies)
            for bug in sample
            if bug["repo"] == repo
        ]
    if not bugs:
        raise SystemExit(f"no sample bug has its repository under {args.mirrors}")
    result: dict[str, Any] = {
        "benchmark": "hunk4j_floor",
        "machine": common_machine(load_avg_at_start=[round(x, 2) for x in os.getloadavg()]),
        "hunkmetrics": snapshot_hunkmetrics(Path(tempfile.gettempdir()), copy=False),
        "dataset": {
            "set": args.set,
            "bugs": len(bugs),
            "copies_of_each_sample_bug": args.copies,
            "skipped": "sample bugs without a mirrored git history (Chart: SVN)",
            "files": sum(len(b["paths"]) for b in bugs),
            "repositories": len({b["repo"] for b in bugs}),
            "baseline": args.baseline,
            "repeat": args.repeat,
        },
    }
    floors = [read_and_parse(bugs) for _ in range(args.repeat)]
    floor = min(f["seconds"] for f in floors)
    result["floor"] = floors[0] | {
        "seconds": round(floor, 3),
        "seconds_all": [round(f["seconds"], 3) for f in floors],
        "cpu_seconds": round(min(f["cpu_seconds"] for f in floors), 3),
    }
    result["git_pool_memory"] = pool_memory(bugs)
    result["worker_start_seconds"] = worker_starts(args.repeat)

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        manifest = work / "manifest.csv"
        write_manifest(bugs, manifest)
        baseline = baseline_tree(args.baseline, work)
        codes = {"current": ROOT, "baseline": baseline}
        try:
            samples: dict[str, list[dict[str, Any]]] = defaultdict(list)
            for k in range(args.repeat):
                for profile in PROFILES:
                    for jobs in JOBS:
                        for name, code in codes.items():
                            out = work / f"{name}-{profile}-j{jobs}-{k}.jsonl"
                            batch = ["batch", str(manifest), "-o", str(out), "--jobs", str(jobs)]
                            samples[f"{name}/{profile}/j{jobs}"].append(
                                run(code, [*batch, "--profile", profile])
                            )
            floor_cpu = result["floor"]["cpu_seconds"]
            result["batch"] = {key: summary(s, floor, floor_cpu) for key, s in samples.items()}
            for profile in PROFILES:
                for jobs in JOBS:
                    current = records(work / f"current-{profile}-j{jobs}-0.jsonl")
                    before = records(work / f"baseline-{profile}-j{jobs}-0.jsonl")
                    assert current == before, f"{profile} --jobs {jobs}: records differ"
                    assert all('"error": null' in r for r in current.values())
            result["identical_to_baseline"] = True

            one = work / "one.csv"
            write_manifest(bugs[:1], one)  # start-up: driver, worker, one patch
            start: dict[str, Any] = {}
            for name, code in codes.items():
                start[f"{name}/cli_import_seconds"] = import_seconds(code, args.repeat + 2)
                for jobs in JOBS:
                    runs = [
                        run(code, ["batch", str(one), "-o", str(work / f"one-{name}-{jobs}-{k}")])
                        | {}
                        for k in range(args.repeat)
                    ]
                    start[f"{name}/one_patch_j{jobs}"] = round(min(r["wall"] for r in runs), 3)
            result["start_up"] = start

            if not args.no_mine:
                lang = git_dir(args.mirrors, "apache/commons-lang")
                mined: dict[str, list[dict[str, Any]]] = defaultdict(list)
                for k in range(args.repeat):
                    for jobs in JOBS:
                        for name, code in codes.items():
                            out = work / f"mine-{name}-j{jobs}-{k}.jsonl"
                            mine = ["mine", str(lang), "-o", str(out), "--jobs", str(jobs)]
                            mined[f"{name}/j{jobs}"].append(
                                run(code, [*mine, "--since", args.mine_since])
                            )
                for jobs in JOBS:
                    current = records(work / f"mine-current-j{jobs}-0.jsonl")
                    assert current == records(work / f"mine-baseline-j{jobs}-0.jsonl")
                result["mine"] = {
                    "repository": str(lang),
                    "since": args.mine_since,
                    "records": len(current),
                    "identical_to_baseline": True,
                } | {
                    key: {
                        "wall_min": round(min(s["wall"] for s in v), 3),
                        "wall_median": round(statistics.median(s["wall"] for s in v), 3),
                        "cpu_min": round(min(s["cpu"] for s in v), 3),
                        "load_avg": [round(s["load"], 2) for s in v],
                    }
                    for key, v in mined.items()
                }
        finally:
            remove_tree(baseline)
    result["machine"]["load_avg_at_end"] = [round(x, 2) for x in os.getloadavg()]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(compact_json(result), encoding="utf-8")
    print(compact_json(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
