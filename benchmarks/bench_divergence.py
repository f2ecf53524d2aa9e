"""Divergence speed and memory on synthetic patches (not part of the test run).

    python benchmarks/bench_divergence.py                 # the issue's targets
    python benchmarks/bench_divergence.py --hunks 500 --profile birch

Each measurement runs in a fresh subprocess so that its peak RSS is its own. A patch of
N hunks spreads over N/10 Java files (10 hunks a file, in a few packages); each hunk
changes one or two statements inside a method, with varied identifiers and literals.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import WORDS  # noqa: E402
from _common import machine as common_machine  # noqa: E402

import hunkmetrics

TARGETS = [  # (hunks, profile, seconds, MiB)
    (2000, "default", 20.0, 2048),
    (300, "birch", 20.0, None),
]
STATEMENTS = [
    "int {a} = {b} + {n};",
    "if ({a} > {n}) {{ {b}.add({a}); }}",
    "return {a}.get({n}) * {b};",
    '{a} = compute({b}, "{a}-{n}");',
    "for (int i = 0; i < {n}; i++) {{ {a} += i; }}",
    'log.debug("{b} is " + {a});',
    '{b}.put("{a}", new ArrayList<>({n}));',
]


def statement(rng: random.Random) -> str:
    return rng.choice(STATEMENTS).format(
        a=rng.choice(WORDS), b=rng.choice(WORDS), n=rng.randint(0, 999)
    )


def synthetic_patch(hunks: int, seed: int = 7) -> bytes:
    """A git-style diff of `hunks` one-to-two-line edits, 10 per file, 12 lines apart."""
    rng = random.Random(seed)
    out: list[str] = []
    per_file = 10
    for f in range(0, hunks, per_file):
        path = f"src/main/java/org/example/p{f // 200}/sub{f // 50}/C{f}.java"
        out += [f"diff --git a/{path} b/{path}", f"--- a/{path}", f"+++ b/{path}"]
        for k in range(min(per_file, hunks - f)):
            start = 10 + 12 * k
            old = [statement(rng) for _ in range(rng.randint(1, 2))]
            new = [statement(rng) for _ in range(rng.randint(1, 2))]
            context = ["        x();", "        y();", "        z();"]
            out.append(f"@@ -{start},{6 + len(old)} +{start},{6 + len(new)} @@ class C{f} {{")
            out += [" " + c for c in context]
            out += ["-        " + s for s in old] + ["+        " + s for s in new]
            out += [" " + c for c in context]
    return ("\n".join(out) + "\n").encode()


def measure(patch: Path, profile: str) -> dict:
    code = (
        "import json, resource, sys, time\n"
        "t = time.perf_counter()\n"
        "import hunkmetrics\n"
        f"r = hunkmetrics.divergence({str(patch)!r}, profile={profile!r})\n"
        "elapsed = time.perf_counter() - t\n"
        "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024\n"
        "print(json.dumps({'seconds': elapsed, 'peak_mib': peak, 'n': r.hunk_count,"
        " 'pairs': len(r.pair_i), 'value': r.value}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hunks", type=int)
    parser.add_argument("--profile", choices=hunkmetrics.PROFILE_NAMES, default="default")
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).parent / "results" / "divergence.json"
    )
    args = parser.parse_args()
    targets = [(args.hunks, args.profile, None, None)] if args.hunks else TARGETS
    machine = common_machine()
    print(
        f"machine: {machine['cpu_model']}, {machine['cpu_count']} cores, Python {machine['python']}"
    )
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for hunks, profile, seconds, mib in targets:
            patch = Path(tmp) / f"synthetic_{hunks}.diff"
            patch.write_bytes(synthetic_patch(hunks))
            result = measure(patch, profile)
            ok = (seconds is None or result["seconds"] < seconds) and (
                mib is None or result["peak_mib"] < mib
            )
            verdict = "" if seconds is None else ("PASS" if ok else "FAIL")
            print(
                f"{hunks:>6} hunks {profile:>8}: {result['seconds']:7.2f} s, "
                f"peak {result['peak_mib']:7.1f} MiB, {result['pairs']} pairs, "
                f"Div {result['value']:.4f}  {verdict}"
            )
            rows.append(
                {
                    "hunks": hunks,
                    "profile": profile,
                    "target_seconds": seconds,
                    "target_mib": mib,
                    **result,
                    "verdict": verdict,
                }
            )
    if not args.hunks:
        args.out.parent.mkdir(exist_ok=True)
        args.out.write_text(json.dumps({"machine": machine, "runs": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
