"""Spatial proximity (spec: "Spatial proximity"): Nucleus, Cluster, Orbit, Sprawl, Fragment.

Every expected class below is worked out by hand from fixtures/expected/<stem>.json (the
hand-located method of each hunk) and the file paths, never by running the code.

The rules, checked in order:
1. all hunks in one file: Nucleus if all lie in one and the same method, else Cluster;
2. all files in one package: Orbit;
3. Sprawl if every pair of hunks shares MORE than `cutoff` leading package segments,
   else Fragment.
Profile `default`: package = the file's directory segments, cutoff =
floor(median package depth over the hunks / 2). Profile `birch`: package = the path's
segments without the first and the last, cutoff 3. Fewer than two hunks: no class.

Package shorthands used in the comments (default profile, directory segments):
    core  = src/main/java/com/acme/core        6 segments
    util  = src/main/java/com/acme/core/util   7 segments
    io    = src/main/java/com/acme/io          6 segments
    other = src/main/java/org/other            5 segments
    shop  = src/shop                           2 segments
    pricing = src/shop/pricing                 3 segments
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from gitrepo import FIXTURES, PATCHES, build_fixture_repo, git
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import hunkmetrics
from hunkmetrics.cli.app import app
from hunkmetrics.metrics.proximity import default_cutoff, proximity_package

INV = "src/main/java/com/acme/core/Inventory.java"
CORE = ("src", "main", "java", "com", "acme", "core")
runner = CliRunner()


@pytest.fixture(scope="module")
def repos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The fixture projects as git repositories, the pre-image tagged `base`."""
    root = tmp_path_factory.mktemp("proximity")
    return {
        project: build_fixture_repo(root, project).path
        for project in ("java-project", "python-project")
    }


def _repo_for(stem: str, repos: dict[str, Path]) -> Path:
    return repos["java-project" if stem.startswith("java_") else "python-project"]


def _with_sources(stem: str, repos: dict[str, Path], **options) -> hunkmetrics.ProximityResult:
    """The proximity of fixture patch `stem`, located from its project at `base`."""
    return hunkmetrics.proximity(
        PATCHES / f"{stem}.diff", source=(_repo_for(stem, repos), "base"), **options
    )


# --------------------------------------------------------------------------------------
# Every fixture patch, default profile, located from sources at `base`.
# --------------------------------------------------------------------------------------

HAND_CLASS: dict[str, str | None] = {
    # Inventory.java ×2 (core), PricePolicy.java (core), Status.java (core), Retry.java
    # (util): 4 files, 2 packages. Depths 6,6,6,6,7 → median 6 → cutoff 3. Pairs share
    # at least core = 6 segments (core vs util); 6 > 3 → Sprawl, prefix
    # src/main/java/com/acme/core.
    "java_anonymous_classes": "Sprawl",
    # 3 hunks in Inventory.java: static initializer (no method), instance initializer
    # (no method), constructor Inventory(String,int) → one file, not one method → Cluster.
    "java_ctor_initializers": "Cluster",
    # LegacyBridge.java (deleted, other) + Telemetry.java (other): 2 files, one package
    # src/main/java/org/other → Orbit (default counts every content hunk).
    "java_deleted_file": "Orbit",
    # One hunk (spanning find and snapshot) → fewer than two hunks → no class.
    "java_hunk_spans_two_methods": None,
    # 3 hunks in Inventory.java: an import (no class), fields of Inventory, a field of
    # Auditor — no hunk in a method → Cluster.
    "java_import_and_field": "Cluster",
    # 3 hunks in Inventory.java, in lambdas of three different methods: addAll(Map),
    # find(Predicate,int), Auditor.changed(String,int) → Cluster.
    "java_lambdas": "Cluster",
    # Inventory.java ×2 (core: Summary.total(), Auditor.changed), Strings.java (util:
    # Splitter.flush()). 2 files, 2 packages. Depths 6,6,7 → median 6 → cutoff 3.
    # core vs util share 6 > 3 → Sprawl, prefix src/main/java/com/acme/core.
    "java_nested_classes": "Sprawl",
    # CsvReader.java (io) + JsonFormat.java (new, io): 2 files in one package → Orbit.
    "java_new_file": "Orbit",
    # Inventory.java ×2 (core: the overloads add(String), add(String,int)), Strings.java
    # ×2 (util: pad(String,int), pad(String,int,char)). Depths 6,6,7,7 → median 6.5 →
    # floor(3.25) = 3. core vs util share 6 > 3 → Sprawl.
    "java_overloads": "Sprawl",
    # Retry.java (util, 7 segments), Telemetry.java ×2 (other, 5). Depths 7,5,5 →
    # median 5 → cutoff floor(2.5) = 2. util vs other share src/main/java = 3 > 2 →
    # Sprawl, prefix src/main/java (the directory package counts src/main/java!).
    "java_packages_far": "Sprawl",
    # Inventory.java (core, 6), Strings.java (util, 7), CsvReader.java (io, 6). Depths
    # 6,7,6 → median 6 → cutoff 3. core–util 6, core–io 5, util–io 5: min 5 > 3 →
    # Sprawl, prefix src/main/java/com/acme.
    "java_packages_near": "Sprawl",
    # 3 hunks in Inventory.java: between methods (none), inside fire(String,int),
    # between Summary's methods (none) → Cluster.
    "java_pure_addition": "Cluster",
    # 2 hunks in Inventory.java: add(String,int) and Auditor.changed(String,int) → Cluster.
    "java_pure_deletion": "Cluster",
    # Renamed file TextFormat.java → PlainTextFormat.java: both hunks are in that one
    # file; hunk 0 touches the class line and two constructors (no single method),
    # hunk 1 is in cell(String) → Cluster.
    "java_rename_with_edits": "Cluster",
    # Order.java, PricePolicy.java, Status.java ×2: 3 files, all core → Orbit.
    "java_several_files_one_package": "Orbit",
    # 3 hunks in Inventory.java: add(String,int), addAll(String...), remove(String,int)
    # → Cluster; the -U0 export has the same three hunks → Cluster; the -U10 export
    # merges the first two (hunk 0 spans two methods, hunk 1 in remove) → Cluster.
    "java_several_methods_one_file": "Cluster",
    "java_several_methods_one_file_u0": "Cluster",
    "java_several_methods_one_file_u10": "Cluster",
    # 2 hunks in CsvReader.java, both in readBatches() → Nucleus.
    "java_two_hunks_one_method": "Nucleus",
    # cart.py (shop, 2), currency.py (pricing, 3), rules.py (pricing, 3). Depths 2,3,3
    # → median 3 → cutoff 1. shop vs pricing share src/shop = 2 > 1 → Sprawl.
    "python_import_change": "Sprawl",
    # 3 hunks in cart.py: Cart.Line.subtotal, Cart.Line.merge, Cart.add → Cluster.
    "python_nested_class": "Cluster",
    # 3 hunks in rules.py: register.decorate, threshold_rule.reached, threshold_rule —
    # a nested function is its own callable → three methods → Cluster.
    "python_nested_function": "Cluster",
    # cart.py (shop, 2), currency.py (pricing, 3), rules.py (pricing, 3): as
    # python_import_change, cutoff 1, min shared 2 → Sprawl.
    "python_pure_addition": "Sprawl",
    # 2 hunks in rules.py, both in PricingEngine.checkout(self,cart) → Nucleus.
    "python_two_hunks_one_method": "Nucleus",
    # __init__.py (shop, 2), cart.py (shop, 2), currency.py (pricing, 3). Depths 2,2,3 →
    # median 2 → cutoff 1. min shared 2 (src/shop) > 1 → Sprawl.
    "python_two_packages": "Sprawl",
}


def test_every_fixture_patch_has_a_hand_answer() -> None:
    stems = {p.stem for p in PATCHES.glob("*.diff")}
    assert stems == set(HAND_CLASS)
    assert stems == {p.stem for p in (FIXTURES / "expected").glob("*.json")}


@pytest.mark.parametrize("stem", sorted(HAND_CLASS))
def test_fixture_patch_class_with_sources(stem: str, repos: dict[str, Path]) -> None:
    result = _with_sources(stem, repos)
    assert result.label == HAND_CLASS[stem]
    assert result.profile == "default"
    assert result.located_by == "source"
    # The hunks come from the hand-worked file: every one is counted in `default`.
    expected = json.loads((FIXTURES / "expected" / f"{stem}.json").read_text())
    assert list(result.hunk_indices) == [h["index"] for h in expected["hunks"]]


# Default cutoffs, by hand: floor(median depth / 2) with the depths listed above.
@pytest.mark.parametrize(
    ("stem", "cutoff", "prefix"),
    [
        ("java_anonymous_classes", 3, "src/main/java/com/acme/core"),  # median 6
        ("java_overloads", 3, "src/main/java/com/acme/core"),  # median 6.5 → 3
        ("java_packages_far", 2, "src/main/java"),  # median 5 → 2
        ("java_packages_near", 3, "src/main/java/com/acme"),  # median 6
        ("python_import_change", 1, "src/shop"),  # median 3 → 1
        ("python_two_packages", 1, "src/shop"),  # median 2 → 1
    ],
)
def test_default_cutoff_and_shared_prefix(
    stem: str, cutoff: int, prefix: str, repos: dict[str, Path]
) -> None:
    result = _with_sources(stem, repos)
    assert result.cutoff == cutoff
    assert "/".join(result.shared_prefix) == prefix
    data = result.to_dict()
    assert data["shared_package_prefix"] == prefix
    assert data["shared_package_depth"] == len(prefix.split("/"))


def test_reason_and_counts_anonymous_classes(repos: dict[str, Path]) -> None:
    # Files: Inventory, PricePolicy, Status, Retry = 4. Packages: core, util = 2.
    # Classes (innermost types): Inventory$1, Inventory.Auditor$1, PricePolicy$1,
    # Status$1, Retry$1$1 = 5. Methods: the five run()/price()/canOrder()/call() = 5.
    # Shared prefix core (6 segments) > cutoff 3.
    result = hunkmetrics.proximity(
        PATCHES / "java_anonymous_classes.diff", source=(repos["java-project"], "base")
    )
    assert (result.files, result.packages, result.classes, result.methods) == (4, 2, 5, 5)
    assert result.shared_prefix == CORE
    assert result.cutoff == 3
    assert "6" in result.reason and "3" in result.reason
    data = result.to_dict()
    assert data["class"] == "Sprawl" and data["hunk_count"] == 5
    assert (data["files"], data["packages"], data["classes"], data["methods"]) == (4, 2, 5, 5)


def test_reason_and_counts_packages_far(repos: dict[str, Path]) -> None:
    # Retry.java (util) and Telemetry.java ×2 (other): files 2, packages 2, classes
    # Retry and Telemetry = 2, methods pause(int), time(...), flush() = 3.
    # Shared prefix src/main/java (3 segments) > cutoff 2.
    result = hunkmetrics.proximity(
        PATCHES / "java_packages_far.diff", source=(repos["java-project"], "base")
    )
    assert (result.files, result.packages, result.classes, result.methods) == (2, 2, 2, 3)
    assert result.shared_prefix == ("src", "main", "java")
    assert "3" in result.reason and "2" in result.reason


def test_reason_and_counts_import_and_field(repos: dict[str, Path]) -> None:
    # One file, one package; classes: Inventory (hunk 1) and Inventory.Auditor (hunk 2),
    # hunk 0 (an import) is in no class → 2; no hunk in a method → 0 methods.
    result = hunkmetrics.proximity(
        PATCHES / "java_import_and_field.diff", source=(repos["java-project"], "base")
    )
    assert result.label == "Cluster"
    assert (result.files, result.packages, result.classes, result.methods) == (1, 1, 2, 0)
    assert result.shared_prefix == CORE


def test_reason_names_the_method_of_a_nucleus(repos: dict[str, Path]) -> None:
    result = hunkmetrics.proximity(
        PATCHES / "java_two_hunks_one_method.diff", source=(repos["java-project"], "base")
    )
    assert result.label == "Nucleus"
    assert (result.files, result.packages, result.classes, result.methods) == (1, 1, 1, 1)
    assert "com.acme.io.CsvReader.readBatches()" in result.reason


def test_orbit_reason_names_the_package(repos: dict[str, Path]) -> None:
    # Order, PricePolicy, Status: 3 files, 1 package (core); classes Order, PricePolicy,
    # Status$2, Status = 4; methods Order(...), discounted(...), Status$2.next(),
    # Status.next() = 4.
    result = hunkmetrics.proximity(
        PATCHES / "java_several_files_one_package.diff", source=(repos["java-project"], "base")
    )
    assert result.label == "Orbit"
    assert (result.files, result.packages, result.classes, result.methods) == (3, 1, 4, 4)
    assert "src/main/java/com/acme/core" in result.reason


# --------------------------------------------------------------------------------------
# Tricky placements, on patches made with git against the fixture projects.
# --------------------------------------------------------------------------------------


def _make_patch(
    tmp_path: Path,
    project: str,
    edits: list[tuple[str, int, str, str]],
    *diff_args: str,
    renames: tuple[tuple[str, str], ...] = (),
) -> tuple[Path, bytes]:
    """Commit fixtures/<project> as `base`, replace whole lines (path, 1-based line,
    expected old text, new text; indentation kept), rename files, and return the repo and
    `git diff <diff_args> base` of the result."""
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURES / project, repo)
    git(repo, "init", "--quiet")
    git(repo, "add", "--all")
    git(repo, "commit", "--quiet", "-m", "base")
    git(repo, "tag", "base")
    for path, lineno, old, new in edits:
        file = repo / path
        lines = file.read_text(encoding="utf-8").split("\n")
        line = lines[lineno - 1]
        assert line.strip() == old, (path, lineno, line)
        lines[lineno - 1] = line[: len(line) - len(line.lstrip())] + new
        file.write_text("\n".join(lines), encoding="utf-8")
    for old_path, new_path in renames:
        git(repo, "mv", old_path, new_path)
    git(repo, "add", "--all")
    return repo, git(repo, "diff", "--cached", *diff_args, "base")


def test_two_overloads_of_one_name_are_two_methods(repos: dict[str, Path]) -> None:
    # The Inventory.java section of java_overloads.diff alone: hunk 0 in add(String)
    # (52-54), hunk 1 in add(String,int) (56-67). Same name, different methods →
    # Cluster, never Nucleus. Same for the Strings.java section (pad/2 and pad/3).
    text = (PATCHES / "java_overloads.diff").read_text(encoding="utf-8")
    sections = ["diff --git" + s for s in text.split("diff --git")[1:]]
    assert len(sections) == 2
    for section, methods in zip(
        sections,
        [
            ("com.acme.core.Inventory.add(String)", "com.acme.core.Inventory.add(String,int)"),
            (
                "com.acme.core.util.Strings.pad(String,int)",
                "com.acme.core.util.Strings.pad(String,int,char)",
            ),
        ],
        strict=True,
    ):
        result = hunkmetrics.proximity(section.encode(), source=(repos["java-project"], "base"))
        assert result.label == "Cluster", methods
        assert (result.files, result.classes, result.methods) == (1, 1, 2)
        with hunkmetrics.open_workspace(
            section.encode(), repo=repos["java-project"], rev="base"
        ) as ws:
            assert tuple(item.location.method for item in ws.located()) == methods


def test_hunks_in_a_lambda_of_one_method_are_nucleus(tmp_path: Path) -> None:
    # -U0, Inventory.java lines 77 and 81: both inside the block lambda passed to
    # batches.forEach in addAll(Map) (75-83). A lambda is not a callable of its own, so
    # both hunks are in addAll(Map) → Nucleus.
    repo, diff = _make_patch(
        tmp_path,
        "java-project",
        [
            (INV, 77, "int total = 0;", "long total = 0;"),
            (INV, 81, "add(sku, total);", "add(sku, (int) total);"),
        ],
        "-U0",
    )
    result = hunkmetrics.proximity(diff, source=(repo, "base"))
    assert len(result.hunk_indices) == 2
    assert result.label == "Nucleus"
    assert "com.acme.core.Inventory.addAll(Map)" in result.reason


def test_lambda_and_plain_line_of_one_method_are_nucleus(tmp_path: Path) -> None:
    # -U0, line 101 (the expression lambda `sku -> ...`) and line 104 (.collect), both
    # in find(Predicate,int) (99-105) → Nucleus.
    repo, diff = _make_patch(
        tmp_path,
        "java-project",
        [
            (
                INV,
                101,
                ".filter(sku -> filter == null || filter.test(sku))",
                ".filter(sku -> sku != null && (filter == null || filter.test(sku)))",
            ),
            (
                INV,
                104,
                ".collect(Collectors.toList());",
                ".collect(Collectors.toUnmodifiableList());",
            ),
        ],
        "-U0",
    )
    result = hunkmetrics.proximity(diff, source=(repo, "base"))
    assert result.label == "Nucleus"
    assert "com.acme.core.Inventory.find(Predicate,int)" in result.reason


def test_field_next_to_a_method_is_cluster(tmp_path: Path) -> None:
    # -U0, line 155 (field lowWater of Auditor, in no method) and line 160 (in
    # Auditor.changed(String,int), 157-163): one file, not all in one method → Cluster.
    # One class (Inventory.Auditor), one method.
    repo, diff = _make_patch(
        tmp_path,
        "java-project",
        [
            (INV, 155, "private int lowWater = 5;", "private int lowWater = 10;"),
            (INV, 160, "if (level < lowWater) {", "if (level <= lowWater) {"),
        ],
        "-U0",
    )
    result = hunkmetrics.proximity(diff, source=(repo, "base"))
    assert result.label == "Cluster"
    assert (result.files, result.classes, result.methods) == (1, 1, 1)


def test_two_hunks_in_an_inner_class_method_are_nucleus(tmp_path: Path) -> None:
    # -U0, lines 159 and 161, both in the inner class's Auditor.changed(String,int)
    # (157-163) → Nucleus, and the method is the inner class's.
    repo, diff = _make_patch(
        tmp_path,
        "java-project",
        [
            (
                INV,
                159,
                'LOG.fine(() -> warehouse + "/" + sku + " -> " + level);',
                'LOG.finer(() -> warehouse + "/" + sku + " -> " + level);',
            ),
            (INV, 161, "warnLater(sku).run();", "warnLater(sku.trim()).run();"),
        ],
        "-U0",
    )
    result = hunkmetrics.proximity(diff, source=(repo, "base"))
    assert result.label == "Nucleus"
    assert "com.acme.core.Inventory.Auditor.changed(String,int)" in result.reason
    assert (result.files, result.classes, result.methods) == (1, 1, 1)


def test_two_hunks_in_one_function_of_a_renamed_file_are_nucleus(tmp_path: Path) -> None:
    # git diff -M -U1: src/shop/pricing/currency.py renamed to money.py, lines 22 and 27
    # edited, both in convert(amount,source,target) (19-27) of the pre-image → one file
    # (the renamed one), one function → Nucleus.
    currency = "src/shop/pricing/currency.py"
    repo, diff = _make_patch(
        tmp_path,
        "python-project",
        [
            (currency, 22, "return quantize(amount)", "return quantize(Decimal(amount))"),
            (
                currency,
                27,
                "return quantize(amount * rate)",
                "return quantize(Decimal(amount) * rate)",
            ),
        ],
        "-M",
        "-U1",
        renames=((currency, "src/shop/pricing/money.py"),),
    )
    assert b"rename from src/shop/pricing/currency.py" in diff
    result = hunkmetrics.proximity(diff, source=(repo, "base"))
    assert len(result.hunk_indices) == 2
    assert result.label == "Nucleus"
    assert "shop.pricing.currency.convert(amount,source,target)" in result.reason


# --------------------------------------------------------------------------------------
# Profiles and the cutoff.
# --------------------------------------------------------------------------------------


def test_package_of_each_profile() -> None:
    path = "src/main/java/com/acme/core/Inventory.java"
    assert proximity_package(path, "default") == CORE
    # birch: without the first ("src") and the last ("Inventory.java") segment.
    assert proximity_package(path, "birch") == ("main", "java", "com", "acme", "core")
    assert proximity_package("src/shop/cart.py", "birch") == ("shop",)
    assert proximity_package("setup.py", "default") == ()
    assert proximity_package("setup.py", "birch") == ()


def test_default_cutoff_is_half_the_median_depth_rounded_down() -> None:
    assert default_cutoff([CORE] * 4 + [CORE + ("util",)]) == 3  # median 6 → 3
    assert default_cutoff([CORE, CORE, CORE + ("util",), CORE + ("util",)]) == 3  # 6.5
    assert default_cutoff([("a",), ("a", "b", "c")]) == 1  # median 2 → 1
    assert default_cutoff([("a",), ("b",), ("c", "d", "e")]) == 0  # median 1 → 0


@pytest.mark.parametrize(
    ("stem", "label", "prefix"),
    [
        # birch packages: util → main/java/com/acme/core/util, other → main/java/org/other.
        # Shared main/java = 2 ≤ 3 → Fragment (default said Sprawl: see HAND_CLASS).
        ("java_packages_far", "Fragment", ("main", "java")),
        # core/util/io → main/java/com/acme/{core,core/util,io}: min shared main/java/com/acme
        # = 4 > 3 → Sprawl.
        ("java_packages_near", "Sprawl", ("main", "java", "com", "acme")),
        # shop/cart.py → (shop,), pricing files → (shop, pricing): shared 1 ≤ 3 → Fragment.
        ("python_import_change", "Fragment", ("shop",)),
        # Same file / package rules as default: one file → Nucleus, one package → Orbit.
        ("java_two_hunks_one_method", "Nucleus", CORE[1:-1] + ("io",)),
        ("java_several_files_one_package", "Orbit", CORE[1:]),
    ],
)
def test_birch_profile(
    stem: str, label: str, prefix: tuple[str, ...], repos: dict[str, Path]
) -> None:
    result = _with_sources(stem, repos, profile="birch")
    assert result.profile == "birch"
    assert result.cutoff == 3
    assert result.label == label
    assert result.shared_prefix == prefix


FAR_AND_NEAR = """\
diff --git a/app/core/model/a.py b/app/core/model/a.py
--- a/app/core/model/a.py
+++ b/app/core/model/a.py
@@ -1 +1 @@
-A = 1
+A = 2
diff --git a/app/core/view/b.py b/app/core/view/b.py
--- a/app/core/view/b.py
+++ b/app/core/view/b.py
@@ -1 +1 @@
-B = 1
+B = 2
"""

TWO_TOP_DIRS = """\
diff --git a/lib/x/a.py b/lib/x/a.py
--- a/lib/x/a.py
+++ b/lib/x/a.py
@@ -1 +1 @@
-A = 1
+A = 2
diff --git a/lib/y/b.py b/lib/y/b.py
--- a/lib/y/b.py
+++ b/lib/y/b.py
@@ -1 +1 @@
-B = 1
+B = 2
"""


def test_cutoff_override_turns_sprawl_into_fragment() -> None:
    # Packages app/core/model and app/core/view: depths 3,3 → median 3 → cutoff 1;
    # shared app/core = 2 > 1 → Sprawl. With cutoff 2: 2 ≤ 2 → Fragment.
    assert hunkmetrics.proximity(FAR_AND_NEAR.encode()).label == "Sprawl"
    overridden = hunkmetrics.proximity(FAR_AND_NEAR.encode(), cutoff=2)
    assert (overridden.label, overridden.cutoff) == ("Fragment", 2)
    assert overridden.shared_prefix == ("app", "core")


def test_cutoff_override_turns_fragment_into_sprawl() -> None:
    # Packages lib/x and lib/y: depths 2,2 → cutoff 1; shared lib = 1 ≤ 1 → Fragment
    # (a Fragment in the default profile). With cutoff 0: 1 > 0 → Sprawl.
    default = hunkmetrics.proximity(TWO_TOP_DIRS.encode())
    assert (default.label, default.cutoff, default.shared_prefix) == ("Fragment", 1, ("lib",))
    assert hunkmetrics.proximity(TWO_TOP_DIRS.encode(), cutoff=0).label == "Sprawl"


def test_cutoff_override_on_a_fixture(repos: dict[str, Path]) -> None:
    # java_packages_far: shared src/main/java = 3; default cutoff 2 → Sprawl; cutoff 3 →
    # 3 ≤ 3 → Fragment.
    result = hunkmetrics.proximity(
        PATCHES / "java_packages_far.diff", cutoff=3, source=(repos["java-project"], "base")
    )
    assert (result.label, result.cutoff) == ("Fragment", 3)


def test_cli_sprawl_cutoff(tmp_path: Path) -> None:
    patch = tmp_path / "far_and_near.diff"
    patch.write_text(FAR_AND_NEAR, encoding="utf-8")
    plain = runner.invoke(app, ["proximity", str(patch), "--format", "json"])
    assert plain.exit_code == 0, plain.output
    assert json.loads(plain.stdout)["proximity"]["class"] == "Sprawl"
    cut = runner.invoke(app, ["proximity", str(patch), "--sprawl-cutoff", "2", "--format", "json"])
    assert cut.exit_code == 0, cut.output
    document = json.loads(cut.stdout)
    assert document["schema"] == "hunkmetrics/proximity/v1"
    assert document["proximity"]["class"] == "Fragment"
    assert document["proximity"]["cutoff"] == 2
    assert document["proximity"]["shared_package_prefix"] == "app/core"


def test_cli_with_sources_and_table(repos: dict[str, Path]) -> None:
    result = runner.invoke(
        app,
        [
            "proximity",
            str(PATCHES / "java_two_hunks_one_method.diff"),
            "--repo",
            str(repos["java-project"]),
            "--rev",
            "base",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "Nucleus" in result.stdout
    assert "readBatches" in result.stdout


def test_cli_birch_profile() -> None:
    result = runner.invoke(
        app,
        [
            "proximity",
            str(PATCHES / "java_packages_far.diff"),
            "--profile",
            "birch",
            "--format",
            "json",
        ],
    )
    assert result.exit_code == 0, result.output
    prox = json.loads(result.stdout)["proximity"]
    assert (prox["class"], prox["cutoff"], prox["shared_package_prefix"]) == (
        "Fragment",
        3,
        "main/java",
    )


# --------------------------------------------------------------------------------------
# Fewer than two hunks; no sources.
# --------------------------------------------------------------------------------------


def test_fewer_than_two_hunks_has_no_class(repos: dict[str, Path]) -> None:
    one = hunkmetrics.proximity(
        PATCHES / "java_hunk_spans_two_methods.diff", source=(repos["java-project"], "base")
    )
    assert one.label is None and one.to_dict()["class"] is None
    assert len(one.hunk_indices) == 1
    assert hunkmetrics.proximity(PATCHES / "java_hunk_spans_two_methods.diff").label is None
    single = TWO_TOP_DIRS.split("diff --git")[1]
    assert hunkmetrics.proximity(("diff --git" + single).encode()).label is None


@pytest.mark.parametrize(
    ("stem", "unplaced"),
    [
        # Both hunks of readBatches() (26-54) show no method declaration in their context
        # (28-34 and 46-52): neither can be placed from the diff alone.
        ("java_two_hunks_one_method", (0, 1)),
        # Hunk 0 (88-94) shows `def checkout(` at line 90; hunk 1 (97-103) shows none.
        ("python_two_hunks_one_method", (1,)),
    ],
)
def test_without_sources_unplaced_hunks_are_named(stem: str, unplaced: tuple[int, ...]) -> None:
    # With sources these are Nucleus; from the diff alone the method of some hunks is
    # unknown, so the result must not be a silent Nucleus: a warning names the hunks.
    result = hunkmetrics.proximity(PATCHES / f"{stem}.diff")
    assert result.located_by == "diff"
    assert result.unplaced_hunks == unplaced
    assert result.warnings, "an unplaced one-file patch must warn"
    warning = " ".join(result.warnings)
    assert "hunks " + ",".join(map(str, unplaced)) in warning
    assert result.label in ("Nucleus", "Cluster")
    assert result.to_dict()["unplaced_hunks"] == list(unplaced)


def test_cli_without_sources_warns_on_stderr() -> None:
    result = runner.invoke(app, ["proximity", str(PATCHES / "java_two_hunks_one_method.diff")])
    assert result.exit_code == 0, result.output
    assert "warning" in result.stderr
    assert "hunks 0,1" in result.stderr


def test_characterize_reports_the_same_class(repos: dict[str, Path]) -> None:
    result = hunkmetrics.characterize(
        PATCHES / "java_packages_far.diff", source=(repos["java-project"], "base")
    )
    assert result.proximity.label == "Sprawl"
    assert result.to_dict()["proximity"]["class"] == "Sprawl"


# --------------------------------------------------------------------------------------
# The Hunk4J sample: profile birch, no sources, the patches as shipped.
# --------------------------------------------------------------------------------------


def test_hunk4j_sample_classes(sample_dir: Path) -> None:
    with (sample_dir / "reference.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert rows
    wrong = []
    for row in rows:
        published = row["proximity_class"]
        result = hunkmetrics.proximity(
            sample_dir / "patches" / f"{row['bug_id']}.diff", profile="birch"
        )
        if published in ("Orbit", "Sprawl", "Fragment"):
            ok = result.label == published
        else:
            # Nucleus vs Cluster needs methods, which the diff alone may not show; but
            # "one file" is exact, and a wrong split must come with a warning.
            ok = result.label in ("Nucleus", "Cluster")
            if ok and result.label != published:
                ok = bool(result.warnings)
        if not ok:
            wrong.append((row["bug_id"], published, result.label))
    assert not wrong


@settings(max_examples=300, deadline=None)
@given(depths=st.lists(st.integers(min_value=0, max_value=40), max_size=60))
def test_the_sprawl_cutoff_is_half_the_median_depth_as_statistics_gives_it(
    depths: list[int],
) -> None:
    """floor(median / 2), the median of an even count being the mean of the middle two:
    statistics.median is the reference (the cutoff sorts the depths itself)."""
    import math
    import statistics

    from hunkmetrics.metrics.profiles.base import median_half_cutoff

    packages = [tuple("p" * d) for d in depths]
    expected = math.floor(statistics.median(depths) / 2) if depths else 0
    assert median_half_cutoff(packages) == expected


def test_the_sprawl_cutoff_by_hand() -> None:
    from hunkmetrics.metrics.profiles.base import median_half_cutoff

    # depths 1, 4, 5, 9: median (4 + 5) / 2 = 4.5, half 2.25 → 2; depths 3, 7, 8: 7 → 3
    assert median_half_cutoff([("a",), ("a",) * 4, ("a",) * 5, ("a",) * 9]) == 2
    assert median_half_cutoff([("a",) * 3, ("a",) * 8, ("a",) * 7]) == 3
    assert median_half_cutoff([]) == 0
