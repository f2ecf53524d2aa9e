"""Diff-only placing of nested code: a change inside a callable nested in another (a
Python inner `def`, a JavaScript function or arrow function in a function, a method of a
Java anonymous or local class, a C++ local struct's method), or inside an unnamed
function (a Java lambda, a Go func literal, a C++ lambda: the change belongs to the
named callable around it).

From the diff alone the innermost callable the hunk declares around the change is the
method, qualified by what the hunk (and the `@@` heading) shows of what holds it: when
its indentation says more levels than that, the qualification is partial, the method is
`inferred` and the note says how many levels are missing. When the hunk declares the
callable but not what holds it (a `def` at 12 columns, nothing above it), or shows no
declaration at all, nothing is claimed: `placed` is false. The expected values below are
worked out by hand from each pre-image; every diff is `git diff` output (default
`@@` headings: the last line at the left margin above the hunk) for the edit named.
"""

from __future__ import annotations

import pytest
from test_diff_only_truth import _diff_only, _names, _sources, _with_sources

from hunkmetrics.lang.evidence import Evidence
from hunkmetrics.lang.location import Location

ALL_SEEN = Evidence("seen", "seen", "seen")
NOT_VISIBLE = "enclosing method not visible in the diff (no source given)"
HIDDEN = "enclosing method declared in the diff, inside scopes not visible in it (no source given)"


def _partial(levels: int) -> str:
    plural = "s" if levels > 1 else ""
    return f"partial qualification: {levels} enclosing level{plural} not in the diff"


def _check(
    diff: str,
    sources: dict[str, str],
    expected: tuple[str | None, str | None, str | None],
    placed: bool,
    evidence: Evidence,
    note: str | None,
    truth: tuple[str | None, str | None, str | None],
) -> Location:
    """The diff-only location is `expected`; with the sources it is `truth`, all seen;
    a placed diff-only method has the innermost callable of the truth (name and
    parameters), whatever is missing from its qualification."""
    (alone,) = _diff_only(diff)
    assert (_names(alone), alone.placed, alone.evidence, alone.note) == (
        expected,
        placed,
        evidence,
        note,
    )
    (sourced,) = _with_sources(diff, _sources(sources, "src/app/__init__.py"))
    assert _names(sourced) == truth
    assert sourced.evidence == ALL_SEEN
    if alone.placed and alone.method is not None:
        assert truth[2] is not None
        assert (
            alone.method.rpartition("(")[0].rpartition(".")[2]
            == (truth[2].rpartition("(")[0].rpartition(".")[2])
        )
    return alone


# --- Python: nested functions, at -U0, -U3 and -U10 --------------------------------------

PASSING = """\
import functools


def make_pass_decorator(object_type, ensure=False):
    \"\"\"Make a decorator that passes the context object.\"\"\"
    from functools import update_wrapper

    def decorator(f):
        def new_func(*args, **kwargs):
            ctx = current()

            if ensure:
                obj = ctx.ensure(object_type)
            else:
                obj = ctx.find(object_type)

            if obj is None:
                raise RuntimeError("no object")

            return f(obj, *args, **kwargs)

        return update_wrapper(new_func, f)

    return decorator
"""
PASSING_CUT = """\
import functools


def make_pass_decorator(
    object_type, ensure=False
):
    \"\"\"Make a decorator that passes the context object.\"\"\"
    from functools import update_wrapper

    def decorator(f):
        def new_func(*args, **kwargs):
            ctx = current()

            if ensure:
                obj = ctx.ensure(object_type)
            else:
                obj = ctx.find(object_type)

            if obj is None:
                raise RuntimeError("no object")

            return f(obj, *args, **kwargs)

        return update_wrapper(new_func, f)

    return decorator
"""
RUNNER = """\
class Runner:
    \"\"\"Runs items.\"\"\"

    def run(self, items):
        def key(item):
            return item.rank

        return sorted(items, key=key)
"""
PY17_U0 = """\
--- a/src/app/passing.py
+++ b/src/app/passing.py
@@ -17 +17 @@ def make_pass_decorator(object_type, ensure=False):
-            if obj is None:
+            if obj is None or not ctx:
"""
PY17_U3 = """\
--- a/src/app/passing.py
+++ b/src/app/passing.py
@@ -14,7 +14,7 @@ def make_pass_decorator(object_type, ensure=False):
             else:
                 obj = ctx.find(object_type)
 
-            if obj is None:
+            if obj is None or not ctx:
                 raise RuntimeError("no object")
 
             return f(obj, *args, **kwargs)
"""
PY17_U10 = """\
--- a/src/app/passing.py
+++ b/src/app/passing.py
@@ -7,18 +7,18 @@ def make_pass_decorator(object_type, ensure=False):
 
     def decorator(f):
         def new_func(*args, **kwargs):
             ctx = current()
 
             if ensure:
                 obj = ctx.ensure(object_type)
             else:
                 obj = ctx.find(object_type)
 
-            if obj is None:
+            if obj is None or not ctx:
                 raise RuntimeError("no object")
 
             return f(obj, *args, **kwargs)
 
         return update_wrapper(new_func, f)
 
     return decorator
"""
PYINS10_U3 = """\
--- a/src/app/passing.py
+++ b/src/app/passing.py
@@ -8,6 +8,7 @@ def make_pass_decorator(object_type, ensure=False):
     def decorator(f):
         def new_func(*args, **kwargs):
             ctx = current()
+            ctx.check()
 
             if ensure:
                 obj = ctx.ensure(object_type)
"""
PYDEL10_U3 = """\
--- a/src/app/passing.py
+++ b/src/app/passing.py
@@ -7,7 +7,6 @@ def make_pass_decorator(object_type, ensure=False):
 
     def decorator(f):
         def new_func(*args, **kwargs):
-            ctx = current()
 
             if ensure:
                 obj = ctx.ensure(object_type)
"""
PY12_U3 = """\
--- a/src/app/passing.py
+++ b/src/app/passing.py
@@ -9,7 +9,7 @@ def make_pass_decorator(object_type, ensure=False):
         def new_func(*args, **kwargs):
             ctx = current()
 
-            if ensure:
+            if ensure and ctx:
                 obj = ctx.ensure(object_type)
             else:
                 obj = ctx.find(object_type)
"""
PYCUT19_U10 = """\
--- a/src/app/passing.py
+++ b/src/app/passing.py
@@ -9,18 +9,18 @@ def make_pass_decorator(
 
     def decorator(f):
         def new_func(*args, **kwargs):
             ctx = current()
 
             if ensure:
                 obj = ctx.ensure(object_type)
             else:
                 obj = ctx.find(object_type)
 
-            if obj is None:
+            if obj is None or not ctx:
                 raise RuntimeError("no object")
 
             return f(obj, *args, **kwargs)
 
         return update_wrapper(new_func, f)
 
     return decorator
"""
RUNNER6_U3 = """\
--- a/src/app/runner.py
+++ b/src/app/runner.py
@@ -3,6 +3,6 @@ class Runner:
 
     def run(self, items):
         def key(item):
-            return item.rank
+            return item.rank or 0
 
         return sorted(items, key=key)
"""

PY = {"src/app/passing.py": PASSING}
NEW_FUNC = "app.passing.make_pass_decorator.decorator.new_func(*args,**kwargs)"
# src/app/__init__.py exists: package `app` with sources; from the diff alone the
# directories with `src` dropped, a guess.


@pytest.mark.parametrize("diff", [PY17_U0, PY17_U3], ids=["U0", "U3"])
def test_python_nested_change_without_any_def_in_sight_is_not_placed(diff: str) -> None:
    # Line 17 `if obj is None:` (12 columns) lies in new_func (line 9), in decorator
    # (line 8), in make_pass_decorator (line 4). At -U0 the hunk is that line alone, at
    # -U3 lines 14-20: no `def` among them, so no method is claimed.
    _check(
        diff,
        PY,
        ("app", None, None),
        False,
        Evidence("inferred", "unknown", "unknown"),
        NOT_VISIBLE,
        ("app", None, NEW_FUNC),
    )


@pytest.mark.parametrize(
    "diff", [PY17_U10, PYINS10_U3, PYDEL10_U3], ids=["change-U10", "insert-U3", "delete-U3"]
)
def test_python_nested_def_under_a_def_heading_is_seen_whole(diff: str) -> None:
    # At -U10 (lines 7-24) the hunk shows `def decorator` at 4 columns and `def new_func`
    # at 8 around line 17; the heading `def make_pass_decorator(...)`, at the left
    # margin, holds them: one level per scope, nothing hidden between, so the whole name
    # is seen. Inserting after line 10 (-U3: lines 8-13) and deleting line 10 (lines
    # 7-13) show both `def` lines as well. (Before: not placed at all.)
    _check(
        diff,
        PY,
        ("app", None, NEW_FUNC),
        True,
        Evidence("inferred", "seen", "seen"),
        None,
        ("app", None, NEW_FUNC),
    )


def test_python_nested_def_whose_holder_is_hidden_is_not_placed() -> None:
    # -U3 around line 12 shows lines 9-15: `def new_func` at 8 columns, but not
    # decorator's `def` (line 8): under the heading's def one level would be 4 columns,
    # so a scope the diff does not show lies between. The change is in new_func, which
    # the fragment cannot qualify, and in no callable it shows: not placed, and the
    # note says why.
    _check(
        PY12_U3,
        PY,
        ("app", None, None),
        False,
        Evidence("inferred", "unknown", "unknown"),
        HIDDEN,
        ("app", None, NEW_FUNC),
    )


def test_python_issue_case_truncated_heading_gives_a_partial_name() -> None:
    # The issue's case: make_pass_decorator's signature spans lines 4-6, so git's
    # heading is `def make_pass_decorator(`, which does not parse as a wrapper. -U10
    # around line 19 shows lines 9-26 from `def decorator` (4 columns) down: the change
    # is in new_func (8 columns) in decorator. What is visible names it
    # `decorator.new_func`; decorator's 4 columns say one level above it is not shown
    # (make_pass_decorator, or a class: so the class is unknown too). Before, this was
    # `app.passing.decorator(f)`, placed: the wrong callable.
    _check(
        PYCUT19_U10,
        {"src/app/passing.py": PASSING_CUT},
        ("app", None, "app.passing.decorator.new_func(*args,**kwargs)"),
        True,
        Evidence("inferred", "unknown", "inferred"),
        _partial(1),
        ("app", None, NEW_FUNC),
    )


def test_python_def_nested_in_a_method_under_a_class_heading() -> None:
    # -U3 around line 6 shows lines 3-8: `def run` at 4 columns, `def key` at 8, under
    # the heading `class Runner:`: Runner.run.key, class and method seen (was
    # Runner.run(self,items), the outer method, inferred).
    _check(
        RUNNER6_U3,
        {"src/app/runner.py": RUNNER},
        ("app", "app.runner.Runner", "app.runner.Runner.run.key(item)"),
        True,
        Evidence("inferred", "seen", "seen"),
        None,
        ("app", "app.runner.Runner", "app.runner.Runner.run.key(item)"),
    )


# --- JavaScript and TypeScript: functions and arrow functions in functions ---------------

OUTER_JS = """\
'use strict';

function outer(items) {
  function inner(item) {
    const label = item.name;
    return label.trim();
  }
  const twice = (x) => {
    const y = x * 2;
    return y;
  };
  return items.map((item) => {
    const v = inner(item);
    return twice(v.length);
  });
}
"""
STORE_JS = """\
class Store {
  load(keys) {
    const pick = function (key) {
      return this.items[key];
    };
    return keys.map(pick);
  }
}
"""
CART_TS = """\
export class Cart {
  private items: number[] = [];

  count(): number {
    return this.items.length;
  }

  total(prices: number[]): number {
    const add = (a: number, b: number): number => {
      return a + b;
    };
    return prices.reduce(add, 0);
  }
}
"""
JS5_U3 = """\
--- a/lib/outer.js
+++ b/lib/outer.js
@@ -2,7 +2,7 @@
 
 function outer(items) {
   function inner(item) {
-    const label = item.name;
+    const label = item.title;
     return label.trim();
   }
   const twice = (x) => {
"""
JS9_U3 = """\
--- a/lib/outer.js
+++ b/lib/outer.js
@@ -6,7 +6,7 @@ function outer(items) {
     return label.trim();
   }
   const twice = (x) => {
-    const y = x * 2;
+    const y = x * 3;
     return y;
   };
   return items.map((item) => {
"""
JS9_U10 = """\
--- a/lib/outer.js
+++ b/lib/outer.js
@@ -1,16 +1,16 @@
 'use strict';
 
 function outer(items) {
   function inner(item) {
     const label = item.name;
     return label.trim();
   }
   const twice = (x) => {
-    const y = x * 2;
+    const y = x * 3;
     return y;
   };
   return items.map((item) => {
     const v = inner(item);
     return twice(v.length);
   });
 }
"""
JS13_U0 = """\
--- a/lib/outer.js
+++ b/lib/outer.js
@@ -13 +13 @@ function outer(items) {
-    const v = inner(item);
+    const v = inner(item) || '';
"""
JS13_U10 = """\
--- a/lib/outer.js
+++ b/lib/outer.js
@@ -3,14 +3,14 @@
 function outer(items) {
   function inner(item) {
     const label = item.name;
     return label.trim();
   }
   const twice = (x) => {
     const y = x * 2;
     return y;
   };
   return items.map((item) => {
-    const v = inner(item);
+    const v = inner(item) || '';
     return twice(v.length);
   });
 }
"""
STORE3_U0 = """\
--- a/lib/store.js
+++ b/lib/store.js
@@ -3 +3 @@ class Store {
-    const pick = function (key) {
+    const pick = function (k) {
"""
TS10_U3 = """\
--- a/src/build.ts
+++ b/src/build.ts
@@ -7,7 +7,7 @@ export class Cart {
 
   total(prices: number[]): number {
     const add = (a: number, b: number): number => {
-      return a + b;
+      return b + a;
     };
     return prices.reduce(add, 0);
   }
"""

JS = {"lib/outer.js": OUTER_JS}


def test_javascript_function_in_a_function_is_named_by_both() -> None:
    # -U3 around line 5 shows lines 2-8: `function outer` at the left margin, `function
    # inner` at 2 columns (a level is 2: `{` then 2 columns deeper), the change at 4.
    # inner is one level in outer, nothing hidden: outer.inner, seen (was outer, the
    # wrong callable, placed).
    _check(
        JS5_U3,
        JS,
        ("lib", None, "lib/outer.outer.inner(item)"),
        True,
        ALL_SEEN,
        None,
        ("lib", None, "lib/outer.outer.inner(item)"),
    )


def test_javascript_arrow_function_in_a_function_at_u3_and_u10() -> None:
    # Line 9 is in `const twice = (x) => {` (line 8) in outer (line 3). -U3 (lines 6-12)
    # shows the arrow function's declaration at 2 columns but not outer's: not placed.
    # -U10 (lines 1-16) shows both: outer.twice, seen (was outer, placed).
    truth = ("lib", None, "lib/outer.outer.twice(x)")
    _check(
        JS9_U3,
        JS,
        ("lib", None, None),
        False,
        Evidence("seen", "unknown", "unknown"),
        HIDDEN,
        truth,
    )
    _check(JS9_U10, JS, truth, True, ALL_SEEN, None, truth)


def test_javascript_anonymous_arrow_function_belongs_to_its_named_function() -> None:
    # Line 13 is in `items.map((item) => {`, an arrow function bound to no name: the
    # change is in outer. -U0 shows only the line (not placed); -U10 (lines 3-16) shows
    # outer's declaration at the left margin: seen.
    truth = ("lib", None, "lib/outer.outer(items)")
    _check(
        JS13_U0,
        JS,
        ("lib", None, None),
        False,
        Evidence("seen", "unknown", "unknown"),
        NOT_VISIBLE,
        truth,
    )
    _check(JS13_U10, JS, truth, True, ALL_SEEN, None, truth)


def test_javascript_function_expression_line_alone_is_not_a_method_named_const() -> None:
    # -U0 shows line 3 `const pick = function (key) {` alone under the heading `class
    # Store {`: in a class body it parses as a field named `const` holding a function,
    # with an error on that line. The function is real (load.pick), its name is not
    # readable: not placed (was `lib/store.Store.const(key)`, placed).
    _check(
        STORE3_U0,
        {"lib/store.js": STORE_JS},
        ("lib", "lib/store.Store", None),
        False,
        Evidence("seen", "inferred", "unknown"),
        HIDDEN,
        ("lib", "lib/store.Store", "lib/store.Store.load.pick(key)"),
    )


def test_typescript_arrow_function_in_a_method_under_a_class_heading() -> None:
    # -U3 around line 10 shows lines 7-13: `total(...)` at 2 columns, `const add = (...)
    # => {` at 4, under the heading `export class Cart {`: Cart.total.add, all seen.
    truth = ("src", "src/build.Cart", "src/build.Cart.total.add(number,number)")
    _check(TS10_U3, {"src/build.ts": CART_TS}, truth, True, ALL_SEEN, None, truth)


# --- Go: func literals -------------------------------------------------------------------

POOL_GO = """\
package worker

import "sync"

// Pool runs jobs.
type Pool struct {
\twg sync.WaitGroup
}

// Run starts every job.
func (p *Pool) Run(jobs []func() error) []error {
\terrs := make([]error, len(jobs))
\tfor i, job := range jobs {
\t\tp.wg.Add(1)
\t\tgo func(i int, job func() error) {
\t\t\tdefer p.wg.Done()
\t\t\terrs[i] = job()
\t\t}(i, job)
\t}
\tp.wg.Wait()
\treturn errs
}
"""
GO17_U0 = """\
--- a/worker/pool.go
+++ b/worker/pool.go
@@ -17 +17 @@ func (p *Pool) Run(jobs []func() error) []error {
-\t\t\terrs[i] = job()
+\t\t\terrs[i] = job() // run
"""
GO17_U3 = """\
--- a/worker/pool.go
+++ b/worker/pool.go
@@ -14,7 +14,7 @@ func (p *Pool) Run(jobs []func() error) []error {
 \t\tp.wg.Add(1)
 \t\tgo func(i int, job func() error) {
 \t\t\tdefer p.wg.Done()
-\t\t\terrs[i] = job()
+\t\t\terrs[i] = job() // run
 \t\t}(i, job)
 \t}
 \tp.wg.Wait()
"""
GO17_U10 = """\
--- a/worker/pool.go
+++ b/worker/pool.go
@@ -7,16 +7,16 @@ type Pool struct {
 \twg sync.WaitGroup
 }
 
 // Run starts every job.
 func (p *Pool) Run(jobs []func() error) []error {
 \terrs := make([]error, len(jobs))
 \tfor i, job := range jobs {
 \t\tp.wg.Add(1)
 \t\tgo func(i int, job func() error) {
 \t\t\tdefer p.wg.Done()
-\t\t\terrs[i] = job()
+\t\t\terrs[i] = job() // run
 \t\t}(i, job)
 \t}
 \tp.wg.Wait()
 \treturn errs
 }
"""
GOINS_U0 = """\
--- a/worker/pool.go
+++ b/worker/pool.go
@@ -12,0 +13 @@ func (p *Pool) Run(jobs []func() error) []error {
+retry:
"""

GO = {"worker/pool.go": POOL_GO}
RUN = ("worker", "worker.Pool", "worker.Pool.Run([]func() error)")


@pytest.mark.parametrize("diff", [GO17_U0, GO17_U3], ids=["U0", "U3"])
def test_go_func_literal_without_its_function_in_sight_is_not_placed(diff: str) -> None:
    # Line 17 is in `go func(...) {` (line 15), a func literal: no named callable. Its
    # function Run (line 11) is not in lines 17 or 14-20: not placed.
    _check(
        diff,
        GO,
        ("worker", None, None),
        False,
        Evidence("inferred", "unknown", "unknown"),
        NOT_VISIBLE,
        RUN,
    )


def test_go_func_literal_belongs_to_the_function_around_it() -> None:
    # -U10 (lines 7-22) shows `func (p *Pool) Run(...)` at the left margin: the change
    # in the func literal is in Run, class from its receiver; the package from the
    # directory (no `package` line in the hunk) is a guess.
    _check(GO17_U10, GO, RUN, True, Evidence("inferred", "seen", "seen"), None, RUN)


def test_go_label_added_at_the_margin_at_u0_is_not_top_level() -> None:
    # `retry:` added after line 12, at the left margin, as gofmt puts a label of a
    # function's outermost block; -U0 shows nothing around it: not placed (was
    # module level, seen).
    _check(
        GOINS_U0,
        GO,
        ("worker", None, None),
        False,
        Evidence("inferred", "unknown", "unknown"),
        NOT_VISIBLE,
        RUN,
    )


# --- Java: anonymous classes, lambdas, local classes -------------------------------------

TASKS_JAVA = """\
package com.acme;

import java.util.List;

public class Tasks {
  private final List<String> items;

  Runnable clear() {
    return new Runnable() {
      @Override
      public void run() {
        items.clear();
        items.add("done");
      }
    };
  }

  int total() {
    int[] sum = {0};
    items.forEach(s -> {
      sum[0] += s.length();
    });
    return sum[0];
  }

  int count() {
    class Counter {
      int n;

      void add(String s) {
        n += s.length();
      }
    }
    Counter c = new Counter();
    items.forEach(c::add);
    return c.n;
  }
}
"""
JAVA13_U3 = """\
--- a/src/main/java/com/acme/Tasks.java
+++ b/src/main/java/com/acme/Tasks.java
@@ -10,7 +10,7 @@ public class Tasks {
       @Override
       public void run() {
         items.clear();
-        items.add("done");
+        items.add("cleared");
       }
     };
   }
"""
JAVA13_U10 = """\
--- a/src/main/java/com/acme/Tasks.java
+++ b/src/main/java/com/acme/Tasks.java
@@ -3,21 +3,21 @@ package com.acme;
 import java.util.List;
 
 public class Tasks {
   private final List<String> items;
 
   Runnable clear() {
     return new Runnable() {
       @Override
       public void run() {
         items.clear();
-        items.add("done");
+        items.add("cleared");
       }
     };
   }
 
   int total() {
     int[] sum = {0};
     items.forEach(s -> {
       sum[0] += s.length();
     });
     return sum[0];
"""
JAVA21_U3 = """\
--- a/src/main/java/com/acme/Tasks.java
+++ b/src/main/java/com/acme/Tasks.java
@@ -18,7 +18,7 @@ public class Tasks {
   int total() {
     int[] sum = {0};
     items.forEach(s -> {
-      sum[0] += s.length();
+      sum[0] += s.length() + 1;
     });
     return sum[0];
   }
"""
JAVA31_U3 = """\
--- a/src/main/java/com/acme/Tasks.java
+++ b/src/main/java/com/acme/Tasks.java
@@ -28,7 +28,7 @@ public class Tasks {
       int n;
 
       void add(String s) {
-        n += s.length();
+        n += s.length() * 2;
       }
     }
     Counter c = new Counter();
"""
JAVA31_U10 = """\
--- a/src/main/java/com/acme/Tasks.java
+++ b/src/main/java/com/acme/Tasks.java
@@ -21,18 +21,18 @@ public class Tasks {
       sum[0] += s.length();
     });
     return sum[0];
   }
 
   int count() {
     class Counter {
       int n;
 
       void add(String s) {
-        n += s.length();
+        n += s.length() * 2;
       }
     }
     Counter c = new Counter();
     items.forEach(c::add);
     return c.n;
   }
 }
"""

JAVA = {"src/main/java/com/acme/Tasks.java": TASKS_JAVA}


def test_java_anonymous_class_method_at_u3_and_u10() -> None:
    # Line 13 is in run() (line 11) of `new Runnable() {` (line 9), in clear(). -U3
    # (lines 10-16) shows run()'s declaration at 6 columns, but not the anonymous class:
    # under the heading's class a method sits at 2, so what holds run() is hidden. -U10
    # (lines 3-23) shows the class, clear() and `new Runnable() {`: Tasks$1.run(), the
    # anonymous class counted from its class's declaration, seen.
    truth = ("com.acme", "com.acme.Tasks$1", "com.acme.Tasks$1.run()")
    _check(
        JAVA13_U3,
        JAVA,
        ("com.acme", "com.acme.Tasks", None),
        False,
        Evidence("inferred", "inferred", "unknown"),
        NOT_VISIBLE,
        truth,
    )
    _check(JAVA13_U10, JAVA, truth, True, Evidence("inferred", "seen", "seen"), None, truth)


def test_java_lambda_belongs_to_its_method() -> None:
    # Line 21 is in the lambda `s -> {` (line 20) of total() (line 18); -U3 (lines 18-24)
    # shows total() at 2 columns under the heading's class: Tasks.total(), seen.
    truth = ("com.acme", "com.acme.Tasks", "com.acme.Tasks.total()")
    _check(JAVA21_U3, JAVA, truth, True, Evidence("inferred", "seen", "seen"), None, truth)


def test_java_local_class_method_at_u3_and_u10() -> None:
    # Line 31 is in add() (line 30) of `class Counter {` (line 27), local to count()
    # (line 26). -U3 (lines 28-34) shows add() at 6 columns, not Counter: not placed.
    # -U10 (lines 21-38) shows count() at 2, Counter at 4, add() at 6: a local class is
    # qualified by its class only (Tasks.Counter), seen.
    truth = ("com.acme", "com.acme.Tasks.Counter", "com.acme.Tasks.Counter.add(String)")
    _check(
        JAVA31_U3,
        JAVA,
        ("com.acme", "com.acme.Tasks", None),
        False,
        Evidence("inferred", "inferred", "unknown"),
        HIDDEN,
        truth,
    )
    _check(JAVA31_U10, JAVA, truth, True, Evidence("inferred", "seen", "seen"), None, truth)


# --- C and C++: a lambda and a local struct; a preprocessor line at the margin -----------

COUNT_CC = """\
#include <algorithm>
#include <vector>

namespace geo {

int count_big(const std::vector<int>& xs, int limit) {
  struct Over {
    int limit;
    bool test(int x) const {
      return x > limit;
    }
  };
  Over over{limit};
  auto pred = [&](int x) {
    int y = x + 1;
    return over.test(y);
  };
  return std::count_if(xs.begin(), xs.end(), pred);
}

}  // namespace geo
"""
SORT_C = """\
#include <stdlib.h>

void sort_all(int *xs, size_t n)
{
#ifdef CHECK
    assert(xs != NULL);
#endif
    qsort(xs, n, sizeof *xs, cmp);
}
"""
CPP15_U3 = """\
--- a/src/count.cc
+++ b/src/count.cc
@@ -12,7 +12,7 @@ int count_big(const std::vector<int>& xs, int limit) {
   };
   Over over{limit};
   auto pred = [&](int x) {
-    int y = x + 1;
+    int y = x + 2;
     return over.test(y);
   };
   return std::count_if(xs.begin(), xs.end(), pred);
"""
CPP15_U10 = """\
--- a/src/count.cc
+++ b/src/count.cc
@@ -5,17 +5,17 @@ namespace geo {
 
 int count_big(const std::vector<int>& xs, int limit) {
   struct Over {
     int limit;
     bool test(int x) const {
       return x > limit;
     }
   };
   Over over{limit};
   auto pred = [&](int x) {
-    int y = x + 1;
+    int y = x + 2;
     return over.test(y);
   };
   return std::count_if(xs.begin(), xs.end(), pred);
 }
 
 }  // namespace geo
"""
CPP10_U3 = """\
--- a/src/count.cc
+++ b/src/count.cc
@@ -7,7 +7,7 @@ int count_big(const std::vector<int>& xs, int limit) {
   struct Over {
     int limit;
     bool test(int x) const {
-      return x > limit;
+      return x >= limit;
     }
   };
   Over over{limit};
"""
C7_U0 = """\
--- a/src/sort.c
+++ b/src/sort.c
@@ -7 +7 @@ void sort_all(int *xs, size_t n)
-#endif
+#endif /* CHECK */
"""

CPP = {"src/count.cc": COUNT_CC}


def test_cpp_lambda_belongs_to_its_function_under_a_namespace_guess() -> None:
    # Line 15 is in the lambda `auto pred = [&](int x) {` (line 14) of count_big (line
    # 6) in `namespace geo {`. -U3 (lines 12-18) shows no function: not placed. -U10
    # (lines 5-21) shows count_big at the left margin, but not the namespace above it,
    # which may qualify it: `count_big(...)`, inferred.
    truth = ("src", None, "geo.count_big(const std::vector&,int)")
    _check(
        CPP15_U3,
        CPP,
        ("src", None, None),
        False,
        Evidence("seen", "unknown", "unknown"),
        NOT_VISIBLE,
        truth,
    )
    _check(
        CPP15_U10,
        CPP,
        ("src", None, "count_big(const std::vector&,int)"),
        True,
        Evidence("seen", "inferred", "inferred"),
        None,
        truth,
    )


def test_cpp_local_struct_method_is_partially_qualified() -> None:
    # Line 10 is in test() (line 9) of `struct Over {` (line 7), local to count_big.
    # -U3 (lines 7-13) shows the struct at 2 columns and test() at 4 (a level is 2):
    # Over.test, with one level above the struct not shown (C++ qualifies a local type
    # by its namespace: geo.Over).
    _check(
        CPP10_U3,
        CPP,
        ("src", "Over", "Over.test(int)"),
        True,
        Evidence("seen", "inferred", "inferred"),
        _partial(1),
        ("src", "geo.Over", "geo.Over.test(int)"),
    )


def test_c_preprocessor_line_at_the_margin_at_u0_is_not_top_level() -> None:
    # `#endif` (line 7) stands at the left margin inside sort_all; -U0 shows that line
    # alone, which says nothing of where it is: not placed (was module level, seen).
    _check(
        C7_U0,
        {"src/sort.c": SORT_C},
        ("src", None, None),
        False,
        Evidence("seen", "unknown", "unknown"),
        NOT_VISIBLE,
        ("src", None, "sort_all(int*,size_t)"),
    )


# --- A hunk from the file's first line: nothing encloses it ------------------------------

TOP_JAVA = """\
class A {
  int f() {
    return 1;
  }
  int g() {
    return 2;
  }
}
"""
TOP_DIFF = """\
diff --git a/src/B.java b/src/B.java
--- a/src/B.java
+++ b/src/B.java
@@ -1,8 +1,8 @@
 class A {
   int f() {
-    return 1;
+    return 10;
   }
   int g() {
-    return 2;
+    return 20;
   }
 }
"""


def test_a_hunk_from_line_one_has_no_made_up_class_around_it() -> None:
    """The class named after the file (B) wraps a hunk whose enclosing type is not in
    sight; at line 1 nothing can enclose it, and its `class A` is top-level, seen (it
    was `B.A`, inferred). Worked out from the text: A holds f() and g()."""
    (alone,) = _diff_only(TOP_DIFF)
    assert _names(alone)[:2] == ("", "A")
    assert alone.methods == ("A.f()", "A.g()")
    assert alone.evidence.class_name == "seen" and alone.placed
    (sourced,) = _with_sources(TOP_DIFF, _sources({"src/B.java": TOP_JAVA}))
    assert _names(sourced) == _names(alone)
    assert sourced.methods == alone.methods
