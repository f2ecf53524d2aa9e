"""Regression tests for the wrong answers of issue 23, each on a small repository the
test writes (line numbers counted by hand from the text below)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hunkmetrics.maple import Maple, MapleError

from .conftest import index_of

BEANS = (
    "package p;\n"  # 1
    "\n"  # 2
    "public abstract class AbstractBeanFactory {\n"  # 3
    "    public Object getBean(String name) {\n"  # 4
    "        return null;\n"  # 5
    "    }\n"  # 6
    "\n"  # 7
    "    public Object getBean(String name, @Nullable Object @Nullable ... args) {\n"  # 8
    "        return args;\n"  # 9
    "    }\n"  # 10
    "\n"  # 11
    "    public int getGeneric(int @Nullable ... indexes) {\n"  # 12
    "        return 0;\n"  # 13
    "    }\n"  # 14
    "}\n"  # 15
)

REGISTRY = (
    "package p;\n"  # 1
    "\n"  # 2
    "/**\n"  # 3
    ' * Maps "/resources/**" to files,\n'  # 4
    " * serves application/*+json too.\n"  # 5
    " */\n"  # 6
    "public class ResourceHandlerRegistry {\n"  # 7
    "    /**\n"  # 8
    "     * Compares, as in text/* ranges.\n"  # 9
    "     */\n"  # 10
    "    int compare(int a, int b) {\n"  # 11
    "        return a - b;\n"  # 12
    "    }\n"  # 13
    "}\n"  # 14
)

NAMES = (
    "package p;\n"  # 1
    "\n"  # 2
    "public class Outer {\n"  # 3
    "    static class ExampleClass$$GeneratedBy {\n"  # 4
    "        void made() {}\n"  # 5
    "    }\n"  # 6
    "\n"  # 7
    "    void first() {\n"  # 8
    "        class Local {\n"  # 9
    "            int one() { return 1; }\n"  # 10
    "        }\n"  # 11
    "    }\n"  # 12
    "\n"  # 13
    "    void second() {\n"  # 14
    "        class Local {\n"  # 15
    "            int two() { return 2; }\n"  # 16
    "        }\n"  # 17
    "    }\n"  # 18
    "}\n"  # 19
)


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def maple_on(tmp_path: Path, files: dict[str, str], **options: int) -> Maple:
    root = write(tmp_path / "repo", files)
    return Maple(index_of(root, tmp_path), **options)


def test_annotated_varargs_keep_their_parameter(tmp_path: Path) -> None:
    maple = maple_on(tmp_path, {"src/p/AbstractBeanFactory.java": BEANS})
    out = maple.find_method_in_class("getBean", "AbstractBeanFactory")
    assert "[1] method p.AbstractBeanFactory.getBean(String)\n" in out
    assert "[2] method p.AbstractBeanFactory.getBean(String,Object...)\n" in out
    one = maple.find_method("AbstractBeanFactory.getBean(String, Object...)")
    assert one.startswith("Found 1 match") and "lines 8-10" in one
    generic = maple.find_method("AbstractBeanFactory.getGeneric(int...)")
    assert generic.startswith("Found 1 match") and "lines 12-14" in generic


def test_a_javadoc_holding_a_comment_opener_starts_the_span(tmp_path: Path) -> None:
    maple = maple_on(tmp_path, {"src/p/ResourceHandlerRegistry.java": REGISTRY})
    out = maple.find_class("ResourceHandlerRegistry")
    assert "file: src/p/ResourceHandlerRegistry.java, lines 3-14" in out
    method = maple.find_method("compare")
    assert "lines 8-13" in method


def test_dollar_in_names_and_local_classes_by_binary_name(tmp_path: Path) -> None:
    maple = maple_on(tmp_path, {"src/p/Outer.java": NAMES})
    out = maple.find_class("ExampleClass$$GeneratedBy")
    assert out.startswith("Found 1 match") and "lines 4-6" in out
    assert "made()" in maple.find_method_in_class("made", "ExampleClass$$GeneratedBy")
    first = maple.find_class("Outer$1Local")
    assert first.startswith("Found 1 match") and "lines 9-11" in first
    second = maple.find_class("p.Outer$2Local")
    assert second.startswith("Found 1 match") and "lines 15-17" in second
    with pytest.raises(MapleError):
        maple.find_class("Outer$3Local")


def test_a_method_listed_past_the_full_results_has_its_full_start(tmp_path: Path) -> None:
    maple = maple_on(
        tmp_path,
        {"src/p/ResourceHandlerRegistry.java": REGISTRY, "src/p/A.java": _compare("A")},
        max_results=1,
    )
    out = maple.find_method("compare")
    # A.compare is shown in full (its javadoc on 3), the registry's is listed: both from
    # their javadoc, as their full blocks would say
    assert "file: src/p/A.java, lines 3-8" in out
    assert (
        "- p.ResourceHandlerRegistry.compare(int,int) in "
        "src/p/ResourceHandlerRegistry.java lines 8-13" in out
    )


def _compare(name: str) -> str:
    return (
        "package p;\n"  # 1
        f"class {name} {{\n"  # 2
        "    /**\n"  # 3
        "     * Compares.\n"  # 4
        "     */\n"  # 5
        "    int compare(int a, int b) {\n"  # 6
        "        return b - a;\n"  # 7
        "    }\n"  # 8
        "}\n"  # 9
    )


def test_a_huge_class_answer_is_bounded(tmp_path: Path) -> None:
    members = "".join(f"    int field{i}() {{ return {i}; }}\n" for i in range(5000))
    maple = maple_on(
        tmp_path, {"src/p/Huge.java": f"package p;\nclass Huge {{\n{members}}}\n"}, budget=10_000
    )
    out = maple.find_class("Huge")
    assert len(out) <= 10_000
    assert "... and 4700 more members not listed" in out  # 300 listed of 5,000
    skeleton = maple.extract_class_skeleton("Huge.java")
    assert len(skeleton) <= 10_000
    assert "characters not shown. Ask for one class" in skeleton


def test_many_hits_stay_within_the_budget_and_are_counted(tmp_path: Path) -> None:
    files = {f"src/p/C{i}.java": _compare(f"C{i}") for i in range(40)}
    maple = maple_on(tmp_path, files, max_results=10, budget=2_000)
    out = maple.find_method("compare")
    assert len(out) <= 2_000
    assert out.startswith("Found 40 matches for method 'compare'.")
    shown = out.count("\n[")
    listed = out.count("\n- ")
    left = int(out.rsplit("... and ", 1)[1].split(" ", 1)[0])
    assert shown >= 1 and shown + listed + left == 40


@pytest.mark.parametrize(
    ("source", "types"),
    [
        ("(String name, @Nullable Object @Nullable ... args)", ["String", "Object..."]),
        ("(Class<T> type, T @Nullable ... more)", ["Class", "T..."]),
        ("(final int a[], Map<String, List<Integer>> m)", ["int[]", "Map"]),
        ('(@Ann(a = 1, b = {"x"}) java.lang.String s, Foo this)', ["java.lang.String"]),
        ("()", []),
    ],
)
def test_java_parameters_read_from_text(source: str, types: list[str]) -> None:
    from hunkmetrics.lang.hooks.java import text_parameters

    assert text_parameters(source) == types


def test_a_source_file_over_the_cap_is_left_out_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # MAPLE reads the tree as every source reader does: a file over
    # HUNKMETRICS_MAX_SOURCE_BYTES is not served (never read whole into the server)
    big = "class Big {\n" + "    int f;\n" * 2_000 + "}\n"  # 22,013 bytes
    monkeypatch.setenv("HUNKMETRICS_MAX_SOURCE_BYTES", "10000")
    maple = maple_on(tmp_path, {"src/p/Big.java": big, "src/p/Small.java": "class Small {}\n"})
    assert maple.find_class("Small").startswith("Found 1 match")
    with pytest.raises(MapleError):
        maple.find_class("Big")
