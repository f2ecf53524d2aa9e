"""Adding a language in two files (docs/languages.md): a toy language registered at run
time from a rules file and a hooks file in a temporary directory, then located by hand."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from hunkmetrics import parse_patch
from hunkmetrics.lang import Hooks, Languages, default_languages, locate_patch, rules_for_path
from hunkmetrics.patch.model import FileDiff

# The toy language borrows Python's grammar under its own name and extension.
TOY_RULES = """\
name = "toy"
extensions = [".toy"]
grammar = "tree_sitter_python:language"
hooks = "toy_hooks.py"
types = ["class_definition"]
anonymous = []
callables = ["function_definition"]
namespaces = []
qualify_by_callables = true
package = "directory"
package_query = ""
source_roots = []
comments = ["comment"]
fragment = "indent"
"""

# Its hooks: callables are named in capitals, and every name starts with the file's stem.
# Parameters, packages and fragments keep the defaults of `Hooks`.
TOY_HOOKS = """\
from pathlib import PurePosixPath

from hunkmetrics.lang.hooks import Hooks
from hunkmetrics.lang.names import text


class ToyHooks(Hooks):
    def callable_name(self, node):
        name = node.child_by_field_name("name")
        return text(name).upper() if name is not None else None

    def module_root(self, package, path, from_diff):
        return PurePosixPath(path).stem


HOOKS = ToyHooks()
"""

PRE = (
    "class Circle:\n"  # 1
    "    def area(self, r):\n"  # 2
    "        return 3 * r * r\n"  # 3
    "\n"  # 4
    "\n"  # 5
    "def helper(x, y=2):\n"  # 6
    "    return x + y\n"  # 7
)

DIFF = b"""\
--- a/pkg/shapes.toy
+++ b/pkg/shapes.toy
@@ -2,2 +2,2 @@ class Circle:
     def area(self, r):
-        return 3 * r * r
+        return 3.14 * r * r
@@ -6,2 +6,2 @@ class Circle:
 def helper(x, y=2):
-    return x + y
+    return x - y
"""


@pytest.fixture
def toy(tmp_path: Path) -> Languages:
    (tmp_path / "toy.toml").write_text(TOY_RULES, encoding="utf-8")
    (tmp_path / "toy_hooks.py").write_text(TOY_HOOKS, encoding="utf-8")
    return default_languages().with_files(tmp_path / "toy.toml")


@dataclass(frozen=True)
class Texts:
    pre: bytes | None
    post: bytes | None


@dataclass(frozen=True)
class MemoryTree:
    files: dict[str, bytes]

    def exists(self, path: str) -> bool:
        return path in self.files


@dataclass(frozen=True)
class PreImages:
    """The smallest thing `locate_patch` accepts as sources: a tree and each file's texts."""

    reader: MemoryTree

    def texts(self, file_diff: FileDiff) -> Texts | None:
        data = self.reader.files.get(file_diff.path)
        return Texts(data, None) if data is not None else None


def test_the_registry_adds_the_toy_language_and_keeps_the_defaults(toy: Languages) -> None:
    assert toy.for_path("pkg/shapes.toy") is toy["toy"]
    assert type(toy["toy"].hooks).__name__ == "ToyHooks"
    assert isinstance(toy["toy"].hooks, Hooks)
    assert toy.for_path("A.java") is default_languages()["java"]
    assert set(toy) == {*default_languages(), "toy"}
    # Nothing global changed: the package's own registry does not know the toy.
    assert rules_for_path("pkg/shapes.toy") is None
    assert "toy" not in default_languages()


def test_toy_hunks_located_from_source(toy: Languages) -> None:
    sources = PreImages(MemoryTree({"pkg/shapes.toy": PRE.encode()}))
    located = locate_patch(parse_patch(DIFF), sources, languages=toy)
    # Line 3 lies in area (lines 2-3) of class Circle (lines 1-3); the root is the stem
    # `shapes`, the hook capitalises the callable, the default prints parameters as
    # written. Line 7 lies in helper (lines 6-7), outside any class. Package: the
    # directory `pkg`.
    assert [
        (
            i.location.language,
            i.location.package,
            i.location.class_name,
            i.location.method,
            i.location.method_span,
        )
        for i in located
    ] == [
        ("toy", "pkg", "shapes.Circle", "shapes.Circle.AREA(self,r)", (2, 3)),
        ("toy", "pkg", None, "shapes.HELPER(x,y=2)", (6, 7)),
    ]
    assert all(i.location.located_by == "source" for i in located)


def test_toy_hunks_located_from_the_diff_alone(toy: Languages) -> None:
    located = locate_patch(parse_patch(DIFF), languages=toy)
    # Hunk 1 shows `def area` but not `class Circle` (the section heading is only used
    # by hooks that ask for it, and the toy's do not): the method is qualified by the
    # module alone. Hunk 2 shows all of helper.
    assert [
        (i.location.package, i.location.class_name, i.location.method, i.location.placed)
        for i in located
    ] == [
        ("pkg", None, "shapes.AREA(self,r)", True),
        ("pkg", None, "shapes.HELPER(x,y=2)", True),
    ]
    assert all(i.location.located_by == "diff" for i in located)


def test_a_rules_file_with_an_unknown_key_is_refused(tmp_path: Path) -> None:
    # `parameters` was once a key that nothing read; the loader now refuses such keys.
    (tmp_path / "toy.toml").write_text(TOY_RULES + 'parameters = "names"\n', encoding="utf-8")
    (tmp_path / "toy_hooks.py").write_text(TOY_HOOKS, encoding="utf-8")
    with pytest.raises(ValueError, match="unknown keys \\['parameters'\\]"):
        Languages.from_files([tmp_path / "toy.toml"])


def test_a_language_without_hooks_gets_the_defaults(tmp_path: Path) -> None:
    rules = TOY_RULES.replace('hooks = "toy_hooks.py"\n', "")
    (tmp_path / "plain.toml").write_text(rules, encoding="utf-8")
    plain = Languages.from_files([tmp_path / "plain.toml"])
    assert type(plain["toy"].hooks) is Hooks
    located = locate_patch(parse_patch(DIFF), languages=plain)
    # Default naming: the `name` field as written; no module root for a directory package.
    assert [i.location.method for i in located] == ["area(self,r)", "helper(x,y=2)"]


def test_every_default_language_names_its_hooks() -> None:
    hooks = {name: type(lang.hooks).__name__ for name, lang in default_languages().items()}
    assert hooks == {
        "c": "CFamilyHooks",
        "cpp": "CFamilyHooks",
        "go": "GoHooks",
        "java": "JavaHooks",
        "javascript": "EcmaScriptHooks",
        "python": "PythonHooks",
        "tsx": "EcmaScriptHooks",
        "typescript": "EcmaScriptHooks",
    }
