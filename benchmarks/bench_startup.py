#!/usr/bin/env python3
"""Start-up per command: `hunkmetrics hunks|divergence|proximity|characterize` on a small
patch, each in a fresh process, as a shell loop over commits calls them (issue 22, goal
0.15 s).

Prints, with the machine and its load average, the wall time and the CPU time (user +
system, which load on a shared machine disturbs less; numpy's BLAS threads add to it) of
each command line, the fastest and the median of `--runs` runs, beside `python -c pass`;
then, per command, the modules that took longest to import (`python -X importtime`).

The code measured is this checkout's (each command runs with the checkout as its working
directory, so `python -m hunkmetrics` finds it first), with its bytecode cached as an
installed package has it: the children run without PYTHONDONTWRITEBYTECODE, with
PYTHONPYCACHEPREFIX in a temporary directory, after one unmeasured run. With
`--baseline REV` the same command lines run on REV's tree (`git archive`), interleaved
run by run with the current code's, so that both see the same load.

    python benchmarks/bench_startup.py [--runs 15] [--baseline 2a45406] [--python PATH]
                                       [--out benchmarks/results/startup.json]

`--python` runs the commands with another interpreter, e.g. a virtual environment made
with `pip install ".[cli]"` (not editable): an editable install's import hook adds about
10 ms to every start that users of a released package never pay. The checkout's code is
still the code measured (the working directory comes first on sys.path).

This is a standalone script, not a test: pytest does not collect it.
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from _common import compact_json
from _common import machine as common_machine

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results" / "startup.json"
GOAL_S = 0.15
# One hunk, as in the issue; and a three-hunk patch, whose divergence has pairs to compute.
ONE_HUNK = (
    "diff --git a/src/p/A.java b/src/p/A.java\n--- a/src/p/A.java\n+++ b/src/p/A.java\n"
    "@@ -1,3 +1,3 @@\n class A {\n-    int f() { return 1; }\n+    int f() { return 2; }\n }\n"
)
THREE_HUNKS = "fixtures/patches/java_pure_addition.diff"


def cases(one_hunk: str, repo: str) -> dict[str, list[str]]:
    """Name -> the arguments of `python`, for every command line measured."""
    run = ["-m", "hunkmetrics"]
    out: dict[str, list[str]] = {"python -c pass": ["-c", "pass"]}
    for command in ("hunks", "divergence", "proximity", "characterize"):
        out[f"{command} (table)"] = [*run, command, one_hunk]
        out[f"{command} --format json"] = [*run, command, one_hunk, "--format", "json"]
    for command in ("hunks", "characterize"):
        out[f"{command} --repo --rev, json"] = [
            *run,
            command,
            one_hunk,
            "--repo",
            repo,
            "--rev",
            "HEAD",
            "--format",
            "json",
        ]
    for command in ("divergence", "characterize"):
        out[f"{command} --format json, 3 hunks"] = [
            *run,
            command,
            THREE_HUNKS,
            "--format",
            "json",
        ]
    out["--help"] = [*run, "--help"]
    out["hunks --help"] = [*run, "hunks", "--help"]
    return out


def git_repo(where: Path) -> Path:
    """A one-commit repository holding ONE_HUNK's pre-image (a loop over commits reads
    each commit's files from git)."""
    source = where / "src" / "p" / "A.java"
    source.parent.mkdir(parents=True)
    source.write_text("class A {\n    int f() { return 1; }\n}\n")
    git = ["git", "-C", str(where), "-c", "user.name=bench", "-c", "user.email=bench@invalid"]
    for step in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "pre-image"]):
        subprocess.run([*git, *step], check=True, capture_output=True)
    return where


def child_env(pycache: Path) -> dict[str, str]:
    """The environment of a measured run: bytecode written and read under `pycache`."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    env.pop("PYTHONPATH", None)
    return env


def run_once(
    argv: list[str], code: Path, env: dict[str, str], python: str = sys.executable
) -> tuple[float, float]:
    """Wall and CPU seconds of one run of `python ARGV` in `code`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    subprocess.run(
        [python, *argv],
        cwd=code,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
    )
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def figures(walls: list[float], cpus: list[float]) -> dict[str, float | bool]:
    return {
        "wall_min_s": round(min(walls), 4),
        "wall_median_s": round(statistics.median(walls), 4),
        "cpu_min_s": round(min(cpus), 4),
        "cpu_median_s": round(statistics.median(cpus), 4),
        "meets_goal": min(walls) <= GOAL_S,
    }


def slowest_imports(
    argv: list[str],
    code: Path,
    env: dict[str, str],
    python: str = sys.executable,
    top: int = 8,
    runs: int = 5,
) -> list[tuple[str, float]]:
    """The packages whose import took longest (cumulative ms of the package and what it
    imported first, the median of `runs` runs of `python -X importtime`, which adds its
    own overhead): what a command's start-up is made of."""
    rows: dict[str, list[float]] = {}
    for _ in range(runs):
        done = subprocess.run(
            [python, "-X", "importtime", *argv],
            cwd=code,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        for line in done.stderr.splitlines():
            parts = line.split("|")
            if len(parts) == 3 and parts[1].strip().isdigit():
                name = parts[2].strip()
                if "." not in name or name.startswith("hunkmetrics."):
                    rows.setdefault(name, []).append(int(parts[1]) / 1000)
    medians = {name: round(statistics.median(ms), 1) for name, ms in rows.items()}
    return sorted(medians.items(), key=lambda r: -r[1])[:top]


def export_tree(rev: str, where: Path) -> tuple[Path, str]:
    """REV's tree as plain files under `where` (the repository is only read), and REV's
    short hash."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", rev],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(where, filter="data")
    short = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", rev],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    return where, short


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--baseline", help="also measure this revision's code, interleaved")
    ap.add_argument("--out", type=Path, default=RESULTS)
    ap.add_argument(
        "--python", default=sys.executable, help="the interpreter the commands run with"
    )
    args = ap.parse_args(argv)
    python = args.python
    info = common_machine()
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    load_before = os.getloadavg()
    print(
        f"machine: {info['cpu_model']}, {info['cpu_count']} CPUs, {info['memory_gib']} GiB, "
        f"Python {info['python']}; load average {load_before[0]:.2f}"
    )
    print(f"commands run with {python}")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        one_hunk = work / "one.diff"
        one_hunk.write_text(ONE_HUNK)
        lines = cases(str(one_hunk), str(git_repo(work / "repo")))
        codes = {"current": ROOT}
        labels = {"current": commit + ("+" if uncommitted() else "")}
        if args.baseline:
            codes["baseline"], labels["baseline"] = export_tree(args.baseline, work / "baseline")
        envs = {name: child_env(work / f"pycache-{name}") for name in codes}
        for name, code in codes.items():  # the unmeasured run: bytecode compiled and cached
            for line in lines.values():
                run_once(line, code, envs[name], python)
        walls: dict[tuple[str, str], list[float]] = {(n, c): [] for n in codes for c in lines}
        cpus: dict[tuple[str, str], list[float]] = {(n, c): [] for n in codes for c in lines}
        for _ in range(args.runs):
            for case, line in lines.items():
                for name, code in codes.items():
                    wall, cpu = run_once(line, code, envs[name], python)
                    walls[name, case].append(wall)
                    cpus[name, case].append(cpu)
        results: dict[str, dict[str, object]] = {}
        for case, line in lines.items():
            row: dict[str, object] = {
                name: figures(walls[name, case], cpus[name, case]) for name in codes
            }
            if case.endswith("--format json"):
                row["slowest_imports_ms"] = slowest_imports(line, ROOT, envs["current"], python)
            results[case] = row
    load_after = os.getloadavg()
    for case, row in results.items():
        print(f"  {case}")
        for name in codes:
            f = row[name]
            assert isinstance(f, dict)
            print(
                f"    {name:8s} {labels[name]:9s} wall {f['wall_min_s']:.3f} s (median "
                f"{f['wall_median_s']:.3f})  cpu {f['cpu_min_s']:.3f} s (median "
                f"{f['cpu_median_s']:.3f})"
            )
        for module, ms in row.get("slowest_imports_ms", []):  # type: ignore[attr-defined]
            print(f"      {ms:7.1f} ms  {module}")
    print(f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after")
    document = {
        "benchmark": "startup",
        "machine": info,
        "load_average": {"before": load_before, "after": load_after},
        "goal_s": GOAL_S,
        "runs": args.runs,
        "interpreter": python,
        "code": labels,
        "bytecode": "cached (PYTHONPYCACHEPREFIX, one unmeasured run first)",
        "results": results,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(compact_json(document), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


def uncommitted() -> bool:
    """Whether the checkout's package differs from its HEAD."""
    status = subprocess.run(
        ["git", "-C", str(ROOT), "status", "--porcelain", "--", "hunkmetrics"],
        capture_output=True,
        text=True,
    )
    return bool(status.stdout.strip())


if __name__ == "__main__":
    sys.exit(main())
