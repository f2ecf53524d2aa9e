#!/usr/bin/env python3
"""The birch tree built near the hunks, against the whole tree, on real Java files.

The birch profile measures each file's same-file pairs on a JavaParser-shaped tree built
only near the hunks' lines (`reshape(..., near=...)`), divided by the whole tree's diameter
from a walk that builds no tree (`parsed_diameter`). Both must give exactly what the whole
tree gives. For every `.java` file at the newest commit of each mirrored repository (or
the first --limit of each), this checks

  diameter   parsed_diameter(tree) == diameter(reshape(root));
  anchors    for --spans seeded random spans (single lines, ranges, and "between two
             lines" spans of a hunk without added lines), their anchors' depths and every
             pairwise distance in the near tree == those in the whole tree;

and times both ways (the whole tree + its diameter vs the near tree + the walk).

    python benchmarks/bench_birch_tree.py [--mirrors /work/.mirror] [--limit 0] [--spans 6]

Writes benchmarks/results/birch_tree.json. A standalone script, not a test.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import tree_sitter_java
from _common import cat_file_blobs, compact_json, machine
from tree_sitter import Language, Parser

from hunkmetrics.lang.javaparser_diameter import diameter, parsed_diameter
from hunkmetrics.lang.javaparser_shape import file_last_line, javaparser_lines, reshape
from hunkmetrics.metrics.ast_path import anchor, distance

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "birch_tree.json"
REPOSITORIES = (
    "google+gson",
    "apache+commons-lang",
    "apache+commons-math",
    "apache+commons-cli",
    "apache+commons-codec",
    "apache+commons-collections",
    "apache+commons-compress",
    "apache+commons-csv",
    "apache+commons-jxpath",
    "google+closure-compiler",
    "JodaOrg+joda-time",
    "jfree+jfreechart",
    "jhy+jsoup",
    "mockito+mockito",
    "FasterXML+jackson-core",
    "FasterXML+jackson-databind",
    "FasterXML+jackson-dataformat-xml",
)


def java_files(git_dir: Path, limit: int) -> list[tuple[str, bytes]]:
    """(path, bytes) of the .java files at HEAD, read through one `git cat-file --batch`."""
    listing = subprocess.run(
        ["git", "--git-dir", str(git_dir), "ls-tree", "-r", "--name-only", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\n")
    paths = [p for p in listing if p.endswith(".java")]
    if limit:
        paths = paths[:limit]
    names = [f"HEAD:{p}" for p in paths]
    return [(name.removeprefix("HEAD:"), data) for name, data in cat_file_blobs(git_dir, names)]


def random_spans(rng: random.Random, lines: int, count: int) -> list[tuple[int, int]]:
    spans = []
    for _ in range(count):
        start = rng.randint(1, max(1, lines))
        shape = rng.random()
        if shape < 0.4:
            spans.append((start, start))
        elif shape < 0.8:
            spans.append((start, min(lines, start + rng.randint(1, 30))))
        else:
            spans.append((start + 1, start))  # a hunk without added lines
    return spans


def check_file(parser: Parser, data: bytes, rng: random.Random, span_count: int) -> dict[str, Any]:
    source = javaparser_lines(data)
    tree = parser.parse(source)
    last = file_last_line(source)
    started = time.perf_counter()
    whole = reshape(tree.root_node, last)
    whole_diameter = diameter(whole)
    whole_seconds = time.perf_counter() - started
    spans = random_spans(rng, last, span_count)
    started = time.perf_counter()
    near = reshape(tree.root_node, last, near=spans)
    walked = parsed_diameter(tree)
    near_seconds = time.perf_counter() - started
    whole_anchors = [anchor(whole, s, e) for s, e in spans]
    near_anchors = [anchor(near, s, e) for s, e in spans]
    same = [int(whole.depth[a]) for a in whole_anchors] == [
        int(near.depth[a]) for a in near_anchors
    ] and all(
        distance(whole, whole_anchors[i], whole_anchors[j])
        == distance(near, near_anchors[i], near_anchors[j])
        for i in range(len(spans))
        for j in range(i + 1, len(spans))
    )
    return {
        "diameter_equal": walked == whole_diameter,
        "anchors_equal": same,
        "nodes": len(whole),
        "near_nodes": len(near),
        "whole_seconds": whole_seconds,
        "near_seconds": near_seconds,
        "has_error": whole.has_error,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--limit", type=int, default=0, help="files per repository (0: all)")
    parser.add_argument("--spans", type=int, default=6)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    java = Parser(Language(tree_sitter_java.language()))
    per_repo: dict[str, Any] = {}
    mismatches: list[dict[str, Any]] = []
    totals = {"files": 0, "nodes": 0, "near_nodes": 0, "whole_seconds": 0.0, "near_seconds": 0.0}
    for name in REPOSITORIES:
        git_dir = args.mirrors / name / "repo"
        if not git_dir.exists():
            continue
        files = java_files(git_dir, args.limit)
        counts = {"files": 0, "with_errors": 0, "diameter_differs": 0, "anchors_differ": 0}
        for path, data in files:
            result = check_file(java, data, rng, args.spans)
            counts["files"] += 1
            counts["with_errors"] += result["has_error"]
            counts["diameter_differs"] += not result["diameter_equal"]
            counts["anchors_differ"] += not result["anchors_equal"]
            if not (result["diameter_equal"] and result["anchors_equal"]):
                mismatches.append({"repository": name, "path": path, **result})
            for key in ("nodes", "near_nodes", "whole_seconds", "near_seconds"):
                totals[key] += result[key]
            totals["files"] += 1
        per_repo[name] = counts
        print(name, counts, flush=True)
    document = {
        "machine": machine(),
        "seed": args.seed,
        "spans_per_file": args.spans,
        "repositories": per_repo,
        "totals": {
            **totals,
            "whole_seconds": round(totals["whole_seconds"], 2),
            "near_seconds": round(totals["near_seconds"], 2),
            "speed_up": round(totals["whole_seconds"] / max(totals["near_seconds"], 1e-9), 2),
        },
        "mismatches": mismatches[:50],
        "mismatch_count": len(mismatches),
    }
    args.out.write_text(compact_json(document), encoding="utf-8")
    print(json.dumps(document["totals"]), "mismatches:", len(mismatches))
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
