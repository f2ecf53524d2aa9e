#!/usr/bin/env python3
"""Benchmark: parse and diff-only locate time against input size (issue 15).

Two families of inputs, each at doubling sizes; linear code shows a constant time per
unit (the `per_unit_us` column), quadratic code a doubling one:

  nesting   one changed line holding N nested parentheses (Java, Python, JavaScript),
            and a Java method body with N nested `{ }` blocks
  hunk      one hunk of N lines (Java: a class of 5-line methods, every line removed
            and re-added with a change), parsed, then located from the diff alone

Each input is timed twice: as a program runs it, and with CPython's cyclic garbage
collector off (`*_no_gc`), which separates the library's own work from the
collector's passes over millions of live objects.

    python benchmarks/bench_scaling.py [--nesting 10000,20000,40000]
                                       [--lines 100000,200000,400000] [--out FILE]

Standalone, not a test (pytest only collects tests/). Results, with the machine they
were measured on, go to benchmarks/results/scaling.json.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from _common import machine

import hunkmetrics

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "scaling.json"


def _nesting_diff(ext: str, n: int) -> bytes:
    line = "    x = f(" + "(" * n + "1" + ")" * n + ");"
    return (
        f"--- a/m{ext}\n+++ b/m{ext}\n@@ -1,3 +1,3 @@ class A {{\n a\n-{line}\n+    y();\n c\n"
    ).encode()


def _block_diff(n: int) -> bytes:
    body = "        " + "{ " * n + "x();" + " }" * n
    return (
        "--- a/B.java\n+++ b/B.java\n@@ -1,4 +1,4 @@ class B {\n"
        f"     void m() {{\n-{body}\n+        y();\n     }}\n }}\n"
    ).encode()


def _hunk_diff(lines: int) -> bytes:
    methods = max(1, lines // 5)
    old: list[str] = ["public class Big {"]
    for k in range(methods):
        old += [f"    void m{k}(int a) {{", f"        call{k}(a);", "        a++;", "    }", ""]
    n = len(old)
    out = [f"--- a/src/Big.java\n+++ b/src/Big.java\n@@ -1,{n} +1,{n} @@\n"]
    out += [f"-{text}\n" for text in old]
    out += [f"+{text.replace('a++', 'a--')}\n" for text in old]
    return "".join(out).encode()


def _time(run: Callable[[], object], collector: bool) -> float:
    """Seconds for one run, with CPython's cyclic garbage collector on or off."""
    gc.collect()
    if not collector:
        gc.disable()
    try:
        started = time.perf_counter()
        run()
        return time.perf_counter() - started
    finally:
        gc.enable()


def _measure(label: str, unit: str, size: int, data: bytes) -> dict[str, object]:
    patch = hunkmetrics.parse_patch(data)
    row: dict[str, object] = {"input": label, unit: size, "diff_bytes": len(data)}
    for collector, suffix in ((True, ""), (False, "_no_gc")):
        parse_s = _time(lambda: hunkmetrics.parse_patch(data), collector)
        locate_s = _time(lambda: hunkmetrics.locate_patch(patch), collector)
        row[f"parse_s{suffix}"] = round(parse_s, 3)
        row[f"locate_s{suffix}"] = round(locate_s, 3)
        row[f"per_unit_us{suffix}"] = round((parse_s + locate_s) / size * 1e6, 2)
    print(json.dumps(row), flush=True)
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nesting", default="10000,20000,40000")
    parser.add_argument("--lines", default="100000,200000,400000")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    rows: list[dict[str, object]] = []
    for n in (int(x) for x in args.nesting.split(",") if x):
        for ext in (".java", ".py", ".js"):
            rows.append(_measure(f"nested parentheses {ext}", "depth", n, _nesting_diff(ext, n)))
        rows.append(_measure("nested blocks .java", "depth", n, _block_diff(n)))
    for n in (int(x) for x in args.lines.split(",") if x):
        rows.append(_measure("one Java hunk", "lines", n, _hunk_diff(n)))
    result = {
        "benchmark": "bench_scaling.py",
        "machine": machine(nproc=os.cpu_count()),
        "rows": rows,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
