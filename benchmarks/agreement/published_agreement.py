#!/usr/bin/env python3
"""Agreement of the `birch` profile with the values published for Hunk4J (BIRCH study).

For every bug of the Hunk4J sample whose upstream repository and Defects4J fixed commit
are at hand, this computes with `profile="birch"` against the real pre-image (the
Defects4J `revision.id.fixed`; the sample's patches go FIXED -> BUGGY and are used as
given, never reversed):

  * per pair: the structural component S vs the published `ast_distance` (the
    interesting pairs are same-file ones; different-file pairs are 1 by definition),
    with L, F and the pair value next to their published counterparts;
  * per bug: Div(P) vs the published `divergence`, and Div(P) recomputed from our L and F
    with the published S put in (which isolates the share of the error due to S);
  * per bug: the Nucleus/Cluster split from the located hunks (one file and one and the
    same non-null method -> Nucleus; one file otherwise -> Cluster), compared with the
    published class where that class is Nucleus or Cluster.

Published pairs are matched by hunk index. For a few bugs the published S and F columns
follow another hunk order than L does; the script then also finds the order of the
patch's file blocks that reproduces the published F column and reports S against the
pair that order points at ("realigned"). Nothing is tuned: the library computes every
value; the script only compares.

Diagnostics per same-file pair: our edge count and the file's AST diameter (tree-sitter,
named nodes), and the edge count the published S implies at our diameter. With
`--experiments`, S is also computed under two alternative anchor rules (for diagnosis
only; the library is not changed): LCA of the nodes lying wholly on the changed lines,
and the spec's LCA rule on the post-image (the buggy file).

A patch that does not resolve against the revision (SourceError) is recorded with the
tool's message; a missing repository or commit is recorded as unavailable.

    python benchmarks/agreement/published_agreement.py \\
        --mirrors /work/.mirror --sample ../shared/hunk4j-sample --experiments

`--mirrors` is either a directory holding `<owner>+<name>/repo` (or `<owner>+<name>`)
git directories, or a JSON mapping (a file or an inline string) from the Defects4J
project name to a git directory. Writes `results.csv` next to this script (or `--out`)
and prints the summary; `--json PATH` also writes the summary as JSON.

This is a standalone script, not a test: pytest does not collect it.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import math
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

import hunkmetrics
from hunkmetrics.errors import HunkmetricsError, SourceError
from hunkmetrics.lang.languages import rules_for_path
from hunkmetrics.metrics.structural import (
    anchor_node,
    flatten,
    lowest_common_ancestor,
    path_distance,
)

HERE = Path(__file__).resolve().parent

# Upstream repositories of the Defects4J projects (GitHub owner/name).
UPSTREAM = {
    "Lang": "apache/commons-lang",
    "Math": "apache/commons-math",
    "Cli": "apache/commons-cli",
    "Compress": "apache/commons-compress",
    "JxPath": "apache/commons-jxpath",
    "Jsoup": "jhy/jsoup",
    "JacksonCore": "FasterXML/jackson-core",
    "JacksonDatabind": "FasterXML/jackson-databind",
    "Mockito": "mockito/mockito",
    "Time": "JodaOrg/joda-time",
    "Closure": "google/closure-compiler",
    "Chart": None,  # developed in SVN; Defects4J's ids are SVN revisions, not git commits
}

# Defects4J `revision.id.fixed` of the sample's bugs, copied from
# framework/projects/<Project>/active-bugs.csv of rjust/defects4j.
FIXED_COMMIT = {
    "Cli_30": "324b7f901b91614927926a5bab1d9e0e2325f018",
    "Closure_3": "d80fcc04239ab8c4cf781273c4f9bc54cf06f479",
    "Closure_4": "efefb736fccc2039b5fb079710b3f2ac82b8c6e4",
    "Closure_54": "7e9b8336568ea7f05c33e1b58eb67fa6d4eee756",
    "Closure_90": "c5e143f7df0c3d73f6634488cac8ad8e7054fe05",
    "Closure_98": "d1df970451b5a18956448097b3afb43f3a82263d",
    "Closure_134": "6d374c3ee4c9c2651ffb44048924e127fd2bf37c",
    "Closure_135": "d1f25380b5d74c5303533491e36ae4b33a50e2da",
    "Closure_156": "f39bbdd39c9ec2136f0a58a677bd2fdae77075a2",
    "Closure_157": "41acde3e8e5e8d37ade765b41d9fd29861f03e5e",
    "Closure_171": "6d38965a1e0a3a61435b9bebc91ff1ba0a64013a",
    "Compress_40": "52dd5908e374973d69c51856b74d4d93d591c90a",
    "JacksonCore_1": "b40ac81d4a81736e2b7536b14db4ad070b598d2e",
    "JacksonDatabind_10": "466f706901d39ae95393c6c7b1d0b544247922f1",
    "JacksonDatabind_38": "21a2e4b7d680bf796f07d5d3b6119a3cd3fc356c",
    "JacksonDatabind_80": "974ccddfd718a06f889da2dcd58ebb6bc22c8dca",
    "JacksonDatabind_81": "029413a6e381bb04b7b0a420730d3119e9cc0961",
    "JacksonDatabind_103": "f6cf1817509dc5ed61b9730c17abe492cc62b074",
    "JacksonDatabind_104": "83c7c4347055c3a70a3115fa106aa69c9cb56456",
    "JacksonDatabind_105": "69903aeb290415809bfaf6a2e18ec6cb2141fc5a",
    "JacksonDatabind_108": "e797b2271ab9a00b99694a963728f3835f31d1cf",
    "JacksonDatabind_109": "e287a62cd32832d5a9611d5b8f3bc06ec1310dc0",
    "JacksonDatabind_110": "83264a7e377bd3399f0b550460077959aaece16d",
    "Jsoup_50": "c3cbe1b64e7f66ff9f9b53f1388eb135e6693187",
    "Jsoup_83": "bdf1df7eb3ca76cdcdaca38f7df5d941bbb1c664",
    "JxPath_4": "9f912437a14392f8d4c98aa811e9134fbf7b5a52",
    "JxPath_16": "6cf7092809515b6add5f0e83fd837b8e013c5256",
    "JxPath_17": "a1bc20f2af31730caa12faa116e14a964354f28d",
    "JxPath_19": "7b2847e882a9e4216dcf0f35d27101e363611532",
    "Lang_5": "75944e541d358d5b06ebbba3098a919fbf2539d4",
    "Lang_19": "0b3a8a3128890f710700d04e38df48b883d11d91",
    "Lang_27": "c2560c028173c3bc0a4627d4ce5ce221bcc9be66",
    "Lang_32": "006fca88e86bd6f650d4d021d2ff3573a572827d",
    "Lang_64": "8de71ae52958ae70fe651b7327319c9beecd9b84",
    "Math_46": "e6f27ebcb9ee0a344308382b99a3894bb61b225d",
    "Math_47": "330f3fe17d132bd4e2a91ff812ccf489e77f390f",
    "Math_64": "7dadc2ab019f066a7a287376ad4c63193e8a0a9a",
    "Math_86": "bd8f05c4dda4b5b00e525e08fd6c95d256423c97",
    "Mockito_6": "dc205824dbc289acbcde919e430176ad72da847f",
    "Mockito_30": "3c924f80a4db3692a13341f0da4517052ab77a2a",
    "Time_2": "8612f9e5b88c1bea933ef9ab1e431f5db3006b48",
}


LEXICAL_ALIGNED = 0.01  # |L ours - L published| below this: L lines up by index
MAX_BLOCKS = 8  # file blocks up to which every block order is tried when realigning
EXCLUDED_FROM_CLEAN = ("Mockito_6",)  # see README: published S there is not a tree distance

COLUMNS = [
    "kind",
    "bug_id",
    "project",
    "status",
    "hunk_i",
    "hunk_j",
    "same_file",
    "file_i",
    "file_j",
    "lexical",
    "pub_lexical",
    "lexical_aligned",
    "file",
    "pub_file",
    "structural",
    "pub_ast",
    "abs_err_structural",
    "pub_ast_realigned",
    "abs_err_structural_realigned",
    "edges",
    "diameter",
    "pub_edges_at_our_diameter",
    "s_alt_contained",
    "s_alt_postimage",
    "pair_value",
    "pub_pair_value",
    "hunk_count",
    "pub_hunk_count",
    "divergence",
    "pub_divergence",
    "abs_err_divergence",
    "divergence_with_pub_ast",
    "avg_structural",
    "pub_avg_ast",
    "pub_order",
    "split",
    "pub_class",
    "split_agrees",
    "methods",
    "fixed_commit",
    "message",
]


# --------------------------------------------------------------------------- inputs


def project_of(bug: str) -> str:
    return bug.rsplit("_", 1)[0]


def bug_key(bug: str) -> tuple[str, int]:
    return project_of(bug), int(bug.rsplit("_", 1)[1])


def mirror_map(spec: str) -> dict[str, Path]:
    """Project -> git directory, from a mirrors directory or a JSON mapping."""
    path = Path(spec)
    if path.is_dir():
        out = {}
        for project, upstream in UPSTREAM.items():
            if upstream is None:
                continue
            base = path / upstream.replace("/", "+")
            for candidate in (base / "repo", base, path / upstream.split("/")[1]):
                if (candidate / "objects").is_dir() or (candidate / ".git").exists():
                    out[project] = candidate
                    break
        return out
    text = path.read_text() if path.is_file() else spec
    return {project: Path(repo) for project, repo in json.loads(text).items()}


def has_commit(repo: Path, commit: str) -> bool:
    where = ["--git-dir", str(repo)] if (repo / "objects").is_dir() else ["-C", str(repo)]
    done = subprocess.run(
        ["git", *where, "cat-file", "-e", f"{commit}^{{commit}}"], capture_output=True
    )
    return done.returncode == 0


def read_reference(sample: Path) -> tuple[dict[str, dict], dict[str, dict[tuple[int, int], dict]]]:
    with open(sample / "reference.csv", newline="") as fh:
        bugs = {row["bug_id"]: row for row in csv.DictReader(fh)}
    pairs: dict[str, dict[tuple[int, int], dict]] = {}
    with open(sample / "reference_pairs.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            pairs.setdefault(row["bug_id"], {})[(int(row["hunk_i"]), int(row["hunk_j"]))] = row
    return bugs, pairs


# --------------------------------------------------------------------------- measuring


@dataclass
class BugOutcome:
    bug: str
    status: str
    rows: list[dict] = field(default_factory=list)
    seconds: float = 0.0


def fmt(value: float | None, digits: int = 4) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def proximity_split(items) -> tuple[str, list[str | None]]:
    """Nucleus / Cluster for a one-file patch, else 'multi-file' (not this split)."""
    methods = [it.location.method for it in items]
    if len({it.file.path for it in items}) != 1:
        return "multi-file", methods
    if methods and all(m is not None for m in methods) and len(set(methods)) == 1:
        return "Nucleus", methods
    return "Cluster", methods


def realign(
    paths: list[str], ours_f: dict[tuple[int, int], float], pub: dict[tuple[int, int], dict]
) -> list[int] | None:
    """The order of our hunks (position k) in which the published F column reads, as
    pub index p -> our position order[p]; found among reorderings of the patch's file
    blocks (hunks of a file keep their order). None when the identity fits or no block
    order fits better."""
    n = len(paths)
    if n < 2 or len(pub) != n * (n - 1) // 2:
        return None

    def cost(order: list[int]) -> float:
        total = 0.0
        for (p, q), row in pub.items():
            a, b = sorted((order[p], order[q]))
            total += abs(ours_f[(a, b)] - float(row["package_distance"]))
        return total

    identity = list(range(n))
    best, best_cost = identity, cost(identity)
    if best_cost < 1e-3:
        return None
    blocks: list[list[int]] = []
    for k, path in enumerate(paths):
        if blocks and paths[blocks[-1][0]] == path:
            blocks[-1].append(k)
        else:
            blocks.append([k])
    if len(blocks) > MAX_BLOCKS:
        return None
    for perm in itertools.permutations(blocks):
        order = [k for block in perm for k in block]
        c = cost(order)
        if c < best_cost - 1e-9:
            best, best_cost = order, c
    return None if best is identity else best


def contained_anchor(flat, rows: list[int]) -> int:
    """Experiment: LCA of the named nodes lying wholly on the changed rows; else the
    library's rule."""
    wanted = np.isin(flat.start_row, rows) & np.isin(flat.end_row, rows)
    hits = np.flatnonzero(wanted)
    if len(hits):
        return lowest_common_ancestor(flat, list(hits))
    return anchor_node(flat, rows)


def file_diagnostics(ws, counted_items, experiments: bool) -> dict[tuple[int, int], dict]:
    """Per same-file pair (patch hunk indices): our edges and diameter (the library's
    anchor rule on the pre-image) and, with `experiments`, S under alternative rules."""
    out: dict[tuple[int, int], dict] = {}
    by_file: dict[str, list] = {}
    for it in counted_items:
        by_file.setdefault(it.file.path, []).append(it)
    for path, items in by_file.items():
        if len(items) < 2:
            continue
        rules = rules_for_path(path)
        texts = ws.sources.texts(items[0].file) if ws.sources is not None else None
        if rules is None or texts is None or texts.pre is None:
            continue
        pre = flatten(ws.cache.tree(rules, texts.pre))
        anchors = [
            anchor_node(pre, [ln - 1 for ln in it.hunk.changed_lines] or [0]) for it in items
        ]
        alt_c = alt_p = None
        if experiments:
            alt_c = [
                contained_anchor(pre, [ln - 1 for ln in it.hunk.changed_lines] or [0])
                for it in items
            ]
            if texts.post is not None:
                post = flatten(ws.cache.tree(rules, texts.post))
                alt_p = [
                    anchor_node(post, [ln - 1 for ln in it.hunk.swapped().changed_lines] or [0])
                    for it in items
                ]
        for a, b in itertools.combinations(range(len(items)), 2):
            lca = lowest_common_ancestor(pre, [anchors[a], anchors[b]])
            edges = int(pre.depth[anchors[a]] + pre.depth[anchors[b]] - 2 * pre.depth[lca])
            row = {"edges": edges, "diameter": pre.diameter}
            if alt_c is not None:
                row["s_alt_contained"] = path_distance(pre, alt_c[a], alt_c[b])
            if alt_p is not None:
                row["s_alt_postimage"] = path_distance(post, alt_p[a], alt_p[b])
            out[(items[a].hunk.index, items[b].hunk.index)] = row
    return out


def measure_bug(
    bug: str,
    patch: Path,
    repo: Path,
    commit: str,
    ref: dict,
    ref_pairs: dict[tuple[int, int], dict],
    experiments: bool,
) -> BugOutcome:
    project = project_of(bug)
    base = {
        "bug_id": bug,
        "project": project,
        "fixed_commit": commit,
        "pub_divergence": ref["divergence"],
        "pub_class": ref["proximity_class"],
        "pub_hunk_count": ref["hunk_count"],
    }
    started = time.perf_counter()
    try:
        with hunkmetrics.open_workspace(patch, repo=repo, rev=commit) as ws:
            result = hunkmetrics.divergence(ws, profile="birch")
            located = ws.located()
            counted = [it for it in located if it.hunk.index in set(result.hunk_indices)]
            diagnostics = file_diagnostics(ws, counted, experiments)
    except SourceError as exc:
        row = {**base, "kind": "bug", "status": "unresolved", "message": str(exc)}
        return BugOutcome(bug, "unresolved", [row], time.perf_counter() - started)
    except HunkmetricsError as exc:
        row = {**base, "kind": "bug", "status": "error", "message": str(exc)}
        return BugOutcome(bug, "error", [row], time.perf_counter() - started)

    path_of = {it.hunk.index: it.file.path for it in located}
    position = {index: k for k, index in enumerate(result.hunk_indices)}
    pairs = list(result.pairs())
    ours_f = {(position[p.i], position[p.j]): p.file for p in pairs}
    order = realign([path_of[i] for i in result.hunk_indices], ours_f, ref_pairs)
    realigned: dict[tuple[int, int], dict] = {}
    if order is not None:
        for (p, q), row in ref_pairs.items():
            realigned[tuple(sorted((order[p], order[q])))] = row

    rows = []
    with_pub_s: list[float] = []
    for pair in pairs:
        i, j = position[pair.i], position[pair.j]
        pub = ref_pairs.get((i, j))
        same = path_of[pair.i] == path_of[pair.j]
        row = {
            **base,
            "kind": "pair",
            "status": "ok",
            "hunk_i": i,
            "hunk_j": j,
            "same_file": int(same),
            "file_i": path_of[pair.i],
            "file_j": path_of[pair.j],
            "lexical": fmt(pair.lexical),
            "structural": fmt(pair.structural),
            "file": fmt(pair.file),
            "pair_value": fmt(pair.value),
        }
        diag = diagnostics.get((pair.i, pair.j))
        if diag is not None:
            row.update(
                edges=diag["edges"],
                diameter=diag["diameter"],
                s_alt_contained=fmt(diag.get("s_alt_contained")),
                s_alt_postimage=fmt(diag.get("s_alt_postimage")),
            )
        if pub is None:
            row["message"] = "no published pair with these indices"
            rows.append(row)
            continue
        pub_s = float(pub["ast_distance"])
        with_pub_s.append(pair.lexical * (pub_s + pair.gamma * pair.file) / (1 + pair.gamma))
        aligned_pub = realigned.get((i, j), pub)
        pub_s_re = float(aligned_pub["ast_distance"])
        row.update(
            pub_lexical=pub["lexical_distance"],
            pub_ast=pub["ast_distance"],
            pub_file=pub["package_distance"],
            pub_pair_value=pub["pair_divergence"],
            lexical_aligned=int(
                abs(pair.lexical - float(pub["lexical_distance"])) < LEXICAL_ALIGNED
            ),
            abs_err_structural=fmt(abs(pair.structural - pub_s)),
            pub_ast_realigned=aligned_pub["ast_distance"],
            abs_err_structural_realigned=fmt(abs(pair.structural - pub_s_re)),
        )
        if diag is not None and diag["diameter"] > 0:
            row["pub_edges_at_our_diameter"] = fmt(
                math.expm1(pub_s_re * math.log1p(diag["diameter"])), 2
            )
        rows.append(row)

    n = result.hunk_count
    div_pub_s = (
        math.log(n) * statistics.fmean(with_pub_s)
        if n >= 2 and len(with_pub_s) == len(pairs)
        else None
    )
    split, methods = proximity_split(counted)
    pub_class = ref["proximity_class"]
    agrees = "" if pub_class not in ("Nucleus", "Cluster") else int(split == pub_class)
    bug_row = {
        **base,
        "kind": "bug",
        "status": "ok",
        "hunk_count": n,
        "divergence": fmt(result.value),
        "abs_err_divergence": fmt(abs(result.value - float(ref["divergence"]))),
        "divergence_with_pub_ast": fmt(div_pub_s),
        "avg_structural": fmt(result.means["structural"]),
        "pub_avg_ast": ref["avg_ast"],
        "pub_order": "" if order is None else " ".join(map(str, order)),
        "split": split,
        "pub_class": pub_class,
        "split_agrees": agrees,
        "methods": " | ".join(str(m) for m in methods),
        "message": " / ".join(result.warnings),
    }
    return BugOutcome(bug, "ok", [bug_row, *rows], time.perf_counter() - started)


# --------------------------------------------------------------------------- summary


def share(values: list[float], bound: float) -> float | None:
    return sum(v <= bound + 1e-9 for v in values) / len(values) if values else None


def spearman(xs: list[float], ys: list[float]) -> float | None:
    if len(xs) < 3:
        return None

    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=values.__getitem__)
        out = [0.0] * len(values)
        k = 0
        while k < len(order):
            end = k
            while end + 1 < len(order) and values[order[end + 1]] == values[order[k]]:
                end += 1
            for m in range(k, end + 1):
                out[order[m]] = (k + end) / 2
            k = end + 1
        return out

    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = math.sqrt(sum((a - mx) ** 2 for a in rx))
    vy = math.sqrt(sum((b - my) ** 2 for b in ry))
    return cov / (vx * vy) if vx and vy else None


def s_stats(rows: list[dict], ours: str = "structural", pub: str = "pub_ast") -> dict:
    rows = [r for r in rows if r.get(ours, "") != "" and r.get(pub, "") != ""]
    xs = [float(r[ours]) for r in rows]
    ys = [float(r[pub]) for r in rows]
    err = [abs(x - y) for x, y in zip(xs, ys, strict=True)]
    by_bug: dict[str, list[float]] = {}
    for r, e in zip(rows, err, strict=True):
        by_bug.setdefault(r["bug_id"], []).append(e)
    return {
        "pairs": len(rows),
        "bugs": len(by_bug),
        "mae": statistics.fmean(err) if err else None,
        "mae_per_bug_mean": (
            statistics.fmean(statistics.fmean(v) for v in by_bug.values()) if by_bug else None
        ),
        "bias": statistics.fmean(x - y for x, y in zip(xs, ys, strict=True)) if xs else None,
        "within_0.05": share(err, 0.05),
        "within_0.1": share(err, 0.1),
        "spearman": spearman(xs, ys),
    }


def div_stats(rows: list[dict]) -> dict:
    err = [float(r["abs_err_divergence"]) for r in rows]
    return {
        "bugs": len(err),
        "mae": statistics.fmean(err) if err else None,
        "within_0.05": share(err, 0.05),
        "within_0.1": share(err, 0.1),
    }


def summarize(outcomes: list[BugOutcome], experiments: bool) -> dict:
    pair_rows = [r for o in outcomes for r in o.rows if r["kind"] == "pair"]
    bug_rows = [r for o in outcomes for r in o.rows if r["kind"] == "bug"]
    same = [r for r in pair_rows if r["same_file"] == 1 and r.get("pub_ast", "") != ""]
    clean = [r for r in same if r["bug_id"] not in EXCLUDED_FROM_CLEAN]
    ok = [r for r in bug_rows if r["status"] == "ok"]
    div_err = [float(r["abs_err_divergence"]) for r in ok]
    div_pub_s = [
        abs(float(r["divergence_with_pub_ast"]) - float(r["pub_divergence"]))
        for r in ok
        if r["divergence_with_pub_ast"] != ""
    ]
    split_rows = [r for r in ok if r["split_agrees"] != ""]
    diff_file = [r for r in pair_rows if r["same_file"] == 0 and r.get("pub_ast", "") != ""]
    lex = [
        abs(float(r["lexical"]) - float(r["pub_lexical"]))
        for r in pair_rows
        if r.get("pub_lexical", "") != ""
    ]
    summary = {
        "bugs_in_sample": len(outcomes),
        "bugs_measured": len(ok),
        "bugs_unresolved": [
            (r["bug_id"], r["message"]) for r in bug_rows if r["status"] in ("unresolved", "error")
        ],
        "bugs_unavailable": [
            (r["bug_id"], r["message"])
            for r in bug_rows
            if r["status"] in ("unavailable", "skipped")
        ],
        "realigned_bugs": [(r["bug_id"], r["pub_order"]) for r in ok if r["pub_order"]],
        "lexical_all_pairs": {
            "pairs": len(lex),
            "within_0.0005": share(lex, 0.0005),
            "within_0.01": share(lex, 0.01),
        },
        "S same-file, by index": s_stats(same),
        "S same-file, realigned": s_stats(same, pub="pub_ast_realigned"),
        f"S same-file, realigned, without {', '.join(EXCLUDED_FROM_CLEAN)}": s_stats(
            clean, pub="pub_ast_realigned"
        ),
        "different_file_pairs": {
            "pairs": len(diff_file),
            "ours_not_1": sum(float(r["structural"]) != 1.0 for r in diff_file),
            "published_not_1": sum(float(r["pub_ast"]) != 1.0 for r in diff_file),
            "published_not_1_realigned": sum(
                float(r["pub_ast_realigned"]) != 1.0 for r in diff_file
            ),
        },
        "divergence": {
            "bugs": len(div_err),
            "mae": statistics.fmean(div_err) if div_err else None,
            "bias": (
                statistics.fmean(float(r["divergence"]) - float(r["pub_divergence"]) for r in ok)
                if ok
                else None
            ),
            "within_0.05": share(div_err, 0.05),
            "within_0.1": share(div_err, 0.1),
            "spearman": spearman(
                [float(r["divergence"]) for r in ok], [float(r["pub_divergence"]) for r in ok]
            ),
        },
        f"divergence without {', '.join(EXCLUDED_FROM_CLEAN)}": div_stats(
            [r for r in ok if r["bug_id"] not in EXCLUDED_FROM_CLEAN]
        ),
        "divergence_with_published_S": {
            "bugs": len(div_pub_s),
            "mae": statistics.fmean(div_pub_s) if div_pub_s else None,
            "within_0.05": share(div_pub_s, 0.05),
            "within_0.01": share(div_pub_s, 0.01),
        },
        "split": {
            "compared": len(split_rows),
            "agree": sum(r["split_agrees"] == 1 for r in split_rows),
            "disagreements": [
                (r["bug_id"], r["pub_class"], r["split"])
                for r in split_rows
                if r["split_agrees"] == 0
            ],
        },
    }
    if experiments:
        for column, title in (
            ("s_alt_contained", "nodes wholly on the changed lines"),
            ("s_alt_postimage", "spec rule on the post-image (buggy file)"),
        ):
            summary[
                f"experiment: anchor = {title}, realigned, without {', '.join(EXCLUDED_FROM_CLEAN)}"
            ] = s_stats(clean, ours=column, pub="pub_ast_realigned")
    return summary


def print_summary(summary: dict, pair_rows: list[dict], bug_rows: list[dict], worst: int) -> None:
    def pct(v: float | None) -> str:
        return "-" if v is None else f"{100 * v:.1f}%"

    def num(v: float | None) -> str:
        return "-" if v is None else f"{v:.4f}"

    print(f"bugs measured: {summary['bugs_measured']} of {summary['bugs_in_sample']}")
    for bug, why in summary["bugs_unavailable"]:
        print(f"  unavailable: {bug}: {why}")
    for bug, why in summary["bugs_unresolved"]:
        print(f"  unresolved:  {bug}: {why}")
    for bug, order in summary["realigned_bugs"]:
        print(f"  published S/F column in another hunk order: {bug}: published i -> our [{order}]")
    lx = summary["lexical_all_pairs"]
    print(
        f"L (all pairs, by index): n={lx['pairs']} within 0.0005: {pct(lx['within_0.0005'])} "
        f"within 0.01: {pct(lx['within_0.01'])}"
    )
    for key, s in summary.items():
        if key.startswith(("S same-file", "experiment")):
            print(
                f"{key}: pairs={s['pairs']} bugs={s['bugs']} MAE={num(s['mae'])} "
                f"(mean of per-bug MAE {num(s['mae_per_bug_mean'])}) bias={num(s['bias'])} "
                f"<=0.05: {pct(s['within_0.05'])} <=0.1: {pct(s['within_0.1'])} "
                f"Spearman={num(s['spearman'])}"
            )
    d = summary["different_file_pairs"]
    print(
        f"different-file pairs: n={d['pairs']}, ours != 1: {d['ours_not_1']}, "
        f"published != 1: {d['published_not_1']} by index, "
        f"{d['published_not_1_realigned']} realigned"
    )
    d = summary["divergence"]
    print(
        f"Div(P): bugs={d['bugs']} MAE={num(d['mae'])} bias={num(d['bias'])} "
        f"<=0.05: {pct(d['within_0.05'])} <=0.1: {pct(d['within_0.1'])} "
        f"Spearman={num(d['spearman'])}"
    )
    for key, d in summary.items():
        if key.startswith("divergence without"):
            print(
                f"Div(P), {key[len('divergence ') :]}: bugs={d['bugs']} MAE={num(d['mae'])} "
                f"<=0.05: {pct(d['within_0.05'])} <=0.1: {pct(d['within_0.1'])}"
            )
    d = summary["divergence_with_published_S"]
    print(
        f"Div(P) from our L, F with the published S: MAE={num(d['mae'])} "
        f"<=0.01: {pct(d['within_0.01'])} <=0.05: {pct(d['within_0.05'])}"
    )
    s = summary["split"]
    print(f"Nucleus/Cluster split: {s['agree']}/{s['compared']} agree")
    for bug, pub, ours in s["disagreements"]:
        print(f"  {bug}: published {pub}, ours {ours}")
    same = [r for r in pair_rows if r["same_file"] == 1 and r.get("pub_ast", "") != ""]
    same.sort(key=lambda r: -float(r["abs_err_structural_realigned"]))
    print(
        f"worst {worst} same-file S pairs, realigned "
        "(bug i j | ours published |err| | our edges/diameter, published edges at it):"
    )
    for r in same[:worst]:
        print(
            f"  {r['bug_id']:<20} {r['hunk_i']:>2} {r['hunk_j']:>2} | {r['structural']} "
            f"{float(r['pub_ast_realigned']):.4f} {r['abs_err_structural_realigned']} | "
            f"{r.get('edges', '')}/{r.get('diameter', '')} "
            f"{r.get('pub_edges_at_our_diameter', '')}"
        )
    ok = sorted(
        (r for r in bug_rows if r["status"] == "ok"), key=lambda r: -float(r["abs_err_divergence"])
    )
    print(f"worst {worst} Div(P) (bug ours published |err| | with published S):")
    for r in ok[:worst]:
        print(
            f"  {r['bug_id']:<20} {r['divergence']} {float(r['pub_divergence']):.4f} "
            f"{r['abs_err_divergence']} | {r['divergence_with_pub_ast'] or '-'}"
        )


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--mirrors",
        required=True,
        help="directory of <owner>+<name>[/repo] git dirs, or JSON project->repo",
    )
    parser.add_argument("--sample", required=True, type=Path, help="the hunk4j-sample directory")
    parser.add_argument("--out", type=Path, default=HERE / "results.csv")
    parser.add_argument("--json", type=Path, default=None, help="also write the summary here")
    parser.add_argument("--bugs", nargs="*", default=None, help="only these bug ids")
    parser.add_argument(
        "--experiments",
        action="store_true",
        help="also compute S under alternative anchor rules (diagnosis only)",
    )
    parser.add_argument("--worst", type=int, default=12)
    args = parser.parse_args(argv)

    mirrors = mirror_map(args.mirrors)
    bugs, pairs = read_reference(args.sample)
    wanted = args.bugs or sorted(bugs, key=bug_key)
    outcomes: list[BugOutcome] = []
    for bug in wanted:
        project = project_of(bug)
        ref = bugs[bug]
        patch = args.sample / "patches" / f"{bug}.diff"
        commit = FIXED_COMMIT.get(bug, "")
        base = {
            "kind": "bug",
            "bug_id": bug,
            "project": project,
            "fixed_commit": commit,
            "pub_divergence": ref["divergence"],
            "pub_class": ref["proximity_class"],
            "pub_hunk_count": ref["hunk_count"],
        }
        if UPSTREAM.get(project, "") is None:
            outcomes.append(
                BugOutcome(
                    bug,
                    "skipped",
                    [
                        {
                            **base,
                            "status": "skipped",
                            "message": f"{project} is developed in SVN: no git commit",
                        }
                    ],
                )
            )
            continue
        repo = mirrors.get(project)
        if repo is None:
            outcomes.append(
                BugOutcome(
                    bug,
                    "unavailable",
                    [
                        {
                            **base,
                            "status": "unavailable",
                            "message": f"no mirror of {UPSTREAM.get(project)}",
                        }
                    ],
                )
            )
            continue
        if not commit or not has_commit(repo, commit):
            outcomes.append(
                BugOutcome(
                    bug,
                    "unavailable",
                    [
                        {
                            **base,
                            "status": "unavailable",
                            "message": f"fixed commit {commit[:12]} not in {UPSTREAM[project]}",
                        }
                    ],
                )
            )
            continue
        outcome = measure_bug(bug, patch, repo, commit, ref, pairs.get(bug, {}), args.experiments)
        print(f"{bug:<22} {outcome.status:<10} {outcome.seconds:6.2f}s", file=sys.stderr)
        outcomes.append(outcome)

    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        for outcome in outcomes:
            for row in outcome.rows:
                writer.writerow({key: row.get(key, "") for key in COLUMNS})

    summary = summarize(outcomes, args.experiments)
    pair_rows = [r for o in outcomes for r in o.rows if r["kind"] == "pair"]
    bug_rows = [r for o in outcomes for r in o.rows if r["kind"] == "bug"]
    print_summary(summary, pair_rows, bug_rows, args.worst)
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
