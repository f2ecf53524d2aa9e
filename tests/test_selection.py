"""Path selection (lang/selection.py): which files count, the same for every command.

The end-to-end case is a small generated repository whose fix commit touches a
changelog, a README, a test and two source files: `mine`, `characterize` (on `git show`
of the commit) and `batch` must give the same hunks and numbers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitrepo import git
from typer.testing import CliRunner

import hunkmetrics
from hunkmetrics.cli.app import app
from hunkmetrics.datasets.batch import run_batch
from hunkmetrics.datasets.inputs import Defaults
from hunkmetrics.datasets.mine import mine, mine_options
from hunkmetrics.errors import HunkmetricsError
from hunkmetrics.lang.selection import ALL_FILES, DEFAULT_SELECTION, PathSelection, path_selection

runner = CliRunner()

CALC = "src/main/java/com/acme/Calc.java"
UTIL = "src/main/java/com/acme/Util.java"
CALC_TEST = "src/test/java/com/acme/CalcTest.java"


def _calc(body: str) -> str:
    return f"""package com.acme;

public class Calc {{
    public int add(int a, int b) {{
        return {body};
    }}
}}
"""


def _util(body: str) -> str:
    return f"""package com.acme;

public class Util {{
    public static String greet(String name) {{
        return {body};
    }}
}}
"""


def _test(expected: str) -> str:
    return f"""package com.acme;

public class CalcTest {{
    public void testAdd() {{
        assert new Calc().add(1, 2) == {expected};
    }}
}}
"""


BEFORE = {
    CALC: _calc("a - b"),
    UTIL: _util('"Helo " + name'),
    CALC_TEST: _test("-1"),
    "CHANGES.md": "# Changes\n\n## 1.0\n- first release\n",
    "README.md": "# acme\n\nA calculator.\n",
}
AFTER = {
    CALC: _calc("a + b"),
    UTIL: _util('"Hello " + name'),
    CALC_TEST: _test("3"),
    "CHANGES.md": "# Changes\n\n## 1.1\n- fix add and greet\n\n## 1.0\n- first release\n",
    "README.md": "# acme\n\nA small calculator.\n",
}


def _write(repo: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@pytest.fixture(scope="module")
def fix_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """(repository, parent, fix commit)."""
    repo = tmp_path_factory.mktemp("selection")
    git(repo, "init", "-q")
    _write(repo, BEFORE)
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "initial import")
    parent = git(repo, "rev-parse", "HEAD").decode().strip()
    _write(repo, AFTER)
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "fix add and greet")
    commit = git(repo, "rev-parse", "HEAD").decode().strip()
    return repo, parent, commit


# ---- the rule --------------------------------------------------------------------------


def test_default_counts_source_files_of_a_known_language_without_tests() -> None:
    reason = DEFAULT_SELECTION.reason
    assert reason(CALC) is None
    assert reason("pkg/mod.py") is None
    assert reason("CHANGES.md") == "not source code ('.md': no known language)"
    assert reason("pom.xml") == "not source code ('.xml': no known language)"
    assert reason("Makefile") == "not source code (no extension: no known language)"
    assert reason(CALC_TEST) == "test file"
    assert reason("tests/test_mod.py") == "test file"
    # a rename out of a test directory is a test file by its pre-image path
    assert reason(CALC, "src/test/java/com/acme/Calc.java") == "test file"


def test_all_files_include_exclude_and_tests() -> None:
    assert ALL_FILES.reason("CHANGES.md") is None and ALL_FILES.reason(CALC_TEST) is None
    only_util = path_selection(include=["*Util.java"])
    assert only_util.reason(UTIL) is None
    assert only_util.reason(CALC) == "not matched by an include pattern"
    # a pattern without '/' also matches the base name
    no_changes = path_selection(all_files=True, exclude=["CHANGES.md"])
    assert no_changes.reason("CHANGES.md") == "matched exclude pattern 'CHANGES.md'"
    assert no_changes.reason("docs/CHANGES.md") == "matched exclude pattern 'CHANGES.md'"
    assert no_changes.reason("README.md") is None
    with_tests = path_selection(exclude_tests=False)
    assert with_tests.reason(CALC_TEST) is None
    java_only = path_selection(languages=["java"])
    assert java_only.reason("a/b.py") == "language python not selected"


def test_bad_selection_arguments_are_hunkmetrics_errors() -> None:
    with pytest.raises(HunkmetricsError, match="unknown language cobol"):
        path_selection(languages=["cobol"])
    with pytest.raises(HunkmetricsError, match="empty or invalid glob"):
        path_selection(include=[""])


def test_apply_renumbers_and_is_idempotent(fix_repo: tuple[Path, str, str]) -> None:
    repo, parent, commit = fix_repo
    patch = hunkmetrics.parse_patch(git(repo, "diff", parent, commit))
    # git orders the sections by path: CHANGES.md, README.md, Calc.java, Util.java,
    # CalcTest.java; one hunk each (every file has a single change).
    assert [f.path for f in patch.files] == ["CHANGES.md", "README.md", CALC, UTIL, CALC_TEST]
    chosen = DEFAULT_SELECTION.apply(patch)
    assert [(h.path, h.index) for h in chosen.hunks] == [(CALC, 0), (UTIL, 1)]
    assert [(f.path, f.excluded_reason) for f in chosen.files if f.excluded_reason] == [
        ("CHANGES.md", "not source code ('.md': no known language)"),
        ("README.md", "not source code ('.md': no known language)"),
        (CALC_TEST, "test file"),
    ]
    assert DEFAULT_SELECTION.apply(chosen) == chosen
    assert ALL_FILES.apply(patch) is patch


def test_a_patch_of_docs_only_warns() -> None:
    diff = b"--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-a\n+b\n"
    result = hunkmetrics.characterize(diff)
    assert result.divergence.hunk_count == 0
    assert any("no file of the patch is counted" in w for w in result.warnings)
    assert hunkmetrics.divergence(diff, selection=ALL_FILES).hunk_count == 1


# ---- one commit, three ways ---------------------------------------------------------------

KEYS = ("file", "index", "old_start", "old_lines", "new_start", "new_lines", "class", "method")


def _summary(document: dict) -> dict:
    return {
        "hunk_count": document["hunk_count"],
        "hunks": [{k: h[k] for k in KEYS} for h in document["hunks"]],
        "divergence": document["divergence"]["value"],
        "proximity": document["proximity"]["class"],
        "config": document["config"],
    }


def test_mine_characterize_and_batch_agree(fix_repo: tuple[Path, str, str], tmp_path: Path) -> None:
    """Counted by hand: Calc.java (one hunk, line 5 of `add`) and Util.java (one hunk,
    line 5 of `greet`), both in package com.acme: two files of one package, so Orbit.
    CHANGES.md, README.md (no language) and CalcTest.java (a test) are left out."""
    repo, parent, commit = fix_repo

    mined = tmp_path / "mined.jsonl"
    mine(repo, mined, mine_options(grep="fix"))
    (record,) = [json.loads(line) for line in mined.read_text().splitlines()]
    assert record["commit"] == commit and record["error"] is None

    show = tmp_path / "show.diff"
    show.write_bytes(git(repo, "show", commit))
    result = runner.invoke(
        app, ["characterize", str(show), "--repo", str(repo), "--rev", parent, "-f", "json"]
    )
    assert result.exit_code == 0, result.output
    shown = json.loads(result.stdout)

    patches = tmp_path / "patches"
    patches.mkdir()
    (patches / "fix.diff").write_bytes(git(repo, "diff", parent, commit))
    batched = tmp_path / "batch.jsonl"
    run_batch(
        patches, batched, defaults=Defaults(repo=str(repo), rev=parent), executor="local", jobs=1
    )
    (line,) = [json.loads(text) for text in batched.read_text().splitlines()]
    assert line["error"] is None

    expected = _summary(record)
    assert expected["hunk_count"] == 2
    assert [(h["file"], h["index"], h["old_start"]) for h in expected["hunks"]] == [
        (CALC, 0, 2),
        (UTIL, 1, 2),
    ]
    assert [h["class"] for h in expected["hunks"]] == ["com.acme.Calc", "com.acme.Util"]
    assert expected["proximity"] == "Orbit"
    assert expected["config"]["selection"] == {
        "all_files": False,
        "include": [],
        "exclude": [],
        "exclude_tests": True,
        "languages": None,
        "ignore_comment_only": False,
    }
    assert _summary(shown) == expected
    assert _summary(line) == expected
    assert [(f["file"], f["excluded"]) for f in shown["files"] if f["excluded"]] == [
        ("CHANGES.md", "not source code ('.md': no known language)"),
        ("README.md", "not source code ('.md': no known language)"),
        (CALC_TEST, "test file"),
    ]


def test_all_files_counts_everything_and_changes_the_fingerprint(
    fix_repo: tuple[Path, str, str], tmp_path: Path
) -> None:
    repo, parent, commit = fix_repo
    diff = tmp_path / "fix.diff"
    diff.write_bytes(git(repo, "diff", parent, commit))
    runs = {}
    for args in (
        [],
        ["--all-files", "--include-tests"],
        ["--include-tests"],
        ["--exclude", "*Util*"],
    ):
        result = runner.invoke(app, ["hunks", str(diff), "-f", "json", *args])
        assert result.exit_code == 0, result.output
        runs[" ".join(args)] = json.loads(result.stdout)
    assert [len(doc["hunks"]) for doc in runs.values()] == [2, 5, 3, 1]
    assert len({doc["config"]["fingerprint"] for doc in runs.values()}) == 4
    # in file order: CHANGES.md, README.md, (Calc.java counted), Util.java, CalcTest.java
    assert runs["--exclude *Util*"]["excluded_files"][2] == {
        "file": UTIL,
        "reason": "matched exclude pattern '*Util*'",
    }


def test_localization_leaves_the_changelog_out(fix_repo: tuple[Path, str, str]) -> None:
    """An agent that fixes both source files but not the changelog is localized."""
    repo, parent, commit = fix_repo
    reference = git(repo, "diff", parent, commit)
    candidate = git(repo, "diff", parent, commit, "--", CALC, UTIL)
    found = hunkmetrics.localization(reference, candidate)
    assert found.file_superset is True and found.missed_files == ()
    everything = hunkmetrics.localization(reference, candidate, selection=ALL_FILES)
    assert everything.missed_files == ("CHANGES.md", "README.md", CALC_TEST)


def test_selection_is_a_frozen_value() -> None:
    assert PathSelection() == DEFAULT_SELECTION
    assert hash(path_selection(include=["*.java"])) == hash(PathSelection(include=("*.java",)))
