"""Issue 15, data and sources: never lose a row, never read outside the repository,
never reject a valid diff. Each test is the minimal reproducer of one defect, with the
expected behaviour worked out by hand."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hunkmetrics.cli.app import app
from hunkmetrics.csvfiles import neutral
from hunkmetrics.datasets.batch import run_batch
from hunkmetrics.datasets.export import export
from hunkmetrics.datasets.mine import mine, mine_options
from hunkmetrics.errors import HunkmetricsError, SourceError
from hunkmetrics.patch.parse import parse_patch
from hunkmetrics.sources.readers import GitRevisionReader, WorktreeReader
from hunkmetrics.sources.resolve import resolve_sources

GIT = [
    "git",
    "-c",
    "user.name=T",
    "-c",
    "user.email=t@t.invalid",
    "-c",
    "init.defaultBranch=main",
    "-c",
    "commit.gpgsign=false",
    "-c",
    "core.quotepath=false",
]


def git(repo: Path, *args: str) -> bytes:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(repo)}
    return subprocess.run(
        [*GIT, "-C", str(repo), *args], check=True, capture_output=True, env=env
    ).stdout


def invoke(*args: str):
    return CliRunner().invoke(app, list(args))


def python_diff(path: str, number: int) -> str:
    """A one-hunk diff of `path` changing `x = 0` into `x = number` (no sources needed)."""
    return (
        f"--- a/{path}\n+++ b/{path}\n@@ -1,3 +1,3 @@\n def f():\n-    x = 0\n"
        f"+    x = {number}\n     return x\n"
    )


def patch_dir(root: Path, count: int) -> Path:
    patches = root / "patches"
    patches.mkdir()
    for n in range(count):
        (patches / f"p{n:05d}.diff").write_text(python_diff(f"m{n}.py", n + 1))
    return patches


# --- resume keeps every valid line --------------------------------------------------------


def test_batch_resume_keeps_every_valid_line_after_a_corrupt_middle_line(tmp_path) -> None:
    patches = patch_dir(tmp_path, 6)
    out = tmp_path / "out.jsonl"
    run_batch(patches, out, executor="inline", ordered=True)
    lines = out.read_bytes().splitlines(keepends=True)
    assert len(lines) == 6
    damaged = b'{"id": "p00002", "err\n'  # line 3 of 6 cut short, as by a bad disk
    out.write_bytes(b"".join(lines[:2]) + damaged + b"".join(lines[3:]))

    result = invoke("batch", str(patches), "--out", str(out), "--resume", "--jobs", "1")

    assert result.exit_code == 0, result.output
    assert "line 3 was not a complete record" in result.stderr
    assert "1 written (0 errors), 5 skipped as already done" in result.stderr
    after = out.read_bytes().splitlines(keepends=True)
    # The five valid lines, in their order, then p00002 done again: nothing else.
    assert after[:5] == lines[:2] + lines[3:]
    assert len(after) == 6 and json.loads(after[5])["id"] == "p00002"
    assert json.loads(after[5])["error"] is None


def _fix_repo(root: Path, fixes: int) -> Path:
    """A history: a 20-line module, then `fixes` commits ("fix bug N") each changing
    lines 2 and 19 (two hunks: 16 lines apart, more than twice git's 3 of context)."""
    repo = root / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    lines = [f"v{i} = {i}" for i in range(20)]
    (repo / "mod.py").write_text("\n".join(lines) + "\n")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "start")
    for n in range(1, fixes + 1):
        lines[1] = f"v1 = {100 + n}"
        lines[18] = f"v18 = {200 + n}"
        (repo / "mod.py").write_text("\n".join(lines) + "\n")
        git(repo, "commit", "-qam", f"fix bug {n}")
    return repo


def test_mine_resume_keeps_every_valid_line_after_a_corrupt_middle_line(tmp_path) -> None:
    repo = _fix_repo(tmp_path, 3)
    out = tmp_path / "mined.jsonl"
    assert invoke("mine", str(repo), "--out", str(out)).exit_code == 0
    lines = out.read_bytes().splitlines(keepends=True)
    assert len(lines) == 3
    out.write_bytes(lines[0] + b"not json at all\n" + lines[2])

    result = invoke("mine", str(repo), "--out", str(out), "--resume")

    assert result.exit_code == 0, result.output
    assert "line 2 was not a complete record" in result.stderr
    after = out.read_bytes().splitlines(keepends=True)
    assert after[:2] == [lines[0], lines[2]]
    assert len(after) == 3
    assert json.loads(after[2])["id"] == json.loads(lines[1])["id"]


def test_mine_refuses_an_output_another_run_is_writing(tmp_path) -> None:
    fcntl = pytest.importorskip("fcntl")
    repo = _fix_repo(tmp_path, 1)
    out = tmp_path / "mined.jsonl"
    with out.open("ab") as held:  # as a mine (or batch) still running holds it
        fcntl.flock(held, fcntl.LOCK_EX)
        with pytest.raises(HunkmetricsError, match="another hunkmetrics mine is writing"):
            mine(repo, out, mine_options(), resume=True)
        result = invoke("mine", str(repo), "--out", str(out), "--resume")
    assert result.exit_code == 2
    assert out.read_bytes() == b""


def test_two_concurrent_mines_write_each_id_once(tmp_path) -> None:
    repo = _fix_repo(tmp_path, 6)
    out = tmp_path / "mined.jsonl"
    command = [sys.executable, "-m", "hunkmetrics", "mine", str(repo), "--out", str(out)]
    runs = [subprocess.Popen([*command, "--resume"], stderr=subprocess.PIPE) for _ in range(2)]
    codes = [run.wait(timeout=120) for run in runs]
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    assert len(ids) == len(set(ids)) == 6  # six fixes, each once
    assert sorted(codes) in ([0, 0], [0, 2])  # the loser, if they overlapped, exits 2


# --- workers die with the driver ------------------------------------------------------------


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_sigkill_of_the_batch_driver_ends_its_workers(tmp_path) -> None:
    patches = patch_dir(tmp_path, 3000)
    out = tmp_path / "out.jsonl"
    driver = subprocess.Popen(
        [sys.executable, "-m", "hunkmetrics", "batch", str(patches), "-o", str(out), "-j", "2"],
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while time.monotonic() < deadline and driver.poll() is None:
        workers = {p for p in _children(driver.pid) if _alive(p)}
        if len(workers) >= 2 and out.exists() and out.stat().st_size > 0:
            break
        time.sleep(0.05)
    assert driver.poll() is None, "the batch finished before it could be killed"
    # Its children: the workers, and the resource tracker of the spawn start method.
    driver.send_signal(signal.SIGKILL)
    driver.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(p) for p in workers):
        time.sleep(0.05)
    assert not [p for p in workers if _alive(p)], "workers outlived their driver"


# --- side detection: what git apply accepts -------------------------------------------------


@pytest.fixture
def tree(tmp_path) -> Path:
    repo = tmp_path / "tree"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "m.py").write_text("a = 1\nb = 2\nc = 3\n")
    (repo / "empty.py").write_text("")
    (repo / "t.py").write_text("x = 1\n")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "base")
    return repo


def _diff_of(repo: Path, change, *args: str) -> bytes:
    """The git diff of `change` (applied to the tree), then the tree restored."""
    change()
    diff = git(repo, "diff", *args)
    git(repo, "checkout", "-q", "-f", "--", ".")
    return diff


def _git_applies(repo: Path, diff: bytes) -> bool:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1"}
    done = subprocess.run(
        ["git", "-C", str(repo), "apply", "--check", "--unidiff-zero", "-"],
        input=diff,
        capture_output=True,
        env=env,
    )
    return done.returncode == 0


def test_an_insertion_at_the_top_of_an_existing_file(tree) -> None:
    diff = _diff_of(tree, lambda: (tree / "m.py").write_text("z = 0\na = 1\nb = 2\nc = 3\n"), "-U0")
    assert b"@@ -0,0 +1 @@" in diff and _git_applies(tree, diff)
    for reader in (WorktreeReader(tree), GitRevisionReader(tree, "HEAD")):
        sources = resolve_sources(parse_patch(diff), reader)
        reader.close()
        assert sources.side == "pre"
        texts = sources.files["m.py"]
        assert texts.pre == b"a = 1\nb = 2\nc = 3\n"
        assert texts.post == b"z = 0\na = 1\nb = 2\nc = 3\n"
        assert sources.warnings == ()  # the index line's blob name checked it


def test_a_hunk_adding_to_an_empty_file(tree) -> None:
    diff = _diff_of(tree, lambda: (tree / "empty.py").write_text("y = 2\n"))
    assert b"index e69de29" in diff and _git_applies(tree, diff)
    sources = resolve_sources(parse_patch(diff), WorktreeReader(tree))
    assert sources.side == "pre"
    assert sources.files["empty.py"].pre == b""
    assert sources.files["empty.py"].post == b"y = 2\n"


def test_a_file_emptied_by_a_minus_u0_diff(tree) -> None:
    diff = _diff_of(tree, lambda: (tree / "m.py").write_text(""), "-U0")
    assert b"@@ -1,3 +0,0 @@" in diff and _git_applies(tree, diff)
    sources = resolve_sources(parse_patch(diff), WorktreeReader(tree))
    assert sources.side == "pre"
    assert sources.files["m.py"].pre == b"a = 1\nb = 2\nc = 3\n"
    (tree / "m.py").write_text("")  # the tree holds the post-image: an empty file
    sources = resolve_sources(parse_patch(diff), WorktreeReader(tree))
    assert sources.side == "post"
    assert sources.files["m.py"].pre == b"a = 1\nb = 2\nc = 3\n"


def test_a_type_change_file_to_symlink(tree) -> None:
    def change() -> None:
        (tree / "t.py").unlink()
        (tree / "t.py").symlink_to("m.py")

    diff = _diff_of(tree, change)
    assert diff.count(b"diff --git a/t.py b/t.py") == 2 and _git_applies(tree, diff)
    # The file is deleted; the link that takes its place is no source (the parser keeps
    # no hunk for it), so the path's texts are the file's: its pre-image, then nothing.
    expected_pre = b"x = 1\n"
    sources = resolve_sources(parse_patch(diff), WorktreeReader(tree))
    assert sources.side == "pre"
    assert (sources.files["t.py"].pre, sources.files["t.py"].post) == (expected_pre, None)
    change()  # now the tree holds the post-image: the symbolic link
    sources = resolve_sources(parse_patch(diff), WorktreeReader(tree))
    assert sources.side == "post"
    assert sources.files["t.py"].pre == expected_pre


def test_a_pure_insertion_is_checked_and_flagged_as_unverified(tree) -> None:
    # -U0, no index line: only the insertion point can be checked.
    beyond = b"--- a/m.py\n+++ b/m.py\n@@ -700,0 +701,1 @@\n+d = 4\n"
    with pytest.raises(SourceError, match=r"insertion point, line 700, is past the end"):
        resolve_sources(parse_patch(beyond), WorktreeReader(tree))
    inside = b"--- a/m.py\n+++ b/m.py\n@@ -3,0 +4,1 @@\n+d = 4\n"
    assert _git_applies(tree, inside)
    sources = resolve_sources(parse_patch(inside), WorktreeReader(tree))
    assert sources.files["m.py"].post == b"a = 1\nb = 2\nc = 3\nd = 4\n"
    assert len(sources.warnings) == 1
    assert sources.warnings[0].startswith("m.py: hunk @@ -3,0 +4,1 @@ could not be verified")
    # With an index line, the blob name decides: a wrong one is refused.
    wrong = b"diff --git a/m.py b/m.py\nindex 1234567..89abcde 100644\n" + inside
    with pytest.raises(SourceError, match="blob 1234567 does not match"):
        resolve_sources(parse_patch(wrong), WorktreeReader(tree))


def test_an_unverified_hunk_is_said_in_the_characterize_document(tree, tmp_path) -> None:
    diff = tmp_path / "u0.diff"
    diff.write_bytes(b"--- a/m.py\n+++ b/m.py\n@@ -3,0 +4,1 @@\n+d = 4\n")
    result = invoke("characterize", str(diff), "--repo", str(tree), "--format", "json")
    assert result.exit_code == 0, result.output
    warnings = json.loads(result.stdout)["warnings"]
    assert any(w.startswith("m.py: hunk @@ -3,0 +4,1 @@ could not be verified") for w in warnings)


# --- reading stays inside the root ----------------------------------------------------------


def test_a_symlink_leading_outside_the_tree_is_refused(tmp_path) -> None:
    outside = tmp_path / "secret.txt"
    outside.write_text("one\ntwo\nthree\n")
    root = tmp_path / "root"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "leak.py").symlink_to(outside)
    (root / "away").symlink_to(tmp_path)
    reader = WorktreeReader(root)
    with pytest.raises(SourceError, match="pkg/leak.py: a symbolic link leads outside"):
        reader.read("pkg/leak.py")
    with pytest.raises(SourceError, match="away/secret.txt"):
        reader.read("away/secret.txt")
    assert reader.exists("away/secret.txt") is False
    diff = tmp_path / "p.diff"
    diff.write_text("--- a/pkg/leak.py\n+++ b/pkg/leak.py\n@@ -1 +1 @@\n-one\n+ONE\n")
    result = invoke("characterize", str(diff), "--repo", str(root))
    assert result.exit_code == 2
    assert "pkg/leak.py: a symbolic link leads outside" in result.stderr


def test_a_symlink_inside_the_tree_is_still_followed(tmp_path) -> None:
    (tmp_path / "real.py").write_text("a = 1\n")
    (tmp_path / "alias.py").symlink_to("real.py")
    assert WorktreeReader(tmp_path).read("alias.py") == b"a = 1\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_a_fifo_in_the_tree_is_not_read(tmp_path) -> None:
    os.mkfifo(tmp_path / "pipe.py")
    assert WorktreeReader(tmp_path).read("pipe.py") is None  # returns at once


def test_the_git_reader_takes_spaces_and_non_utf8_names(tmp_path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "my file.py").write_text("a = 1\n")
    (Path(os.fsdecode(bytes(repo) + b"/caf\xe9.py"))).write_text("b = 2\n")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "base")
    reader = GitRevisionReader(repo, "HEAD")
    try:
        assert reader.read("my file.py") == b"a = 1\n"
        assert reader.read("no such file.py") is None  # "<name> missing" has spaces
        assert reader.read("caf\udce9.py") == b"b = 2\n"  # the Latin-1 byte, kept
        assert reader.exists("caf\udce9.py")
    finally:
        reader.close()


# --- export ----------------------------------------------------------------------------------


def test_neutral_cells() -> None:
    assert neutral('=HYPERLINK("http://x")') == '\'=HYPERLINK("http://x")'
    for lead in ("+", "-", "@", "\t", "\r"):
        assert neutral(lead + "cmd") == "'" + lead + "cmd"
    assert neutral("-0.25") == "-0.25"  # a number, not a formula
    assert neutral("+3") == "+3"
    assert neutral("patches/a.diff") == "patches/a.diff"


def test_export_neutralizes_formula_cells_and_keeps_numbers(tmp_path) -> None:
    results = tmp_path / "r.jsonl"
    records = [
        {"id": '=HYPERLINK("http://evil","x")', "error": None, "patch": "@SUM(A1)"},
        {"id": "b", "error": "-bad", "patch": "ok.diff", "divergence": {"value": -0.5}},
    ]
    results.write_text("".join(json.dumps(r) + "\n" for r in records))
    out = tmp_path / "t.csv"
    summary = export(results, out)
    assert (summary.rows, summary.errors) == (2, 1)
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert rows[0]["id"] == '\'=HYPERLINK("http://evil","x")'
    assert rows[0]["patch"] == "'@SUM(A1)"
    assert rows[1]["error"] == "'-bad"
    assert rows[1]["divergence"] == "-0.5"


def test_export_to_an_unwritable_place_is_a_one_line_exit_2(tmp_path) -> None:
    results = tmp_path / "r.jsonl"
    results.write_text('{"id": "a", "error": null}\n')
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = invoke("export", str(results), "--out", str(blocker / "sub" / "t.csv"))
    assert result.exit_code == 2
    assert "cannot write" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == [results, blocker] or set(tmp_path.iterdir()) == {
        results,
        blocker,
    }


def test_export_sorts_by_id_keeping_the_last_line_of_each(tmp_path) -> None:
    results = tmp_path / "r.jsonl"
    lines = [
        {"id": "c", "error": None, "hunk_count": 3},
        {"id": "a", "error": None, "hunk_count": 1},
        {"id": "c", "error": None, "hunk_count": 30},
        {"id": "b", "error": "x"},
    ]
    results.write_text("".join(json.dumps(r) + "\n" for r in lines) + '{"id": "torn')
    out = tmp_path / "t.csv"
    summary = export(results, out)
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert [(r["id"], r["hunk_count"]) for r in rows] == [("a", "1"), ("b", ""), ("c", "30")]
    assert summary.warnings == [
        "skipped 1 torn or invalid line(s)",
        "1 id(s) appear more than once: kept the last line of each",
    ]


# --- what a manifest may point to -----------------------------------------------------------


def test_a_manifest_patch_that_is_a_device_is_an_error_line(tmp_path) -> None:
    manifest = tmp_path / "m.csv"
    manifest.write_text("id,patch\nzero,/dev/zero\n")
    out = tmp_path / "out.jsonl"
    summary = run_batch(manifest, out, executor="inline")
    assert (summary.written, summary.errors) == (1, 1)
    line = json.loads(out.read_text())
    assert line["error"] == "/dev/zero: not a regular file (a device, FIFO or socket)"


# --- a trailing incomplete line -------------------------------------------------------------


def test_a_trailing_incomplete_line_in_the_source(tmp_path) -> None:
    (tmp_path / "e.py").write_bytes(b"x")  # one line, no newline at its end
    diff = b"--- a/e.py\n+++ b/e.py\n@@ -1 +1,2 @@\n x\n+y\n"
    sources = resolve_sources(parse_patch(diff), WorktreeReader(tmp_path))
    assert sources.files["e.py"].post == b"x\ny\n"  # not b"xy\n"
    crlf = b"def f():\r\n    return 1\r\n\r\ndef g():\r\n    return 2"
    (tmp_path / "c.py").write_bytes(crlf)
    diff = (
        b"--- a/c.py\n+++ b/c.py\n@@ -4,2 +4,2 @@\n def g():\n-    return 2\n"
        b"\\ No newline at end of file\n+    return 3\n"
    )
    try:  # was an IndexError: now a result or a one-line SourceError
        resolve_sources(parse_patch(diff), WorktreeReader(tmp_path))
    except SourceError as exc:
        assert "\n" not in str(exc)


def test_the_parent_watchdog_ends_an_orphan(tmp_path) -> None:
    # The portable fallback alone (no prctl): a middle process starts a child that
    # watches it and says when it does; then the middle is SIGKILLed.
    ready = tmp_path / "ready"
    child = (
        "import sys, time; from pathlib import Path; "
        "from hunkmetrics.datasets.executors import watch_parent; "
        "watch_parent(int(sys.argv[1])); Path(sys.argv[2]).touch(); time.sleep(120)"
    )
    middle = (
        "import os, subprocess, sys, time; "
        f"p = subprocess.Popen([sys.executable, '-c', {child!r}, str(os.getpid()), "
        f"{str(ready)!r}]); print(p.pid, flush=True); time.sleep(120)"
    )
    proc = subprocess.Popen([sys.executable, "-c", middle], stdout=subprocess.PIPE)
    assert proc.stdout is not None
    orphan = int(proc.stdout.readline())
    deadline = time.monotonic() + 60
    while not ready.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and _alive(orphan):
        time.sleep(0.05)
    assert not _alive(orphan)


def test_characterize_with_rev_reads_a_non_utf8_file_name(tmp_path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    name = os.fsdecode(b"caf\xe9.py")
    (repo / name).write_text("a = 1\nb = 2\n")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "base")
    (repo / name).write_text("a = 1\nb = 3\n")
    (tmp_path / "d.diff").write_bytes(git(repo, "diff"))  # core.quotepath=false: raw bytes
    git(repo, "checkout", "-q", "--", ".")
    result = invoke(
        "characterize", str(tmp_path / "d.diff"), "--repo", str(repo), "--rev", "HEAD", "-f", "json"
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["source"]["side"] == "pre"


# --- kill and resume at random points -----------------------------------------------------


def _valid_lines(path: Path) -> list[bytes]:
    """The complete record lines of a file a killed run left (a torn tail left out)."""
    if not path.exists():
        return []
    out = []
    for line in path.read_bytes().splitlines(keepends=True):
        try:
            ok = line.endswith(b"\n") and "id" in json.loads(line)
        except ValueError:
            ok = False
        if ok:
            out.append(line)
    return out


def _kill_at(command: list[str], out: Path, lines: int) -> None:
    """Run `command`; SIGKILL it once `out` holds at least `lines` lines (or let it end)."""
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while proc.poll() is None and time.monotonic() < deadline:
        if out.exists() and out.read_bytes().count(b"\n") >= lines:
            proc.send_signal(signal.SIGKILL)
            break
        time.sleep(0.01)
    proc.wait()


def _kill_and_resume(command: list[str], out: Path, total: int, kills: int, seed: int) -> None:
    """Run `command --resume` `kills` times, each SIGKILLed at a random line count, and
    damage a middle line of what every other run left; then once to the end. No run may
    lose a valid line."""
    import random

    rng = random.Random(seed)
    for n in range(kills + 1):
        if n % 2 == 1 and len(_valid_lines(out)) >= 3:  # as a bad disk would
            lines = out.read_bytes().splitlines(keepends=True)
            lines[len(lines) // 2] = b'{"id": "damag\n'
            out.write_bytes(b"".join(lines))
        before = set(_valid_lines(out))
        last = n == kills or len(before) + 1 >= total  # nothing left to stop in between
        stop = total + 1 if last else rng.randint(len(before) + 1, total - 1)
        _kill_at([*command, "--resume"], out, stop)
        assert before <= set(_valid_lines(out)), "a valid line was lost"


def test_batch_killed_at_random_points_writes_every_id_once(tmp_path) -> None:
    patches = patch_dir(tmp_path, 400)
    out = tmp_path / "out.jsonl"
    command = [sys.executable, "-m", "hunkmetrics", "batch", str(patches), "-o", str(out)]
    _kill_and_resume([*command, "-j", "2"], out, 400, kills=4, seed=15)
    ids = [json.loads(line)["id"] for line in out.read_bytes().splitlines()]
    assert sorted(ids) == [f"p{n:05d}" for n in range(400)]


def test_mine_killed_at_random_points_writes_every_commit_once(tmp_path) -> None:
    repo = _fix_repo(tmp_path, 40)
    out = tmp_path / "mined.jsonl"
    command = [sys.executable, "-m", "hunkmetrics", "mine", str(repo), "-o", str(out)]
    _kill_and_resume(command, out, 40, kills=3, seed=15)
    ids = [json.loads(line)["id"] for line in out.read_bytes().splitlines()]
    assert len(ids) == len(set(ids)) == 40
