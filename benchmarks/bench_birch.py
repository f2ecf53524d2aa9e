#!/usr/bin/env python3
"""birch vs default over the Hunk4J sample with real sources, in one run (issue 9: birch
must take at most 1.5x default's time).

For every sample bug with an upstream mirror and its Defects4J fixed commit (from a
rjust/defects4j mirror, agreement/defects4j.py), one workspace per bug and profile is
opened and its divergence computed, `--repeat` times; the best total of each profile is
kept.
Each measurement opens a fresh workspace, so every file is read and parsed in it: birch's
time includes building the JavaParser-shaped trees.

    python benchmarks/bench_birch.py [--mirrors /work/.mirror] [--repeat 5] \
        [--json benchmarks/results/birch.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import hunkmetrics

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "agreement"))
from _common import machine  # noqa: E402
from defects4j import UPSTREAM, Defects4J, git, git_dir  # noqa: E402

LIMIT = 1.5


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--sample", type=Path, default=HERE.parents[1] / "shared/hunk4j-sample")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    d4j = Defects4J.find(args.mirrors)
    if d4j is None:
        print(f"no rjust/defects4j mirror under {args.mirrors}")
        return 2
    bugs: list[tuple[Path, Path, str]] = []
    for patch in sorted((args.sample / "patches").glob("*.diff")):
        upstream = UPSTREAM.get(patch.stem.rsplit("_", 1)[0])
        repo = git_dir(args.mirrors, upstream) if upstream else None
        commit = d4j.fixed_commit(patch.stem)
        if repo and commit and git(repo, "cat-file", "-e", f"{commit}^{{commit}}") is not None:
            bugs.append((patch, repo, commit))
    best = {"default": float("inf"), "birch": float("inf")}
    for _ in range(args.repeat):
        for name in ("default", "birch"):  # alternate, so both see the same machine state
            started = time.perf_counter()
            for patch, repo, commit in bugs:
                with hunkmetrics.open_workspace(patch, repo=repo, rev=commit) as ws:
                    ws.divergence(profile=name)
            best[name] = min(best[name], time.perf_counter() - started)
    ratio = best["birch"] / best["default"]
    result = {
        "machine": machine(),
        "bugs": len(bugs),
        "repeat": args.repeat,
        "default_seconds": round(best["default"], 3),
        "birch_seconds": round(best["birch"], 3),
        "ratio": round(ratio, 3),
        "limit": LIMIT,
        "verdict": "PASS" if ratio <= LIMIT else "FAIL",
    }
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0 if ratio <= LIMIT else 1


if __name__ == "__main__":
    sys.exit(main())
