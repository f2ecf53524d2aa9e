"""Diff-only locations tell the truth (issue 10): each of package, class and method says
whether the diff shows it (seen), guesses it (inferred) or does not know it (unknown),
and with the sources the same hunks get the same names, all seen.

Every patch below is written as `git diff` prints it for the pre-image beside it; the
expected values are worked out by hand from the pre-image, as the comments say."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from hunkmetrics.documents import hunks_document, schema
from hunkmetrics.lang.evidence import Evidence
from hunkmetrics.lang.locate import locate_patch
from hunkmetrics.lang.location import Location
from hunkmetrics.patch.model import FileDiff
from hunkmetrics.patch.parse import parse_patch
from hunkmetrics.sources.resolve import FileTexts
from hunkmetrics.workspace import open_workspace


@dataclass(frozen=True)
class _Tree:
    paths: frozenset[str]

    def exists(self, path: str) -> bool:
        return path in self.paths


@dataclass(frozen=True)
class _Sources:
    """Pre-images by path, and the tree's other paths (for Python's `__init__.py`)."""

    files: dict[str, str]
    reader: _Tree

    def texts(self, file_diff: FileDiff) -> FileTexts | None:
        text = self.files.get(file_diff.path)
        return FileTexts(text.encode(), None) if text is not None else None


def _sources(files: dict[str, str], *others: str) -> _Sources:
    return _Sources(files, _Tree(frozenset([*files, *others])))


def _diff_only(diff: str) -> list[Location]:
    return [item.location for item in locate_patch(parse_patch(diff.encode()))]


def _with_sources(diff: str, sources: _Sources) -> list[Location]:
    return [item.location for item in locate_patch(parse_patch(diff.encode()), sources)]


def _names(loc: Location) -> tuple[str | None, str | None, str | None]:
    return loc.package, loc.class_name, loc.method


ALL_SEEN = Evidence("seen", "seen", "seen")

# --- Python: a method whose class line is not in the hunk, at -U3, -U6 and -U10 -------

CLICK_CORE = """\
import typing as t


class Context:
    \"\"\"The context of a command invocation.\"\"\"

    def __init__(self, command, parent=None):
        self.command = command
        self.parent = parent
        self._protected_args = []
        self.args = []

    @property
    def protected_args(self):
        import warnings

        warnings.warn(
            "'protected_args' is deprecated and will be removed in Click 9.0.",
            DeprecationWarning,
            stacklevel=2,
        )
        return self._protected_args

    def find_root(self):
        node = self
        while node.parent is not None:
            node = node.parent
        return node
"""
CLICK_HEAD = """\
diff --git a/src/click/core.py b/src/click/core.py
--- a/src/click/core.py
+++ b/src/click/core.py
"""
CLICK_U3 = (
    CLICK_HEAD
    + """\
@@ -17,7 +17,7 @@ class Context:
         warnings.warn(
             "'protected_args' is deprecated and will be removed in Click 9.0.",
             DeprecationWarning,
-            stacklevel=2,
+            stacklevel=3,
         )
         return self._protected_args
 
"""
)
CLICK_U6 = (
    CLICK_HEAD
    + """\
@@ -14,13 +14,13 @@ class Context:
     def protected_args(self):
         import warnings
 
         warnings.warn(
             "'protected_args' is deprecated and will be removed in Click 9.0.",
             DeprecationWarning,
-            stacklevel=2,
+            stacklevel=3,
         )
         return self._protected_args
 
     def find_root(self):
         node = self
         while node.parent is not None:
"""
)
CLICK_U10 = (
    CLICK_HEAD
    + """\
@@ -10,19 +10,19 @@ class Context:
         self._protected_args = []
         self.args = []
 
     @property
     def protected_args(self):
         import warnings
 
         warnings.warn(
             "'protected_args' is deprecated and will be removed in Click 9.0.",
             DeprecationWarning,
-            stacklevel=2,
+            stacklevel=3,
         )
         return self._protected_args
 
     def find_root(self):
         node = self
         while node.parent is not None:
             node = node.parent
         return node
"""
)
CLICK_SOURCES = {"src/click/core.py": CLICK_CORE}


def test_python_method_at_u3_is_unknown_and_its_class_a_guess() -> None:
    # Line 20 lies in protected_args, whose `def` (line 14) is not among lines 17-23:
    # the method is unknown. The `@@` heading names class Context, but the hunk's
    # 12-column lines could sit in a class nested in it: the class is a guess. The
    # package: `src/click` with the `src` root dropped, no `__init__.py` to check.
    (loc,) = _diff_only(CLICK_U3)
    assert _names(loc) == ("click", "click.core.Context", None)
    assert loc.placed is False
    assert loc.evidence == Evidence("inferred", "inferred", "unknown")


@pytest.mark.parametrize("diff", [CLICK_U6, CLICK_U10], ids=["U6", "U10"])
def test_python_more_context_takes_the_class_from_the_heading(diff: str) -> None:
    # At -U6 the hunk shows `def protected_args(self):` at 4 columns, at -U10 also the
    # end of __init__'s body (8 columns) before it: the heading's `class Context:` holds
    # the def one level in, so both class and method are seen (the module function
    # `click.core.protected_args(self)` was the old, wrong answer at -U10).
    (loc,) = _diff_only(diff)
    assert _names(loc) == (
        "click",
        "click.core.Context",
        "click.core.Context.protected_args(self)",
    )
    assert loc.placed is True
    assert loc.evidence == Evidence("inferred", "seen", "seen")


@pytest.mark.parametrize("diff", [CLICK_U3, CLICK_U6, CLICK_U10], ids=["U3", "U6", "U10"])
def test_python_with_sources_every_context_gives_the_same_seen_answer(diff: str) -> None:
    # src/click/__init__.py exists, src/__init__.py does not: package `click`.
    (loc,) = _with_sources(diff, _sources(CLICK_SOURCES, "src/click/__init__.py"))
    assert _names(loc) == (
        "click",
        "click.core.Context",
        "click.core.Context.protected_args(self)",
    )
    assert loc.evidence == ALL_SEEN


def test_python_hunk_starting_in_a_docstring_keeps_its_class() -> None:
    # The hunk opens on the last line of ParamType's docstring (its `\"\"\"` opening is
    # above the hunk), then shows `def convert` at 4 columns, body at 8, under the
    # heading's class: Context-free, `convert` would read as a module function.
    diff = """\
--- a/src/click/types.py
+++ b/src/click/types.py
@@ -7,7 +7,7 @@ class ParamType:
         Now generic.
     \"\"\"
 
     def convert(self, value):
-        return value
+        return self.coerce(value)
 
     def coerce(self, value):
"""
    (loc,) = _diff_only(diff)
    assert _names(loc) == (
        "click",
        "click.types.ParamType",
        "click.types.ParamType.convert(self,value)",
    )
    assert loc.evidence == Evidence("inferred", "seen", "seen")


# --- Python: `__init__.py` is its package; module level is not unknown ----------------

PKG_INIT = """\
\"\"\"The package.\"\"\"

VERSION = "1.0"


def helper(x):
    return x + 1
"""
PKG_DIFF = """\
diff --git a/pkg/__init__.py b/pkg/__init__.py
--- a/pkg/__init__.py
+++ b/pkg/__init__.py
@@ -1,6 +1,6 @@
 \"\"\"The package.\"\"\"
 
-VERSION = "1.0"
+VERSION = "1.1"
 
 
 def helper(x):
@@ -4,4 +4,4 @@ VERSION = "1.0"
 
 
 def helper(x):
-    return x + 1
+    return x + 2
"""


def test_python_init_module_is_the_package_from_the_diff_and_from_sources() -> None:
    # Hunk 1 changes line 3, a module-level assignment at column 0: no class and no
    # method, and the diff shows it (seen), unlike an unknown null. Hunk 2 is in
    # helper, declared on line 6 of the hunk: `pkg.helper(x)`, not `pkg.__init__.helper`.
    alone = _diff_only(PKG_DIFF)
    assert [_names(loc) for loc in alone] == [
        ("pkg", None, None),
        ("pkg", None, "pkg.helper(x)"),
    ]
    assert [loc.evidence for loc in alone] == [
        Evidence("inferred", "seen", "seen"),
        Evidence("inferred", "seen", "seen"),
    ]
    assert [loc.placed for loc in alone] == [True, True]
    sourced = _with_sources(PKG_DIFF, _sources({"pkg/__init__.py": PKG_INIT}))
    assert [_names(loc) for loc in sourced] == [_names(loc) for loc in alone]
    assert [loc.evidence for loc in sourced] == [ALL_SEEN, ALL_SEEN]


def test_python_indented_lines_without_a_heading_are_unknown_not_module_level() -> None:
    # Lines at 8 columns, no `def` or `class` shown and no section heading: they are
    # inside something the diff does not show. Null class and method, both unknown.
    diff = """\
--- a/tools/run.py
+++ b/tools/run.py
@@ -40,3 +40,3 @@
         total = 0
-        total += step
+        total -= step
         return total
"""
    (loc,) = _diff_only(diff)
    assert _names(loc) == ("tools", None, None)
    assert loc.placed is False
    assert loc.evidence == Evidence("inferred", "unknown", "unknown")


# --- Java: multi-module layout, nested and anonymous classes ---------------------------

GSON_PATH = "gson/src/main/java/com/google/gson/internal/bind/TypeAdapters.java"
TYPE_ADAPTERS = """\
package com.google.gson.internal.bind;

import java.util.List;
import java.util.Map;

public final class TypeAdapters {
  private TypeAdapters() {}

  static final class Holder {
    int count;

    void bump(int by) {
      count += by;
      count = Math.max(count, 0);
    }
  }

  static int twice(int x) {
    return 2 * x;
  }

  static int thrice(int x) {
    return 3 * x;
  }

  Runnable task(final List<String> items) {
    Runnable r = new Runnable() {
      @Override
      public void run() {
        items.clear();
        items.add("x");
      }
    };
    return r;
  }
}
"""
GSON_HEAD = f"""\
diff --git a/{GSON_PATH} b/{GSON_PATH}
--- a/{GSON_PATH}
+++ b/{GSON_PATH}
"""
GSON_DIFF = (
    GSON_HEAD
    + """\
@@ -1,7 +1,7 @@
 package com.google.gson.internal.bind;
 
 import java.util.List;
-import java.util.Map;
+import java.util.HashMap;
 
 public final class TypeAdapters {
   private TypeAdapters() {}
@@ -11,7 +11,7 @@ public final class TypeAdapters {
 
     void bump(int by) {
       count += by;
-      count = Math.max(count, 0);
+      count = Math.max(count, 1);
     }
   }
 
@@ -20,7 +20,7 @@ public final class TypeAdapters {
   }
 
   static int thrice(int x) {
-    return 3 * x;
+    return x * 3;
   }
 
   Runnable task(final List<String> items) {
@@ -28,7 +28,7 @@ public final class TypeAdapters {
       @Override
       public void run() {
         items.clear();
-        items.add("x");
+        items.add("y");
       }
     };
     return r;
"""
)
# The line that opens the anonymous class changes: it belongs to task, not to $1.
GSON_ANONYMOUS_OPENING = (
    GSON_HEAD
    + """\
@@ -24,7 +24,7 @@ public final class TypeAdapters {
   }
 
   Runnable task(final List<String> items) {
-    Runnable r = new Runnable() {
+    final Runnable r = new Runnable() {
       @Override
       public void run() {
         items.clear();
"""
)
BIND = "com.google.gson.internal.bind"


def test_java_diff_only_never_states_the_outer_class_of_a_nested_one_as_seen() -> None:
    alone = _diff_only(GSON_DIFF)
    # Hunk 1: an import line at the left margin is outside every class; the hunk shows
    # the package line, so the package is seen (multi-module root dropped).
    assert _names(alone[0]) == (BIND, None, None)
    assert alone[0].evidence == ALL_SEEN
    # Hunks 2-4 do not show the package line, hunk 1 of the same file does: seen.
    # Hunk 2: `void bump` at 4 columns, its body at 6: two columns a level, so bump sits
    # two levels deep, in a class nested in TypeAdapters that the hunk does not show.
    # The values are the outer class's, and both are marked inferred.
    assert _names(alone[1]) == (
        BIND,
        f"{BIND}.TypeAdapters",
        f"{BIND}.TypeAdapters.bump(int)",
    )
    assert alone[1].evidence == Evidence("seen", "inferred", "inferred")
    # Hunk 3: `static int thrice` at 2 columns, one level in the heading's class: seen.
    assert _names(alone[2]) == (
        BIND,
        f"{BIND}.TypeAdapters",
        f"{BIND}.TypeAdapters.thrice(int)",
    )
    assert alone[2].evidence == ALL_SEEN
    # Hunk 4: inside run() of the anonymous class, neither `new Runnable() {` nor
    # task's declaration shown: the class is a guess, the method unknown.
    assert _names(alone[3]) == (BIND, f"{BIND}.TypeAdapters", None)
    assert alone[3].placed is False
    assert alone[3].evidence == Evidence("seen", "inferred", "unknown")


def test_java_with_sources_names_the_nested_and_anonymous_classes() -> None:
    sourced = _with_sources(GSON_DIFF, _sources({GSON_PATH: TYPE_ADAPTERS}))
    assert [_names(loc) for loc in sourced] == [
        (BIND, None, None),
        (BIND, f"{BIND}.TypeAdapters.Holder", f"{BIND}.TypeAdapters.Holder.bump(int)"),
        (BIND, f"{BIND}.TypeAdapters", f"{BIND}.TypeAdapters.thrice(int)"),
        (BIND, f"{BIND}.TypeAdapters$1", f"{BIND}.TypeAdapters$1.run()"),
    ]
    assert {loc.evidence for loc in sourced} == {ALL_SEEN}


def test_java_anonymous_class_is_entered_from_the_line_after_its_opening() -> None:
    # Line 27 `Runnable r = new Runnable() {` is a statement of task; the anonymous
    # class's body starts on line 28.
    expected = (BIND, f"{BIND}.TypeAdapters", f"{BIND}.TypeAdapters.task(List)")
    (sourced,) = _with_sources(GSON_ANONYMOUS_OPENING, _sources({GSON_PATH: TYPE_ADAPTERS}))
    assert _names(sourced) == expected
    (alone,) = _diff_only(GSON_ANONYMOUS_OPENING)
    assert _names(alone) == expected
    assert alone.evidence == Evidence("inferred", "seen", "seen")


def test_java_method_is_no_more_than_inferred_when_the_hunk_hides_the_indentation() -> None:
    # A constructor at 4 columns whose parameters continue at 8 and whose body the hunk
    # does not reach: nothing shows whether a level is 2 columns (then it sits in a
    # nested class, as here: MapTypeAdapterFactory.Adapter) or 4. So not seen.
    diff = """\
--- a/gson/src/main/java/com/google/gson/internal/bind/MapTypeAdapterFactory.java
+++ b/gson/src/main/java/com/google/gson/internal/bind/MapTypeAdapterFactory.java
@@ -163,7 +163,7 @@ public final class MapTypeAdapterFactory implements TypeAdapterFactory {
     private final TypeAdapter<V> valueTypeAdapter;
     private final ObjectConstructor<? extends Map<K, V>> constructor;
 
-    public Adapter(
+    Adapter(
         TypeAdapter<K> keyTypeAdapter,
         TypeAdapter<V> valueTypeAdapter,
         ObjectConstructor<? extends Map<K, V>> constructor) {
"""
    (loc,) = _diff_only(diff)
    # The values are read as if a level were 4 columns (the outer class), marked guesses.
    assert _names(loc) == (
        BIND,
        f"{BIND}.MapTypeAdapterFactory",
        f"{BIND}.MapTypeAdapterFactory.Adapter(TypeAdapter,TypeAdapter,ObjectConstructor)",
    )
    assert loc.evidence == Evidence("inferred", "inferred", "inferred")


# --- Go: receivers ---------------------------------------------------------------------

GEN_GO = """\
package doc

import (
\t"fmt"
\t"io"
)

// Generator writes command documentation.
type Generator struct {
\tTitle string
}

// Run writes the title.
func (g *Generator) Run(out io.Writer) error {
\t_, err := fmt.Fprintln(out, g.Title)
\treturn err
}

// NewGenerator makes a Generator.
func NewGenerator(title string) *Generator {
\treturn &Generator{Title: title}
}
"""
GEN_DIFF = """\
diff --git a/doc/gen.go b/doc/gen.go
--- a/doc/gen.go
+++ b/doc/gen.go
@@ -12,7 +12,7 @@ type Generator struct {
 
 // Run writes the title.
 func (g *Generator) Run(out io.Writer) error {
-\t_, err := fmt.Fprintln(out, g.Title)
+\t_, err := fmt.Fprintf(out, "%s\\n", g.Title)
 \treturn err
 }
 
@@ -20,3 +20,9 @@ func (g *Generator) Run(out io.Writer) error {
 func NewGenerator(title string) *Generator {
 \treturn &Generator{Title: title}
 }
+
+// Footer writes a closing line.
+func (g *Generator) Footer(out io.Writer, width int) error {
+\t_, err := fmt.Fprintln(out, width)
+\treturn err
+}
"""


def test_go_methods_take_their_receiver_as_class_and_keep_their_package() -> None:
    # Hunk 1 is in Run, whose receiver is *Generator. Hunk 2 adds Footer after line
    # 22, outside every function: no method, but the class is Footer's receiver type.
    # From the diff alone the package is doc's directory name (Go's convention), a guess.
    expected = [
        ("doc", "doc.Generator", "doc.Generator.Run(io.Writer)"),
        ("doc", "doc.Generator", None),
    ]
    alone = _diff_only(GEN_DIFF)
    assert [_names(loc) for loc in alone] == expected
    assert [loc.evidence for loc in alone] == [Evidence("inferred", "seen", "seen")] * 2
    assert [loc.placed for loc in alone] == [True, True]
    sourced = _with_sources(GEN_DIFF, _sources({"doc/gen.go": GEN_GO}))
    assert [_names(loc) for loc in sourced] == expected
    assert {loc.evidence for loc in sourced} == {ALL_SEEN}


def test_go_added_method_without_a_comment_is_at_the_top_level() -> None:
    # The added block starts with the `func` line itself (it opens a block, yet lands
    # after NewGenerator's closing `}`, outside every function): class from the receiver.
    diff = """\
--- a/doc/gen.go
+++ b/doc/gen.go
@@ -20,3 +20,8 @@ func (g *Generator) Run(out io.Writer) error {
 func NewGenerator(title string) *Generator {
 \treturn &Generator{Title: title}
 }
+
+func (g *Generator) Footer(out io.Writer, width int) error {
+\t_, err := fmt.Fprintln(out, width)
+\treturn err
+}
"""
    (alone,) = _diff_only(diff)
    assert _names(alone) == ("doc", "doc.Generator", None)
    assert alone.placed is True
    assert alone.evidence == Evidence("inferred", "seen", "seen")
    (sourced,) = _with_sources(diff, _sources({"doc/gen.go": GEN_GO}))
    assert _names(sourced) == ("doc", "doc.Generator", None)


def test_go_file_at_the_root_has_an_unknown_package_from_the_diff() -> None:
    # A root file's package is named in its `package` line only (the module's name):
    # not in this hunk, so unknown, and the class is qualified by nothing.
    diff = """\
--- a/command.go
+++ b/command.go
@@ -80,4 +80,4 @@ type Command struct {
 // Name returns the command's name.
 func (c *Command) Name() string {
-\treturn c.Use
+\treturn strings.Fields(c.Use)[0]
 }
"""
    (loc,) = _diff_only(diff)
    assert _names(loc) == (None, "Command", "Command.Name()")
    assert loc.evidence == Evidence("unknown", "seen", "seen")


def test_go_package_from_another_file_of_its_directory_is_a_guess() -> None:
    # command.go's hunk shows no `package` line, args.go's (same directory, the root)
    # does: Go packages are per directory, so `cobra` is inferred for command.go.
    diff = """\
--- a/args.go
+++ b/args.go
@@ -1,4 +1,5 @@
 package cobra
 
 import (
+\t"errors"
 \t"fmt"
--- a/command.go
+++ b/command.go
@@ -80,4 +80,4 @@ type Command struct {
 // Name returns the command's name.
 func (c *Command) Name() string {
-\treturn c.Use
+\treturn strings.Fields(c.Use)[0]
 }
"""
    args, command = _diff_only(diff)
    assert args.package == "cobra" and args.evidence.package == "seen"
    assert _names(command) == ("cobra", "cobra.Command", "cobra.Command.Name()")
    assert command.evidence == Evidence("inferred", "seen", "seen")


# --- JavaScript and TypeScript: qualified by the module path ---------------------------

ROUTER_JS = """\
'use strict';

function handle(req, res) {
  const layer = req.layer;
  return layer.handle(req, res);
}

module.exports = handle;
"""
ROUTER_DIFF = """\
--- a/lib/router/index.js
+++ b/lib/router/index.js
@@ -1,6 +1,6 @@
 'use strict';
 
 function handle(req, res) {
-  const layer = req.layer;
+  const layer = req.route.layer;
   return layer.handle(req, res);
 }
"""
STORE_TS = """\
export class Store {
  private items: string[] = [];

  add(item: string): number {
    this.items.push(item);
    return this.items.length;
  }
}
"""
STORE_DIFF = """\
--- a/src/app/store.ts
+++ b/src/app/store.ts
@@ -2,6 +2,6 @@ export class Store {
   private items: string[] = [];
 
   add(item: string): number {
-    this.items.push(item);
+    this.items.unshift(item);
     return this.items.length;
   }
"""


def test_javascript_function_is_qualified_by_its_module_path() -> None:
    # The module is the path without its extension, like Python's dotted module; the
    # package (the directory) is the package by definition, so it is seen.
    expected = ("lib/router", None, "lib/router/index.handle(req,res)")
    (alone,) = _diff_only(ROUTER_DIFF)
    assert _names(alone) == expected
    assert alone.evidence == ALL_SEEN
    (sourced,) = _with_sources(ROUTER_DIFF, _sources({"lib/router/index.js": ROUTER_JS}))
    assert _names(sourced) == expected


def test_typescript_method_is_qualified_by_its_module_path() -> None:
    expected = ("src/app", "src/app/store.Store", "src/app/store.Store.add(string)")
    (sourced,) = _with_sources(STORE_DIFF, _sources({"src/app/store.ts": STORE_TS}))
    assert _names(sourced) == expected
    # From the diff alone: `add(...) {` at 2 columns, its body at 4, one level inside
    # the heading's `export class Store {`: seen, like a Java method in its heading's class.
    (alone,) = _diff_only(STORE_DIFF)
    assert _names(alone) == expected
    assert alone.evidence == ALL_SEEN


def test_typescript_method_without_its_class_in_sight_is_unknown() -> None:
    # The same hunk without a section heading: `add(item: string): number {` alone does
    # not parse as a method, and no class shows. Class and method are unknown, which a
    # module-level null (seen) is not.
    (alone,) = _diff_only(STORE_DIFF.replace("@@ export class Store {", "@@"))
    assert _names(alone) == ("src/app", None, None)
    assert alone.placed is False
    assert alone.evidence == Evidence("seen", "unknown", "unknown")


# --- C++: a namespace above the hunk qualifies the names ----------------------------------

SHAPE_CC = """\
#include "shape.h"

namespace geo {

int Shape::area() const {
  return w * h;
}

}  // namespace geo
"""
SHAPE_DIFF = """\
--- a/src/shape.cc
+++ b/src/shape.cc
@@ -4,5 +4,5 @@ namespace geo {
 
 int Shape::area() const {
-  return w * h;
+  return w * h * 1;
 }
 
"""


def test_cpp_names_under_a_namespace_not_shown_are_guesses() -> None:
    # `namespace geo {` (line 3) does not indent what it holds, so a definition at the
    # left margin may sit in it: from the diff alone `Shape` is a guess for `geo.Shape`.
    (alone,) = _diff_only(SHAPE_DIFF)
    assert _names(alone) == ("src", "Shape", "Shape.area()")
    assert alone.evidence == Evidence("seen", "inferred", "inferred")
    (sourced,) = _with_sources(SHAPE_DIFF, _sources({"src/shape.cc": SHAPE_CC}))
    assert _names(sourced) == ("src", "geo.Shape", "geo.Shape.area()")
    assert sourced.evidence == ALL_SEEN


# --- Documents ---------------------------------------------------------------------------


def test_hunk_records_carry_the_evidence_and_fit_the_schema() -> None:
    with open_workspace(GSON_DIFF) as workspace:
        document = hunks_document(workspace)
    assert [h["evidence"] for h in document["hunks"]] == [
        "seen/seen/seen",
        "seen/inferred/inferred",
        "seen/seen/seen",
        "seen/inferred/unknown",
    ]
    pattern = schema("hunks")["properties"]["hunks"]["items"]["properties"]["evidence"]["pattern"]
    assert all(re.fullmatch(pattern, h["evidence"]) for h in document["hunks"])
    assert not re.fullmatch(pattern, "seen/seen")


def test_a_file_without_grammar_has_unknown_class_and_method() -> None:
    diff = """\
--- a/lib/tool.rb
+++ b/lib/tool.rb
@@ -1,3 +1,3 @@
 def run
-  1
+  2
 end
"""
    (loc,) = _diff_only(diff)
    assert (loc.language, loc.class_name, loc.method) == (None, None, None)
    assert loc.evidence == Evidence("seen", "unknown", "unknown")
