"""A 10,000-hunk commit, in bounded memory (issue 22). Not part of the test run.

    python benchmarks/bench_10k_hunks.py                    # 3,500 files, both profiles
    python benchmarks/bench_10k_hunks.py --files 700 --profiles default
    python benchmarks/bench_10k_hunks.py --code /work/main  # another checkout's code

spring-framework's bc5d771a06 ("Switch to JSpecify annotations": 3,459 files, 10,498
hunks) took a `mine` worker to 24 GB. This builds a generated commit of the same shape in
a throwaway git repository: `--files` Java files, each with its
`import org.springframework.lang.Nullable;` replaced by JSpecify's and two or three
annotated members further down rewritten (`@Nullable` moved into the type:
`public @Nullable String name()`), about three hunks a file, far enough apart that git
keeps them apart. The sources are in the repository, so hunks are located and the AST
parts come from the real pre- and post-images.

Each measurement is a fresh process: `hunkmetrics divergence <diff> --repo R --rev
<parent> --profile P --format json` and `hunkmetrics mine R --grep JSpecify --profile P
--jobs 1` (which characterizes that one commit in its own process); time and the peak
RSS of the child (getrusage RUSAGE_CHILDREN, measured from a wrapper process that does
nothing else). Results go to benchmarks/results/10k_hunks.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _common import WORDS, code_to_measure, compact_json, print_machine  # noqa: E402

PROFILES = ("default", "birch")
TYPES = ["String", "Object", "Integer", "Class<?>", "Map<String, Object>", "List<String>"]
GIT = [
    "git",
    "-c",
    "user.name=Bench",
    "-c",
    "user.email=bench@hunkmetrics.invalid",
    "-c",
    "init.defaultBranch=main",
    "-c",
    "commit.gpgsign=false",
]


def _member(rng: random.Random, k: int, after: bool) -> list[str]:
    """One annotated member, before or after the switch (JSpecify puts the annotation
    on the type): a field, a getter or a setter."""
    name = f"{rng.choice(WORDS)}{k}"
    type_ = rng.choice(TYPES)
    other = rng.choice(WORDS)
    if k % 3 == 0:
        if after:
            return [f"\tprivate @Nullable {type_} {name};"]
        return ["\t@Nullable", f"\tprivate {type_} {name};"]
    if k % 3 == 1:
        getter = f"get{name.title()}() {{"
        head = (
            [f"\tpublic @Nullable {type_} {getter}"]
            if after
            else [
                "\t@Nullable",
                f"\tpublic {type_} {getter}",
            ]
        )
        return [*head, f"\t\treturn this.{other};", "\t}"]
    # a parameter: the annotation stays, the import changes; a comment line changes
    note = "may be null" if after else "nullable"
    return [
        f"\t// {name} {note}",
        f"\tpublic void set{name.title()}(@Nullable {type_} {name}) {{",
        f"\t\tthis.{other} = {name};",
        "\t}",
    ]


def java_file(index: int, seed: int) -> tuple[str, str, str]:
    """(path, before, after) of one file."""
    rng = random.Random(seed * 100_003 + index)
    package = f"org.example.m{index % 40}.p{index % 7}"
    path = "src/main/java/" + package.replace(".", "/") + f"/Type{index}.java"
    members = rng.randint(1, 3)
    filler = 9  # unannotated lines between members: git keeps their hunks apart
    before = [f"package {package};", "", "import java.util.List;", "import java.util.Map;", ""]
    after = list(before)
    before.insert(4, "import org.springframework.lang.Nullable;")
    after.insert(2, "import org.jspecify.annotations.Nullable;")
    head = ["", f"public class Type{index} {{", ""]
    before += head
    after += head
    for k in range(members):
        body = [f"\tint {rng.choice(WORDS)}{k}_{j} = {rng.randint(0, 99)};" for j in range(filler)]
        before += body
        after += body
        member_seed = rng.random()
        before += _member(random.Random(member_seed), k + index, after=False)
        after += _member(random.Random(member_seed), k + index, after=True)
    tail = ["", "}", ""]
    return path, "\n".join(before + tail), "\n".join(after + tail)


def build_repo(root: Path, files: int, seed: int = 22) -> tuple[str, str]:
    """A repository with one commit of the files, then the switch: (parent, commit)."""
    subprocess.run([*GIT, "init", "-q", str(root)], check=True)
    made = [java_file(k, seed) for k in range(files)]
    for path, before, _ in made:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(before)
    subprocess.run([*GIT, "-C", str(root), "add", "-A"], check=True)
    subprocess.run([*GIT, "-C", str(root), "commit", "-qm", "Initial"], check=True)
    for path, _, after in made:
        (root / path).write_text(after)
    subprocess.run(
        [*GIT, "-C", str(root), "commit", "-qam", "Switch to JSpecify annotations"], check=True
    )
    rev = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "HEAD~1", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return rev[0], rev[1]


_WRAPPER = """
import json, resource, subprocess, sys, time
started = time.perf_counter()
limit = {limit!r}
def cap():
    if limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
done = subprocess.run({command!r}, capture_output=True, env={env!r}, cwd={cwd!r},
    preexec_fn=cap)
seconds = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
try:  # a divergence document: its size and value
    doc = json.loads(done.stdout)
    summary = {{"hunk_count": doc["hunk_count"], "divergence": doc["divergence"]["value"]}}
except Exception:
    summary = {{}}
print(json.dumps({{**summary, "seconds": seconds, "peak_mib": peak, "status": done.returncode,
    "stdout_bytes": len(done.stdout), "stderr": done.stderr.decode(errors="replace")[-400:]}}))
"""


def run_measured(command: list[str], code: str, cwd: Path, limit: int = 0) -> dict[str, Any]:
    """`command`'s time and peak RSS, measured from a wrapper process; `limit`: an
    address-space limit in bytes for it (0: none), so that a run of old code that would
    take the machine's memory fails instead."""
    env = {"PYTHONPATH": code, "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    wrapper = _WRAPPER.format(command=command, env=env, cwd=str(cwd), limit=limit)
    done = subprocess.run([sys.executable, "-c", wrapper], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    return dict(json.loads(done.stdout))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=3500)
    parser.add_argument("--profiles", nargs="+", default=list(PROFILES), choices=PROFILES)
    parser.add_argument("--commands", nargs="+", default=["divergence", "mine"])
    parser.add_argument("--code", type=Path, help="a directory holding the hunkmetrics package")
    parser.add_argument(
        "--limit-gib", type=float, default=0, help="address-space limit of each run (0: none)"
    )
    parser.add_argument("--out", type=Path, default=HERE / "results" / "10k_hunks.json")
    args = parser.parse_args(argv)
    about = print_machine()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        code, measured = code_to_measure(args.code, work)
        repo = work / "repo"
        parent, commit = build_repo(repo, args.files)
        diff = work / "switch.diff"
        diff.write_bytes(
            subprocess.run(
                ["git", "-C", str(repo), "diff", parent, commit], capture_output=True, check=True
            ).stdout
        )
        count = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys, hunkmetrics; w = hunkmetrics.open_workspace("
                f"{str(diff)!r}); print(sum(len(f.hunks) for f in w.patch.files))",
            ],
            capture_output=True,
            text=True,
            env={"PYTHONPATH": code},
            check=True,
        ).stdout.strip()
        print(f"generated commit: {args.files} files, {count} hunks")
        runs: list[dict[str, Any]] = []
        python = sys.executable
        for profile in args.profiles:
            for name in args.commands:
                if name == "divergence":
                    command = [
                        python,
                        "-m",
                        "hunkmetrics",
                        "divergence",
                        str(diff),
                        "--repo",
                        str(repo),
                        "--rev",
                        parent,
                        "--profile",
                        profile,
                        "--format",
                        "json",
                    ]
                else:
                    out = work / f"mine_{profile}.jsonl"
                    command = [
                        python,
                        "-m",
                        "hunkmetrics",
                        "mine",
                        str(repo),
                        "--out",
                        str(out),
                        "--grep",
                        "JSpecify",
                        "--profile",
                        profile,
                        "--jobs",
                        "1",
                    ]
                limit = int(args.limit_gib * 2**30)
                row = {
                    "command": name,
                    "profile": profile,
                    **run_measured(command, code, work, limit),
                }
                if name == "mine" and row["status"] == 0:
                    record = json.loads((work / f"mine_{profile}.jsonl").read_text())
                    row["error"] = record.get("error")
                    row["hunk_count"] = record.get("hunk_count")
                    row["divergence"] = (record.get("divergence") or {}).get("value")
                print(
                    f"{name:>10} {profile:>8}: {row['seconds']:7.1f} s, peak "
                    f"{row['peak_mib']:7.1f} MiB, exit {row['status']}"
                    + (f", error {row['error']}" if row.get("error") else "")
                )
                runs.append(row)
    result = {
        "machine": about,
        "code": measured,
        "shape": {"files": args.files, "hunks": int(count)},
        "limit_gib": args.limit_gib or None,
        "runs": {str(k): r for k, r in enumerate(runs)},
    }
    args.out.parent.mkdir(exist_ok=True)
    args.out.write_text(compact_json(result))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
