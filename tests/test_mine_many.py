"""`hunkmetrics mine` over several repositories: a CSV list with each repository's own
dates, ids that name the repository, resume per repository and per commit, and the same
records on a two-worker Dask cluster."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_mine import _git as git
from typer.testing import CliRunner

from hunkmetrics.cli.app import app
from hunkmetrics.datasets.repos import read_done, read_repo_list

cli = CliRunner()


def _git(repo: Path, *args: str, day: int = 1) -> str:
    return git(repo, *args, day=day).strip()


def _module(first: str, second: str) -> str:
    # Two functions 12 lines apart: a change to both makes two hunks.
    lines = ["def first(x):", f"    return {first}", ""]
    lines += [f"# padding {k}" for k in range(12)]
    lines += ["", "def second(x):", f"    return {second}", ""]
    return "\n".join(lines)


def _commit(repo: Path, text: str, message: str, day: int) -> str:
    (repo / "mod.py").write_text(text)
    _git(repo, "add", "mod.py", day=day)
    _git(repo, "commit", "-q", "-m", message, day=day)
    return _git(repo, "rev-parse", "HEAD")


def _repo(folder: Path, history: list[tuple[str, str, str, int]]) -> dict[str, str]:
    folder.mkdir(parents=True)
    _git(folder, "init", "-q", "-b", "main")
    return {message: _commit(folder, _module(a, b), message, day) for a, b, message, day in history}


@pytest.fixture(scope="module")
def repos(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, dict[str, str]]]:
    root = tmp_path_factory.mktemp("repos")
    alpha = _repo(
        root / "alpha",
        [
            ("x", "x", "initial", 1),
            ("x + 1", "x - 1", "fix: off by one", 2),  # two hunks: a candidate
            ("x + 1", "x - 1 ", "add a feature", 3),  # not a fix by its message
            ("x + 2", "x - 2", "Fix bug in both", 5),  # two hunks: a candidate
        ],
    )
    beta = _repo(
        root / "beta.git",
        [
            ("y", "y", "initial", 1),
            ("y * 2", "y / 2", "fix scaling", 3),  # two hunks: a candidate
            ("y * 3", "y / 2", "fix typo", 4),  # one hunk: below --min-hunks 2
        ],
    )
    return root, {"alpha": alpha, "beta": beta}


def _ids(out: Path) -> list[str]:
    return [json.loads(line)["id"] for line in out.read_text().splitlines()]


def test_two_repositories_by_argument(repos, tmp_path: Path) -> None:
    root, commits = repos
    out = tmp_path / "m.jsonl"
    result = cli.invoke(app, ["mine", str(root / "alpha"), str(root / "beta.git"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    alpha, beta = commits["alpha"], commits["beta"]
    assert _ids(out) == [
        f"alpha@{alpha['fix: off by one']}",
        f"alpha@{alpha['Fix bug in both']}",
        f"beta@{beta['fix scaling']}",  # beta.git is named beta
    ]
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["repository"] for r in records] == ["alpha", "alpha", "beta"]
    assert [r["hunk_count"] for r in records] == [2, 2, 2]
    assert all(r["error"] is None for r in records)
    assert "2 of 2 repositories walked" in result.stderr
    assert read_done(out) == {"alpha", "beta"}


def test_a_list_with_each_repositorys_own_dates(repos, tmp_path: Path) -> None:
    root, commits = repos
    listing = tmp_path / "repos.csv"
    listing.write_text(
        f"repo,since,until,name\n{root / 'alpha'},2024-01-04,,a\n{root / 'beta.git'},,,\n"
    )
    specs = read_repo_list(listing)
    assert [(s.name, s.since, s.until) for s in specs] == [
        ("a", "2024-01-04", None),
        ("beta", None, None),
    ]
    out = tmp_path / "m.jsonl"
    result = cli.invoke(app, ["mine", "--repo-list", str(listing), "-o", str(out), "--jobs", "2"])
    assert result.exit_code == 0, result.output
    # alpha's first fix (2 January) is before its own --since; beta has no dates.
    assert sorted(_ids(out)) == sorted(
        [f"a@{commits['alpha']['Fix bug in both']}", f"beta@{commits['beta']['fix scaling']}"]
    )


def test_resume_skips_finished_repositories_and_written_commits(repos, tmp_path: Path) -> None:
    root, commits = repos
    out = tmp_path / "m.jsonl"
    args = ["mine", str(root / "alpha"), str(root / "beta.git"), "-o", str(out)]
    assert cli.invoke(app, args).exit_code == 0
    # As if killed during beta: its record and its done mark are gone.
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[:2]))
    Path(f"{out}.repos-done").write_text("alpha\n")
    result = cli.invoke(app, [*args, "--resume"])
    assert result.exit_code == 0, result.output
    assert _ids(out)[2:] == [f"beta@{commits['beta']['fix scaling']}"]
    assert len(_ids(out)) == 3
    assert "1 of 2 repositories walked (1 finished before)" in result.stderr
    # Killed in the middle of alpha: its written commit is skipped, the other one mined.
    out.write_text("".join(lines[:1]))
    Path(f"{out}.repos-done").write_text("")
    result = cli.invoke(app, [*args, "--resume"])
    assert result.exit_code == 0, result.output
    assert _ids(out) == [json.loads(line)["id"] for line in lines]
    assert "1 were already there" in result.stderr


def test_bad_repository_lists_are_one_line_errors(repos, tmp_path: Path) -> None:
    root, _ = repos
    same = tmp_path / "same.csv"
    same.write_text(f"repo\n{root / 'alpha'}\n{root / 'alpha'}\n")
    result = cli.invoke(app, ["mine", "--repo-list", str(same), "-o", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert "two repositories are named 'alpha'" in result.output
    empty = tmp_path / "cell.csv"
    empty.write_text("repo,branch\n,main\n")
    result = cli.invoke(app, ["mine", "--repo-list", str(empty), "-o", str(tmp_path / "o")])
    assert result.exit_code == 2 and "cell.csv:2: the repo cell is empty" in result.output
    result = cli.invoke(
        app, ["mine", str(root / "alpha"), "--repo-list", str(same), "-o", str(tmp_path / "o")]
    )
    assert result.exit_code == 2 and "not both" in result.output
    result = cli.invoke(app, ["mine", "-o", str(tmp_path / "o")])
    assert result.exit_code == 2 and "give a repository to mine" in result.output
    assert not (tmp_path / "o").exists()


def test_a_two_worker_dask_cluster_writes_the_same_records(repos, tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")
    root, _ = repos
    local = tmp_path / "local.jsonl"
    args = ["mine", str(root / "alpha"), str(root / "beta.git")]
    assert cli.invoke(app, [*args, "-o", str(local)]).exit_code == 0
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as cluster:
        out = tmp_path / "dask.jsonl"
        result = cli.invoke(
            app,
            [*args, "-o", str(out), "--executor", "dask", "--scheduler", cluster.scheduler_address],
        )
    assert result.exit_code == 0, result.output
    assert sorted(out.read_text().splitlines()) == sorted(local.read_text().splitlines())
