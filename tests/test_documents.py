"""Every JSON document validates against its published schema; characterize is one
object whose parts agree with the single-metric commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitrepo import build_fixture_repo
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

import hunkmetrics
from hunkmetrics.cli.app import app
from hunkmetrics.schemas import NAMES, schema

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"

runner = CliRunner()
PATCHES = FIXTURES / "patches"


@pytest.fixture(scope="module")
def java_repo(tmp_path_factory: pytest.TempPathFactory):
    return build_fixture_repo(tmp_path_factory.mktemp("docs"), "java-project")


def run_json(*args: str) -> dict:
    result = runner.invoke(app, [*args, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def validate(document: dict) -> None:
    name = document["schema"].split("/")[1]
    Draft202012Validator(schema(name)).validate(document)


def test_published_schemas_are_current() -> None:
    for name in NAMES:
        published = json.loads((ROOT / "docs" / "schemas" / f"{name}.v1.json").read_text())
        assert published == schema(name), "re-run: python -m hunkmetrics.schemas docs/schemas"
        Draft202012Validator.check_schema(published)


@pytest.mark.parametrize(
    "stem",
    ["java_packages_far", "java_new_file", "java_hunk_spans_two_methods", "java_deleted_file"],
)
@pytest.mark.parametrize("command", ["hunks", "divergence", "proximity", "characterize"])
def test_documents_validate_with_and_without_sources(java_repo, stem, command) -> None:
    patch = str(PATCHES / f"{stem}.diff")
    validate(run_json(command, patch))
    validate(run_json(command, patch, "--repo", str(java_repo.path), "--rev", "base"))
    validate(
        run_json(command, patch, "--profile", "birch")
        if command in ("divergence", "proximity", "characterize")
        else run_json(command, patch, "--hunks", "regions")
    )


def test_localization_document_validates(java_repo) -> None:
    document = run_json(
        "localization",
        "--reference",
        str(PATCHES / "java_packages_far.diff"),
        "--candidate",
        str(PATCHES / "java_packages_near.diff"),
        "--repo",
        str(java_repo.path),
        "--rev",
        "base",
    )
    validate(document)
    loc = document["localization"]
    # far touches Retry.java and Telemetry.java; near touches neither of them.
    assert loc["file_superset"] is False
    assert set(loc["missed_files"]) == {
        "src/main/java/com/acme/core/util/Retry.java",
        "src/main/java/org/other/Telemetry.java",
    }


def test_characterize_with_reference_validates_and_localizes_itself(java_repo) -> None:
    patch = str(PATCHES / "java_lambdas.diff")
    document = run_json(
        "characterize", patch, "--reference", patch, "--repo", str(java_repo.path), "--rev", "base"
    )
    validate(document)
    loc = document["localization"]
    # A patch compared with itself finds every file, hunk and method.
    assert loc["file_superset"] is True and not loc["missed_files"] and not loc["extra_files"]
    assert loc["hunk_recall"] == 1.0 and loc["method_recall"] == 1.0


def test_characterize_agrees_with_single_commands(java_repo) -> None:
    patch = str(PATCHES / "java_several_files_one_package.diff")
    source = ["--repo", str(java_repo.path), "--rev", "base"]
    whole = run_json("characterize", patch, *source, "--pairs")
    assert whole["schema"] == "hunkmetrics/characterize/v1"
    assert whole["divergence"] == run_json("divergence", patch, *source, "--pairs")["divergence"]
    assert whole["proximity"] == run_json("proximity", patch, *source)["proximity"]
    assert whole["hunks"] == run_json("hunks", patch, *source)["hunks"]
    # Four hunks in four files of com.acme.core: Orbit (docs: all files in one package).
    assert whole["proximity"]["class"] == "Orbit"
    assert whole["proximity"]["located_by"] == "source"
    assert whole["hunk_count"] == len(whole["hunks"]) == 4
    # The library returns the same object.
    library = hunkmetrics.characterize(patch, source=(java_repo.path, "base")).to_dict()
    assert library["divergence"] == whole["divergence"]
    assert library["config"] == whole["config"]


def test_config_fingerprint_tracks_every_setting() -> None:
    patch = str(PATCHES / "java_overloads.diff")
    plain = run_json("characterize", patch)["config"]
    assert plain["profile"] == "default" and plain["distributed_weight"] == 2.0
    assert plain["hunking"] == "as-given" and plain["reverse"] is False
    fingerprints = {plain["fingerprint"]}
    for extra in (
        ["--profile", "birch"],
        ["--distributed-weight", "1"],
        ["--sprawl-cutoff", "5"],
        ["--hunks", "regions"],
        ["--reverse"],
    ):
        fingerprints.add(run_json("characterize", patch, *extra)["config"]["fingerprint"])
    assert len(fingerprints) == 6
    again = run_json("characterize", patch)["config"]["fingerprint"]
    assert again == plain["fingerprint"]


def test_characterize_parses_each_file_once(java_repo) -> None:
    patch = PATCHES / "java_two_hunks_one_method.diff"
    with hunkmetrics.open_workspace(patch, repo=java_repo.path, rev="base") as ws:
        ws.characterize(profile="birch")
        ws.characterize(profile="default")
        # One file: its pre-image and its derived post-image, two parses in all.
        assert ws.cache.parses == 2


def test_table_output_is_compact(java_repo) -> None:
    result = runner.invoke(
        app,
        [
            "characterize",
            str(PATCHES / "java_two_hunks_one_method.diff"),
            "--repo",
            str(java_repo.path),
            "--rev",
            "base",
        ],
    )
    assert result.exit_code == 0, result.output
    head = "\n".join(result.stdout.splitlines()[:4])  # class and score come first
    assert "Nucleus" in head and "Div(P)" in head
    assert "readBatches" in result.stdout


def test_characterize_csv_has_a_row_per_hunk() -> None:
    # java_overloads.diff has four `@@` blocks in one Java file.
    result = runner.invoke(
        app, ["characterize", str(PATCHES / "java_overloads.diff"), "--format", "csv"]
    )
    assert result.exit_code == 0, result.output
    header, *rows = result.stdout.splitlines()
    assert header.startswith("patch,profile,divergence,proximity,index,file,")
    assert len(rows) == 4


def test_json_strings_keep_undecodable_bytes(tmp_path: Path) -> None:
    diff = tmp_path / "latin1.diff"
    diff.write_bytes(
        b"--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-s = 'caf\xe9'\n+s = 'cafe'\n"
        b"--- a/b.py\n+++ b/b.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n"
    )
    document = run_json("divergence", str(diff))
    validate(document)
    assert document["hunk_count"] == 2


def test_characterize_file_records_by_hand(tmp_path: Path) -> None:
    """Four file sections: a binary image (excluded), a Java file with two hunks, a mode
    change (excluded), and a renamed Ruby file (no grammar) with one hunk."""
    diff = tmp_path / "files.diff"
    diff.write_bytes(b"""diff --git a/img/logo.png b/img/logo.png
index 1234567..89abcde 100644
Binary files a/img/logo.png and b/img/logo.png differ
diff --git a/src/A.java b/src/A.java
--- a/src/A.java
+++ b/src/A.java
@@ -1,3 +1,3 @@
 class A {
-  int a = 1;
+  int a = 2;
 }
@@ -10,3 +10,3 @@
 class B {
-  int b = 1;
+  int b = 2;
 }
diff --git a/run.sh b/run.sh
old mode 100644
new mode 100755
diff --git a/lib/old.rb b/lib/new.rb
similarity index 90%
rename from lib/old.rb
rename to lib/new.rb
--- a/lib/old.rb
+++ b/lib/new.rb
@@ -1 +1 @@
-x = 1
+x = 2
""")
    document = run_json("characterize", str(diff), "--all-files")
    validate(document)
    assert document["files"] == [
        {
            "file": "img/logo.png",
            "old_path": "img/logo.png",
            "status": "modified",
            "language": None,
            "hunks": 0,
            "excluded": "binary",
        },
        {
            "file": "src/A.java",
            "old_path": "src/A.java",
            "status": "modified",
            "language": "java",
            "hunks": 2,
            "excluded": None,
        },
        {
            "file": "run.sh",
            "old_path": "run.sh",
            "status": "modified",
            "language": None,
            "hunks": 0,
            "excluded": "mode change only",
        },
        {
            "file": "lib/new.rb",
            "old_path": "lib/old.rb",
            "status": "renamed",
            "language": None,
            "hunks": 1,
            "excluded": None,
        },
    ]
    assert document["hunk_count"] == 3  # 2 in A.java + 1 in new.rb
    assert [h["index"] for h in document["hunks"]] == [0, 1, 2]


@pytest.mark.parametrize("stem", sorted(p.stem for p in PATCHES.glob("*.diff")))
def test_every_fixture_document_validates(stem: str) -> None:
    """Every document kind, for every fixture patch, from the diff alone and against its
    project's working tree, in both profiles, fits its generated schema."""
    from hunkmetrics.documents import (
        divergence_document,
        hunks_document,
        localization_document,
        proximity_document,
    )

    project = FIXTURES / ("java-project" if stem.startswith("java") else "python-project")
    for repo in (None, project):
        with hunkmetrics.open_workspace(PATCHES / f"{stem}.diff", repo=repo) as ws:
            validate(hunks_document(ws))
            for profile in hunkmetrics.PROFILE_NAMES:
                validate(divergence_document(ws, ws.divergence(profile=profile)))
                validate(proximity_document(ws, ws.proximity(profile=profile)))
                validate(ws.characterize(profile=profile, reference=ws).to_dict())
            validate(localization_document(ws, ws, ws.localization(ws), stem))
            empty, error = hunkmetrics.open_candidate(b"", repo=repo, cache=ws.cache)
            assert empty is None and error
            validate(
                localization_document(ws, None, ws.localization(None, candidate_error=error), "-")
            )


def test_characterize_head_is_the_documents_own_head() -> None:
    """A dataset's error record starts like the document it stands for."""
    from hunkmetrics.documents import characterize_head

    patch = str(PATCHES / "java_overloads.diff")
    document = run_json(
        "characterize", patch, "--sprawl-cutoff", "5", "--profile", "birch", "--pairs"
    )
    head = characterize_head(
        patch, profile="birch", distributed_weight=2.0, cutoff=5, hunking="as-given", reverse=False
    )
    assert json.dumps(head) == json.dumps({k: document[k] for k in head})
    assert list(head) == ["schema", "tool", "config", "patch", "profile"]
