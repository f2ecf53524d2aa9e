"""Big-patch scaling: divergence time and peak memory at 500 to 4,000 hunks, both profiles
(issue 13). Not part of the test run.

    python benchmarks/bench_big_patch.py                      # 500 1000 2000 4000
    python benchmarks/bench_big_patch.py --hunks 500 1000 --profiles birch
    python benchmarks/bench_big_patch.py --code /tmp/old      # another checkout's code

The patch is bench_divergence.py's synthetic one (N hunks over N/10 Java files, one- or
two-statement edits). Each measurement is a fresh process (so that its peak RSS, VmHWM,
is its own) that imports hunkmetrics and computes the divergence once; the best of
`--repeat` runs is kept (time and memory from the same run). Without sources, so the
figures are the pair work: L (token edit distance or BLEU), S (edit bags, or for birch
the edit-bag fallback S of a diff without sources) and the pair arrays. `--cli` also
times `hunkmetrics divergence --format json` (the summary only, no pairs).

`--diff-mb 250 1000` measures big diffs instead (issue 31): a generated diff of that many
MB (Java files, three 7-line hunks each: `big_diff`), read by `parse` (the patch model
only) and by `--commands` (default `hunks`), each in a fresh process under an
address-space limit (`--limit-gib`, default 6) with HUNKMETRICS_MAX_PATCH_BYTES raised
to let it in: time, peak RSS, exit status and the last line on stderr. Each command is
first run on a tiny diff (10 kB): its peak is the baseline (interpreter, imports, fixed
caches), and each row gives its peak above that baseline per byte of input, the figure
the memory goal bounds (issues 22/24: at most 2). Results go to
benchmarks/results/big_diff.json.

    python benchmarks/bench_big_patch.py --diff-mb 16 64 250 1000 --code .
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _common import code_to_measure, compact_json, print_machine  # noqa: E402
from bench_divergence import synthetic_patch  # noqa: E402

SIZES = (500, 1000, 2000, 4000)
BASELINE_MB = 0.01  # the tiny diff whose peak is each command's baseline
PROFILES = ("default", "birch")

_CHILD = """
import json, sys, time
sys.path.insert(0, {code!r})
started, cpu = time.perf_counter(), time.process_time()
import hunkmetrics
result = hunkmetrics.divergence({patch!r}, profile={profile!r})
seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
peak = [int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:")][0]
print(json.dumps({{"seconds": seconds, "cpu_seconds": cpu, "peak_mib": peak / 1024,
    "pairs": getattr(result, "pair_count", None) or len(result.pair_i), "value": result.value,
    "module": hunkmetrics.__file__}}))
"""

_CLI = """
import json, subprocess, sys, time, resource
started = time.perf_counter()
done = subprocess.run([sys.executable, "-m", "hunkmetrics", "divergence", {patch!r},
    "--profile", {profile!r}, "--format", "json"], capture_output=True, env={env!r})
seconds = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
version = subprocess.run([sys.executable, "-c", "import hunkmetrics; print(hunkmetrics.__file__)"],
    capture_output=True, text=True, env={env!r}).stdout.strip()
print(json.dumps({{"seconds": seconds, "peak_mib": peak, "bytes": len(done.stdout),
    "status": done.returncode, "module": version}}))
"""


def measure(code: str, patch: Path, profile: str) -> dict[str, Any]:
    child = _CHILD.format(code=code, patch=str(patch), profile=profile)
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    return dict(json.loads(done.stdout))


def measure_cli(code: str, patch: Path, profile: str) -> dict[str, Any]:
    env = {"PYTHONPATH": code, "PATH": "/usr/bin:/bin"}
    child = _CLI.format(patch=str(patch), profile=profile, env=env)
    # run from the patch's directory: `python -m` puts the working directory first on
    # sys.path, which from a checkout would import its hunkmetrics instead of `code`
    done = subprocess.run(
        [sys.executable, "-c", child], capture_output=True, text=True, cwd=patch.parent
    )
    return dict(json.loads(done.stdout))


def big_diff(path: Path, megabytes: float) -> tuple[int, int]:
    """Write a diff of about `megabytes` MB: Java files, each with three 7-line hunks
    that change one log line. (files, hunks) written."""
    size = int(megabytes * 2**20)
    written = files = 0
    with path.open("w") as out:
        while written < size:
            name = f"src/main/java/org/example/m{files % 40}/p{files % 7}/Type{files}.java"
            parts = [f"diff --git a/{name} b/{name}\nindex 1234567..89abcde 100644\n"]
            parts.append(f"--- a/{name}\n+++ b/{name}\n")
            for h in range(3):
                start = 10 + 40 * h
                parts.append(f"@@ -{start},7 +{start},7 @@ public class Type{files} {{\n")
                parts.append(f"         int count{h} = compute(value, {h});\n")
                parts.append(f"         if (count{h} > limit) {{\n             return;\n")
                parts.append(f'-        log.debug("old message number {files} {h}");\n')
                parts.append(f'+        log.info("new message number {files} {h}");\n')
                parts.append(f"         }}\n         total += count{h};\n         return total;\n")
            text = "".join(parts)
            out.write(text)
            written += len(text)
            files += 1
    return files, 3 * files


_BIG = """
import json, resource, subprocess, sys, time
limit = {limit!r}
def cap():
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
started = time.perf_counter()
try:
    done = subprocess.run({command!r}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        env={env!r}, cwd={cwd!r}, preexec_fn=cap, timeout={timeout!r})
    status, err = done.returncode, done.stderr
except subprocess.TimeoutExpired as exc:
    status, err = "timeout", exc.stderr or b""
seconds = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
lines = err.decode(errors="replace").strip().splitlines()
print(json.dumps({{"seconds": seconds, "peak_mib": peak, "status": status,
    "last_stderr_line": lines[-1][:300] if lines else ""}}))
"""

_PARSE = (
    "import sys; from hunkmetrics.patch.parse import read_patch; "
    "p = read_patch(sys.argv[1]); print(len(p.files))"
)


def measure_big(code: str, diff: Path, command: str, limit: int, timeout: float) -> dict[str, Any]:
    """One command on a big diff in a fresh process under `limit` bytes of address space."""
    env = {"PYTHONPATH": code, "PATH": "/usr/bin:/bin", "HUNKMETRICS_MAX_PATCH_BYTES": str(1 << 40)}
    if command == "parse":
        argv = [sys.executable, "-c", _PARSE, str(diff)]
    else:
        argv = [sys.executable, "-m", "hunkmetrics", command, str(diff), "--format", "json"]
    child = _BIG.format(command=argv, env=env, cwd=str(diff.parent), limit=limit, timeout=timeout)
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    return dict(json.loads(done.stdout))


def main_big(args: argparse.Namespace) -> int:
    about = print_machine()
    limit = int(args.limit_gib * 2**30)
    commands = ["parse", *args.commands]
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        code, measured = code_to_measure(args.code, work)
        # The interpreter, its imports and fixed caches: each command on a tiny diff.
        tiny = work / "tiny.diff"
        big_diff(tiny, BASELINE_MB)
        baseline = {
            c: measure_big(code, tiny, c, limit, args.timeout)["peak_mib"] for c in commands
        }
        shown = ", ".join(f"{c} {m:.0f} MiB" for c, m in baseline.items())
        print(f"baseline (tiny diff): {shown}")
        for megabytes in args.diff_mb:
            diff = work / f"big_{megabytes}.diff"
            files, hunks = big_diff(diff, megabytes)
            size = diff.stat().st_size
            for command in commands:
                row = measure_big(code, diff, command, limit, args.timeout)
                row.update(bytes=size, files=files, hunks=hunks, command=command)
                row["peak_per_input_byte"] = row["peak_mib"] * 2**20 / size
                row["baseline_mib"] = baseline[command]
                row["above_baseline_per_input_byte"] = (
                    (row["peak_mib"] - baseline[command]) * 2**20 / size
                )
                print(
                    f"{size / 2**20:7.0f} MB {command:>8}: {row['seconds']:7.1f} s, peak "
                    f"{row['peak_mib']:7.0f} MiB ({row['peak_per_input_byte']:.1f} x input; "
                    f"above baseline {row['above_baseline_per_input_byte']:.2f} x), "
                    f"exit {row['status']} {row['last_stderr_line'][:120]}"
                )
                runs.append(row)
            diff.unlink()
    result = {
        "machine": about,
        "code": measured,
        "limit_gib": args.limit_gib,
        "timeout_s": args.timeout,
        "runs": {str(k): r for k, r in enumerate(runs)},
    }
    out = args.out if args.out is not None else HERE / "results" / "big_diff.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(compact_json(result))
    print(f"wrote {out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hunks", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--profiles", nargs="+", default=list(PROFILES), choices=PROFILES)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--code", type=Path, help="a directory holding the hunkmetrics package")
    parser.add_argument("--cli", action="store_true", help="also time the CLI's JSON summary")
    parser.add_argument("--out", type=Path, help="results file (default under results/)")
    parser.add_argument("--diff-mb", type=float, nargs="+", help="big diffs of these sizes")
    parser.add_argument("--commands", nargs="+", default=["hunks"], help="with --diff-mb")
    parser.add_argument("--limit-gib", type=float, default=6.0, help="with --diff-mb")
    parser.add_argument("--timeout", type=float, default=600.0, help="s per run, with --diff-mb")
    args = parser.parse_args(argv)
    if args.diff_mb:
        return main_big(args)
    if args.out is None:
        args.out = HERE / "results" / "big_patch.json"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        code, measured = code_to_measure(args.code, work)
        about = print_machine()
        runs = []
        for hunks in args.hunks:
            patch = work / f"synthetic_{hunks}.diff"
            patch.write_bytes(synthetic_patch(hunks))
            for profile in args.profiles:
                best = min(
                    (measure(code, patch, profile) for _ in range(args.repeat)),
                    key=lambda r: r["seconds"],
                )
                row = {"hunks": hunks, "profile": profile, **best}
                row.pop("module")
                if args.cli:
                    row["cli_json_summary"] = measure_cli(code, patch, profile)
                print(
                    f"{hunks:>5} hunks {profile:>8}: {best['seconds']:7.2f} s "
                    f"(CPU {best['cpu_seconds']:6.2f} s), peak {best['peak_mib']:7.1f} MiB, "
                    f"{best['pairs']} pairs, Div {best['value']:.6f}"
                )
                runs.append(row)
    result = {"machine": about, "code": measured, "runs": {str(k): r for k, r in enumerate(runs)}}
    args.out.parent.mkdir(exist_ok=True)
    args.out.write_text(compact_json(result))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
