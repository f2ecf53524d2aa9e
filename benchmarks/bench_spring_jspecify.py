"""The real 10,000-hunk commit: spring-framework's bc5d771a06 "Switch to JSpecify
annotations" (3,459 files), issue 22. Not part of the test run.

    python benchmarks/bench_spring_jspecify.py [--repo PATH]   # default: the fetched mirror
    python benchmarks/bench_spring_jspecify.py --code /tmp/old --limit-gib 8

Needs a clone or mirror of spring-framework holding the commit (the project's `fetch`
tool puts one under /work/.mirror); nothing of it is copied. Each measurement is a fresh
process, timed with its peak RSS from a wrapper (bench_10k_hunks.run_measured):
`hunkmetrics divergence <diff> --repo R --rev <parent> --profile P --format json` and
`hunkmetrics mine R --since 2024-12-19 --until 2024-12-19 --grep JSpecify --profile P
--jobs 1 --max-hunks 0` (characterized, not kept as a count).
Results: benchmarks/results/spring_jspecify.json.
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
from bench_10k_hunks import run_measured  # noqa: E402

COMMIT = "bc5d771a0639c6e47eda2b610c221a4515384abb"
MIRROR = Path("/work/.mirror/spring-projects+spring-framework/repo")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, default=MIRROR)
    parser.add_argument("--profiles", nargs="+", default=["default", "birch"])
    parser.add_argument("--commands", nargs="+", default=["divergence", "mine"])
    parser.add_argument("--code", type=Path, help="a directory holding the hunkmetrics package")
    parser.add_argument("--limit-gib", type=float, default=0)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "spring_jspecify.json")
    args = parser.parse_args(argv)
    repo = args.repo
    if subprocess.run(["git", "--git-dir", str(repo), "cat-file", "-e", COMMIT]).returncode:
        raise SystemExit(f"{repo}: no commit {COMMIT[:10]} (fetch spring-framework first)")
    about = print_machine()
    limit = int(args.limit_gib * 2**30)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        code, measured = code_to_measure(args.code, work)
        diff = work / "jspecify.diff"
        diff.write_bytes(
            subprocess.run(
                ["git", "--git-dir", str(repo), "diff", f"{COMMIT}^", COMMIT],
                capture_output=True,
                check=True,
            ).stdout
        )
        runs: list[dict[str, Any]] = []
        python = sys.executable
        for profile in args.profiles:
            for name in args.commands:
                out = work / f"mine_{profile}.jsonl"
                if name == "divergence":
                    command = [python, "-m", "hunkmetrics", "divergence", str(diff)]
                    command += ["--repo", str(repo), "--rev", f"{COMMIT}^", "--format", "json"]
                else:
                    command = [python, "-m", "hunkmetrics", "mine", str(repo), "--out", str(out)]
                    command += ["--since", "2024-12-19", "--until", "2024-12-19"]
                    command += ["--grep", "JSpecify", "--jobs", "1", "--max-hunks", "0"]
                command += ["--profile", profile]
                row = {
                    "command": name,
                    "profile": profile,
                    **run_measured(command, code, work, limit),
                }
                if name == "mine" and out.exists():
                    records = [json.loads(line) for line in out.read_text().splitlines()]
                    mine_row = next((r for r in records if r.get("commit") == COMMIT), {})
                    row["error"] = mine_row.get("error")
                    row["hunk_count"] = mine_row.get("hunk_count")
                    row["divergence"] = (mine_row.get("divergence") or {}).get("value")
                print(
                    f"{name:>10} {profile:>8}: {row['seconds']:7.1f} s, peak "
                    f"{row['peak_mib']:7.1f} MiB, exit {row['status']}"
                    + (f", error {row['error']}" if row.get("error") else "")
                )
                runs.append(row)
    result = {
        "machine": about,
        "code": measured,
        "commit": COMMIT,
        "limit_gib": args.limit_gib or None,
        "runs": {str(k): r for k, r in enumerate(runs)},
    }
    args.out.parent.mkdir(exist_ok=True)
    args.out.write_text(compact_json(result))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
