"""References from the index's word tables give exactly the answers of a parse at query
time, and stay current through edits and restarts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hunkmetrics.lang import default_languages
from hunkmetrics.maple import RepoIndex
from hunkmetrics.maple.occurrences import WORD, lookup, word_table
from hunkmetrics.maple.references import find_references, parse_references

from .conftest import index_of, project


def _words(index: RepoIndex) -> set[str]:
    found: set[str] = set()
    for _, data in index.all_texts():
        for run in re.findall(rb"[\w$]+", data):
            word = run.decode()
            if WORD.fullmatch(word):
                found.add(word)
    return found


@pytest.mark.parametrize("name", ["java-project", "python-project"])
def test_every_word_has_the_answer_of_a_parse(tmp_path: Path, name: str) -> None:
    index = index_of(project(tmp_path, name), tmp_path)
    words = _words(index)
    assert len(words) > 100
    for word in sorted(words):
        for enough in (None, 1, 3, 15):
            assert find_references(index, word, enough) == parse_references(index, word, enough)


def test_names_that_are_not_words_are_parsed(tmp_path: Path) -> None:
    index = index_of(project(tmp_path, "java-project"), tmp_path)
    for name in ("items.add", "0", "ä"):
        assert find_references(index, name) == parse_references(index, name)


SOURCE = b"""class A {
  // run
  void run() { run(); }
  String s = "run";
  int n = A.run.length;
}
"""


def test_a_word_table_by_hand() -> None:
    language = default_languages().for_path("A.java")
    assert language is not None
    table = word_table(SOURCE, language.parser().parse(SOURCE), language)
    # run: the comment, the declaration, the call (line 3), the string, the field (line 5)
    assert lookup(table, "run") == (5, [(3, "call"), (5, "use")])
    # A: declared on line 1 (not a use), used on line 5
    assert lookup(table, "A") == (2, [(5, "use")])
    assert lookup(table, "length") == (1, [(5, "use")])
    assert lookup(table, "ru") is None
    assert lookup(table, "String") == (1, [(4, "use")])


def test_the_tables_follow_an_edit_and_a_restart(tmp_path: Path) -> None:
    root = project(tmp_path, "java-project")
    index = index_of(root, tmp_path)
    before = find_references(index, "fire")
    assert [r.line for r in before.found] == [65, 95]
    path = root / "src/main/java/com/acme/core/Inventory.java"
    text = path.read_text()
    path.write_text("\n\n" + text)  # every line moves down two
    index.ensure_current(max_age=0.0)
    after = find_references(index, "fire")
    assert [r.line for r in after.found] == [67, 97]
    assert after == parse_references(index, "fire")
    index.save()
    warm = index_of(root, tmp_path)
    assert warm.parsed == 0
    assert find_references(warm, "fire") == after


def test_the_word_tables_stay_on_disk(tmp_path: Path) -> None:
    root = project(tmp_path, "java-project")
    cold = index_of(root, tmp_path)
    assert cold.cache_dir is not None and (cold.cache_dir / "index.bin").is_file()
    assert all(record.held_words is None for record in cold.files.values())  # once written
    warm = index_of(root, tmp_path)
    assert warm.parsed == 0
    assert all(record.held_words is None for record in warm.files.values())
    assert [r.line for r in find_references(warm, "fire").found] == [65, 95]
    assert all(record.held_words is None for record in warm.files.values())  # read, not kept
    assert warm.parsed == 0  # read, not parsed
    for word in ("fire", "Inventory", "add", "size"):
        assert find_references(warm, word) == parse_references(warm, word)


def test_a_damaged_index_file_is_rebuilt_by_parsing(tmp_path: Path) -> None:
    root = project(tmp_path, "java-project")
    cold = index_of(root, tmp_path)
    assert cold.cache_dir is not None
    file = cold.cache_dir / "index.bin"
    cold.close()
    file.write_bytes(file.read_bytes()[:-100])  # cut short
    warm = index_of(root, tmp_path)
    assert warm.parsed == 11
    assert [r.line for r in find_references(warm, "fire").found] == [65, 95]
    assert find_references(warm, "Inventory") == parse_references(warm, "Inventory")
    again = index_of(root, tmp_path)  # written again for the next start
    assert again.parsed == 0
    assert [r.line for r in find_references(again, "fire").found] == [65, 95]


def test_an_edit_before_the_tables_are_read(tmp_path: Path) -> None:
    root = project(tmp_path, "java-project")
    index_of(root, tmp_path)
    warm = index_of(root, tmp_path)
    edited = "src/main/java/com/acme/core/Inventory.java"
    path = root / edited
    path.write_text("\n\n" + path.read_text())  # every line moves down two
    warm.ensure_current(max_age=0.0)
    assert warm.files[edited].held_words is not None  # re-indexed: its table is new
    after = find_references(warm, "fire")
    assert [r.line for r in after.found] == [67, 97]
    assert after == parse_references(warm, "fire")
    warm.save()
    restarted = index_of(root, tmp_path)
    assert restarted.parsed == 0
    assert find_references(restarted, "fire") == after


def test_a_word_new_since_the_code_search_index_is_found(tmp_path: Path) -> None:
    root = project(tmp_path, "java-project")
    index = index_of(root, tmp_path)
    path = root / "src/main/java/com/acme/core/Inventory.java"
    text = path.read_text()
    path.write_text(text.replace("fire(", "freshlyNamed("))  # a word no table held
    index.ensure_current(max_age=0.0)
    assert index.postings is not None and not index.postings.files_with(b"freshlyNamed")
    found = find_references(index, "freshlyNamed")
    assert [r.line for r in found.found] == [65, 95]
    assert found == parse_references(index, "freshlyNamed")
    assert find_references(index, "fire") == parse_references(index, "fire")
