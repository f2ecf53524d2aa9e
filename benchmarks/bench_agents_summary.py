"""`hunkmetrics agents summary` over many attempts: wall time and peak memory (not part
of the test run).

    python benchmarks/bench_agents_summary.py                  # 100,000 × 200 actions
    python benchmarks/bench_agents_summary.py --count 10000     # a quick look

The attempt lines are generated (the same for a given seed) as `agents evaluate` writes
them: 4 agents, bugs `Bug_<n>`, each line with its outcome, tokens with a cache split,
runtime, categories, native tools and shell commands, two developer hunks with their
first read and edit, and a sequence of `--actions` categories drawn from a first-order
chain over the study's categories (reads lead to edits, edits to builds and tests).
A `--bugs` file gives every bug a hunk count, divergence and proximity class, so every
table is computed. The summary runs as the command does (`agents summary FILE --bugs
BUGS --format json`) in a child process; its wall time is measured from the parent and
its peak RSS is the child's (`ru_maxrss` of the one waited-for child). Targets: under
30 s and 1 GiB.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from _common import compact_json, machine

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "agents_summary.json"
AGENTS = ("claude-code", "codex", "gemini-cli", "qwen-code")
CLASSES = ("Nucleus", "Cluster", "Orbit", "Sprawl", "Fragment")
# Next-category weights: a run reads, searches, edits, builds and tests.
CHAIN = {
    "READ": {"READ": 3, "WRITE": 3, "SEARCH_CONTENT": 1, "SEARCH_FILES": 1, "TEST": 1},
    "WRITE": {"WRITE": 2, "BUILD": 3, "TEST": 2, "READ": 2},
    "BUILD": {"TEST": 5, "READ": 1, "WRITE": 1},
    "TEST": {"READ": 4, "WRITE": 2, "TEST": 1, "VCS": 1},
    "SEARCH_CONTENT": {"READ": 4, "SEARCH_CONTENT": 1},
    "SEARCH_FILES": {"READ": 3, "SEARCH_FILES": 1},
    "VCS": {"READ": 1, "WRITE": 1, "TEST": 1},
}


def _sequence(rng: random.Random, n: int) -> list[str]:
    out = ["READ"]
    while len(out) < n:
        options = CHAIN[out[-1]]
        out.append(rng.choices(list(options), weights=list(options.values()))[0])
    return out


def _line(rng: random.Random, i: int, sequence: list[str]) -> str:
    agent = AGENTS[i % len(AGENTS)]
    bug = f"Bug_{i // len(AGENTS)}"
    compiled = rng.random() < 0.95
    repaired = compiled and rng.random() < 0.6
    before = rng.randrange(1, 6)
    after = 0 if repaired else rng.randrange(0, 8)
    counts: dict[str, int] = {}
    for c in sequence:
        counts[c] = counts.get(c, 0) + 1
    uncached, read, write = rng.randrange(100, 2000), rng.randrange(10**6), rng.randrange(10**5)
    record = {
        "id": f"{agent}/{bug}",
        "schema": "hunkmetrics/attempt/v1",
        "agent": agent,
        "bug": bug,
        "error": None,
        "ls": compiled and rng.random() < 0.7,
        "compiled": compiled,
        "repaired": repaired,
        "regression_reduction": before - after if compiled else None,
        "tokens": {
            "input": uncached + read + write,
            "output": rng.randrange(1000, 30000),
            "input_uncached": uncached,
            "cache_read": read,
            "cache_write": write,
        },
        "runtime": {"seconds": round(rng.uniform(60, 1800), 2), "source": "harness"},
        "tool_calls": len(sequence) - len(sequence) // 5,
        "actions": len(sequence),
        "profile": "semantic",
        "categories": [
            {"category": k, "actions": v, "share": v / len(sequence)} for k, v in counts.items()
        ],
        "unique_native_tools": ["Edit", "Read", "Grep"][: 1 + i % 3],
        "unique_shell_commands": ["defects4j test", "git diff", "ls"][: 1 + i % 3],
        "hunks": [
            {
                "hunk": h,
                "file": f"src/F{h}.java",
                "read_file": {"action": rng.randrange(len(sequence)), "at_s": None},
                "read_method": None,
                "edited": None
                if rng.random() < 0.3
                else {"action": rng.randrange(len(sequence)), "at_s": None},
            }
            for h in range(2)
        ],
        "source": "evaluate",
        "condition": None,
        "sequence": sequence,
    }
    return json.dumps(record, separators=(",", ":")) + "\n"


def generate(path: Path, bugs: Path, count: int, actions: int, seed: int) -> None:
    rng = random.Random(seed)
    pool = [_sequence(rng, actions) for _ in range(400)]  # distinct sequences, reused
    with path.open("w") as handle:
        for i in range(count):
            handle.write(_line(rng, i, pool[rng.randrange(len(pool))]))
    with bugs.open("w") as handle:
        for b in range((count + len(AGENTS) - 1) // len(AGENTS)):
            hunks = rng.randrange(2, 8)
            handle.write(
                json.dumps(
                    {
                        "id": f"Bug_{b}",
                        "error": None,
                        "hunk_count": hunks,
                        "divergence": {"value": round(rng.random(), 4)},
                        "proximity": {"class": rng.choice(CLASSES)},
                    }
                )
                + "\n"
            )


def input_options(parser: argparse.ArgumentParser) -> None:
    """The generated input's options (shared with bench_report_agents.py)."""
    parser.add_argument("--count", type=int, default=100_000, help="attempt lines")
    parser.add_argument("--actions", type=int, default=200, help="actions per attempt")
    parser.add_argument("--seed", type=int, default=1)


def input_facts(args: argparse.Namespace, attempts: Path, generated: float) -> dict[str, Any]:
    """What the generated input was, for the result file."""
    return {
        "attempts": args.count,
        "actions_per_attempt": args.actions,
        "actions": args.count * args.actions,
        "file_mib": round(attempts.stat().st_size / 2**20, 1),
        "generated_s": round(generated, 1),
        "seed": args.seed,
    }


@dataclass(frozen=True)
class Run:
    """One `python -m hunkmetrics ...` child: its output, wall time from the parent, CPU
    and peak RSS (of the one waited-for child)."""

    stdout: str
    stderr: str
    wall_s: float
    cpu_s: float
    peak_rss_mib: float


def run_hunkmetrics(*arguments: str) -> Run:
    """Run the command line in a child process and measure it; exits on failure."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "hunkmetrics", *arguments],
        capture_output=True,
        text=True,
        env=dict(os.environ),
    )
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"hunkmetrics {arguments[0]} failed: {done.stderr}")
    child = resource.getrusage(resource.RUSAGE_CHILDREN)
    return Run(
        done.stdout,
        done.stderr,
        wall,
        child.ru_utime + child.ru_stime,
        round(child.ru_maxrss / 1024, 1),  # Linux: KiB
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    input_options(parser)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-summary-") as tmp:
        attempts, bugs = Path(tmp) / "attempts.jsonl", Path(tmp) / "bugs.jsonl"
        started = time.perf_counter()
        generate(attempts, bugs, args.count, args.actions, args.seed)
        generated = time.perf_counter() - started
        facts = input_facts(args, attempts, generated)
        run = run_hunkmetrics(
            "agents", "summary", str(attempts), "--bugs", str(bugs), "--format", "json"
        )
    doc = json.loads(run.stdout)
    result = {
        "benchmark": "agents summary",
        "machine": machine(load_average=list(os.getloadavg())),
        "input": facts,
        "summary": {
            "wall_s": round(run.wall_s, 2),
            "cpu_s": round(run.cpu_s, 2),
            "peak_rss_mib": run.peak_rss_mib,
            "attempts_per_s": round(args.count / run.wall_s),
            "tables": list(doc["tables"]),
        },
        "targets": {"wall_s": 30, "peak_rss_mib": 1024},
        "met": {"wall_s": run.wall_s < 30, "peak_rss_mib": run.peak_rss_mib < 1024},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(compact_json(result))
    print(compact_json(result), end="")


if __name__ == "__main__":
    main()
