#!/usr/bin/env python3
"""Exact agreement of the birch recipe (../shared/spec/birch-exact.md) with the values
published for the Hunk4J sample.

For every sample bug whose upstream repository is mirrored, this reads the post-image
(buggy) Java files through `hunkmetrics.open_workspace(patch, repo, rev=fixed commit)`,
builds the JavaParser-shaped tree (`hunkmetrics.lang.javaparser_shape`), and computes
per pair S (`hunkmetrics.metrics.ast_path`), F (`file_distance`, uncapped), L (1 - BLEU
on Punkt + Treebank tokens, `hunkmetrics.metrics.punkt`) and Div(P). The two published
artifacts (`hunkmetrics.metrics.birch_artifacts`) are applied, since the published
numbers carry them: the HashMap key order (pairs lost for n >= 12 read as S = 0) and the
file order of Defects4J's `modified_classes` (read from a rjust/defects4j mirror when
present; patch order otherwise).

It compares with reference_pairs.csv / reference.csv: S and F as printed to 4 decimals,
L and Div within 0.0005, and prints every failure.

    python benchmarks/agreement/birch_exact.py --mirrors /work/.mirror \\
        --sample ../shared/hunk4j-sample [--bugs Lang_5 Closure_4] [--verbose]

`--mirrors` holds `<owner>+<name>/repo` git directories (what the `fetch` tool makes).
"""

from __future__ import annotations

import argparse
import csv
import math
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

import hunkmetrics
from hunkmetrics.lang.javaparser_shape import shape_java
from hunkmetrics.metrics.ast_path import FileStructure, hunk_span, post_line_count
from hunkmetrics.metrics.birch_artifacts import lost_pairs, remap, study_order
from hunkmetrics.metrics.features import hunk_text
from hunkmetrics.metrics.filelevel import file_distance
from hunkmetrics.metrics.lexical import ngram_profile, sentence_bleu4
from hunkmetrics.metrics.punkt import punkt_word_tokenize
from hunkmetrics.patch.model import FileDiff, Hunk

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from published_agreement import FIXED_COMMIT, UPSTREAM  # noqa: E402

TOLERANCE = 0.0005
Matrix = npt.NDArray[np.float64]


@dataclass
class BugResult:
    bug: str
    status: str
    message: str = ""
    n: int = 0
    divergence: float | None = None
    pub_divergence: float | None = None
    failures: list[str] = field(default_factory=list)
    checked: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0


def mirror_of(mirrors: Path, project: str) -> Path | None:
    upstream = UPSTREAM.get(project)
    if upstream is None:
        return None
    base = mirrors / upstream.replace("/", "+")
    for candidate in (base / "repo", base):
        if (candidate / "HEAD").is_file():
            return candidate
    return None


def has_commit(repo: Path, commit: str) -> bool:
    done = subprocess.run(
        ["git", "--git-dir", str(repo), "cat-file", "-e", f"{commit}^{{commit}}"],
        capture_output=True,
    )
    return done.returncode == 0


def d4j_file(d4j: Path | None, path: str) -> str | None:
    """A file of the rjust/defects4j mirror at its HEAD, if mirrored."""
    if d4j is None:
        return None
    done = subprocess.run(
        ["git", "--git-dir", str(d4j), "show", f"HEAD:{path}"], capture_output=True, text=True
    )
    return done.stdout if done.returncode == 0 else None


def fixed_commit(d4j: Path | None, bug: str) -> str | None:
    """`revision.id.fixed` from Defects4J's current active-bugs.csv (Defects4J moved its
    Math and Lang ids to the rewritten apache histories in 2022), else the id written
    into published_agreement.py."""
    project, number = bug.rsplit("_", 1)
    table = d4j_file(d4j, f"framework/projects/{project}/active-bugs.csv")
    for line in (table or "").splitlines()[1:]:
        cells = line.split(",")
        if len(cells) > 2 and cells[0] == number:
            return cells[2]
    return FIXED_COMMIT.get(bug)


def modified_classes(d4j: Path | None, bug: str) -> list[str] | None:
    """Defects4J's modified_classes list of a bug (dotted class names), if mirrored."""
    project, number = bug.rsplit("_", 1)
    text = d4j_file(d4j, f"framework/projects/{project}/modified_classes/{number}.src")
    if text is None:
        return None
    return [line.strip() for line in text.splitlines() if line.strip()]


def file_order(paths: Sequence[str], classes: Sequence[str] | None) -> list[str]:
    """The patch's files in modified_classes order (a class `a.b.C` is the file ending
    in `a/b/C.java`); files not matched keep their patch order after the matched ones."""
    if not classes:
        return list(paths)
    ranked: list[tuple[int, str]] = []
    for path in dict.fromkeys(paths):
        rank = next(
            (k for k, c in enumerate(classes) if path.endswith(c.replace(".", "/") + ".java")),
            len(classes),
        )
        ranked.append((rank, path))
    return [path for _, path in sorted(ranked, key=lambda item: item[0])]


def counted(ws: hunkmetrics.Workspace) -> list[tuple[Hunk, FileDiff, bytes]]:
    """The hunks the study counted: Java files that exist in the post-image."""
    out: list[tuple[Hunk, FileDiff, bytes]] = []
    assert ws.sources is not None
    for file_diff in ws.patch.content_files:
        texts = ws.sources.texts(file_diff)
        if not file_diff.path.endswith(".java") or texts is None or texts.post is None:
            continue
        out.extend((hunk, file_diff, texts.post) for hunk in file_diff.hunks)
    return out


def structure(hunks: list[tuple[Hunk, FileDiff, bytes]]) -> Matrix:
    """S over patch positions: same file by the anchor path, different files 1."""
    n = len(hunks)
    out = np.ones((n, n))
    np.fill_diagonal(out, 0.0)
    by_file: dict[str, list[int]] = {}
    for k, (_, file_diff, _) in enumerate(hunks):
        by_file.setdefault(file_diff.path, []).append(k)
    for members in by_file.values():
        if len(members) < 2:
            continue  # no same-file pair: no tree needed
        post = hunks[members[0]][2]
        lines = post_line_count(post.decode("utf-8", errors="replace"))
        spans = [hunk_span(hunks[k][0].new_start, hunks[k][0].new_lines, lines) for k in members]
        out[np.ix_(members, members)] = FileStructure.of(shape_java(post)).pair_matrix(spans)
    return out


def lexical(hunks: list[tuple[Hunk, FileDiff, bytes]]) -> Matrix:
    profiles = [ngram_profile(punkt_word_tokenize(hunk_text(h))) for h, _, _ in hunks]
    n = len(profiles)
    out = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            out[i, j] = 1.0 - sentence_bleu4(profiles[i], profiles[j])
    return out


def measure(
    bug: str,
    patch: Path,
    repo: Path,
    commit: str,
    d4j: Path | None,
    pub_pairs: dict[tuple[int, int], dict[str, str]],
    pub_bug: dict[str, str],
) -> BugResult:
    started = time.perf_counter()
    result = BugResult(bug, "ok")
    ws = hunkmetrics.open_workspace(patch, repo=repo, rev=commit)
    hunks = counted(ws)
    n = result.n = len(hunks)
    paths = [file_diff.path for _, file_diff, _ in hunks]
    order = study_order(paths, file_order(paths, modified_classes(d4j, bug)))
    s_patch = structure(hunks)
    f_patch = np.array([[file_distance(a, b, capped=False) for b in paths] for a in paths])
    s, f = remap(s_patch, order), remap(f_patch, order)
    study_paths = [paths[k] for k in order]
    for i, j in lost_pairs(n):
        if study_paths[i] == study_paths[j]:
            s[i, j] = s[j, i] = 0.0
    lex = lexical(hunks)
    values = []
    checked = {"S": 0, "F": 0, "L": 0}
    for i in range(n):
        for j in range(i + 1, n):
            g = 0.0 if study_paths[i] == study_paths[j] else 2.0
            values.append(lex[i, j] * (s[i, j] + g * f[i, j]) / (1 + g))
            pub = pub_pairs.get((i, j))
            if pub is None:
                result.failures.append(f"pair {i}-{j}: not published")
                continue
            for name, ours, column in (
                ("S", s[i, j], "ast_distance"),
                ("F", f[i, j], "package_distance"),
            ):
                checked[name] += 1
                if f"{ours:.4f}" != pub[column]:
                    result.failures.append(f"pair {i}-{j} {name}: {ours:.4f} vs {pub[column]}")
            checked["L"] += 1
            if abs(lex[i, j] - float(pub["lexical_distance"])) > TOLERANCE:
                result.failures.append(
                    f"pair {i}-{j} L: {lex[i, j]:.4f} vs {pub['lexical_distance']}"
                )
    result.checked = checked
    result.divergence = math.log(n) * float(np.mean(values)) if n >= 2 else 0.0
    result.pub_divergence = float(pub_bug["divergence"])
    if int(pub_bug["hunk_count"]) != n:
        result.failures.append(f"hunk count {n} vs {pub_bug['hunk_count']}")
    if abs(result.divergence - result.pub_divergence) > TOLERANCE:
        result.failures.append(f"Div {result.divergence:.4f} vs {pub_bug['divergence']}")
    result.seconds = time.perf_counter() - started
    return result


def read_reference(
    sample: Path,
) -> tuple[dict[str, dict[str, str]], dict[str, dict[tuple[int, int], dict[str, str]]]]:
    with (sample / "reference.csv").open(newline="") as handle:
        bugs = {row["bug_id"]: row for row in csv.DictReader(handle)}
    pairs: dict[str, dict[tuple[int, int], dict[str, str]]] = {}
    with (sample / "reference_pairs.csv").open(newline="") as handle:
        for row in csv.DictReader(handle):
            pairs.setdefault(row["bug_id"], {})[(int(row["hunk_i"]), int(row["hunk_j"]))] = row
    return bugs, pairs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--sample", type=Path, default=HERE.parents[2] / "shared/hunk4j-sample")
    parser.add_argument("--bugs", nargs="*")
    parser.add_argument("--verbose", action="store_true", help="print every failure")
    args = parser.parse_args(argv)
    bugs, pairs = read_reference(args.sample)
    d4j_dir = args.mirrors / "rjust+defects4j" / "repo"
    d4j = d4j_dir if (d4j_dir / "HEAD").is_file() else None
    results: list[BugResult] = []
    for bug in args.bugs or sorted(bugs):
        project = bug.rsplit("_", 1)[0]
        repo = mirror_of(args.mirrors, project)
        commit = fixed_commit(d4j, bug)
        if repo is None or commit is None or not has_commit(repo, commit):
            results.append(BugResult(bug, "unavailable", "no mirror or commit"))
            continue
        try:
            result = measure(
                bug, args.sample / "patches" / f"{bug}.diff", repo, commit, d4j,
                pairs.get(bug, {}), bugs[bug],
            )  # fmt: skip
        except hunkmetrics.HunkmetricsError as error:
            result = BugResult(bug, "error", str(error))
        results.append(result)
        if result.failures:
            shown = result.failures if args.verbose else result.failures[:6]
            more = len(result.failures) - len(shown)
            print(f"{bug}: {len(result.failures)} failures" + (f" (+{more})" if more else ""))
            for line in shown:
                print("   ", line)
    measured = [r for r in results if r.status == "ok"]
    totals = {k: sum(r.checked.get(k, 0) for r in measured) for k in ("S", "F", "L")}
    failed = {
        k: sum(1 for r in measured for x in r.failures if f" {k}:" in x) for k in ("S", "F", "L")
    }
    div_ok = sum(1 for r in measured if not any(x.startswith("Div") for x in r.failures))
    print(f"measured {len(measured)} bugs of {len(results)}; unavailable/error:",
          ", ".join(f"{r.bug} ({r.status}: {r.message})" for r in results if r.status != "ok")
          or "none")  # fmt: skip
    for k in ("S", "F", "L"):
        print(f"{k}: {totals[k] - failed[k]}/{totals[k]} pairs agree")
    print(f"Div: {div_ok}/{len(measured)} bugs within {TOLERANCE}")
    print(f"time: {sum(r.seconds for r in measured):.2f} s")
    return 0 if all(not r.failures for r in measured) else 1


if __name__ == "__main__":
    sys.exit(main())
