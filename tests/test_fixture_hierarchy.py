"""The hierarchy contract (docs/hierarchy.md) on the fixture projects.

Every patch in fixtures/patches/ has a hand-worked fixtures/expected/<stem>.json. The
`hunks` command must reproduce every field given there, whichever way the source is
given: as the git revision `base`, as a plain copy of the tree at `base` (the
pre-image), or as a plain copy of the tree at `fix/<stem>` (the post-image: the tool
has to notice and recover the pre-image itself). In all three the hunks are located
from the whole file (`located_by` = "source").
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from gitrepo import (
    FIXTURES,
    PATCH_PREFIX,
    PATCHES,
    FixtureRepo,
    build_fixture_repo,
    worktree_at,
)
from typer.testing import CliRunner

from hunkmetrics.cli.app import app

EXPECTED = FIXTURES / "expected"
CASES = sorted(EXPECTED.glob("*.json"))
MODES = ["rev", "base-tree", "fix-tree"]
NOT_COMPARED = {"note"}  # explanations for the reader, not output fields
VARIANT = re.compile(r"^(?P<stem>.+)_u(?P<context>\d+)$")  # same change, other -U<n>
HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")

runner = CliRunner()


def project_of(stem: str) -> str:
    """The fixture project a patch applies to, from its language prefix."""
    for project, prefix in PATCH_PREFIX.items():
        if stem.startswith(prefix):
            return project
    raise ValueError(f"patch {stem!r} has no known language prefix")


def load_expected(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def run_hunks(patch: Path, *options: str) -> dict[str, Any]:
    """`hunkmetrics hunks PATCH OPTIONS --format json`, checked for success, as a document."""
    args = ["hunks", str(patch), *options, "--format", "json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, f"hunkmetrics {' '.join(args)}\n{result.output}"
    document = json.loads(result.stdout)
    assert document["schema"] == "hunkmetrics/hunks/v1"
    return document


@pytest.fixture(scope="session")
def fixture_repos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, FixtureRepo]:
    """Both fixture projects as git repositories, built once per session."""
    root = tmp_path_factory.mktemp("fixture-repos")
    return {project: build_fixture_repo(root, project) for project in PATCH_PREFIX}


@pytest.fixture(scope="session")
def tree_at(
    tmp_path_factory: pytest.TempPathFactory, fixture_repos: dict[str, FixtureRepo]
) -> Callable[[str, str], Path]:
    """`tree_at(project, ref)`: a plain copy of the project's tree at `ref`, made once."""
    root = tmp_path_factory.mktemp("worktrees")
    made: dict[tuple[str, str], Path] = {}

    def get(project: str, ref: str) -> Path:
        key = (project, ref)
        if key not in made:
            dest = root / project / ref.replace("/", "__")
            made[key] = worktree_at(fixture_repos[project].path, ref, dest)
        return made[key]

    return get


def source_options(
    mode: str, stem: str, fixture_repos: dict[str, FixtureRepo], tree_at: Callable[[str, str], Path]
) -> list[str]:
    """The --repo/--rev options that give the source in `mode`."""
    project = project_of(stem)
    repo = fixture_repos[project]
    if mode == "rev":
        return ["--repo", str(repo.path), "--rev", repo.base]
    if mode == "base-tree":
        return ["--repo", str(tree_at(project, repo.base))]
    if mode == "fix-tree":
        return ["--repo", str(tree_at(project, repo.branch(stem)))]
    raise ValueError(mode)


def differences(expected: dict[str, Any], document: dict[str, Any]) -> list[str]:
    """Every field of the expected hunks that the document gets wrong, one line each."""
    problems = []
    if Path(str(document.get("patch"))).name != expected["patch"]:
        problems.append(f"patch: {document.get('patch')!r} != {expected['patch']!r}")
    got_hunks = document["hunks"]
    want_hunks = expected["hunks"]
    if len(got_hunks) != len(want_hunks):
        problems.append(f"{len(got_hunks)} hunks, expected {len(want_hunks)}")
    for want, got in zip(want_hunks, got_hunks, strict=False):
        where = f"hunk {want['index']} ({want['file']})"
        for key, value in want.items():
            if key in NOT_COMPARED:
                continue
            if key not in got:
                problems.append(f"{where}: no field {key!r}")
            elif got[key] != value:
                problems.append(f"{where}: {key} = {got[key]!r}, expected {value!r}")
        located_by = want.get("located_by", "source")
        if got.get("located_by") != located_by:
            problems.append(
                f"{where}: located_by = {got.get('located_by')!r}, expected {located_by!r}"
            )
    return problems


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_hierarchy_matches_hand_worked_expectation(
    case: Path,
    mode: str,
    fixture_repos: dict[str, FixtureRepo],
    tree_at: Callable[[str, str], Path],
) -> None:
    expected = load_expected(case)
    patch = PATCHES / expected["patch"]
    document = run_hunks(patch, *source_options(mode, case.stem, fixture_repos, tree_at))
    problems = differences(expected, document)
    assert not problems, f"{patch.name} [{mode}]:\n  " + "\n  ".join(problems)


def variant_groups() -> dict[str, list[str]]:
    """Default-context patch stem → stems of the same change exported with other -U<n>."""
    groups: dict[str, list[str]] = {}
    for patch in sorted(PATCHES.glob("*.diff")):
        match = VARIANT.match(patch.stem)
        if match and (PATCHES / f"{match['stem']}.diff").is_file():
            groups.setdefault(match["stem"], []).append(patch.stem)
    return groups


GROUPS = variant_groups()


def test_context_variants_exist() -> None:
    """The --hunks regions test below has something to compare."""
    assert GROUPS, "no <stem>_u<n>.diff variants in fixtures/patches"
    for stem, variants in GROUPS.items():
        assert f"{stem}_u0" in variants, stem


def shape(hunks: list[dict[str, Any]]) -> list[tuple[str, int, int]]:
    return [(hunk["file"], hunk["removed"], hunk["added"]) for hunk in hunks]


@pytest.mark.parametrize("stem", sorted(GROUPS))
def test_regions_do_not_depend_on_context_width(
    stem: str, fixture_repos: dict[str, FixtureRepo]
) -> None:
    """`--hunks regions` gives the default-context diff's hunks, whatever -U the patch had.

    The variants were designed so that each hunk of the default (-U3) diff is exactly one
    region of changed lines; -U0 has the same hunks, -U10 merges two of them.
    """
    repo = fixture_repos[project_of(stem)]
    source = ["--repo", str(repo.path), "--rev", repo.base]
    as_given = shape(load_expected(EXPECTED / f"{stem}.json")["hunks"])
    for variant in [stem, *GROUPS[stem]]:
        document = run_hunks(PATCHES / f"{variant}.diff", *source, "--hunks", "regions")
        assert shape(document["hunks"]) == as_given, variant


# The fixtures themselves: these checks need no hunkmetrics code.


def test_every_patch_has_an_expectation() -> None:
    patches = {p.stem for p in PATCHES.glob("*.diff")}
    expectations = {c.stem for c in CASES}
    assert patches == expectations
    for case in CASES:
        assert load_expected(case)["patch"] == f"{case.stem}.diff"


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_expected_counts_match_the_patch_text(case: Path) -> None:
    """Hunk headers and +/- counts in the expectation agree with the patch file itself."""
    expected = load_expected(case)
    headers = []
    counts: list[list[int]] = []
    in_hunk = False
    for line in (PATCHES / expected["patch"]).read_text(encoding="utf-8").splitlines():
        match = HEADER.match(line)
        if match:
            old_start, old_lines, new_start, new_lines = match.groups()
            headers.append(
                (
                    int(old_start),
                    1 if old_lines is None else int(old_lines),
                    int(new_start),
                    1 if new_lines is None else int(new_lines),
                )
            )
            counts.append([0, 0])
            in_hunk = True
        elif line.startswith("diff --git"):
            in_hunk = False  # file headers (---/+++) follow until the next @@
        elif in_hunk and line.startswith("+"):
            counts[-1][0] += 1
        elif in_hunk and line.startswith("-"):
            counts[-1][1] += 1
    hunks = expected["hunks"]
    assert [h["index"] for h in hunks] == list(range(len(hunks)))
    assert [
        (h["old_start"], h["old_lines"], h["new_start"], h["new_lines"]) for h in hunks
    ] == headers
    assert [[h["added"], h["removed"]] for h in hunks] == counts


def test_fixture_repo_layout(
    fixture_repos: dict[str, FixtureRepo], tree_at: Callable[[str, str], Path]
) -> None:
    """`base` is tagged and not HEAD; every patch has its branch; trees export cleanly."""
    from gitrepo import git

    for project, repo in fixture_repos.items():
        head = git(repo.path, "rev-parse", "HEAD").strip()
        base = git(repo.path, "rev-parse", repo.base + "^{commit}").strip()
        assert head != base
        assert repo.patches, project
        for stem in repo.patches:
            git(repo.path, "rev-parse", "--verify", repo.branch(stem))
        assert not (tree_at(project, repo.base) / ".git").exists()
