"""Batch throughput and memory: `hunkmetrics batch` on 250, 500 and 1,000 patches with
1 and 2 worker processes (not part of the test run).

    python benchmarks/bench_batch.py                      # the full run (about 3 minutes)
    python benchmarks/bench_batch.py --sizes 100 --jobs 1,2 --files 100   # a quick look

The dataset is synthetic and the same for a given seed: a Java project of `--files` files
in one git repository with a linear history of `--patches` commits. Commit k edits 2-3
methods in each of 1-3 files, so patch k (`git diff` from commit k-1 to k) has 2-9 hunks;
the manifest names the repository and, per row, the revision k-1 (the pre-image). Each
patch therefore has its own revision, as in Defects4J-style datasets, and its worker
opens a git reader for it. A second set of patches all against one revision (`base`)
measures what sharing a reader between consecutive rows saves (`--chunk-size 1` vs the
automatic chunking).

Every measurement is a fresh `python -m hunkmetrics batch` process, started by a small
wrapper process of its own so that the wrapper's `RUSAGE_CHILDREN` covers exactly that
run (driver, workers and their `git` helpers). With psutil installed the wrapper also
samples the whole process tree every 20 ms for the peak of the summed RSS.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import hashlib
import importlib.util
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import WORDS, snapshot_hunkmetrics
from _common import machine as common_machine

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "batch.json"
METHODS = 24

# --------------------------------------------------------------------------- the dataset


def java_file(package: str, name: str, rng: random.Random) -> list[str]:
    lines = [
        f"package {package};",
        "",
        "import java.util.List;",
        "import java.util.Map;",
        "",
        f"public class {name} {{",
        "    private int total;",
        "    private final Map<String, Integer> seen = new java.util.HashMap<>();",
        "",
    ]
    for m in range(METHODS):
        k = rng.randint(1, 999)
        lines += [
            f"    public int op{m}(int a, List<String> names) {{",
            f"        int v = a + {k};",
            f"        if (v > {rng.randint(1, 99)}) {{",
            f'            names.add("{name}-{m}-" + v);',
            "        }",
            f'        seen.merge("{rng.choice(WORDS)}", v, Integer::sum);',
            f"        total += v * {rng.randint(2, 9)};",
            "        return v;",
            "    }",
            "",
        ]
    lines.append("}")
    return lines


def statement(rng: random.Random) -> str:
    word = rng.choice(WORDS)
    return rng.choice(
        [
            f"        int v = a * {rng.randint(2, 99)} - {rng.randint(0, 9)};",
            f"        int v = Math.max(a, {rng.randint(0, 999)}) + total;",
            f'        int v = seen.getOrDefault("{word}", a) + {rng.randint(1, 99)};',
            f"        int v = (a ^ {rng.randint(1, 255)}) & 0xff; // {word}",
        ]
    )


def edit(lines: list[str], rng: random.Random) -> list[str]:
    """2-3 methods at least two apart, each: its first statement replaced (sometimes
    with a line added)."""
    lines = list(lines)
    for m in sorted(rng.sample(range(0, METHODS, 2), rng.randint(2, 3)), reverse=True):
        header = next(i for i, line in enumerate(lines) if f" op{m}(" in line)
        lines[header + 1] = statement(rng)
        if rng.random() < 0.3:
            lines.insert(header + 2, f'        names.add("{rng.choice(WORDS)}");')
    return lines


def blob(path: str, lines: list[str]) -> bytes:
    data = ("\n".join(lines) + "\n").encode()
    return f"M 100644 inline {path}\ndata {len(data)}\n".encode() + data + b"\n"


def commit(ref: str, mark: int, message: str, parent: int | None, changes: list[bytes]) -> bytes:
    head = (
        f"commit {ref}\nmark :{mark}\ncommitter Bench <bench@hunkmetrics.invalid> "
        f"{1_700_000_000 + mark} +0000\ndata {len(message)}\n{message}\n"
    )
    if parent is not None:
        head += f"from :{parent}\n"
    return head.encode() + b"".join(changes) + b"\n"


def git(repo: Path, *args: str, stdin: bytes | None = None) -> bytes:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(
        ["git", "-C", str(repo), *args], input=stdin, env=env, capture_output=True, check=True
    ).stdout


def generate(work: Path, files: int, patches: int, shared: int, seed: int) -> dict:
    """The repository, `patches` linear-history patches and `shared` patches against
    `base`, with their manifests."""
    rng = random.Random(seed)
    repo = work / "repo"
    repo.mkdir(parents=True)
    git(repo, "init", "--quiet", "--bare")
    packages = max(1, files // 20)
    tree: dict[str, list[str]] = {}
    for f in range(files):
        package = f"com.bench.p{f % packages:02d}"
        path = f"src/main/java/{package.replace('.', '/')}/C{f:03d}.java"
        tree[path] = java_file(package, f"C{f:03d}", rng)
    paths = sorted(tree)
    stream = [commit("refs/heads/main", 1, "base", None, [blob(p, tree[p]) for p in paths])]
    stream.append(b"reset refs/tags/base\nfrom :1\n\n")
    for k in range(patches):
        changed = []
        for path in rng.sample(paths, rng.randint(1, 3)):
            tree[path] = edit(tree[path], rng)
            changed.append(blob(path, tree[path]))
        stream.append(commit("refs/heads/main", k + 2, f"change {k}", k + 1, changed))
    git(repo, "fast-import", "--quiet", f"--export-marks={work / 'marks'}", stdin=b"".join(stream))

    # The shared-revision set: edits of the base files, each on its own branch.
    base = {p: git(repo, "show", f"base:{p}").decode().splitlines() for p in paths}
    star = []
    for s in range(shared):
        changed = [blob(p, edit(base[p], rng)) for p in rng.sample(paths, rng.randint(1, 3))]
        star.append(_branch_from_base(s, changed))
    if star:
        git(repo, "fast-import", "--quiet", stdin=b"".join(star))

    marks = dict(line.split() for line in (work / "marks").read_text().splitlines())
    sha = {int(mark[1:]): value for mark, value in marks.items()}
    (work / "patches").mkdir()
    rows, digest = [], hashlib.sha1()
    for k in range(patches):
        diff = git(repo, "diff", "--no-color", "--no-ext-diff", sha[k + 1], sha[k + 2])
        name = f"h{k:04d}"
        (work / "patches" / f"{name}.diff").write_bytes(diff)
        digest.update(diff)
        rows.append((name, f"patches/{name}.diff", "repo", sha[k + 1]))
    shared_rows = []
    for s in range(shared):
        diff = git(repo, "diff", "--no-color", "--no-ext-diff", "base", f"shared/{s}")
        name = f"s{s:04d}"
        (work / "patches" / f"{name}.diff").write_bytes(diff)
        shared_rows.append((name, f"patches/{name}.diff", "repo", "base"))
    hunks = sum(p.read_bytes().count(b"\n@@ ") for p in (work / "patches").glob("h*.diff"))
    return {
        "repo": repo,
        "rows": rows,
        "shared_rows": shared_rows,
        "lines": sum(len(v) for v in base.values()),
        "patch_sha1": digest.hexdigest(),
        "hunks_per_patch": round(hunks / max(1, patches), 2),
    }


def _branch_from_base(s: int, changed: list[bytes]) -> bytes:
    message = f"shared {s}"
    return (
        (
            f"commit refs/heads/shared/{s}\ncommitter Bench <bench@hunkmetrics.invalid> "
            f"1700000000 +0000\ndata {len(message)}\n{message}\nfrom refs/tags/base\n"
        ).encode()
        + b"".join(changed)
        + b"\n"
    )


def write_manifest(path: Path, rows: list[tuple[str, str, str, str]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["id", "patch", "repo", "rev"])
        writer.writerows(rows)
    return path


# --------------------------------------------------------------------------- measuring


def measure_child(out: Path, command: list[str]) -> None:
    """Run `command`; record wall time, the peak RSS of its process tree (sampled) and
    the largest single descendant's peak (`RUSAGE_CHILDREN`, exact)."""
    try:
        import psutil
    except ImportError:
        psutil = None
    started = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    tree_peak = driver_peak = workers_peak = 0
    if psutil is not None:
        root = psutil.Process(proc.pid)
        while proc.poll() is None:
            with contextlib.suppress(psutil.Error):
                driver = root.memory_info().rss
                others = 0
                for child in root.children(recursive=True):
                    with contextlib.suppress(psutil.Error):
                        others += child.memory_info().rss
                driver_peak = max(driver_peak, driver)
                workers_peak = max(workers_peak, others)
                tree_peak = max(tree_peak, driver + others)
            time.sleep(0.02)
    _, stderr = proc.communicate()
    wall = time.perf_counter() - started
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    text = stderr.decode(errors="replace")
    match = re.search(r"batch: (\d+) written \((\d+) errors?\).* in ([\d.]+) s", text)
    out.write_text(
        json.dumps(
            {
                "returncode": proc.returncode,
                "wall_seconds": wall,
                "batch_seconds": float(match.group(3)) if match else None,
                "written": int(match.group(1)) if match else None,
                "errors": int(match.group(2)) if match else None,
                "max_process_rss_mib": round(usage.ru_maxrss / 1024, 1),
                "tree_peak_rss_mib": round(tree_peak / 2**20, 1) if psutil else None,
                "driver_peak_rss_mib": round(driver_peak / 2**20, 1) if psutil else None,
                "workers_peak_rss_mib": round(workers_peak / 2**20, 1) if psutil else None,
                "cpu_seconds_children": round(usage.ru_utime + usage.ru_stime, 2),
                "stderr_tail": text.strip().splitlines()[-1:] if text.strip() else [],
            }
        )
    )


def best_of(repeat: int, *args, **kwargs) -> dict:
    """The fastest of `repeat` runs (the machine may be shared); the highest memory."""
    results = [run_batch(*args, **kwargs) for _ in range(repeat)]
    best = dict(min(results, key=lambda r: r["wall_seconds"]))
    for key in (
        "max_process_rss_mib",
        "tree_peak_rss_mib",
        "driver_peak_rss_mib",
        "workers_peak_rss_mib",
    ):
        values = [r[key] for r in results if r[key] is not None]
        best[key] = max(values) if values else None
    best["every_id_once"] = all(r["every_id_once"] for r in results)
    best["errors"] = max(r["errors"] or 0 for r in results)
    best["wall_seconds_all"] = [round(r["wall_seconds"], 2) for r in results]
    return best


def run_batch(
    work: Path, manifest: Path, jobs: int, tag: str, chunk_size: int | None = None
) -> dict:
    out = work / f"out-{tag}.jsonl"
    out.unlink(missing_ok=True)
    command = [
        sys.executable,
        "-m",
        "hunkmetrics",
        "batch",
        str(manifest),
        "--out",
        str(out),
        "--jobs",
        str(jobs),
    ]
    if chunk_size:
        command += ["--chunk-size", str(chunk_size)]
    result_file = work / f"measure-{tag}.json"
    env = dict(os.environ)
    snapshot = work / "snapshot"
    if snapshot.is_dir():
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(snapshot), env.get("PYTHONPATH")) if p)
    subprocess.run(
        [
            sys.executable,
            str(Path(__file__).resolve()),
            "--child",
            str(result_file),
            "--",
            *command,
        ],
        check=True,
        env=env,
    )
    result = json.loads(result_file.read_text())
    if result["returncode"] != 0:
        raise SystemExit(f"batch failed: {result['stderr_tail']}")
    ids = [json.loads(line)["id"] for line in out.read_bytes().splitlines()]
    with manifest.open(encoding="utf-8") as handle:
        expected = {row["id"] for row in csv.DictReader(handle)}
    result["every_id_once"] = len(ids) == len(set(ids)) and set(ids) == expected
    out.unlink()
    return result


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        measure_child(Path(argv[1]), argv[3:])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="250,500,1000", help="dataset sizes (patches)")
    ap.add_argument("--jobs", default="1,2", help="worker process counts")
    ap.add_argument("--files", type=int, default=300, help="Java files in the repository")
    ap.add_argument(
        "--shared",
        type=int,
        default=250,
        help="patches against one revision, for the reader-sharing check (0: skip)",
    )
    ap.add_argument("--seed", type=int, default=20240701)
    ap.add_argument(
        "--repeat", type=int, default=2, help="runs per measurement; the fastest is kept"
    )
    ap.add_argument("--keep", type=Path, help="generate into this (empty) directory, keep it")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument(
        "--no-snapshot",
        action="store_true",
        help="run the live hunkmetrics/ instead of a copy made at the start",
    )
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    jobs_list = [int(j) for j in args.jobs.split(",")]

    with contextlib.ExitStack() as stack:
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            if any(args.keep.iterdir()):
                raise SystemExit(f"{args.keep} is not empty")
            work = args.keep
        else:
            work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-batch-")))
        return run(args, sizes, jobs_list, work)


def run(args: argparse.Namespace, sizes: list[int], jobs_list: list[int], work: Path) -> int:
    load_before = os.getloadavg()
    measured = snapshot_hunkmetrics(work, copy=not args.no_snapshot)
    t0 = time.perf_counter()
    data = generate(work, args.files, max(sizes), args.shared, args.seed)
    generated = time.perf_counter() - t0
    print(
        f"generated {args.files} files ({data['lines']} lines), {max(sizes)} history "
        f"patches ({data['hunks_per_patch']} hunks each on average) and {args.shared} "
        f"shared-revision patches in {generated:.1f} s"
    )
    runs = []
    for size in sizes:
        manifest = write_manifest(work / f"manifest-{size}.csv", data["rows"][:size])
        for jobs in jobs_list:
            result = best_of(args.repeat, work, manifest, jobs, f"{size}-{jobs}")
            result.update(
                patches=size,
                jobs=jobs,
                chunk_size="auto",
                revisions="one each",
                patches_per_second=round(size / result["wall_seconds"], 2),
                ms_per_patch=round(1000 * result["wall_seconds"] / size, 2),
            )
            runs.append(result)
            print(
                f"{size:5d} patches, --jobs {jobs}: {result['wall_seconds']:6.1f} s  "
                f"{result['patches_per_second']:6.1f} patches/s  "
                f"tree peak {result['tree_peak_rss_mib']} MiB  largest process "
                f"{result['max_process_rss_mib']} MiB  errors {result['errors']}  "
                f"ids ok {result['every_id_once']}"
            )
    sharing = []
    if args.shared:
        manifest = write_manifest(work / "manifest-shared.csv", data["shared_rows"])
        for chunk in (1, None):
            result = best_of(args.repeat, work, manifest, 1, f"shared-{chunk}", chunk_size=chunk)
            result.update(
                patches=args.shared,
                jobs=1,
                chunk_size=chunk or "auto",
                revisions="one for all",
                patches_per_second=round(args.shared / result["wall_seconds"], 2),
                ms_per_patch=round(1000 * result["wall_seconds"] / args.shared, 2),
            )
            sharing.append(result)
            print(
                f"{args.shared:5d} patches on one revision, --jobs 1, chunk "
                f"{chunk or 'auto'}: {result['patches_per_second']:6.1f} patches/s"
            )
    for result in runs:
        base = next((r for r in runs if r["patches"] == result["patches"] and r["jobs"] == 1), None)
        result["speedup_vs_1_job"] = (
            round(base["wall_seconds"] / result["wall_seconds"], 2) if base else None
        )
        result["cpu_ms_per_patch"] = round(
            1000 * result["cpu_seconds_children"] / result["patches"], 2
        )
        # The cost of one more patch, start-up excluded: between this size and the
        # next smaller one with the same --jobs.
        smaller = [
            r for r in runs if r["jobs"] == result["jobs"] and r["patches"] < result["patches"]
        ]
        if smaller:
            prev = max(smaller, key=lambda r: r["patches"])
            result["marginal_ms_per_patch"] = round(
                1000
                * (result["wall_seconds"] - prev["wall_seconds"])
                / (result["patches"] - prev["patches"]),
                2,
            )
    print(
        "patches  jobs  wall s  patches/s  speed-up  ms/patch  marginal ms  CPU ms/patch  "
        "tree peak MiB"
    )
    for r in runs:
        print(
            f"{r['patches']:7d}  {r['jobs']:4d}  {r['wall_seconds']:6.1f}  "
            f"{r['patches_per_second']:9.1f}  {r['speedup_vs_1_job']:8.2f}  "
            f"{r['ms_per_patch']:8.1f}  {r.get('marginal_ms_per_patch', '–'):>11}  "
            f"{r['cpu_ms_per_patch']:12.1f}  {r['tree_peak_rss_mib']}"
        )
    ok = all(r["every_id_once"] and r["errors"] == 0 for r in runs + sharing)
    document = {
        "benchmark": "bench_batch",
        "machine": common_machine(psutil=importlib.util.find_spec("psutil") is not None),
        "hunkmetrics": measured,
        "dataset": {
            "files": args.files,
            "lines": data["lines"],
            "seed": args.seed,
            "history_patches": max(sizes),
            "shared_patches": args.shared,
            "hunks_per_patch": data["hunks_per_patch"],
            "patch_sha1": data["patch_sha1"],
            "generate_seconds": round(generated, 1),
        },
        "runs": runs,
        "reader_sharing": sharing,
        "load_average_before_after": [round(load_before[0], 2), round(os.getloadavg()[0], 2)],
        "checks_passed": ok,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(document, indent=1) + "\n")
    print(f"wrote {args.out}; checks {'passed' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
