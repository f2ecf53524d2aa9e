"""No input takes the machine down (issue 24): big diffs read in bounded memory, no pair
structure of n x n, tree-sitter given bounded input and never run out of memory, a
MemoryError said as a resource limit (exit 2), long lists in warnings cut short.

Big inputs are generated here; the memory-bounded runs are subprocesses under an
address-space limit (RLIMIT_AS), set after their imports at their own size plus a margin."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import typer

from hunkmetrics.cli.common import guarded
from hunkmetrics.errors import EXIT_INPUT, ArgumentError
from hunkmetrics.lang.parse_guard import MAX_FRAGMENT_BYTES, MAX_NESTING, nesting, too_large
from hunkmetrics.metrics.birch_artifacts import PublishedArtifacts
from hunkmetrics.metrics.divergence import ARTIFACTS_MAX_HUNKS, compute_divergence
from hunkmetrics.metrics.profiles import profile
from hunkmetrics.patch.lines import split_lines
from hunkmetrics.patch.model import Line, LineKind, PackedLines, pack
from hunkmetrics.patch.parse import parse_patch
from hunkmetrics.shortlist import few

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/status").exists(), reason="needs Linux /proc and RLIMIT_AS"
)

ROOT = Path(__file__).resolve().parent.parent

# Prepended to each child: `limit(margin)` caps the address space at what the process
# maps now plus `margin` bytes.
_LIMIT = """
import resource, sys
sys.path.insert(0, {root!r})
def limit(margin):
    size = [int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmSize")][0]
    resource.setrlimit(resource.RLIMIT_AS, (size * 1024 + margin, resource.RLIM_INFINITY))
"""


def run_child(body: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    script = _LIMIT.format(root=str(ROOT)) + textwrap.dedent(body)
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


def one_hunk_files(count: int) -> str:
    """`count` one-hunk Java files, each changing one line."""
    return "".join(
        f"--- a/p{k % 97}/F{k}.java\n+++ b/p{k % 97}/F{k}.java\n@@ -1 +1 @@\n-a{k}\n+b{k}\n"
        for k in range(count)
    )


# ---- a MemoryError is a resource limit, not an internal error ---------------------------


def test_guarded_turns_memory_error_into_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    def action() -> None:
        raise MemoryError("Unable to allocate 9.31 GiB for an array with shape (100000, 100000)")

    ctx = typer.Context(typer.main.get_command(typer.Typer(callback=lambda: None)))
    with pytest.raises(typer.Exit) as raised:
        guarded(ctx, action)
    assert raised.value.exit_code == EXIT_INPUT == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith("hunkmetrics: error: out of memory: ")
    assert "internal error" not in err and "split the patch" in err


def test_100k_file_diff_under_a_small_memory_limit_is_one_line_exit_2(tmp_path: Path) -> None:
    """100,000 one-hunk files (7 MB) under the process's size + 3 MB: reading the diff
    needs more, and the command says so in one line with exit 2 (not "internal error")."""
    diff = tmp_path / "wide.diff"
    diff.write_text(one_hunk_files(100_000))
    done = run_child(
        """
        from hunkmetrics.cli.app import main
        from hunkmetrics.cli import root, commands  # the command line, imported
        limit(3 << 20)
        sys.argv = ["hunkmetrics", "characterize", sys.argv[1], "--format", "json"]
        main()
        """,
        str(diff),
    )
    assert done.returncode == 2, done.stderr[-2000:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr[-2000:]
    assert lines[0].startswith("hunkmetrics: error: out of memory: this needs more than ")
    assert lines[0].endswith(
        ", the address-space limit the command runs under (ulimit -v); raise it or split the patch"
    )


# ---- no pair structure of n x n --------------------------------------------------------


def test_pair_blocks_of_100k_hunks_stay_linear_under_1_gib() -> None:
    """The tables of 100,000 hunks (100,000 files, one of them also a 20,000-hunk
    same-file group for birch's S), the first block of pairs and the exact pair sum's
    tree, under 1 GiB of address space: one (100000, 100000) bool alone is 9.3 GB."""
    done = run_child(
        """
        import numpy as np
        from hunkmetrics.metrics.divergence import ComputedPairs
        from hunkmetrics.metrics.filelevel import FileDistanceTable
        from hunkmetrics.metrics.lexical import TokenDistanceTable
        from hunkmetrics.metrics.pairsum import PairwiseSum, PairwiseTree
        from hunkmetrics.metrics.profiles.birch_ast import FileBlocksTable
        from hunkmetrics.metrics.structural import BagDistanceTable
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, resource.RLIM_INFINITY))
        n = 100_000
        files = FileDistanceTable([f"src/p{k % 97}/F{k}.java" for k in range(n)])
        lexical = TokenDistanceTable([["int", "a", "=", str(k % 50)] for k in range(n)])
        bags = BagDistanceTable([{"decl": 1 + k % 2} for k in range(n)], ["java"] * n)
        same_file = FileBlocksTable(n)
        same_file.set(list(range(0, n, 5)), bags)  # 20,000 hunks: 4e8 cells, not kept
        pairs = ComputedPairs(np.arange(n), lexical, same_file, files, 2.0)
        block = next(pairs.blocks())
        total = PairwiseSum(PairwiseTree(pairs.count))
        total.add(block.pair_value)
        head = [*block.pair_value[:5].tolist(), *block.structural[:5].tolist()]
        print(pairs.count, len(block), *head)
        """
    )
    assert done.returncode == 0, done.stderr[-2000:]
    count, size, *values = done.stdout.split()
    assert int(count) == 100_000 * 99_999 // 2
    assert int(size) > 0
    # hunk 0 against 1..5: L = 1 token of 4 differs = 0.25; F = 1 - (1 - 1)/3 = 1 (only
    # "src" shared); g = 2 across files; S = 1 across files, except hunk 5 (same group as
    # hunk 0): bags {decl: 1} and {decl: 2} -> 1 - 1/2 = 0.5.
    pair_values = [float(v) for v in values[:5]]
    structural = [float(v) for v in values[5:]]
    assert structural == [1.0, 1.0, 1.0, 1.0, 0.5]
    assert pair_values == [0.25 * (1.0 + 2.0 * 1.0) / 3.0] * 4 + [0.25 * (0.5 + 2.0) / 3.0]


def test_published_artifacts_are_refused_past_their_bound() -> None:
    patch = parse_patch(one_hunk_files(ARTIFACTS_MAX_HUNKS + 1))
    with pytest.raises(ArgumentError, match=r"up to 2,000 hunks; this one has 2,001"):
        compute_divergence(patch, profile="birch", artifacts=PublishedArtifacts(key_order=True))


# ---- what tree-sitter is given ---------------------------------------------------------


def test_fragment_bounds() -> None:
    assert too_large(["x" * 100] * 100) is None
    assert too_large(["x" * (MAX_FRAGMENT_BYTES + 1)]) is not None
    # 512 open at once is parsed, 513 is not; closed ones do not add up
    assert nesting(["(" * 512 + ")" * 512] * 3) == 512
    assert too_large(["(" * MAX_NESTING + ")" * MAX_NESTING] * 3) is None
    assert "nest 513 brackets deep" in (too_large(["{" * 513]) or "")


def test_a_hunk_too_big_or_too_deep_is_not_parsed_but_located_at_file_level(
    tmp_path: Path,
) -> None:
    deep = "x = " + "(" * 20_000 + ";"
    diff = tmp_path / "deep.diff"
    diff.write_text(
        "--- a/A.java\n+++ b/A.java\n@@ -1,2 +1,2 @@\n class A {\n"
        f"-{deep}\n+int y;\n--- a/B.java\n+++ b/B.java\n@@ -1,3 +1,3 @@\n"
        " class B {\n   void f() {\n-    a();\n+    b();\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "hunkmetrics", "hunks", str(diff), "--format", "json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    first, second = json.loads(done.stdout)["hunks"]
    assert first["placed"] is False
    assert "nest 20,001 brackets deep" in first["note"], first  # `class A {` + 20,000 (
    assert second["class"] == "B" and second["method"] == "B.f()", second


def test_no_room_for_a_tree_is_a_memory_error_not_a_crash() -> None:
    """tree-sitter segfaults when an allocation fails: under the process's size + 64 MB,
    a 3.6 MB Java source (a tree of about 240 MB) is refused with a MemoryError first."""
    done = run_child(
        """
        import tree_sitter as ts, tree_sitter_java
        from hunkmetrics.lang.parse_guard import parse
        parser = ts.Parser(ts.Language(tree_sitter_java.language()))
        data = b"class A { void f() { int a = 1; } }\\n" * 100_000
        limit(64 << 20)
        print(parse(parser, b"class B {}").root_node.type)
        try:
            parse(parser, data)
        except MemoryError:
            print("MemoryError")
        """
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert done.stdout.split() == ["program", "MemoryError"]


# ---- reading a patch --------------------------------------------------------------------


def test_diff_lines_split_as_str_split() -> None:
    """Whatever chunks the bytes come in (a byte at a time, a line cut anywhere)."""
    for raw in [b"", b"a", b"a\n", b"a\nb", b"a\n\n", b"\n", b"a\r\nb\n\xff\n", b"\xc3\xa9\nx\r"]:
        expected = raw.decode("utf-8", "surrogateescape").split("\n")
        if expected[-1] == "":
            expected.pop()
        for size in (1, 2, 3, len(raw) or 1):
            chunks = [raw[k : k + size] for k in range(0, len(raw), size)]
            assert list(split_lines(chunks)) == expected, (raw, size)
        # CRLF read as LF: only a CR that a LF follows goes.
        as_lf = raw.replace(b"\r\n", b"\n").decode("utf-8", "surrogateescape").split("\n")
        if as_lf[-1] == "":
            as_lf.pop()
        assert list(split_lines([raw], crlf=True)) == as_lf, raw


def test_a_raised_size_cap_reserves_nothing_and_reading_stays_bounded(tmp_path: Path) -> None:
    """With the cap at 1 TB a patch is read (the cap is not reserved up front), and
    parsing 100 files of one 1,000-line hunk (4.6 MB, lines of 40 characters) grows the
    process by under 7 times the diff's size: no decoded copy and no list of all lines
    (before: 9 times); what remains is one Line object per line."""
    line = "x" * 38
    body = "".join(f"-{line}\n+{line}\n" for _ in range(500))
    diff = tmp_path / "long.diff"
    diff.write_text(
        "".join(f"--- a/f{k}.txt\n+++ b/f{k}.txt\n@@ -1,500 +1,500 @@\n{body}" for k in range(100))
    )
    size = diff.stat().st_size
    done = run_child(
        """
        from hunkmetrics.patch.parse import read_patch_bytes, parse_patch
        def hwm():
            status = open("/proc/self/status").read().split("VmHWM:")[1]
            return int(status.split()[0]) * 1024
        limit(128 << 20)
        data = read_patch_bytes(sys.argv[1], max_bytes=1 << 40)
        before = hwm()
        patch = parse_patch(data)
        print(len(patch.hunks), hwm() - before)
        """,
        str(diff),
    )
    assert done.returncode == 0, done.stderr[-2000:]
    hunks, grown = map(int, done.stdout.split())
    assert hunks == 100
    assert grown < 7 * size, grown / size


# ---- long lists in warnings --------------------------------------------------------------


def test_few_names_a_few_and_says_how_many() -> None:
    assert few([]) == ""
    assert few([0, 1, 2]) == "0,1,2"
    assert few(range(12)) == "0,1,2,3,4,5,6,7,8,9,10,11"
    assert few(range(3000)) == "0,1,2,3,4 … (2,995 more; 3,000 in all)"
    assert few(["a.py", "b.py"] * 10, sep=", ", shown=3) == (
        "a.py, b.py, a.py … (17 more; 20 in all)"
    )


def test_a_3000_file_patch_warns_in_one_short_line() -> None:
    added = "".join(
        f"--- /dev/null\n+++ b/src/F{k}.java\n@@ -0,0 +1 @@\n+class F{k} {{}}\n"
        for k in range(3000)
    )
    note = profile("birch").dropped_note([h.index for h in parse_patch(added).hunks])
    assert note == (
        "hunks 0,1,2,3,4 … (2,995 more; 3,000 in all): whole-file sections, not counted in "
        "the birch profile"
    )


def test_packed_lines_are_the_lines_they_pack() -> None:
    diff = (
        "--- a/x.txt\n+++ b/x.txt\n@@ -9,3 +9,3 @@\n a\r\n-b\n+c\n \n\\ No newline at end of file\n"
    )
    hunk = parse_patch(diff).hunks[0]
    expected = (
        Line(LineKind.CONTEXT, "a", 9, 9, "\r\n"),
        Line(LineKind.REMOVED, "b", 10, None, "\n"),
        Line(LineKind.ADDED, "c", None, 10, "\n"),
        Line(LineKind.CONTEXT, "", 11, 11, ""),
    )
    assert isinstance(hunk.lines, PackedLines)
    assert hunk.lines == expected and expected == hunk.lines
    assert hash(hunk.lines) == hash(expected) and len(hunk.lines) == 4
    assert hunk.lines[1] == expected[1] and hunk.lines[-1] == expected[-1]
    assert hunk.lines[1:3] == expected[1:3]
    assert list(pack([])) == [] and pack(expected) == expected
