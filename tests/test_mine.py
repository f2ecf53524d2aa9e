"""`hunkmetrics mine`: a small real history, mined and checked by hand.

The history (committer dates 2024-01-0N 12:00 UTC, N = the day in brackets):

    C0 [1] "Initial import: fix layout"           root: skipped although it matches
    C1 [2] "Fix null handling in Calc and fmt"    Calc.java 1 hunk + fmt.py 1 hunk   → 2
    C2 [3] "fix typo in greeting"                 Util.java 1 hunk                   → too few
    C3 [4] "Refactor: rename locals"              Calc.java 3 hunks                  → no match
    C4 [5] "Bug 7: fmt pads and centers wrong"    fmt.py 2 hunks (branch `feature`)  → 2
    C5 [6] "Fix flaky CalcTest"                   CalcTest.java 2 hunks only         → tests
    M  [7] "Merge branch 'feature': fixes #7"     merge commit                       → skipped
    C7 [8] "Fix README typo"                      README.md only                     → no source
    C8 [9] "Fixed issue #42: overflow in Calc"    Calc.java 3 + Util.java 1 hunks    → 4
                                                  (+ CalcTest.java 1 hunk, a test)
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

import hunkmetrics
from hunkmetrics.cli.app import app
from hunkmetrics.datasets import commits
from hunkmetrics.datasets import mine as mining
from hunkmetrics.datasets.commits import walk_commits
from hunkmetrics.datasets.mine import (
    MineStats,
    characterize_candidate,
    count_hunks,
    mine,
    mine_options,
    scan_candidates,
)
from hunkmetrics.errors import HunkmetricsError
from hunkmetrics.workspace import Workspace

META = ("id", "repository", "commit", "parent", "summary", "date", "author", "error")
CALC = "src/main/java/com/acme/Calc.java"
UTIL = "src/main/java/com/acme/Util.java"
FMT = "tools/fmt.py"
CALC_TEST = "src/test/java/com/acme/CalcTest.java"

runner = CliRunner()


# --------------------------------------------------------------------------- the history


def _git(repo: Path, *args: str, day: int = 1) -> str:
    when = f"2024-01-{day:02d}T12:00:00+00:00"
    env = {
        **os.environ,
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_DATE": when,
        "GIT_COMMITTER_DATE": when,
        "LC_ALL": "C",
    }
    done = subprocess.run(
        [
            "git",
            "-c",
            "user.name=Ada Lovelace",
            "-c",
            "user.email=ada@example.org",
            "-c",
            "init.defaultBranch=main",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "core.autocrlf=false",
            *args,
        ],
        cwd=repo,
        env=env,
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode()


def _git_diff(repo: Path, *args: str) -> bytes:
    """`git diff ARGS` as git prints it with no user or system configuration."""
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(
        ["git", "-C", str(repo), "diff", *args], env=env, capture_output=True, check=True
    ).stdout


def _java_method(name: str, expression: str, note: str = "one") -> list[str]:
    # The changed line and the next method's are 10 lines apart: separate hunks.
    return [
        f"    public int {name}(int a, int b) {{",
        f"        int r = {expression};",
        f"        // {note}",
        "        // two",
        "        // three",
        "        // four",
        "        total += r;",
        "        return r;",
        "    }",
        "",
    ]


def _calc(
    add: str = "a + b",
    mul: str = "a * b",
    div: str = "a / b",
    neg: str = "a - b",
    notes: tuple[str, str, str, str] = ("one", "one", "one", "one"),
) -> str:
    lines = ["package com.acme;", "", "public class Calc {", "    private int total;", ""]
    for (name, expression), note in zip(
        (("add", add), ("mul", mul), ("div", div), ("neg", neg)), notes, strict=True
    ):
        lines += _java_method(name, expression, note)
    lines += ["    public int total() {", "        return total;", "    }", "}", ""]
    return "\n".join(lines)


def _util(greeting: str = "Helo", clamp: str = "Math.max(lo, x)") -> str:
    lines = [
        "package com.acme;",
        "",
        "public final class Util {",
        "    public static String greet(String name) {",
        f'        return "{greeting}, " + name;',
        "    }",
        "",
    ]
    lines += [f"    // padding {k}" for k in range(10)]
    lines += [
        "",
        "    public static int clamp(int x, int lo) {",
        f"        return {clamp};",
        "    }",
        "}",
        "",
    ]
    return "\n".join(lines)


def _fmt(
    trim: str = "text.strip()", pad: str = "text.ljust(width)", center: str = "text.center(width)"
) -> str:
    parts = []
    for name, args, expression in (
        ("trim", "text", trim),
        ("pad", "text, width", pad),
        ("center", "text, width", center),
    ):
        parts.append(
            "\n".join(
                [
                    f"def {name}({args}):",
                    f"    value = {expression}",
                    "    # a",
                    "    # b",
                    "    # c",
                    "    # d",
                    "    # e",
                    "    return value",
                    "",
                    "",
                ]
            )
        )
    return "\n".join(parts)


def _calc_test(first: str = "3", second: str = "6", third: str = "2") -> str:
    lines = [
        "package com.acme;",
        "",
        "public class CalcTest {",
        f"    void testAdd() {{ assert new Calc().add(1, 2) == {first}; }}",
    ]
    lines += [f"    // padding {k}" for k in range(10)]
    lines += [f"    void testMul() {{ assert new Calc().mul(2, 3) == {second}; }}"]
    lines += [f"    // more padding {k}" for k in range(10)]
    lines += [f"    void testDiv() {{ assert new Calc().div(4, 2) == {third}; }}", "}", ""]
    return "\n".join(lines)


def _write(repo: Path, files: dict[str, str]) -> None:
    for path, text in files.items():
        target = repo / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def _commit(repo: Path, message: str, day: int, files: dict[str, str]) -> str:
    _write(repo, files)
    _git(repo, "add", "--all", day=day)
    _git(repo, "commit", "--quiet", "-m", message, day=day)
    return _git(repo, "rev-parse", "HEAD").strip()


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    repo = tmp_path_factory.mktemp("mine") / "project"
    repo.mkdir()
    _git(repo, "init", "--quiet")
    ids: dict[str, str] = {}
    ids["C0"] = _commit(
        repo,
        "Initial import: fix layout",
        1,
        {
            CALC: _calc(),
            UTIL: _util(),
            FMT: _fmt(),
            CALC_TEST: _calc_test(),
            "README.md": "# Calc\n\nA calculator.\n",
        },
    )
    ids["C1"] = _commit(
        repo,
        "Fix null handling in Calc and fmt\n\nLonger body.",
        2,
        {CALC: _calc(add="Math.addExact(a, b)"), FMT: _fmt(trim="(text or '').strip()")},
    )
    ids["C2"] = _commit(repo, "fix typo in greeting", 3, {UTIL: _util(greeting="Hello")})
    ids["C3"] = _commit(
        repo,
        "Refactor: rename locals",
        4,
        {CALC: _calc(add="Math.addExact(a, b)", notes=("first", "one", "first", "first"))},
    )
    _git(repo, "checkout", "--quiet", "-b", "feature", day=5)
    ids["C4"] = _commit(
        repo,
        "Bug 7: fmt pads and centers wrong",
        5,
        {
            FMT: _fmt(
                trim="(text or '').strip()",
                pad="text.ljust(max(width, 0))",
                center="text.center(max(width, 0))",
            )
        },
    )
    _git(repo, "checkout", "--quiet", "main", day=6)
    ids["C5"] = _commit(
        repo, "Fix flaky CalcTest", 6, {CALC_TEST: _calc_test(first="1 + 2", third="4 / 2")}
    )
    _git(
        repo,
        "merge",
        "--quiet",
        "--no-ff",
        "-m",
        "Merge branch 'feature': fixes #7",
        "feature",
        day=7,
    )
    ids["M"] = _git(repo, "rev-parse", "HEAD").strip()
    ids["C7"] = _commit(repo, "Fix README typo", 8, {"README.md": "# Calc\n\nA calculator!\n"})
    notes = ("first", "one", "first", "first")
    ids["C8"] = _commit(
        repo,
        "Fixed issue #42: overflow in Calc",
        9,
        {
            CALC: _calc(
                add="Math.addExact(a, b)",
                mul="Math.multiplyExact(a, b)",
                div="b == 0 ? 0 : a / b",
                neg="Math.subtractExact(a, b)",
                notes=notes,
            ),
            UTIL: _util(greeting="Hello", clamp="Math.max(lo, Math.min(x, 100))"),
            CALC_TEST: _calc_test(first="1 + 2", second="2 * 3", third="4 / 2"),
        },
    )
    return {"repo": repo, "ids": ids}


def _by_name(history: dict[str, object]) -> dict[str, str]:
    return {sha: name for name, sha in history["ids"].items()}  # type: ignore[union-attr]


def _mine(history, tmp_path: Path, *args: str, name: str = "out.jsonl"):
    out = tmp_path / name
    result = runner.invoke(app, ["mine", str(history["repo"]), "--out", str(out), *args])
    records = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    return result, records


def _mined(history, tmp_path: Path, *args: str) -> dict[str, int]:
    """name of each mined commit → its hunk_count (and the run must succeed)."""
    result, records = _mine(history, tmp_path, *args)
    assert result.exit_code == 0, result.output
    names = _by_name(history)
    assert all(r["error"] is None for r in records), records
    return {names[r["id"]]: r["hunk_count"] for r in records}


def _hunk_files(record: dict) -> list[str]:
    return [h["file"] for h in record["hunks"]]


# --------------------------------------------------------------------------- what is mined


def test_default_run_mines_exactly_the_multi_hunk_fixes(history, tmp_path: Path) -> None:
    result, records = _mine(history, tmp_path)
    assert result.exit_code == 0, result.output
    ids = history["ids"]
    # Oldest first with --jobs 1; C4 is on the merged branch, dated between C3 and C5.
    assert [r["id"] for r in records] == [ids["C1"], ids["C4"], ids["C8"]]
    by_id = {r["id"]: r for r in records}

    c1 = by_id[ids["C1"]]
    assert c1["commit"] == ids["C1"] and c1["parent"] == ids["C0"]
    assert c1["summary"] == "Fix null handling in Calc and fmt"
    assert c1["date"] == "2024-01-02T12:00:00+00:00"
    assert c1["author"] == "Ada Lovelace"
    assert c1["error"] is None
    assert c1["schema"] == "hunkmetrics/characterize/v1"
    assert c1["hunk_count"] == 2
    assert _hunk_files(c1) == [CALC, FMT]
    assert [h["method"] for h in c1["hunks"]] == [
        "com.acme.Calc.add(int,int)",
        "tools.fmt.trim(text)",
    ]
    assert c1["source"]["side"] == "pre"

    c4 = by_id[ids["C4"]]
    assert c4["parent"] == ids["C3"] and c4["hunk_count"] == 2
    assert _hunk_files(c4) == [FMT, FMT]

    c8 = by_id[ids["C8"]]
    assert c8["parent"] == ids["C7"] and c8["hunk_count"] == 4
    assert _hunk_files(c8) == [CALC, CALC, CALC, UTIL]  # CalcTest.java left out
    assert [h["method"] for h in c8["hunks"]] == [
        "com.acme.Calc.mul(int,int)",
        "com.acme.Calc.div(int,int)",
        "com.acme.Calc.neg(int,int)",
        "com.acme.Util.clamp(int,int)",
    ]
    assert c8["divergence"]["value"] > 0
    assert c8["proximity"]["files"] == 2
    assert "scanned 8 commits: 6 fixes by message, 3 candidates" in result.stderr


def test_record_is_the_characterize_document_of_the_commit(history, tmp_path: Path) -> None:
    _, records = _mine(history, tmp_path, "--pairs")
    ids, repo = history["ids"], history["repo"]
    record = next(r for r in records if r["id"] == ids["C8"])
    diff = _git_diff(repo, ids["C7"], ids["C8"], "--", CALC, UTIL)
    expected = hunkmetrics.characterize(diff, source=(str(repo), ids["C7"])).to_dict()
    assert {k: v for k, v in record.items() if k not in META} == expected
    assert list(record)[: len(META)] == list(META)
    assert record["repository"] == repo.name  # named after its folder


def test_scan_counts_and_diffs_match_git(history) -> None:
    repo, ids = history["repo"], history["ids"]
    stats = MineStats()
    found = list(scan_candidates(repo, mine_options(), stats=stats))
    assert [c.commit.hash for c in found] == [ids["C1"], ids["C4"], ids["C8"]]
    assert (
        stats.scanned,
        stats.matched,
        stats.roots,
        stats.no_source,
        stats.out_of_range,
        stats.candidates,
    ) == (8, 6, 1, 2, 1, 3)
    for candidate in found:
        git_diff = _git_diff(repo, candidate.parent, candidate.commit.hash, "--", *candidate.paths)
        assert candidate.diff == git_diff  # the batched diff-tree gives git diff's bytes
        assert candidate.hunk_count == git_diff.count(b"\n@@ -") + git_diff.startswith(b"@@")
    assert [c.paths for c in found] == [(CALC, FMT), (FMT,), (CALC, UTIL)]


def test_batched_diffs_equal_one_git_diff_per_commit(history) -> None:
    repo, ids = history["repo"], history["ids"]
    c1, c5, c8 = ids["C1"], ids["C5"], ids["C8"]
    parents = {c1: ids["C0"], c5: ids["C3"], c8: ids["C7"]}
    changed = commits.changed_files(repo, [c1, c5, c8])
    assert {p for ch in changed[c8] for p in ch.paths} == {CALC, UTIL, CALC_TEST}

    def git_diff(commit: str, paths: list[str]) -> bytes:
        return _git_diff(repo, parents[commit], commit, "--", *paths)

    # C1 and C8 go through one diff-tree limited to {Calc, fmt, Util}.
    selected = {c1: [CALC, FMT], c8: [CALC, UTIL]}
    diffs = commits.source_diffs(repo, selected, changed, parents)
    assert diffs == {c: git_diff(c, paths) for c, paths in selected.items()}
    # With CalcTest.java in the union (selected for C5), C8 would pick it up: C8 is
    # diffed on its own, with its own paths.
    selected = {c5: [CALC_TEST], c8: [CALC, UTIL]}
    diffs = commits.source_diffs(repo, selected, changed, parents)
    assert diffs == {c: git_diff(c, paths) for c, paths in selected.items()}
    assert b"CalcTest" not in diffs[c8]


def test_walk_skips_merges_and_reads_dates(history) -> None:
    ids = history["ids"]
    walked = list(walk_commits(history["repo"]))
    assert [c.hash for c in walked] == [
        ids[n] for n in ("C0", "C1", "C2", "C3", "C4", "C5", "C7", "C8")
    ]
    assert walked[0].parents == () and walked[1].parents == (ids["C0"],)
    assert walked[1].message.startswith("Fix null handling") and "Longer body" in walked[1].message
    assert walked[-1].date.isoformat() == "2024-01-09T12:00:00+00:00"


def test_scan_works_on_a_bare_mirror(history, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    subprocess.run(
        ["git", "clone", "--quiet", "--mirror", str(history["repo"]), str(copy)],
        check=True,
        capture_output=True,
    )
    found = [c.commit.hash for c in scan_candidates(copy)]
    assert found == [history["ids"][n] for n in ("C1", "C4", "C8")]


# --------------------------------------------------------------------------- filters


def test_hunk_bounds(history, tmp_path: Path) -> None:
    assert _mined(history, tmp_path / "a", "--min-hunks", "3") == {"C8": 4}
    drop = ("--over-max-hunks", "drop")
    assert _mined(history, tmp_path / "b", "--max-hunks", "3", *drop) == {"C1": 2, "C4": 2}
    assert _mined(history, tmp_path / "c", "--min-hunks", "1", "--max-hunks", "1", *drop) == {
        "C2": 1
    }
    assert _mined(history, tmp_path / "d", "--min-hunks", "5") == {}


def test_a_commit_above_max_hunks_is_kept_with_its_counts(history, tmp_path: Path) -> None:
    # C8 has 4 hunks: above --max-hunks 3 it is written, not characterized (issue 22).
    result, records = _mine(history, tmp_path, "--max-hunks", "3")
    assert result.exit_code == 0, result.output
    names = _by_name(history)
    by_name = {names[r["id"]]: r for r in records}
    assert {n: r["hunk_count"] for n, r in by_name.items()} == {"C1": 2, "C4": 2, "C8": 4}
    assert by_name["C1"]["error"] is None and by_name["C4"]["error"] is None
    assert by_name["C8"]["error"] == (
        "4 hunks, more than --max-hunks 3: kept with its counts, not characterized "
        "(raise --max-hunks to characterize it)"
    )
    assert "divergence" not in by_name["C8"]
    # 0: no limit, every commit characterized
    assert _mined(history, tmp_path / "all", "--max-hunks", "0") == {"C1": 2, "C4": 2, "C8": 4}


def test_languages(history, tmp_path: Path) -> None:
    # C1 has one Java and one Python hunk: alone, neither language reaches 2 hunks.
    assert _mined(history, tmp_path / "a", "--lang", "java") == {"C8": 4}
    assert _mined(history, tmp_path / "b", "--lang", "python") == {"C4": 2}
    assert _mined(history, tmp_path / "c", "--lang", "java, Python") == {"C1": 2, "C4": 2, "C8": 4}
    assert _mined(history, tmp_path / "d", "--lang", "go,c") == {}


def test_include_tests(history, tmp_path: Path) -> None:
    mined = _mined(history, tmp_path, "--include-tests")
    assert mined == {"C1": 2, "C4": 2, "C5": 2, "C8": 5}


def test_dates(history, tmp_path: Path) -> None:
    assert _mined(history, tmp_path / "a", "--since", "2024-01-05") == {"C4": 2, "C8": 4}
    # A bare --until date includes that whole day.
    assert _mined(history, tmp_path / "b", "--until", "2024-01-05") == {"C1": 2, "C4": 2}
    assert _mined(
        history,
        tmp_path / "c",
        "--since",
        "2024-01-02T12:00:01Z",
        "--until",
        "2024-01-09T11:00:00+00:00",
    ) == {"C4": 2}
    assert _mined(history, tmp_path / "d", "--since", "2024-01-09T13:00:00+01:00") == {"C8": 4}


def test_grep(history, tmp_path: Path) -> None:
    assert _mined(history, tmp_path / "a", "--grep", "^bug") == {"C4": 2}
    # The root commit matches but has no parent to compare with: skipped.
    assert _mined(
        history, tmp_path / "b", "--grep", "initial|refactor", "--min-code-hunks", "0"
    ) == {"C3": 3}
    assert _mined(history, tmp_path / "c", "--grep", "LONGER BODY") == {"C1": 2}
    assert _mined(history, tmp_path / "d", "--grep", "merge") == {}


def test_comment_only_commits_are_dropped(history, tmp_path: Path) -> None:
    """C3 only turns three `// one` notes into `// first` (add, div, neg): three hunks,
    none of which changes code, so it is no multi-hunk fix."""
    assert _mined(history, tmp_path, "--grep", "initial|refactor") == {}


def test_branch(history, tmp_path: Path) -> None:
    ids = history["ids"]
    assert _mined(history, tmp_path / "a", "--branch", "feature") == {"C1": 2, "C4": 2}
    assert _mined(history, tmp_path / "b", "--branch", ids["C3"]) == {"C1": 2}


def test_birch_profile_counts_what_it_characterizes(history, tmp_path: Path) -> None:
    _, records = _mine(history, tmp_path, "--profile", "birch")
    assert {r["hunk_count"] for r in records} == {2, 4}
    assert all(r["profile"] == "birch" for r in records)


def test_count_hunks_leaves_whole_files_out_for_birch() -> None:
    diff = (
        b"diff --git a/A.java b/A.java\nnew file mode 100644\nindex 0000000..1111111\n"
        b"--- /dev/null\n+++ b/A.java\n@@ -0,0 +1 @@\n+class A {}\n"
        b"diff --git a/B.java b/B.java\nindex 2222222..3333333 100644\n--- a/B.java\n"
        b"+++ b/B.java\n@@ -1 +1 @@\n-class B {}\n+class B { }\n"
        b"@@ -9 +9 @@\n-int x;\n+int y;\n"
    )
    assert count_hunks(diff) == 3
    assert count_hunks(diff, "birch") == 2


def test_count_hunks_is_the_documents_hunk_count() -> None:
    """A file emptied in place (git: modified, no `deleted file mode` line; its new blob
    is the empty e69de29) has the single hunk `@@ -1,2 +0,0 @@`. The file still exists
    after the change, so it is modified, not deleted, and birch counts its hunk like
    default does: 1 + 2 = 3 hunks. Whatever the rule, mine counts exactly what the
    document says."""
    diff = (
        b"diff --git a/A.java b/A.java\nindex 1111111..e69de29 100644\n--- a/A.java\n"
        b"+++ b/A.java\n@@ -1,2 +0,0 @@\n-class A {\n-}\n"
        b"diff --git a/B.java b/B.java\nindex 2222222..3333333 100644\n--- a/B.java\n"
        b"+++ b/B.java\n@@ -1 +1 @@\n-class B {}\n+class B { }\n"
        b"@@ -9 +9 @@\n-int x;\n+int y;\n"
    )
    assert count_hunks(diff) == 3
    assert count_hunks(diff, "birch") == 3
    for profile in ("default", "birch"):
        document = hunkmetrics.characterize(diff, profile=profile).to_dict()
        assert document["hunk_count"] == count_hunks(diff, profile)


# --------------------------------------------------------------------------- runs


def test_resume_skips_what_is_written(history, tmp_path: Path) -> None:
    ids = history["ids"]
    result, records = _mine(history, tmp_path, "--until", "2024-01-05")
    assert result.exit_code == 0 and [r["id"] for r in records] == [ids["C1"], ids["C4"]]
    again, _ = _mine(history, tmp_path)
    assert again.exit_code == 2 and "--resume" in again.stderr
    resumed, records = _mine(history, tmp_path, "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert [r["id"] for r in records] == [ids["C1"], ids["C4"], ids["C8"]]
    assert "2 were already there" in resumed.stderr
    # A run killed mid-line leaves a torn tail: --resume cuts it and redoes that commit.
    out = tmp_path / "out.jsonl"
    lines = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:2]) + lines[2][:50])
    resumed, records = _mine(history, tmp_path, "--resume")
    assert resumed.exit_code == 0
    assert [r["id"] for r in records] == [ids["C1"], ids["C4"], ids["C8"]]


def test_parallel_run_writes_the_same_records(history, tmp_path: Path) -> None:
    _, serial = _mine(history, tmp_path, name="serial.jsonl")
    result, parallel = _mine(history, tmp_path, "--jobs", "2", name="parallel.jsonl")
    assert result.exit_code == 0, result.output
    assert sorted(parallel, key=lambda r: r["id"]) == sorted(serial, key=lambda r: r["id"])


def test_a_failing_commit_gets_an_error_line_and_the_run_goes_on(
    history, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = history["ids"]
    real = Workspace.characterize

    def flaky(workspace, **kwargs):
        if any(f.path == UTIL for f in workspace.patch.files):
            raise ValueError("boom\nsecond line")
        return real(workspace, **kwargs)

    monkeypatch.setattr(Workspace, "characterize", flaky)
    stats = mine(history["repo"], tmp_path / "out.jsonl", mine_options())
    records = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [r["id"] for r in records] == [ids["C1"], ids["C4"], ids["C8"]]
    failed = records[2]
    assert failed["error"] == "internal error: ValueError: boom second line"
    assert failed["hunk_count"] == 4 and failed["parent"] == ids["C7"]
    assert "divergence" not in failed
    assert records[0]["error"] is None and records[1]["error"] is None
    assert (stats.written, stats.errors) == (3, 1)


def crash_on_util(candidate, repo, profile="default"):
    """A worker function (importable by spawned workers) that kills its process, as a
    segfault would, on the commit that touches Util.java. It calls the real
    characterize_candidate, imported before any test replaced it (a forked worker
    inherits the replacement)."""
    if UTIL in candidate.paths:
        os._exit(70)
    return characterize_candidate(candidate, repo, profile)


def crash_always(candidate, repo, profile="default"):
    os._exit(70)


def test_a_crashing_worker_costs_one_line_only(
    history, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = history["ids"]
    monkeypatch.setattr(mining, "characterize_candidate", crash_on_util)
    stats = mine(history["repo"], tmp_path / "out.jsonl", mine_options(), jobs=2)
    records = {
        json.loads(line)["id"]: json.loads(line)
        for line in (tmp_path / "out.jsonl").read_text().splitlines()
    }
    assert set(records) == {ids["C1"], ids["C4"], ids["C8"]}
    assert records[ids["C8"]]["error"].startswith("the worker process died")
    assert records[ids["C1"]]["error"] is None and records[ids["C4"]]["error"] is None
    assert (stats.written, stats.errors) == (3, 1)


def test_workers_that_never_work_stop_the_run(
    history, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mining, "characterize_candidate", crash_always)
    with pytest.raises(HunkmetricsError, match="worker processes die"):
        mine(history["repo"], tmp_path / "out.jsonl", mine_options(), jobs=2)
    assert (tmp_path / "out.jsonl").read_text() == ""


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "args, message",
    [
        (["--grep", "fix("], "--grep: not a valid regular expression"),
        (["--since", "last week"], "--since: not an ISO 8601 date"),
        (["--until", "2024-13-01"], "--until: not an ISO 8601 date"),
        (["--since", "2024-02-01", "--until", "2024-01-01"], "is after --until"),
        (["--lang", "java,kotlin"], "--lang: unknown language kotlin"),
        (["--min-hunks", "3", "--max-hunks", "2"], "--max-hunks (2) is below"),
        (["--branch", "no-such-branch"], "revision 'no-such-branch' does not exist"),
    ],
)
def test_bad_options_exit_2_with_one_line(history, tmp_path: Path, args, message) -> None:
    result, records = _mine(history, tmp_path, *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out.jsonl").exists()  # nothing created on bad input


def test_not_a_repository_exits_2(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    result = runner.invoke(app, ["mine", str(plain), "--out", str(tmp_path / "o.jsonl")])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"hunkmetrics: error: {plain}: not a git repository"
    missing = runner.invoke(app, ["mine", str(tmp_path / "nope"), "--out", "o.jsonl"])
    assert missing.exit_code == 2 and "no such directory" in missing.stderr


def test_empty_repository_exits_2(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    _git(empty, "init", "--quiet")
    result = runner.invoke(app, ["mine", str(empty), "--out", str(tmp_path / "o.jsonl")])
    assert result.exit_code == 2 and "has no commits" in result.stderr


def test_library_options_validate() -> None:
    with pytest.raises(HunkmetricsError, match="--min-hunks"):
        mine_options(min_hunks=0)
    with pytest.raises(HunkmetricsError, match="unknown profile"):
        mine_options(profile="fancy")
    assert mine_options(languages=None).languages >= {"java", "python", "go"}
    assert mine_options(until="2024-01-31").until.isoformat() == "2024-01-31T23:59:59.999999+00:00"


def test_every_mined_line_fits_the_record_schema(
    history, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Success lines (commit fields + the characterize document) and error lines (commit
    fields, error, hunk_count) both validate against docs/schemas/record.v1.json."""
    import jsonschema

    from hunkmetrics.schemas import schema

    real = Workspace.characterize

    def flaky(workspace, **kwargs):
        if any(f.path == UTIL for f in workspace.patch.files):
            raise ValueError("boom")
        return real(workspace, **kwargs)

    monkeypatch.setattr(Workspace, "characterize", flaky)
    mine(history["repo"], tmp_path / "out.jsonl", mine_options())
    records = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [r["error"] is None for r in records] == [True, True, False]
    validator = jsonschema.Draft202012Validator(schema("record"))
    for record in records:
        assert list(validator.iter_errors(record)) == [], record["id"]


def _pre_block(words: tuple[str, str]) -> str:
    """A class whose two Javadocs hold `<pre>` examples on lines without a leading `*`,
    far apart, and far enough from the `/**` and `*/` that a 3-line context shows
    neither: from a hunk alone such a line cannot be told from code."""
    body = ["package com.acme;", "", "public class Docs {"]
    for i, word in enumerate(words):
        body += [
            "    /**",
            "     * Runs it.",
            "     * <p>",
            "     * More about it.",
            "     * Example:",
            "     * <pre>",
            f'    Docs.run{i}("{word}");',
            "     * </pre>",
            "     * <p>",
            "     * See also.",
            "     * @param s the input",
            "     */",
            f"    public static void run{i}(String s) {{",
            "    }",
            *[f"    int field{i}_{k} = {k};" for k in range(12)],
        ]
    return "\n".join([*body, "}", ""])


def test_code_hunks_are_checked_again_with_the_sources(tmp_path: Path) -> None:
    """The scan counts 2 code hunks from the diff alone (each changes a `Docs.run…`
    line it cannot place in a comment); the sources show both lines inside Javadocs:
    the commit is written as an error row saying so, not as a document with 0 code
    hunks that contradicts --min-code-hunks."""
    repo = tmp_path / "docs"
    repo.mkdir()
    _git(repo, "init", "--quiet")
    path = "src/main/java/com/acme/Docs.java"
    _commit(repo, "initial", 1, {path: _pre_block(("a", "b"))})
    fix = _commit(repo, "fix the examples", 2, {path: _pre_block(("x", "y"))})
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["mine", str(repo), "--out", str(out)])
    assert result.exit_code == 0, result.output
    (record,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert record["commit"] == fix
    assert record["error"] == (
        "not a multi-hunk code fix: with the sources 0 hunk(s) change code, fewer than "
        "--min-code-hunks 2 (the diff alone counted 2)"
    )
    # The same commit characterized from its diff alone and with its sources.
    diff = _git_diff(repo, f"{fix}^", fix)
    with hunkmetrics.open_workspace(diff) as alone:
        assert list(alone.kinds().values()) == ["code", "code"]
    with hunkmetrics.open_workspace(diff, repo=repo, rev=f"{fix}^") as sourced:
        assert list(sourced.kinds().values()) == ["comment", "comment"]
