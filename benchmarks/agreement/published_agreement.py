#!/usr/bin/env python3
"""Agreement of the library's `birch` profile with the values the BIRCH study published
for Hunk4J, with the real upstream sources.

For every bug whose upstream repository and Defects4J fixed commit are at hand, this
calls the public API once per bug,

    hunkmetrics.divergence(patch, profile="birch", source=(mirror, fixed commit),
                           artifacts=PublishedArtifacts(key_order=True,
                                                        file_order=<modified_classes>),
                           path_prefix=<JodaTime for old Joda-Time commits>)

and compares pair by pair with the published table: S (`ast_distance`) and F
(`package_distance`) as printed to 4 decimals, L (`lexical_distance`) and Div(P) within
0.0005, and the hunk count. The patch is used as shipped (fixed -> buggy, never
reversed). The study's two artifacts are switched on because the published numbers carry
them; the run without them (the intended metric) is reported next to it, to show which
bugs the artifacts touch. Bugs without sources still get their L checked (L needs only
the patch).

Two sets:
- `--set sample` (default): the 42 bugs of ../shared/hunk4j-sample (patches and
  reference CSVs there);
- `--set full`: every bug of the study's published tables
  (redwood/hunk_divergence/{total,pairwise}_hunk_divergence_results.csv of a nashid/birch
  mirror), patches from the Defects4J mirror (framework/projects/<P>/patches/<n>.src.patch).

    python benchmarks/agreement/published_agreement.py --mirrors /work/.mirror \\
        [--set full] [--bugs Lang_5 Closure_4] [--verbose] [--out results.csv] [--json F]

`--mirrors` holds `<owner>+<name>/repo` git directories (what the `fetch` tool makes),
including rjust/defects4j (fixed commits from its current active-bugs.csv; without it
the sample's commits below are used). Writes `results.csv` next to this script (or
`--out`). A standalone script, not a test.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import hunkmetrics
from hunkmetrics import DivergenceResult, PublishedArtifacts

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from defects4j import UPSTREAM, Defects4J, file_order, git, git_dir, path_prefix  # noqa: E402

TOLERANCE = 0.0005

# Defects4J `revision.id.fixed` of the sample's bugs, from the current
# framework/projects/<Project>/active-bugs.csv of rjust/defects4j (used only when no
# Defects4J mirror is given). Math and Lang ids are those of the rewritten apache
# histories (Defects4J changed them in 2022); Chart's is an SVN revision.
FIXED_COMMIT = {
    "Chart_18": "621",
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
    "Lang_5": "4d46f014fb8ee44386feb5fec52509f35d0e36ea",
    "Lang_19": "8914d7f617f78aae8c85405856283c98d4e43990",
    "Lang_27": "50c1fdecb4ed33ec1bb0d449f294c299d5369701",
    "Lang_32": "1f35e7c99b66b8d46c4ad96558e694a10aa38062",
    "Lang_64": "07b7795b336b301def8a7dc6059c8e616ce5582e",
    "Math_46": "97b440fc8e6ce8129bc2c32f23ac4d43a5d012fa",
    "Math_47": "32b0f7336b7627bc6e471a1091dfb2712b613eee",
    "Math_64": "784e4f69ec67d511a0620a2b030688f186ebb959",
    "Math_86": "6b547ba222e6d70b0351cfd354e1d3497da9e24f",
    "Mockito_6": "dc205824dbc289acbcde919e430176ad72da847f",
    "Mockito_30": "3c924f80a4db3692a13341f0da4517052ab77a2a",
    "Time_2": "8612f9e5b88c1bea933ef9ab1e431f5db3006b48",
}

PUBLISHED = "redwood/hunk_divergence"  # in a nashid/birch mirror

COLUMNS = [
    "kind", "bug", "i", "j", "status", "message", "hunk_count", "pub_hunk_count",
    "lexical", "pub_lexical", "structural", "pub_structural", "file", "pub_file",
    "value", "pub_value", "structural_intended", "divergence", "pub_divergence",
    "divergence_intended", "artifacts_in_effect", "path_prefix", "fixed_commit",
]  # fmt: skip

Row = dict[str, str]


@dataclass
class Reference:
    """The published values: per bug, and per pair keyed (bug, i, j)."""

    bugs: dict[str, Row]
    pairs: dict[tuple[str, int, int], Row]


def read_rows(text: str) -> list[Row]:
    return list(csv.DictReader(io.StringIO(text)))


def reference_of(bugs_csv: str, pairs_csv: str) -> Reference:
    return Reference(
        {r["bug_id"]: r for r in read_rows(bugs_csv)},
        {(r["bug_id"], int(r["hunk_i"]), int(r["hunk_j"])): r for r in read_rows(pairs_csv)},
    )


@dataclass
class Outcome:
    bug: str
    status: str  # ok, lexical-only, unavailable, error
    message: str = ""
    failures: list[str] = field(default_factory=list)
    checked: dict[str, int] = field(default_factory=lambda: {"S": 0, "F": 0, "L": 0})
    intended_differs: bool = False
    artifacts: list[str] = field(default_factory=list)  # those that change its Div
    rows: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0


def fmt(value: float | None) -> str:
    return "" if value is None else f"{value:.6f}"


def compare(
    bug: str, result: DivergenceResult, ref: Reference, outcome: Outcome, lexical_only: bool
) -> None:
    """Pair by pair (published numbering: positions among the counted hunks)."""
    position = {index: k for k, index in enumerate(result.hunk_indices)}
    for pair in result.pairs():
        i, j = position[pair.i], position[pair.j]
        pub = ref.pairs.get((bug, i, j))
        row: dict[str, Any] = {"kind": "pair", "bug": bug, "i": i, "j": j}
        row.update(lexical=fmt(pair.lexical), structural=fmt(pair.structural))
        row.update(file=fmt(pair.file), value=fmt(pair.value))
        outcome.rows.append(row)
        if pub is None:
            outcome.failures.append(f"pair {i}-{j}: not published")
            continue
        row.update(pub_lexical=pub["lexical_distance"], pub_structural=pub["ast_distance"])
        row.update(pub_file=pub["package_distance"], pub_value=pub["pair_divergence"])
        outcome.checked["L"] += 1
        if abs(pair.lexical - float(pub["lexical_distance"])) > TOLERANCE:
            outcome.failures.append(
                f"pair {i}-{j} L: {pair.lexical:.4f} vs {pub['lexical_distance']}"
            )
        if lexical_only:
            continue
        for name, ours, column in (
            ("S", pair.structural, "ast_distance"),
            ("F", pair.file, "package_distance"),
        ):
            outcome.checked[name] += 1
            if f"{ours:.4f}" != pub[column]:
                outcome.failures.append(f"pair {i}-{j} {name}: {ours:.4f} vs {pub[column]}")


def measure(
    bug: str, patch: bytes, ref: Reference, mirrors: Path, d4j: Defects4J | None
) -> Outcome:
    started = time.perf_counter()
    project = bug.rsplit("_", 1)[0]
    upstream = UPSTREAM.get(project)
    repo = git_dir(mirrors, upstream) if upstream else None
    commit = d4j.fixed_commit(bug) if d4j is not None else FIXED_COMMIT.get(bug)
    parsed = hunkmetrics.parse_patch(patch, name=f"{bug}.diff")
    paths = [f.path for f in parsed.content_files for _ in f.hunks]
    pub_bug = ref.bugs[bug]
    bug_row: dict[str, Any] = {"kind": "bug", "bug": bug, "fixed_commit": commit or ""}
    bug_row["pub_hunk_count"] = pub_bug["hunk_count"]
    bug_row["pub_divergence"] = pub_bug["divergence"]
    found = repo and commit and git(repo, "cat-file", "-e", f"{commit}^{{commit}}") is not None
    available = bool(found)
    outcome = Outcome(bug, "ok" if available else "lexical-only")
    if not available:
        outcome.message = "no git source" if upstream else "no git history (SVN)"
    prefix = path_prefix(repo, commit, paths) if available and repo and commit else None
    classes = d4j.modified_classes(bug) if d4j is not None else []
    artifacts = PublishedArtifacts(
        key_order=True, file_order=file_order(paths, classes), lexical_hunks=True
    )
    source = (repo, commit) if available and repo and commit else None
    try:
        # one workspace: every file is read and parsed once for all the runs below
        repo_rev = source or (None, None)
        with hunkmetrics.open_workspace(
            parsed, repo=repo_rev[0], rev=repo_rev[1], path_prefix=prefix
        ) as ws:
            result = ws.divergence(profile="birch", artifacts=artifacts)
            intended = ws.divergence(profile="birch") if source else None
            single = {
                name: ws.divergence(profile="birch", artifacts=alone)
                for name, alone in (
                    ("key-order", PublishedArtifacts(key_order=True)),
                    ("file-order", PublishedArtifacts(file_order=artifacts.file_order)),
                    ("lexical-hunks", PublishedArtifacts(lexical_hunks=True)),
                )
            }
    except hunkmetrics.HunkmetricsError as error:
        outcome.status, outcome.message = "error", str(error)
        bug_row.update(status="error", message=str(error))
        outcome.rows.append(bug_row)
        return outcome
    if intended is not None:
        outcome.artifacts = [
            name for name, alone in single.items() if abs(alone.value - intended.value) > 1e-12
        ]
        bug_row["artifacts_in_effect"] = " ".join(outcome.artifacts)
    outcome.rows.append(bug_row)
    compare(bug, result, ref, outcome, lexical_only=source is None)
    bug_row.update(status=outcome.status, message=outcome.message, path_prefix=prefix or "")
    bug_row.update(hunk_count=result.hunk_count, divergence=fmt(result.value))
    if intended is not None:
        bug_row["divergence_intended"] = fmt(intended.value)
        outcome.intended_differs = abs(intended.value - float(pub_bug["divergence"])) > TOLERANCE
        for row, pair in zip(outcome.rows[1:], intended.pairs(), strict=True):
            row["structural_intended"] = fmt(pair.structural)
    if source is not None:
        if result.hunk_count != int(pub_bug["hunk_count"]):
            outcome.failures.append(f"hunk count {result.hunk_count} vs {pub_bug['hunk_count']}")
        if abs(result.value - float(pub_bug["divergence"])) > TOLERANCE:
            outcome.failures.append(f"Div {result.value:.4f} vs {pub_bug['divergence']}")
    outcome.seconds = time.perf_counter() - started
    return outcome


def inputs(args: argparse.Namespace, d4j: Defects4J | None) -> tuple[Reference, dict[str, bytes]]:
    """The published values and each bug's patch, for the chosen set."""
    if args.set == "sample":
        ref = reference_of(
            (args.sample / "reference.csv").read_text(),
            (args.sample / "reference_pairs.csv").read_text(),
        )
        patches = {bug: (args.sample / "patches" / f"{bug}.diff").read_bytes() for bug in ref.bugs}
        return ref, patches
    birch = git_dir(args.mirrors, "nashid/birch")
    if birch is None or d4j is None:
        raise SystemExit("--set full needs nashid/birch and rjust/defects4j mirrors")
    bugs_csv = git(birch, "show", f"HEAD:{PUBLISHED}/total_hunk_divergence_results.csv")
    pairs_csv = git(birch, "show", f"HEAD:{PUBLISHED}/pairwise_hunk_divergence_results.csv")
    if bugs_csv is None or pairs_csv is None:
        raise SystemExit(f"the nashid/birch mirror has no {PUBLISHED} tables")
    ref = reference_of(bugs_csv, pairs_csv)
    patches = {}
    for bug in ref.bugs:
        data = d4j.patch(bug)
        if data is not None:
            patches[bug] = data
    return ref, patches


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--sample", type=Path, default=HERE.parents[2] / "shared/hunk4j-sample")
    parser.add_argument("--set", choices=("sample", "full"), default="sample")
    parser.add_argument("--bugs", nargs="*")
    parser.add_argument("--verbose", action="store_true", help="print every failure")
    parser.add_argument("--out", type=Path, default=HERE / "results.csv")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    d4j = Defects4J.find(args.mirrors)
    ref, patches = inputs(args, d4j)
    outcomes: list[Outcome] = []
    for bug in args.bugs or sorted(ref.bugs):
        if bug not in patches:
            outcomes.append(Outcome(bug, "unavailable", "no patch"))
            continue
        outcome = measure(bug, patches[bug], ref, args.mirrors, d4j)
        outcomes.append(outcome)
        if outcome.failures:
            shown = outcome.failures if args.verbose else outcome.failures[:4]
            more = len(outcome.failures) - len(shown)
            print(f"{bug} ({outcome.status}): {len(outcome.failures)} failures"
                  + (f" (+{more})" if more else ""))  # fmt: skip
            for line in shown:
                print("   ", line)
    with args.out.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, COLUMNS, extrasaction="ignore")
        writer.writeheader()
        for outcome in outcomes:
            writer.writerows(outcome.rows)
    summary = summarize(outcomes)
    print(json.dumps(summary, indent=2))
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2) + "\n")
    return 0


def summarize(outcomes: list[Outcome]) -> dict[str, Any]:
    measured = [o for o in outcomes if o.status == "ok"]
    lexical_only = [o for o in outcomes if o.status == "lexical-only"]

    def agree(group: list[Outcome], name: str) -> str:
        total = sum(o.checked[name] for o in group)
        failed = sum(1 for o in group for f in o.failures if f" {name}:" in f)
        return f"{total - failed}/{total}"

    div_ok = [o for o in measured if not any(f.startswith("Div") for f in o.failures)]
    count_ok = [o for o in measured if not any(f.startswith("hunk count") for f in o.failures)]
    return {
        "bugs": len(outcomes),
        "measured_with_sources": len(measured),
        "S_pairs_to_4_decimals": agree(measured, "S"),
        "F_pairs_to_4_decimals": agree(measured, "F"),
        "L_pairs_within_0.0005": agree(measured, "L"),
        "Div_bugs_within_0.0005": f"{len(div_ok)}/{len(measured)}",
        "Div_misses": [o.bug for o in measured if o not in div_ok],
        "hunk_counts_equal": f"{len(count_ok)}/{len(measured)}",
        "bugs_whose_intended_Div_differs": [o.bug for o in measured if o.intended_differs],
        "bugs_changed_by_artifact": {
            name: [o.bug for o in measured if name in o.artifacts]
            for name in ("key-order", "file-order", "lexical-hunks")
        },
        "lexical_only_bugs": len(lexical_only),
        "lexical_only_L_pairs_within_0.0005": agree(lexical_only, "L"),
        "not_measured": {o.bug: f"{o.status}: {o.message}" for o in outcomes if o.status != "ok"},
        "seconds": round(sum(o.seconds for o in outcomes), 2),
    }


if __name__ == "__main__":
    sys.exit(main())
