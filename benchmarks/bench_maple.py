#!/usr/bin/env python3
"""Benchmark: MAPLE's index and tools on a large real Java repository.

Indexes a git revision of the repository (read through `git cat-file`, no checkout)
cold (empty cache) and warm (a restart on the cache), each in a fresh interpreter so the
figures include start-up, then times every tool over generated queries (mostly hits,
one in ten a near-miss that asks for suggestions) and reports p50 and p99.

    python benchmarks/bench_maple.py [--repo /work/.mirror/google+closure-compiler/repo]
        [--rev HEAD] [--queries 1000] [--out benchmarks/results/maple.json]

This is a standalone script, not a test: pytest does not collect it.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _common import compact_json, machine, snapshot_hunkmetrics

DEFAULT_REPO = "/work/.mirror/google+closure-compiler/repo"

_START = """
import json, sys, time
t0 = time.perf_counter()
from hunkmetrics.maple import open_index
index = open_index(sys.argv[1], sys.argv[2], cache_dir=sys.argv[3], jobs=2)
elapsed = time.perf_counter() - t0
from collections import Counter
languages = Counter(r.index.language for r in index.files.values())
print(json.dumps({"seconds": elapsed, "files": len(index.files), "parsed": index.parsed,
                  "languages": dict(sorted(languages.items())),
                  "scopes": sum(len(r.index.scopes) for r in index.files.values()),
                  "warnings": len(index.warnings)}))
"""


def start(repo: str, rev: str, cache: Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", _START, repo, rev, str(cache)],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", default=DEFAULT_REPO)
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--references", type=int, default=200)
    parser.add_argument("--out", default="benchmarks/results/maple.json")
    args = parser.parse_args()

    from hunkmetrics.maple import Maple, MapleError, open_index

    with tempfile.TemporaryDirectory() as work:
        cache = Path(work) / "cache"
        code = snapshot_hunkmetrics(Path(work), copy=False)
        cold = start(args.repo, args.rev, cache)
        warm = start(args.repo, args.rev, cache)
        index = open_index(args.repo, args.rev, cache_dir=cache)
        maple = Maple(index, max_results=10)
        texts = dict(index.all_texts())  # loads every blob once, as the first find_code would
        lines = sum(t.count(b"\n") for t in texts.values())

        rng = random.Random(12)
        types = sorted(index.names.types)
        methods = sorted(index.names.callables)
        files = sorted(index.files)

        def mangle(name: str) -> str:
            i = rng.randrange(len(name))
            return name[:i] + name[i + 1 :] + "x"

        def pick_type() -> str:
            name = rng.choice(types)
            return mangle(name) if rng.random() < 0.1 else name

        def pick_method() -> str:
            name = rng.choice(methods)
            return mangle(name) if rng.random() < 0.1 else name

        def method_and_class() -> tuple[str, str]:
            symbol = rng.choice(index.names.callables[rng.choice(methods)])
            owner = (symbol.scope.owner or "x").rsplit(".", 1)[-1]
            return symbol.bare, owner

        def method_and_file() -> tuple[str, str]:
            symbol = rng.choice(index.names.callables[rng.choice(methods)])
            return symbol.bare, symbol.path.rsplit("/", 1)[-1]

        def snippet() -> tuple[str, str]:
            path = rng.choice(files)
            candidates = [ln.strip() for ln in texts[path].decode("utf-8", "replace").splitlines()]
            candidates = [ln for ln in candidates if len(ln) > 12]
            text = rng.choice(candidates) if candidates else "return"
            return (mangle(text) if rng.random() < 0.1 else text), path

        def line_in_file() -> tuple[str, int]:
            path = rng.choice(files)
            return path, rng.randint(1, max(1, texts[path].count(b"\n")))

        tools: dict[str, Callable[[], str]] = {
            "maple_find_class": lambda: maple.find_class(pick_type()),
            "maple_find_class_in_file": lambda: maple.find_class_in_file(
                *(lambda s: (s.bare, s.path))(rng.choice(index.names.types[rng.choice(types)]))
            ),
            "maple_find_method": lambda: maple.find_method(pick_method()),
            "maple_find_method_in_class": lambda: maple.find_method_in_class(*method_and_class()),
            "maple_find_method_in_file": lambda: maple.find_method_in_file(*method_and_file()),
            "maple_find_code": lambda: maple.find_code(snippet()[0]),
            "maple_find_code_in_file": lambda: maple.find_code_in_file(*snippet()),
            "maple_extract_class_skeleton": lambda: maple.extract_class_skeleton(rng.choice(files)),
            "maple_repo_structure": lambda: maple.repo_structure(rng.randint(1, 12)),
            "maple_find_enclosing": lambda: maple.find_enclosing(*line_in_file()),
            "maple_find_references": lambda: maple.find_references(rng.choice(methods)),
        }
        latency: dict[str, Any] = {}
        for name, tool in tools.items():
            count = args.references if name == "maple_find_references" else args.queries
            times: list[float] = []
            misses = 0
            for _ in range(count):
                t0 = time.perf_counter()
                try:
                    tool()
                except MapleError:
                    misses += 1
                times.append((time.perf_counter() - t0) * 1000)
            latency[name] = {
                "queries": count,
                "misses": misses,
                "p50_ms": round(statistics.median(times), 2),
                "p99_ms": round(percentile(times, 0.99), 2),
                "max_ms": round(max(times), 2),
            }
            print(name, latency[name], file=sys.stderr)
        index.close()

    head = subprocess.run(
        ["git", "-C", args.repo, "rev-parse", args.rev], capture_output=True, text=True
    ).stdout.strip()
    document = {
        "benchmark": "maple",
        "machine": machine(),
        "code": code,
        "repository": {
            "path": args.repo,
            "rev": args.rev,
            "commit": head,
            "files": cold["files"],
            "files_by_language": cold["languages"],
            "lines": lines,
            "types_and_callables": cold["scopes"],
            "files_with_syntax_errors": cold["warnings"],
        },
        "index": {
            "cold_seconds": round(cold["seconds"], 2),
            "cold_files_parsed": cold["parsed"],
            "cold_seconds_per_10000_files": round(cold["seconds"] / cold["files"] * 10000, 1),
            "warm_seconds": round(warm["seconds"], 2),
            "warm_files_parsed": warm["parsed"],
            "note": "each in a fresh interpreter, imports included; 2 parsing processes",
        },
        "latency": latency,
        "targets": {
            "cold_10000_files_seconds": 60,
            "warm_seconds": 2,
            "p99_ms": 50,
            "p99_ms_find_code": 500,
        },
    }
    Path(args.out).write_text(compact_json(document))
    print(compact_json(document))


if __name__ == "__main__":
    main()
