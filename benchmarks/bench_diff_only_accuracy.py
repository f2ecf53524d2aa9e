#!/usr/bin/env python3
"""Benchmark: how often the diff-only location equals the one read from the sources, and
whether any level stated as seen is wrong.

For the N most recent non-merge commits of each repository that touch code files, the
commit's diff (`git diff -U<n> parent commit`, code files of a known language, tests
included) is located twice: from the diff alone, and from the parent's tree (`--repo`,
`--rev parent`). Every hunk is compared level by level:

  equal      the diff-only value equals the source value (package, class, method, as
             written in the documents, qualifiers included)
  own part   the same, with the module or package prefix stripped from class and method
             (what the class and method evidence speak for)
  seen       the diff-only evidence says `seen` for that level
  seen wrong seen, yet the level's own part differs from the source answer: the
             package; the class or method with the file's module or package prefix
             (each side's own) stripped, as docs/hierarchy.md defines the evidence
  placed wrong (method) the diff-only location is `placed`, yet its innermost callable
             (bare name and parameters; None outside every method) differs from the
             sources': a method claimed that the change is not in
  partial    (method) placed with a method stated inferred (its qualification or
             class may lack what the diff does not show)

Every hunk also counts in a `nested` row of its language and context when the sources
put it in a callable nested in another callable or in an anonymous class (the issue's
"nested code": a Python inner def, a JavaScript function in a function, a method of a
Java `new Foo() {…}`). The goal is 0 seen-wrong and 0 placed-wrong; the cases are
listed in the result file.

    python benchmarks/bench_diff_only_accuracy.py [--commits 60] [--mirrors /work/.mirror]
        [--repos jhy+jsoup:3,10 ... --output results/other.json]

Repositories are bare mirrors (`<owner>+<name>/repo` or `<owner>+<name>` under
--mirrors); one missing is skipped and said so. Standalone script, not a test.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from _common import compact_json, snapshot_hunkmetrics
from _common import machine as common_machine

from hunkmetrics.errors import HunkmetricsError
from hunkmetrics.lang import default_languages
from hunkmetrics.lang.index import Scope, build_index, top_qualifier
from hunkmetrics.lang.locate import LocatedHunk
from hunkmetrics.lang.selection import PathSelection
from hunkmetrics.workspace import open_workspace

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "diff_only_accuracy.json"
# (mirror, context sizes): Python also at -U10, where more context once made answers worse.
EVERY_CONTEXT = (0, 3, 10)
REPOSITORIES: list[tuple[str, tuple[int, ...]]] = [
    ("google+gson", EVERY_CONTEXT),
    ("apache+commons-lang", EVERY_CONTEXT),
    ("pallets+click", EVERY_CONTEXT),
    ("spf13+cobra", EVERY_CONTEXT),
    ("expressjs+express", EVERY_CONTEXT),
    ("ryoppippi+ccusage", EVERY_CONTEXT),
    ("DaveGamble+cJSON", EVERY_CONTEXT),
    ("fmtlib+fmt", EVERY_CONTEXT),
]
LEVELS = ("package", "class", "method")
SELECTION = PathSelection(exclude_tests=False)  # every code file, tests included
CODE_GLOBS = ["*.java", "*.py", "*.go", "*.js", "*.mjs", "*.cjs", "*.ts", "*.tsx"]
CODE_GLOBS += ["*.c", "*.h", "*.cc", "*.cpp", "*.hpp"]


def git(repo: Path, *args: str) -> bytes:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=True).stdout


def mirror_dir(root: Path, name: str) -> Path | None:
    for candidate in (root / name / "repo", root / name):
        if (candidate / "HEAD").exists():
            return candidate
    return None


def commits(repo: Path, count: int) -> list[tuple[str, str]]:
    """(commit, parent) of the `count` latest non-merge commits touching code files."""
    out = git(repo, "log", "--no-merges", f"-n{count}", "--format=%H %P", "HEAD", "--", *CODE_GLOBS)
    pairs = []
    for line in out.decode().splitlines():
        parts = line.split()
        if len(parts) == 2:
            pairs.append((parts[0], parts[1]))
    return pairs


def own_part(name: str | None, root: str) -> str | None:
    """A class or method name without its module/package qualifier."""
    if name is None or not root:
        return name
    return name[len(root) + 1 :] if name.startswith(root + ".") else name


def compare(diff: LocatedHunk, source: LocatedHunk) -> dict[str, tuple[bool, str, bool]]:
    """Per level: (equal, diff-only basis, own part equal)."""
    language = default_languages().for_path(diff.file.path)
    d, s = diff.location, source.location
    roots = ("", "")
    if language is not None:
        roots = (
            top_qualifier(language, d.package or "", diff.file.path, from_diff=True),
            top_qualifier(language, s.package or "", source.file.path, from_diff=False),
        )
    values = {
        "package": (d.package, s.package, d.package, s.package),
        "class": (
            d.class_name,
            s.class_name,
            own_part(d.class_name, roots[0]),
            own_part(s.class_name, roots[1]),
        ),
        "method": (d.method, s.method, own_part(d.method, roots[0]), own_part(s.method, roots[1])),
    }
    bases = {
        "package": d.evidence.package,
        "class": d.evidence.class_name,
        "method": d.evidence.method,
    }
    return {level: (dv == sv, bases[level], do == so) for level, (dv, sv, do, so) in values.items()}


def bare_callable(method: str | None) -> str | None:
    """A method's innermost callable: its last name with its parameter list."""
    if method is None:
        return None
    head, paren, params = method.partition("(")
    return head.rpartition(".")[2] + paren + params


def nested_spans(repo: Path, parent: str, path: str) -> set[tuple[int, int]]:
    """The spans of the pre-image's callables that sit in another callable or in an
    anonymous class (from the parent's whole file)."""
    language = default_languages().for_path(path)
    if language is None:
        return set()
    try:
        data = git(repo, "show", f"{parent}:{path}")
    except subprocess.CalledProcessError:
        return set()
    index = build_index(data, language, path)
    out: set[tuple[int, int]] = set()
    open_: list[Scope] = []  # the scopes around the current one (index order is by start)
    for scope in index.scopes:
        while open_ and not open_[-1].contains(scope.start, scope.end):
            open_.pop()
        if scope.kind == "callable" and any(
            o.kind == "callable" or o.anonymous for o in open_ if o.depth < scope.depth
        ):
            out.add((scope.start, scope.end))
        open_.append(scope)
    return out


def run_commit(
    repo: Path, commit: str, parent: str, context: int
) -> list[tuple[LocatedHunk, LocatedHunk]]:
    diff = git(repo, "diff", f"-U{context}", parent, commit, "--", *CODE_GLOBS)
    if not diff.strip():
        return []
    with open_workspace(diff, selection=SELECTION) as alone:
        diff_only = alone.located()
    with open_workspace(diff, repo=repo, rev=parent, selection=SELECTION) as sourced:
        with_sources = sourced.located()
    by_key = {(h.file.path, h.hunk.index): h for h in with_sources}
    return [
        (h, by_key[(h.file.path, h.hunk.index)])
        for h in diff_only
        if (h.file.path, h.hunk.index) in by_key
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commits", type=int, default=60)
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--output", type=Path, default=RESULTS)
    parser.add_argument(
        "--repos",
        nargs="+",
        metavar="OWNER+NAME[:U,U]",
        help="mirrors to measure instead of the default six, with context sizes (default 3)",
    )
    args = parser.parse_args()
    repositories = [_repository(spec) for spec in args.repos] if args.repos else REPOSITORIES

    started = time.perf_counter()
    # (language, context) → level → counters
    tally: dict[str, dict[str, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
    wrong: list[dict[str, Any]] = []
    misplaced: list[dict[str, Any]] = []
    repos_used: dict[str, Any] = {}
    skipped: list[str] = []
    for name, contexts in repositories:
        repo = mirror_dir(args.mirrors, name)
        if repo is None:
            skipped.append(name)
            continue
        pairs = commits(repo, args.commits)
        repos_used[name] = {
            "commits": len(pairs),
            "head": git(repo, "rev-parse", "--short", "HEAD").decode().strip(),
        }
        errors = 0
        for context in contexts:
            for commit, parent in pairs:
                try:
                    located = run_commit(repo, commit, parent, context)
                except (HunkmetricsError, subprocess.CalledProcessError):
                    errors += 1
                    continue
                nested: dict[str, set[tuple[int, int]]] = {}
                for diff, source in located:
                    if diff.location.language is None:
                        continue
                    path = source.file.old_path
                    if path is not None and path not in nested:
                        nested[path] = nested_spans(repo, parent, path)
                    span = source.location.method_span
                    keys = [f"{diff.location.language} -U{context}"]
                    if path is not None and span is not None and tuple(span) in nested[path]:
                        keys.append(keys[0] + " nested")
                    d, s = diff.location, source.location
                    placed_wrong = d.placed and bare_callable(d.method) != bare_callable(s.method)
                    if placed_wrong:
                        misplaced.append(
                            {
                                "repo": name,
                                "commit": commit[:12],
                                "context": context,
                                "file": diff.file.path,
                                "hunk": diff.hunk.index,
                                "diff_only": d.method,
                                "source": s.method,
                            }
                        )
                    for key, (level, (equal, basis, own_equal)) in (
                        (k, item) for k in keys for item in compare(diff, source).items()
                    ):
                        counter = tally[key][level]
                        counter["hunks"] += 1
                        counter["equal"] += equal
                        counter["own_equal"] += own_equal
                        counter[basis] += 1
                        if level == "method":
                            counter["placed"] += d.placed
                            counter["placed_wrong"] += placed_wrong
                            counter["partial"] += d.placed and basis == "inferred"
                        if basis == "seen" and not own_equal and key == keys[0]:
                            counter["seen_wrong"] += 1
                            wrong.append(
                                {
                                    "repo": name,
                                    "commit": commit[:12],
                                    "context": context,
                                    "file": diff.file.path,
                                    "hunk": diff.hunk.index,
                                    "level": level,
                                    "diff_only": _value(diff, level),
                                    "source": _value(source, level),
                                }
                            )
        repos_used[name]["errors_skipped"] = errors // max(1, len(contexts))

    summary: dict[str, Any] = {}
    for key in sorted(tally):
        row: dict[str, Any] = {}
        for level in LEVELS:
            c = tally[key][level]
            hunks = c["hunks"]
            row[level] = {
                "hunks": hunks,
                "equal_share": round(c["equal"] / hunks, 3) if hunks else None,
                "own_part_equal_share": round(c["own_equal"] / hunks, 3) if hunks else None,
                "seen": c["seen"],
                "inferred": c["inferred"],
                "unknown": c["unknown"],
                "seen_wrong": c["seen_wrong"],
                "seen_wrong_share": round(c["seen_wrong"] / c["seen"], 3) if c["seen"] else None,
            }
            if level == "method":
                row[level].update(
                    placed=c["placed"], placed_wrong=c["placed_wrong"], partial=c["partial"]
                )
        summary[key] = row
    document = {
        "benchmark": "diff_only_accuracy",
        "commits_per_repo": args.commits,
        "repositories": repos_used,
        "skipped": skipped,
        "by_language": summary,
        "seen_wrong_cases": wrong,
        "placed_wrong_cases": misplaced,
        "seconds": round(time.perf_counter() - started, 1),
        "hunkmetrics": snapshot_hunkmetrics(Path("."), copy=False),
        "machine": common_machine(),
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(compact_json(document))
    for key, row in summary.items():
        cells = "  ".join(
            f"{level} {row[level]['equal_share']:.3f} equal, "
            f"{row[level]['seen_wrong']}/{row[level]['seen']} seen wrong"
            for level in LEVELS
        )
        method = row["method"]
        cells += f"  placed {method['placed']}, wrong {method['placed_wrong']}"
        print(f"{key:22} {row['package']['hunks']:5} hunks  {cells}")
    print(
        f"seen-wrong cases: {len(wrong)}, placed-wrong: {len(misplaced)}; written {args.output}",
        file=sys.stderr,
    )


def _repository(spec: str) -> tuple[str, tuple[int, ...]]:
    name, _, contexts = spec.partition(":")
    return name, tuple(int(c) for c in contexts.split(",")) if contexts else (3,)


def _value(item: LocatedHunk, level: str) -> str | None:
    loc = item.location
    return {"package": loc.package, "class": loc.class_name, "method": loc.method}[level]


if __name__ == "__main__":
    main()
