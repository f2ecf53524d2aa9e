"""MAPLE's tools on the Java fixture project, answers checked by hand against the files."""

from __future__ import annotations

import pytest

from hunkmetrics.maple import Maple, MapleError

from .conftest import INVENTORY


def test_find_class_gives_javadoc_declaration_span_and_members(java: Maple) -> None:
    out = java.find_class("Inventory")
    assert out.startswith("Found 1 match for class 'Inventory'.")
    assert "class com.acme.core.Inventory\n" in out
    # the javadoc starts on line 14, the closing brace is line 174
    assert f"file: {INVENTORY}, lines 14-174" in out
    assert "/**\n * Stock levels per SKU for one warehouse, with change listeners.\n */\n" in out
    assert "public class Inventory {\n</code>" in out
    assert "add(String,int)  lines 56-67" in out
    assert "class Summary  lines 137-151" in out


def test_find_nested_and_anonymous_classes_by_qualified_names(java: Maple) -> None:
    out = java.find_class("Inventory.Summary")
    assert "class com.acme.core.Inventory.Summary\n" in out
    assert f"file: {INVENTORY}, lines 136-151" in out  # javadoc on 136
    binary = java.find_class("Inventory$Summary")  # the binary name works too
    assert binary.split("\n", 1)[1] == out.split("\n", 1)[1]
    anonymous = java.find_class("Inventory$1")
    assert "class com.acme.core.Inventory$1\n" in anonymous
    assert "lines 117-122" in anonymous
    nested_anonymous = java.find_class("Inventory.Auditor$1")
    assert "class com.acme.core.Inventory.Auditor$1\n" in nested_anonymous
    assert "lines 166-171" in nested_anonymous


def test_find_method_lists_every_overload_with_whole_body(java: Maple) -> None:
    out = java.find_method("add")
    assert out.startswith("Found 2 matches for method 'add'.")
    assert "method com.acme.core.Inventory.add(String)\n" in out
    assert f"file: {INVENTORY}, lines 52-54" in out
    assert "method com.acme.core.Inventory.add(String,int)\n" in out
    assert f"file: {INVENTORY}, lines 56-67" in out
    assert "        fire(sku, updated);\n        return updated;\n    }\n</code>" in out


def test_find_method_picks_one_overload_by_parameters(java: Maple) -> None:
    out = java.find_method("add(String, int)")
    assert out.startswith("Found 1 match")
    assert "lines 56-67" in out


def test_method_annotations_are_part_of_the_body(java: Maple) -> None:
    out = java.find_method_in_class("run", "Inventory$1")
    assert "method com.acme.core.Inventory$1.run()\n" in out
    assert "lines 118-121" in out
    assert "<code>\n            @Override\n            public void run() {" in out


def test_find_method_in_class_and_miss_lists_the_class_methods(java: Maple) -> None:
    out = java.find_method_in_class("changed", "Auditor")
    assert "method com.acme.core.Inventory.Auditor.changed(String,int)" in out
    assert "lines 157-163" in out
    with pytest.raises(MapleError) as miss:
        java.find_method_in_class("changed", "Summary")
    assert "Its methods: include(Inventory), total()." in str(miss.value)


def test_find_method_in_file(java: Maple) -> None:
    out = java.find_method_in_file("total", "Inventory.java")
    assert "method com.acme.core.Inventory.Summary.total()" in out
    assert "lines 144-150" in out
    with pytest.raises(MapleError, match="Methods in that file: .*snapshot"):
        java.find_method_in_file("nothing", "core/Inventory.java")


def test_find_class_in_file(java: Maple) -> None:
    out = java.find_class_in_file("Listener", "Inventory.java")
    assert "class com.acme.core.Inventory.Listener" in out
    assert "lines 131-134" in out
    with pytest.raises(MapleError, match="Classes in that file: com.acme.core.Order"):
        java.find_class_in_file("Listener", "Order.java")


def test_misses_suggest_close_names(java: Maple) -> None:
    with pytest.raises(MapleError, match="Close classes: com.acme.core.Inventory.Listener"):
        java.find_class("Listner")
    with pytest.raises(MapleError, match=r"Close methods: com.acme.core.Inventory.add\(String\)"):
        java.find_method("addd")
    with pytest.raises(MapleError, match=r"Methods named 'add': .*add\(String,int\)"):
        java.find_method("add(long)")


def test_find_code_with_enclosing_class_and_method(java: Maple) -> None:
    out = java.find_code("count += line.quantity();")
    assert out.startswith("Found 1 match for the code.")
    assert (
        "src/main/java/com/acme/core/Order.java, line 26 (in class com.acme.core.Order, "
        "method com.acme.core.Order.itemCount())" in out
    )
    assert ">26 |             count += line.quantity();" in out
    assert " 21 |     }" in out and " 31 |" in out  # five lines either side


def test_find_code_ignores_indentation_when_the_exact_text_misses(java: Maple) -> None:
    out = java.find_code("if (level < lowWater) {\nwarnLater(sku).run();")
    assert f"{INVENTORY}, lines 160-161" in out


def test_find_code_in_file_and_its_miss(java: Maple) -> None:
    out = java.find_code_in_file("return updated;", "Inventory.java")
    assert f"{INVENTORY}, line 66 (in class com.acme.core.Inventory, method " in out
    with pytest.raises(MapleError, match="Closest lines:"):
        java.find_code_in_file("return updatd;", "Inventory.java")


def test_many_hits_are_capped_and_counted(java: Maple) -> None:
    one = Maple(java.index, max_results=1)
    out = one.find_method("canOrder")  # Status$1, Status$2 and Status declare it
    assert out.startswith("Found 3 matches for method 'canOrder'.")
    assert out.count("\n[") == 1
    assert "method com.acme.core.Status$1.canOrder()" in out
    assert "2 more (not shown in full; raise --max-results or ask in a file):" in out
    assert (
        "- com.acme.core.Status$2.canOrder() in src/main/java/com/acme/core/Status.java lines 13-16"
        in out
    )
    assert (
        "- com.acme.core.Status.canOrder() in src/main/java/com/acme/core/Status.java lines 34-36"
        in out
    )


def test_class_skeleton(java: Maple) -> None:
    out = java.extract_class_skeleton("Inventory.java")
    lines = out.splitlines()
    assert lines[0] == f"{INVENTORY} (java, 174 lines)"
    assert "  1: package com.acme.core;" in lines
    assert " 17: public class Inventory {" in lines
    assert " 32:     private int maxPerSku;" in lines
    assert " 56:     public int add(String sku, int quantity);" in lines
    assert "133:         void changed(String sku, int level);" in lines
    assert "174: }" in lines
    assert not any("fire(sku, updated)" in line for line in lines)  # no bodies


def test_repo_structure(java: Maple) -> None:
    out = java.repo_structure()
    assert "11 source files" in out.splitlines()[0]
    assert "\n            │       │   ├── Inventory.java\n" in out  # src/main/java/com/acme/core
    shallow = java.repo_structure(2)
    assert shallow.splitlines()[1:] == [".", "└── src/", "    └── main/"]
    with pytest.raises(MapleError, match="at least 1"):
        java.repo_structure(0)


def test_references_and_enclosing(java: Maple) -> None:
    out = java.find_references("fire")
    # calls on lines 65 and 95 of Inventory.java; the declaration (125) is not a use
    assert out.startswith("2 reference(s) to 'fire' in 1 file(s):")
    assert f"{INVENTORY}:65 [call]" in out and f"{INVENTORY}:95 [call]" in out
    where = java.find_enclosing("Inventory.java", 169)
    assert "class: com.acme.core.Inventory.Auditor$1" in where
    assert "method: com.acme.core.Inventory.Auditor$1.run() (lines 167-170)" in where
    with pytest.raises(MapleError, match="between 1 and 174"):
        java.find_enclosing("Inventory.java", 999)


def test_a_reference_search_that_stops_early_says_what_it_left(java: Maple) -> None:
    out = Maple(java.index, max_results=1).find_references("add")
    # Inventory.java (lines 36, 53, 71, 81) and Order.java (38) fill the five places;
    # Strings.java, CsvReader.java and Telemetry.java hold the word 1 + 3 + 2 more times
    assert out.startswith("5 reference(s) to 'add' in 2 file(s):")
    assert "src/main/java/com/acme/core/Order.java:38 [call]" in out
    assert "the search stopped there: 3 more file(s) hold the word 6 time(s)" in out


def test_annotations_on_the_declaration_line(java: Maple) -> None:
    (java.index.root / "A.java").write_text(
        "package p;\n"
        "\n"
        "/** Doc. */\n"
        "@Deprecated public class A {\n"
        "    @Inject private int count;\n"
        "    @Override public String toString() {\n"
        '        return "a";\n'
        "    }\n"
        "\n"
        '    @SuppressWarnings("unchecked") @Deprecated\n'
        "    void g(\n"
        "        int x) {\n"
        "    }\n"
        "}\n"
    )
    skeleton = java.extract_class_skeleton("A.java").splitlines()
    assert skeleton[1:] == [
        " 1: package p;",
        " 4: @Deprecated public class A {",
        " 5:     @Inject private int count;",
        " 6:     @Override public String toString();",
        '10:     @SuppressWarnings("unchecked") @Deprecated',
        "11:     void g(",
        "12:         int x);",
        "14: }",
    ]
    klass = java.find_class("p.A")
    assert "file: A.java, lines 3-14" in klass
    assert "<code>\n/** Doc. */\n@Deprecated public class A {\n</code>" in klass
    assert "g(int)  lines 10-13" in klass
