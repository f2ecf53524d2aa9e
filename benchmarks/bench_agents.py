"""Reading and classifying agent trajectories: throughput and peak memory with 1 and 2
worker processes (not part of the test run).

    python benchmarks/bench_agents.py                          # 1,000 × 200 actions
    python benchmarks/bench_agents.py --count 100 --jobs 1      # a quick look
    python benchmarks/bench_agents.py --profile                 # where the time goes

The trajectories are generated, the same for a given seed, in the three formats of the
study's agents (Claude Code session JSONL, Codex rollout envelopes, Gemini CLI telemetry),
one third each. Their shapes follow the study's runs: the mix of native tools and shell
calls of Table 8 (edits, reads, searches, `defects4j` builds and tests), compound shell
lines (`cd … && defects4j test 2>&1 | tail -20`, `grep -rn … | head`), `sed -n` ranges,
heredocs, and the same command repeated across a run as agents do. Every file holds
exactly `--actions` actions (checked after reading). A run of `--jobs N` splits the files
over N processes, each reading and classifying its share (`read_trajectory`, semantic
profile); throughput is trajectories per wall-clock second, and per core divided by N.
`--evaluate N` then runs `agents evaluate` over N of them as attempts at N bugs, each with
an agent patch, defects4j outcomes before and after, and a developer patch resolved
against a source tree (the fixtures in `fixtures/agents/evaluate/`).
`per_cpu_second` divides by the reading processes' CPU time instead: on a machine shared
with other work it is the fairer per-core figure. `--baseline` keeps an earlier version's
figures beside these (run it first with `PYTHONPATH=<that checkout>`).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from _common import compact_json, machine, mib, vm_hwm_kib

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "agents.json"
TARGET_PER_CORE = 200.0

FILES = [f"source/org/jfree/chart/{n}.java" for n in ("Plot", "Axis", "Renderer", "Legend")]
FILES += [f"src/main/java/org/apache/commons/math/{n}.java" for n in ("Fraction", "Complex")]
TESTS = ["org.jfree.chart.PlotTests::testDraw", "org.apache.commons.math.FractionTest::testAdd"]


def _shell(rng: random.Random) -> tuple[str, int]:
    """A shell line and how many commands (actions) it holds."""
    f = rng.choice(FILES)
    line = rng.randrange(1, 900)
    choices: list[tuple[str, int]] = [
        ("defects4j test", 1),
        ("cd /w/bug && defects4j compile 2>&1 | tail -20", 3),
        ("timeout 600 defects4j test 2>&1 | tail -30", 2),
        (f"sed -n '{line},{line + 40}p' {f}", 1),
        (f'grep -rn "{rng.choice(["draw", "add", "reduce"])}(" source src | head -20', 2),
        (f"cat {f} | head -100", 2),
        ("ls -la source/org/jfree/chart/", 1),
        (f"find . -name '*.java' -path '*{rng.choice(['chart', 'math'])}*' | wc -l", 2),
        ("./run_bug_exposing_tests.sh", 1),
        (f"sed -i 's/x > 0/x >= 0/' {f}", 1),
        ("git diff", 1),
        ("cat > /tmp/Repro.java <<'EOF'\nclass Repro { }\nEOF\njavac /tmp/Repro.java", 2),
        ("mvn -q test -Dtest=FractionTest", 1),
        (f"export JAVA_HOME=/usr/lib/jvm/java-8 && cd /w/bug && defects4j test -t {TESTS[0]}", 3),
    ]
    return rng.choice(choices)


def _native(rng: random.Random) -> tuple[str, dict[str, Any]]:
    f = "/w/bug/" + rng.choice(FILES)
    return rng.choice(
        [
            ("Read", {"file_path": f, "offset": rng.randrange(1, 500), "limit": 80}),
            ("Read", {"file_path": f}),
            ("Edit", {"file_path": f, "old_string": "if (x > 0)", "new_string": "if (x >= 0)"}),
            ("Grep", {"pattern": "reduce\\(", "path": "/w/bug/src", "output_mode": "content"}),
            ("Glob", {"pattern": "**/*Test.java"}),
            ("TodoWrite", {"todos": [{"content": "Run tests", "status": "in_progress"}]}),
        ]
    )


def _calls(rng: random.Random, actions: int) -> list[tuple[str, dict[str, Any], int]]:
    """(tool, arguments, actions) until exactly `actions`; shell calls are about half."""
    out: list[tuple[str, dict[str, Any], int]] = []
    left = actions
    while left > 0:
        if rng.random() < 0.5:
            command, n = _shell(rng)
            if n > left:
                command, n = "defects4j test", 1
            out.append(("Bash", {"command": command}, n))
            left -= n
        else:
            name, args = _native(rng)
            out.append((name, args, 1))
            left -= 1
    return out


def _stamp(second: int) -> str:
    return f"2025-10-10T{13 + second // 3600:02d}:{second // 60 % 60:02d}:{second % 60:02d}.000Z"


def _claude(calls: list[tuple[str, dict[str, Any], int]], sid: str) -> str:
    lines = []
    head = {"isSidechain": False, "userType": "external", "cwd": "/w/bug", "sessionId": sid}
    head |= {"version": "2.0.13", "gitBranch": "main"}
    lines.append(
        {**head, "type": "user", "uuid": "u0", "parentUuid": None, "timestamp": _stamp(0)}
        | {"message": {"role": "user", "content": "Read and execute CLAUDE.md."}}
    )
    for i, (name, args, _) in enumerate(calls):
        usage = {"input_tokens": 4, "cache_creation_input_tokens": 300}
        usage |= {"cache_read_input_tokens": 20000 + 50 * i, "output_tokens": 60}
        text = {"type": "text", "text": "Next I will look at the code."}
        use = {"type": "tool_use", "id": f"toolu_{i}", "name": name, "input": args}
        for j, block in enumerate((text, use)):  # one response, two lines, one message.id
            message = {"id": f"msg_{i}", "type": "message", "role": "assistant"}
            message |= {"model": "claude-sonnet-4-5", "content": [block], "usage": usage}
            lines.append(
                {**head, "type": "assistant", "uuid": f"a{i}.{j}", "parentUuid": None}
                | {"timestamp": _stamp(2 * i + 1), "message": message}
            )
        result = {"tool_use_id": f"toolu_{i}", "type": "tool_result", "is_error": False}
        result["content"] = "ok\n" * 5
        lines.append(
            {**head, "type": "user", "uuid": f"r{i}", "parentUuid": f"a{i}.1"}
            | {"timestamp": _stamp(2 * i + 2), "message": {"role": "user", "content": [result]}}
        )
    return "".join(json.dumps(line) + "\n" for line in lines)


def _codex(calls: list[tuple[str, dict[str, Any], int]], sid: str) -> str:
    lines: list[dict[str, Any]] = [
        {
            "timestamp": "2025-10-29T00:59:00.000Z",
            "type": "session_meta",
            "payload": {"id": sid, "timestamp": "2025-10-29T00:59:00Z", "cwd": "/w/bug"}
            | {"originator": "codex_exec", "cli_version": "0.77.0"},
        }
    ]
    total = 0
    for i, (name, args, _) in enumerate(calls):
        stamp = _stamp(2 * i + 1)
        if name == "Bash":
            fn, arguments = "shell", {"command": ["bash", "-lc", args["command"]], "workdir": "/w"}
        elif name == "Edit":
            patch = (
                f"*** Begin Patch\n*** Update File: {args['file_path']}\n@@\n-a\n+b\n*** End Patch"
            )
            fn, arguments = "apply_patch", {"input": patch}
        else:
            fn, arguments = "update_plan", {"plan": [{"step": "look", "status": "in_progress"}]}
        call = {"type": "function_call", "name": fn, "arguments": json.dumps(arguments)}
        lines.append(
            {"timestamp": stamp, "type": "response_item", "payload": call | {"call_id": f"c{i}"}}
        )
        output = {"type": "function_call_output", "call_id": f"c{i}", "output": "Exit code: 0"}
        lines.append({"timestamp": stamp, "type": "response_item", "payload": output})
        total += 1500
        usage = {"input_tokens": total, "cached_input_tokens": total // 2, "output_tokens": 40 * i}
        info = {"total_token_usage": usage, "last_token_usage": usage}
        lines.append(
            {
                "timestamp": stamp,
                "type": "event_msg",
                "payload": {"type": "token_count", "info": info},
            }
        )
    return "".join(json.dumps(line) + "\n" for line in lines)


_GEMINI_TOOLS = {"Read": "read_file", "Edit": "replace", "Grep": "search_file_content"}
_GEMINI_TOOLS |= {"Glob": "glob", "TodoWrite": "write_todos"}


def _gemini(calls: list[tuple[str, dict[str, Any], int]], sid: str) -> str:
    base = {"session.id": sid, "installation.id": "i", "interactive": False}
    out = []
    for i, (name, args, _) in enumerate(calls):
        stamp = _stamp(2 * i + 1)
        response = {**base, "event.name": "gemini_cli.api_response", "event.timestamp": stamp}
        response |= {"model": "gemini-2.5-flash", "duration_ms": 900, "input_token_count": 9000}
        response |= {"output_token_count": 80, "cached_content_token_count": 4000}
        fn = "run_shell_command" if name == "Bash" else _GEMINI_TOOLS[name]
        call = {**base, "event.name": "gemini_cli.tool_call", "event.timestamp": stamp}
        call |= {"function_name": fn, "function_args": json.dumps(args, indent=2)}
        call |= {"duration_ms": 40, "success": True, "tool_type": "native"}
        out += [
            json.dumps({"attributes": response}, indent=2),
            json.dumps({"attributes": call}, indent=2),
        ]
    return "\n".join(out) + "\n"


WRITERS: dict[str, tuple[str, Callable[[list[tuple[str, dict[str, Any], int]], str], str]]] = {
    "claude": ("session.jsonl", _claude),
    "codex": ("rollout.jsonl", _codex),
    "gemini": ("telemetry.json", _gemini),
}


def generate(folder: Path, count: int, actions: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    paths = []
    kinds = list(WRITERS)
    for k in range(count):
        kind = kinds[k % len(kinds)]
        suffix, write = WRITERS[kind]
        path = folder / f"{k:05d}-{kind}-{suffix}"
        path.write_text(write(_calls(rng, actions), f"s{k}"))
        paths.append(str(path))
    return paths


def read_all(paths: list[str]) -> tuple[int, int, int, float]:
    """Read and classify every file: (trajectories, actions, own peak RSS KiB, CPU s)."""
    from hunkmetrics.agents import read_trajectory

    cpu = time.process_time()
    actions = 0
    for path in paths:
        actions += read_trajectory(path).action_count
    return len(paths), actions, vm_hwm_kib() or 0, time.process_time() - cpu


def run(paths: list[str], jobs: int) -> dict[str, Any]:
    load = os.getloadavg()[0]  # other work on the machine skews the wall-clock figures
    start = time.perf_counter()
    if jobs == 1:
        results = [read_all(paths)]
    else:
        shares = [paths[i::jobs] for i in range(jobs)]
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(read_all, shares))
    seconds = time.perf_counter() - start
    done = sum(r[0] for r in results)
    actions = sum(r[1] for r in results)
    cpu = sum(r[3] for r in results)
    return {
        "jobs": jobs,
        "trajectories": done,
        "actions": actions,
        "seconds": round(seconds, 2),
        "trajectories_per_s": round(done / seconds, 1),
        "per_core_per_s": round(done / seconds / jobs, 1),
        # CPU seconds of the reading processes: the per-core rate on a machine shared
        # with other work, where the wall clock also counts time spent waiting for a core
        "cpu_seconds": round(cpu, 2),
        "per_cpu_second": round(done / cpu, 1),
        "actions_per_s": round(actions / seconds),
        "peak_rss_mib_per_process": max(mib(r[2]) or 0 for r in results),
        "load_average_before": round(load, 2),
    }


EVAL = ROOT / "fixtures" / "agents" / "evaluate"


def evaluate_setup(folder: Path, paths: list[str]) -> tuple[Path, Path]:
    """A runs directory (one bug per generated trajectory, each with the fixture's agent
    patch and defects4j outcomes) and a folder of developer patches for it."""
    runs, dev = folder / "runs", folder / "dev"
    dev.mkdir(parents=True)
    fixture = EVAL / "runs" / "claude" / "Chart-1"
    for k, path in enumerate(paths):
        bug = f"Bug-{k}"
        run = runs / "agent" / bug
        run.mkdir(parents=True)
        os.symlink(path, run / ("trajectory" + Path(path).name.split("-", 2)[2][-6:]))
        for name in ("patch.diff", "outcome.txt", "before.txt"):
            os.symlink(fixture / name, run / name)
        os.symlink(EVAL / "dev" / "Chart-1.diff", dev / f"{bug}.diff")
    return runs, dev


def evaluate_run(runs: Path, dev: Path, jobs: int, out: Path) -> dict[str, Any]:
    """`agents evaluate` over every run, with the fixture's source tree."""
    from hunkmetrics.agents.batch import evaluate_runs, read_references
    from hunkmetrics.agents.evaluate import Settings

    refs = read_references(dev, repo=EVAL / "tree")
    load = os.getloadavg()[0]
    cpu = time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    summary = evaluate_runs(runs, refs, Settings(), out=out, jobs=jobs)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_total = time.process_time() - cpu + (after.ru_utime + after.ru_stime)
    cpu_total -= children.ru_utime + children.ru_stime
    return {
        "jobs": jobs,
        "attempts": summary.written,
        "errors": summary.errors,
        "seconds": round(seconds, 2),
        "attempts_per_s": round(summary.written / seconds, 1),
        "cpu_seconds": round(cpu_total, 2),
        "per_cpu_second": round(summary.written / cpu_total, 1),
        "driver_peak_rss_mib": mib(vm_hwm_kib()),
        "worker_peak_rss_mib": round(after.ru_maxrss / 1024, 1) if jobs > 1 else None,
        "load_average_before": round(load, 2),
    }


def _measured() -> dict[str, Any]:
    import hunkmetrics

    source = Path(hunkmetrics.__file__).parent
    commit = subprocess.run(
        ["git", "-C", str(source), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    return {"source": str(source), "commit": commit or None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=200)
    parser.add_argument("--jobs", default="1,2")
    parser.add_argument("--seed", type=int, default=20251125)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--profile", action="store_true", help="cProfile one 1-job pass")
    parser.add_argument(
        "--evaluate",
        type=int,
        default=1000,
        help="also run `agents evaluate` over this many attempts, with sources (0: skip)",
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        help="a result file of an earlier hunkmetrics (run with PYTHONPATH=<its checkout>) "
        "to keep beside this run's figures",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-agents-") as tmp:
        start = time.perf_counter()
        paths = generate(Path(tmp), args.count, args.actions, args.seed)
        generated = time.perf_counter() - start
        size = sum(os.path.getsize(p) for p in paths)
        if args.profile:
            prof = cProfile.Profile()
            prof.enable()
            read_all(paths)
            prof.disable()
            pstats.Stats(prof).sort_stats("cumulative").print_stats(30)
            return
        runs = []
        for jobs in (int(j) for j in args.jobs.split(",")):
            result = run(paths, jobs)
            if result["actions"] != args.count * args.actions:
                sys.exit(f"expected {args.count * args.actions} actions, read {result['actions']}")
            print(json.dumps(result), file=sys.stderr)
            runs.append(result)
        evaluated = []
        if args.evaluate:
            runs_dir, dev = evaluate_setup(Path(tmp) / "evaluate", paths[: args.evaluate])
            for jobs in (int(j) for j in args.jobs.split(",")):
                result = evaluate_run(runs_dir, dev, jobs, Path(tmp) / f"attempts-{jobs}.jsonl")
                if result["attempts"] != min(args.evaluate, args.count) or result["errors"]:
                    sys.exit(f"evaluate: {result}")
                print(json.dumps(result), file=sys.stderr)
                evaluated.append(result)
    document = {
        "benchmark": "bench_agents",
        "machine": machine(),
        "dataset": {
            "trajectories": args.count,
            "actions_each": args.actions,
            "formats": list(WRITERS),
            "megabytes": round(size / 2**20, 1),
            "seed": args.seed,
            "generate_seconds": round(generated, 1),
        },
        "hunkmetrics": _measured(),
        "target_per_core_per_s": TARGET_PER_CORE,
        "runs": runs,
        "evaluate": evaluated,
    }
    if args.baseline is not None:
        earlier = json.loads(args.baseline.read_text())
        document["baseline"] = {"hunkmetrics": earlier.get("hunkmetrics"), "runs": earlier["runs"]}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(compact_json(document))
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
