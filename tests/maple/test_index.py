"""The repository index: cache reuse, edits during a session, broken files, revisions."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from hunkmetrics.errors import SourceError
from hunkmetrics.maple import Maple, MapleError, open_index

from .conftest import INVENTORY, index_of, project


def test_a_restart_parses_only_changed_files(tmp_path: Path) -> None:
    root = project(tmp_path, "java-project")
    first = index_of(root, tmp_path)
    assert first.parsed == 11
    again = index_of(root, tmp_path)
    assert again.parsed == 0
    assert again.files[INVENTORY].index == first.files[INVENTORY].index
    order = root / "src/main/java/com/acme/core/Order.java"
    order.write_text(order.read_text().replace("itemCount", "itemTotal"))
    third = index_of(root, tmp_path)
    assert third.parsed == 1
    assert "itemTotal" in third.names.callables and "itemCount" not in third.names.callables
    index_of(root, tmp_path, use_cache=False)  # works without a cache too


def test_parallel_build_gives_the_same_index(tmp_path: Path) -> None:
    root = project(tmp_path, "java-project")
    for n in range(70):  # enough files to use the process pool
        (root / f"Gen{n}.java").write_text(f"class Gen{n} {{\n  int m{n}() {{ return {n}; }}\n}}\n")
    parallel = open_index(root, use_cache=False, jobs=2)
    serial = open_index(root, use_cache=False, jobs=1)
    assert parallel.files.keys() == serial.files.keys()
    assert all(parallel.files[p].index == serial.files[p].index for p in serial.files)
    assert parallel.files["Gen69.java"].index.scopes[1].name == "Gen69.m69()"


def test_an_edit_during_the_session_changes_the_answer(tmp_path: Path) -> None:
    root = project(tmp_path, "java-project")
    # a long rescan interval: only the check of the answering file notices the edit
    maple = Maple(index_of(root, tmp_path, rescan_interval=3600.0))
    assert "lines 56-67" in maple.find_method("add(String,int)")
    path = root / INVENTORY
    text = path.read_text()
    path.write_text(
        text.replace("    public int add(String sku) {", "\n\n    public int add(String sku) {")
    )
    assert "lines 58-69" in maple.find_method("add(String,int)")  # two lines further down


def test_new_and_deleted_files_are_noticed_on_rescan(tmp_path: Path) -> None:
    root = project(tmp_path, "java-project")
    maple = Maple(index_of(root, tmp_path))  # rescan before every answer
    with pytest.raises(MapleError):
        maple.find_class("Fresh")
    (root / "Fresh.java").write_text("class Fresh {\n    void hello() {}\n}\n")
    assert "file: Fresh.java, lines 1-3" in maple.find_class("Fresh")
    (root / "Fresh.java").unlink()
    with pytest.raises(MapleError):
        maple.find_class("Fresh")


def test_a_file_that_does_not_parse_is_reported_once_and_indexed_for_what_parses(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = project(tmp_path, "java-project")
    (root / "Broken.java").write_text(
        "class Broken {\n    void good() {\n        run();\n    }\n    void bad( {\n}\n"
    )
    maple = Maple(index_of(root, tmp_path))
    warnings = [w for w in maple.index.warnings if w.startswith("Broken.java")]
    assert len(warnings) == 1 and "syntax error" in warnings[0]
    assert "lines 2-4" in maple.find_method("good")
    maple.find_method("good")  # asking again warns no more
    assert len([w for w in maple.index.warnings if w.startswith("Broken.java")]) == 1
    assert "1 file(s) with syntax errors" in maple.index.status()


def _git(repo: Path, *args: str) -> str:
    config = ["-c", "user.name=t", "-c", "user.email=t@t.invalid", "-c", "commit.gpgsign=false"]
    done = subprocess.run(
        ["git", *config, "-C", str(repo), *args], capture_output=True, check=True, text=True
    )
    return done.stdout.strip()


def test_a_revision_is_read_without_a_checkout(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    _git(repo, "init", "-q")
    source = repo / "src" / "A.java"
    source.write_text("class A {\n    int one() {\n        return 1;\n    }\n}\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "one")
    source.write_text("class A {\n    int two() { return 2; }\n}\n")
    _git(repo, "commit", "-qam", "two")
    old = Maple(open_index(repo, "HEAD~1", cache_dir=tmp_path / "cache"))
    assert "file: src/A.java, lines 2-4" in old.find_method("one")
    assert "        return 1;" in old.find_method("one")
    with pytest.raises(MapleError, match="Could not find method 'two'"):
        old.find_method("two")
    source.write_text("class A {}\n")  # the working tree does not matter
    assert "lines 2-4" in old.find_method_in_file("one", "A.java")
    warm = open_index(repo, "HEAD~1", cache_dir=tmp_path / "cache")
    assert warm.parsed == 0
    new = Maple(open_index(repo, "HEAD", cache_dir=tmp_path / "cache"))
    assert "lines 2-2" in new.find_method("two")
    with pytest.raises(SourceError, match="does not exist"):
        open_index(repo, "no-such-rev", cache_dir=tmp_path / "cache")


def test_a_new_package_marker_renames_the_modules_under_it(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / "app" / "pkg").mkdir(parents=True)
    (root / "app" / "pkg" / "__init__.py").write_text("")
    (root / "app" / "pkg" / "mod.py").write_text("def hello():\n    return 1\n")
    maple = Maple(index_of(root, tmp_path))
    # the __init__.py chain above mod.py stops at app/, which is no package yet
    assert "method pkg.mod.hello()\n" in maple.find_method("hello")
    (root / "app" / "__init__.py").write_text("")  # mod.py itself does not change
    assert "method app.pkg.mod.hello()\n" in maple.find_method("hello")


def test_a_miss_rescans_at_once(tmp_path: Path) -> None:
    root = project(tmp_path, "java-project")
    maple = Maple(index_of(root, tmp_path, rescan_interval=3600.0))
    order = root / "src/main/java/com/acme/core/Order.java"
    text = order.read_text()
    # an in-place edit (no new file, no rename) adds a method after itemCount()
    order.write_text(
        text.replace(
            "    public boolean contains(",
            "    int fresh() { return 1; }\n\n    public boolean contains(",
            1,
        )
    )
    assert "method com.acme.core.Order.fresh()\n" in maple.find_method("fresh")
    assert "lines 31-31" in maple.find_method("fresh")
    (root / "Brand.java").write_text("class Brand {\n}\n")
    assert "file: Brand.java, lines 1-2" in maple.find_class_in_file("Brand", "Brand.java")


def test_a_watcher_rescans_in_the_background(tmp_path: Path) -> None:
    root = project(tmp_path, "java-project")
    index = index_of(root, tmp_path, rescan_interval=0.05)
    index.watch()
    try:
        (root / "Watched.java").write_text("class Watched {\n}\n")
        for _ in range(100):  # up to 5 s on a busy machine
            if "Watched.java" in index.files:
                break
            time.sleep(0.05)
        assert "Watched" in index.names.types
        assert index.ensure_current() == []  # answers leave scanning to the watcher
    finally:
        index.close()


def test_the_cache_is_keyed_by_the_tree_served(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "p").mkdir(parents=True)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git[:3], "init", "-q"], check=True)
    for text in ("class A {}\n", "class A { void f() {} }\n"):
        (repo / "p/A.java").write_text(text)
        subprocess.run([*git, "add", "-A"], check=True)
        subprocess.run([*git, "commit", "-qm", "x"], check=True)
    trees = [
        subprocess.run(
            [*git[:3], "rev-parse", f"{rev}^{{tree}}"], capture_output=True, text=True
        ).stdout.strip()
        for rev in ("HEAD~1", "HEAD")
    ]
    old = open_index(repo, "HEAD~1", cache_dir=tmp_path / "cache")
    new = open_index(repo, "HEAD", cache_dir=tmp_path / "cache")
    assert old.cache_dir == tmp_path / "cache" / f"tree-{trees[0]}"
    assert new.cache_dir == tmp_path / "cache" / f"tree-{trees[1]}"
    work = open_index(repo, cache_dir=tmp_path / "cache")
    assert work.cache_dir is not None
    assert work.cache_dir.name.startswith("worktree-")
    assert work.cache_dir.name.endswith("-" + trees[1][:16])
    assert (work.cache_dir / "postings.bin").is_file()


def test_a_cache_that_cannot_be_written_is_built_here_once(tmp_path: Path) -> None:
    root = project(tmp_path, "java-project")
    (tmp_path / "cache").write_text("a file where the cache folder would be\n")
    index = open_index(root, cache_dir=tmp_path / "cache")
    assert index.parsed == 11  # the child could not save it: parsed here, counted once
    assert "Inventory" in index.names.types
    assert Maple(index).find_code("int count").startswith("Found")
