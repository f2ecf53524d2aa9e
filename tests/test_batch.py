"""`hunkmetrics batch`: every id exactly once, bad patches as error lines, manifests,
order, resume after a kill, torn-line repair, and no overwriting.

The patches are real: the fixture patches against the fixture repository (tag `base`),
and generated multi-hunk Java patches against a generated repository."""

from __future__ import annotations

import difflib
import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from gitrepo import PATCHES, build_fixture_repo, git
from typer.testing import CliRunner

import hunkmetrics
from hunkmetrics.cli.app import app
from hunkmetrics.datasets import batch as batch_runner
from hunkmetrics.datasets.batch import Settings, chunked, run_batch, run_chunk, shrinking_sizes
from hunkmetrics.datasets.inputs import Defaults

ROOT = Path(__file__).resolve().parents[1]
cli = CliRunner()

# --- generated data: a small Java project in git, and multi-hunk patches against it --------

METHODS = 12


def java_source(package: str, name: str, seed: int) -> str:
    lines = [
        f"package {package};",
        "",
        "import java.util.List;",
        "",
        f"public class {name} {{",
        "    private int count;",
        "",
    ]
    for m in range(METHODS):
        lines += [
            f"    public int step{m}(int a, List<String> names) {{",
            f"        int v = a + {seed * 100 + m};",
            "        count += v;",
            f'        names.add("{name}-{m}");',
            "        return v * 2;",
            "    }",
            "",
        ]
    lines.append("}")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Generated:
    repo: Path  # a git repository whose tag `base` (and working tree) is the pre-image
    patches: Path  # a directory of NNN.diff files
    ids: list[str]


def make_project(root: Path, files: int = 10) -> dict[str, str]:
    sources = {}
    for f in range(files):
        package = f"com.gen.p{f % 3}"
        path = f"src/main/java/com/gen/p{f % 3}/C{f}.java"
        sources[path] = java_source(package, f"C{f}", f)
    for path, text in sources.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    git(root, "init", "--quiet")
    git(root, "add", "--all")
    git(root, "commit", "--quiet", "-m", "base")
    git(root, "tag", "base")
    return sources


def unified(path: str, before: str, after: str) -> str:
    body = list(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            f"a/{path}",
            f"b/{path}",
            n=3,
        )
    )
    return f"diff --git a/{path} b/{path}\n" + "".join(body)


def make_patch(sources: dict[str, str], rng: random.Random) -> str:
    """Edits in 2-3 methods of each of 1-3 files: a multi-hunk patch (methods are 7 lines
    apart, edits at least two methods apart, so every edit is its own hunk)."""
    out = []
    for path in sorted(rng.sample(sorted(sources), rng.randint(1, 3))):
        text = sources[path]
        for m in sorted(rng.sample(range(0, METHODS, 2), rng.randint(2, 3))):
            old = next(line for line in text.splitlines() if f"step{m}(" in line)
            index = text.index(old) + len(old) + 1
            line_end = text.index("\n", index)
            text = (
                text[:index] + f"        int v = a * {rng.randint(2, 99)} - {m};" + text[line_end:]
            )
        out.append(unified(path, sources[path], text))
    return "".join(out)


def make_dataset(root: Path, count: int, seed: int = 1) -> Generated:
    repo = root / "gen-repo"
    repo.mkdir(parents=True)
    sources = make_project(repo)
    patches = root / "gen-patches"
    patches.mkdir()
    rng = random.Random(seed)
    ids = []
    for n in range(count):
        ids.append(f"p{n:03d}")
        (patches / f"p{n:03d}.diff").write_text(make_patch(sources, rng), encoding="utf-8")
    return Generated(repo, patches, ids)


# --- helpers ---------------------------------------------------------------------------


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_bytes().splitlines()]


def invoke(*args: str):
    return cli.invoke(app, ["batch", *args])


def assert_each_id_once(path: Path, ids: set[str]) -> list[dict]:
    records = lines_of(path)
    seen = [r["id"] for r in records]
    assert len(seen) == len(set(seen)), "an id was written twice"
    assert set(seen) == ids
    return records


def without_id(record: dict) -> dict:
    return {k: v for k, v in record.items() if k not in ("id", "error")}


@pytest.fixture(scope="module")
def gen(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return make_dataset(tmp_path_factory.mktemp("gen"), 40)


@pytest.fixture(scope="module")
def java_repo(tmp_path_factory: pytest.TempPathFactory):
    return build_fixture_repo(tmp_path_factory.mktemp("fixture"), "java-project")


# --- a directory of patches ------------------------------------------------------------


def test_directory_run_every_id_once_and_bad_patches_are_error_lines(tmp_path, gen) -> None:
    data = tmp_path / "patches"
    data.mkdir()
    for name in gen.ids[:20]:
        (data / f"{name}.diff").write_bytes((gen.patches / f"{name}.diff").read_bytes())
    (data / "empty.diff").write_bytes(b"")
    (data / "garbage.patch").write_bytes(b"this is not a diff\n\x00\x01 at all\n")
    # A fixture patch: its files are not in the generated repository.
    (data / "elsewhere.diff").write_bytes((PATCHES / "java_overloads.diff").read_bytes())
    # A generated patch whose context does not match the sources.
    wrong = (gen.patches / "p000.diff").read_text().replace("count += v;", "count -= v;")
    (data / "mismatch.diff").write_text(wrong)
    out = tmp_path / "results.jsonl"

    result = invoke(
        str(data),
        "--out",
        str(out),
        "--repo",
        str(gen.repo),
        "--rev",
        "base",
        "--jobs",
        "2",
        "--pairs",
    )

    assert result.exit_code == 0, result.output
    ids = set(gen.ids[:20]) | {"empty", "garbage", "elsewhere", "mismatch"}
    records = {r["id"]: r for r in assert_each_id_once(out, ids)}
    errors = {k: r["error"] for k, r in records.items() if r["error"] is not None}
    assert set(errors) == {"empty", "garbage", "elsewhere", "mismatch"}
    assert errors["empty"] == f"{data / 'empty.diff'}: empty diff"
    assert errors["garbage"].startswith(f"{data / 'garbage.patch'}: no file changes found")
    assert "matches neither side of the patch (file not found)" in errors["elsewhere"]
    assert "matches neither side of the patch (as pre-image: line" in errors["mismatch"]
    for message in errors.values():
        assert "\n" not in message
    for key in errors:
        assert {"id", "error", "schema", "config", "patch"} <= set(records[key])
        assert records[key]["schema"] == "hunkmetrics/characterize/v1"
    # A good line is the characterize document of that patch, plus id and error.
    for name in gen.ids[:3]:
        expected = hunkmetrics.characterize(
            str(data / f"{name}.diff"), source=(gen.repo, "base")
        ).to_dict()
        assert without_id(records[name]) == expected
        assert records[name]["hunk_count"] >= 2
    # stderr is not a terminal here: no progress bar, one summary line.
    summary = result.stderr.strip().splitlines()
    assert len(summary) == 1
    assert summary[0].startswith("hunkmetrics: batch: 24 written (4 errors), 0 skipped")
    assert "0 torn lines repaired" in summary[0]


def test_worktree_and_revision_sources_give_the_same_metrics(tmp_path, gen) -> None:
    by_rev, by_tree = tmp_path / "rev.jsonl", tmp_path / "tree.jsonl"
    assert (
        invoke(
            str(gen.patches),
            "-o",
            str(by_rev),
            "--repo",
            str(gen.repo),
            "--rev",
            "base",
            "--jobs",
            "1",
        ).exit_code
        == 0
    )
    assert (
        invoke(
            str(gen.patches),
            "-o",
            str(by_tree),
            "--repo",
            str(gen.repo),
            "--jobs",
            "2",
            "--chunk-size",
            "3",
        ).exit_code
        == 0
    )
    rev = {r["id"]: r for r in lines_of(by_rev)}
    tree = {r["id"]: r for r in lines_of(by_tree)}
    assert set(rev) == set(tree) == set(gen.ids)
    for key in gen.ids:
        assert rev[key]["error"] is None
        assert rev[key]["divergence"] == tree[key]["divergence"]
        assert rev[key]["proximity"] == tree[key]["proximity"]


def test_settings_reach_every_line(tmp_path, gen) -> None:
    out = tmp_path / "birch.jsonl"
    result = invoke(
        str(gen.patches),
        "-o",
        str(out),
        "--repo",
        str(gen.repo),
        "--profile",
        "birch",
        "--sprawl-cutoff",
        "1",
        "--distributed-weight",
        "1.5",
        "--hunks",
        "regions",
        "--jobs",
        "2",
        "--pairs",
    )
    assert result.exit_code == 0, result.output
    for record in lines_of(out):
        assert record["profile"] == "birch"
        assert record["config"]["cutoff"] == 1
        assert record["config"]["distributed_weight"] == 1.5
        assert record["config"]["hunking"] == "regions"
    first = lines_of(out)[0]
    expected = hunkmetrics.characterize(
        first["patch"],
        source=gen.repo,
        profile="birch",
        cutoff=1,
        distributed_weight=1.5,
        hunking="regions",
    ).to_dict()
    assert without_id(first) == expected


# --- a manifest ------------------------------------------------------------------------


def test_manifest_with_per_row_repo_rev_and_reverse(tmp_path, gen, java_repo) -> None:
    data = tmp_path / "data"
    data.mkdir()
    for name in ("java_packages_near", "java_overloads"):
        (data / f"{name}.diff").write_bytes((PATCHES / f"{name}.diff").read_bytes())
    fixture_repo = os.path.relpath(java_repo.path, data)
    gen_repo = os.path.relpath(gen.repo, data)
    manifest = data / "manifest.csv"
    manifest.write_text(
        "id,patch,repo,rev,reverse\n"
        f"near,java_packages_near.diff,{fixture_repo},base,\n"
        # The patch read backwards, against the branch holding its post-image.
        f"near-reversed,java_packages_near.diff,{fixture_repo},fix/java_packages_near,true\n"
        # No repo in the row: the command line's --repo/--rev (the generated repo).
        f"gen-default,{gen.patches / 'p001.diff'},,,\n"
        f"gen-row,{os.path.relpath(gen.patches / 'p002.diff', data)},{gen_repo},base,no\n"
        # Reversed, against `base`: the tree now holds the (reversed) patch's post-image.
        "overloads-reversed,java_overloads.diff," + fixture_repo + ",base,yes\n"
        "no-such-rev,java_overloads.diff," + fixture_repo + ",v9.9,\n",
        encoding="utf-8",
    )
    out = tmp_path / "out.jsonl"

    result = invoke(
        str(manifest),
        "--out",
        str(out),
        "--repo",
        str(gen.repo),
        "--rev",
        "base",
        "--jobs",
        "2",
        "--pairs",
    )

    assert result.exit_code == 0, result.output
    records = {
        r["id"]: r
        for r in assert_each_id_once(
            out,
            {
                "near",
                "near-reversed",
                "gen-default",
                "gen-row",
                "overloads-reversed",
                "no-such-rev",
            },
        )
    }
    near, backwards = records["near"], records["near-reversed"]
    assert near["error"] is None and backwards["error"] is None
    assert near["patch"] == str(data / "java_packages_near.diff")
    assert "git revision base" in near["source"]["description"]
    assert str(java_repo.path) in near["source"]["description"]
    assert "fix/java_packages_near" in backwards["source"]["description"]
    assert near["config"]["reverse"] is False and backwards["config"]["reverse"] is True
    assert (near["proximity"]["class"], near["hunk_count"]) == ("Sprawl", 3)
    assert backwards["hunk_count"] == 3
    assert str(gen.repo) in records["gen-default"]["source"]["description"]
    assert records["gen-row"]["error"] is None
    assert records["gen-row"]["patch"] == str(
        data / os.path.relpath(gen.patches / "p002.diff", data)
    )
    assert "v9.9" in records["no-such-rev"]["error"]
    reversed_ = records["overloads-reversed"]
    assert reversed_["error"] is None and reversed_["config"]["reverse"] is True
    assert reversed_["source"]["side"] == "post" and near["source"]["side"] == "pre"
    expected = hunkmetrics.characterize(
        str(data / "java_packages_near.diff"), source=(java_repo.path, "base")
    ).to_dict()
    assert without_id(near) == expected
    # One task for all rows: the worker switches readers as the rows' sources change.
    one_task = tmp_path / "one-task.jsonl"
    assert (
        invoke(
            str(manifest),
            "--out",
            str(one_task),
            "--repo",
            str(gen.repo),
            "--rev",
            "base",
            "--jobs",
            "1",
            "--chunk-size",
            "6",
            "--pairs",
        ).exit_code
        == 0
    )
    assert sorted(one_task.read_bytes().splitlines()) == sorted(out.read_bytes().splitlines())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty manifest"),
        ("id,path\na,x.diff\n", "unknown column(s) 'path'"),
        ("id,repo\na,x\n", "lacks patch"),
        ("id,patch,id\na,x.diff,b\n", "appear twice"),
        ("id,patch\n", "no rows"),
        ("id,patch\na,a.diff\nb,b.diff\na,c.diff\n", "row 3 (line 4): duplicate id 'a'"),
        ("id,patch\na,a.diff\n\nb\n", "row 2 (line 4): expected 2 fields"),
        ("id,patch\n,a.diff\n", "row 1 (line 2): the id is empty"),
        ("id,patch\na,\n", "row 1 (line 2): the patch path is empty"),
        (
            "id,patch,reverse\na,a.diff,true\nb,b.diff,sometimes\n",
            "row 2 (line 3): reverse must be true or false, not 'sometimes'",
        ),
    ],
)
def test_bad_manifests_are_one_line_errors_naming_the_row(tmp_path, text, message) -> None:
    manifest = tmp_path / "m.csv"
    manifest.write_text(text, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    result = invoke(str(manifest), "--out", str(out))
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_bad_inputs_exit_2(tmp_path, gen) -> None:
    twice = tmp_path / "twice"
    twice.mkdir()
    (twice / "a.diff").write_text("x")
    (twice / "a.patch").write_text("y")
    empty = tmp_path / "none"
    empty.mkdir()
    (empty / "notes.txt").write_text("no patches here")
    cases = [
        ([str(twice)], "a.diff and a.patch both give the id 'a'"),
        ([str(empty)], "no *.diff or *.patch files"),
        ([str(tmp_path / "missing")], "no such file or directory"),
        ([str(gen.patches / "p000.diff")], "not one patch"),
        (
            [str(gen.patches), "--scheduler", "tcp://localhost:8786"],
            "--scheduler is for --executor dask",
        ),
        ([str(gen.patches), "--executor", "dask"], None),  # needs --scheduler (or dask)
    ]
    for args, message in cases:
        result = invoke(*args, "--out", str(tmp_path / "o.jsonl"))
        assert result.exit_code == 2, (args, result.output)
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        if message:
            assert message in result.stderr
    assert not (tmp_path / "o.jsonl").exists()


# --- order -----------------------------------------------------------------------------


def test_ordered_writes_in_input_order(tmp_path, gen) -> None:
    # A manifest whose order is neither by id nor by file: the reverse of both.
    manifest = tmp_path / "m.csv"
    rows = [
        f"z{n:03d},{gen.patches / (name + '.diff')}" for n, name in enumerate(reversed(gen.ids))
    ]
    rows[5:5] = [f"bad-{n},{tmp_path / 'missing.diff'}" for n in range(3)]
    manifest.write_text("id,patch\n" + "\n".join(reversed(rows)) + "\n", encoding="utf-8")
    expected = [row.split(",")[0] for row in reversed(rows)]
    out = tmp_path / "ordered.jsonl"

    result = invoke(
        str(manifest),
        "--out",
        str(out),
        "--repo",
        str(gen.repo),
        "--jobs",
        "2",
        "--chunk-size",
        "1",
        "--ordered",
    )

    assert result.exit_code == 0, result.output
    assert [r["id"] for r in lines_of(out)] == expected


def test_ordered_and_unordered_runs_hold_the_same_lines(tmp_path, gen) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert (
        invoke(
            str(gen.patches),
            "-o",
            str(a),
            "--repo",
            str(gen.repo),
            "--jobs",
            "2",
            "--chunk-size",
            "1",
        ).exit_code
        == 0
    )
    assert (
        invoke(
            str(gen.patches), "-o", str(b), "--repo", str(gen.repo), "--jobs", "2", "--ordered"
        ).exit_code
        == 0
    )
    assert sorted(a.read_bytes().splitlines()) == sorted(b.read_bytes().splitlines())
    assert [r["id"] for r in lines_of(b)] == gen.ids


# --- never overwrite; resume; torn lines -----------------------------------------------


def test_existing_output_without_resume_is_exit_2_and_untouched(tmp_path, gen) -> None:
    out = tmp_path / "results.jsonl"
    out.write_bytes(b'{"id": "x", "error": null}\n')
    result = invoke(str(gen.patches), "--out", str(out))
    assert result.exit_code == 2
    assert "exists: use --resume" in result.stderr
    assert out.read_bytes() == b'{"id": "x", "error": null}\n'


def test_resume_repairs_a_torn_last_line_and_writes_the_rest(tmp_path, gen) -> None:
    out = tmp_path / "results.jsonl"
    assert (
        invoke(
            str(gen.patches), "-o", str(out), "--repo", str(gen.repo), "--ordered", "--jobs", "2"
        ).exit_code
        == 0
    )
    complete = out.read_bytes().splitlines(keepends=True)
    # As a killed run would leave it: 10 whole lines and half of the 11th.
    out.write_bytes(b"".join(complete[:10]) + complete[10][: len(complete[10]) // 2])

    result = invoke(
        str(gen.patches),
        "-o",
        str(out),
        "--repo",
        str(gen.repo),
        "--resume",
        "--jobs",
        "2",
        "--ordered",
    )

    assert result.exit_code == 0, result.output
    assert (
        "30 written (0 errors), 10 skipped as already done, 1 torn line repaired" in result.stderr
    )
    assert_each_id_once(out, set(gen.ids))
    assert out.read_bytes() == b"".join(complete)  # ordered + resumed: the same file
    again = invoke(str(gen.patches), "-o", str(out), "--repo", str(gen.repo), "--resume")
    assert again.exit_code == 0
    assert "0 written (0 errors), 40 skipped as already done, 0 torn lines" in again.stderr
    assert out.read_bytes() == b"".join(complete)


def test_a_second_run_on_the_same_output_is_refused(tmp_path, gen) -> None:
    fcntl = pytest.importorskip("fcntl")  # POSIX
    out = tmp_path / "results.jsonl"
    with out.open("ab") as held:  # as a run still writing it would hold it
        fcntl.flock(held, fcntl.LOCK_EX)
        result = invoke(str(gen.patches), "--out", str(out), "--resume")
    assert result.exit_code == 2
    assert "another hunkmetrics batch is writing this file" in result.stderr
    assert out.read_bytes() == b""
    directory = invoke(str(gen.patches), "--out", str(tmp_path))
    assert directory.exit_code == 2 and "is a directory" in directory.stderr


def test_resume_warns_about_lines_of_another_input(tmp_path, gen) -> None:
    out = tmp_path / "results.jsonl"
    out.write_bytes(b'{"id": "someone-else", "error": null}\n')
    result = invoke(
        str(gen.patches), "-o", str(out), "--repo", str(gen.repo), "--resume", "--jobs", "1"
    )
    assert result.exit_code == 0
    assert "1 line(s) whose id is not in" in result.stderr
    assert len(lines_of(out)) == 41


def _start_batch(data: Path, repo: Path, out: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "hunkmetrics",
            "batch",
            str(data),
            "--out",
            str(out),
            "--repo",
            str(repo),
            "--rev",
            "base",
            "--jobs",
            "2",
            "--chunk-size",
            "2",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )  # its own process group: the driver, workers and git


def test_killed_run_resumes_with_every_id_exactly_once(tmp_path) -> None:
    data = make_dataset(tmp_path, 80, seed=5)
    out = tmp_path / "killed.jsonl"
    killed_midway = False
    for _attempt in range(3):  # on a very fast machine the run may finish first: retry
        out.unlink(missing_ok=True)
        proc = _start_batch(data.patches, data.repo, out)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if out.exists() and out.read_bytes().count(b"\n") >= 4:
                break
            time.sleep(0.005)
        finished = proc.poll() is not None
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        proc.stderr.close()
        written = out.read_bytes().count(b"\n") if out.exists() else 0
        if not finished and 0 < written < 80:
            killed_midway = True
            break
    assert killed_midway, "could not kill the run while it was writing"
    before = lines_of_prefix(out)
    assert all(r["id"] in data.ids for r in before)

    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "hunkmetrics",
            "batch",
            str(data.patches),
            "--out",
            str(out),
            "--repo",
            str(data.repo),
            "--rev",
            "base",
            "--jobs",
            "2",
            "--resume",
        ],
        cwd=ROOT,
        capture_output=True,
        timeout=300,
    )

    assert done.returncode == 0, done.stderr.decode()
    summary = done.stderr.decode().strip().splitlines()[-1]
    assert f"{len(before)} skipped as already done" in summary
    records = assert_each_id_once(out, set(data.ids))  # every line parses as JSON
    assert all(r["error"] is None for r in records)
    # The same lines as a run that was never interrupted.
    clean = tmp_path / "clean.jsonl"
    run_batch(data.patches, clean, defaults=Defaults(repo=data.repo, rev="base"), executor="inline")
    assert sorted(out.read_bytes().splitlines()) == sorted(clean.read_bytes().splitlines())


def lines_of_prefix(path: Path) -> list[dict]:
    """The complete lines of a file a killed writer left (a torn last line is ignored)."""
    raw = path.read_bytes()
    return [json.loads(line) for line in raw[: raw.rfind(b"\n") + 1].splitlines()]


# --- failures inside items and workers -------------------------------------------------


def test_an_internal_error_in_one_item_is_its_error_line(tmp_path, gen, monkeypatch) -> None:
    real = batch_runner.Workspace.characterize

    def flaky(ws, **kwargs):
        if ws.patch.name.endswith("p003.diff"):
            raise ZeroDivisionError("boom\nwith a second line")
        return real(ws, **kwargs)

    monkeypatch.setattr(batch_runner.Workspace, "characterize", flaky)
    out = tmp_path / "out.jsonl"
    summary = run_batch(
        gen.patches,
        out,
        defaults=Defaults(repo=gen.repo, rev="base"),
        executor="inline",
        chunk_size=8,
    )
    records = {r["id"]: r for r in assert_each_id_once(out, set(gen.ids))}
    assert records["p003"]["error"] == (
        "internal error: ZeroDivisionError: boom with a second line"
    )
    assert all(r["error"] is None for k, r in records.items() if k != "p003")
    assert (summary.written, summary.errors) == (40, 1)


def crashing_chunk(settings: Settings, items: list) -> list[dict]:
    """A task that takes its worker process down when it meets the item `crash`, as a
    crash in native code (or the kernel's OOM killer) would."""
    if any(item.id == "crash" for item in items):
        os._exit(3)
    return run_chunk(settings, items)


def test_a_worker_that_dies_costs_one_error_line(tmp_path, gen, monkeypatch) -> None:
    data = tmp_path / "data"
    data.mkdir()
    for name in gen.ids[:12]:
        (data / f"{name}.diff").write_bytes((gen.patches / f"{name}.diff").read_bytes())
    (data / "crash.diff").write_bytes((gen.patches / "p012.diff").read_bytes())
    monkeypatch.setattr(batch_runner, "run_chunk", crashing_chunk)
    out = tmp_path / "out.jsonl"

    summary = run_batch(data, out, defaults=Defaults(repo=gen.repo), jobs=2, chunk_size=3)

    records = {r["id"]: r for r in assert_each_id_once(out, {*gen.ids[:12], "crash"})}
    assert "worker died on this patch" in records["crash"]["error"]
    assert "BrokenProcessPool" in records["crash"]["error"]
    assert all(r["error"] is None for k, r in records.items() if k != "crash")
    assert summary.worker_failures >= 1 and summary.errors == 1


def test_automatic_chunks_shrink_towards_the_end() -> None:
    """100 items on 2 slots: each chunk is the automatic size for the items still to
    go (a quarter of them per slot, at most 16): 100 // 8 = 12, then 88 // 8 = 11,
    77 // 8 = 9, ... down to single items for the last 15. A fixed size stays fixed."""
    items = [(k, None) for k in range(100)]
    sizes = [len(c) for c in chunked(items, shrinking_sizes(100, 2))]
    assert sizes == [12, 11, 9, 8, 7, 6, 5, 5, 4, 4, 3, 3, 2, 2, 2, 2] + [1] * 15
    assert [len(c) for c in chunked(items[:7], 3)] == [3, 3, 1]
