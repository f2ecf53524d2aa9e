"""Localization (spec: "Localization"): does a candidate (agent) patch touch every file the
reference (developer) patch does — and which hunks and methods?

- file_superset: the candidate's modified files ⊇ the reference's; an empty or
  unparseable candidate does not localize;
- missed / extra files;
- hunk_recall: share of reference hunks whose changed lines (pre-image; for a pure
  addition the insertion point) overlap a candidate hunk in the same file;
- method_recall: share of the reference's methods the candidate touches (needs sources).

The patch pairs in fixtures/localization/ were made for real against
fixtures/java-project with a one-off script (not kept in the repository):

    cp -r fixtures/java-project W && cd W && git init && git add -A && git commit -m base
    git tag base
    for each patch: git reset --hard base && git clean -fd, edit the lines listed below,
    git add -A && git diff --cached [-U0 | -M] base > fixtures/localization/<name>.diff

(agent_empty.diff is an empty file.) The edits, in pre-image line numbers of base:

dev_quantity_fix.diff (the developer, -U3), three one-line fixes:
    Inventory.java 58  (in add(String,int), 56-67)    exception message
    Inventory.java 87  (in remove(String,int), 85-97) `quantity <= 0 ||` added
    CsvReader.java 47  (in readBatches(), 26-54)      raw.replace("_", "")
dev_quantity_fix_with_test.diff: the same + a new src/test/java/com/acme/core/InventoryTest.java
dev_two_lines_one_hunk.diff (-U3): Inventory.java 58 and 62 (both in add(String,int));
    only lines 59-61 lie between them, so git makes ONE hunk (@@ -55,11) with changed
    lines {58, 62}.
agent_superset_extra_file.diff: Inventory 58 and 87 (other text), CsvReader 47, and
    Strings.java 20 (normalizeSku) — a file the developer did not touch.
agent_missed_csvreader.diff: Inventory 58 and 87 only.
agent_wrong_methods_partly.diff: Inventory 71 (addAll(String...)), Inventory 87
    (remove — right), CsvReader 58 (loadInto(Inventory)).
agent_wrong_methods_only.diff: Inventory 71 and CsvReader 58.
agent_renames_csvreader.diff (git diff -M): Inventory 58 and 87, and CsvReader.java
    renamed to CsvBatchReader.java with lines 14, 22 (class/constructor name) and 47.
agent_u0_near_lines.diff (-U0): Inventory 60 (in add(String,int), but not line 58),
    Inventory 86-87 (remove), and CsvReader: one line inserted after line 47.
agent_with_own_test.diff: the developer's three edits + a new src/test/java/com/acme/FooTest.java.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from gitrepo import FIXTURES, build_fixture_repo, git, needs_unidiff_zero
from typer.testing import CliRunner

import hunkmetrics
from hunkmetrics.cli.app import app
from hunkmetrics.metrics.localization import file_key, is_test_file

PAIRS = FIXTURES / "localization"
INV = "src/main/java/com/acme/core/Inventory.java"
CSV = "src/main/java/com/acme/io/CsvReader.java"
STRINGS = "src/main/java/com/acme/core/util/Strings.java"
INVENTORY_TEST = "src/test/java/com/acme/core/InventoryTest.java"
FOO_TEST = "src/test/java/com/acme/FooTest.java"

ADD = "com.acme.core.Inventory.add(String,int)"
REMOVE = "com.acme.core.Inventory.remove(String,int)"
READ = "com.acme.io.CsvReader.readBatches()"

DEV = PAIRS / "dev_quantity_fix.diff"
runner = CliRunner()


@pytest.fixture(scope="module")
def java_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """fixtures/java-project as a git repository; the pre-image is the tag `base`."""
    return build_fixture_repo(tmp_path_factory.mktemp("localization"), "java-project").path


def _loc(
    reference: str | Path, candidate: str | Path | bytes, repo: Path | None = None, **options
) -> hunkmetrics.LocalizationResult:
    ref = reference if isinstance(reference, Path) else PAIRS / reference
    cand = candidate if isinstance(candidate, Path | bytes) else PAIRS / candidate
    source = (repo, "base") if repo is not None else None
    return hunkmetrics.localization(ref, cand, source=source, **options)


def _methods(entries: tuple[str, ...], *names: str) -> bool:
    """`entries` name exactly the methods `names` (however they are prefixed by file)."""
    return len(entries) == len(names) and all(
        sum(1 for e in entries if e.endswith(name)) == 1 for name in names
    )


def test_every_pair_file_is_a_real_patch_of_the_java_project(tmp_path: Path) -> None:
    repo = tmp_path / "java"
    shutil.copytree(FIXTURES / "java-project", repo)
    git(repo, "init", "--quiet")
    patches = sorted(PAIRS.glob("*.diff"))
    assert len(patches) == 11
    for patch in patches:
        if patch.stat().st_size == 0:
            assert patch.name == "agent_empty.diff"
            continue
        extra = ["--unidiff-zero"] if needs_unidiff_zero(patch) else []
        git(repo, "apply", "--check", *extra, str(patch))


# --------------------------------------------------------------------------------------
# File level, hunks and methods — hand answers against dev_quantity_fix.diff
# (reference hunks: Inventory {58}, Inventory {87}, CsvReader {47}; reference methods:
# add(String,int), remove(String,int), readBatches()).
# --------------------------------------------------------------------------------------


def test_superset_with_an_extra_file(java_repo: Path) -> None:
    # Candidate files {Inventory, Strings, CsvReader} ⊇ {Inventory, CsvReader} → True;
    # extra: Strings.java. Candidate hunks at 58, 87 (Inventory) and 47 (CsvReader)
    # overlap all three reference hunks → 3/3; it touches all three methods → 3/3.
    result = _loc(DEV, "agent_superset_extra_file.diff", java_repo)
    assert result.file_superset is True
    assert result.reference_files == (INV, CSV)
    assert set(result.candidate_files) == {INV, STRINGS, CSV}
    assert result.missed_files == ()
    assert result.extra_files == (STRINGS,)
    assert (result.hunks_found, result.reference_hunks) == (3, 3)
    assert result.hunk_recall == 1.0
    assert _methods(result.reference_methods, ADD, REMOVE, READ)
    assert _methods(result.methods_found, ADD, REMOVE, READ)
    assert result.method_recall == 1.0
    assert result.candidate_error is None


def test_one_missed_file(java_repo: Path) -> None:
    # Candidate only touches Inventory.java → not a superset, missed CsvReader.java.
    # Hunks: 58 and 87 found, 47 (CsvReader) not → 2/3. Methods: add, remove → 2/3.
    result = _loc(DEV, "agent_missed_csvreader.diff", java_repo)
    assert result.file_superset is False
    assert result.missed_files == (CSV,)
    assert result.extra_files == ()
    assert (result.hunks_found, result.reference_hunks) == (2, 3)
    assert result.hunk_recall == pytest.approx(2 / 3)
    assert _methods(result.methods_found, ADD, REMOVE)
    assert result.method_recall == pytest.approx(2 / 3)


def test_right_files_partly_wrong_methods(java_repo: Path) -> None:
    # Files {Inventory, CsvReader}: superset. Candidate changed lines: Inventory {71},
    # {87}; CsvReader {58}. Reference {58}: no ({71} and {87} don't contain it);
    # {87}: yes; CsvReader {47}: no ({58}) → 1/3. Methods: candidate touches
    # addAll(String...), remove(String,int), loadInto(Inventory); of the reference's
    # three only remove → 1/3.
    result = _loc(DEV, "agent_wrong_methods_partly.diff", java_repo)
    assert result.file_superset is True
    assert result.missed_files == () and result.extra_files == ()
    assert (result.hunks_found, result.reference_hunks) == (1, 3)
    assert result.hunk_recall == pytest.approx(1 / 3)
    assert _methods(result.methods_found, REMOVE)
    assert result.method_recall == pytest.approx(1 / 3)


def test_right_files_only_wrong_methods(java_repo: Path) -> None:
    # Files {Inventory, CsvReader}: superset, yet no hunk and no method right:
    # Inventory {71} vs {58}, {87}; CsvReader {58} vs {47} → 0/3; methods
    # addAll(String...), loadInto(Inventory) → 0/3.
    result = _loc(DEV, "agent_wrong_methods_only.diff", java_repo)
    assert result.file_superset is True
    assert result.hunk_recall == 0.0
    assert result.hunks_found == 0
    assert result.methods_found == ()
    assert result.method_recall == 0.0


def test_empty_candidate(java_repo: Path) -> None:
    # An empty agent patch localizes nothing: not a superset, both reference files
    # missed, 0 of 3 hunks, 0 of 3 methods, and the reason is kept.
    assert (PAIRS / "agent_empty.diff").read_bytes() == b""
    result = _loc(DEV, "agent_empty.diff", java_repo)
    assert result.file_superset is False
    assert result.candidate_error
    assert "empty" in result.candidate_error
    assert result.candidate_files == ()
    assert result.missed_files == (INV, CSV)
    assert (result.hunks_found, result.reference_hunks) == (0, 3)
    assert result.hunk_recall == 0.0
    assert result.method_recall == 0.0
    data = result.to_dict()
    assert data["file_superset"] is False and data["candidate_error"]


def test_unparseable_candidate() -> None:
    result = _loc(DEV, b"this is what the agent said instead of a diff\n")
    assert result.file_superset is False
    assert result.candidate_error
    assert result.hunk_recall == 0.0


def test_candidate_that_renames_the_file_it_fixes(java_repo: Path) -> None:
    # git diff -M: CsvReader.java → CsvBatchReader.java with the fix at line 47. Files
    # compare by pre-image path, so the candidate touches CsvReader.java: superset, no
    # extra file (the new name is not "extra"). Its CsvReader hunks have changed lines
    # {14, 22} and {47} → the reference's {47} is found; with Inventory 58, 87 → 3/3.
    # Methods: add, remove, readBatches (pre-image names) → 3/3.
    text = (PAIRS / "agent_renames_csvreader.diff").read_text(encoding="utf-8")
    assert "rename from " + CSV in text
    renamed = next(
        f
        for f in hunkmetrics.read_patch(PAIRS / "agent_renames_csvreader.diff").files
        if f.old_path == CSV
    )
    assert renamed.new_path == "src/main/java/com/acme/io/CsvBatchReader.java"
    assert file_key(renamed) == CSV
    result = _loc(DEV, "agent_renames_csvreader.diff", java_repo)
    assert result.file_superset is True
    assert result.candidate_files == (INV, CSV)
    assert result.missed_files == () and result.extra_files == ()
    assert result.hunk_recall == 1.0
    assert result.method_recall == 1.0


def test_hunk_overlap_in_pre_image_coordinates_u0_against_u3(java_repo: Path) -> None:
    # Reference (-U3) changed lines: Inventory {58} (hunk @@ -55,7), {87} (@@ -84,7),
    # CsvReader {47} (@@ -44,7). Candidate (-U0): Inventory {60}, {86, 87}; CsvReader
    # a pure insertion after line 47 → its changed line is the insertion point 47.
    #   {58} vs {60}, {86,87}: no — line 60 is only in the reference's context;
    #   {87} vs {86,87}: yes;
    #   {47} vs {47}: yes.
    # → 2/3. Methods: line 60 is in add(String,int) (56-67), 86-87 in remove, the gap
    # 47/48 in readBatches → all three → 3/3.
    result = _loc(DEV, "agent_u0_near_lines.diff", java_repo)
    assert result.file_superset is True
    assert (result.hunks_found, result.reference_hunks) == (2, 3)
    assert result.hunk_recall == pytest.approx(2 / 3)
    assert result.method_recall == 1.0


def test_hunk_overlap_uses_changed_lines_not_the_span_between_them(java_repo: Path) -> None:
    # Reference: ONE -U3 hunk (@@ -55,11) whose changed lines are {58, 62}; lines 59-61
    # are unchanged context between them. Candidate (-U0): Inventory {60} and {86, 87},
    # CsvReader insertion after 47. Line 60 is not one of the reference's changed lines
    # (the developer did not change it), and the -U0 candidate hunk is exactly line 60,
    # so nothing overlaps: 0/1. (Exported with -U0 the same reference would be two
    # hunks, {58} and {62}, and also 0/2.) File level: {Inventory} ⊆ {Inventory,
    # CsvReader}, extra CsvReader. Methods: reference add(String,int); the candidate
    # touches it at line 60 → 1/1.
    result = _loc("dev_two_lines_one_hunk.diff", "agent_u0_near_lines.diff", java_repo)
    assert result.file_superset is True
    assert result.extra_files == (CSV,)
    assert result.method_recall == 1.0
    assert result.reference_hunks == 1
    assert result.hunks_found == 0
    assert result.hunk_recall == 0.0


def test_method_recall_without_sources_is_none_with_a_reason() -> None:
    # File and hunk levels need no sources (3/3 here), methods do.
    result = _loc(DEV, "agent_superset_extra_file.diff")
    assert result.file_superset is True
    assert result.hunk_recall == 1.0
    assert result.method_recall is None
    assert result.method_recall_reason
    assert "source" in result.method_recall_reason
    data = result.to_dict()
    assert data["method_recall"] is None and data["method_recall_reason"]


# --------------------------------------------------------------------------------------
# Test files.
# --------------------------------------------------------------------------------------


def test_exclude_tests_on_the_candidate_side(java_repo: Path) -> None:
    # The candidate = the developer's three edits + FooTest.java (new, a test file).
    # Counted: an extra file. Excluded: the candidate's files are the developer's.
    counted = _loc(DEV, "agent_with_own_test.diff", java_repo, exclude_tests=False)
    assert counted.file_superset is True
    assert counted.extra_files == (FOO_TEST,)
    assert FOO_TEST in counted.candidate_files
    excluded = _loc(DEV, "agent_with_own_test.diff", java_repo, exclude_tests=True)
    assert excluded.file_superset is True
    assert excluded.extra_files == ()
    assert excluded.candidate_files == (INV, CSV)
    assert excluded.exclude_tests is True and excluded.to_dict()["exclude_tests"] is True


def test_exclude_tests_on_the_reference_side(java_repo: Path) -> None:
    # The reference adds InventoryTest.java (one hunk, @@ -0,0 +1,15) besides the three
    # fixes; the candidate makes only the three fixes.
    # Counted: missed InventoryTest.java → not a superset; hunks 3 of 4 (the new file's
    # hunk has no candidate hunk in that file).
    # Excluded: superset; hunks 3 of 3.
    counted = _loc("dev_quantity_fix_with_test.diff", DEV, java_repo, exclude_tests=False)
    assert counted.file_superset is False
    assert counted.missed_files == (INVENTORY_TEST,)
    assert (counted.hunks_found, counted.reference_hunks) == (3, 4)
    assert counted.hunk_recall == 0.75
    excluded = _loc("dev_quantity_fix_with_test.diff", DEV, java_repo, exclude_tests=True)
    assert excluded.file_superset is True
    assert excluded.missed_files == ()
    assert excluded.reference_files == (INV, CSV)
    assert (excluded.hunks_found, excluded.reference_hunks) == (3, 3)
    assert excluded.method_recall == 1.0


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        # Java: *Test.java, anything under src/test/.
        ("src/test/java/com/acme/FooTest.java", True),
        ("src/test/java/com/acme/core/InventoryTest.java", True),
        ("src/test/java/com/acme/support/Fixtures.java", True),
        ("src/main/java/com/acme/core/InventoryTest.java", True),
        ("src/main/java/com/acme/core/Inventory.java", False),
        ("src/main/java/com/acme/core/Contest.java", False),
        # Python: test_*.py anywhere, anything under tests/.
        ("tests/test_cart.py", True),
        ("test_cart.py", True),
        ("src/shop/test_cart.py", True),
        ("tests/helpers.py", True),
        ("src/shop/tests/helpers.py", True),
        ("src/shop/cart.py", False),
        ("src/shop/latest.py", False),
        # Go: *_test.go.
        ("pkg/cart/cart_test.go", True),
        ("cart_test.go", True),
        ("pkg/cart/cart.go", False),
        # JavaScript: *.test.js, anything under a __tests__/ directory (Jest's convention,
        # also at the top of the repository).
        ("src/cart.test.js", True),
        ("src/__tests__/cart.js", True),
        ("__tests__/cart.js", True),
        ("src/cart.js", False),
    ],
)
def test_is_test_file(path: str, expected: bool) -> None:
    assert is_test_file(path) is expected


# --------------------------------------------------------------------------------------
# The command line and characterize.
# --------------------------------------------------------------------------------------


def _cli(*args: str):
    return runner.invoke(app, ["localization", *args])


def test_cli_json_document(java_repo: Path) -> None:
    result = _cli(
        "--reference",
        str(DEV),
        "--candidate",
        str(PAIRS / "agent_missed_csvreader.diff"),
        "--repo",
        str(java_repo),
        "--rev",
        "base",
        "--format",
        "json",
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["schema"] == "hunkmetrics/localization/v1"
    loc = document["localization"]
    assert loc["file_superset"] is False
    assert loc["missed_files"] == [CSV]
    assert (loc["hunks_found"], loc["reference_hunks"]) == (2, 3)
    assert loc["method_recall"] == pytest.approx(2 / 3)


def test_cli_table_mentions_missed_files() -> None:
    result = _cli(
        "--reference", str(DEV), "--candidate", str(PAIRS / "agent_missed_csvreader.diff")
    )
    assert result.exit_code == 0, result.output
    assert "missed" in result.stdout
    assert "CsvReader.java" in result.stdout


def test_cli_table_lists_extra_files() -> None:
    result = _cli(
        "--reference", str(DEV), "--candidate", str(PAIRS / "agent_superset_extra_file.diff")
    )
    assert result.exit_code == 0, result.output
    assert "Strings.java" in result.stdout
    assert "missed" not in result.stdout


def test_cli_empty_candidate_is_a_result_not_an_error() -> None:
    result = _cli(
        "--reference", str(DEV), "--candidate", str(PAIRS / "agent_empty.diff"), "--format", "json"
    )
    assert result.exit_code == 0, result.output
    loc = json.loads(result.stdout)["localization"]
    assert loc["file_superset"] is False
    assert loc["candidate_error"]
    assert loc["hunk_recall"] == 0.0


def test_cli_exclude_tests() -> None:
    result = _cli(
        "--reference",
        str(PAIRS / "dev_quantity_fix_with_test.diff"),
        "--candidate",
        str(DEV),
        "--exclude-tests",
        "--format",
        "json",
    )
    assert result.exit_code == 0, result.output
    loc = json.loads(result.stdout)["localization"]
    assert loc["file_superset"] is True and loc["exclude_tests"] is True


def test_cli_missing_reference_exits_2(tmp_path: Path) -> None:
    result = _cli("--reference", str(tmp_path / "nope.diff"), "--candidate", str(DEV))
    assert result.exit_code == 2


def test_characterize_with_a_reference(java_repo: Path) -> None:
    result = hunkmetrics.characterize(
        PAIRS / "agent_missed_csvreader.diff", reference=DEV, source=(java_repo, "base")
    )
    assert result.localization is not None
    assert result.localization.missed_files == (CSV,)
    loc = result.to_dict()["localization"]
    assert loc["file_superset"] is False
    assert loc["method_recall"] == pytest.approx(2 / 3)
